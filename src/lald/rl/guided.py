"""The ``guided`` level: the expert's search with the learned network's values beside it.

:class:`GuidedBot` is the ``expert`` (:mod:`lald.bots.expert`: determinized search, the
heuristic playing every seat on in each drawn world) that also reads the shipped network
of the ``learned`` level (:mod:`lald.rl.learned`, numpy) at each decision, in one or more
of these ways, each a spec parameter so that each can be measured by ablation:

- ``default=net`` (the default; ``heuristic`` is the expert's way): the move the search
  must clearly beat is the network's choice, not the heuristic's. The expert plays that
  move unless another's mean over the worlds beats it by more than ``prior`` standard
  errors of their paired difference; most decisions are near-ties, and there the
  network's choice is played.
- ``top=N`` (0, off, by default): only the network's ``N`` best moves (and the move to
  beat) are searched, so each gets the worlds the others would have used.
- ``blend=K`` (0, off, by default): each move's value is its mean over the searched
  worlds and the network's value, the network counting as ``K`` worlds (its values less
  their mean, so that only their differences count: the networks learn those).

Its budget is the expert's (``time_limit``, ``worlds``; every expert parameter is taken),
and the network's forward pass (a fraction of a millisecond) is inside it. ``file=PATH``
reads other weights than the preset's shipped network.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from ..bots.expert import PASS as SEARCH_PASS
from ..bots.expert import ExpertBot
from ..bots.knowledge import Knowledge, fill, read
from ..core import Action, Claim, PlayerView, Rules
from ..core.cards import mask_of
from ..core.codes import choose_action, code_of
from .encoding import PASS, Deciding, action_id, observe_view
from .learned import QNetwork, load_network, shipped_file, state_features


class GuidedBot(ExpertBot):
    """The expert with the learned network as the move to beat (``default=net``), a
    pruner (``top=N``) or a prior worth ``blend=K`` worlds (see the module's text)."""

    name = "guided"
    version = "1"

    def __init__(self, seat: int, rules: Rules, rng: random.Random, file: str | None = None,
                 network: QNetwork | None = None, default: str = "net", top: int | str = 0,
                 blend: float | str = 0.0, **expert: object) -> None:
        super().__init__(seat, rules, rng, **expert)  # type: ignore[arg-type]
        self.network = network if network is not None else load_network(file or shipped_file(rules))
        if default not in ("net", "heuristic"):
            raise ValueError(f"guided: default={default}: choose net or heuristic")
        self.net_default = default == "net"
        try:
            self.top = int(top)
            self.blend = float(blend)
        except ValueError:
            raise ValueError("guided: top must be a whole number of moves, blend a number") from None
        if self.top < 0 or self.blend < 0:
            raise ValueError("guided: top and blend must be 0 (off) or more")
        self.net_values: dict[int, float] = {}

    def _values(self, view: PlayerView, deciding: Deciding, ids: Sequence[int]) -> list[float]:
        values = self.network.values(state_features(observe_view(view, deciding)), list(ids))
        return [float(v) for v in values]

    def _guided(self, k: Knowledge, codes: list[int], ids: list[int], acting: bool, habit: int,
                deciding: Deciding) -> int:
        """The code to play among ``codes`` (their network IDs ``ids``); ``habit`` is the
        heuristic's."""
        values = self._values(k.view, deciding, ids)
        mean = sum(values) / len(values)
        self.net_values = {c: v - mean for c, v in zip(codes, values, strict=True)}
        default = codes[int(np.argmax(values))] if self.net_default else habit
        if self.top and len(codes) > self.top:
            ranked = sorted(codes, key=lambda c: -self.net_values[c])[:self.top]
            codes = [c for c in codes if c in ranked or c == default]
            if len(codes) == 1:
                return codes[0]
        return self.choose(k, codes, acting, default)

    def search(self, k: Knowledge, codes: list[int],
               acting: bool) -> tuple[list[float], list[list[float]], bool]:
        """The expert's means over the worlds, each moved towards the network's value when
        ``blend`` is on (the network counting as ``blend`` worlds)."""
        means, values, exact = super().search(k, codes, acting)
        if self.blend and self.net_values and not exact:
            n = sum(self.weights) / max(self.weights) if self.weights else 0.0
            centre = sum(means) / len(means)
            means = [(n * m + self.blend * (centre + self.net_values.get(c, 0.0))) / (n + self.blend)
                     for c, m in zip(codes, means, strict=True)]
        return means, values, exact

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The turn move the search prefers, with the network's guidance."""
        table = mask_of(view.table)
        codes = list(dict.fromkeys(code_of(a, table) for a in legal))
        if len(codes) == 1:
            return legal[0]
        k = read(view)
        habit = self.policy.turn(k.world(fill(k)), codes, k.outside())
        ids = [action_id(choose_action(c, legal, table), table) for c in codes]
        return choose_action(self._guided(k, codes, ids, True, habit, "turn"), legal, table)

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """Claim now or let pass, as the guided search prefers (``claims=own``: only on its
        own turn, as the heuristic claims otherwise)."""
        k = read(view)
        table = mask_of(view.table)
        codes = list(dict.fromkeys(code_of(a, table) for a in claims))
        habit = self.policy.claim(k.world(fill(k)), self.seat, codes)
        if self.search_claims == "own" and (view.to_move != self.seat or view.foreplay):
            code = habit
        else:
            ids = [action_id(choose_action(c, claims, table), table) for c in codes] + [PASS]
            code = self._guided(k, [*codes, SEARCH_PASS], ids, False,
                                SEARCH_PASS if habit is None else habit, "claim")
            code = None if code == SEARCH_PASS else code
        return None if code is None else choose_action(code, claims, table)  # type: ignore[return-value]


__all__ = ["GuidedBot"]
