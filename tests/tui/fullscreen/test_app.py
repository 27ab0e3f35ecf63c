"""The full-screen table, played by key presses through Textual's headless pilot; what the
screen shows is checked against the engine at every step."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import OptionList, Select

from lald.core import LaidDown, Rules, State
from lald.i18n import Catalog
from lald.narrate import describe, explain_settlement, join_names
from lald.tui.fullscreen.app import TableApp
from lald.tui.fullscreen.screens import (
    ConfirmScreen,
    HelpScreen,
    PassScreen,
    SettlementScreen,
    SetupScreen,
)
from lald.tui.fullscreen.table import TableScreen
from lald.tui.fullscreen.widgets import CardsView, LedgerView, LinesView, LogView, SeatsView
from lald.tui.game import Game, Prompt, SeatSpec
from lald.tui.store import Store
from lald.tui.words import outcome_code

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts"
EN = Catalog("en")
SIZE = (130, 42)


def new_game(players: int = 5, humans: tuple[int, ...] = (0,), seed: int = 11,
             variants: tuple[str, ...] = ()) -> Game:
    names = ["Anne", "Ben", "Cis", "Dick", "Eve"]
    seats = [SeatSpec("human" if s in humans else "random", names[s]) for s in range(players)]
    return Game.new(Rules.make(players=players, variants=variants), seats, seed)


def run_app(app: TableApp, body: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(main())


def plain(widget: Any) -> str:
    content = widget.content
    return content.plain if isinstance(content, Text) else str(content)


def glyph_words(text: str) -> list[str]:
    return text.replace("[", " ").replace("]", " ").split()


def check_table(app: TableApp, screen: TableScreen) -> None:
    """Hand, table, seats, log, ledger and menu are what the engine says."""
    game = app.game
    state = game.state
    prompt = screen.prompt
    assert state is not None and prompt is not None
    seat = prompt.seat
    hand = screen.query_one("#hand", CardsView)
    if state.hand(seat):
        assert glyph_words(plain(hand)) == [c.glyph for c in sorted(state.hand(seat))]
    else:  # a seat that lay down may still spot a claim
        assert plain(hand) == EN.t("empty")
    assert str(hand.border_title) == EN.t("hand_title", name=game.names[seat])
    table = screen.query_one("#table", CardsView)
    if state.table:
        assert glyph_words(plain(table)) == [c.glyph for c in sorted(state.table)]
    rows = screen.query_one("#seats", SeatsView).rows
    assert [r.hand for r in rows] == [len(state.hand(s)) for s in range(state.n)]
    assert [r.won for r in rows] == [len(state.won_cards(s)) for s in range(state.n)]
    assert [r.to_move for r in rows] == [s == state.to_move for s in range(state.n)]
    assert [r.balance for r in rows] == [b + c for b, c in zip(state.balances_before, state.chips(),
                                                               strict=True)]
    log = screen.query_one("#log", LogView).lines
    said = [describe(op, game.names, EN) for op in state.view(seat).history]
    assert [line for line in log if line in said] == said
    laughs = sum(isinstance(op, LaidDown) for op in state.history) if state.rules.laugh else 0
    assert log.count(EN.t("laugh")) == laughs
    ledger = screen.query_one("#ledger", LedgerView).ledger
    for s, balance in enumerate(game.session.balances):
        live = balance + state.chips()[s]
        assert ledger.rows[s][0] == game.names[s] and ledger.rows[s][-1] == f"{live:+d}"
        assert rows[s].balance == live  # one balance on screen: the seat's and the ledger's agree
    menu = screen.query_one("#menu", OptionList)
    assert menu.option_count == len(screen.menu)
    offered = [c.action for c in screen.menu if c.action is not None]
    assert all(a in prompt.actions for a in offered)
    # one line per different outcome: every legal action is one of them, no two alike
    codes = [outcome_code(a, state) for a in offered]
    assert sorted(set(codes)) == sorted(codes)
    assert {outcome_code(a, state) for a in prompt.actions} == set(codes)
    if prompt.kind == "turn":
        assert set(prompt.actions) == set(state.legal_actions(seat))


def check_settlement(app: TableApp, screen: SettlementScreen) -> None:
    game = app.game
    deal = game.last_deal
    assert deal is not None and deal.result is not None
    assert screen.settlement == explain_settlement(game.rules, deal.result, deal.dealer, game.names,
                                                   game.session.balances, EN)
    shown = screen.query_one("#settle-lines", LinesView).lines
    assert list(shown) == screen.settlement
    for s, balance in enumerate(game.session.balances):
        assert screen.ledger.rows[s][-1] == f"{balance:+d}"
        assert screen.ledger.rows[s][1:-1] == tuple(f"{r.chips[s]:+d}" for r in game.session.results)


def test_pilot_plays_a_five_deal_session_by_key_presses(tmp_path: Path) -> None:
    game = new_game()
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False)
    seen = {"table": 0, "settlement": 0, "confirm": 0, "deal_over": 0}

    async def body(pilot: Pilot[None]) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        for _ in range(600):
            if not app.is_running:
                break
            screen = app.screen
            if isinstance(screen, SettlementScreen):
                check_settlement(app, screen)
                if seen["settlement"] == 0:
                    app.save_screenshot(path=str(ARTIFACTS), filename="settlement.svg")
                seen["settlement"] += 1
                await pilot.press("enter")
            elif isinstance(screen, ConfirmScreen):
                seen["confirm"] += 1
                await pilot.press("y")
            elif isinstance(screen, TableScreen) and screen.deal_over:
                # the deal's last moves stay on the table until Enter
                seen["deal_over"] += 1
                deal = game.state
                assert deal is not None and deal.over
                log = screen.query_one("#log", LogView).lines
                assert log[-1] == describe(deal.history[-1], game.names, EN)
                await pilot.press("enter")
            else:
                assert isinstance(screen, TableScreen)
                check_table(app, screen)
                if seen["table"] == 2:
                    app.save_screenshot(path=str(ARTIFACTS), filename="table.svg")
                seen["table"] += 1
                await pilot.press("1")
            await pilot.pause()

    run_app(app, body)
    assert game.session.over and not app.is_running
    assert seen["settlement"] == len(game.session.results) == seen["deal_over"] >= 5
    assert seen["table"] >= 5
    assert sum(game.session.balances) + game.session.pot == 0


def test_help_screen_shows_the_rules_and_the_options(tmp_path: Path) -> None:
    app = TableApp(new_game(variants=("silent",)), EN, Store(tmp_path), pace=0, claim_window=0,
                   setup=False)

    async def body(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rules_text = app.screen.query_one("#help-rules", LinesView).lines
        assert rules_text[0].startswith(EN.t("help_title"))
        options = app.screen.query_one("#help-options", LinesView).lines
        assert "  laughter: off" in options and "  Variants: silent (nobody laughs)" in options
        ARTIFACTS.mkdir(exist_ok=True)
        app.save_screenshot(path=str(ARTIFACTS), filename="help.svg")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)

    run_app(app, body)


def test_hint_undo_save_and_quit_keys(tmp_path: Path) -> None:
    game = new_game(seed=3)
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False)

    async def body(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.prompt is not None
        await pilot.press("h")
        hint = plain(screen.query_one("#hint", LinesView))
        assert screen.hint is not None and screen.hint.index is not None
        assert hint.startswith(f"Hint: {screen.menu[screen.hint.index].label}. ")
        assert "because" not in hint and "0.0 more" not in hint
        state = game.state
        assert state is not None
        before = list(state.actions)
        first = screen.prompt
        await pilot.press("u")
        assert plain(screen.query_one("#hint", LinesView)) == EN.t("undo_nothing")
        single = next(i for i, c in enumerate(screen.menu) if c.action is not None)
        await pilot.press(str(single + 1))
        await pilot.pause()
        while isinstance(app.screen, ConfirmScreen):
            await pilot.press("1")
            await pilot.pause()
        assert len(game.state.actions) > len(before)  # type: ignore[union-attr]
        await pilot.press("u")
        await pilot.pause()
        assert game.state is not None and list(game.state.actions) == before
        assert screen.prompt == first
        await pilot.press("s")
        assert (tmp_path / "session-3.json").exists()
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running

    run_app(app, body)
    again = Store.load(tmp_path / "session-3.json")
    assert again.state is not None and list(again.state.actions) == list(game.state.actions)  # type: ignore[union-attr]


def test_hot_seat_hides_each_hand_behind_a_pass_screen(tmp_path: Path) -> None:
    game = new_game(players=3, humans=(0, 1, 2), seed=4)
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False)
    passes: list[str] = []
    after_pass: list[str] = []

    async def body(pilot: Pilot[None]) -> None:
        for _ in range(12):
            screen = app.screen
            if isinstance(screen, PassScreen):
                title = plain(screen.query_one("#pass-title"))
                passes.append(title)
                table = app.table
                assert table.viewer is None
                assert plain(table.query_one("#hand", CardsView)) == EN.t("hand_hidden_text")
                await pilot.press("enter")
            elif isinstance(screen, TableScreen):
                assert screen.prompt is not None and screen.viewer == screen.prompt.seat
                if len(after_pass) < len(passes):
                    after_pass.append(EN.t("pass_to", name=game.names[screen.prompt.seat]))
                check_table(app, screen)
                await pilot.pause(0.7)  # keys right after a hand-over are ignored
                await pilot.press("u")
                assert plain(screen.query_one("#hint", LinesView)) == EN.t("undo_not_allowed")
                await pilot.press("1")
            else:
                await pilot.press("1")
            await pilot.pause()

    run_app(app, body)
    assert len(passes) >= 3
    assert passes[:len(after_pass)] == after_pass


def _claim_seed() -> int:
    """A seed whose first deal opens a claim to seat 0 while another seat is to move."""
    for seed in range(500):
        game = new_game(seed=seed)
        state: State = game.start_deal()
        if state.to_move != 0 and state.claims(0):
            return seed
    raise AssertionError("no seed")


def test_an_out_of_turn_claim_window_closes_and_play_moves_on(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(seed=_claim_seed())
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0.5, setup=False)
    # Each prompt as it was shown, with its menu then (on a slow machine the window can
    # close before the pilot first looks: what was offered is recorded, not sampled).
    shown: list[tuple[Any, list[str]]] = []
    show = TableScreen._show_prompt

    def recording(screen: TableScreen, prompt: Any) -> None:
        show(screen, prompt)
        shown.append((prompt, [c.label for c in screen.menu]))
    monkeypatch.setattr(TableScreen, "_show_prompt", recording)

    async def body(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, TableScreen)
        for _ in range(100):
            if shown:
                break
            await pilot.pause(0.1)
        first, labels = shown[0]
        assert first.kind == "claim" and first.seat == 0
        assert labels[-1] == EN.t("act_pass")
        for _ in range(100):
            if screen.prompt is not first:
                break
            await pilot.pause(0.1)
        assert screen.prompt is not first

    run_app(app, body)
    assert set(shown[0][0].actions) <= game._declined[0]


def test_setup_screen_builds_the_session(tmp_path: Path) -> None:
    app = TableApp(new_game(), Catalog("de"), Store(tmp_path), pace=0, claim_window=0, setup=True)

    async def body(pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        screen.query_one("#players", Select).value = 3
        screen.query_one("#preset", Select).value = "last-capture"
        await pilot.pause()
        assert not screen.query_one("#seat-row-3").display
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert plain(app.screen.query_one("#status")).startswith("Runde 1 von 3")

    run_app(app, body)
    assert app.game.rules.players == 3 and app.game.rules.preset == "last-capture"
    assert [s.kind for s in app.game.seats] == ["human", "random", "random"]


NAMES = ("Anne", "Ben", "Cis")


def _tie_seed(rules: Rules) -> tuple[int, list[str]]:
    """A seed whose bots-only session ties for first after the scheduled deals."""
    for seed in range(3000):
        game = Game.new(rules, [SeatSpec("random", n) for n in NAMES], seed=seed)
        for _ in range(rules.deals):
            game.start_deal()
            while game.advance() is not None:
                pass
            game.finish_deal()
        if game.tie_leaders:
            return seed, [NAMES[s] for s in game.tie_leaders]
    raise AssertionError("no tie found")


def test_watching_bots_through_tie_break_deals_at_a_pace(tmp_path: Path) -> None:
    # under last-capture (tie_break = extra_deals) a tie for first after three deals
    rules = Rules.make("last-capture", players=3)
    seed, leaders = _tie_seed(rules)
    game = Game.new(rules, [SeatSpec("random", n) for n in NAMES[:3]], seed=seed)
    app = TableApp(game, EN, Store(tmp_path), pace=0.002, claim_window=0, setup=False, export=True)
    outcomes: list[list[str]] = []

    async def body(pilot: Pilot[None]) -> None:
        for _ in range(400):
            if not app.is_running:
                return
            screen = app.screen
            if isinstance(screen, SettlementScreen):
                check_settlement(app, screen)
                outcomes.append(list(screen.outcome))
                await pilot.press("enter")
            elif isinstance(screen, TableScreen) and screen.deal_over:
                pass  # with bots only, the end of the deal stays a moment by itself
            else:
                assert isinstance(screen, TableScreen) and screen.viewer is None
                assert plain(screen.query_one("#hand", CardsView)) == EN.t("hand_hidden_text")
            await pilot.pause(0.01)

    run_app(app, body)
    assert game.session.over and len(game.session.results) > rules.deals
    assert outcomes[rules.deals - 1] == [EN.t("tie_extra_deals", names=join_names(leaders, EN))]
    winners = " and ".join(game.names[s] for s in game.session.winners)
    key = "session_winner" if len(game.session.winners) == 1 else "session_shared"
    assert outcomes[-1] == [EN.t(key, names=winners)]
    assert len(list((tmp_path / "records").glob("*.json"))) == len(game.session.results)


def test_a_narrow_terminal_stacks_the_log_under_the_table(tmp_path: Path) -> None:
    """60×20 (a phone's terminal, a split pane): seen before, the log and the ledger kept
    half the width, so the seats' names and columns were cut ("An…", "Captur…") and the
    hint had no room. Below 72 columns the table takes the whole width, the log goes under
    it and the ledger waits for the settlement; from 72 columns they stand side by side."""
    game = new_game(seed=11)
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False, hints=True)

    async def main() -> None:
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TableScreen)
            left, log = screen.query_one("#left").region, screen.query_one("#log").region
            assert left.width == 60 and log.y >= left.bottom and log.height >= 2
            assert not screen.query_one("#ledger").display
            seats = screen.query_one("#seats", SeatsView)
            assert seats.region.width >= 59 and seats.virtual_size.width <= seats.region.width
            # Every choice and every line of the hint (seen: the hint cut to its first line).
            menu, hint = screen.query_one("#menu", OptionList), screen.query_one("#hint", LinesView)
            assert menu.option_count == len(screen.menu) > 0 and menu.region.height == menu.option_count
            assert len(plain(hint)) > 2 * 60 and hint.region.height >= 3
            # What does not fit is a scroll away (the column scrolls; the log keeps its rows).
            column = screen.query_one("#left")
            assert hint.region.bottom <= left.bottom + column.max_scroll_y
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            left, right = screen.query_one("#left").region, screen.query_one("#right").region
            assert right.x >= left.right and screen.query_one("#ledger").display

    asyncio.run(main())


def test_the_setup_form_fits_a_narrow_terminal(tmp_path: Path) -> None:
    """At 60×20 (and at 80×24) every field of the form lies inside the screen: seen before,
    the player count's field stood to the right of the rules' and off the screen."""

    async def check(app: TableApp, size: tuple[int, int]) -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            for field in ("#preset", "#players", "#kind-0", "#name-0", "#kind-4", "#name-4"):
                region = app.screen.query_one(field).region
                assert region.width >= 12 and region.right <= size[0] - 1, (size, field, region)

    for size in ((60, 20), (80, 24)):
        app = TableApp(new_game(), EN, Store(tmp_path), pace=0, claim_window=0, setup=True)
        asyncio.run(check(app, size))


def test_the_lesson_in_a_narrow_terminal_shows_the_move_it_asks_for(tmp_path: Path) -> None:
    """60×20: the lesson's notes, the seats, the table, the hand and the lesson's move on
    one screen (the log gives up its rows: the notes say what happened)."""
    from lald.tui.fullscreen.screens import LessonIntroScreen
    from lald.tui.lesson import LessonGame
    from lald.tui.words import default_names

    app = TableApp(LessonGame(default_names(EN, 5)), EN, Store(tmp_path), pace=0, claim_window=5,
                   setup=False)

    async def main() -> None:
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            if isinstance(app.screen, LessonIntroScreen):
                await pilot.press("enter")
                await pilot.pause()
            screen = app.screen
            assert isinstance(screen, TableScreen) and screen.lesson_index is not None
            assert not screen.query_one("#right").display
            menu = screen.query_one("#menu", OptionList)
            row = menu.region.y + screen.lesson_index - menu.scroll_offset.y
            for widget in ("#lesson", "#seats", "#table", "#hand"):
                assert screen.query_one(widget).region.bottom <= 19, widget  # row 19: the keys
            assert menu.region.y <= row < min(19, menu.region.bottom), (row, menu.region)

    asyncio.run(main())


def test_the_status_line_is_never_cut(tmp_path: Path) -> None:
    """60×20 in German: seen before, the line of deal, dealer, turn and pot ended at
    "Pott" and the pot itself was off the screen. A line too long wraps instead."""
    app = TableApp(new_game(), Catalog("de"), Store(tmp_path), pace=0, claim_window=0, setup=False)

    async def main() -> None:
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            status = app.screen.query_one("#status")
            line = plain(status)
            assert "Pott" in line and Text(line).cell_len > 58
            assert status.region.height >= 2 and status.region.width == 60
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert status.region.height == 1  # one line where it fits

    asyncio.run(main())


def test_the_settlement_says_the_pot_the_table_showed_all_deal() -> None:
    """Seen before: the counting ended "The pot goes from 0 to 0" (the pot before the
    deal's stakes, and after), while the table's heading had shown the pot with the stakes
    in it (11) all deal long, so it read as the stakes lost. It says all three now."""
    game = Game.new(Rules.make(), [SeatSpec("random", n) for n in ("A", "B", "C", "D", "E")], 4)
    game.start_deal()
    state = game.state
    assert state is not None
    shown = state.view(0).pot  # the table's heading during the deal
    while game.advance() is not None:
        pass
    result = state.result
    assert result is not None and shown == result.pot_before + sum(result.antes) == 11
    lines = explain_settlement(game.rules, result, state.dealer, game.names, game.session.balances, EN)
    assert lines[-1] == f"The pot: {result.pot_before} before this deal, {shown} with its stakes, " \
                        f"{result.pot_after} now."


@pytest.mark.parametrize("setup", [True, False])
def test_the_status_line_names_the_seat_to_move_at_the_first_prompt(tmp_path: Path, setup: bool) -> None:
    """80×24 in German, bots at pace 0: seen before, the table opened from the setup screen
    with "Bernd ist am Zug" in the status line while Anna's choices were open (a redraw
    for the new layout put back the line from before the bots had played), and the log
    stopped short of its newest lines."""
    de = Catalog("de")
    app = TableApp(new_game(), de, Store(tmp_path), pace=0, claim_window=0, setup=setup)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if setup:
                await pilot.press("enter")
            for _ in range(50):
                await pilot.pause()
                if isinstance(app.screen, TableScreen) and app.screen.prompt is not None:
                    break
            table = app.screen
            assert isinstance(table, TableScreen) and table.prompt is not None
            for _ in range(5):
                await pilot.pause()
            mover = app.game.names[table.prompt.seat]
            assert de.t("to_move", name=mover) in plain(table.query_one("#status")), \
                plain(table.query_one("#status"))
            # and the log shows its newest line (it stopped where the first layout left it)
            log = table.query_one("#log", LogView)
            assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y

    asyncio.run(main())


def test_at_80x24_the_settlements_keys_answer_in_sight(tmp_path: Path) -> None:
    """Seen before: at the settlement, e and s wrote "Game record written to ..." and
    "Saved to ..." at the end of the body, below the screen, so the keys seemed to do
    nothing."""
    game = new_game()
    game.start_deal()
    while (event := game.advance()) is not None:
        if isinstance(event, Prompt):
            game.act(event, event.actions[0])
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            # the deal's end: Enter goes on, no choice is open (seen before: "1-9 choose ·
            # h hint · u undo" still offered)
            assert plain(app.screen.query_one("#table-keys")) == EN.t("keys_deal_over")
            await pilot.press("enter")  # the deal's end, then its settlement
            for _ in range(20):
                await pilot.pause()
                if isinstance(app.screen, SettlementScreen):
                    break
            screen = app.screen
            assert isinstance(screen, SettlementScreen)
            body = screen.query_one("#settlement-body")
            status = screen.query_one("#settle-status", LinesView)
            assert body.max_scroll_y > 0 and not body.region.contains_region(status.region)
            # no empty outcome block (mid-session there is no outcome yet)
            assert not screen.query("#outcome-lines")
            # the key bar says the body scrolls, and the arrows scroll it
            assert "↑↓" in plain(screen.query_one(".keys"))
            await pilot.press("down")
            await pilot.pause()
            assert body.scroll_y > 0
            for key, said in (("e", "Game record written to"), ("s", "Saved to")):
                await pilot.press(key)
                await pilot.pause()
                await pilot.pause()
                assert status.lines[0].startswith(said), status.lines
                assert body.region.contains_region(status.region), key

    asyncio.run(main())



def test_with_two_people_at_the_keyboard_the_keys_offer_no_undo(tmp_path: Path) -> None:
    """Seen before: a hot-seat table's key bar offered "u undo", which it then refused."""
    app = TableApp(new_game(humans=(0, 1)), EN, Store(tmp_path), pace=0, claim_window=0, setup=False)

    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(20):
                await pilot.pause()
                if isinstance(app.screen, PassScreen):  # "pass the keyboard to ...": Enter
                    await pilot.press("enter")
                elif app.table.prompt is not None:
                    break
            assert app.table.prompt is not None
            keys = plain(app.table.query_one("#table-keys"))
            assert keys == EN.t("keys_table_hotseat") and "undo" not in keys

    asyncio.run(main())


def test_at_80x24_a_long_menu_leaves_the_hint_on_the_screen(tmp_path: Path) -> None:
    """Three players, 13 cards each, hints on, in German: seen before, the first turn's ten
    choices pushed the hint's last line ("nächstbeste Zug.") off the screen, and the left
    column does not scroll. Now the choices give up a row and scroll themselves."""
    names = ["Anna", "Bernd", "Christa"]
    seats = [SeatSpec("human" if s == 0 else "heuristic", n) for s, n in enumerate(names)]
    game = Game.new(Rules.make(players=3), seats, 2)
    app = TableApp(game, Catalog("de"), Store(tmp_path), pace=0, claim_window=0, setup=False, hints=True)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(40):
                await pilot.pause()
                if app.table.hint is not None and app.table.prompt is not None:
                    break
            await pilot.pause()
            await pilot.pause()
            table = app.table
            assert table.prompt is not None and len(table.menu) >= 10
            hint, menu, left = (table.query_one(s) for s in ("#hint", "#menu", "#left"))
            assert plain(hint) == table.hint.text and hint.region.height >= 3
            assert left.region.contains_region(hint.region), (hint.region, left.region)
            assert menu.max_scroll_y > 0  # the choices scroll instead
            await pilot.press("down", "down", "down", "down", "down", "down", "down", "down", "down")
            await pilot.pause()
            highlighted = menu.highlighted
            assert highlighted == 9 and menu.scroll_y > 0  # the tenth choice in sight

    asyncio.run(main())
