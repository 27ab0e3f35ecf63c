"""The reference learner of docs/research.md: ``examples/train_ppo.py`` trains MaskablePPO
on the compiled tables, writes its curve and weights, and ``examples/ppo_policy.py`` plays
the weights in numpy as the ``policy`` level, the network's own choices, only legal ones."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from lald.bots import make_bot  # noqa: E402
from lald.bots.learned.policy import PolicyBot, load_policy  # noqa: E402
from lald.core import Rules, State  # noqa: E402
from lald.play.loop import play_deal  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_short_run_writes_its_curve_and_numpy_weights_that_play_as_the_network_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import torch
    from sb3_contrib import MaskablePPO

    out = tmp_path / "ppo"
    _example("train_ppo").main(["--steps", "2048", "--tables", "8", "--chunk", "1024", "--seed", "3",
                                "--out", str(out)])
    run = json.loads((out / "run.json").read_text())
    assert run["steps"] == 2048 and run["seed"] == 3
    curve = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert {c["preset"] for c in curve} == {"survivor", "last-capture"}
    assert (out / "curve.png").stat().st_size > 0

    monkeypatch.setenv("LALD_PPO_POLICY", str(out / "policy.npz"))
    policy = load_policy(EXAMPLES / "ppo_policy.py")
    model = MaskablePPO.load(out / "model.zip", device="cpu")
    rng = np.random.default_rng(0)
    for _ in range(20):  # numpy's choice is the network's most probable legal action
        obs = rng.random(451).astype(np.float32)
        mask = rng.random(80) < 0.3
        mask[79] = True
        with torch.no_grad():
            logits = model.policy.get_distribution(torch.as_tensor(obs[None])).distribution.logits[0].numpy()
        assert policy(obs, mask) == int(np.argmax(np.where(mask, logits, -np.inf)))

    rules = Rules.make("last-capture")
    bot = PolicyBot(0, rules, random.Random(0), policy=policy)
    bots = [bot] + [make_bot("greedy", s, rules, random.Random(s)) for s in range(1, 5)]
    for seed in range(4):
        assert play_deal(State.deal(rules, seed), bots).over
    assert bot.illegal_choices == 0
