"""The table at 80×24 as a new player reads it (issue 26, item 10): passing words never
cover the hint or the ledger, groups and short phrases never break inside, the dealer and
eldest marks at every size, and below the smallest size a line that says so."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import OptionList

from lald.core import CARDS, Card, LaidDown, Rules
from lald.i18n import Catalog
from lald.tui.fullscreen.app import TableApp
from lald.tui.fullscreen.screens import ConfirmScreen
from lald.tui.fullscreen.table import TableScreen
from lald.tui.fullscreen.widgets import LinesView
from lald.tui.game import Game, SeatSpec
from lald.tui.lesson import LessonGame
from lald.tui.store import Store
from lald.tui.words import default_names, prompt_title, rank_groups

EN = Catalog("en")
SMALL = (80, 24)


def game_of(seed: int = 11, humans: tuple[int, ...] = (0,)) -> Game:
    names = default_names(EN, 5)
    return Game.new(Rules.make(), [SeatSpec("human" if s in humans else "random", names[s])
                                   for s in range(5)], seed)


def run(app: TableApp, body: Callable[[Pilot[str]], Awaitable[None]],
        size: tuple[int, int] = SMALL) -> None:
    async def main() -> None:
        # toasts shown, as in a terminal (Textual's tests leave them out by default)
        async with app.run_test(size=size, notifications=True) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(main())


def screen_lines(app: TableApp, region: Region | None = None) -> list[str]:
    """The screen's text (inside ``region``), as a person reads it."""
    strips = app.screen._compositor.render_strips()
    text = ["".join(segment.text for segment in strip) for strip in strips]
    if region is None:
        return text
    return [line[region.x:region.right] for line in text[region.y:region.bottom]]


def words(text: str) -> list[str]:
    return text.split()


async def until(pilot: Pilot[str], done: Callable[[], bool], steps: int = 100) -> None:
    for _ in range(steps):
        if done():
            return
        await pilot.pause()
    raise AssertionError("never")


def test_hints_are_on_does_not_hide_the_first_hint(tmp_path: Path) -> None:
    """After the lesson, "Hints are on: ..." came as a toast over the first hint."""
    after = game_of(seed=5)
    app = TableApp(LessonGame(default_names(EN, 5)), EN, Store(tmp_path), pace=0, claim_window=0,
                   setup=False, after_lesson=after)

    async def body(pilot: Pilot[str]) -> None:
        app._lesson_done(None)  # the lesson's settlement closed: the normal deal, hints on
        await until(pilot, lambda: app.game is after and app.table.hint is not None)
        await pilot.pause()
        table = app.table
        assert table.hint is not None
        hint = table.query_one("#hint", LinesView)
        shown = " ".join(screen_lines(app, hint.region))
        assert words(shown) == words(table.hint.text), shown
        everything = " ".join(screen_lines(app))
        assert " ".join(words(EN.t("hints_on"))) in " ".join(words(everything))

    run(app, body)


def test_the_others_laugh_does_not_cover_the_ledger(tmp_path: Path) -> None:
    """"The others laugh!" came as a toast over the ledger's last rows for seconds."""
    game = game_of(seed=3)
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False)
    checked = 0

    async def body(pilot: Pilot[str]) -> None:
        nonlocal checked
        seen = 0
        for _ in range(300):
            screen = app.screen
            if isinstance(screen, ConfirmScreen):
                await pilot.press("y")
            elif isinstance(screen, TableScreen) and screen.prompt is not None:
                state = game.state
                assert state is not None
                laid = sum(1 for op in state.history if isinstance(op, LaidDown) and op.seat != 0)
                if laid > seen:  # another seat just lay down: the others laugh
                    seen = laid
                    await pilot.pause()
                    ledger = screen.query_one("#ledger")
                    shown = screen_lines(app, ledger.region)
                    cells = [line.strip("│ ").split() for line in shown]
                    names = [c[0] for c in cells if c and c[0] in game.names]
                    assert names == list(game.names), shown
                    assert any(EN.t("laugh") in line for line in screen_lines(app))
                    checked += 1
                    if checked == 2:
                        return
                await pilot.press("1")
            else:
                return
            await pilot.pause()

    run(app, body)
    assert checked, "no seat lay down"


# -- nothing breaks inside a group or a short phrase; the roles at every size ---------------


def card_lines(app: TableApp, widget: str) -> list[list[str]]:
    """The glyphs of each screen line of a widget (its label and brackets left out)."""
    region = app.screen.query_one(widget).region
    glyphs = {c.glyph for c in CARDS}
    return [[w for w in line.replace("[", " ").replace("]", " ").split() if w in glyphs]
            for line in screen_lines(app, region)]


def split_groups(lines: list[list[str]], cards: list[Card]) -> list[tuple[str, ...]]:
    """The groups of ``cards`` (by rank) whose glyphs are not all on one line."""
    where = {glyph: i for i, line in enumerate(lines) for glyph in line}
    assert set(where) == {c.glyph for c in cards}, (lines, cards)
    return [tuple(c.glyph for c in group) for group in rank_groups(cards)
            if len({where[c.glyph] for c in group}) > 1]


def at_first_prompt(app: TableApp, body: Callable[[TableScreen], None],
                    size: tuple[int, int] = SMALL) -> None:
    async def main(pilot: Pilot[str]) -> None:
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.prompt is not None)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        body(screen)

    run(app, main, size)


def test_a_group_of_cards_never_breaks_across_lines(tmp_path: Path) -> None:
    """At 80×24 the hand's line wraps: seen before, `[K♠ K♥` on one line and `K♦]` on the
    next. A group (a rank's cards, a marked pair or prial) moves to the next line whole,
    in the hand and on the table."""
    wrapped = 0

    def check(screen: TableScreen) -> None:
        nonlocal wrapped
        app, state = screen.app, screen.game.state
        assert isinstance(app, TableApp) and state is not None and screen.prompt is not None
        for widget, cards in (("#hand", state.hand(screen.prompt.seat)), ("#table", state.table)):
            lines = [line for line in card_lines(app, widget) if line]
            wrapped += len(lines) > 1
            assert split_groups(lines, sorted(cards)) == [], (widget, screen_lines(
                app, screen.query_one(widget).region))

    for seed in range(12):
        at_first_prompt(TableApp(game_of(seed=seed), EN, Store(tmp_path), pace=0, claim_window=0,
                                 setup=False), check)
    assert wrapped >= 4  # the lines did wrap


def test_the_lesson_mark_and_the_seconds_left_never_break(tmp_path: Path) -> None:
    """At 80×24 `◀ the` / `lesson's move` and `(2` / `seconds left)` broke across lines;
    each now moves to the next line whole."""
    app = TableApp(LessonGame(default_names(EN, 5)), EN, Store(tmp_path), pace=0, claim_window=0,
                   setup=False)

    async def lesson(pilot: Pilot[str]) -> None:
        await pilot.press("enter")  # the welcome
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.prompt is not None)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.lesson_index is not None
        menu = screen.query_one("#menu", OptionList)
        shown = [line.rstrip() for line in screen_lines(app, menu.region)]
        mark = "◀ " + EN.t("lesson_mark")
        assert len(" ".join(shown)) > menu.region.width  # the marked line is longer than the menu
        assert any(line.endswith(mark) for line in shown), shown

    run(app, lesson)

    claim_seed = next(s for s in range(500) if (g := game_of(seed=s)).start_deal().claims(0)
                      and g.state is not None and g.state.to_move != 0)
    app = TableApp(game_of(seed=claim_seed), EN, Store(tmp_path), pace=0, claim_window=30,
                   setup=False)

    def claim(screen: TableScreen) -> None:
        title = screen.query_one("#prompt-title")
        shown = [line.rstrip() for line in screen_lines(app, title.region)]
        # (30 seconds, or fewer on a machine slow to draw the first prompt)
        lefts = [EN.t("claim_seconds_left", count=n) for n in range(10, 31)]
        assert len(" ".join(shown)) > title.region.width, shown
        assert any(line.endswith(left) for line in shown for left in lefts), shown

    at_first_prompt(app, claim)


def role_rows(app: TableApp, game: Game, catalog: Catalog) -> dict[str, str]:
    """The seats panel's line of the dealer and of the eldest, by role."""
    state = game.state
    assert state is not None
    lines = screen_lines(app, app.screen.query_one("#seats").region)
    row = {name: next(line for line in lines if line.strip("│ ").split()[:1] == [name])
           for name in game.names}
    return {"mark_dealer": row[game.names[state.dealer]], "mark_eldest": row[game.names[state.eldest]]}


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (140, 45)])
@pytest.mark.parametrize("lang", ["en", "de", "es", "pt"])
def test_the_dealer_and_the_eldest_are_marked_at_every_size(tmp_path: Path, lang: str,
                                                            size: tuple[int, int]) -> None:
    """Seen before: the roles appeared only at 140×45 (the compact layout left them out).
    Each is said, whole, on its seat's line, in every language."""
    catalog = Catalog(lang)
    names = default_names(catalog, 5)
    game = Game.new(Rules.make(), [SeatSpec("human" if s == 0 else "random", names[s])
                                   for s in range(5)], 3)
    app = TableApp(game, catalog, Store(tmp_path), pace=0, claim_window=0, setup=False)

    def check(screen: TableScreen) -> None:
        for key, line in role_rows(app, game, catalog).items():
            assert catalog.t(key) in line, (key, line)

    at_first_prompt(app, check, size)


# -- a terminal too small for the table ----------------------------------------------------


def test_a_small_terminal_shows_the_choices(tmp_path: Path) -> None:
    """At 50×15 (the smallest size the table takes) the choices were below the screen
    with nothing to say so: the column scrolls to the question and the choices when they
    are asked."""
    def check(screen: TableScreen) -> None:
        app = screen.app
        assert isinstance(app, TableApp)
        shown = "\n".join(screen_lines(app))
        assert screen.prompt is not None and len(screen.menu) >= 2
        assert prompt_title(screen.prompt, screen.game.names, EN, screen.game.state) in shown, shown
        for i, choice in enumerate(screen.menu[:3], start=1):
            assert f"{i}. {choice.label}" in shown, shown

    for seed in (2, 3):
        at_first_prompt(TableApp(game_of(seed=seed), EN, Store(tmp_path), pace=0, claim_window=0,
                                 setup=False), check, (50, 15))


def test_a_terminal_too_small_says_so_and_the_table_comes_back(tmp_path: Path) -> None:
    """Below 50×15 the menu vanished and nothing said why. The screen says, in words, that
    the terminal is too small and what size the table needs; keys do nothing there but
    save and quit; at a size that fits, the table is as it was."""
    game = game_of(seed=3)
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False)

    async def body(pilot: Pilot[str]) -> None:
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.prompt is not None)
        table = app.screen
        assert isinstance(table, TableScreen)
        state = game.state
        assert state is not None
        for size in ((49, 24), (80, 14), (40, 12)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            shown = " ".join(" ".join(screen_lines(app)).split())
            said = " ".join(EN.t("too_small", columns=50, rows=15, width=size[0], height=size[1]).split())
            assert said in shown, shown
            actions = len(state.actions)
            await pilot.press("1")
            await pilot.press("enter")
            await pilot.pause()
            assert len(state.actions) == actions  # nothing chosen unseen
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        shown = "\n".join(screen_lines(app))
        assert "50" not in shown and app.screen is table, shown
        assert f"1. {table.menu[0].label}" in shown, shown
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        await pilot.press("q")  # saves and quits, as at the table
        await pilot.pause()

    run(app, body)
    assert app.return_value is not None and "--resume" in app.return_value
