"""The running ledger where the screen is small (issue 26, item 7): at 80×24 and 100×30 the
ledger cut every cell to "…" from the fourth deal on. It shows what fits: the balance
whole, the most recent deals whole, and how many earlier deals it leaves out."""

from __future__ import annotations

import asyncio
import re

import pytest
from textual.geometry import Region
from textual.pilot import Pilot

from lald.core import Rules
from lald.i18n import Catalog
from lald.tui.fullscreen.app import TableApp
from lald.tui.fullscreen.screens import SettlementScreen
from lald.tui.fullscreen.table import TableScreen
from lald.tui.game import Game, SeatSpec
from lald.tui.store import Store
from lald.tui.words import Ledger, ledger, ledger_lines

EN = Catalog("en")
NAMES = ["Anne", "Ben", "Cis", "Dick", "Eve"]
DEALS = 12
SETTLED = 20
SIZES = ((80, 24), (100, 30))


def bots_after(finished: int, seed: int = 5, deals: int = DEALS) -> Game:
    """A five-seat session of bots (twelve deals) with ``finished`` deals booked."""
    rules = Rules.make(players=5, options={"deals": deals})
    game = Game.new(rules, [SeatSpec("random", n) for n in NAMES], seed)
    for _ in range(finished):
        game.start_deal()
        while game.advance() is not None:
            pass
        game.finish_deal()
    return game


def person_at(deal: int) -> Game:
    """The same session with a person in seat 0 and deal ``deal`` about to be played."""
    data = bots_after(deal - 1).snapshot()
    data["seats"][0]["kind"] = "human"
    return Game.restore(data)


def screen_lines(app: TableApp, region: Region) -> list[str]:
    """The screen's text inside ``region``, as a person reads it."""
    strips = app.screen._compositor.render_strips()
    text = ["".join(segment.text for segment in strip) for strip in strips]
    return [line[region.x:region.right] for line in text[region.y:region.bottom]]


def check_shown(lines: list[str], table: Ledger, where: str) -> None:
    """Every visible cell whole: a header of deal numbers ending at the latest deal, each
    seat's row its own numbers under them and its balance last, and the deals left out
    said in words."""
    body = "\n".join(lines)
    assert "…" not in body, (where, body)
    deals = len(table.header) - 2  # the name, the deals, the balance
    header = next(i for i, line in enumerate(lines) if EN.t("col_name") in line)
    heads = lines[header].strip("│╭╮╰╯─ ").split()
    assert heads[0] == EN.t("col_name") and " ".join(heads[-1:]) == EN.t("col_balance"), (where, body)
    shown = heads[1:-1]
    assert shown, (where, body)  # at least the deal in play
    numbers = [int(h) for h in shown]
    assert numbers == list(range(deals - len(numbers) + 1, deals + 1)), (where, body)
    hidden = deals - len(numbers)
    if hidden:
        flat = " ".join(" ".join(lines).replace("│", " ").split())
        assert EN.t("ledger_hidden", count=hidden) in flat, (where, body)
    for s, name in enumerate(NAMES):
        row = next(line for line in lines[header + 1:] if line.strip("│ ").startswith(name))
        cells = row.strip("│ ").split()
        want = table.rows[s]
        assert cells[0] == name and cells[-1] == want[-1], (where, body)  # the balance, whole
        assert cells[1:-1] == list(want[1 + hidden:-1]), (where, body)
        assert all(re.fullmatch(r"[+-]\d+", c) for c in cells[1:]), (where, body)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_ledger_shows_whole_cells_at_every_deal(size: tuple[int, int], tmp_path: object) -> None:
    """Deal 1 to 12 on the table at 80×24 and 100×30 (the deal in play is the last column)."""
    async def one(deal: int) -> None:
        game = person_at(deal)
        app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False)  # type: ignore[arg-type]
        async with app.run_test(size=size) as pilot:
            await until_prompt(pilot, app)
            screen = app.screen
            assert isinstance(screen, TableScreen)
            view = screen.query_one("#ledger")
            check_shown(screen_lines(app, view.region), ledger(game, EN), f"table, deal {deal}, {size}")

    async def main() -> None:
        for deal in range(1, DEALS + 1):
            await one(deal)

    asyncio.run(main())


async def until_prompt(pilot: Pilot[str], app: TableApp) -> None:
    for _ in range(200):
        screen = app.screen
        if isinstance(screen, TableScreen) and screen.prompt is not None:
            await pilot.pause()
            return
        await pilot.pause(0.01)
    raise AssertionError("no prompt")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_settlement_ledger_shows_whole_cells_after_every_deal(size: tuple[int, int],
                                                                   tmp_path: object) -> None:
    """The settlement after deal 1 to 20 (its ledger has the whole width of the screen: at
    80 columns it held 13 deals whole, and then cut them)."""
    async def one(deals: int) -> None:
        table = ledger(bots_after(deals, deals=SETTLED), EN)
        app = TableApp(person_at(1), EN, Store(tmp_path), pace=0, claim_window=0, setup=False)  # type: ignore[arg-type]
        async with app.run_test(size=size) as pilot:
            await until_prompt(pilot, app)
            app.push_screen(SettlementScreen(["Settled."], table, (), EN, False))
            await pilot.pause()
            await pilot.pause()
            view = app.screen.query_one("#ledger-lines")
            check_shown(screen_lines(app, view.region), table, f"settlement after {deals}, {size}")

    async def main() -> None:
        for deals in range(1, SETTLED + 1):
            await one(deals)

    asyncio.run(main())


def test_plain_ledger_keeps_every_deal_whole() -> None:
    """``--plain`` prints lines, never cut: every deal and the balance, whole."""
    game = bots_after(DEALS)
    table = ledger(game, EN)
    lines = ledger_lines(game, EN)
    assert lines[0].split() == list(table.header)
    for s, line in enumerate(lines[1:6]):
        assert line.split() == list(table.rows[s])
