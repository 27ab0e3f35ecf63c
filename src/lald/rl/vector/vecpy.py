"""The tables of :mod:`lald.rl.vector` in pure Python: the reference and the fallback.

:class:`PyTables` keeps N deals as the adapters do, each a :class:`~lald.rl.deal.Deal` on
the engine's :class:`~lald.core.State`, observed by :func:`~lald.bots.learned.encoding.observe`:
what the PettingZoo and Gymnasium adapters do, table by table.  It has the methods of the
compiled ``lald.rl.vector._vector.Tables`` (``_vector.c``), which computes the same numbers in
C; :mod:`lald.rl.vector` plays whichever is loaded, and ``tests/rl/vector/test_vector.py`` holds
the compiled tables to these, step by step.

Every method writes into numpy arrays it is given (one row per table) and draws from each
table's own :class:`~lald.core.rng.PortableRandom`, in the order the compiled tables draw.
"""

from __future__ import annotations

from typing import Any

import numpy.typing as npt

from ...bots import Bot
from ...bots.learned.encoding import NUM_ACTIONS, PASS, Deciding, action_id, observe
from ...core import Rules, State
from ...core.rng import KeyedRandom, PortableRandom
from ..deal import Deal, deal_rewards
from .opponents import play_bot, seat_bots

MODE_ALL, MODE_SEAT = 0, 1
OPP_RANDOM, OPP_EXTERNAL, OPP_GREEDY, OPP_HEURISTIC = 0, 1, 2, 3
#: The levels of lald.bots the tables seat as opponents (:mod:`lald.rl.vector.opponents`).
LEVEL_OF = {OPP_GREEDY: "greedy", OPP_HEURISTIC: "heuristic"}
AUTO_NEXT, AUTO_SAME, AUTO_OFF = 0, 1, 2
_MASK64 = (1 << 64) - 1

Array = npt.NDArray[Any]


class _Table:
    """One table: its deal, the seed that named it, its own stream and the one-seat state."""

    __slots__ = ("deal", "seed", "rng", "bots", "learner", "started", "pending", "term", "illegal", "acc")

    def __init__(self) -> None:
        self.deal: Deal | None = None
        self.seed = 0
        self.rng = PortableRandom(0)
        self.bots: list[Bot] = []  # greedy or heuristic opponents, on ``rng``
        self.learner = 0
        self.started = self.pending = self.term = self.illegal = False
        self.acc = 0.0


class PyTables:
    """N tables of one rules (see the module's docstring; the arguments are
    ``_vector.Tables``': mode, opponents, autoreset mode, whether the learner's seat is
    drawn each episode, and the latest actions each observation shows)."""

    def __init__(self, rules: Rules, count: int, mode: int, opponents: int, autoreset: int,
                 random_seat: bool, history: int = 0) -> None:
        self.rules = rules
        self.history = history
        self.n = rules.players
        self.count = count
        self.mode, self.opponents, self.autoreset, self.random_seat = mode, opponents, autoreset, random_seat
        self.stride = count
        self.secret: bytes | None = None
        self.t = [_Table() for _ in range(count)]
        for t in self.t:
            t.pending = True

    # -- dealing ------------------------------------------------------------------------

    def _deal(self, t: _Table, seed: int, dealer: int) -> None:
        t.seed = seed
        if self.secret is None:
            t.deal = Deal(State.deal(self.rules, seed, dealer=dealer))
        else:
            t.deal = Deal(State.deal_from(self.rules, KeyedRandom(self.secret, "deal", seed), dealer=dealer))

    def _deal_next(self, t: _Table) -> None:
        seed = (t.seed + self.stride) & _MASK64
        self._deal(t, seed, seed % self.n)

    def _pick_learner(self, t: _Table) -> None:
        if self.random_seat:
            t.learner = t.rng.below(self.n)

    def reset(self, seeds: Array, dealers: Array, rng_seeds: Array, learners: Array,
              select: Array | None, stride: int, secret: bytes | None) -> None:
        """Deal each selected table the deal its seed names, or with a ``secret`` the
        deal of that number in its keyed stream (see ``_vector.c``)."""
        for i in range(self.count):
            if select is not None and not select[i]:
                continue
            if dealers[i] >= self.n or learners[i] >= self.n:
                raise ValueError(f"table {i}: there is no seat {max(dealers[i], learners[i])}")
        if stride:
            self.stride = stride
        self.secret = secret
        for i, t in enumerate(self.t):
            if select is not None and not select[i]:
                continue
            seed = int(seeds[i])
            t.rng = PortableRandom(int(rng_seeds[i]))
            if self.opponents in LEVEL_OF:
                t.bots = seat_bots(LEVEL_OF[self.opponents], self.rules, t.rng)
            t.acc = 0.0
            t.term = t.illegal = t.pending = t.started = False
            self._deal(t, seed, seed % self.n if dealers[i] < 0 else int(dealers[i]))
            if self.random_seat:
                t.learner = t.rng.below(self.n)
            else:
                t.learner = 0 if learners[i] < 0 else int(learners[i])

    def load(self, i: int, hands: list[int], table: int, dealer: int) -> None:
        """Table ``i`` starts from this layout as dealt (its seed stays)."""
        from ...core.cards import cards_of

        t = self.t[i]
        t.term = t.illegal = t.pending = t.started = False
        t.acc = 0.0
        t.deal = Deal(State.from_layout(self.rules, [cards_of(h) for h in hands], cards_of(table), dealer))

    # -- the random choices ---------------------------------------------------------------

    def _weights(self, deal: Deal) -> dict[int, int]:
        """RandomBot's law: how many of the engine's legal actions each legal ID stands for
        (``pass``: one)."""
        state = deal.state
        out: dict[int, int] = {}
        actions = deal.claims if deal.deciding == "claim" else state.turn_actions()
        for a in actions:
            i = action_id(a, state.table_mask)
            out[i] = out.get(i, 0) + 1
        if deal.deciding == "claim":
            out[PASS] = 1
        return out

    def _random_engine_action(self, t: _Table) -> int:
        assert t.deal is not None
        weights = self._weights(t.deal)
        ids = sorted(weights)
        x = t.rng.below(sum(weights.values()))
        for i in ids:
            if x < weights[i]:
                return i
            x -= weights[i]
        raise AssertionError("not reached")

    def bot_step(self, i: int) -> int:
        """The opponents' level decides for the seat deciding at table ``i`` (see ``_vector.c``,
        bot_step); the ID of its choice, -1 when the deal is over."""
        if self.opponents not in LEVEL_OF:
            raise ValueError("these tables seat no greedy or heuristic opponents")
        t = self.t[i]
        assert t.deal is not None
        return -1 if t.deal.over else play_bot(t.bots, t.deal)

    def weights(self, i: int) -> dict[int, int]:
        """RandomBot's weight of each legal ID at table ``i`` now."""
        deal = self.t[i].deal
        assert deal is not None
        return self._weights(deal)

    def random_actions(self, out: Array) -> None:
        """A uniform legal ID per table from its own stream (-1 where none is legal)."""
        for i, t in enumerate(self.t):
            assert t.deal is not None
            legal = sorted(t.deal.legal)
            out[i] = legal[t.rng.below(len(legal))] if legal else -1

    # -- outputs --------------------------------------------------------------------------

    def _observe(self, t: _Table, seat: int, deciding: Deciding, out: Array) -> None:
        assert t.deal is not None
        out[:] = observe(t.deal.state, seat, deciding, self.history)

    def _mask(self, t: _Table, out: Array) -> None:
        assert t.deal is not None
        out[:] = False
        if t.deal.legal:
            out[list(t.deal.legal)] = True

    def _refused(self, i: int, action: int) -> LookupError:
        deal = self.t[i].deal
        assert deal is not None
        return LookupError(f"{i} {deal.seat} {action}")

    def _check(self, i: int, action: int) -> bool:
        deal = self.t[i].deal
        assert deal is not None
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"table {i}: action {action} is not an action ID: "
                             f"give a whole number from 0 to {NUM_ACTIONS - 1}")
        if deal.over:
            raise ValueError(f"table {i}: the deal is over: no action is legal")
        return action in deal.legal

    # -- self-play --------------------------------------------------------------------------

    def step_all(self, actions: Array, obs: Array, mask: Array, seats: Array, rewards: Array,
                 done: Array, illegal_reward: float | None, flags: Array) -> None:
        """Every table's deciding seat plays its action (see ``_vector.c``, step_all)."""
        for i in range(self.count):
            if not self._check(i, int(actions[i])) and illegal_reward is None:
                raise self._refused(i, int(actions[i]))
        rewards[:] = 0.0
        done[:] = False
        flags[:] = False
        for i, t in enumerate(self.t):
            deal = t.deal
            assert deal is not None and deal.seat is not None
            a = int(actions[i])
            if a not in deal.legal:
                assert illegal_reward is not None
                rewards[i, deal.seat] = illegal_reward
                done[i] = flags[i] = True
                self._deal_next(t)
            else:
                deal.step(a)
                if deal.over:
                    rewards[i, :] = deal_rewards(deal.state)
                    done[i] = True
                    self._deal_next(t)
            deal = t.deal
            assert deal is not None and deal.seat is not None
            seats[i] = deal.seat
            self._observe(t, deal.seat, deal.deciding, obs[i])
            self._mask(t, mask[i])

    # -- one seat -------------------------------------------------------------------------

    def _advance(self, i: int, final: Array | None, final_mask: Array | None) -> None:
        """Run table ``i`` to its learner's decision, an external opponent's, or the end."""
        t = self.t[i]
        while True:
            deal = t.deal
            assert deal is not None
            if deal.over:
                if not t.started:
                    self._deal_next(t)
                    continue
                t.acc += deal_rewards(deal.state)[t.learner]
                t.term = True
                if self.autoreset == AUTO_SAME:
                    if final is not None:
                        self._observe(t, t.learner, "none", final[i])
                    if final_mask is not None:
                        final_mask[i] = True
                    self._deal_next(t)
                    self._pick_learner(t)
                    t.started = False
                    continue
                t.pending = True
                return
            if deal.seat == t.learner:
                t.started = True
                return
            if self.opponents == OPP_EXTERNAL:
                return
            if self.opponents == OPP_RANDOM:
                deal.step(self._random_engine_action(t))
            else:
                play_bot(t.bots, deal)

    def _outputs(self, t: _Table, obs: Array, mask: Array) -> None:
        deal = t.deal
        assert deal is not None
        live = not t.pending and not deal.over and deal.seat == t.learner
        self._observe(t, t.learner, deal.deciding if live else "none", obs)
        if live:
            self._mask(t, mask)
        else:
            mask[:] = False

    def step_seat(self, actions: Array, obs: Array, mask: Array, reward: Array, term: Array,
                  illegal: Array, final: Array | None, final_mask: Array | None,
                  illegal_reward: float | None, finish: bool) -> None:
        """The learners' actions, then the opponents (see ``_vector.c``, step_seat)."""
        for i, t in enumerate(self.t):
            if t.pending:
                if self.autoreset == AUTO_OFF:
                    raise RuntimeError(f"table {i}: its episode is over: "
                                       "reset it (options={'reset_mask': ...})")
                continue
            if not self._check(i, int(actions[i])) and illegal_reward is None:
                raise self._refused(i, int(actions[i]))
        if final_mask is not None:
            final_mask[:] = False
        for i, t in enumerate(self.t):
            t.acc = 0.0
            t.term = t.illegal = False
            illegal[i] = False
            deal = t.deal
            assert deal is not None
            if t.pending:
                t.pending = False
                self._deal_next(t)
                self._pick_learner(t)
                t.started = False
            elif int(actions[i]) not in deal.legal:
                assert illegal_reward is not None
                t.acc = illegal_reward
                t.term = t.illegal = True
                illegal[i] = True
                if self.autoreset == AUTO_SAME:
                    if final is not None:
                        self._observe(t, t.learner, "none", final[i])
                    if final_mask is not None:
                        final_mask[i] = True
                    self._deal_next(t)
                    self._pick_learner(t)
                    t.started = False
                else:
                    t.pending = True
                    continue
            else:
                deal.step(int(actions[i]))
            self._advance(i, final, final_mask)
        if finish:
            for i, t in enumerate(self.t):
                self._outputs(t, obs[i], mask[i])
                reward[i] = t.acc
                term[i] = t.term

    def start_seat(self, obs: Array | None, mask: Array | None, select: Array | None) -> None:
        """After reset: run each selected table to its learner's first decision."""
        for i, t in enumerate(self.t):
            if select is not None and not select[i]:
                continue
            t.started = False
            t.acc = 0.0
            t.term = t.pending = t.illegal = False
            self._advance(i, None, None)
            t.acc = 0.0
            t.term = False
        if obs is not None and mask is not None:
            for i, t in enumerate(self.t):
                self._outputs(t, obs[i], mask[i])

    def waiting(self, obs: Array, mask: Array, index: Array, seats: Array) -> int:
        """The tables where an opponent is to decide, packed from row 0; how many."""
        k = 0
        for i, t in enumerate(self.t):
            deal = t.deal
            assert deal is not None
            if t.pending or deal.over or deal.seat is None or deal.seat == t.learner:
                continue
            self._observe(t, deal.seat, deal.deciding, obs[k])
            self._mask(t, mask[k])
            index[k] = i
            seats[k] = deal.seat
            k += 1
        return k

    def answer(self, index: Array, actions: Array, final: Array | None, final_mask: Array | None) -> None:
        """The opponents' actions for the tables ``waiting`` listed."""
        for i, a in zip(index, actions, strict=True):
            t = self.t[int(i)]
            deal = t.deal
            assert deal is not None
            if t.pending or deal.seat == t.learner:
                raise ValueError(f"table {i}: no opponent is to decide")
            if not self._check(int(i), int(a)):
                raise self._refused(int(i), int(a))
        for i, a in zip(index, actions, strict=True):
            deal = self.t[int(i)].deal
            assert deal is not None
            deal.step(int(a))
            self._advance(int(i), final, final_mask)

    def finish(self, obs: Array, mask: Array, reward: Array, term: Array) -> None:
        """The learners' outputs once every opponent has answered."""
        for i, t in enumerate(self.t):
            deal = t.deal
            assert deal is not None
            if not t.pending and deal.seat != t.learner:
                raise RuntimeError(f"table {i}: an opponent has not answered")
        for i, t in enumerate(self.t):
            self._outputs(t, obs[i], mask[i])
            reward[i] = t.acc
            term[i] = t.term

    # -- reading ------------------------------------------------------------------------------

    def observe(self, seats: Array, obs: Array) -> None:
        """Each table's observation of the seat given (-1: the seat to decide)."""
        for i, t in enumerate(self.t):
            deal = t.deal
            assert deal is not None
            s = int(seats[i])
            if s < 0:
                if deal.seat is None:
                    raise ValueError(f"table {i}: no seat to observe")
                s = deal.seat
            if s >= self.n:
                raise ValueError(f"table {i}: no seat to observe")
            self._observe(t, s, deal.deciding if s == deal.seat else "none", obs[i])

    def masks(self, mask: Array, seats: Array) -> None:
        """The legal mask of the seat to decide, and that seat (-1: none)."""
        for i, t in enumerate(self.t):
            deal = t.deal
            assert deal is not None
            self._mask(t, mask[i])
            seats[i] = -1 if deal.seat is None else deal.seat

    def deals(self, seeds: Array, dealers: Array, learners: Array) -> None:
        """Each table's deal seed, dealer and learner seat now."""
        for i, t in enumerate(self.t):
            assert t.deal is not None
            seeds[i] = t.seed
            dealers[i] = t.deal.state.dealer
            learners[i] = t.learner

    def get(self, i: int) -> dict[str, Any]:
        """Table ``i`` as a dict (the whole truth)."""
        t = self.t[i]
        deal = t.deal
        assert deal is not None
        s = deal.state
        return {
            "hands": tuple(s.hands), "table": s.table_mask, "won": tuple(s.won),
            "face_down": tuple(s.face_down), "lain": tuple(s.lain), "window": deal.window,
            "legal": sorted(deal.legal), "pot": s.pot, "seed": t.seed, "dealer": s.dealer,
            "to_move": -1 if s.to_move is None else s.to_move,
            "last_capture": -1 if s.last_capture is None else s.last_capture,
            "last_actor": -1 if s.last_actor is None else s.last_actor,
            "foreplay": int(s.foreplay), "over": int(s.over),
            "seat": -1 if deal.seat is None else deal.seat, "deciding": deal.deciding,
            "learner": t.learner, "pending": int(t.pending), "started": int(t.started),
            "chips": tuple(s.chips()),
        }

    def deal_of(self, i: int) -> Deal:
        """Table ``i``'s deal itself (the pure tables' own; for tests)."""
        deal = self.t[i].deal
        assert deal is not None
        return deal


__all__ = ["PyTables"]
