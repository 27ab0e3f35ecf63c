"""The claim window (lald.core.engine.window): whom it asks for which claims, and when it closes
(docs/rules.md#5-claims, who is asked first)."""

from __future__ import annotations

import random

from lald.core import Claim, ClaimWindow, Rules, State


def _with_claims(rules: Rules, seats: int = 2) -> State:
    """A fresh deal in which at least ``seats`` seats have claims open."""
    for seed in range(500):
        state = State.deal(rules, seed)
        if sum(1 for s in range(rules.players) if state.claims(s)) >= seats:
            return state
    raise AssertionError("no such deal")


def test_it_asks_the_seats_with_claims_in_claim_order_then_the_mover() -> None:
    state = _with_claims(Rules.make())
    window = ClaimWindow(state)
    expected = [(s, state.claims(s)) for s in state.claim_order() if state.claims(s)]
    asked = []
    while (ask := window.asking()) is not None:
        asked.append(ask)
        assert window.unanswered()[0] == ask
        window.let_pass(ask[0])
    assert asked == expected and window.unanswered() == []
    assert window.turn() == (state.to_move, state.turn_actions())


def test_a_claim_opens_the_window_again_from_the_claimants_left() -> None:
    state = _with_claims(Rules.make())
    window = ClaimWindow(state)
    ask = window.asking()
    assert ask is not None
    seat, claims = ask
    window.apply(claims[0])
    assert state.claim_order()[0] == (seat + 1) % state.n
    assert window.asks == [(s, state.claims(s)) for s in state.claim_order() if state.claims(s)]


def test_a_bot_is_asked_again_at_every_window_a_person_only_for_a_claim_it_has_not_let_pass() -> None:
    rules = Rules.make()
    rng = random.Random(5)
    for seed in range(200):
        state = State.deal(rules, seed)
        bots, people = ClaimWindow(state.clone()), ClaimWindow(state, people=range(rules.players))
        passed: list[set[Claim]] = [set() for _ in range(rules.players)]
        while not state.over:
            while (ask := people.asking()) is not None:
                seat, claims = ask
                assert not set(claims) <= passed[seat]
                passed[seat] |= set(claims)
                people.let_pass(seat)
            mover, offered = people.turn()
            assert offered == state.legal_actions(mover)  # a person may claim on its turn
            assert [s for s, _ in bots.asks] == [s for s, _ in people.asks]
            action = rng.choice(offered)
            people.apply(action)
            bots.apply(action)
        assert people.passed == tuple(frozenset(p) for p in passed)


def test_seats_skipped_are_not_waited_for_and_fresh_claims_are_those_just_opened() -> None:
    state = _with_claims(Rules.make())
    window = ClaimWindow(state)
    first, second = window.asks[0][0], window.asks[1][0]
    ask = window.asking(skip={first})
    assert ask is not None and ask[0] == second
    assert window.fresh({first}) == frozenset(window.asks[0][1])
    window.let_pass(second)
    assert window.asking(skip={first}) in (None, window.asks[2] if len(window.asks) > 2 else None)
    assert window.asking() == window.asks[0]
    rng = random.Random(2)
    while not state.over:
        prior = {c for _, claims in window.asks for c in claims}
        seat = rng.choice([s for s in range(state.n) if state.legal_actions(s)])
        window.apply(rng.choice(state.legal_actions(seat)))
        now = {c for _, claims in window.asks for c in claims}
        assert window.fresh(range(state.n)) == frozenset(now - prior)
        assert window.fresh({0}) == frozenset(c for c in now - prior if c.seat == 0)
    window.open(anew=True)
    assert window.fresh(range(state.n)) == frozenset()


def test_mark_and_rewind_come_back_to_where_the_window_stood() -> None:
    state = _with_claims(Rules.make())
    window = ClaimWindow(state, people={0, 1, 2, 3, 4})
    before = state.clone()
    ask = window.asking()
    assert ask is not None
    window.let_pass(ask[0])
    mark, asking = window.mark(), window.asking()
    mover, legal = window.turn()
    window.apply(legal[0])
    window.rewind(before, mark)
    assert window.state is before and window.asking() == asking
    copy = window.copy(before.clone())
    copy.let_pass(ask[0] + 1)
    assert window.mark() == mark


def test_the_seats_asked_and_their_claims_are_the_engines_in_every_reading() -> None:
    readings = [Rules.make(preset, players, (), options)
                for preset in ("survivor", "last-capture") for players in (3, 4, 5)
                for options in ({}, {"dead_claims": "own_turn"}, {"dead_claims": "off"},
                                {"hand_set_timing": "foreplay"}, {"spotter_claims": False})]
    for rules in readings:
        for seed in range(30):
            state = State.deal(rules, seed)
            window, rng = ClaimWindow(state), random.Random(seed)
            while not state.over:
                assert window.asks == [(s, state.claims(s)) for s in state.claim_order() if state.claims(s)]
                seat = rng.choice([s for s in range(state.n) if state.legal_actions(s)])
                window.apply(rng.choice(state.legal_actions(seat)))
            assert window.asks == []
