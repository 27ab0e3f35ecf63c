"""The one encoding the three adapters share: action IDs, the observation, the legal mask.

Actions are rank-level (suits never matter in play): an ID names a kind and a rank, and
stands for the engine's canonical cards, the first action of that kind and rank in the
engine's own list of legal actions (the lowest suits).  There are 80 IDs:

==========  ===========================================  =================
IDs         kind                                         cards
==========  ===========================================  =================
0-12        ``single`` of rank A..K                      one takes one
13-25       ``sweep``                                    one takes three
26-38       ``pair`` on a pair                           two take two
39-51       ``prial`` on a single                        three take one
52-64       ``trail`` (modern laugh)                     one to the table
65-77       ``claim`` (hand set, dead rank or spotter)   the engine's claim
78          ``lie_down``
79          ``pass``: let the open claims go by (only in a claim window)
==========  ===========================================  =================

One seat may make at most one claim of a rank at a time (a spotter claim needs every live
card of the rank on the table, a claim from the hand needs some in the hand), so one claim
ID per rank is enough.

The observation is a float32 vector of :data:`OBS_SIZE` numbers holding exactly what
``state.view(seat)`` holds about the deal now, seats counted from the observer (0 is the
observer, 1 the seat to its left, ...; seats beyond the player count are zeros), so that
one policy can play every seat, every player count and every preset.  :data:`LAYOUT`
names its pieces.

>>> from lald.core import Rules, State
>>> state = State.deal(Rules.make(), seed=1)
>>> action = state.turn_actions()[0]
>>> str(action), ACTION_NAMES[action_id(action, state.table_mask)]
('1: 2S x 2H', 'single 2')
>>> obs = observe_view(state.view(1), deciding="turn")
>>> obs.shape, obs.dtype, int(obs[LAYOUT["hand"]].sum())
((451,), dtype('float32'), 8)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ...core import Action, Capture, Claimed, LaidDown, Operation, PlayerView, State, Status, Trail
from ...core.cards import NUM_CARDS, NUM_RANKS, RANK_SYMBOLS
from ...core.codes import HAND_CLAIM, LIE, PAIR, PRIAL, SHAPES, SINGLE, SWEEP, TABLE_CLAIM, TRAIL, code_of
from ...core.rules import DeadClaims, HandSetTiming, NoCapture, PrizeRule, Rounding, Rules, Scoring
from ...core.rules import SingleTakesThree as Sweep

MAX_PLAYERS = 5
#: Kinds in the order of their blocks of 13 IDs.
KINDS = ("single", "sweep", "pair", "prial", "trail", "claim")
LIE_DOWN = 6 * NUM_RANKS
PASS = LIE_DOWN + 1
NUM_ACTIONS = PASS + 1
#: The name of every ID: ``single 3``, ``claim K``, ``lie_down``, ``pass``.
ACTION_NAMES: tuple[str, ...] = tuple(
    f"{kind} {RANK_SYMBOLS[r].replace('T', '10')}" for kind in KINDS for r in range(NUM_RANKS)
) + ("lie_down", "pass")

# the engine's fast-path kinds -> the block of IDs
_BLOCK = {SINGLE: 0, SWEEP: 1, PAIR: 2, PRIAL: 3, TRAIL: 4, HAND_CLAIM: 5, TABLE_CLAIM: 5}

Deciding = Literal["turn", "claim", "none"]
Mask = npt.NDArray[np.int8]
Observation = npt.NDArray[np.float32]

#: Chips (pot, balances) are divided by this in the observation.
CHIP_SCALE = 100.0
#: The largest chip figure the observation holds exactly (it is clipped beyond).
CHIP_LIMIT = 100_000.0


def action_id(action: Action, table_mask: int) -> int:
    """The ID of an engine action; ``table_mask`` is the table before it (a claim of
    cards on the table is a spotter claim)."""
    code = code_of(action, table_mask)
    kind = code & 7
    if kind == LIE:
        return LIE_DOWN
    return _BLOCK[kind] * NUM_RANKS + (code >> 3 & 15)


def legal_ids(actions: list[Any], table_mask: int) -> dict[int, Action]:
    """Each ID of ``actions`` with its canonical action: the first of that ID in the
    engine's order."""
    out: dict[int, Action] = {}
    for a in actions:
        i = action_id(a, table_mask)
        if i not in out:
            out[i] = a
    return out


def as_action_id(action: Any) -> int:
    """An action ID as the adapters take it: a whole number from 0 to ``NUM_ACTIONS - 1``
    (Python's, numpy's, or a 0-d integer array, as a policy's ``argmax`` gives). Anything
    else (a bool, a float, a string, a list, a number out of range) is a ValueError."""
    if isinstance(action, np.ndarray) and action.ndim == 0 and np.issubdtype(action.dtype, np.integer):
        action = int(action)
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action!r} is not an action ID: "
                         f"give a whole number from 0 to {NUM_ACTIONS - 1}")
    return int(action)


def mask_of(ids: Any) -> Mask:
    """The int8 mask with a 1 at each of ``ids``."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[list(ids)] = 1
    return mask


# -- the observation --------------------------------------------------------------------

_PIECES: tuple[tuple[str, int], ...] = (
    ("hand", NUM_CARDS),
    ("table", NUM_CARDS),
    ("won_seen", MAX_PLAYERS * NUM_CARDS),
    ("hand_sizes", MAX_PLAYERS),
    ("won_sizes", MAX_PLAYERS),
    ("status", MAX_PLAYERS * 3),
    ("present", MAX_PLAYERS),
    ("dealer", MAX_PLAYERS),
    ("to_move", MAX_PLAYERS),
    ("last_capture", MAX_PLAYERS),
    ("claims_first", MAX_PLAYERS),
    ("seat", MAX_PLAYERS),
    ("flags", 4),
    ("pot", 1),
    ("balances", MAX_PLAYERS),
    ("rules", 22),
)
#: Each piece of the observation as a slice: ``obs[LAYOUT["table"]]``.
LAYOUT: dict[str, slice] = {}
_at = 0
for _name, _size in _PIECES:
    LAYOUT[_name] = slice(_at, _at + _size)
    _at += _size
OBS_SIZE = _at
_HAND, _TABLE, _WON = 0, NUM_CARDS, 2 * NUM_CARDS
_HS, _WS, _ST = (LAYOUT[k].start for k in ("hand_sizes", "won_sizes", "status"))
_PR, _DL, _TM, _LC, _CF, _SE = (LAYOUT[k].start for k in
                                ("present", "dealer", "to_move", "last_capture", "claims_first", "seat"))
_FL, _POT, _BAL, _RU = (LAYOUT[k].start for k in ("flags", "pot", "balances", "rules"))
_STATUS = {Status.PLAYING: 0, Status.LAIN_DOWN: 1, Status.EMPTY: 2}
_DECIDING = {"turn": 0, "claim": 1}


def observation_bounds(history: int = 0) -> tuple[Observation, Observation]:
    """The lowest and highest value of each number of the observation (with ``history``
    actions: see :func:`history_block`)."""
    low = np.zeros(observation_size(history), np.float32)
    high = np.ones(observation_size(history), np.float32)
    chips = np.r_[LAYOUT["pot"], LAYOUT["balances"]]
    low[chips] = -CHIP_LIMIT / CHIP_SCALE
    high[chips] = CHIP_LIMIT / CHIP_SCALE
    rules = LAYOUT["rules"].start
    for i in (2, 19, 20):  # prize and antes, in hundreds of chips (options allow up to 100)
        high[rules + i] = CHIP_LIMIT / CHIP_SCALE
    return low, high


def rules_features(rules: Rules) -> list[float]:
    """The options that change play, as 22 numbers (see ``docs/research.md``)."""
    r = rules
    return [
        float(r.prize_rule is PrizeRule.SURVIVOR), float(r.prize_rule is PrizeRule.LAST_CAPTURE),
        r.prize / CHIP_SCALE,
        float(r.single_takes_three is Sweep.CHOICE), float(r.single_takes_three is Sweep.FORCED),
        float(r.single_takes_three is Sweep.OFF),
        float(r.pair_on_pair), float(r.prial_on_single), float(r.hand_sets),
        float(r.hand_set_timing is HandSetTiming.FOREPLAY_OR_OWN_TURN), float(r.hand_sets_face_down),
        float(r.dead_claims is DeadClaims.ANY_TIME), float(r.dead_claims is DeadClaims.OWN_TURN),
        float(r.dead_claims is DeadClaims.OFF),
        float(r.spotter_claims), float(r.table_mournival_to_dealer), float(r.no_capture is NoCapture.TRAIL),
        float(r.rounding is Rounding.FLOOR), float(r.scoring is Scoring.CARD_COUNT),
        r.ante_dealer / CHIP_SCALE, r.ante_other / CHIP_SCALE, r.quota / 13.0,
    ]


_RULES_CACHE: dict[Rules, Observation] = {}


def _rules_block(rules: Rules) -> Observation:
    block = _RULES_CACHE.get(rules)
    if block is None:
        block = _RULES_CACHE[rules] = np.array(rules_features(rules), np.float32)
    return block


def _chips(x: int) -> float:
    return max(-CHIP_LIMIT, min(CHIP_LIMIT, x)) / CHIP_SCALE


def _bits(mask: int, out: Observation, at: int) -> None:
    while mask:
        low = mask & -mask
        out[at + low.bit_length() - 1] = 1.0
        mask ^= low


def observe_view(view: PlayerView, deciding: Deciding = "none", history: int = 0) -> Observation:
    """The observation of ``view`` (the reference encoder: :func:`observe` is the fast
    one and the tests hold them equal). ``deciding`` says whether the seat is choosing a
    turn action, answering a claim window, or neither now; ``history``, how many of the
    latest public actions follow (:func:`history_block`)."""
    if history:
        return np.concatenate([observe_view(view, deciding),
                               history_block(view.history, view.seat, view.players, history)])
    out = np.zeros(OBS_SIZE, np.float32)
    n, me = view.players, view.seat
    for c in view.hand:
        out[_HAND + c] = 1.0
    for c in view.table:
        out[_TABLE + c] = 1.0
    for k in range(n):
        s = (me + k) % n
        for c in view.won_seen[s]:
            out[_WON + k * NUM_CARDS + c] = 1.0
        out[_HS + k] = view.hand_sizes[s] / 13.0
        out[_WS + k] = view.won_sizes[s] / 52.0
        out[_ST + 3 * k + _STATUS[view.statuses[s]]] = 1.0
        out[_PR + k] = 1.0
        out[_BAL + k] = _chips(view.balances[s])
    out[_DL + (view.dealer - me) % n] = 1.0
    if view.to_move is not None:
        out[_TM + (view.to_move - me) % n] = 1.0
    if view.last_capture is not None:
        out[_LC + (view.last_capture - me) % n] = 1.0
    if not view.over:
        out[_CF + (view.claim_order[0] - me) % n] = 1.0
    out[_SE + me] = 1.0
    out[_FL] = float(view.foreplay)
    out[_FL + 1] = float(view.over)
    if deciding in _DECIDING:
        out[_FL + 2 + _DECIDING[deciding]] = 1.0
    out[_POT] = _chips(view.pot)
    out[_RU:] = _rules_block(view.rules)
    return out


_CARD_BITS = _WON + MAX_PLAYERS * NUM_CARDS  # the card planes come first
_CARD_BYTES = (_CARD_BITS + 7) // 8
_RULES_LIST: dict[Rules, list[float]] = {}


def without_private(obs: Observation, state: State, seat: int) -> Observation:
    """``obs``, ``seat``'s observation of ``state``, less what only ``seat`` knows: its
    hand, and the face-down sets in its own won pile (the others see only how many)."""
    obs[_HAND:_HAND + NUM_CARDS] = 0
    hidden = state.face_down[seat]
    while hidden:
        low = hidden & -hidden
        obs[_WON + low.bit_length() - 1] = 0
        hidden ^= low
    return obs


def observe(state: State, seat: int, deciding: Deciding = "none", history: int = 0) -> Observation:
    """The observation of ``seat``, read straight from the state (what
    ``observe_view(state.view(seat), deciding, history)`` gives, without building the
    view): the card planes are one integer unpacked at once, the rest a list of numbers."""
    if history:
        return np.concatenate([observe(state, seat, deciding),
                               history_block(state.history, seat, state.n, history)])
    n = state.n
    hands, won, face_down, lain = state.hands, state.won, state.face_down, state.lain
    balances = state.balances_before
    chips = state.chips()
    rules = _RULES_LIST.get(state.rules)
    if rules is None:
        rules = _RULES_LIST[state.rules] = rules_features(state.rules)
    tail = [0.0] * (OBS_SIZE - _CARD_BITS)
    t = -_CARD_BITS
    planes = hands[seat] | state.table_mask << NUM_CARDS
    for k in range(n):
        s = (seat + k) % n
        w = won[s]
        planes |= (w if s == seat else w & ~face_down[s]) << (_WON + k * NUM_CARDS)
        h = hands[s]
        tail[t + _HS + k] = h.bit_count() / 13.0
        tail[t + _WS + k] = w.bit_count() / 52.0
        tail[t + _ST + 3 * k + (1 if lain[s] else 0 if h else 2)] = 1.0
        tail[t + _PR + k] = 1.0
        b = balances[s] + chips[s]
        tail[t + _BAL + k] = b / CHIP_SCALE if -CHIP_LIMIT < b < CHIP_LIMIT else _chips(b)
    tail[t + _DL + (state.dealer - seat) % n] = 1.0
    if state.to_move is not None:
        tail[t + _TM + (state.to_move - seat) % n] = 1.0
    if state.last_capture is not None:
        tail[t + _LC + (state.last_capture - seat) % n] = 1.0
    if not state.over:
        first = state.eldest if state.last_actor is None else (state.last_actor + 1) % n
        tail[t + _CF + (first - seat) % n] = 1.0
    tail[t + _SE + seat] = 1.0
    tail[t + _FL] = float(state.foreplay)
    tail[t + _FL + 1] = float(state.over)
    if deciding in _DECIDING:
        tail[t + _FL + 2 + _DECIDING[deciding]] = 1.0
    tail[t + _POT] = _chips(state.pot)
    tail[t + _RU:] = rules
    out = np.empty(OBS_SIZE, np.float32)
    out[:_CARD_BITS] = np.unpackbits(np.frombuffer(planes.to_bytes(_CARD_BYTES, "little"), np.uint8),
                                     count=_CARD_BITS, bitorder="little")
    out[_CARD_BITS:] = tail
    return out


# -- the history: the public actions so far (an option) -----------------------------------

#: The numbers of one action in the observation's history block: the seat that made it (5,
#: counted from the observer, one-hot), the kind of its ID (7, one-hot: single, sweep, pair,
#: prial, trail, claim, lie_down), its rank (13, one-hot; none for lying down, and none for
#: another seat's face-down set, whose rank nobody else sees) and whether its cards went
#: face down (1).
HISTORY_SLOT = 5 + 7 + NUM_RANKS + 1
#: The most actions a deal can hold: each one but a spotter claim takes a card from a hand,
#: and a rank is spotted at most once.  ``history=MAX_HISTORY`` shows a whole deal.
MAX_HISTORY = NUM_CARDS + NUM_RANKS
_KIND_OF = {SINGLE: 0, SWEEP: 1, PAIR: 2, PRIAL: 3}


def observation_size(history: int = 0) -> int:
    """The length of an observation with ``history`` actions (0: :data:`OBS_SIZE`)."""
    return OBS_SIZE + HISTORY_SLOT * history


def check_history(history: object) -> int:
    """``history`` as the adapters take it: a whole number of actions from 0 (none, the
    default) to :data:`MAX_HISTORY`; anything else is a ValueError."""
    if isinstance(history, bool) or not isinstance(history, int) or not 0 <= history <= MAX_HISTORY:
        raise ValueError(f"history={history!r}: give how many of the latest actions the observation shows, "
                         f"a whole number from 0 (none) to {MAX_HISTORY} (a whole deal)")
    return history


def public_actions(history: Sequence[Operation], seat: int) -> list[tuple[int, int, int, bool]]:
    """The actions of ``history`` (a state's or a view's operations) as ``seat`` sees them,
    oldest first: (the seat that acted, the kind block of its ID, 0-5, or 6 for lying down,
    its rank or -1 where ``seat`` does not see it, whether its cards went face down)."""
    out: list[tuple[int, int, int, bool]] = []
    for op in history:
        if isinstance(op, Capture):
            kind = _KIND_OF[SHAPES.index((len(op.play), len(op.take)))]
            out.append((op.seat, kind, int(op.play[0]) >> 2, False))
        elif isinstance(op, Trail):
            out.append((op.seat, 4, int(op.card) >> 2, False))
        elif isinstance(op, LaidDown):
            out.append((op.seat, 6, -1, False))
        elif isinstance(op, Claimed):
            seen = op.cards is not None and (not op.face_down or op.seat == seat)
            out.append((op.seat, 5, int(op.cards[0]) >> 2 if seen and op.cards else -1, op.face_down))
    return out


def history_block(history: Sequence[Operation], seat: int, n: int, slots: int) -> Observation:
    """The observation's history: the latest ``slots`` public actions of ``history`` (see
    :data:`HISTORY_SLOT`), the newest first, zeros where the deal has fewer."""
    out = np.zeros(HISTORY_SLOT * slots, np.float32)
    actions = public_actions(history, seat)
    for j, (actor, kind, rank, down) in enumerate(reversed(actions[-slots:] if slots else [])):
        at = HISTORY_SLOT * j
        out[at + (actor - seat) % n] = 1.0
        out[at + 5 + kind] = 1.0
        if rank >= 0:
            out[at + 12 + rank] = 1.0
        out[at + HISTORY_SLOT - 1] = float(down)
    return out
