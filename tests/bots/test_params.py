"""The search bots' parameters are read once, from a spec's text or from numbers, and a value
they cannot use is refused with one line naming it (lald.bots.params)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from lald.bots.expert import ExpertBot
from lald.bots.params import ExpertParams
from lald.core import Rules
from lald.play.spec import parse_spec


def test_text_and_numbers_give_the_same_parameters() -> None:
    text = ExpertParams.parse(worlds="40", time_limit="0.5", model="off", solve="0", exact="0",
                              prior="0", infer="0.25", claims="own", rollout="plain", kernel="python")
    numbers = ExpertParams.parse(worlds=40, time_limit=0.5, model=False, solve=0, exact=0,
                                 prior=0, infer=0.25, claims="own", rollout="plain", kernel="python")
    assert text == numbers
    assert (text.worlds, text.time_limit, text.model, text.infer) == (40, 0.5, False, 0.25)
    assert ExpertParams.parse() == ExpertParams()
    assert ExpertParams.parse(time_limit="inf").time_limit == float("inf")  # no clock: worlds alone
    assert ExpertParams.parse(off=["deny"]).off == frozenset({"deny"})
    with pytest.raises(dataclasses.FrozenInstanceError):
        text.worlds = 3  # type: ignore[misc]


@pytest.mark.parametrize(("given", "message"), [
    ({"worlds": "abc"}, "worlds=abc: give a whole number of worlds, at least 1"),
    ({"worlds": 0}, "worlds=0: give a whole number of worlds, at least 1"),
    ({"worlds": True}, "worlds=True: give a whole number of worlds, at least 1"),
    ({"time_limit": "soon"}, "time_limit=soon: give a number of seconds above 0"),
    ({"time_limit": "0"}, "time_limit=0: give a number of seconds above 0"),
    ({"time_limit": "nan"}, "time_limit=nan: give a number of seconds above 0"),
    ({"model": "maybe"}, r"model=maybe: give 1 \(on\) or 0 \(off\)"),
    ({"solve": "1.5"}, r"solve=1.5: give a whole number of cards \(0: no exact solves\)"),
    ({"prior": "-1"}, r"prior=-1: give 0 \(off\) or a number of standard errors"),
    ({"infer": "nan"}, r"infer=nan: give a number \(below 0: off\)"),
    ({"rollout": "v9"}, "rollout=v9: choose heuristic, v3 or plain"),
    ({"claims": "some"}, "claims=some: choose all or own"),
    ({"kernel": "fast"}, "kernel=fast: choose compiled or python"),
    ({"off": "deny"}, "off='deny': give habit names"),
    ({"wrlds": 3}, "the expert takes no parameter 'wrlds': choose worlds, time_limit, "),
])
def test_a_value_the_expert_cannot_use_is_refused_in_one_line(given: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message) as refused:
        ExpertParams.parse(**given)
    assert "\n" not in str(refused.value)


def test_a_spec_names_the_bot_and_the_value() -> None:
    with pytest.raises(ValueError, match="^bot 'expert:worlds=many': worlds=many: give a whole number"):
        parse_spec("expert:worlds=many")
    with pytest.raises(ValueError, match="^bot 'oracle:solve=x': solve=x: give a whole number"):
        parse_spec("oracle:solve=x")
    with pytest.raises(ValueError, match="^bot 'pimc:worlds=x': worlds=x: give a whole number of worlds"):
        parse_spec("pimc:worlds=x")
    with pytest.raises(ValueError, match="^bot 'pimc:time_limit=0': time_limit=0: give a number of seconds"):
        parse_spec("pimc:time_limit=0")
    assert parse_spec("pimc:worlds=12:time_limit=inf").make(0, Rules.make(), random.Random(0)).worlds == 12


def test_the_expert_plays_from_its_parameters_given_either_way() -> None:
    rules = Rules.make()
    from_text = parse_spec("expert:worlds=7:model=0:prior=0").make(2, rules, random.Random(1))
    assert isinstance(from_text, ExpertBot)
    given = ExpertBot(2, rules, random.Random(1), ExpertParams(worlds=7, model=False, prior=0.0))
    assert from_text.params == given.params
    assert (from_text.worlds, from_text.model, from_text.prior) == (7, False, 0.0)
    with pytest.raises(TypeError, match="params or its options, not both"):
        ExpertBot(2, rules, random.Random(1), ExpertParams(), worlds=3)
