"""Why the best choice of a decision beat the move made (:func:`reason`), in the seat's
knowledge at that moment: a catalog key and its values (:class:`Reason`), which
:func:`lald.coach.words.reason_text` words in any catalog language. A part of the review
(:mod:`lald.coach.review`)."""

from __future__ import annotations

import dataclasses
import random

from ..bots.expert import PASS, ExpertBot
from ..bots.knowledge import Knowledge, fill
from ..bots.sampler import sample
from ..core import NoCapture, PrizeRule, Scoring
from ..core.cards import RANK_SYMBOLS
from ..core.codes import HAND_CLAIM, LIE, SHAPES, SINGLE, TABLE_CLAIM, code_kind, code_rank
from ..core.fast import FastState


@dataclasses.dataclass(frozen=True, slots=True)
class Reason:
    """Why the best choice beat the move made: a catalog key and its values.

    ``args`` holds plain values: ``seat`` a seat number, ``rank`` a rank as the catalogs
    write it (``7``, ``10``, ``Q``), ``percent``/``best``/``made`` whole percentages or
    card counts.  :func:`lald.coach.words.reason_text` words
    it, with the move made and the best move, in any catalog language."""

    key: str
    args: tuple[tuple[str, int | float | str | tuple[str, ...]], ...] = ()

    def get(self, name: str) -> int | float | str | tuple[str, ...]:
        """The value named ``name``."""
        return dict(self.args)[name]



@dataclasses.dataclass(slots=True)
class _Tally:
    """What followed one choice over the reason's worlds."""

    deny: int = 0
    """Worlds where the next seat to move could not capture right after it."""
    prize: int = 0
    lain: int = 0
    won: float = 0.0


def reason(k: Knowledge, made: int, best: int, bot: ExpertBot, rng: random.Random, worlds: int) -> Reason:
    """Why ``best`` (a move code, or :data:`~lald.bots.expert.PASS`) beat ``made``, in
    the seat's knowledge ``k``: the first of these that holds.

    1. Claims: the claim made emptied the hand; a dead rank kept while the seat had to lie
       down; a pair on the table left for anyone to spot.
    2. ``deny``: the best move leaves the next seat without a capture in at least half
       of the worlds more than the move made.
    3. The move made spent a capture nobody else could take while the best move was
       another capture, or took one of three (two left for any seat to spot).
    4. After the move made the seat had to lie down at least a quarter of the worlds more.
    5. The larger gain of the prize (more often the survivor, or the last capture) or of
       cards won by the end, in chips.
    6. More cards now; else the expert's play-outs simply rate it higher.

    Worlds are drawn uniformly among those consistent with ``k`` (:func:`sample`), and
    each choice is played on by the expert's roll-out policy."""
    view, seat, rules = k.view, k.seat, k.view.rules
    mk, mr = code_kind(made), code_rank(made)
    bk, br = code_kind(best), code_rank(best)
    if made != PASS and mk == HAND_CLAIM and _claim_size(k, mr) == k.sizes[seat]:
        return Reason("review_why_emptied")
    if made == PASS and best != PASS and bk == HAND_CLAIM and view.to_move == seat \
            and rules.no_capture is NoCapture.LIE_DOWN and _must_lie(k):
        return Reason("review_why_lay_first")
    if made == PASS and best != PASS and bk == TABLE_CLAIM:
        return Reason("review_why_spot")

    made_t, best_t = _Tally(), _Tally()
    nexts: list[int] = []
    for _ in range(worlds):
        (hands, _), _ = sample(k, rng)
        world = k.world(hands)
        for code, tally in ((made, made_t), (best, best_t)):
            nxt = _follow(world, code, seat, bot, tally)
            if code == best and nxt is not None:
                nexts.append(nxt)
    share = 1.0 / worlds
    deny = (best_t.deny - made_t.deny) * share
    if deny >= 0.5 and nexts:
        percent = round(100 * best_t.deny * share)
        seat_next = max(set(nexts), key=nexts.count)
        if percent >= 95:
            return Reason("review_why_deny", (("seat", seat_next),))
        return Reason("review_why_deny_likely", (("seat", seat_next), ("percent", percent)))
    if made != PASS and mk < LIE and k.unknown[mr] == 0 and best != PASS and bk < LIE and k.unknown[br] > 0:
        return Reason("review_why_safe", (("rank", rank_symbol(mr)),))
    if made != PASS and mk == SINGLE and k.table[mr] == 3 and rules.spotter_claims:
        return Reason("review_why_gift", (("rank", rank_symbol(mr)),))
    lain = (made_t.lain - best_t.lain) * share
    if lain >= 0.25 and rules.no_capture is NoCapture.LIE_DOWN:
        return Reason("review_why_lie", (("made", round(100 * made_t.lain * share)),
                                         ("best", round(100 * best_t.lain * share))))
    chips = rules.scoring is Scoring.CHIPS
    prize_gain = rules.prize * (best_t.prize - made_t.prize) * share if chips else 0.0
    cards_gain = (best_t.won - made_t.won) * share / 2
    if max(prize_gain, cards_gain) >= 0.1:
        if prize_gain >= cards_gain:
            key = "review_why_survive" if rules.prize_rule is PrizeRule.SURVIVOR else "review_why_last"
            return Reason(key, (("best", round(100 * best_t.prize * share)),
                                ("made", round(100 * made_t.prize * share))))
        return Reason("review_why_cards", (("best", round(best_t.won * share, 1)),
                                           ("made", round(made_t.won * share, 1))))
    now_made, now_best = _cards_now(k, made), _cards_now(k, best)
    if now_best > now_made:
        return Reason("review_why_now", (("best", now_best), ("made", now_made)))
    return Reason("review_why_other")


def rank_symbol(rank: int) -> str:
    """``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``: how the catalogs write a rank."""
    r = RANK_SYMBOLS[rank]
    return "10" if r == "T" else r


def _follow(world: FastState, code: int, seat: int, bot: ExpertBot, tally: _Tally) -> int | None:
    """Play ``code`` in a copy of ``world`` and on to the end, counting in ``tally``;
    the seat to move right after it, if another."""
    fs = world.copy()
    if code == PASS:
        fs.apply(bot.player.turn(fs, fs.turn_codes()))
    else:
        fs.apply(code)
    nxt = None
    if not fs.over and fs.to_move != seat:
        nxt = fs.to_move
        if code_kind(fs.turn_codes()[0]) >= LIE:
            tally.deny += 1
    bot.player.play(fs)
    tally.prize += fs.prize_to() == seat
    tally.lain += fs.lain[seat]
    tally.won += fs.won[seat]
    return nxt


def _claim_size(k: Knowledge, rank: int) -> int:
    held = k.hand[rank]
    return 2 if held == 3 else held


def _must_lie(k: Knowledge) -> bool:
    """Whether the seat, to move, has no capture."""
    fs = k.world(fill(k))
    return code_kind(fs.turn_codes()[0]) >= LIE


def _cards_now(k: Knowledge, code: int) -> int:
    """Cards a choice puts into the seat's won pile at once."""
    if code == PASS:
        return 0
    kind, rank = code_kind(code), code_rank(code)
    if kind < LIE:
        return sum(SHAPES[kind])
    if kind == HAND_CLAIM:
        return _claim_size(k, rank)
    if kind == TABLE_CLAIM:
        return k.table[rank]
    return 0
