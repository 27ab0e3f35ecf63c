"""The terminal table under a person's hands (issue 11, terminal 1, 5-7): keys faster than
the screens change, the keys of every dialog, the claim countdown, and 80×24."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual import events
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import OptionList

from lald.core import LieDown, Rules, State
from lald.i18n import LANGUAGES, Catalog
from lald.tui.fullscreen.app import TableApp
from lald.tui.fullscreen.menu import event_time
from lald.tui.fullscreen.review import ReviewScreen
from lald.tui.fullscreen.screens import (
    HELP_TABLE_KEYS,
    ConfirmScreen,
    HelpScreen,
    KeyBar,
    PassScreen,
    SettlementScreen,
    help_key_shown,
)
from lald.tui.fullscreen.table import TableScreen
from lald.tui.fullscreen.widgets import LinesView
from lald.tui.game import Game, Prompt, SeatSpec
from lald.tui.store import Store

EN = Catalog("en")
NAMES = ["Anne", "Ben", "Cis", "Dick", "Eve"]


def game_of(players: int = 5, humans: tuple[int, ...] = (0,), seed: int = 11) -> Game:
    seats = [SeatSpec("human" if s in humans else "random", NAMES[s]) for s in range(players)]
    return Game.new(Rules.make(players=players), seats, seed)


def run(app: TableApp, body: Callable[[Pilot[str]], Awaitable[None]],
        size: tuple[int, int] = (130, 42)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(main())


def burst(app: TableApp, *keys: str, at: float | None = None) -> None:
    """Keys in one input read, as a paste or a loaded machine delivers them: all of them
    are queued before the app handles the first. ``at`` stamps them as typed at that
    moment (of Textual's clock), so a test of timing does not hang on the machine's load."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        char = key if len(key) == 1 else ("\r" if key == "enter" else None)
        event = events.Key(key, char)
        if at is not None:
            event.time = at
        event.set_sender(app)
        driver.send_message(event)


async def until(pilot: Pilot[str], done: Callable[[], bool], seconds: float = 10.0) -> None:
    """Let the app run until ``done()`` holds, or ``seconds`` have gone by."""
    for _ in range(int(seconds / 0.05)):
        if done():
            return
        await pilot.pause(0.05)


def ours(app: TableApp) -> bool:
    """The screen is one of the table's, never Textual's blank default screen."""
    return type(app.screen) is not Screen and any(isinstance(s, TableScreen) for s in app.screen_stack)


def test_keys_faster_than_the_screen_never_blank_it(tmp_path: Path) -> None:
    # issue 11, terminal 1: "2 Enter 1" (or Enter Enter) in one read blanked the screen
    rng = random.Random(5)
    keys = ["1", "2", "3", "enter", "enter", "escape", "y", "n", "down", "question_mark", "space"]
    for seed in (11, 12):
        game = game_of(seed=seed)
        app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False)
        screens: set[str] = set()

        async def body(pilot: Pilot[str], app: TableApp = app, screens: set[str] = screens) -> None:
            for _ in range(400):
                if not app.is_running:
                    return
                screens.add(type(app.screen).__name__)
                burst(app, *rng.choices(keys, k=3))
                await pilot.pause()
                assert ours(app) or not app.is_running, app.screen_stack
                table = app.table
                if isinstance(app.screen, TableScreen) and table.prompt is not None:
                    assert table.query_one("#menu", OptionList).option_count == len(table.menu) > 0

        run(app, body)
        assert {"TableScreen", "SettlementScreen", "ConfirmScreen", "HelpScreen"} <= screens
        assert len(game.session.results) >= 2


def _first_prompt(game: Game) -> tuple[State, Prompt]:
    state = game.start_deal()
    while True:
        event = game.advance()
        if isinstance(event, Prompt):
            return state, event


def test_a_digit_typed_with_enter_does_not_answer_the_next_screen(tmp_path: Path) -> None:
    game = game_of(seed=11)
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False)

    async def body(pilot: Pilot[str]) -> None:
        table = app.table
        assert table.prompt is not None
        before = len(game.state.actions)  # type: ignore[union-attr]
        burst(app, "enter", "1", "1", "enter")
        await pilot.pause()
        assert ours(app) and isinstance(app.screen, TableScreen | ConfirmScreen)
        # one choice was made (Enter on the first line), the keys typed with it were dropped
        mine = [a for a in game.state.actions[before:] if a.seat == 0]  # type: ignore[union-attr]
        assert len(mine) == 1

    run(app, body)


def test_the_key_fence_is_set_on_the_clock_the_table_is_given(tmp_path: Path) -> None:
    # The fence is read on the table's clock, not Textual's private one: a clock a day
    # ahead of the keys' stamps puts every key before the fence, and none is taken.
    game = game_of(seed=11)
    ahead = event_time() + 86_400
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False, clock=lambda: ahead)

    async def body(pilot: Pilot[str]) -> None:
        assert app.table.prompt is not None and app.fence == ahead
        before = len(game.state.actions)  # type: ignore[union-attr]
        burst(app, "1", "enter")
        await pilot.pause()
        assert len(game.state.actions) == before  # type: ignore[union-attr]
        burst(app, "1", at=ahead + 1)  # typed after the fence: taken (played, or to confirm)

        def taken() -> bool:
            return len(game.state.actions) > before or isinstance(app.screen, ConfirmScreen)  # type: ignore[union-attr]

        await until(pilot, taken)
        assert taken()

    run(app, body)


def test_a_double_enter_on_the_hand_over_does_not_reach_the_next_table(tmp_path: Path) -> None:
    # issue 11, terminal 7: the second Enter chose the next player's first line
    game = game_of(players=3, humans=(0, 1, 2), seed=4)
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False)

    async def body(pilot: Pilot[str]) -> None:
        for quick in (True, False):
            while not isinstance(app.screen, PassScreen):
                await pilot.pause(0.7)
                await pilot.press("1")
                await pilot.pause()
                if isinstance(app.screen, ConfirmScreen):
                    await pilot.press("y")
            acted = len(game.state.actions)  # type: ignore[union-attr]
            if quick:
                burst(app, "enter", "enter")
            else:
                first = event_time()
                await pilot.press("enter")
                await until(pilot, lambda: isinstance(app.screen, TableScreen))
                # the second Enter 0.15 s after the first, stamped so: on a loaded machine
                # a pause of 0.15 s can outlast the quiet time after a hand-over itself
                burst(app, "enter", at=first + 0.15)
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            await pilot.pause()
            assert isinstance(app.screen, TableScreen) and app.table.prompt is not None
            assert len(game.state.actions) == acted  # type: ignore[union-attr]

    run(app, body)


def test_q_saves_and_quits_from_the_settlement_and_every_dialog(tmp_path: Path) -> None:
    """q saves and quits at the table and its settlement; on the help shown over the table
    q goes back to the table (as in the review), where q then saves and quits."""
    for where in ("help", "settlement", "table"):
        game = game_of(seed=11)
        store = Store(tmp_path / where)
        app = TableApp(game, EN, store, pace=0, claim_window=0, setup=False)

        async def body(pilot: Pilot[str], where: str = where, app: TableApp = app,
                       store: Store = store, game: Game = game) -> None:
            if where == "help":
                await pilot.press("question_mark")
                assert isinstance(app.screen, HelpScreen)
            if where == "settlement":
                while not isinstance(app.screen, SettlementScreen):
                    if isinstance(app.screen, ConfirmScreen):
                        await pilot.press("y")
                    elif app.table.deal_over:
                        await pilot.press("enter")
                    else:
                        await pilot.press("1")
                    await pilot.pause()
            if where == "help":
                await pilot.press("q")
                await pilot.pause()
                assert app.is_running and app.screen is app.table  # back, nothing saved
                assert not store.save_path(game).exists()
            await pilot.press("q")
            await pilot.pause()
            assert not app.is_running

        run(app, body)
        save = store.save_path(game)
        assert save.exists()
        # quitting says where the game went and how to resume it, --save-dir included
        assert app.return_value == EN.t("saved_to", path=str(save),
                                        command=f"lald play --save-dir {tmp_path / where} --resume")
        assert Store.load(save).session.deal_number == game.session.deal_number


def _claim_seed() -> int:
    for seed in range(500):
        game = game_of(seed=seed)
        state: State = game.start_deal()
        if state.to_move != 0 and state.claims(0):
            return seed
    raise AssertionError("no seed")


def test_the_claim_window_counts_down(tmp_path: Path) -> None:
    app = TableApp(game_of(seed=_claim_seed()), EN, Store(tmp_path), pace=0, claim_window=3,
                   setup=False)
    seen: list[str] = []

    async def body(pilot: Pilot[str]) -> None:
        table = app.table
        assert table.prompt is not None and table.prompt.kind == "claim"
        for _ in range(3):
            seen.append(str(table.query_one("#prompt-title").content))
            await pilot.pause(1.0)

    run(app, body)
    assert seen[0].endswith(EN.t("claim_seconds_left", count=3))
    assert seen[1].endswith(EN.t("claim_seconds_left", count=2))
    assert seen[2].endswith(EN.t("claim_seconds_left", count=1)) and "1 second left" in seen[2]


def _forced_lie_down() -> int:
    """A seed where seat 0 must lie down at some prompt with nothing else to choose."""
    for seed in range(200):
        game = game_of(seed=seed)
        game.start_deal()
        while True:
            event = game.advance()
            if event is None:
                break
            if isinstance(event, Prompt):
                if list(event.actions) == [LieDown(0)]:
                    return seed
                game.act(event, event.actions[0])
    raise AssertionError("no seed")


def test_a_forced_lie_down_is_confirmed_by_enter_and_shows_its_keys(tmp_path: Path) -> None:
    # issue 11, terminal 6: the dialog focused "No, go back" and showed no keys
    game = game_of(seed=_forced_lie_down())
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False)

    async def body(pilot: Pilot[str]) -> None:
        for _ in range(100):
            table = app.table
            if table.prompt is not None and list(table.prompt.actions) == [LieDown(0)]:
                break
            await pilot.press("1")
            await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen) and dialog.default
        keys = str(dialog.query_one(".dialog-keys").content)
        assert keys == EN.t("keys_confirm_yes") and "Enter" in keys
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert any(op.seat == 0 and type(op).__name__ == "LaidDown"
                   for op in app.game.state.history)  # type: ignore[union-attr]

    run(app, body)


def _six_choices() -> tuple[int, int]:
    """A seed and the count of a first turn prompt with six or more choices."""
    from lald.tui.words import choices

    for seed in range(400):
        game = game_of(seed=seed)
        state, prompt = _first_prompt(game)
        if prompt.kind == "turn":
            n = len(choices(prompt, state, EN))
            if n >= 6:
                return seed, n
    raise AssertionError("no seed")


def test_at_80x24_every_choice_and_the_hint_stay_visible_in_every_language(tmp_path: Path) -> None:
    # issue 11, terminal 5: the sixth choice hid behind a scrollbar, the hint pushed out the
    # line it recommended, and the headers were cut to "Chi…"
    seed, count = _six_choices()
    for lang in LANGUAGES:
        catalog = Catalog(lang)
        app = TableApp(game_of(seed=seed), catalog, Store(tmp_path), pace=0, claim_window=0,
                       setup=False)

        async def body(pilot: Pilot[str], catalog: Catalog = catalog, app: TableApp = app) -> None:
            table = app.table
            await pilot.press("h")
            await pilot.pause()
            menu = table.query_one("#menu", OptionList)
            hint = table.query_one("#hint", LinesView)
            assert menu.option_count == len(table.menu) == count
            assert menu.max_scroll_y == 0  # nothing behind a scrollbar
            screen = table.region
            assert screen.contains_region(menu.region) and screen.contains_region(hint.region)
            assert hint.region.height >= 1 and menu.region.height >= count
            assert table.hint is not None and table.hint.index is not None
            text = "\n".join(line for line in _text(app))
            for key in ("col_name", "col_hand", "col_won", "col_balance", "col_status", "keys_table"):
                assert catalog.t(key) in text, (catalog.lang, key)
            assert "…" not in text, catalog.lang
            assert catalog.t("hint_mark") in text

        run(app, body, size=(80, 24))


def _text(app: TableApp) -> list[str]:
    """The screen as plain lines of text, as a person reads it (what tmux capture-pane gives)."""
    strips = app.screen._compositor.render_strips()
    return ["".join(segment.text for segment in strip) for strip in strips]


def test_the_help_lists_every_key_of_the_table_and_q_goes_back(tmp_path: Path) -> None:
    """No screen listed the keys (h, u, s, e, r) beyond the footer, and q on the help saved
    and quit the game while q in the review went back: the help lists every key the table,
    its settlement and the app bind, each with what it does, and q, Esc and ? go back."""
    bound: set[str] = set()
    for cls in (TableScreen, SettlementScreen, TableApp, HelpScreen, ReviewScreen):
        for binding in cls.BINDINGS:
            assert isinstance(binding, Binding)
            bound.update(k.strip() for k in binding.key.split(","))
    bound.update(("up", "down"))  # the menu's own keys
    listed = {k for keys, _, _ in HELP_TABLE_KEYS for k in keys}
    assert bound <= listed, bound - listed
    for keys, shown, _ in HELP_TABLE_KEYS:
        assert all(k in help_key_shown(shown, EN) for k in keys if len(k) == 1 and not k.isdigit())
    for lang in LANGUAGES:
        catalog = Catalog(lang)
        app = TableApp(game_of(seed=11), catalog, Store(tmp_path / lang), pace=0, claim_window=0,
                       setup=False)

        async def body(pilot: Pilot[str], app: TableApp = app, catalog: Catalog = catalog) -> None:
            for back in ("q", "escape", "question_mark"):
                await pilot.press("question_mark")
                await pilot.pause()
                help_ = app.screen
                assert isinstance(help_, HelpScreen)
                lines = help_.query_one("#help-keys", LinesView).lines
                for _, label, key in HELP_TABLE_KEYS:
                    shown = help_key_shown(label, catalog)
                    assert any(line.split()[:len(shown.split())] == shown.split()
                               and line.endswith(catalog.t(key)) for line in lines), (catalog.lang, key)
                bar = str(help_.query_one(".keys", KeyBar).content)
                assert bar == catalog.t("keys_help") and "q" in bar.split()
                await pilot.press(back)
                await pilot.pause()
                assert app.is_running and app.screen is app.table, back

        run(app, body, size=(80, 24))
        assert not (tmp_path / lang).exists() or not list((tmp_path / lang).iterdir())
