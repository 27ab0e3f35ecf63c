"""The network that ``examples/train_ppo.py`` trains, as a policy file for lald's
``policy`` level, in numpy (no PyTorch at the table)::

    LALD_PPO_POLICY=runs/ppo/policy.npz lald eval examples/ppo_policy.py

The weights come from the ``.npz`` file named by ``LALD_PPO_POLICY`` (by default
``runs/ppo/policy.npz``). It plays the legal action of highest probability.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np


def make_policy() -> Callable[[np.ndarray, np.ndarray], int]:
    """The policy of the saved weights."""
    path = os.environ.get("LALD_PPO_POLICY", "runs/ppo/policy.npz")
    with np.load(path) as saved:
        hidden = []
        while f"w{len(hidden)}" in saved:
            i = len(hidden)
            hidden.append((saved[f"w{i}"].astype(np.float64), saved[f"b{i}"].astype(np.float64)))
        w_out, b_out = saved["w_out"].astype(np.float64), saved["b_out"].astype(np.float64)

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        x = np.asarray(observation, dtype=np.float64)
        for w, b in hidden:
            x = np.tanh(x @ w + b)
        logits = x @ w_out + b_out
        return int(np.argmax(np.where(mask.astype(bool), logits, -np.inf)))

    return policy
