"""RECORD.md: the JSON record and the text notation, reading, writing and every error."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lald.core import Rules, State
from lald.record import MAX_DEPTH, MAX_RECORD_BYTES, Record, RecordError, load, parse_json, replay_summary

from .fuzz_records import (
    BRACKETS,
    DELETE,
    GOOD,
    NUMBER_KEYS,
    ODD_NUMBERS,
    TEXT_LINES,
    WORDS,
    deep,
    json_values,
    replace,
    with_number,
)

GOLDEN = sorted((Path(__file__).parent / "data" / "golden").glob("*[0-9].json"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_records_replay_to_their_expected_outcome(path: Path) -> None:
    record, state = load(path.read_text(encoding="utf-8"))
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert replay_summary(state) == expected
    assert Record.parse(record.to_text()) == record


def test_golden_records_cover_every_preset_and_player_count() -> None:
    seen = {(json.loads(p.read_text())["rules"]["preset"], json.loads(p.read_text())["rules"]["players"])
            for p in GOLDEN}
    assert seen == {(p, n) for p in ("survivor", "last-capture") for n in (3, 4, 5)}


def base() -> dict[str, Any]:
    state = State.deal(Rules.make(), seed=4)
    for _ in range(3):
        state.apply(state.turn_actions()[0])
    return Record.from_state(state, layout=True).to_json()


def test_example_of_record_md_shape() -> None:
    obj = base()
    assert obj["format"] == "lald-record/1"
    assert obj["rules"] == {"preset": "survivor", "players": 5, "variants": [], "options": {}}
    assert set(obj) == {"format", "rules", "dealer", "hands", "table", "actions"}
    record = Record.from_json(obj)
    assert record.replay().actions == list(record.actions)


def test_defaults_for_missing_keys() -> None:
    record = Record.from_json({"format": "lald-record/1", "seed": 3})
    assert record.rules == Rules.make() and record.dealer == 0 and record.pot == 0
    assert record.actions == ()


def test_options_accept_on_off_strings_and_every_card_form() -> None:
    obj = base()
    obj["rules"]["options"] = {"pair_on_pair": "off", "prize": 7}
    obj["hands"][0] = [c.lower().replace("T", "10").replace("t", "10") for c in obj["hands"][0]]
    record = Record.from_json(obj)
    assert record.rules.pair_on_pair is False and record.rules.prize == 7
    assert record.to_json()["rules"]["options"] == {"pair_on_pair": False, "prize": 7}


def mutate(**changes: Any) -> dict[str, Any]:
    obj = copy.deepcopy(base())
    for key, value in changes.items():
        if value is None:
            obj.pop(key, None)
        else:
            obj[key] = value
    return obj


BAD: list[tuple[str, Any, str]] = [
    ("malformed JSON", '{"format": ', "malformed JSON"),
    ("not an object", "[1, 2]", "must be a JSON object"),
    ("empty", "", "malformed JSON"),
    ("wrong format", mutate(format="lald-record/9"), "unsupported format 'lald-record/9'"),
    ("missing format", mutate(format=None), "no 'format'"),
    ("unknown key", {**base(), "colour": "red"}, "unknown key 'colour'"),
    ("unknown rules key", mutate(rules={"preset": "survivor", "jokers": 2}), "unknown key 'jokers'"),
    ("unknown preset", mutate(rules={"preset": "classic"}), "unknown preset 'classic'"),
    ("unknown variant", mutate(rules={"variants": ["loud"]}), "unknown variant 'loud'"),
    ("unknown option", mutate(rules={"options": {"jokers": True}}), "unknown option 'jokers'"),
    ("bad option value", mutate(rules={"options": {"rounding": "up"}}), "bad value 'up' for rounding"),
    ("bad players", mutate(rules={"players": 6}), "3, 4 or 5"),
    ("seed and layout", {**base(), "seed": 3}, "not both"),
    ("neither seed nor layout", mutate(hands=None, table=None), "neither"),
    ("bad card", None, "hands[0][2]: bad card 'ZZ'"),
    ("duplicate card", None, "dealt twice"),
    ("wrong hand size", None, "hand 1 has 7 cards"),
    ("wrong table size", None, "the table has 11 cards"),
    ("wrong number of hands", None, "4 hands"),
    ("bad dealer", mutate(dealer=5), "'dealer' must be a seat from 0 to 4"),
    ("bad action type", None, "move 2: unknown action type 'pass'"),
    ("bad action key", None, "move 1: unknown key 'why'"),
    ("bad action card", None, "move 3: bad card '1S'"),
    ("illegal action", None, "move 4: "),
]


def _special(name: str) -> Any:
    obj = copy.deepcopy(base())
    if name == "bad card":
        obj["hands"][0][2] = "ZZ"
    elif name == "duplicate card":
        obj["hands"][1][0] = obj["hands"][0][0]
    elif name == "wrong hand size":
        obj["table"].append(obj["hands"][1].pop())
    elif name == "wrong table size":
        obj["table"].pop()
    elif name == "wrong number of hands":
        obj["table"] += obj["hands"].pop()
    elif name == "bad action type":
        obj["actions"][1] = {"seat": 1, "type": "pass"}
    elif name == "bad action key":
        obj["actions"][0]["why"] = "because"
    elif name == "bad action card":
        obj["actions"][2]["play"] = ["1S"]
    elif name == "illegal action":
        obj["actions"].append({"seat": 0, "type": "lie_down"})
        obj["actions"].append(obj["actions"][0])
    return obj


@pytest.mark.parametrize("name,doc,words", BAD, ids=[b[0] for b in BAD])
def test_errors_are_one_line_and_name_the_problem(name: str, doc: Any, words: str) -> None:
    if doc is None:
        doc = _special(name)
    text = doc if isinstance(doc, str) else json.dumps(doc)
    with pytest.raises(RecordError) as info:
        load(text)
    message = str(info.value)
    assert words in message
    assert "\n" not in message


def test_illegal_action_names_its_index_and_reason() -> None:
    obj = base()
    obj["actions"].append({"seat": 2, "type": "capture", "play": ["9S"], "take": ["9H"]})
    with pytest.raises(RecordError) as info:
        load(json.dumps(obj))
    assert str(info.value).startswith("move 4: ")
    assert info.value.index == 3


def test_text_notation_round_trip_and_errors() -> None:
    record = Record.from_json(base())
    text = record.to_text()
    assert text.startswith('[Format "lald-text/1"]')
    assert "1: " in text
    assert Record.parse(text) == record
    commented = text.replace("\n\n", "\n\n# the play\n", 1)
    assert Record.parse(commented) == record
    with pytest.raises(RecordError, match="move 1: bad action"):
        Record.parse(text.replace(str(record.actions[0]), "1: jump"))
    with pytest.raises(RecordError, match="unknown tag 'Weather'"):
        Record.parse(text.replace("[Dealer", '[Weather "rain"]\n[Dealer'))
    with pytest.raises(RecordError, match="Format"):
        Record.parse(text.replace("lald-text/1", "lald-text/0"))


def test_seeded_record_and_pot() -> None:
    record = Record.from_json({"format": "lald-record/1", "seed": 17, "pot": -4, "dealer": 3,
                               "rules": {"players": 4, "preset": "last-capture"}})
    state = record.replay()
    assert state.pot_before == -4 and state.dealer == 3 and state.eldest == 0
    assert state.seed == 17
    assert Record.parse(record.to_text()) == record


# -- issue 10: no input breaks the record reader (Hypothesis) -------------------------------



def assert_reads_or_refuses(record: Any) -> None:
    """Either the record loads, or RecordError says why in one line; nothing else."""
    try:
        load(record)
    except RecordError as e:
        message = str(e)
        assert message and "\n" not in message and len(message) <= 320, message


@given(st.sampled_from(GOOD), st.lists(st.integers(0, 1000), max_size=6),
       json_values | st.just(DELETE))
def test_fuzz_a_good_record_with_one_part_changed(good: Any, path: list[int], value: Any) -> None:
    changed = replace(good, path, value)
    assert_reads_or_refuses(changed)
    assert_reads_or_refuses(json.dumps(changed))


@given(json_values)
def test_fuzz_arbitrary_json(value: Any) -> None:
    assert_reads_or_refuses(value)
    assert_reads_or_refuses(json.dumps(value))
    assert_reads_or_refuses({"format": "lald-record/1", "seed": 1, "actions": [value]})


@given(st.sampled_from(GOOD), st.sampled_from(WORDS), st.integers(1, 5000), BRACKETS)
def test_fuzz_deep_nesting_anywhere(good: Any, key: str, depth: int, brackets: tuple[str, str]) -> None:
    nested = deep(*brackets, depth, "1")
    assert_reads_or_refuses(json.dumps({**good, key: "HOLE"}).replace('"HOLE"', nested))
    if depth > MAX_DEPTH:
        with pytest.raises(RecordError, match="nest more than"):
            parse_json(nested)


@given(st.sampled_from(GOOD), NUMBER_KEYS, ODD_NUMBERS)
def test_fuzz_huge_and_odd_numbers(good: Any, key: str, number: str) -> None:
    assert_reads_or_refuses(with_number(good, key, number))


@given(st.binary(max_size=300) | st.sampled_from([json.dumps(g).encode() for g in GOOD]).flatmap(
    lambda good: st.tuples(st.integers(0, len(good)), st.binary(min_size=1, max_size=4)).map(
        lambda cut: good[:cut[0]] + cut[1] + good[cut[0]:])))
def test_fuzz_bytes(data: bytes) -> None:
    assert_reads_or_refuses(data)


@given(st.lists(TEXT_LINES, max_size=12), st.booleans())
def test_fuzz_the_text_notation(lines: list[str], with_format: bool) -> None:
    head = ['[Format "lald-text/1"]'] if with_format else []
    assert_reads_or_refuses("\n".join(head + lines))


def test_a_record_over_the_limit_is_refused_unread() -> None:
    padded = '{"format": "lald-record/1", "seed": 2' + " " * MAX_RECORD_BYTES + "}"
    with pytest.raises(RecordError, match="over 1,048,576 characters"):
        load(padded)
    with pytest.raises(RecordError, match="over 1,048,576 bytes"):
        load(padded.encode())


# -- issue 30, item 14: the seats' names, an optional field --------------------------------------


def test_the_seats_names_are_kept_in_both_forms_and_are_optional() -> None:
    state = State.deal(Rules.make(players=3), seed=4)
    state.apply(state.turn_actions()[0])
    named = Record.from_state(state, names=["Zoe", "Ben", "Cis"])
    assert named.to_json()["names"] == ["Zoe", "Ben", "Cis"]
    assert Record.parse(named.dumps()) == Record.parse(named.to_text()) == named
    assert '[Name0 "Zoe"]' in named.to_text() and '[Name2 "Cis"]' in named.to_text()
    unnamed = Record.from_state(state)  # a record without names is as good as ever
    assert "names" not in unnamed.to_json() and "Name0" not in unnamed.to_text()
    assert Record.parse(unnamed.dumps()).names is None


def test_a_name_is_made_one_a_record_keeps_when_written() -> None:
    state = State.deal(Rules.make(players=3), seed=4)
    record = Record.from_state(state, names=['Zo"e', "  #1 fan ", "x" * 60 + "\n"])
    assert record.names == ("Zo e", "1 fan", "x" * 40)
    assert Record.from_state(state, names=["", "\t", "B"]).names == ("Seat 0", "Seat 1", "B")
    assert Record.parse(record.to_text()) == record


@pytest.mark.parametrize(("names", "words"), [
    (["Zoe", "Ben"], "'names' has 2 names for 3 seats"),
    ("Zoe", "'names' must be a list"),
    (["Zoe", 7, "Cis"], "'names' must be a list"),
    (["Zoe", "", "Cis"], "the name of seat 1"),
    (["Zoe", "Ben ", "Cis"], "no space at either end"),
    (["Zoe", 'B"n', "Cis"], "the name of seat 1"),
    (["Zoe", "Ben", "C\x00s"], "the name of seat 2"),
    (["Zoe", "Ben", "C" * 41], "1 to 40 printable characters"),
])
def test_bad_names_are_refused_in_one_line(names: Any, words: str) -> None:
    doc = {"format": "lald-record/1", "seed": 4, "rules": {"players": 3}, "names": names}
    with pytest.raises(RecordError) as info:
        Record.parse(json.dumps(doc))
    assert words in str(info.value) and "\n" not in str(info.value)


def test_the_text_notation_needs_a_name_for_every_seat_or_none() -> None:
    text = Record.from_state(State.deal(Rules.make(players=3), seed=4), names=["A", "B", "C"]).to_text()
    with pytest.raises(RecordError, match="Name0 to Name2"):
        Record.parse(text.replace('[Name1 "B"]\n', ""))
    with pytest.raises(RecordError, match="the name of seat 0"):
        Record.parse(text.replace('[Name0 "A"]', '[Name0 ""]'))
