"""The game told in words: each operation of a deal's history as a sentence.

>>> from lald.core import Rules, State
>>> s = State.deal(Rules.make(), seed=1)
>>> op = s.apply(s.turn_actions()[0])
>>> describe(op, default_names(5))
'Seat 1 plays 2♠ and takes 2♥.'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .core import (
    Capture,
    CaptureKind,
    Card,
    Claimed,
    ClaimKind,
    DealEnded,
    DealResult,
    LaidDown,
    Operation,
    Rules,
    TableMournival,
    Trail,
)
from .core.rules import PotRule, Scoring
from .i18n import Catalog

_EN = Catalog("en")


def glyphs(cards: Iterable[Card]) -> str:
    """Cards for people: ``Q♠ 10♥``."""
    return " ".join(c.glyph for c in cards)


def default_names(players: int, catalog: Catalog = _EN) -> list[str]:
    """``Seat 0`` .. ``Seat n-1`` in the catalog's language."""
    return [catalog.t("seat_name", seat=s) for s in range(players)]


def describe(op: Operation, names: Sequence[str], catalog: Catalog = _EN) -> str:
    """One sentence for one operation of the (possibly censored) history."""
    t = catalog.t
    if isinstance(op, Capture):
        key = "plays_sweeps" if op.kind is CaptureKind.SWEEP else "plays_takes"
        return t(key, name=names[op.seat], play=glyphs(op.play), take=glyphs(op.take))
    if isinstance(op, Claimed):
        if op.cards is None:
            return t("sets_aside_hidden", name=names[op.seat], count=op.count)
        key = {ClaimKind.HAND_SET: "sets_aside", ClaimKind.DEAD: "lays_dead",
               ClaimKind.SPOTTER: "spots"}[op.kind]
        return t(key, name=names[op.seat], cards=glyphs(op.cards))
    if isinstance(op, LaidDown):
        if not op.cards:
            return t("lies_down_empty", name=names[op.seat])
        return t("lies_down", name=names[op.seat], cards=glyphs(op.cards))
    if isinstance(op, Trail):
        return t("trails", name=names[op.seat], card=op.card.glyph)
    if isinstance(op, TableMournival):
        return t("table_mournival", name=names[op.dealer], cards=glyphs(op.cards))
    if isinstance(op, DealEnded):
        cards = op.hand + op.table
        if not cards:
            return t("deal_ended_nothing", name=names[op.survivor], dealer=names[op.dealer])
        return t("deal_ended", name=names[op.survivor], cards=glyphs(cards),
                 dealer=names[op.dealer])
    raise TypeError(f"not an operation: {op!r}")


def join_names(names: Sequence[str], catalog: Catalog = _EN) -> str:
    """``Anne``, ``Anne and Ben``, ``Anne, Ben and Cis``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" {catalog.t('and')} " + names[-1]


def explain_settlement(
    rules: Rules,
    result: DealResult,
    dealer: int,
    names: Sequence[str],
    balances: Sequence[int],
    catalog: Catalog = _EN,
) -> list[str]:
    """The settlement line by line: the stakes, each seat's pairs against the quota, who
    pays into the pot, who wins the prize and why, who is paid from the pot, each seat's
    chips and balance, the pot. ``balances`` are after the deal.

    One word, one meaning: the *pot* is the chips in the middle, the *prize* is what the
    last with cards (or the last capture, or whoever took the last card) wins from it, a
    seat is *paid* from the pot for pairs above the quota and *pays* into it for pairs
    below, its *balance* is its chips over the session.
    """
    t = catalog.t
    n = rules.players
    lines = []
    if rules.scoring is Scoring.CARD_COUNT:
        key = "card_count_winner" if len(result.winners) == 1 else "card_count_shared"
        lines.append(t(key, names=join_names([names[s] for s in result.winners], catalog),
                       count=result.won[result.winners[0]]))
        return lines
    assert result.pairs is not None

    def chips(count: int) -> str:
        return t("n_chips", count=count, amount=count)

    lines.append(t("settle_antes", dealer=names[dealer], dealer_chips=chips(rules.ante_dealer),
                   other_chips=chips(rules.ante_other)))
    for s in range(n):
        lines.append(t("settle_won", name=names[s], cards=t("n_cards", count=result.won[s]),
                       pairs=t("n_pairs", count=result.pairs[s]), quota=rules.quota))
    pays = [t("settle_pays", name=names[s], count=-result.pairs[s]) for s in range(n) if result.pairs[s] < 0]
    if result.prize_to is None:
        prize = t("settle_prize_none", count=rules.prize)
    else:
        prize = t(f"settle_prize_{rules.prize_rule.value}", name=names[result.prize_to],
                  count=result.prize_paid)
    # in the order the pot is paid (docs/rules.md#7-settlement): a real pot pays the prize first
    lines += [prize, *pays] if rules.pot_rule is PotRule.REAL else [*pays, prize]
    for s in range(n):
        if result.pairs[s] > 0 and result.taken[s] < result.pairs[s]:  # a real pot ran short
            lines.append(t("settle_takes_short", name=names[s], pairs=t("n_pairs", count=result.pairs[s]),
                           count=result.taken[s]))
        elif result.pairs[s] > 0:
            lines.append(t("settle_takes", name=names[s], count=result.pairs[s]))
    for s in range(n):
        lines.append(t("settle_chips", name=names[s], chips=result.chips[s], balance=balances[s]))
    # (the table showed the pot with this deal's stakes all deal long: said too, so the
    # pot's going "from 0 to 0" does not read as the stakes lost)
    lines.append(t("settle_pot", before=result.pot_before, staked=result.pot_before + sum(result.antes),
                   after=result.pot_after))
    return lines
