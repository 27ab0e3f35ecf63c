"""Any policy as a bot: a callable on (observation, mask) returning an action ID.

The policy sees what the environments give a learner: the 451-number observation of
:mod:`lald.bots.learned.encoding` and the int8 legal mask, at every turn and at every claim window
its seat is polled in (``pass`` is ID 79).  :class:`PolicyBot` plays it wherever a bot of
:mod:`lald.bots` plays: in ``lald tournament`` as the plug-in level ``policy``
(``--bot policy:file=agent.py``), and as a named level of every menu, the web table's
included, when ``LALD_POLICIES=NAME=FILE`` is set (``LALD_POLICIES=mine=agent.py lald serve``).

A policy file is either a Python file defining ``policy(observation, mask)`` (or
``make_policy()`` returning such a callable), or a pickle of such a callable (``.pkl``,
``.pickle``; load only pickles you made).

>>> import random, numpy as np
>>> from lald.core import Rules
>>> first_legal = lambda observation, mask: int(np.flatnonzero(mask)[0])
>>> bot = PolicyBot(0, Rules.make(), random.Random(0), policy=first_legal)
>>> from lald.play.loop import play_deal
>>> from lald.core import State
>>> from lald.bots import make_bot
>>> bots = [bot] + [make_bot("random", s, Rules.make(), random.Random(s)) for s in range(1, 5)]
>>> play_deal(State.deal(Rules.make(), seed=2), bots).over, bot.illegal_choices
(True, 0)
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ...core import Action, Claim, PlayerView, Rules
from .. import Bot
from .encoding import ACTION_NAMES, PASS, Deciding, Mask, Observation, legal_ids, mask_of, observe_view

Policy = Callable[[Observation, Mask], Any]

_LOADED: dict[tuple[str, float], Policy] = {}


def load_policy(path: str | os.PathLike[str]) -> Policy:
    """The policy saved in ``path`` (a ``.py`` file or a pickle), loaded once per version
    of the file; a ValueError in words if it cannot be."""
    file = Path(path).expanduser().resolve()
    try:
        key = (str(file), file.stat().st_mtime)
    except OSError as e:
        raise ValueError(f"cannot read the policy file {path}: {e.strerror}") from None
    if key in _LOADED:
        return _LOADED[key]
    if file.suffix == ".py":
        spec = importlib.util.spec_from_file_location(f"lald_policy_{abs(hash(key))}", file)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as e:
            raise ValueError(f"the policy file {path} failed to load: {type(e).__name__}: {e}") from None
        if callable(getattr(module, "policy", None)):
            found: Any = module.policy
        elif callable(getattr(module, "make_policy", None)):
            found = module.make_policy()
        else:
            raise ValueError(f"the policy file {path} defines neither "
                             "policy(observation, mask) nor make_policy()")
    elif file.suffix in (".pkl", ".pickle"):
        try:
            with file.open("rb") as f:
                found = pickle.load(f)
        except Exception as e:
            raise ValueError(f"the policy file {path} is not a readable pickle: "
                             f"{type(e).__name__}: {e}") from None
    else:
        raise ValueError(f"the policy file {path}: give a .py file or a pickle (.pkl, .pickle)")
    if not callable(found):
        raise ValueError(f"the policy in {path} is not callable")
    _LOADED[key] = found
    return found  # type: ignore[no-any-return]


class RandomPolicy:
    """A uniformly random legal ID: the simplest policy, and a picklable example.

    >>> import numpy as np
    >>> RandomPolicy(seed=1)(np.zeros(451, np.float32), np.array([0, 1, 1], np.int8)) in (1, 2)
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, observation: Observation, mask: Mask) -> int:
        return self.rng.choice([i for i, m in enumerate(mask) if m])


class PolicyBot(Bot):
    """A bot that asks ``policy`` (or the one saved in ``file``) for an action ID. An ID
    that is not legal is replaced by a uniformly random legal one and counted in
    ``illegal_choices`` (so a tournament goes on; check the count)."""

    name = "policy"
    version = "1"

    def __init__(self, seat: int, rules: Rules, rng: random.Random, file: str | None = None,
                 policy: Policy | None = None) -> None:
        super().__init__(seat, rules, rng)
        if (file is None) == (policy is None):
            raise ValueError("give the policy level a file: policy:file=PATH")
        self.policy: Policy = policy if policy is not None else load_policy(file)  # type: ignore[arg-type]
        self.illegal_choices = 0

    def _ask(self, view: PlayerView, deciding: Deciding, ids: dict[int, Any]) -> Any:
        observation = observe_view(view, deciding)
        choice = self.policy(observation, mask_of(ids))
        try:
            key = int(choice)
        except (TypeError, ValueError):
            key = -1
        if key not in ids:
            self.illegal_choices += 1
            key = self.rng.choice(sorted(ids))
        return ids[key]

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The policy's turn action."""
        table = sum(1 << c for c in view.table)
        action: Action = self._ask(view, "turn", legal_ids(list(legal), table))
        return action

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """The policy's answer to the claim window: a claim, or None for ``pass``."""
        table = sum(1 << c for c in view.table)
        ids: dict[int, Action | None] = dict(legal_ids(list(claims), table))
        ids[PASS] = None
        choice = self._ask(view, "claim", ids)
        assert choice is None or isinstance(choice, Claim)
        return choice


__all__ = ["ACTION_NAMES", "Policy", "PolicyBot", "RandomPolicy", "load_policy"]
