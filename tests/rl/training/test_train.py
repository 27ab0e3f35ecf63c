"""``lald train``: a few rounds run, a checkpoint resumes to the same weights (whatever
the number of actor processes), the saved network is the one the numpy level plays."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from lald.bots.learned.network import QNetwork, action_features, state_features  # noqa: E402
from lald.cli import main  # noqa: E402
from lald.core import Rules, State  # noqa: E402
from lald.rl.training.selfplay import ActorTask, play  # noqa: E402
from lald.rl.training.train import Config, TorchQ, Trainer, numpy_network, train  # noqa: E402

SMALL = Config(hidden=(32, 16), batch=64, deals_per_round=12, shards=3, warm_rounds=1, eval_every=2,
               eval_deals=4)


def _weights(trainer: Trainer) -> list[np.ndarray]:
    return [p.detach().numpy().copy() for p in trainer.model.parameters()]


def test_a_few_rounds_train_and_write_the_run(tmp_path: Path) -> None:
    before = [p.detach().clone() for p in TorchQ(SMALL.hidden).parameters()]
    trainer = train(tmp_path, SMALL, rounds=2)
    after = list(trainer.model.parameters())
    assert any(not torch.equal(a, b) for a, b in zip(before, after, strict=True))
    assert trainer.round == 2 and trainer.deals == 24 and trainer.samples > 24
    curve = [json.loads(line) for line in (tmp_path / "curve.jsonl").read_text().splitlines()]
    assert [p["round"] for p in curve] == [2] and curve[0]["ci"] > 0
    network = QNetwork.load(tmp_path / "final.npz")
    assert network.meta["round"] == 2 and network.meta["curve"] == curve
    assert (tmp_path / "round-2.npz").exists()


def test_a_resumed_run_ends_with_the_same_weights(tmp_path: Path) -> None:
    straight = train(tmp_path / "straight", SMALL, rounds=3)
    train(tmp_path / "resumed", SMALL, rounds=1)
    resumed = train(tmp_path / "resumed", SMALL, rounds=3, actors=1)  # a worker process this time
    assert resumed.round == 3
    for a, b in zip(_weights(straight), _weights(resumed), strict=True):
        assert np.array_equal(a, b)
    assert [p["diff"] for p in straight.curve] == [p["diff"] for p in resumed.curve]


def test_another_run_in_the_same_directory_is_refused(tmp_path: Path) -> None:
    train(tmp_path, SMALL, rounds=1)
    with pytest.raises(ValueError, match="another training run"):
        Trainer(tmp_path, Config(hidden=(8,)))


def test_the_command_trains_and_refuses_bad_settings(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    main(["train", "--out", str(out), "--rounds", "2", "--hidden", "16", "--deals-per-round", "6",
          "--warm-rounds", "1", "--eval-every", "2", "--eval-deals", "2", "--quiet"])
    printed = capsys.readouterr().out
    assert "learned − heuristic" in printed and str(out / "final.npz") in printed
    assert (out / "curve.png").stat().st_size > 1000
    with pytest.raises(SystemExit):
        main(["train", "--out", str(out), "--hidden", "16,x"])
    assert "--hidden 16,x" in capsys.readouterr().err


def test_a_run_starts_from_saved_weights_of_its_shape(tmp_path: Path) -> None:
    import dataclasses

    first = train(tmp_path / "first", SMALL, rounds=1).final()
    config = dataclasses.replace(SMALL, seed=2, init=str(tmp_path / "first" / "final.npz"))
    start = Trainer(tmp_path / "second", config)
    for (w, b), (w2, b2) in zip(first.layers, start.model.layers(), strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    start.close()
    with pytest.raises(ValueError, match="hidden layers 32,16, not 8"):
        Trainer(tmp_path / "third", dataclasses.replace(config, hidden=(8,)))
    with pytest.raises(SystemExit):
        main(["train", "--out", str(tmp_path / "fourth"), "--init", str(tmp_path / "none.npz")])


def test_numpy_gives_the_values_pytorch_gives(tmp_path: Path) -> None:
    torch.manual_seed(3)
    model = TorchQ((64, 32, 16))
    network = numpy_network(model)
    network.save(tmp_path / "net.npz")
    loaded = QNetwork.load(tmp_path / "net.npz")
    batch = play(ActorTask(Rules.make(), 5, 6, 0.3, 0.5), network)
    assert len(batch.targets) > 50
    with torch.no_grad():
        expected = model(torch.from_numpy(batch.states), torch.from_numpy(batch.actions)).numpy()
    ids = batch.actions[:, :80].argmax(1)
    got = np.array([loaded.values(s, [i])[0] for s, i in zip(batch.states, ids, strict=True)])
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_the_shipped_weights_give_the_values_pytorch_gives() -> None:
    """The shipped networks, loaded into PyTorch, agree with numpy on the recorded
    positions (tests/bots/learned/data/positions.npz)."""
    from lald.bots.learned.network import WEIGHTS_DIR

    data = np.load(Path(__file__).parents[2] / "bots" / "learned" / "data" / "positions.npz")
    for preset in ("survivor", "last-capture"):
        network = QNetwork.load(WEIGHTS_DIR / f"{preset}-5.npz")
        model = TorchQ([w.shape[1] for w, _ in network.layers[:-1]])
        linears = [m for m in model.net if isinstance(m, torch.nn.Linear)]
        with torch.no_grad():
            for m, (w, b) in zip(linears, network.layers, strict=True):
                m.weight.copy_(torch.from_numpy(w.T))
                m.bias.copy_(torch.from_numpy(b))
        states = data["states"]
        ids = data["ids"]
        actions = np.stack([action_features(s, [i])[0] for s, i in zip(states, ids, strict=True)])
        with torch.no_grad():
            expected = model(torch.from_numpy(states), torch.from_numpy(actions)).numpy()
        got = np.array([network.values(s, [i])[0] for s, i in zip(states, ids, strict=True)])
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_state_features_count_the_ranks() -> None:
    from lald.bots.learned.encoding import observe

    state = State.deal(Rules.make(), seed=2)
    obs = observe(state, 0, "turn")
    feats = state_features(obs)
    hand = feats[451:464] * 4
    assert hand.sum() == len(state.view(0).hand)
    assert np.allclose(feats[451:503].reshape(4, 13).sum(0) * 4, 4.0)
