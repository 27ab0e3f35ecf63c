"""Build exact mid-deal positions for rule tests.

``position()`` starts from a legal deal and then places every card where the test says:
the named hands and table; every other card in a won pile (seat 0's unless ``won`` says
otherwise). It checks the position keeps RULES.md §3 (4, 2 or 0 live cards per rank).
"""

from __future__ import annotations

from collections.abc import Sequence

from lald.core import Rules, State, mask_of, parse_cards
from lald.core.cards import FULL_DECK


def position(
    rules: Rules,
    hands: Sequence[str],
    table: str,
    *,
    to_move: int = 1,
    dealer: int = 0,
    foreplay: bool = False,
    lain: Sequence[int] = (),
    won: dict[int, str] | None = None,
) -> State:
    """A state with exactly these hands (text), table and won piles, ``to_move`` to move."""
    state = State.deal(rules, seed=0, dealer=dealer)
    hand_masks = [mask_of(parse_cards(h)) for h in hands]
    table_mask = mask_of(parse_cards(table))
    won_masks = [0] * rules.players
    for seat, text in (won or {}).items():
        won_masks[seat] = mask_of(parse_cards(text))
    placed = table_mask
    for m in (*hand_masks, *won_masks):
        assert not placed & m, "a card is placed twice"
        placed |= m
    won_masks[0] |= FULL_DECK & ~placed
    live = table_mask
    for m in hand_masks:
        live |= m
    for r in range(13):
        assert ((live >> 4 * r) & 15).bit_count() in (0, 2, 4), f"rank {r} has an odd live count"
    state.hands = hand_masks
    state.table_mask = table_mask
    state.won = won_masks
    state.lain = [s in lain for s in range(rules.players)]
    state.holding = sum(1 for h in hand_masks if h)
    state.to_move = to_move
    state.foreplay = foreplay
    state.history = []
    state.last_actor = None if foreplay else (to_move - 1) % rules.players
    state._recount()
    return state
