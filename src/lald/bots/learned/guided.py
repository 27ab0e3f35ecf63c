"""The ``guided`` level: the expert's search with the learned network's values beside it.

:class:`GuidedBot` is the ``expert`` (:mod:`lald.bots.expert`: determinized search, the
heuristic playing every seat on in each drawn world) that also reads the shipped network
of the ``learned`` level (:mod:`lald.bots.learned.network`, numpy) at each decision, in one or more
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
- ``weigh=T`` (off by default): each drawn world is weighed by how likely the other
  seats' turn captures so far are in it if they played as the network does, each a
  softmax of the network's values of the captures open to that seat then (in that world's
  hand) at temperature ``T`` chips (the Skat programs' learned inference). The public
  history is replayed once a decision (:mod:`lald.bots.learned.worlds`) for the others'
  observations then; a world only changes the capturing seat's hand in them.

Its budget is the expert's (``time_limit``, ``worlds``; every expert parameter is taken),
and the network's forward pass (a fraction of a millisecond) is inside it. ``file=PATH``
reads other weights than the preset's shipped network.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from ...core import Action, Capture, Claim, PlayerView, Rules, State, cards_of
from ...core.cards import NUM_CARDS, NUM_RANKS, mask_of
from ...core.codes import choose_action, code_of, counts
from ..expert import PASS as SEARCH_PASS
from ..expert import ExpertBot, capture_kinds
from ..knowledge import Knowledge, fill, read
from .encoding import (
    LAYOUT,
    NUM_ACTIONS,
    OBS_SIZE,
    PASS,
    Deciding,
    Observation,
    action_id,
    observe,
    observe_view,
)
from .network import (
    KIND_COUNT,
    STATE_SIZE,
    QNetwork,
    action_features,
    load_network,
    one_blas_thread,
    shipped_file,
    state_features,
)
from .worlds import world_from_view

_HAND = LAYOUT["hand"].start
_WON = LAYOUT["won_seen"].start


class GuidedBot(ExpertBot):
    """The expert with the learned network as the move to beat (``default=net``), a
    pruner (``top=N``) or a prior worth ``blend=K`` worlds (see the module's text)."""

    name = "guided"
    version = "1"

    def __init__(self, seat: int, rules: Rules, rng: random.Random, file: str | None = None,
                 network: QNetwork | None = None, default: str = "net", top: int | str = 0,
                 blend: float | str = 0.0, weigh: float | str = -1.0, **expert: object) -> None:
        super().__init__(seat, rules, rng, **expert)  # type: ignore[arg-type]
        try:
            self.weigh = float(weigh)
        except ValueError:
            raise ValueError(f"guided: weigh={weigh!r} is not a temperature in chips") from None
        if self.weigh >= 0:
            self.infer = self.weigh  # the expert weighs its worlds by log_likelihood, below
        self.evidence: Evidence | None = None
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
        self.evidence = None
        if self.weigh >= 0 and k.choices:
            try:
                self.evidence = Evidence(k, self.network)
            except RuntimeError:  # no world replayed the history: the expert's own weights
                pass
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

    def log_likelihood(self, k: Knowledge, hands: list[list[int]]) -> float:
        """With ``weigh`` on: how likely the other seats' turn captures so far are in the
        world of ``hands`` under the network's play (:class:`Evidence`)."""
        if self.evidence is None:
            return super().log_likelihood(k, hands)
        return self.evidence.log_likelihood(hands, max(self.weigh, 1e-3))

    def _act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The turn move the search prefers, with the network's guidance (the expert's
        ``act`` calls it, on the path its ``kernel`` setting names); BLAS on one thread."""
        with one_blas_thread:
            return self._act_guided(view, legal)

    def _act_guided(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        table = mask_of(view.table)
        codes = list(dict.fromkeys(code_of(a, table) for a in legal))
        if len(codes) == 1:
            return legal[0]
        k = read(view)
        habit = self.policy.turn(k.world(fill(k)), codes, k.outside())
        ids = [action_id(choose_action(c, legal, table), table) for c in codes]
        return choose_action(self._guided(k, codes, ids, True, habit, "turn"), legal, table)

    def _claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """Claim now or let pass, as the guided search prefers (``claims=own``: only on its
        own turn, as the heuristic claims otherwise; called as :meth:`_act` is)."""
        with one_blas_thread:
            return self._claim_guided(view, claims)

    def _claim_guided(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
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


class Evidence:
    """The other seats' turn captures so far, each as the capturing seat's observation
    then less its hand (the public history replayed once, in one world the seat cannot
    tell from the true deal), to be completed with a world's hand and scored by the
    network.

    A world changes only the capturing seat's hand in each of these observations, and the
    network's first layer is linear in the observation (:func:`~lald.bots.learned.network.state_features`
    adds per-rank sums), so each capture's first layer is computed once, a world adding
    one row of weights per card it puts in that hand; and a capture's share of the
    likelihood depends only on the capturing seat's hand in the world, so it is computed
    once per such hand in a decision (:attr:`seen_hands`)."""

    def __init__(self, k: Knowledge, network: QNetwork) -> None:
        self.network = network
        view = k.view
        self.kinds = capture_kinds(view.rules)
        holding = set(k.others)
        world, _ = world_from_view(view, random.Random(len(view.history)))
        replay = State.from_layout(view.rules, [cards_of(h) for h in world.dealt_hands],
                                   cards_of(world.dealt_table), view.dealer)
        seen = mask_of(view.hand) | mask_of(view.table)
        for pile in view.won_seen:
            seen |= mask_of(pile)
        #: per rank, the cards this seat has not seen: a world's hidden hands get their suits
        #: from these, lowest first (suits never matter in play)
        self.unseen = [[c for c in range(4 * r, 4 * r + 4) if not seen >> c & 1] for r in range(NUM_RANKS)]
        self.rows: list[tuple[int, Observation, int, list[int], list[int]]] = []
        for action in world.actions:
            if isinstance(action, Capture) and action.seat in holding:
                seat = action.seat
                obs = observe(replay, seat, "turn")
                obs[_HAND:_HAND + NUM_CARDS] = 0.0
                for c in cards_of(replay.won[seat] & ~seen):  # its face-down sets: ranks this seat
                    obs[_WON + c] = 0.0                     # never saw (each world has its own)
                since = replay.hands[seat] & ~world.hands[seat] & seen  # put out in plain sight
                for c in cards_of(since):
                    obs[_HAND + c] = 1.0
                self.rows.append((seat, obs, action_id(action, replay.table_mask), counts(since),
                                  counts(replay.table_mask)))
            replay.apply(action)
        #: each row's share of the log-likelihood, by the capturing seat's hand in a world
        self.seen_hands: dict[tuple[int, float, tuple[int, ...]], float] = {}
        w0, b0 = network.layers[0]
        w_state, w_action = w0[:STATE_SIZE], w0[STATE_SIZE:]
        self._feats = state_features(np.stack([row[1] for row in self.rows])) if self.rows else None
        self._base = self._feats @ w_state + b0 if self._feats is not None else None
        # A card c of rank r in the hand: its own input, the hand's count of r up a quarter
        # and the unseen count of r down a quarter (state_features's sums).
        ranks = np.arange(NUM_CARDS) // 4
        self._card = (w_state[_HAND:_HAND + NUM_CARDS] + (w_state[OBS_SIZE + ranks]
                      - w_state[OBS_SIZE + 3 * NUM_RANKS + ranks]) / 4)
        # The same for a candidate capture's own rank counts (action_features), per card of
        # its rank in the hand.
        counts_at = NUM_ACTIONS + KIND_COUNT
        self._rank_slope = (w_action[counts_at] - w_action[counts_at + 3]) / 4
        self._w_action = w_action
        self._actions: dict[tuple[int, int], np.ndarray] = {}

    def _action(self, row: int, aid: int) -> np.ndarray:
        """The first layer's share of capture ``aid`` in row ``row``'s observation as
        replayed (no hidden card in the hand)."""
        key = (row, aid)
        if key not in self._actions:
            assert self._feats is not None
            self._actions[key] = (action_features(self._feats[row], [aid]) @ self._w_action)[0]
        return self._actions[key]

    def log_likelihood(self, hands: list[list[int]], tau: float) -> float:
        """The log of the product, over the captures, of the network's softmax (at
        temperature ``tau``) of the taken capture among those open in the world of
        ``hands`` (one that was not open there counts a thousandth)."""
        ll = 0.0
        todo: list[tuple[tuple[int, float, tuple[int, ...]], int, list[int], list[int]]] = []
        for i, (seat, _, taken, since, table) in enumerate(self.rows):
            held = hands[seat]
            key = (i, tau, tuple(held))
            known = self.seen_hands.get(key)
            if known is not None:
                ll += known
                continue
            hand = [held[r] + since[r] for r in range(NUM_RANKS)]
            ids = [kind * NUM_RANKS + r for r in range(NUM_RANKS) if hand[r] and table[r]
                   for kind in self.kinds.get((hand[r], table[r]), ())]
            if taken not in ids:
                self.seen_hands[key] = -6.9
                ll -= 6.9
            elif len(ids) == 1:
                self.seen_hands[key] = 0.0
            else:
                todo.append((key, ids.index(taken), ids, held))
        if not todo:
            return ll
        assert self._base is not None
        placed = np.zeros((len(todo), NUM_CARDS), np.float32)
        for n, (_, _, _, held) in enumerate(todo):
            for r in range(NUM_RANKS):
                placed[n, self.unseen[r][:held[r]]] = 1.0
        states = self._base[[key[0] for key, *_ in todo]] + placed @ self._card
        rows = [n for n, (_, _, ids, _) in enumerate(todo) for _ in ids]
        h = states[rows] + np.stack([self._action(key[0], aid) + held[aid % NUM_RANKS] * self._rank_slope
                                     for key, _, ids, held in todo for aid in ids])
        net = self.network
        np.maximum(h, 0.0, out=h)
        for w, b in net.layers[1:-1]:
            h = h @ w + b
            np.maximum(h, 0.0, out=h)
        w, b = net.layers[-1]
        values = (h @ w + b)[:, 0] / tau
        at = 0
        for key, pick, ids, _ in todo:
            v = values[at:at + len(ids)]
            at += len(ids)
            top = float(v.max())
            share = float(v[pick]) - top - float(np.log(np.exp(v - top).sum()))
            self.seen_hands[key] = share
            ll += share
        return ll


__all__ = ["GuidedBot"]
