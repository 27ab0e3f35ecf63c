"""The adapters' text: the table as a spectator sees it (render), never a hidden card.

>>> from lald.core import Rules, State
>>> from lald.rl.deal import Deal
>>> print(render_text(Deal(State.deal(Rules.make(players=3), seed=4))).splitlines()[0])
survivor, 3 players; dealer seat 0; pot 7
"""

from __future__ import annotations

from ..core import (
    Capture,
    Claimed,
    DealEnded,
    LaidDown,
    Operation,
    Session,
    TableMournival,
    Trail,
    format_cards,
)
from .deal import Deal


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
