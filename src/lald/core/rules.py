"""The rules as data: every option of docs/rules.md#11-every-option, the presets, variants and layouts.

>>> r = Rules.make("survivor", players=4)
>>> (r.prize, r.hand_size, r.table_size, r.deals)
(3, 10, 12, 4)
>>> Rules.make("last-capture", variants=["modern-laugh"]).no_capture
<NoCapture.TRAIL: 'trail'>
>>> Rules.make(options={"prize": 7}).spec()["options"]
{'prize': 7}
>>> Rules.make("classic")
Traceback (most recent call last):
  ...
lald.core.rules.RulesError: unknown preset 'classic': choose survivor or last-capture
>>> Rules.make(options={"deals": 100000000})
Traceback (most recent call last):
  ...
lald.core.rules.RulesError: bad value 100000000 for deals: choose a whole number from 1 to 50

Every number has a range a person could want (:data:`RANGES`), so the command line,
records and the server refuse the same values with the same sentence.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from enum import StrEnum, unique
from typing import Any


class RulesError(ValueError):
    """An unknown preset, variant, option or value."""


@unique
class PrizeRule(StrEnum):
    """Who is paid the prize from the pot at the end of a deal."""

    SURVIVOR = "survivor"
    """The last seat holding cards."""
    LAST_CAPTURE = "last_capture"
    """The seat that made the deal's last turn capture (nobody if there was none)."""
    LAST_CARD = "last_card"
    """The seat that last took cards into its won pile, by a capture or a claim (nobody if
    none did); the residue and a table mournival dealt to the dealer are not taken."""


@unique
class SingleTakesThree(StrEnum):
    """What one card may do against three of its rank on the table."""

    CHOICE = "choice"
    """Sweep all three or take one, the mover decides."""
    FORCED = "forced"
    """Only the sweep: a single of that rank is illegal."""
    OFF = "off"
    """No sweep: one card takes one."""


@unique
class HandSetTiming(StrEnum):
    """When prials and mournivals may be set aside from the hand."""

    FOREPLAY = "foreplay"
    """Only before the deal's first turn action."""
    FOREPLAY_OR_OWN_TURN = "foreplay_or_own_turn"
    """Also during the seat's own turns, before its capture."""


@unique
class DeadClaims(StrEnum):
    """When a seat may lay down a rank whose live cards are all in its hand."""

    ANY_TIME = "any_time"
    """At any moment of the deal."""
    OWN_TURN = "own_turn"
    """Only while it is the seat to move."""
    OFF = "off"
    """Never."""


@unique
class NoCapture(StrEnum):
    """What a seat does when it cannot capture."""

    LIE_DOWN = "lie_down"
    """Throw the whole hand face up on the table and leave the deal."""
    TRAIL = "trail"
    """Put one card of its choice face up on the table and stay in."""


@unique
class Rounding(StrEnum):
    """How half pairs (odd surpluses) are rounded."""

    TOWARD_ZERO = "toward_zero"
    """-1.5 becomes -1, 1.5 becomes 1."""
    FLOOR = "floor"
    """-1.5 becomes -2, 1.5 becomes 1."""


@unique
class PotRule(StrEnum):
    """What the pot is, and so the order in which a deal is settled."""

    SIGNED = "signed"
    """A signed ledger: shortfalls paid in, then the prize, then the surpluses; the pot may
    go below zero."""
    REAL = "real"
    """A real pot: the prize first, then shortfalls paid in, then the surpluses, each paid
    only while the pot holds chips; it never goes below zero."""


@unique
class Scoring(StrEnum):
    """What a deal is played for."""

    CHIPS = "chips"
    """Antes, prize and settlement in chips."""
    CARD_COUNT = "card_count"
    """No chips: most cards won wins the deal."""


@unique
class TieBreak(StrEnum):
    """What happens on a tie for first place in a session."""

    SHARED = "shared"
    """The tied seats share the win."""
    EXTRA_DEALS = "extra_deals"
    """Each tied seat deals one more deal, repeated up to ``max_tie_cycles`` times."""


@unique
class FirstDealer(StrEnum):
    """How the first dealer of a session is chosen."""

    CUT = "cut"
    """Every seat draws a card; the lowest deals; ties redraw."""
    SEAT = "seat"
    """Seat 0 deals first."""


#: Cards per hand (the quota) and table cards, by number of players.
LAYOUTS: Mapping[int, tuple[int, int]] = {5: (8, 12), 4: (10, 12), 3: (13, 13)}

PRESET_NAMES = ("survivor", "last-capture")
VARIANT_NAMES = ("modern-laugh", "low-stakes", "silent")

_ENUMS: dict[str, type[StrEnum]] = {
    "prize_rule": PrizeRule,
    "single_takes_three": SingleTakesThree,
    "hand_set_timing": HandSetTiming,
    "dead_claims": DeadClaims,
    "no_capture": NoCapture,
    "rounding": Rounding,
    "pot_rule": PotRule,
    "scoring": Scoring,
    "tie_break": TieBreak,
    "first_dealer": FirstDealer,
}


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Every option of docs/rules.md#11-every-option under its name. Build one with :meth:`make`."""

    preset: str = "survivor"
    players: int = 5
    variants: tuple[str, ...] = ()
    prize_rule: PrizeRule = PrizeRule.SURVIVOR
    prize: int = 5
    single_takes_three: SingleTakesThree = SingleTakesThree.CHOICE
    pair_on_pair: bool = True
    prial_on_single: bool = True
    hand_sets: bool = True
    hand_set_timing: HandSetTiming = HandSetTiming.FOREPLAY_OR_OWN_TURN
    hand_sets_face_down: bool = False
    prials_face_up: bool = False
    dead_claims: DeadClaims = DeadClaims.ANY_TIME
    spotter_claims: bool = True
    table_mournival_to_dealer: bool = True
    no_capture: NoCapture = NoCapture.LIE_DOWN
    rounding: Rounding = Rounding.TOWARD_ZERO
    pot_rule: PotRule = PotRule.SIGNED
    scoring: Scoring = Scoring.CHIPS
    tie_break: TieBreak = TieBreak.SHARED
    laugh: bool = True
    ante_dealer: int = 3
    ante_other: int = 2
    deals: int = 5
    first_dealer: FirstDealer = FirstDealer.CUT
    max_tie_cycles: int = 3

    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand, which is also the quota."""
        return LAYOUTS[self.players][0]

    @property
    def quota(self) -> int:
        """The won-pile size that breaks even: the cards dealt to a hand."""
        return LAYOUTS[self.players][0]

    @property
    def table_size(self) -> int:
        """Cards dealt face up to the table."""
        return LAYOUTS[self.players][1]

    @property
    def antes(self) -> int:
        """Chips a deal's antes put into the pot (0 under card-count scoring)."""
        if self.scoring is Scoring.CARD_COUNT:
            return 0
        return self.ante_dealer + (self.players - 1) * self.ante_other

    @classmethod
    def make(
        cls,
        preset: str = "survivor",
        players: int = 5,
        variants: Iterable[str] = (),
        options: Mapping[str, Any] | None = None,
    ) -> Rules:
        """The preset, then its player-count adaptation, then variants, then options.

        Any value of the wrong kind (from JSON, say) raises :class:`RulesError`, never
        another exception.
        """
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError(f"unknown preset {_shown(preset)}: choose {_choices(PRESET_NAMES)}")
        if isinstance(players, bool) or not isinstance(players, int) or players not in LAYOUTS:
            raise RulesError(f"unknown player count {_shown(players)}: choose 3, 4 or 5")
        if isinstance(variants, str | bytes | Mapping) or not isinstance(variants, Iterable):
            raise RulesError("the variants must be a list of names")
        variants = tuple(variants)
        if options is not None and not isinstance(options, Mapping):
            raise RulesError("the options must map option names to values")
        values: dict[str, Any] = dict(PRESETS[preset])
        values["deals"] = players
        values.update(ADAPTATIONS.get((preset, players), {}))
        for name in variants:
            if not isinstance(name, str) or name not in VARIANTS:
                raise RulesError(f"unknown variant {_shown(name)}: choose {_choices(VARIANT_NAMES)}")
            values.update(VARIANTS[name])
        if len(set(variants)) != len(variants):
            raise RulesError("a variant is named twice")
        for key, raw in (options or {}).items():
            values[key] = parse_option(key, raw)
        order = {name: i for i, name in enumerate(VARIANT_NAMES)}
        return cls(
            preset=preset,
            players=players,
            variants=tuple(sorted(variants, key=order.__getitem__)),
            **values,
        )

    def spec(self) -> dict[str, Any]:
        """The record's ``rules`` object: preset, players, variants and the options
        that differ from what preset, players and variants give."""
        base = Rules.make(self.preset, self.players, self.variants)
        options: dict[str, Any] = {}
        for name in OPTION_NAMES:
            value = getattr(self, name)
            if value != getattr(base, name):
                options[name] = value.value if isinstance(value, StrEnum) else value
        return {
            "preset": self.preset,
            "players": self.players,
            "variants": list(self.variants),
            "options": options,
        }

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed (values checked as in :meth:`make`)."""
        parsed = {key: parse_option(key, value) for key, value in options.items()}
        return dataclasses.replace(self, **parsed)

    def describe(self) -> list[tuple[str, str]]:
        """Every option with its value as text, in the order of docs/rules.md#11-every-option."""
        out = []
        for name in OPTION_NAMES:
            value = getattr(self, name)
            if isinstance(value, bool):
                text = "on" if value else "off"
            elif isinstance(value, StrEnum):
                text = value.value
            else:
                text = str(value)
            out.append((name, text))
        return out


#: The names of all single options (everything but preset, players and variants).
OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name not in ("preset", "players", "variants")
)

#: The values a number option may take (both ends included): what a person could want,
#: and small enough that no session is too long to play, store or replay.
RANGES: Mapping[str, tuple[int, int]] = {
    "prize": (0, 100),
    "ante_dealer": (0, 100),
    "ante_other": (0, 100),
    "deals": (1, 50),
    "max_tie_cycles": (0, 10),
}

PRESETS: Mapping[str, Mapping[str, Any]] = {
    "survivor": {
        "prize_rule": PrizeRule.SURVIVOR,
        "prize": 5,
        "single_takes_three": SingleTakesThree.CHOICE,
        "hand_set_timing": HandSetTiming.FOREPLAY_OR_OWN_TURN,
        "hand_sets_face_down": False,
        "spotter_claims": True,
        "tie_break": TieBreak.SHARED,
    },
    "last-capture": {
        "prize_rule": PrizeRule.LAST_CAPTURE,
        "prize": 5,
        "single_takes_three": SingleTakesThree.OFF,
        "hand_set_timing": HandSetTiming.FOREPLAY,
        "hand_sets_face_down": True,
        "spotter_claims": False,
        "tie_break": TieBreak.EXTRA_DEALS,
    },
}
#: Player-count adaptations of a preset (deals = players is applied to all).
ADAPTATIONS: Mapping[tuple[str, int], Mapping[str, Any]] = {
    ("survivor", 4): {"prize": 3},
}
VARIANTS: Mapping[str, Mapping[str, Any]] = {
    "modern-laugh": {"no_capture": NoCapture.TRAIL},
    "low-stakes": {"scoring": Scoring.CARD_COUNT},
    "silent": {"laugh": False},
}


def _choices(names: Iterable[str]) -> str:
    names = list(names)
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]


def _shown(raw: Any, limit: int = 40) -> str:
    """``repr(raw)`` cut to ``limit`` characters, for a message about a value."""
    if isinstance(raw, list | tuple):
        return "[…]"
    if isinstance(raw, Mapping):
        return "{…}"
    try:
        text = repr(raw)
    except ValueError:  # an int too long to print
        return "a very long number"
    return text if len(text) <= limit else text[:limit - 1] + "…"


_WHOLE = re.compile(r"[+-]?[0-9]{1,6}")


def parse_option(key: Any, raw: Any) -> Any:
    """Check and convert one option value (``"on"``/``"off"`` read as booleans)."""
    if not isinstance(key, str) or key not in OPTION_NAMES:
        raise RulesError(f"unknown option {_shown(key)}: choose {_choices(OPTION_NAMES)}")
    default = getattr(Rules(), key)
    if key in _ENUMS:
        enum = _ENUMS[key]
        values = [m.value for m in enum]
        if not isinstance(raw, str) or raw not in values:
            raise RulesError(f"bad value {_shown(raw)} for {key}: choose {_choices(values)}")
        return enum(raw)
    if isinstance(default, bool):
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw in ("on", "off"):
            return raw == "on"
        raise RulesError(f"bad value {_shown(raw)} for {key}: choose on or off")
    if key in RANGES:
        low, high = RANGES[key]
        if isinstance(raw, str) and _WHOLE.fullmatch(raw.strip()):
            raw = int(raw)
        if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
            raise RulesError(f"bad value {_shown(raw)} for {key}: choose a whole number from {low} to {high}")
        return raw
    raise RulesError(f"unknown option {key!r}")  # pragma: no cover - every option is typed
