"""Every number option has a range, and a value of the wrong kind (from JSON, say) is a
:class:`RulesError` with one sentence, never another exception: the command line,
records and the server share these refusals."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lald.core import Rules, RulesError
from lald.core.rules import OPTION_NAMES, RANGES

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)


def test_the_ranges_a_person_could_want() -> None:
    assert RANGES == {"prize": (0, 100), "ante_dealer": (0, 100), "ante_other": (0, 100),
                      "deals": (1, 50), "max_tie_cycles": (0, 10)}
    for name, (low, high) in RANGES.items():
        assert getattr(Rules.make(options={name: low}), name) == low
        assert getattr(Rules.make(options={name: str(high)}), name) == high
        for bad in (low - 1, high + 1, 10**30, str(high + 1)):
            with pytest.raises(RulesError) as info:
                Rules.make(options={name: bad})
            assert str(info.value).endswith(f"for {name}: choose a whole number from {low} to {high}")


@pytest.mark.parametrize("options", [
    {"deals": 100_000_000}, {"prize": 10**30}, {"ante_dealer": 10**30}, {"max_tie_cycles": 10**9},
    {"deals": "1" * 5000}, {"deals": 10**5000}, {"deals": "²"}, {"prize": 2.0}, {"prize": True},
])
def test_values_seen_accepted_before_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as info:
        Rules.make(options=options)
    message = str(info.value)
    assert "\n" not in message and len(message) < 120


@pytest.mark.parametrize("kwargs", [
    {"preset": []}, {"preset": {}}, {"preset": None}, {"players": 5.0}, {"players": True},
    {"players": "5"}, {"players": [5]}, {"variants": [[]]}, {"variants": "silent"},
    {"variants": 3}, {"variants": {"silent": 1}}, {"options": []}, {"options": "prize=7"},
    {"options": {"scoring": []}}, {"options": {"laugh": {}}}, {"options": {"x" * 10_000: 1}},
])
def test_values_of_the_wrong_kind_are_rules_errors(kwargs: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as info:
        Rules.make(**kwargs)
    message = str(info.value)
    assert "\n" not in message and len(message) < 400 and "unhashable" not in message


@settings(max_examples=300, deadline=None)
@given(preset=JSON, players=JSON, variants=JSON, options=JSON)
def test_any_json_gives_rules_or_a_rules_error(preset: Any, players: Any, variants: Any,
                                                options: Any) -> None:
    try:
        rules = Rules.make(preset, players, variants, options)
    except RulesError as e:
        assert "\n" not in str(e)
        return
    assert rules.players in (3, 4, 5)
    for name, (low, high) in RANGES.items():
        assert low <= getattr(rules, name) <= high


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(OPTION_NAMES), value=JSON)
def test_any_json_value_for_an_option(name: str, value: Any) -> None:
    try:
        rules = Rules.make(options={name: value})
    except RulesError:
        return
    assert Rules.make(**{k: v for k, v in rules.spec().items()}) == rules
