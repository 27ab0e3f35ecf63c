"""Bot specs: a bot named on the command line (``level:param=value:-habit``), parsed and
judged before any deal is played, its parameters handed to the level's factory."""

from __future__ import annotations

import random
from typing import Any

import pytest

from lald.bots import LEVELS, Bot
from lald.core import Rules
from lald.play.spec import BotSpec, parse_spec, parse_specs


def test_spec_parsing() -> None:
    assert parse_spec(" random ").text == "random"
    assert parse_spec("cmd:  sh -c 'exit 0' ") == BotSpec("cmd:sh -c 'exit 0'", "cmd", (), "sh -c 'exit 0'")
    with pytest.raises(ValueError, match="unknown bot 'nope'"):
        parse_spec("nope")
    with pytest.raises(ValueError, match="bad parameter"):
        parse_spec("random:?x")
    with pytest.raises(ValueError, match="takes no habits"):
        parse_spec("random:-deny")
    with pytest.raises(ValueError, match="takes no parameter 'depth'"):
        parse_spec("random:depth=3")
    with pytest.raises(ValueError, match="not found"):
        parse_spec("cmd:no-such-program-lald --x")
    with pytest.raises(ValueError, match="empty"):
        parse_spec("cmd:")
    names = [s.name for s in parse_specs(["cmd:sh -c 'a,b'"], ["random,random"])]
    assert names == ["random#1", "random#2", "cmd:sh -c 'a,b'"]


def test_spec_parameters_reach_the_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    got: dict[str, Any] = {}

    def factory(seat: int, rules: Rules, rng: random.Random, off: frozenset[str] = frozenset(),
                on: frozenset[str] = frozenset(), depth: str = "1") -> Bot:
        got.update(off=off, on=on, depth=depth)
        return Bot(seat, rules, rng)

    monkeypatch.setitem(LEVELS, "tunable", factory)
    spec = parse_spec("tunable:-deny:+keep:depth=3:-grab")
    assert spec.text == "tunable:-deny:+keep:depth=3:-grab"
    spec.make(0, Rules.make(), random.Random(1))
    assert got == {"off": frozenset({"deny", "grab"}), "on": frozenset({"keep"}), "depth": "3"}


def test_a_level_judges_its_parameters_when_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    def picky(seat: int, rules: Rules, rng: random.Random, off: frozenset[str] = frozenset()) -> Bot:
        if off - {"deny"}:
            raise ValueError(f"unknown habit {sorted(off - {'deny'})[0]!r}")
        return Bot(seat, rules, rng)

    monkeypatch.setitem(LEVELS, "picky", picky)
    assert parse_spec("picky:-deny").params == (("-", "deny"),)
    with pytest.raises(ValueError, match="bot 'picky:-dny': unknown habit 'dny'"):
        parse_spec("picky:-dny")
