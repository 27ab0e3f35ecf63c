"""The fast play-out path plays exactly the engine's game: every move and every settlement.

Thousands of seeded deals are played both ways: the same seeded choices drive the checked
:class:`State` and :class:`FastState`, and after every move the legal moves (with how many
concrete actions each stands for), the position and, at the end, the settlement must agree.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from lald.core import Rules, State
from lald.core.actions import last_taker
from lald.core.codes import (
    HAND_CLAIM,
    LIE,
    TABLE_CLAIM,
    action_of,
    choose_action,
    code_of,
    counts,
    make_code,
    presence,
)
from lald.core.fast import FastState

RULESETS: list[tuple[str, int, tuple[str, ...], dict[str, Any]]] = [
    ("survivor", 5, (), {}),
    ("survivor", 4, (), {}),
    ("survivor", 3, (), {}),
    ("last-capture", 5, (), {}),
    ("last-capture", 4, (), {}),
    ("last-capture", 3, (), {}),
    ("survivor", 5, ("modern-laugh",), {}),
    ("last-capture", 4, ("modern-laugh",), {}),
    ("survivor", 3, ("modern-laugh", "low-stakes"), {}),
    ("last-capture", 5, ("low-stakes", "silent"), {}),
    ("survivor", 5, (), {"single_takes_three": "forced", "rounding": "floor"}),
    ("survivor", 4, (), {"pair_on_pair": "off", "prial_on_single": "off"}),
    ("survivor", 5, (), {"dead_claims": "own_turn", "table_mournival_to_dealer": "off"}),
    ("last-capture", 5, (), {"dead_claims": "off", "spotter_claims": "on"}),
    ("survivor", 3, (), {"hand_sets": "off", "dead_claims": "own_turn"}),
    ("last-capture", 3, ("modern-laugh",), {"hand_set_timing": "foreplay_or_own_turn",
                                            "dead_claims": "own_turn", "spotter_claims": "on"}),
    ("survivor", 4, ("modern-laugh",), {"hand_sets_face_down": "on", "prize_rule": "last_capture"}),
    ("survivor", 5, (), {"prize_rule": "last_card"}),
    ("last-capture", 4, (), {"pot_rule": "real", "prize": "9"}),
    ("survivor", 3, ("modern-laugh",), {"pot_rule": "real", "prize_rule": "last_card"}),
    ("last-capture", 3, ("modern-laugh",), {"prize_rule": "last_card", "spotter_claims": "on"}),
]
IDS = ["-".join([p, str(n), *v, *(f"{k}={x}" for k, x in o.items())]) for p, n, v, o in RULESETS]


def _rules(spec: tuple[str, int, tuple[str, ...], dict[str, Any]]) -> Rules:
    preset, players, variants, options = spec
    return Rules.make(preset, players, variants, options)


def _start(rules: Rules, seed: int) -> State:
    n = rules.players
    return State.deal(rules, seed=seed, dealer=seed % n, pot=seed % 7 - 3)


def _same_position(state: State, fast: FastState) -> None:
    assert fast.hc == [counts(h) for h in state.hands]
    assert fast.tc == counts(state.table_mask)
    assert fast.hs == [h.bit_count() for h in state.hands]
    assert fast.hp == [presence(counts(h)) for h in state.hands]
    assert fast.tp == presence(fast.tc)
    assert fast.won == [w.bit_count() for w in state.won]
    assert fast.lain == state.lain
    assert fast.over == state.over
    assert fast.foreplay == state.foreplay
    assert fast.to_move == (-1 if state.to_move is None else state.to_move)
    assert fast.last_capture == (-1 if state.last_capture is None else state.last_capture)
    taker = last_taker(state.history)
    assert fast.last_take == (-1 if taker is None else taker)
    fresh = FastState.from_state(state)
    # the dead-rank flags kept move by move equal those read afresh
    assert (fast.tdead, fast.hdead, fast.lc, fast.h3, fast.holding) == (
        fresh.tdead, fresh.hdead, fresh.lc, fresh.h3, fresh.holding)


def _codes(actions: list[Any], table_mask: int) -> Counter[int]:
    return Counter(code_of(a, table_mask) for a in actions)


def _play_both(rules: Rules, seed: int) -> int:
    """Drive both paths with the same seeded choices; return the number of moves."""
    rng = random.Random(seed)
    claim_p = rng.choice((0.0, 0.3, 0.9))
    state = _start(rules, seed)
    fast = FastState.from_state(state)
    moves = 0
    while not state.over:
        _same_position(state, fast)
        table = state.table_mask
        claims = state.open_claims()
        turns = state.turn_actions()
        assert _codes(turns, table) == Counter(dict(fast.turn_options()))
        assert _codes(claims, table) == Counter(dict(fast.open_claim_options()))
        # the order claims are offered in: seat by seat in claim order
        assert list(dict.fromkeys(code_of(a, table) for a in claims)) == fast.open_claim_codes()
        assert fast.any_claims() == bool(claims)
        seat = rng.randrange(rules.players)
        assert _codes(state.claims(seat), table) == Counter(dict(fast.claim_options(seat)))
        assert fast.claim_order() == state.claim_order()
        action = rng.choice(claims) if claims and rng.random() < claim_p else rng.choice(turns)
        state.apply(action)
        fast.apply(code_of(action, table))
        moves += 1
    _same_position(state, fast)
    assert fast.result() == state.result
    result = state.result
    assert result is not None
    for s in range(rules.players):
        if result.pairs is not None:
            assert fast.value(s) == result.chips[s] + result.antes[s]
    return moves


@pytest.mark.parametrize("spec", RULESETS, ids=IDS)
def test_fast_path_plays_every_move_as_the_engine(
        spec: tuple[str, int, tuple[str, ...], dict[str, Any]]) -> None:
    rules = _rules(spec)
    moves = sum(_play_both(rules, seed) for seed in range(120))
    assert moves > 120 * rules.players  # real deals were played, not empty ones


@pytest.mark.parametrize("spec", RULESETS, ids=IDS)
def test_random_playout_replays_through_the_checked_engine(
        spec: tuple[str, int, tuple[str, ...], dict[str, Any]]) -> None:
    """The inlined random play-out makes only legal moves and settles as the engine does."""
    rules = _rules(spec)
    rng = random.Random(99)
    kinds: Counter[int] = Counter()
    for seed in range(120):
        state = _start(rules, 10_000 + seed)
        fast = FastState.from_state(state)
        trace: list[int] = []
        fast.random_playout(rng, claim_p=rng.choice((0.1, 0.5, 1.0)), trace=trace)
        for i, code in enumerate(trace):
            seat = code >> 7
            action = action_of(code, state.hands[seat], state.table_mask)
            if i % 2:
                legal = state.legal_actions(seat) if seat == state.to_move else state.claims(seat)
                action = choose_action(code, legal, state.table_mask)
            state.apply(action)
            kinds[code & 7] += 1
        assert state.over
        assert fast.result() == state.result
        # the finished fast state is the engine's finished deal, field by field
        _same_position(state, fast)
        assert fast.last_actor == state.last_actor
        assert fast.survivor == state.result.survivor
    assert kinds[LIE] or rules.no_capture != "lie_down"


@pytest.mark.parametrize("spec", RULESETS[:3] + RULESETS[6:7], ids=IDS[:3] + IDS[6:7])
def test_random_outcome_leaves_the_state_and_matches_random_playout(
        spec: tuple[str, int, tuple[str, ...], dict[str, Any]]) -> None:
    """The non-mutating roll-out plays the same deal as random_playout with the same draws."""
    rules = _rules(spec)
    for seed in range(40):
        fast = FastState.from_state(_start(rules, 20_000 + seed))
        before = (fast.hc, fast.tc, fast.won, fast.lain, fast.to_move, fast.foreplay, fast.hs)
        snapshot = repr(before)
        trace: list[int] = []
        won, survivor, last_capture, last_actor, foreplay, lain, last_take = fast.random_outcome(
            random.Random(seed), trace=trace)
        assert repr(before) == snapshot and not fast.over
        again: list[int] = []
        done = fast.copy().random_playout(random.Random(seed), trace=again)
        assert again == trace
        assert (done.won, done.survivor, done.last_capture, done.last_actor, done.foreplay,
                done.last_take) == (won, survivor, last_capture, last_actor, foreplay, last_take)
        assert done.lain == [s in lain or fast.lain[s] for s in range(rules.players)]
        assert sum(won) == 52


def test_random_playout_picks_uniformly() -> None:
    """The first move of a random play-out: a claim with probability claim_p when one is
    open (uniform over concrete claims), else a uniform capturable rank, then a uniform
    concrete capture of it; checked against those probabilities on many draws."""
    rules = Rules.make()
    rng = random.Random(7)
    for seed in range(6):
        fast = FastState.from_state(_start(rules, 30_000 + seed))
        claims = fast.open_claim_options()
        turns = fast.turn_options()
        expected: Counter[int] = Counter()
        claim_p = 0.5 if claims else 0.0
        total_claims = sum(w for _, w in claims)
        for code, w in claims:
            expected[code] += claim_p * w / total_claims
        by_rank: dict[int, list[tuple[int, int]]] = {}
        for code, w in turns:
            by_rank.setdefault(code >> 3 & 15, []).append((code, w))
        for options in by_rank.values():
            weight = sum(w for _, w in options)
            for code, w in options:
                expected[code] += (1 - claim_p) / len(by_rank) * w / weight
        draws = 6000
        seen: Counter[int] = Counter()
        for _ in range(draws):
            trace: list[int] = []
            fast.random_outcome(rng, claim_p=0.5, trace=trace)
            seen[trace[0]] += 1
        assert set(seen) <= set(expected)
        for code, p in expected.items():
            sd = (p * (1 - p) / draws) ** 0.5
            assert abs(seen[code] / draws - p) < 5 * sd + 1e-9, (seed, code)


def test_from_state_mid_deal_and_copy_are_independent() -> None:
    rules = Rules.make()
    rng = random.Random(5)
    for seed in range(50):
        state = _start(rules, seed)
        for _ in range(rng.randrange(12)):
            if state.over:
                break
            state.apply(rng.choice(state.turn_actions()))
        if state.over:
            continue
        fast = FastState.from_state(state)
        twin = fast.copy()
        fast.random_playout(rng)
        _same_position(state, twin)
        assert sum(fast.won) == 52
        assert sum(twin.lc) == 52 - sum(twin.won)


def test_from_world_matches_from_state() -> None:
    state = _start(Rules.make("last-capture", 4), 3)
    a = FastState.from_state(state)
    b = FastState.from_world(
        state.rules, [counts(h) for h in state.hands], counts(state.table_mask),
        [w.bit_count() for w in state.won], state.lain, state.dealer, state.to_move,
        state.foreplay, None, -1, state.pot_before)
    assert (a.hc, a.tc, a.won, a.to_move, a.tdead, a.hdead) == (
        b.hc, b.tc, b.won, b.to_move, b.tdead, b.hdead)


def test_rules_5_spotter_claim_and_residue_on_the_fast_path() -> None:
    """Worked example 1: a queen taking one of three leaves a dead table pair anyone may claim."""
    from lald.core import parse_cards

    rules = Rules.make("survivor", 3)
    hands = [parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS KH"),
             parse_cards("QS AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH KD"),
             parse_cards("AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD AC 2C")]
    table = parse_cards("QH QD QC 3C 4C 5C 6C 7C 8C 9C TC JC KC")
    state = State.from_layout(rules, hands, table, dealer=0)
    fast = FastState.from_state(state)
    queen = make_code(0, 11, 1)  # seat 1: a single queen
    fast.to_move = 1
    fast.apply(queen)
    codes = fast.open_claim_codes()
    assert make_code(TABLE_CLAIM, 11, 0) in codes and make_code(TABLE_CLAIM, 11, 2) in codes
    assert all(c & 7 in (TABLE_CLAIM, HAND_CLAIM) for c in codes)


@pytest.mark.parametrize("prize", ["survivor", "last_capture", "last_card"])
def test_the_prize_goes_where_the_rules_send_it(prize: str) -> None:
    # One question for every reader of a finished play-out (the review's tally asked
    # "survivor or last capture" and missed the last card).
    for seed in range(40):
        rules = Rules.make(players=4, options={"prize_rule": prize})
        fs = FastState.from_state(State.deal(rules, seed=seed))
        fs.random_playout(random.Random(seed))
        want = {"survivor": fs.survivor, "last_capture": fs.last_capture, "last_card": fs.last_take}[prize]
        assert fs.prize_to() == want
