"""Hypothesis strategies of broken game records (issue 10): arbitrary JSON (deep nesting,
wrong types, huge and non-finite numbers, long and odd Unicode), good records with one part
changed, the text notation's lines, and raw bytes. Shared by tests/test_record.py (the
reader) and tests/cli/test_commands.py (lald replay and lald legal)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import strategies as st

from lald.core import Rules, State
from lald.record import Record, load


def _played(rules: Rules, seed: int, steps: int) -> State:
    rng = random.Random(seed)
    state = State.deal(rules, seed)
    for _ in range(steps):
        if state.over:
            break
        claims = state.open_claims()
        state.apply(rng.choice(claims) if claims and rng.random() < 0.5 else rng.choice(state.turn_actions()))
    return state


#: Good records to break: seeded and laid out, every preset and size, whole and cut short.
GOOD = [
    Record.from_state(_played(Rules.make("survivor", 5), 1, 200)).to_json(),
    Record.from_state(_played(Rules.make("last-capture", 4), 2, 9), layout=True).to_json(),
    Record.from_state(_played(Rules.make("survivor", 3, ["modern-laugh"]), 3, 30)).to_json(),
    Record.from_state(_played(Rules.make("last-capture", 5, ["low-stakes"], {"prize": 7}), 4, 12),
                      layout=True).to_json(),
    Record.from_state(_played(Rules.make("survivor", 3), 5, 20), names=["Zoe", "Ben", "Ünal Ö"]).to_json(),
]
for _obj in GOOD:
    load(json.dumps(_obj))  # each is good as it stands

#: Words a record uses, so that changes land on names the reader knows.
WORDS = ["format", "rules", "dealer", "hands", "table", "seed", "pot", "actions", "preset",
         "players", "variants", "options", "seat", "type", "play", "take", "cards", "card",
         "capture", "claim", "lie_down", "trail", "survivor", "last-capture", "modern-laugh",
         "prize", "deals", "rounding", "on", "off", "QS", "10h", "T♠", "lald-record/1", "-", "names",
         "Zoe"]

long_text = st.builds(lambda c, n: c * n, st.characters(), st.integers(0, 5000))
odd_text = st.text(st.characters(), max_size=40) | st.sampled_from(WORDS) | long_text
numbers = (st.integers() | st.integers(-(1 << 70), 1 << 70) | st.sampled_from([0, 1, 4, 5, -1, 1 << 64])
           | st.floats(allow_nan=True, allow_infinity=True))
scalars = st.none() | st.booleans() | numbers | odd_text
json_values = st.recursive(
    scalars,
    lambda kids: st.lists(kids, max_size=6) | st.dictionaries(st.sampled_from(WORDS) | odd_text, kids,
                                                              max_size=6),
    max_leaves=25)


#: Put in place of a value, :func:`replace` removes the value instead.
DELETE = object()


def replace(obj: Any, path: list[int], value: Any) -> Any:
    """``obj`` with the node that ``path`` picks (child by child, modulo their number)
    replaced by ``value``; :data:`DELETE` removes it from its list or object instead."""
    if not path or not isinstance(obj, (dict, list)) or not obj:
        return {} if value is DELETE else value
    step, rest = path[0], path[1:]
    if isinstance(obj, list):
        i = step % len(obj)
        if value is DELETE and not rest:
            return obj[:i] + obj[i + 1:]
        return [*obj[:i], replace(obj[i], rest, value), *obj[i + 1:]]
    key = list(obj)[step % len(obj)]
    out = dict(obj)
    if value is DELETE and not rest:
        del out[key]
    else:
        out[key] = replace(obj[key], rest, value)
    return out


#: Many digits, built when drawn (so that Hypothesis' reports stay short).
many_digits = st.integers(21, 6000).map(lambda n: "9" * n)

TEXT_LINES = st.one_of(
    st.builds(lambda name, value: f'[{name} "{value}"]',
              st.sampled_from(["Format", "Preset", "Players", "Variants", "Dealer", "Pot", "Seed",
                               "Table", "Hand0", "Hand1", "Hand4", "Hand²", "Option", "Weather", "Name0",
                               "Name1", "Name2", "Name4"])
              | many_digits.map(lambda digits: "Hand" + digits),
              st.sampled_from(["lald-text/1", "5", "3", "-1", "²", "QS QH", "survivor", "silent low-stakes"])
              | many_digits | st.text(st.characters(exclude_characters='"\n\r'), max_size=30)),
    st.builds(lambda a, b: f'[Option "{a}" "{b}"]', st.sampled_from(WORDS),
              st.sampled_from(WORDS) | odd_text | many_digits),
    st.builds(lambda seat, body: f"{seat}: {body}",
              st.sampled_from(["0", "1", "4", "²", "-1", ""]) | many_digits,
              st.sampled_from(["lie down", "trail QS", "claim 7S 7H", "QS x QH", "x", "QS x", "jump"])
              | odd_text),
    odd_text,
)




def deep(opening: str, closing: str, depth: int, inner: str) -> str:
    """``inner`` inside ``depth`` pairs of brackets."""
    return opening * depth + inner + closing * depth


BRACKETS = st.sampled_from([("[", "]"), ('{"a": ', "}"), ('[{"type": ', "}]")])


def with_number(good: dict[str, Any], key: str, number: str) -> str:
    """``good`` as JSON text with its first small whole numbers under ``key`` written as
    ``number`` (any text: 5,000 digits, NaN, 1e400)."""
    text = json.dumps(good)
    for value in (0, 1, 2, 3, 4, 5, 7):
        text = text.replace(f'"{key}": {value}', f'"{key}": {number}', 1)
    return text


NUMBER_KEYS = st.sampled_from(["seed", "dealer", "pot", "seat", "players", "prize"])
ODD_NUMBERS = st.builds(lambda sign, digits, tail: sign + "9" * digits + tail,
                        st.sampled_from(["", "-"]), st.integers(1, 6000),
                        st.sampled_from(["", ".5", "e400", "e-400"])) | st.sampled_from(
    ["NaN", "Infinity", "-Infinity"])

#: Anything a person might hand ``lald replay``: bytes of every kind of broken record.
record_bytes = st.one_of(
    st.tuples(st.sampled_from(GOOD), st.lists(st.integers(0, 1000), max_size=6),
              json_values | st.just(DELETE)).map(lambda t: json.dumps(replace(*t)).encode()),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.tuples(st.sampled_from(GOOD), st.sampled_from(WORDS), st.integers(1, 5000), BRACKETS).map(
        lambda t: json.dumps({**t[0], t[1]: "HOLE"}).replace('"HOLE"', deep(*t[3], t[2], "1")).encode()),
    st.tuples(st.sampled_from(GOOD), NUMBER_KEYS, ODD_NUMBERS).map(lambda t: with_number(*t).encode()),
    st.lists(TEXT_LINES, max_size=12).map(  # lone surrogates become bytes that are not UTF-8
        lambda lines: "\n".join(['[Format "lald-text/1"]', *lines]).encode("utf-8", "surrogatepass")),
    st.binary(max_size=300),
)
