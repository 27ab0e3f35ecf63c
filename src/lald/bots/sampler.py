"""Determinization: hidden hands drawn consistently with everything a seat has seen.

A *world* gives every other seat a hand (per-rank counts) and every face-down set it did
not see a rank.  :func:`sample` draws worlds uniformly among the card deals consistent
with the view (:func:`consistent` says which are):

- sizes: each hand has the size the view shows; the unknown cards are exactly shared out;
- a seat that trailed held no card of any rank then on the table, so neither its hand
  now nor any set it laid aside after that trail holds such a rank;
- a face-down set of two came from a prial (the seat held exactly three of that rank
  then), a face-down set of four is a whole rank.

The draw is exact rejection sampling: set ranks are proposed uniformly (among the ranks
with enough unknown cards) and accepted in proportion to the number of suit choices they
leave, hands are dealt by a uniform shuffle, and a world that breaks a rule is drawn
again.  Only if that keeps failing
(``tries`` times) does a constrained fill take over, consistent on sizes and trails but
not exactly uniform; :func:`sample` says which it used.  Where the compiled kernel is
loaded, the proposals are drawn and tested in it (:func:`lald.bots.kernel.compiled_sample`),
with the same draws from the generator and the same worlds as :func:`sample_py`.
"""

from __future__ import annotations

import random
from math import comb

from ..core.cards import NUM_RANKS
from .kernel import compiled_sample
from .knowledge import Knowledge

World = tuple[list[list[int]], list[int]]
"""Per-seat hands (13 counts each, this seat's own included) and the ranks of the unseen
face-down sets, in the order of :attr:`Knowledge.hidden_sets`."""


def consistent(k: Knowledge, hands: list[list[int]], set_ranks: list[int]) -> bool:
    """Whether ``hands`` and ``set_ranks`` agree with everything ``k`` knows."""
    pool = list(k.unknown)
    for hs, r in zip(k.hidden_sets, set_ranks, strict=True):
        pool[r] -= hs.count
    for s in range(k.view.players):
        if s == k.seat:
            if hands[s] != k.hand:
                return False
            continue
        if sum(hands[s]) != k.sizes[s]:
            return False
        for r in range(NUM_RANKS):
            pool[r] -= hands[s][r]
            if hands[s][r] and k.forbidden[s] >> r & 1:
                return False
    if any(pool):
        return False
    for i, (hs, r) in enumerate(zip(k.hidden_sets, set_ranks, strict=True)):
        # the seat's holding of rank r when it set these cards aside
        held = hands[hs.seat][r] + hs.count
        held += sum(x.count for x in k.removals if x.seat == hs.seat and x.rank == r and x.index > hs.index)
        held += sum(o.count for o, q in zip(k.hidden_sets[i + 1:], set_ranks[i + 1:], strict=True)
                    if o.seat == hs.seat and q == r)
        if held != (3 if hs.count == 2 else 4):
            return False
        for seat, index, table_ranks in k.trail_tables:
            if seat == hs.seat and index < hs.index and table_ranks >> r & 1:
                return False
    return True


def sample(k: Knowledge, rng: random.Random, tries: int = 300) -> tuple[World, bool]:
    """A world drawn uniformly among the consistent ones; the flag says the draw was
    exact (False: the constrained fill after ``tries`` rejections)."""
    drawn = compiled_sample(k, rng, tries)  # the same draws and world, in C
    if drawn is not None:
        return drawn
    return sample_py(k, rng, tries)


def sample_py(k: Knowledge, rng: random.Random, tries: int = 300) -> tuple[World, bool]:
    """:func:`sample` on the pure path, the reference its compiled twin is held to."""
    others = [s for s in range(k.view.players) if s != k.seat and k.sizes[s]]
    for _ in range(tries):
        world = _propose(k, others, rng)
        if world is not None and consistent(k, *world):
            return world, True
    return _fill(k, others, rng), False


def _propose(k: Knowledge, others: list[int], rng: random.Random) -> World | None:
    pool = list(k.unknown)
    set_ranks: list[int] = []
    for hs in k.hidden_sets:
        m = hs.count
        # uniform among the ranks with enough unknown cards, kept in proportion to the
        # suit choices: exact, since the other ranks have weight zero anyway
        eligible = [r for r in range(NUM_RANKS) if pool[r] >= m]
        if not eligible:
            return None
        r = rng.choice(eligible)
        if rng.random() * comb(4, m) >= comb(pool[r], m):
            return None
        pool[r] -= m
        set_ranks.append(r)
    tokens = [r for r in range(NUM_RANKS) for _ in range(pool[r])]
    rng.shuffle(tokens)
    hands = [[0] * NUM_RANKS for _ in range(k.view.players)]
    hands[k.seat] = list(k.hand)
    i = 0
    for s in others:
        hand = hands[s]
        for r in tokens[i:i + k.sizes[s]]:
            hand[r] += 1
        i += k.sizes[s]
    return hands, set_ranks


def _fill(k: Knowledge, others: list[int], rng: random.Random) -> World:
    for strict in (True, False):
        for _ in range(200 if strict else 1):
            world = _try_fill(k, others, rng, strict)
            if world is not None:
                return world
    raise AssertionError("a relaxed fill always succeeds")  # pragma: no cover


def _try_fill(k: Knowledge, others: list[int], rng: random.Random, strict: bool) -> World | None:
    """Hands drawn card by card among the ranks each seat may hold (the seat with the
    fewest choices first); None if that runs into a dead end."""
    pool = list(k.unknown)
    set_ranks = []
    for hs in k.hidden_sets:
        ranks = [r for r in range(NUM_RANKS) if pool[r] >= hs.count]
        ranks = ranks or [max(range(NUM_RANKS), key=pool.__getitem__)]
        r = rng.choice(ranks)
        pool[r] -= min(hs.count, pool[r])
        set_ranks.append(r)
    hands = [[0] * NUM_RANKS for _ in range(k.view.players)]
    hands[k.seat] = list(k.hand)
    need = {s: k.sizes[s] for s in others}
    while any(need.values()):
        options = {s: [r for r in range(NUM_RANKS) if pool[r] and not (strict and k.forbidden[s] >> r & 1)]
                   for s in need if need[s]}
        s = min(options, key=lambda s: (len(options[s]), rng.random()))
        ranks = options[s]
        if not ranks:
            return None
        r = rng.choices(ranks, weights=[pool[q] for q in ranks])[0]
        hands[s][r] += 1
        pool[r] -= 1
        need[s] -= 1
    return hands, set_ranks
