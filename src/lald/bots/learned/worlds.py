"""Worlds a seat cannot tell from the true deal: hidden hands drawn by lald.bots' sampler,
laid out as a deal, and the public history replayed on it.

:func:`world_from_view` is what OpenSpiel's ``resample_from_infostate`` and the ISMCTS bot
stand on.  It reads only a :class:`~lald.core.PlayerView`: the hidden cards (other hands,
others' face-down sets) come from :func:`lald.bots.sampler.sample`, get suits from the
cards this seat has not seen, and go back into the hands they were dealt to; the deal is
then replayed action by action through the engine, which checks every one.  A world in
which some action of the history is not legal (the sampler does not know, for one, that
a face-up set of two from a prial leaves the third card in the hand that set it, so
:func:`knowledge` pins that card there before the draw) is drawn again.
"""

from __future__ import annotations

import dataclasses
import random

from ...core import (
    Action,
    Capture,
    Claim,
    Claimed,
    ClaimKind,
    ClaimWindow,
    DealEnded,
    IllegalActionError,
    LaidDown,
    LieDown,
    PlayerView,
    State,
    TableMournival,
    Trail,
    cards_of,
)
from ...core.cards import NUM_CARDS, NUM_RANKS
from ..knowledge import Knowledge, read
from ..sampler import sample

FULL = (1 << NUM_CARDS) - 1


def dealt_table(view: PlayerView) -> int:
    """The table as dealt (before the table-mournival automation), read back from the
    table now through the public history."""
    t = sum(1 << c for c in view.table)
    for op in reversed(view.history):
        if isinstance(op, Capture):
            t |= sum(1 << c for c in op.take)
        elif isinstance(op, Claimed) and op.kind is ClaimKind.SPOTTER:
            assert op.cards is not None
            t |= sum(1 << c for c in op.cards)
        elif isinstance(op, LaidDown):
            t &= ~sum(1 << c for c in op.cards)
        elif isinstance(op, Trail):
            t &= ~(1 << op.card)
        elif isinstance(op, TableMournival):
            t |= sum(1 << c for c in op.cards)
    return t


def _take(pool: list[list[int]], rank: int, count: int) -> int:
    cards = pool[rank][:count]
    del pool[rank][:count]
    if len(cards) != count:
        raise ValueError("the sampler handed out more cards of a rank than are unknown")
    return sum(1 << c for c in cards)


def layout(view: PlayerView, hands: list[list[int]], set_ranks: list[int]) -> tuple[list[int], list[int]]:
    """The hands as dealt in the world where the other seats hold ``hands`` (per-rank
    counts) and the unseen face-down sets have ``set_ranks``, and the cards of those
    sets, in history order.  Unseen cards are handed out lowest suit first (suits never
    matter in play; this way equal worlds are equal states)."""
    n, me = view.players, view.seat
    seen = sum(1 << c for c in view.hand) | sum(1 << c for c in view.table)
    for pile in view.won_seen:
        seen |= sum(1 << c for c in pile)
    pool: list[list[int]] = [[] for _ in range(NUM_RANKS)]
    for c in cards_of(FULL & ~seen):
        pool[c >> 2].append(int(c))
    hidden = [_take(pool, r, op.count) for op, r in zip(
        (op for op in view.history if isinstance(op, Claimed) and op.cards is None), set_ranks, strict=True)]
    dealt = [0] * n
    for s in range(n):
        if s == me:
            dealt[s] = sum(1 << c for c in view.hand)
        else:
            dealt[s] = sum(_take(pool, r, hands[s][r]) for r in range(NUM_RANKS) if hands[s][r])
    i = 0
    for op in view.history:
        if isinstance(op, Capture):
            dealt[op.seat] |= sum(1 << c for c in op.play)
        elif isinstance(op, Claimed):
            if op.cards is None:
                dealt[op.seat] |= hidden[i]
                i += 1
            elif op.kind is not ClaimKind.SPOTTER:
                dealt[op.seat] |= sum(1 << c for c in op.cards)
        elif isinstance(op, LaidDown):
            dealt[op.seat] |= sum(1 << c for c in op.cards)
        elif isinstance(op, Trail):
            dealt[op.seat] |= 1 << op.card
    return dealt, hidden


def public_actions(view: PlayerView, hidden: list[int]) -> list[Action]:
    """The actions of the history, the unseen face-down sets as the cards ``hidden``."""
    out: list[Action] = []
    i = 0
    for op in view.history:
        if isinstance(op, (Capture, Trail)):
            out.append(op)
        elif isinstance(op, Claimed):
            if op.cards is None:
                out.append(Claim(op.seat, cards_of(hidden[i])))
                i += 1
            else:
                out.append(Claim(op.seat, op.cards))
        elif isinstance(op, LaidDown):
            out.append(LieDown(op.seat))
        else:
            assert isinstance(op, (TableMournival, DealEnded))
    return out


def pinned(view: PlayerView) -> list[tuple[int, int]]:
    """(seat, rank) for each other seat that must hold exactly one card of that rank now:
    it set two of a prial aside face up (the rank had four live cards then, so it held
    three) and has not put a card of the rank out of its hand since."""
    out: list[tuple[int, int]] = []
    gone = [0] * NUM_RANKS  # cards of each rank out of play so far
    for i, op in enumerate(view.history):
        if isinstance(op, TableMournival):
            gone[op.cards[0] >> 2] += 4
        elif isinstance(op, Capture):
            gone[op.play[0] >> 2] += len(op.play) + len(op.take)
        elif isinstance(op, Claimed):
            if op.cards is None:
                continue  # a face-down set: its rank is unknown here (never face up and pinned)
            rank = op.cards[0] >> 2
            if (op.kind is ClaimKind.HAND_SET and op.count == 2 and gone[rank] == 0
                    and op.seat != view.seat and not _played_later(view, i, op.seat, rank)):
                out.append((op.seat, rank))
            gone[rank] += op.count
    return out


def _played_later(view: PlayerView, index: int, seat: int, rank: int) -> bool:
    for op in view.history[index + 1:]:
        if isinstance(op, Capture) and op.seat == seat and op.play[0] >> 2 == rank:
            return True
        if isinstance(op, Claimed) and op.seat == seat and op.cards is not None and op.cards[0] >> 2 == rank \
                and op.kind is not ClaimKind.SPOTTER:
            return True
        if isinstance(op, LaidDown) and op.seat == seat and any(c >> 2 == rank for c in op.cards):
            return True
        if isinstance(op, Trail) and op.seat == seat and op.card >> 2 == rank:
            return True
    return False


def knowledge(view: PlayerView) -> tuple[Knowledge, list[tuple[int, int]]]:
    """What the view's seat knows (:func:`lald.bots.knowledge.read`) with the cards
    :func:`pinned` to a hand taken out, that hand barred from more of their rank: the
    sampler then draws exactly among the worlds that keep them."""
    k = read(view)
    pins = pinned(view)
    if not pins:
        return k, pins
    unknown, sizes, forbidden = list(k.unknown), list(k.sizes), list(k.forbidden)
    for seat, rank in pins:
        unknown[rank] -= 1
        sizes[seat] -= 1
        forbidden[seat] |= 1 << rank
    return dataclasses.replace(k, unknown=unknown, sizes=sizes, forbidden=forbidden), pins


def world_from_view(view: PlayerView, rng: random.Random, tries: int = 200) -> tuple[State, list[int]]:
    """A deal consistent with everything ``view`` shows, replayed up to now, and the
    history indices at which the view's seat passed a claim window (the engine's
    :class:`~lald.core.ClaimWindow` asked it, and it did not claim). Raises RuntimeError if
    no world drawn in ``tries`` replays cleanly."""
    k, pins = knowledge(view)
    rules, me = view.rules, view.seat
    table = dealt_table(view)
    for _ in range(tries):
        (hands, set_ranks), _exact = sample(k, rng)
        for seat, rank in pins:
            hands[seat][rank] += 1
        try:
            dealt, hidden = layout(view, hands, set_ranks)
        except ValueError:  # the sampler's inexact fill can ask for cards that are not there
            continue
        state = State.from_layout(rules, [cards_of(h) for h in dealt], cards_of(table), view.dealer)
        passes: list[int] = []
        window = ClaimWindow(state)
        try:
            for action in public_actions(view, hidden):
                # the window asks in claim order until the action: the claimant, or the turn
                claimant = action.seat if isinstance(action, Claim) else None
                while (ask := window.asking()) is not None and ask[0] != claimant:
                    if ask[0] == me:
                        passes.append(len(state.actions))
                    window.let_pass(ask[0])
                window.apply(action)
        except IllegalActionError:
            continue
        return state, passes
    raise RuntimeError(f"no world consistent with seat {me}'s view replayed in {tries} draws")
