"""Game records: the JSON form ``lald-record/1`` (docs/record.md#the-json-record-lald-record1) and a text
notation.

Loading a record replays it through the engine, so a stored game is re-checked.

The text notation (``lald-text/1``) is to the JSON record what PGN movetext is to chess:
tag lines, a blank line, then one action per line (``#`` starts a comment)::

    [Format "lald-text/1"]
    [Preset "survivor"]
    [Players "5"]
    [Option "prize" "7"]
    [Dealer "0"]
    [Seed "42"]

    1: claim 7S 7H
    1: QS x QH QD QC
    2: lie down
    3: trail 4D

A layout is given by ``[Hand0 "QS 2H ..."]`` .. ``[HandN ...]`` and ``[Table "..."]`` tags
instead of ``[Seed]``.

>>> rec = Record(rules=Rules.make(), seed=42)
>>> state = rec.replay()
>>> rec2 = Record.from_state(state)
>>> Record.parse(rec2.to_text()) == Record.parse(rec2.to_json()) == rec2
True
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from .core import (
    Action,
    ActionSyntaxError,
    Card,
    CardError,
    IllegalActionError,
    LayoutError,
    Rules,
    RulesError,
    State,
    action_from_json,
    cards_of,
    format_cards,
    parse_action,
    parse_cards,
)
from .core.rules import LAYOUTS

FORMAT = "lald-record/1"
TEXT_FORMAT = "lald-text/1"

#: The largest record read, in bytes (or characters of text already decoded). A deal's
#: record is a few kilobytes; anything this large is not one, and is refused before it is
#: parsed.
MAX_RECORD_BYTES = 1 << 20
#: How deep JSON arrays and objects may nest (a record nests four deep: the record, its
#: actions, an action, its cards).
MAX_DEPTH = 10
#: A seed is any 64-bit number, signed or not (the shuffle reads it modulo 2**64).
SEED_RANGE = range(-(1 << 63), 1 << 64)
#: The most digits a whole number in a record may have (2**64 has 20).
MAX_DIGITS = 20
#: Error messages quote at most this many characters of what the record said.
_QUOTE = 60
_KEYS = {"format", "rules", "dealer", "hands", "table", "seed", "pot", "names", "actions"}
#: The longest seat name a record keeps, in characters.
MAX_NAME = 40
_RULE_KEYS = {"preset", "players", "variants", "options"}


class RecordError(ValueError):
    """A record that cannot be read, or whose action ``index`` (from 0) is illegal or
    malformed; the message counts moves from 1, as the review and the replay do
    (``move 4: ...`` for index 3)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        message = " ".join(message.split())  # one line, whatever the record held
        if len(message) > 300:
            message = message[:299] + "…"
        super().__init__(message if index is None else f"move {index + 1}: {message}")
        self.index = index


@dataclasses.dataclass(frozen=True)
class Record:
    """One deal: rules, dealer, the layout (by seed or by cards), the pot carried in,
    the seats' names if it has them, and the actions in order."""

    rules: Rules
    dealer: int = 0
    pot: int = 0
    seed: int | None = None
    hands: tuple[tuple[Card, ...], ...] | None = None
    table: tuple[Card, ...] | None = None
    actions: tuple[Action, ...] = ()
    names: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.names is not None:
            _check_names(self.rules, self.names)

    # -- building -----------------------------------------------------------------------

    @classmethod
    def from_state(cls, state: State, *, layout: bool = False,
                   names: tuple[str, ...] | list[str] | None = None) -> Record:
        """The record of a deal so far (by seed when it was dealt from one, unless
        ``layout``), with the seats' ``names`` if given (each made a name a record
        keeps: :func:`record_name`)."""
        by_seed = state.seed is not None and not layout
        return cls(
            names=None if names is None else tuple(record_name(n, s) for s, n in enumerate(names)),
            rules=state.rules,
            dealer=state.dealer,
            pot=state.pot_before,
            seed=state.seed if by_seed else None,
            hands=None if by_seed else tuple(cards_of(h) for h in state.dealt_hands),
            table=None if by_seed else cards_of(state.dealt_table),
            actions=tuple(state.actions),
        )

    def start(self) -> State:
        """The deal as dealt, before any action."""
        try:
            if self.seed is not None:
                return State.deal(self.rules, self.seed, dealer=self.dealer, pot=self.pot)
            assert self.hands is not None and self.table is not None
            return State.from_layout(self.rules, self.hands, self.table, self.dealer, self.pot)
        except LayoutError as e:
            raise RecordError(str(e)) from None

    def replay(self, upto: int | None = None) -> State:
        """Replay the actions through the engine; an illegal one raises :class:`RecordError`
        naming its index."""
        state = self.start()
        for i, action in enumerate(self.actions[:upto]):
            try:
                state.apply(action)
            except IllegalActionError as e:
                raise RecordError(str(e), i) from None
        return state

    # -- JSON ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The JSON record of docs/record.md#the-json-record-lald-record1."""
        out: dict[str, Any] = {"format": FORMAT, "rules": self.rules.spec(), "dealer": self.dealer}
        if self.seed is not None:
            out["seed"] = self.seed
        else:
            assert self.hands is not None and self.table is not None
            out["hands"] = [[str(c) for c in h] for h in self.hands]
            out["table"] = [str(c) for c in self.table]
        if self.pot:
            out["pot"] = self.pot
        if self.names is not None:
            out["names"] = list(self.names)
        out["actions"] = [a.to_json() for a in self.actions]
        return out

    def dumps(self) -> str:
        """The JSON record as text, one action per line."""
        body = self.to_json()
        actions = body.pop("actions")
        head = json.dumps(body, ensure_ascii=False)[:-1]
        lines = ",\n    ".join(json.dumps(a) for a in actions)
        return f'{head}, "actions": [\n    {lines}\n  ]}}\n' if actions else head + ', "actions": []}\n'

    @classmethod
    def from_json(cls, obj: Any) -> Record:
        """Read a JSON record (already parsed); raise :class:`RecordError`."""
        if not isinstance(obj, dict):
            raise RecordError("a record must be a JSON object")
        _check_depth(obj)
        for key in obj:
            if key not in _KEYS:
                raise RecordError(f"unknown key {_quote(key)} in the record")
        if "format" not in obj:
            raise RecordError(f"the record has no 'format': this build reads {FORMAT!r}")
        if obj["format"] != FORMAT:
            raise RecordError(f"unsupported format {_quote(obj['format'])}: this build reads {FORMAT!r}")
        rules = _rules_from_json(obj.get("rules", {}))
        dealer = _int(obj, "dealer", 0)
        _check_dealer(rules, dealer)
        pot = _int(obj, "pot", 0, signed=True)
        has_seed, has_layout = "seed" in obj, "hands" in obj or "table" in obj
        if has_seed == has_layout:
            raise RecordError("a record gives the deal either by 'seed' or by 'hands' and "
                              "'table', " + ("not both" if has_seed else "and this one has neither"))
        seed = hands = table = None
        if has_seed:
            seed = _int(obj, "seed", 0, signed=True)
            _check_seed(seed)
        else:
            if "hands" not in obj or "table" not in obj:
                raise RecordError("a layout needs both 'hands' and 'table'")
            if not isinstance(obj["hands"], list):
                raise RecordError("'hands' must be a list of hands")
            hands = tuple(_card_list(h, f"hands[{i}]") for i, h in enumerate(obj["hands"]))
            table = _card_list(obj["table"], "table")
            _check_layout(rules, hands, table)
        names = _names_from_json(rules, obj["names"]) if "names" in obj else None
        actions_raw = obj.get("actions", [])
        if not isinstance(actions_raw, list):
            raise RecordError("'actions' must be a list")
        actions = []
        for i, a in enumerate(actions_raw):
            try:
                actions.append(action_from_json(a))
            except ActionSyntaxError as e:
                raise RecordError(str(e), i) from None
        return cls(rules, dealer, pot, seed, hands, table, tuple(actions), names)

    # -- text ---------------------------------------------------------------------------

    def to_text(self) -> str:
        """The text notation."""
        spec = self.rules.spec()
        tags = [("Format", TEXT_FORMAT), ("Preset", spec["preset"]), ("Players", spec["players"])]
        if spec["variants"]:
            tags.append(("Variants", " ".join(spec["variants"])))
        lines = [f'[{k} "{v}"]' for k, v in tags]
        for name, value in spec["options"].items():
            text = ("on" if value else "off") if isinstance(value, bool) else value
            lines.append(f'[Option "{name}" "{text}"]')
        lines.append(f'[Dealer "{self.dealer}"]')
        if self.pot:
            lines.append(f'[Pot "{self.pot}"]')
        if self.seed is not None:
            lines.append(f'[Seed "{self.seed}"]')
        else:
            assert self.hands is not None and self.table is not None
            lines += [f'[Hand{i} "{format_cards(h)}"]' for i, h in enumerate(self.hands)]
            lines.append(f'[Table "{format_cards(self.table)}"]')
        if self.names is not None:
            lines += [f'[Name{i} "{name}"]' for i, name in enumerate(self.names)]
        lines.append("")
        lines += [str(a) for a in self.actions]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Record:
        """Read the text notation; raise :class:`RecordError`."""
        tags: dict[str, str] = {}
        options: dict[str, str] = {}
        hands: dict[int, tuple[Card, ...]] = {}
        names: dict[int, str] = {}
        actions: list[Action] = []
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("["):
                if actions:
                    raise RecordError(f"line {number}: a tag after the actions")
                m = _TAG.fullmatch(line)
                if not m:
                    raise RecordError(f'line {number}: bad tag {line!r}: write [Name "value"]')
                name, value, extra = m.group(1), m.group(2), m.group(3)
                if name == "Option":
                    if extra is None:
                        raise RecordError(f'line {number}: write [Option "name" "value"]')
                    options[value] = extra
                elif name.startswith("Hand") and _WHOLE.fullmatch(name[4:]):
                    hands[int(name[4:])] = _parse_cards_text(value, f"line {number}")
                elif name.startswith("Name") and _WHOLE.fullmatch(name[4:]) and len(name) < 10:
                    names[int(name[4:])] = value
                elif name in _TEXT_TAGS:
                    tags[name] = value
                else:
                    raise RecordError(f"line {number}: unknown tag {name!r}")
                continue
            try:
                actions.append(parse_action(line))
            except ActionSyntaxError as e:
                raise RecordError(str(e), len(actions)) from None
        if tags.get("Format") != TEXT_FORMAT:
            raise RecordError(f"the text record must start with [Format \"{TEXT_FORMAT}\"]")
        players = _whole_tag(tags, "Players", "5")
        dealer = _whole_tag(tags, "Dealer", "0")
        pot = _whole_tag(tags, "Pot", "0")
        seed = _whole_tag(tags, "Seed", "0") if "Seed" in tags else None
        if seed is not None:
            _check_seed(seed)
        try:
            variants = tags.get("Variants", "").split()
            rules = Rules.make(tags.get("Preset", "survivor"), players, variants, options)
        except RulesError as e:
            raise RecordError(str(e)) from None
        if (seed is None) == (not hands and "Table" not in tags):
            raise RecordError("a record gives the deal either by Seed or by Hand and Table tags")
        hand_list = table = None
        if seed is None:
            if sorted(hands) != list(range(len(hands))) or "Table" not in tags:
                raise RecordError("a layout needs tags Hand0, Hand1, ... and Table")
            hand_list = tuple(hands[i] for i in range(len(hands)))
            table = _parse_cards_text(tags["Table"], "Table")
            _check_layout(rules, hand_list, table)
        _check_dealer(rules, dealer)
        name_list = None
        if names:
            if sorted(names) != list(range(rules.players)):
                raise RecordError("the seats' names need one tag for each seat, "
                                  f"Name0 to Name{rules.players - 1}")
            name_list = tuple(names[i] for i in range(rules.players))
            _check_names(rules, name_list)
        return cls(rules, dealer, pot, seed, hand_list, table, tuple(actions), name_list)

    @classmethod
    def parse(cls, text: str | bytes | Any) -> Record:
        """Read a record in either form (JSON text, or the text notation; bytes are read as
        UTF-8; anything else is taken as parsed JSON). Text over :data:`MAX_RECORD_BYTES`
        is refused unread."""
        if not isinstance(text, (str, bytes)):
            return cls.from_json(text)
        if isinstance(text, bytes):
            text = decode(text)
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(too_large("characters"))
        if not _TAG_START.match(text.lstrip()):
            return cls.from_json(parse_json(text))
        return cls.from_text(text)


_TAG_START = re.compile(r'\[\w+\s+"')
_WHOLE = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


def decode(data: bytes) -> str:
    """A record's bytes as text: UTF-8 (a byte-order mark is allowed), at most
    :data:`MAX_RECORD_BYTES`; raise :class:`RecordError` naming the first bad byte."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(too_large())
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError(f"the record is not UTF-8 text: byte {e.start} is 0x{data[e.start]:02x}; "
                          "save it as UTF-8") from None


def too_large(unit: str = "bytes") -> str:
    """The sentence that refuses a record over :data:`MAX_RECORD_BYTES`."""
    return (f"the record is over {MAX_RECORD_BYTES:,} {unit}, larger than any record of a "
            "deal; is it the right file?")


def parse_json(text: str) -> Any:
    """Strict JSON for records: no NaN or Infinity, no whole number over
    :data:`MAX_DIGITS` digits, no nesting deeper than :data:`MAX_DEPTH`; raise
    :class:`RecordError`."""
    try:
        obj = json.loads(text, parse_int=_json_int, parse_constant=_json_constant)
    except json.JSONDecodeError as e:
        raise RecordError(f"malformed JSON: {e}") from None
    except RecursionError:
        raise RecordError(_too_deep()) from None
    _check_depth(obj)
    return obj


def _json_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise RecordError(f"a number in the record has {digits:,} digits; none may have more "
                          f"than {MAX_DIGITS}")
    return int(text)


def _json_constant(name: str) -> Any:
    raise RecordError(f"{name} is not a number JSON allows: write a whole number")


def _too_deep() -> str:
    return f"the record's lists and objects nest more than {MAX_DEPTH} deep; a record nests 4"


def _check_depth(obj: Any) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` (iteratively: no recursion to exhaust)."""
    stack: list[tuple[Any, int]] = [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > MAX_DEPTH:
            raise RecordError(_too_deep())
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))


def _quote(value: Any) -> str:
    """What the record said, quoted short: a string or number as written, else its kind."""
    if isinstance(value, (dict, list)):
        return "an object" if isinstance(value, dict) else "a list"
    text = repr(value)
    return text if len(text) <= _QUOTE else text[:_QUOTE - 1] + "…"


def _check_seed(seed: int) -> None:
    if seed not in SEED_RANGE:
        raise RecordError(f"'seed' must be a whole number from {SEED_RANGE.start} to "
                          f"{SEED_RANGE.stop - 1}")


def _whole_tag(tags: dict[str, str], name: str, default: str) -> int:
    text = tags.get(name, default).strip()
    if not _WHOLE.fullmatch(text):
        raise RecordError(f"the {name} tag must be a whole number, not {_quote(text)}")
    return int(text)
_TAG = re.compile(r'\[(\w+)\s+"([^"]*)"(?:\s+"([^"]*)")?\]')
_TEXT_TAGS = {"Format", "Preset", "Players", "Variants", "Dealer", "Pot", "Seed", "Table"}


def _int(obj: dict[str, Any], key: str, default: int, *, signed: bool = False) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or (value < 0 and not signed):
        raise RecordError(f"'{key}' must be a whole number" + ("" if signed else " ≥ 0"))
    return value


def _rules_from_json(spec: Any) -> Rules:
    if not isinstance(spec, dict):
        raise RecordError("'rules' must be an object")
    for key in spec:
        if key not in _RULE_KEYS:
            raise RecordError(f"unknown key {key!r} in 'rules'")
    variants = spec.get("variants", [])
    options = spec.get("options", {})
    players = spec.get("players", 5)
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise RecordError("'rules.variants' must be a list of names")
    if not isinstance(options, dict):
        raise RecordError("'rules.options' must be an object")
    if isinstance(players, bool) or not isinstance(players, int):
        raise RecordError("'rules.players' must be 3, 4 or 5")
    preset = spec.get("preset", "survivor")
    if not isinstance(preset, str):
        raise RecordError("'rules.preset' must be a name")
    try:
        return Rules.make(preset, players, variants, options)
    except RulesError as e:
        raise RecordError(str(e)) from None


def record_name(name: str, seat: int) -> str:
    """A seat's name as a record keeps it: printable characters but ``"`` and ``#`` (the
    text notation's quote and comment), a space for each other, no space at either end,
    at most :data:`MAX_NAME` characters; ``Seat N`` (from 0) if nothing is left."""
    kept = "".join(c if c.isprintable() and c not in '"#' else " " for c in name).strip()
    return kept[:MAX_NAME].strip() or f"Seat {seat}"


def _names_from_json(rules: Rules, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise RecordError("'names' must be a list of the seats' names, one string for each seat")
    names = tuple(value)
    _check_names(rules, names)
    return names


def _check_names(rules: Rules, names: tuple[str, ...]) -> None:
    if len(names) != rules.players:
        raise RecordError(f"'names' has {len(names)} names for {rules.players} seats")
    for seat, name in enumerate(names):
        if record_name(name, seat) != name:
            raise RecordError(f"the name of seat {seat}, {_quote(name)}, is not a name a record keeps: "
                              f"1 to {MAX_NAME} printable characters, no '\"' or '#', no space at either end")


def _card_list(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of cards")
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise RecordError(f"{where}[{i}]: a card must be a string like \"QS\"")
        try:
            out.append(Card.parse(item))
        except CardError as e:
            raise RecordError(f"{where}[{i}]: {e}") from None
    return tuple(out)


def _parse_cards_text(text: str, where: str) -> tuple[Card, ...]:
    try:
        return parse_cards(text)
    except CardError as e:
        raise RecordError(f"{where}: {e}") from None


def _check_dealer(rules: Rules, dealer: int) -> None:
    if not 0 <= dealer < rules.players:
        raise RecordError(f"'dealer' must be a seat from 0 to {rules.players - 1}")


def _check_layout(rules: Rules, hands: tuple[tuple[Card, ...], ...], table: tuple[Card, ...]) -> None:
    n = rules.players
    hand_size, table_size = LAYOUTS[n]
    if len(hands) != n:
        raise RecordError(f"the record has {len(hands)} hands; {n} players need {n}")
    seen: dict[Card, str] = {}
    for where, cards in [*((f"hand {i}", h) for i, h in enumerate(hands)), ("the table", table)]:
        for c in cards:
            if c in seen:
                raise RecordError(f"card {c} is dealt twice (in {seen[c]} and {where})")
            seen[c] = where
    for i, h in enumerate(hands):
        if len(h) != hand_size:
            raise RecordError(f"hand {i} has {len(h)} cards; {n} players hold {hand_size} each")
    if len(table) != table_size:
        raise RecordError(f"the table has {len(table)} cards; {n} players deal {table_size} to it")


def load(text: str | bytes | Any) -> tuple[Record, State]:
    """Read a record and replay it; raise :class:`RecordError` (one line) on any problem."""
    record = Record.parse(text)
    return record, record.replay()


def replay_summary(state: State) -> dict[str, Any]:
    """The object ``lald replay --json`` prints (docs/record.md#commands)."""
    won = [w.bit_count() for w in state.won]
    r = state.result
    if r is None:
        return {"over": False, "to_move": state.to_move, "won": won, "survivor": None,
                "last_capture": None, "prize_to": None, "pairs": None, "chips": None,
                "pot": None}
    return {
        "over": True, "to_move": None, "won": list(r.won), "survivor": r.survivor,
        "last_capture": r.last_capture, "prize_to": r.prize_to,
        "pairs": None if r.pairs is None else list(r.pairs), "chips": list(r.chips),
        "pot": {"before": r.pot_before, "after": r.pot_after},
    }
