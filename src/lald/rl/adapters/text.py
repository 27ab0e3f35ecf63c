"""The adapters' text and picture: the table as a spectator sees it (render), never a
hidden card.

>>> from lald.core import Rules, State
>>> from lald.rl.deal import Deal
>>> print(render_text(Deal(State.deal(Rules.make(players=3), seed=4))).splitlines()[0])
survivor, 3 players; dealer seat 0; pot 7
"""

from __future__ import annotations

from typing import Any

from ...core import (
    Capture,
    Claimed,
    DealEnded,
    LaidDown,
    Operation,
    Session,
    Status,
    TableMournival,
    Trail,
    format_cards,
)
from ..deal import Deal


def op_text(op: Operation) -> str:
    """One line for an operation of the public history."""
    if isinstance(op, (Capture, Trail)):
        return f"seat {op}"
    if isinstance(op, Claimed):
        what = format_cards(op.cards) if op.cards is not None else f"{op.count} cards face down"
        return f"seat {op.seat}: claims {what} ({op.kind.value})"
    if isinstance(op, LaidDown):
        return f"seat {op.seat}: lies down with {format_cards(op.cards)}"
    if isinstance(op, TableMournival):
        return f"table mournival {format_cards(op.cards)} to the dealer, seat {op.dealer}"
    assert isinstance(op, DealEnded)
    return f"the deal ends: seat {op.survivor} survives; the residue goes to seat {op.dealer}"


def render_text(deal: Deal, session: Session | None = None) -> str:
    """The spectator's view of the deal, the last operation and who decides now."""
    view = deal.state.view(None)
    rules = view.rules
    head = f"{rules.preset}, {rules.players} players"
    if rules.variants:
        head += f" ({', '.join(rules.variants)})"
    if session is not None:
        head += f"; deal {session.deal_number} of {len(session.schedule)}"
    lines = [f"{head}; dealer seat {view.dealer}; pot {view.pot}"]
    for s in range(rules.players):
        lines.append(f"  seat {s}: {view.statuses[s].value:9} hand {view.hand_sizes[s]:2}  "
                     f"won {view.won_sizes[s]:2}  balance {view.balances[s]:+d}")
    lines.append(f"  table: {format_cards(view.table) or '(empty)'}")
    if view.history:
        lines.append(f"  last: {op_text(view.history[-1])}")
    if deal.seat is None:
        assert view.result is not None
        lines.append(f"  over: chips {' '.join(f'{c:+d}' for c in view.result.chips)}")
    elif view.to_move is not None:
        # Only the seat to move: which seat a claim window polls, and its choices, would
        # tell what it holds (seen before: "seat 3 answers the claim window: claim 7, pass").
        lines.append(f"  to move: seat {view.to_move}")
    return "\n".join(lines)


#: The picture's cells: a card 10 x 14 pixels and 2 between, 16 pixels a row.
_CELL_W, _CELL_H, _GAP = 10, 14, 2
_ROW_H, _COL_W = _CELL_H + _GAP, _CELL_W + _GAP
#: Its size (height, width): 4 rows of the table and 5 of seats, a marker, 13 cells of hand
#: and 26 half cells of won pile in a row; the same for every rules set.
RGB_SHAPE = (10 * _ROW_H + _GAP, 29 * _COL_W + _GAP, 3)
_FELT, _EMPTY, _RED, _BLACK, _BACK = (20, 90, 45), (35, 60, 40), (200, 30, 40), (30, 30, 30), (235, 235, 225)
_WON, _OUT, _MOVER, _DEALER = (190, 160, 60), (110, 110, 110), (250, 210, 40), (70, 130, 220)


def render_rgb(deal: Deal, session: Session | None = None) -> Any:
    """The spectator's view as a picture (``render_mode="rgb_array"``): an ``RGB_SHAPE``
    uint8 array.  The top four rows are the table's face-up cards (a row per suit, S H D C,
    a column per rank, red or black where the card lies); then a row per seat: its marks
    (yellow: to move, blue: dealer), its hand size in card backs (grey once out of play)
    and its won pile in half-width gold cells.  Sizes and faces up only, as ``render_text``."""
    import numpy as np

    view = deal.state.view(None)
    img = np.empty(RGB_SHAPE, np.uint8)
    img[:] = _FELT

    def cell(row: int, col: int, colour: tuple[int, int, int], width: int = _CELL_W) -> None:
        y, x = _GAP + row * _ROW_H, _GAP + col * _COL_W
        img[y:y + _CELL_H, x:x + width] = colour

    table = set(view.table)
    for card in range(52):
        rank, suit = divmod(card, 4)
        cell(suit, rank + 2, (_RED if suit in (1, 2) else _BLACK) if card in table else _EMPTY)
    for s in range(view.rules.players):
        row = 4 + s + 1
        if view.to_move == s:
            cell(row, 0, _MOVER)
        if view.dealer == s:
            cell(row, 1, _DEALER)
        back = _BACK if view.statuses[s] is Status.PLAYING else _OUT
        for k in range(min(view.hand_sizes[s], 13)):
            cell(row, 2 + k, back)
        for k in range(min((view.won_sizes[s] + 1) // 2, 26)):
            y, x = _GAP + row * _ROW_H, _GAP + 15 * _COL_W + k * (_COL_W // 2)
            img[y:y + _CELL_H, x:x + _COL_W // 2 - 1] = _WON
    return img
