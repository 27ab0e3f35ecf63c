"""What the table shows, as data and words, for both the full-screen table and ``--plain``.

Everything here reads engine views and the catalog; nothing decides a rule.

>>> from lald.core import parse_cards
>>> [" ".join(c.glyph for c in g) for g in rank_groups(parse_cards("QS 3H QH 3D QC 7S"))]
['3♥ 3♦', '7♠', 'Q♠ Q♥ Q♣']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from itertools import groupby

from ..core import (
    Action,
    Capture,
    CaptureKind,
    Card,
    Claim,
    Claimed,
    ClaimKind,
    LaidDown,
    LieDown,
    PlayerView,
    Rules,
    State,
    Status,
    Trail,
)
from ..core.cards import RANK_SYMBOLS
from ..i18n import Catalog
from ..narrate import describe, glyphs, join_names
from .game import Game, Prompt, PromptKind


def rank_symbol(rank: int) -> str:
    """``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``."""
    r = RANK_SYMBOLS[rank]
    return "10" if r == "T" else r


def rank_groups(cards: Iterable[Card]) -> list[tuple[Card, ...]]:
    """Cards sorted by rank (then suit), one group per rank."""
    return [tuple(g) for _, g in groupby(sorted(cards), key=lambda c: c.rank)]


def groups_text(cards: Iterable[Card], sep: str = "   ") -> str:
    """Cards grouped by rank in one line of text."""
    return sep.join(glyphs(g) for g in rank_groups(cards))


def default_names(catalog: Catalog, players: int) -> list[str]:
    """The catalog's names for the seats."""
    names = [n.strip() for n in catalog.t("default_names").split(",")]
    return [names[s] if s < len(names) else catalog.t("seat_name", seat=s) for s in range(players)]


# -- choices --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Choice:
    """One line of the action menu: a label and the legal actions it stands for (more than
    one when the player still has to say which cards); no actions means "let pass"."""

    label: str
    actions: tuple[Action, ...]
    confirm: bool = False
    """Whether the choice is asked again before it is made (lying down)."""


def claim_kind(state: State, claim: Claim) -> ClaimKind:
    """What kind of claim ``claim`` would be, as the engine sees it."""
    op = state.clone().apply(claim)
    assert isinstance(op, Claimed)
    return op.kind


_CAPTURE_KEYS = {CaptureKind.SINGLE: "single", CaptureKind.SWEEP: "sweep",
                 CaptureKind.PAIR: "pair", CaptureKind.PRIAL: "prial"}
_CLAIM_KEYS = {ClaimKind.HAND_SET: "set", ClaimKind.DEAD: "dead", ClaimKind.SPOTTER: "spot"}


def action_label(action: Action, state: State, catalog: Catalog) -> str:
    """One action in words, for the menu."""
    t = catalog.t
    if isinstance(action, Capture):
        kind = action.kind or CaptureKind.SINGLE
        return t(f"act_{_CAPTURE_KEYS[kind]}", play=glyphs(action.play), take=glyphs(action.take))
    if isinstance(action, Claim):
        return t(f"act_claim_{_CLAIM_KEYS[claim_kind(state, action)]}", cards=glyphs(action.cards))
    if isinstance(action, LieDown):
        return t("act_lie_down", cards=glyphs(state.hand(action.seat)))
    return t("act_trail", card=action.card.glyph)


def _group_key(action: Action, state: State) -> tuple[str, int, str]:
    if isinstance(action, Capture):
        return ("capture", action.take[0].rank, str(action.kind))
    if isinstance(action, Claim):
        return ("claim", action.cards[0].rank, str(claim_kind(state, action)))
    if isinstance(action, Trail):
        return ("trail", action.card.rank, "")
    return ("lie_down", 0, "")


def _group_label(key: tuple[str, int, str], count: int, catalog: Catalog) -> str:
    what, rank, kind = key
    r = rank_symbol(rank)
    if what == "capture":
        return catalog.t(f"grp_{_CAPTURE_KEYS[CaptureKind(kind)]}", rank=r, count=count)
    if what == "claim":
        return catalog.t(f"grp_claim_{_CLAIM_KEYS[ClaimKind(kind)]}", rank=r, count=count)
    return catalog.t("grp_trail", rank=r, count=count)


def choices(prompt: Prompt, state: State, catalog: Catalog) -> list[Choice]:
    """The menu for ``prompt``: legal actions grouped by what they do; a group whose
    actions differ only in their cards asks which cards afterwards."""
    groups: dict[tuple[str, int, str], list[Action]] = {}
    for action in prompt.actions:
        groups.setdefault(_group_key(action, state), []).append(action)
    out = []
    for key, actions in groups.items():
        if len(actions) == 1:
            label = action_label(actions[0], state, catalog)
        else:
            label = _group_label(key, len(actions), catalog)
        out.append(Choice(label, tuple(actions), confirm=key[0] == "lie_down"))
    if prompt.kind is PromptKind.CLAIM:
        out.append(Choice(catalog.t("act_pass"), ()))
    return out


def prompt_title(prompt: Prompt, names: Sequence[str], catalog: Catalog) -> str:
    """The line above the menu."""
    if prompt.kind is PromptKind.CLAIM:
        return catalog.t("prompt_claim", name=names[prompt.seat])
    return catalog.t("prompt_turn", name=names[prompt.seat])


# -- the table in words ----------------------------------------------------------------


def status_word(status: Status, catalog: Catalog) -> str:
    """Playing, lain down, out of cards."""
    return catalog.t(f"status_{status.value}")


@dataclasses.dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat as the table shows it."""

    seat: int
    name: str
    marks: str
    hand: int
    won: int
    status: str
    balance: int
    to_move: bool


def seat_rows(view: PlayerView, names: Sequence[str], catalog: Catalog) -> list[SeatRow]:
    """Every seat: marks (dealer, eldest), hand and won-pile sizes, status, balance."""
    rows = []
    for s in range(view.players):
        marks = []
        if s == view.dealer:
            marks.append(catalog.t("mark_dealer"))
        if s == view.eldest:
            marks.append(catalog.t("mark_eldest"))
        rows.append(SeatRow(s, names[s], " ".join(marks), view.hand_sizes[s], view.won_sizes[s],
                            status_word(view.statuses[s], catalog), view.balances[s],
                            s == view.to_move))
    return rows


def log_lines(view: PlayerView, names: Sequence[str], catalog: Catalog, deal_number: int) -> list[str]:
    """The deal so far in words, as ``view``'s seat may know it."""
    rules: Rules = view.rules
    lines = [catalog.t("deal_header", number=deal_number, dealer=names[view.dealer],
                       eldest=names[view.eldest])]
    for op in view.history:
        lines.append(describe(op, names, catalog))
        if isinstance(op, LaidDown) and rules.laugh:
            lines.append(catalog.t("laugh"))
    return lines


def cut_lines(game: Game, catalog: Catalog) -> list[str]:
    """How the first dealer was found."""
    names = game.names
    lines = [catalog.t("cut_draw", name=names[seat], card=card.glyph)
             for draws in game.session.cut for seat, card in draws]
    if game.session.cut:
        lines.append(catalog.t("cut_dealer", name=names[game.session.first_dealer]))
    return lines


def turn_line(view: PlayerView, names: Sequence[str], catalog: Catalog, deal_number: int,
              deals: int) -> str:
    """Deal, pot and whose turn, in one line."""
    parts = [catalog.t("deal_of", number=deal_number, deals=deals)]
    if view.to_move is not None:
        parts.append(catalog.t("to_move", name=names[view.to_move]))
    parts.append(catalog.t("pot_line", pot=view.pot))
    return "  ·  ".join(parts)


def ledger_lines(game: Game, catalog: Catalog) -> list[str]:
    """The running ledger: each deal's chips per seat, the balances and the pot."""
    session, names = game.session, game.names
    lines = []
    for i, result in enumerate(session.results, start=1):
        cells = ", ".join(f"{names[s]} {c:+d}" for s, c in enumerate(result.chips))
        lines.append(catalog.t("ledger_deal", number=i, cells=cells, pot=result.pot_after))
    for row in session.standings():
        lines.append(catalog.t("ledger_row", name=names[row.seat], balance=row.balance,
                               deals_won=row.deals_won, cards=row.cards_won))
    lines.append(catalog.t("ledger_pot", pot=session.pot))
    return lines


def outcome_lines(game: Game, catalog: Catalog) -> list[str]:
    """The session winner, or the tie-break deals the rules call for."""
    session, names = game.session, game.names
    if session.over:
        who = [names[s] for s in session.winners]
        key = "session_winner" if len(who) == 1 else "session_shared"
        return [catalog.t(key, names=join_names(who, catalog))]
    if game.tie_leaders:
        return [catalog.t("tie_extra_deals",
                          names=join_names([names[s] for s in game.tie_leaders], catalog))]
    return []


def options_lines(rules: Rules, catalog: Catalog) -> list[str]:
    """The active options, each with what it means."""
    lines = [catalog.t("help_preset", preset=catalog.t(f"preset_{rules.preset.replace('-', '_')}"),
                       players=rules.players)]
    if rules.variants:
        lines.append(catalog.t("help_variants", variants=", ".join(
            catalog.t(f"variant_{v.replace('-', '_')}") for v in rules.variants)))
    for name, value in rules.describe():
        lines.append(catalog.t("help_option", option=catalog.t(f"opt_{name}"),
                               value=catalog.t(f"val_{value}") if not value.isdigit() else value))
    return lines
