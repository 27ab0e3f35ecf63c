"""Any policy on (observation, mask) is a bot: from a file or a pickle, in lald
tournament, and as a named level of the menus (the web table's included); and nothing
outside lald.rl imports it."""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from lald.bots import make_bot
from lald.bots.learned.encoding import OBS_SIZE
from lald.bots.learned.policy import PolicyBot, RandomPolicy, load_policy
from lald.core import Rules, State
from lald.play.loop import play_deal
from lald.play.spec import parse_spec

SRC = Path(__file__).resolve().parents[3] / "src" / "lald"

LAST_LEGAL = """
import numpy as np

seen = []

def policy(observation, mask):
    seen.append((observation.shape, mask.dtype.name))
    return int(np.flatnonzero(mask)[-1])
"""


def _play(bot: PolicyBot, rules: Rules, seed: int) -> State:
    bots = [bot] + [make_bot("heuristic", s, rules, random.Random(s)) for s in range(1, rules.players)]
    return play_deal(State.deal(rules, seed), bots)


def test_a_policy_file_plays_as_a_level(tmp_path: Path) -> None:
    path = tmp_path / "agent.py"
    path.write_text(LAST_LEGAL, encoding="utf-8")
    rules = Rules.make("last-capture", 4)
    bot = parse_spec(f"policy:file={path}").make(0, rules, random.Random(0))
    assert isinstance(bot, PolicyBot)
    state = _play(bot, rules, 3)
    assert state.over and bot.illegal_choices == 0
    seen = bot.policy.__globals__["seen"]  # type: ignore[attr-defined]
    assert seen and set(seen) == {((OBS_SIZE,), "int8")}


def test_a_pickled_policy_loads_by_file(tmp_path: Path) -> None:
    path = tmp_path / "agent.pkl"
    path.write_bytes(pickle.dumps(RandomPolicy(seed=4)))
    policy = load_policy(path)
    assert isinstance(policy, RandomPolicy)
    assert load_policy(path) is policy  # loaded once per version of the file
    state = _play(PolicyBot(0, Rules.make(), random.Random(0), file=str(path)), Rules.make(), 5)
    assert state.over


def test_an_illegal_choice_is_replaced_and_counted() -> None:
    bot = PolicyBot(0, Rules.make(), random.Random(0), policy=lambda obs, mask: 1000)
    state = _play(bot, Rules.make(), 1)
    assert state.over and bot.illegal_choices > 0


@pytest.mark.parametrize(("text", "message"), [
    ("x = 1\n", "defines neither"),
    ("raise RuntimeError('boom')\n", "failed to load: RuntimeError: boom"),
    ("policy = 3\n", "defines neither"),
])
def test_a_bad_policy_file_is_refused_in_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.py"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message) as e:
        parse_spec(f"policy:file={path}")
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match="give a .py file or a pickle"):
        load_policy(tmp_path)
    (tmp_path / "garbage.pkl").write_bytes(b"not a pickle")
    with pytest.raises(ValueError, match="not a readable pickle"):
        load_policy(tmp_path / "garbage.pkl")


def test_a_policy_plays_in_lald_tournament(tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(LAST_LEGAL, encoding="utf-8")
    out = tmp_path / "t"
    done = subprocess.run(
        [sys.executable, "-m", "lald", "tournament", "--players", "3", "--bot", f"policy:file={agent}",
         "--bots", "random", "--deals", "2", "--jobs", "1", "--out", str(out), "--quiet"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert any(str(agent) in json.dumps(row) for row in results["bots"])
    mine = next(row for row in results["bots"] if str(agent) in json.dumps(row))
    assert not mine["fallbacks"]  # a legal policy falls back nowhere


def test_a_policy_that_is_never_legal_is_said_in_the_tournament(tmp_path: Path) -> None:
    """Seen before: a policy answering 200 every time played on as a random bot, its
    fallbacks column 0 and nothing said."""
    agent = tmp_path / "bad.py"
    agent.write_text("def policy(observation, mask):\n    return 200\n", encoding="utf-8")
    out = tmp_path / "t"
    done = subprocess.run(
        [sys.executable, "-m", "lald", "tournament", "--players", "3", "--bot", f"policy:file={agent}",
         "--bots", "random", "--deals", "2", "--jobs", "1", "--out", str(out)],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    mine = next(row for row in results["bots"] if str(agent) in json.dumps(row))
    assert mine["fallbacks"].get("illegal", 0) == 2 * 3  # every seat-deal it played
    assert "fell back to random" in done.stdout


def test_named_policies_are_levels_of_the_menus_and_the_web_table(tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(LAST_LEGAL, encoding="utf-8")
    code = (
        "import random\n"
        "from lald.bots import LEVELS, MENU_LEVELS, make_bot\n"
        "from lald.web.table.create import levels\n"
        "from lald.core import Rules, State\n"
        "from lald.play.loop import play_deal\n"
        "assert 'mine' in LEVELS and 'mine' in MENU_LEVELS and 'mine' in levels(), levels()\n"
        "assert 'policy' not in levels() and 'ismcts' not in levels()\n"
        "rules = Rules.make(players=3)\n"
        "bots = [make_bot('mine', s, rules, random.Random(s)) for s in range(3)]\n"
        "print(play_deal(State.deal(rules, 1), bots).over, type(bots[0]).__name__)\n")
    env = {**os.environ, "LALD_POLICIES": f"mine={agent}"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "PolicyBot"]


def test_nothing_outside_lald_rl_imports_it() -> None:
    assert (SRC / "rl" / "__init__.py").exists(), SRC  # the sources are where this reads them
    for path in SRC.rglob("*.py"):
        if "rl" in path.relative_to(SRC).parts[:1]:
            continue
        text = path.read_text(encoding="utf-8")
        for line in text.splitlines():
            stripped = line.strip()
            if stripped.startswith(("import ", "from ")):
                assert "lald.rl" not in stripped and "..rl" not in stripped and not stripped.startswith(
                    "from .rl"), f"{path}: {stripped}"
    code = ("import sys, lald.cli, lald.bots, lald.play.spec\n"
            "lald.cli.build_parser()\n"
            "names = ('lald.rl', 'pyspiel', 'pettingzoo', 'gymnasium')\n"
            "heavy = [m for m in sys.modules if m.startswith(names)]\n"
            "print(heavy)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_random_policy_only_chooses_legal_ids() -> None:
    policy = RandomPolicy(seed=0)
    mask = np.zeros(80, np.int8)
    mask[[3, 79]] = 1
    assert {policy(np.zeros(OBS_SIZE, np.float32), mask) for _ in range(50)} == {3, 79}


def test_an_unknown_bot_is_told_every_level_that_plays_plug_ins_included() -> None:
    """Seen before: the refusal listed the menus' levels only, not ismcts nor policy, which
    play (the research extra installs them)."""
    from lald.play.spec import parse_spec

    with pytest.raises(ValueError, match="ismcts.*policy:file=PATH.*or cmd:COMMAND"):
        parse_spec("nonsense")
