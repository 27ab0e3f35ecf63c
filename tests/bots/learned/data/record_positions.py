"""Record the positions on which numpy's inference is held to PyTorch's
(tests/bots/learned/test_network.py, tests/rl/training/test_train.py): run again whenever the shipped
weights change (``.venv/bin/python tests/bots/learned/data/record_positions.py``; needs lald[train])."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from lald.bots.learned.network import WEIGHTS_DIR, QNetwork
from lald.core import Rules
from lald.rl.training.selfplay import ActorTask, play
from lald.rl.training.train import TorchQ

OUT = Path(__file__).with_name("positions.npz")


def torch_model(network: QNetwork) -> TorchQ:
    """``network``'s weights in the PyTorch network."""
    model = TorchQ([w.shape[1] for w, _ in network.layers[:-1]])
    linears = [m for m in model.net if isinstance(m, torch.nn.Linear)]
    with torch.no_grad():
        for m, (w, b) in zip(linears, network.layers, strict=True):
            m.weight.copy_(torch.from_numpy(w.T))
            m.bias.copy_(torch.from_numpy(b))
    return model


def main() -> None:
    arrays: dict[str, np.ndarray] = {}
    states, ids = [], []
    for preset in ("survivor", "last-capture"):
        network = QNetwork.load(WEIGHTS_DIR / f"{preset}-5.npz")
        batch = play(ActorTask(Rules.make(preset=preset), 11, 4, 0.2, 0.5), network)
        states.append(batch.states[:100])
        ids.append(batch.actions[:100, :80].argmax(1))
    arrays["states"] = np.concatenate(states)
    arrays["ids"] = np.concatenate(ids).astype(np.int64)
    from lald.bots.learned.network import action_features

    actions = np.stack([action_features(s, [i])[0]
                        for s, i in zip(arrays["states"], arrays["ids"], strict=True)])
    for preset in ("survivor", "last-capture"):
        model = torch_model(QNetwork.load(WEIGHTS_DIR / f"{preset}-5.npz"))
        with torch.no_grad():
            values = model(torch.from_numpy(arrays["states"]), torch.from_numpy(actions))
            arrays[f"torch_{preset}"] = values.numpy()
    np.savez_compressed(OUT, **arrays)
    print(f"{OUT}: {len(arrays['ids'])} positions")


if __name__ == "__main__":
    main()
