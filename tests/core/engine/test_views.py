"""RULES.md §9: a view holds what its seat may know, and nothing it may not.

The permutation test: take a deal and its actions, relabel the cards hidden from a seat
(other hands, others' face-down sets) by a permutation, replay, and the seat's view must
not change.
"""

from __future__ import annotations

import random

import pytest

from lald.core import (
    CARDS,
    Action,
    Capture,
    Claim,
    Claimed,
    DealEnded,
    IllegalActionError,
    LaidDown,
    Rules,
    State,
    TableMournival,
    Trail,
    cards_of,
)
from lald.core.cards import FULL_DECK

from ..play_helpers import ALL_CONFIGS, play_random


def known_to(state: State, seat: int) -> int:
    """The cards ``seat`` has seen: its dealt hand, the dealt table, everything shown."""
    known = state.dealt_hands[seat] | state.dealt_table
    for op in state.history:
        if isinstance(op, Capture):
            cards = op.play + op.take
        elif isinstance(op, Claimed):
            cards = op.cards if (not op.face_down or op.seat == seat) and op.cards else ()
        elif isinstance(op, LaidDown | TableMournival):
            cards = op.cards
        elif isinstance(op, Trail):
            cards = (op.card,)
        elif isinstance(op, DealEnded):
            cards = op.hand + op.table
        else:
            raise AssertionError(op)
        for c in cards:
            known |= 1 << c
    return known


def relabel(action: Action, p: dict[int, int]) -> Action:
    m = lambda cs: tuple(CARDS[p[c]] for c in cs)  # noqa: E731
    if isinstance(action, Capture):
        return Capture(action.seat, m(action.play), m(action.take))
    if isinstance(action, Claim):
        return Claim(action.seat, m(action.cards))
    if isinstance(action, Trail):
        return Trail(action.seat, CARDS[p[action.card]])
    return action


def permuted_replay(state: State, p: dict[int, int]) -> State | None:
    hands = [tuple(CARDS[p[c]] for c in cards_of(h)) for h in state.dealt_hands]
    table = tuple(CARDS[p[c]] for c in cards_of(state.dealt_table))
    other = State.from_layout(state.rules, hands, table, state.dealer, state.pot_before)
    try:
        for a in state.actions:
            other.apply(relabel(a, p))
    except IllegalActionError:
        return None
    return other


@pytest.mark.parametrize("preset,players,variants", ALL_CONFIGS[::2])
def test_rules_9_permuting_hidden_cards_never_changes_the_view(
        preset: str, players: int, variants: tuple[str, ...]) -> None:
    rules = Rules.make(preset, players, variants)
    rng = random.Random(f"{preset}/{players}/{variants}")
    checked = differs = 0
    for deal in range(25):
        stop = rng.randrange(0, 40)
        state = play_random(rules, deal, rng, rng.random(), stop_after=stop)
        seat = rng.randrange(players)
        hidden = [c for c in range(52) if not known_to(state, seat) >> c & 1]
        assert not (FULL_DECK & ~known_to(state, seat)) & state.hands[seat]
        # within-rank relabelling keeps every action legal; a free shuffle sometimes does
        by_rank: dict[int, list[int]] = {}
        for c in hidden:
            by_rank.setdefault(c >> 2, []).append(c)
        perms = []
        p = {c: c for c in range(52)}
        for group in by_rank.values():
            shuffled = group[:]
            rng.shuffle(shuffled)
            p.update(zip(group, shuffled, strict=True))
        perms.append(p)
        free = hidden[:]
        rng.shuffle(free)
        perms.append({**{c: c for c in range(52)}, **dict(zip(hidden, free, strict=True))})
        for p in perms:
            other = permuted_replay(state, p)
            if other is None:
                continue
            assert other.view(seat) == state.view(seat)
            checked += 1
            differs += other.hands != state.hands or other.won != state.won
    assert checked >= 25 and differs >= 10  # the relabelling really moved hidden cards


def test_rules_9_view_of_face_down_sets_is_censored_for_spectators() -> None:
    rules = Rules.make("last-capture")
    for seed in range(300):
        state = State.deal(rules, seed)
        sets = [c for c in state.open_claims() if len(c.cards) in (2, 4)]
        if sets:
            claim = sets[0]
            state.apply(claim)
            spectator = state.view(None)
            op = spectator.history[-1]
            assert isinstance(op, Claimed) and op.cards is None
            assert spectator.hand == ()
            return
    raise AssertionError("no foreplay hand set found in 300 deals")
