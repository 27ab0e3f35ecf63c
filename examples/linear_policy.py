"""The linear policy that ``examples/train_pg.py`` trains, as a policy file for lald's
``policy`` level: ``--bot policy:file=examples/linear_policy.py`` in ``lald tournament``.

The weights come from the ``.npz`` file named by ``LALD_LINEAR_POLICY`` (by default
``linear_policy.npz`` in the current directory). It plays the most probable legal action.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np


def make_policy() -> Callable[[np.ndarray, np.ndarray], int]:
    """The policy of the saved weights."""
    path = os.environ.get("LALD_LINEAR_POLICY", "linear_policy.npz")
    with np.load(path) as saved:
        w, b = saved["w"], saved["b"]

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        logits = np.asarray(observation, dtype=np.float64) @ w + b
        return int(np.argmax(np.where(mask.astype(bool), logits, -np.inf)))

    return policy
