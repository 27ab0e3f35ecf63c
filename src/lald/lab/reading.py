"""Readings: a preset with its variants, single options and player count, written short.

The notation (docs/readings/README.md repeats it for users)::

    PRESET [+VARIANT ...] [:OPTION=VALUE ...] [/PLAYERS]

- ``PRESET`` is ``survivor`` or ``last-capture`` (docs/rules.md#9-the-two-presets);
- each ``+VARIANT`` is ``modern-laugh``, ``low-stakes`` or ``silent``;
- each ``:OPTION=VALUE`` sets one option of docs/rules.md#11-every-option by its name (on/off
  options take ``on`` or ``off``);
- ``/PLAYERS`` is 3, 4 or 5 (default 5).

They apply in the rules' order of precedence: the preset, its player-count adaptation, the
variants, then the options. The canonical form lists the variants in the order of
docs/rules.md#10-variants and the options in the order of docs/rules.md#11-every-option, drops
options that change nothing and ``/5``:

>>> parse_reading("survivor").text, parse_reading("last-capture/4").rules.prize
('survivor', 5)
>>> parse_reading(" survivor:single_takes_three=off+modern-laugh ").text
'survivor+modern-laugh:single_takes_three=off'
>>> parse_reading("survivor:spotter_claims=on/5").text
'survivor'
>>> parse_reading("survivor/6")
Traceback (most recent call last):
  ...
ValueError: reading 'survivor/6': unknown player count 6: choose 3, 4 or 5
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from enum import StrEnum

from ..core import (
    OPTION_NAMES,
    VARIANT_NAMES,
    DeadClaims,
    HandSetTiming,
    NoCapture,
    PotRule,
    PrizeRule,
    Rules,
    RulesError,
    Scoring,
    SingleTakesThree,
    TieBreak,
)


@dataclasses.dataclass(frozen=True, slots=True)
class Reading:
    """One reading of the rules: its canonical text and the rules it names."""

    text: str
    rules: Rules

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, StrEnum):
        return value.value
    return str(value)


def reading_of(rules: Rules) -> Reading:
    """The reading that names ``rules``."""
    spec = rules.spec()
    text = rules.preset + "".join(f"+{v}" for v in spec["variants"])
    options = spec["options"]
    for name in OPTION_NAMES:
        if name in options:
            text += f":{name}={_value_text(getattr(rules, name))}"
    if rules.players != 5:
        text += f"/{rules.players}"
    return Reading(text, rules)


def parse_reading(text: str) -> Reading:
    """Read one reading; raise ValueError with a one-line reason."""
    raw = text.strip()
    if not raw:
        raise ValueError("an empty reading: write e.g. survivor, last-capture/4 or survivor+modern-laugh")
    body, slash, count = raw.rpartition("/")
    if not slash:
        body, count = raw, "5"
    count = count.strip()
    if not count.isdigit():
        raise ValueError(f"reading {raw!r}: write the player count after '/' as 3, 4 or 5")
    players = int(count)
    # '+variant' and ':option=value' parts, in any order after the preset
    parts: list[tuple[str, str]] = []
    word, kind = "", ""
    for ch in body:
        if ch in "+:":
            parts.append((kind, word.strip()))
            word, kind = "", ch
        else:
            word += ch
    parts.append((kind, word.strip()))
    preset = parts[0][1]
    variants: list[str] = []
    options: dict[str, str] = {}
    for sign, item in parts[1:]:
        if sign == "+":
            if item not in VARIANT_NAMES:
                raise ValueError(f"reading {raw!r}: unknown variant {item!r}: choose "
                                 f"{', '.join(VARIANT_NAMES)}")
            variants.append(item)
        else:
            name, eq, value = item.partition("=")
            if not eq or not name.strip() or not value.strip():
                raise ValueError(f"reading {raw!r}: write an option as :NAME=VALUE, e.g. :prize=7")
            if name.strip() in options:
                raise ValueError(f"reading {raw!r}: option {name.strip()} is set twice")
            options[name.strip()] = value.strip()
    try:
        rules = Rules.make(preset, players, variants, options)
    except RulesError as e:
        raise ValueError(f"reading {raw!r}: {e}") from None
    return reading_of(rules)


def parse_readings(texts: Iterable[str]) -> list[Reading]:
    """Several readings (each text may hold several, comma-separated); a reading named
    twice is an error."""
    out: list[Reading] = []
    seen: dict[str, str] = {}
    for group in texts:
        for text in group.split(","):
            if not text.strip():
                continue
            r = parse_reading(text)
            if r.text in seen:
                raise ValueError(f"reading {text.strip()!r} is named twice (as {seen[r.text]!r})")
            seen[r.text] = text.strip()
            out.append(r)
    return out


#: The set a historian starts with: both presets at 5, 4 and 3 players, then each
#: variant on each preset (at 5 players).
STANDARD: tuple[str, ...] = (
    "survivor", "last-capture", "survivor/4", "last-capture/4", "survivor/3", "last-capture/3",
    *(f"{p}+{v}" for p in ("survivor", "last-capture") for v in VARIANT_NAMES),
)


def standard() -> list[Reading]:
    """The readings of :data:`STANDARD`."""
    return parse_readings(STANDARD)


# -- in words ---------------------------------------------------------------------------


def describe(rules: Rules) -> list[str]:
    """The reading's rules in sentences a reader who is not a programmer follows."""
    r = rules
    n = r.players
    out = [f"{n} players, {r.hand_size} cards each and {r.table_size} face up on the table."]
    if r.scoring is Scoring.CARD_COUNT:
        out.append("No chips are played for (low stakes): whoever wins most cards wins the deal.")
    else:
        prize_to = {
            PrizeRule.SURVIVOR: "the survivor, the last player still holding cards",
            PrizeRule.LAST_CAPTURE: "the player who made the last capture (nobody, if no capture was made)",
            PrizeRule.LAST_CARD: "whoever took the very last card, by a capture or a claim (nobody, if "
                                 "nobody took a card)",
        }[r.prize_rule]
        out.append(f"The dealer antes {r.ante_dealer} and every other player {r.ante_other} "
                   f"({r.antes} in all); a prize of {r.prize} goes to {prize_to}; every pair won "
                   f"above the {r.quota} cards dealt is paid a chip, every pair short costs one.")
        surplus = 52 - n * r.quota
        below = ("and may go below zero (the ledger is signed)" if r.pot_rule is PotRule.SIGNED else
                 "but never below zero: a real pot pays the prize first, then what it holds")
        if surplus % 2 == 0 and surplus // 2 + r.prize == r.antes:
            out.append("The pot pays out exactly what went in, every deal.")
        elif surplus % 2 == 0:
            drift = r.antes - r.prize - surplus // 2
            out.append(f"The pot cannot balance: it takes in {r.antes} chips and pays the prize "
                       f"and {surplus // 2} pairs, so it moves by {drift:+d} whenever the prize is "
                       f"paid, {below}.")
        else:
            out.append(f"The pot cannot balance: the won piles can be odd, pairs are rounded, and "
                       f"the pot takes in {r.antes} chips against the prize and about "
                       f"{surplus // 2} pairs, so it drifts, {below}.")
    sweep = {SingleTakesThree.CHOICE: "a single card may take one card of its rank or all three",
             SingleTakesThree.FORCED: "a single card facing three of its rank must take all three",
             SingleTakesThree.OFF: "a single card takes one card of its rank, never three"}
    captures = [sweep[r.single_takes_three]]
    if r.pair_on_pair:
        captures.append("a pair takes a pair")
    if r.prial_on_single:
        captures.append("a prial takes the fourth card")
    out.append("Captures: " + "; ".join(captures) + ".")
    if r.hand_sets:
        when = ("before the first move only" if r.hand_set_timing is HandSetTiming.FOREPLAY
                else "before the first move or on the player's own turns")
        seen = "face down" if r.hand_sets_face_down else "face up"
        out.append(f"Prials and mournivals in hand may be set aside {when}, {seen}.")
    dead = {DeadClaims.ANY_TIME: "at any time, even out of turn", DeadClaims.OWN_TURN: "on one's own turn",
            DeadClaims.OFF: None}[r.dead_claims]
    if dead:
        out.append(f"A rank whose live cards all lie in one hand may be laid down {dead}.")
    if r.spotter_claims:
        out.append("Cards of a rank left alone on the table go to whoever spots them first, "
                   "even a player who lay down.")
    else:
        out.append("Nobody may claim cards left on the table: they go to the dealer at the end.")
    if r.no_capture is NoCapture.LIE_DOWN:
        out.append("A player who cannot capture lies down: the whole hand goes face up on the "
                   "table" + (" and the others laugh." if r.laugh else " (nobody laughs)."))
    else:
        out.append("A player who cannot capture trails one card of their choice and stays in "
                   "(the modern laugh)" + ("." if r.laugh else "; nobody laughs."))
    tie = ("the tied players share the win" if r.tie_break is TieBreak.SHARED else
           f"each tied player deals one more deal, up to {r.max_tie_cycles} rounds, then they share")
    best = ("most deals won, then most cards" if r.scoring is Scoring.CARD_COUNT else "the best balance")
    out.append(f"A session is {r.deals} deals, won by {best}; on a tie {tie}.")
    return out
