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

from ..coach.lesson import Note
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
    Scoring,
    State,
    Status,
)
from ..core.cards import RANK_SYMBOLS
from ..core.codes import action_of, code_of
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


def level_label(level: str, catalog: Catalog) -> str:
    """A seat kind in words a player knows ("sampling search", not "pimc")."""
    key = f"level_{level}"
    return catalog.t(key) if catalog.has(key) else catalog.t("level_other", level=level)


def default_names(catalog: Catalog, players: int) -> list[str]:
    """The catalog's names for the seats."""
    names = [n.strip() for n in catalog.t("default_names").split(",")]
    return [names[s] if s < len(names) else catalog.t("seat_name", seat=s) for s in range(players)]


# -- choices --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Choice:
    """One line of the action menu: a label and the legal action it makes (None means "let
    the claims pass"); ``ways`` counts the legal actions that differ from it only in suits."""

    label: str
    action: Action | None
    confirm: bool = False
    """Whether the choice is asked again before it is made (lying down)."""
    ways: int = 1


def claim_kind(state: State, claim: Claim) -> ClaimKind:
    """What kind of claim ``claim`` would be, as the engine sees it."""
    op = state.clone().apply(claim)
    assert isinstance(op, Claimed)
    return op.kind


#: The project's rules document, every option and preset (the ``?`` help of both tables links it).
RULES_DOC = "docs/rules.md"

#: The rules for a first-time player, paragraph by paragraph (catalog keys).
HELP_KEYS = ("help_title", "help_goal", "help_deal", "help_capture", "help_claims",
             "help_lie_down", "help_end", "help_session", "help_options")


_CAPTURE_WORDS = frozenset({"single", "sweep", "pair", "prial"})
_CLAIM_WORDS = {"hand_set": "set", "dead": "dead", "spotter": "spot"}


def action_label(action: Action, state: State, catalog: Catalog) -> str:
    """One action in words, for the menu."""
    kind: CaptureKind | ClaimKind | None = None
    if isinstance(action, Capture):
        kind = action.kind or CaptureKind.SINGLE
    elif isinstance(action, Claim):
        kind = claim_kind(state, action)
    return move_words(action, None if kind is None else str(kind), state.hand(action.seat), catalog)


def move_words(action: Action, kind: str | None, hand: Iterable[Card], catalog: Catalog) -> str:
    """One action in words, given what kind of capture or claim the engine says it is
    (``single``, ``sweep``, ``pair``, ``prial``; ``hand_set``, ``dead``, ``spotter``: a web
    table's frame names them) and the hand of the seat (a lie-down shows it)."""
    t = catalog.t
    if isinstance(action, Capture):
        key = kind if kind in _CAPTURE_WORDS else "single"
        return t(f"act_{key}", play=glyphs(action.play), take=glyphs(action.take))
    if isinstance(action, Claim):
        if kind not in _CLAIM_WORDS:
            return t("act_claim_set", cards=glyphs(action.cards))
        return t(f"act_claim_{_CLAIM_WORDS[kind]}", cards=glyphs(action.cards))
    if isinstance(action, LieDown):
        held = list(hand)
        return t("act_lie_down_count", cards=glyphs(held), count=len(held))
    return t("act_trail", card=action.card.glyph)


def outcome_code(action: Action, state: State) -> int:
    """The engine's code for what ``action`` does in play: actions that differ only in
    suits share it (:func:`lald.core.codes.code_of`)."""
    return code_of(action, state.table_mask)


def canonical(actions: Sequence[Action], state: State) -> list[Action]:
    """One action per different outcome, in the order the engine lists them: the engine's
    own choice of cards (:func:`lald.core.codes.action_of`, the lowest suits) where it is
    among ``actions``, else the first one."""
    groups: dict[int, list[Action]] = {}
    for action in actions:
        groups.setdefault(outcome_code(action, state), []).append(action)
    out = []
    for code, group in groups.items():
        chosen = action_of(code, state.hands[group[0].seat], state.table_mask)
        out.append(chosen if chosen in group else group[0])
    return out


def choices(prompt: Prompt, state: State, catalog: Catalog) -> list[Choice]:
    """The menu for ``prompt``: one line per different outcome of the legal actions (suits
    never matter in play, so the engine's choice of cards stands), then "let it pass" for
    an out-of-turn claim."""
    ways: dict[int, int] = {}
    for action in prompt.actions:
        code = outcome_code(action, state)
        ways[code] = ways.get(code, 0) + 1
    out = [Choice(action_label(a, state, catalog), a, confirm=isinstance(a, LieDown),
                  ways=ways[outcome_code(a, state)])
           for a in canonical(prompt.actions, state)]
    if prompt.kind is PromptKind.CLAIM:
        out.append(Choice(catalog.t("act_pass"), None))
    return out


def lesson_menu(menu: Sequence[Choice], want: Action | None, state: State) -> tuple[list[Choice], int | None]:
    """The menu with the lesson's move ``want`` in the line of its outcome (its own cards,
    so the lesson's script holds), and that line's index (None when ``want`` is not in it)."""
    out, index = list(menu), None
    if want is None:
        return out, None
    code = outcome_code(want, state)
    for i, choice in enumerate(out):
        if choice.action is not None and outcome_code(choice.action, state) == code:
            out[i], index = dataclasses.replace(choice, action=want), i
    return out, index


def note_text(note: Note, state: State, names: Sequence[str], catalog: Catalog) -> str:
    """A note of the lesson (:class:`lald.coach.lesson.Note`) in words: the seat's name, its
    cards, and the move it asks for as the menu words it."""
    move = action_label(note.action, state, catalog) if note.action is not None else ""
    name = names[note.seat] if note.seat is not None else ""
    return catalog.t(note.key, name=name, cards=glyphs(note.cards), move=move)


def prompt_title(prompt: Prompt, names: Sequence[str], catalog: Catalog, state: State | None = None) -> str:
    """The line above the menu. A claim prompt offering only hand sets (``state`` tells)
    says "set aside", the word the menu uses, not "claim", which a learner meets later."""
    if prompt.kind is PromptKind.CLAIM:
        claims = [a for a in prompt.actions if isinstance(a, Claim)]
        if state is not None and claims and all(claim_kind(state, c) is ClaimKind.HAND_SET for c in claims):
            return catalog.t("prompt_set_aside", name=names[prompt.seat])
        return catalog.t("prompt_claim", name=names[prompt.seat])
    return catalog.t("prompt_turn", name=names[prompt.seat])


def answer_words(catalog: Catalog) -> tuple[frozenset[str], frozenset[str]]:
    """The words (and letters) that answer a yes/no question: yes, then no, in the
    catalog's language and in English (``y`` and ``n`` are the keys every table shows)."""
    def words(key: str) -> frozenset[str]:
        return frozenset(catalog.t(key).casefold().split()) | frozenset(Catalog("en").t(key).split())
    return words("yes_words"), words("no_words")


def levels_list(catalog: Catalog, levels: Sequence[str]) -> str:
    """The bot levels, easiest first, by the names the seat menus give them ("beginner",
    from "bot: beginner (plays at random)")."""
    def short(level: str) -> str:
        label = level_label(level, catalog)
        return label.partition(": ")[2].partition(" (")[0] or label
    return catalog.t("setup_levels_list", levels=", ".join(short(lv) for lv in levels))


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
    playing: bool = True
    """Still in play (holds cards, has not lain down)."""


def seat_rows(view: PlayerView, names: Sequence[str], catalog: Catalog) -> list[SeatRow]:
    """Every seat: marks (dealer, eldest), hand and won-pile sizes, status, balance."""
    rows = []
    for s in range(view.players):
        marks = []
        if s == view.dealer:
            marks.append(catalog.t("mark_dealer"))
        if s == view.eldest:
            marks.append(catalog.t("mark_eldest"))
        # the last with cards: out of cards too once the deal is over (the dealer took them)
        last = view.result is not None and s == view.result.survivor
        status = catalog.t("status_survivor") if last else status_word(view.statuses[s], catalog)
        rows.append(SeatRow(s, names[s], " ".join(marks), view.hand_sizes[s], view.won_sizes[s],
                            status, view.balances[s], s == view.to_move,
                            view.statuses[s] is Status.PLAYING and not last))
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
    parts = [catalog.t("deal_of", number=deal_number, deals=deals),
             catalog.t("dealer_line", name=names[view.dealer])]
    if view.to_move is not None:
        parts.append(catalog.t("to_move", name=names[view.to_move]))
    parts.append(catalog.t("pot_line", pot=view.pot))
    return "  ·  ".join(parts)


@dataclasses.dataclass(frozen=True, slots=True)
class Ledger:
    """The running ledger as a table: a header, one row per seat, and the pot's row. Each
    row is the name, one column per deal, then ``totals`` columns of totals (the balance;
    under card-count scoring, deals won and cards won)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    pot: tuple[str, ...] | None
    totals: int = 1

    @property
    def deals(self) -> int:
        """How many deal columns the ledger has."""
        return len(self.header) - 1 - self.totals

    def recent(self, count: int) -> Ledger:
        """The ledger with only the ``count`` most recent deals' columns (and the totals)."""
        keep = max(0, min(count, self.deals))

        def cut(row: tuple[str, ...]) -> tuple[str, ...]:
            return (row[0], *row[1 + self.deals - keep:])

        return Ledger(cut(self.header), tuple(cut(r) for r in self.rows),
                      cut(self.pot) if self.pot is not None else None, self.totals)


def ledger(game: Game, catalog: Catalog) -> Ledger:
    """What docs/rules.md#8-the-session keeps for the session: under chips, each deal's chips
    per seat (the deal in play with its antes so far) and the balance, the pot after each
    deal; under card-count scoring, each deal's won cards with its winners marked, then
    deals won and cards won."""
    session, names, t = game.session, game.names, catalog.t
    n = game.rules.players
    numbers = [str(i) for i in range(1, len(session.deals) + 1)]
    playing = session.current
    if game.rules.scoring is Scoring.CARD_COUNT:
        standings = {row.seat: row for row in session.standings()}
        rows = []
        for s in range(n):
            cells = [f"{r.won[s]}{'*' if s in r.winners else ''}" for r in session.results]
            if playing is not None:
                cells.append(str(len(playing.won_cards(s))))
            rows.append((names[s], *cells, str(standings[s].deals_won), str(standings[s].cards_won)))
        return Ledger((t("col_name"), *numbers, t("col_deals_won"), t("col_cards_won")),
                      tuple(rows), None, totals=2)
    rows = []
    for s in range(n):
        cells = [f"{r.chips[s]:+d}" for r in session.results]
        balance = session.balances[s]
        if playing is not None:
            cells.append(f"{playing.chips()[s]:+d}")
            balance += playing.chips()[s]
        rows.append((names[s], *cells, f"{balance:+d}"))
    pots = [str(r.pot_after) for r in session.results]
    if playing is not None:
        pots.append(str(playing.pot))
    return Ledger((t("col_name"), *numbers, t("col_balance")), tuple(rows),
                  (t("col_pot"), *pots, ""))


def ledger_lines(game: Game, catalog: Catalog) -> list[str]:
    """The ledger as lines of text (``--plain``), columns aligned."""
    table = ledger(game, catalog)
    body = [table.header, *table.rows] + ([table.pot] if table.pot else [])
    widths = [max(len(row[i]) for row in body) for i in range(len(table.header))]
    return ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in body]


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
