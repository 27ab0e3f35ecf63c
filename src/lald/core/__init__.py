"""The rules engine of Laugh and Lie Down: standard library only, no I/O, no global random.

>>> from lald.core import Rules, State
>>> state = State.deal(Rules.make("survivor"), seed=7)
>>> action = state.legal_actions(state.eldest)[0]
>>> _ = state.apply(action)
>>> state.view(0).hand == state.hand(0)
True
"""

from .actions import (
    Action,
    ActionSyntaxError,
    Capture,
    CaptureKind,
    Claim,
    Claimed,
    ClaimKind,
    DealEnded,
    LaidDown,
    LieDown,
    Operation,
    Status,
    TableMournival,
    Trail,
    action_from_json,
    parse_action,
)
from .cards import CARDS, Card, CardError, cards_of, format_cards, mask_of, parse_cards
from .engine.session import Session, Standing, cut_for_dealer
from .engine.state import IllegalActionError, LayoutError, State
from .engine.view import PlayerView, censor, view
from .engine.window import ClaimWindow
from .rng import KeyedRandom, PortableRandom, keyed_number
from .rules import (
    OPTION_NAMES,
    PRESET_NAMES,
    VARIANT_NAMES,
    DeadClaims,
    FirstDealer,
    HandSetTiming,
    NoCapture,
    PotRule,
    PrizeRule,
    Rounding,
    Rules,
    RulesError,
    Scoring,
    SingleTakesThree,
    TieBreak,
)
from .scoring import DealResult, settle

__all__ = [
    "CARDS", "OPTION_NAMES", "PRESET_NAMES", "VARIANT_NAMES", "Action", "ActionSyntaxError",
    "Capture", "CaptureKind", "Card", "CardError", "Claim", "ClaimKind", "ClaimWindow",
    "Claimed", "DealEnded", "DealResult", "DeadClaims", "FirstDealer", "HandSetTiming",
    "IllegalActionError", "LaidDown", "LayoutError", "LieDown", "NoCapture", "Operation",
    "KeyedRandom", "PlayerView", "PortableRandom", "PotRule", "PrizeRule", "Rounding", "Rules", "RulesError",
    "Scoring", "Session", "SingleTakesThree", "Standing", "State", "Status", "TableMournival",
    "TieBreak", "Trail", "action_from_json", "cards_of", "censor", "cut_for_dealer",
    "format_cards", "keyed_number", "mask_of", "parse_action", "parse_cards", "settle", "view",
]
