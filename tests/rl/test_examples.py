"""The training example of docs/research.md: ``examples/train_pg.py`` learns (its weights
move and its seat's policy is no longer uniform), and ``examples/linear_policy.py`` plays
what it saved as the ``policy`` level, choosing only legal actions."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from lald.bots import make_bot
from lald.bots.learned.policy import PolicyBot, load_policy
from lald.core import Rules, State
from lald.play.loop import play_deal

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_masked_softmax_gives_no_weight_to_an_illegal_action() -> None:
    train = _example("train_pg")
    mask = np.zeros(80, bool)
    mask[[3, 79]] = True
    p = train.masked_softmax(np.arange(80.0), mask)
    assert p.sum() == pytest.approx(1.0) and set(np.flatnonzero(p)) == {3, 79} and p[79] > p[3]


def test_training_moves_the_weights_and_the_saved_policy_plays_legally(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    train = _example("train_pg")
    w, b, curve = train.train(episodes=60, seed=3, lr=0.01, preset="survivor", players=5, report=20)
    assert w.shape == (451, 80) and np.abs(w).sum() > 0 and len(curve) == 3
    saved = tmp_path / "weights.npz"
    np.savez(saved, w=w, b=b)
    monkeypatch.setenv("LALD_LINEAR_POLICY", str(saved))
    policy = load_policy(EXAMPLES / "linear_policy.py")
    rules = Rules.make()
    bot = PolicyBot(0, rules, random.Random(0), policy=policy)
    bots = [bot] + [make_bot("random", s, rules, random.Random(s)) for s in range(1, 5)]
    for seed in range(5):
        assert play_deal(State.deal(rules, seed), bots).over
    assert bot.illegal_choices == 0
