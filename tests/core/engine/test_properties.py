"""Properties of random legal play in every preset × player count × variant set."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lald.core import (
    CARDS,
    Capture,
    Claim,
    IllegalActionError,
    LieDown,
    Rules,
    Session,
    State,
    Trail,
)
from lald.core.cards import FULL_DECK
from lald.core.rules import NoCapture, PrizeRule, Scoring
from lald.record import Record

from ..play_helpers import ALL_CONFIGS, play_random, random_action

DEALS_PER_CONFIG = 50  # 36 configurations: 1,800 deals, plus the Hypothesis runs below


def check_invariants(state: State) -> None:
    """Every card in exactly one place; 4, 2 or 0 live per rank; even won piles."""
    places = [*state.hands, state.table_mask, *state.won]
    union = 0
    for m in places:
        assert not union & m, "a card is in two places"
        union |= m
    assert union == FULL_DECK, "a card is missing"
    live = state.table_mask
    for h in state.hands:
        live |= h
    assert state.live_mask() == live
    for r in range(13):
        assert ((live >> 4 * r) & 15).bit_count() in (0, 2, 4)
    dead = [r for r in range(13) if (live >> 4 * r) & 15 and any(
        (place >> 4 * r) & 15 == (live >> 4 * r) & 15 for place in (state.table_mask, *state.hands))]
    assert state.dead_ranks() == dead
    for w in state.won:
        assert w.bit_count() % 2 == 0, "a won pile is odd"
    for s in range(state.n):
        if state.lain[s]:
            assert state.hands[s] == 0
    if not state.over:
        assert state.to_move is not None and state.hands[state.to_move]
        assert sum(1 for h in state.hands if h) >= 2
    else:
        assert state.to_move is None and state.table_mask == 0
        assert all(h == 0 for h in state.hands)


@pytest.mark.parametrize("preset,players,variants", ALL_CONFIGS)
def test_random_play_invariants(preset: str, players: int, variants: tuple[str, ...]) -> None:
    rules = Rules.make(preset, players, variants)
    rng = random.Random(f"{preset}{players}{variants}")
    standard = players == 5 and rules.scoring is Scoring.CHIPS
    for i in range(DEALS_PER_CONFIG):
        pot = rng.randrange(-5, 6)
        state = play_random(rules, seed=i, rng=rng, claim_prob=rng.random(), check=check_invariants,
                            dealer=i % players, pot=pot)
        r = state.result
        assert r is not None
        assert len(state.actions) <= 52  # every action removes a live card: the deal is bounded
        assert sum(r.won) == 52
        assert r.pot_before - r.pot_after == sum(r.chips)
        if standard and (r.prize_to is not None):
            assert r.pot_after == pot, "in the standard game the pot returns to its pre-ante value"
            assert sum(r.pairs or ()) == 6
        if rules.prize_rule is PrizeRule.LAST_CAPTURE:
            captures = [a.seat for a in state.actions if isinstance(a, Capture)]
            assert r.prize_to == (captures[-1] if captures else None) or rules.scoring is Scoring.CARD_COUNT
        if rules.no_capture is NoCapture.TRAIL:
            assert not any(isinstance(a, LieDown) for a in state.actions)
        else:
            assert not any(isinstance(a, Trail) for a in state.actions)


@pytest.mark.parametrize("preset,players,variants", ALL_CONFIGS[::5])
def test_session_ledger_balances(preset: str, players: int, variants: tuple[str, ...]) -> None:
    rules = Rules.make(preset, players, variants)
    rng = random.Random(7)
    for seed in range(3):
        session = Session(rules, seed)
        while not session.over:
            state = session.start_deal()
            assert state.balances_before == tuple(session.balances)
            while not state.over:
                state.apply(random_action(state, rng))
            session.end_deal(state)
            assert sum(session.balances) + session.pot == 0
        assert session.winners


config = st.sampled_from(ALL_CONFIGS)


@given(config, st.integers(0, 2**32), st.integers(0, 60), st.floats(0, 1))
def test_records_round_trip_and_replay(cfg: tuple[str, int, tuple[str, ...]], seed: int,
                                       stop: int, claim_prob: float) -> None:
    preset, players, variants = cfg
    rules = Rules.make(preset, players, variants)
    state = play_random(rules, seed, random.Random(seed), claim_prob, stop_after=stop)
    for layout in (False, True):
        record = Record.from_state(state, layout=layout)
        from_json = Record.parse(record.dumps())
        from_text = Record.parse(record.to_text())
        assert from_json == record == from_text
        again = from_json.replay()
        assert again.hands == state.hands and again.won == state.won
        assert again.table_mask == state.table_mask and again.to_move == state.to_move
        assert again.history == state.history and again.result == state.result


@given(config, st.integers(0, 2**32), st.integers(0, 40))
def test_clone_is_independent(cfg: tuple[str, int, tuple[str, ...]], seed: int, stop: int) -> None:
    rules = Rules.make(*cfg)
    rng = random.Random(seed)
    state = play_random(rules, seed, rng, stop_after=stop)
    snapshot = snapshot_of(state)
    copy = state.clone()
    while not copy.over:
        copy.apply(random_action(copy, rng))
    assert snapshot_of(state) == snapshot
    assert copy.over


def snapshot_of(state: State) -> tuple[object, ...]:
    return (state.hands[:], state.table_mask, state.won[:], state.face_down[:], state.lain[:],
            state.to_move, state.foreplay, state.over, state.last_capture, state.last_actor,
            list(state.history), list(state.actions), state.result, state.holding)


def illegal_candidates(state: State, rng: random.Random) -> list[object]:
    """Actions of every kind, most of them illegal now."""
    n = state.n
    out: list[object] = []
    for _ in range(12):
        seat = rng.randrange(-1, n + 1)
        a, b, c = rng.sample(CARDS, 3)
        out += [
            Capture(seat, (a,), (b,)),
            Capture(seat, (a, b), (c,)),
            Capture(seat, (a,), ()),
            Claim(seat, (a, b)),
            Claim(seat, (a,)),
            Claim(seat, (a, a)),
            LieDown(seat),
            Trail(seat, a),
        ]
    return out


def _unordered(action: object) -> tuple[object, ...]:
    """An action with its cards as sets: the engine reads ``claim 3H 3S`` as ``claim 3S 3H``."""
    parts = [getattr(action, name, None) for name in ("play", "take", "cards")]
    return (type(action), getattr(action, "seat", None), getattr(action, "card", None),
            *(None if p is None else frozenset(p) for p in parts))


@given(config, st.integers(0, 2**32), st.integers(0, 50))
def test_illegal_actions_rejected_state_unchanged(cfg: tuple[str, int, tuple[str, ...]], seed: int,
                                                  stop: int) -> None:
    rules = Rules.make(*cfg)
    rng = random.Random(seed)
    state = play_random(rules, seed, rng, stop_after=stop)
    legal = set(state.open_claims()) | set(state.turn_actions())
    legal_cards = {_unordered(a) for a in legal}
    for action in illegal_candidates(state, rng):
        if _unordered(action) in legal_cards:  # a legal action with its cards in another order
            continue
        before = snapshot_of(state)
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)  # type: ignore[arg-type]
        assert str(info.value) and "\n" not in str(info.value)
        assert snapshot_of(state) == before
    for action in legal:
        assert state.can(action)


@pytest.mark.parametrize("preset,players,variants", ALL_CONFIGS)
def test_open_claims_are_every_seats_claims_in_claim_order(
        preset: str, players: int, variants: tuple[str, ...]) -> None:
    rules = Rules.make(preset, players, variants)
    rng = random.Random(11)

    def check(state: State) -> None:
        expected = [c for seat in state.claim_order() for c in state.claims(seat)]
        assert state.open_claims() == expected

    for seed in range(15):
        play_random(rules, seed, rng, rng.random(), check=check)


@given(config, st.integers(0, 2**32), st.integers(0, 50))
def test_legal_actions_are_exactly_the_accepted_ones(cfg: tuple[str, int, tuple[str, ...]], seed: int,
                                                     stop: int) -> None:
    """Every capture, claim, lie-down and trail the engine accepts is in its legal lists."""
    rules = Rules.make(*cfg)
    state = play_random(rules, seed, random.Random(seed), stop_after=stop)
    if state.over:
        return
    for seat in range(state.n):
        legal = set(state.legal_actions(seat))
        hand_and_table = [c for c in CARDS if (state.hands[seat] | state.table_mask) >> c & 1]
        for r in range(13):
            group = [c for c in hand_and_table if c.rank == r]
            for size in (1, 2, 3, 4):
                for combo in itertools.combinations(group, size):
                    a = Claim(seat, combo)
                    assert state.can(a) == (a in legal), a
            hand = [c for c in group if state.hands[seat] >> c & 1]
            table = [c for c in group if state.table_mask >> c & 1]
            for k in range(1, len(hand) + 1):
                for play in itertools.combinations(hand, k):
                    for j in range(1, len(table) + 1):
                        for take in itertools.combinations(table, j):
                            cap = Capture(seat, play, take)
                            assert state.can(cap) == (cap in legal), cap
        if seat == state.to_move:
            for a in [LieDown(seat), *(Trail(seat, c) for c in CARDS if state.hands[seat] >> c & 1)]:
                assert state.can(a) == (a in legal), a


def test_determinism_ignores_global_random() -> None:
    rules = Rules.make()
    records = []
    for disturb in (1, 2):
        random.seed(disturb)
        random.random()
        state = play_random(rules, seed=123, rng=random.Random(5))
        random.shuffle(list(range(100)))
        records.append(Record.from_state(state).dumps())
    assert records[0] == records[1]
