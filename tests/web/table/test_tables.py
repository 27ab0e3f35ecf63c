"""The live table drives the engine's claim window (lald.core.ClaimWindow): its bots are
asked in claim order, its people claim at will, and the bots hold back for
``claim_window`` seconds when a person has just been given a claim."""

from __future__ import annotations

import asyncio

import pytest

from lald.core import Claim, Rules, Session, State
from lald.store import SeatData, Store, TableData
from lald.web.settings import Settings
from lald.web.table.journal import Journal
from lald.web.table.tables import Table

BOT_DELAY, CLAIM_WINDOW = 1.0, 10.0


def _table(rules: Rules, seed: int, people: set[int],
           actions: list[dict[str, object]] | None = None) -> Table:
    seats = [SeatData(s, "", s in people, "random", None, True) for s in range(rules.players)]
    data = TableData("t", 0.0, {"rules": rules.spec()}, seed, 1 if actions is not None else 0,
                     "playing" if actions is not None else "waiting", seats,
                     actions=[[(a, "bot") for a in actions]] if actions is not None else [])
    return Table(data, Journal(Store("sqlite://"), threaded=False),
                 Settings(bot_delay=BOT_DELAY, claim_window=CLAIM_WINDOW, threaded_bots=False))


def _held(table: Table) -> bool:
    """Whether the bots wait for the claim window (rather than their delay) before acting."""
    delay, step = table.plan()
    assert step is not None
    return delay > (BOT_DELAY + CLAIM_WINDOW) / 2


async def _play(table: Table, state: State) -> int:
    """Play the deal, seat 0's person claiming nothing; check at every moment that the bots
    hold back exactly when seat 0 has a claim that was not open a moment before; return how
    often they did."""
    held = 0
    before: set[Claim] = set()
    while not state.over:
        now = set(state.claims(0))
        delay, step = table.plan()
        if step is None:  # every bot has let its claims pass: the person's turn
            assert state.to_move == 0
            table.submit(state.turn_actions()[0], "human")  # it claims nothing
        else:
            hold = delay > (BOT_DELAY + CLAIM_WINDOW) / 2
            assert hold == bool(now - before), len(state.actions)
            held += hold
            version = table.version
            await step()
            if table.version == version:  # the same moment
                continue
        before = now
    return held


def test_the_bots_hold_back_only_when_a_person_has_just_been_given_a_claim() -> None:
    rules = Rules.make()
    held = 0
    for seed in range(30):
        table = _table(rules, seed, {0})
        table.next_deal()
        assert table.state is not None
        held += asyncio.run(_play(table, table.state))
    assert held > 3


def test_a_person_back_at_a_table_restarted_or_at_a_seat_taken_back_is_given_its_claims_again() -> None:
    rules = Rules.make()
    for seed in range(300):
        state = Session(rules, seed).start_deal()
        if state.claims(0) and state.to_move != 0:
            break
    table = _table(rules, seed, {0})
    table.next_deal()
    assert _held(table)
    table.set_seat(0, human=False)
    assert not _held(table)
    table.set_seat(0, human=True)  # taken back: its claims are given to the person anew
    assert _held(table)
    restarted = _table(rules, seed, {0}, actions=[])
    assert restarted.state is not None and restarted.state.claims(0)
    assert _held(restarted)


def test_a_new_deal_gives_a_person_its_claims_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    # The table once compared a deal's claims with those open when it last looked at the
    # deal before: claims equal to those (the same seat, the same cards) did not hold the
    # bots back. Here the next deal happens to give seat 0 the very claims it had then.
    rules = Rules.make()
    for seed in range(300):
        state = Session(rules, seed).start_deal()
        if state.claims(0) and state.to_move != 0:
            break
    table = _table(rules, seed, {0})
    table.next_deal()
    assert table.state is not None
    first = table.state.clone()
    assert _held(table)
    while not table.state.over:  # the deal played out before the driver looks again
        mover = table.state.to_move
        assert mover is not None
        table.submit(table.state.turn_actions()[0], "human" if mover == 0 else "bot")

    def same_again() -> State:
        again = first.clone()
        table.session.deals.append(again)
        table.session.current = again
        return again

    monkeypatch.setattr(table.session, "start_deal", same_again)
    table.next_deal()
    assert table.state is not first and table.state.claims(0) == first.claims(0)
    assert _held(table)
