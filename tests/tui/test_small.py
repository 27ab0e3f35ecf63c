"""The table at 80×24 as a new player reads it (issue 26, item 10): passing words never
cover the hint or the ledger, groups and short phrases never break inside, the dealer and
eldest marks at every size, and below the smallest size a line that says so."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.geometry import Region
from textual.pilot import Pilot

from lald.core import LaidDown, Rules
from lald.i18n import Catalog
from lald.tui.app import TableApp
from lald.tui.game import Game, SeatSpec
from lald.tui.lesson import LessonGame
from lald.tui.screens import ConfirmScreen
from lald.tui.store import Store
from lald.tui.table import TableScreen
from lald.tui.widgets import LinesView
from lald.tui.words import default_names

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
