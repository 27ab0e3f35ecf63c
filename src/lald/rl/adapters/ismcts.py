"""OpenSpiel's ISMCTSBot at lald's table: the level ``ismcts``.

Each decision builds the seat's information state as an OpenSpiel state of
``python_lald`` (:func:`lald.rl.adapters.openspiel.from_view`, a world drawn from the seat's view),
and OpenSpiel's own :class:`~open_spiel.python.algorithms.ismcts.ISMCTSBot` searches it,
resampling a world per simulation with the game's ``resample_from_infostate`` and
evaluating leaves with OpenSpiel's random roll-out evaluator.  The one change to the bot is
the stopping rule: it searches until ``time_limit`` seconds have passed (or
``simulations``, if given), so that it can be compared with ``pimc`` and ``expert`` at the
same time per decision.

    lald tournament --bot ismcts:time_limit=0.02 --bot pimc:time_limit=0.02 ...
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ...bots import Bot
from ...bots.learned.encoding import PASS, legal_ids
from ...core import Action, Claim, PlayerView, Rules
from .openspiel import LaldGame, LaldState, Stop, from_view, game_parameters


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot, searching until a deadline instead of for a fixed number of
    simulations; ``simulations_run`` counts the simulations of the last search."""

    def __init__(self, game: Any, evaluator: Any, uct_c: float, time_limit: float,
                 max_simulations: int = 0, **kwargs: Any) -> None:
        super().__init__(game, evaluator, uct_c, max(max_simulations, 2) if max_simulations else 1 << 30,
                         **kwargs)
        self.time_limit = time_limit
        self.simulations_run = 0

    def run_search(self, state: Any) -> Any:
        """OpenSpiel's ``run_search`` with the loop bounded by time; at least two
        simulations, since the first only expands the root."""
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        deadline = time.perf_counter() + self.time_limit
        count = 0
        while count < self._max_simulations and (count < 2 or time.perf_counter() < deadline):
            sampled = self.sample_root_state(state)
            assert root_key == self.get_state_key(sampled), "a world changed the information state"
            self.run_simulation(sampled)
            count += 1
        self.simulations_run = count
        return self.get_final_policy(state, self._root_node)


def game_for(rules: Rules) -> LaldGame:
    """The ``python_lald`` game of ``rules``: preset, player count, variants and every
    single option."""
    game = pyspiel.load_game("python_lald", game_parameters(rules))
    assert isinstance(game, LaldGame) and game.rules == rules
    return game


class IsmctsBot(Bot):
    """OpenSpiel's ISMCTS: ``time_limit`` seconds per decision (default 0.02), or
    ``simulations`` per decision; ``uct_c`` its exploration constant (2), ``rollouts`` random
    roll-outs per leaf (1).  Claims are searched too: pass is one of its choices."""

    name = "ismcts"
    version = "1"

    def __init__(self, seat: int, rules: Rules, rng: random.Random, time_limit: float | str = 0.02,
                 simulations: int | str = 0, uct_c: float | str = 2.0, rollouts: int | str = 1) -> None:
        super().__init__(seat, rules, rng)
        self.game = game_for(rules)
        self.time_limit = float(time_limit)
        if not self.time_limit > 0 and not int(simulations) > 0:
            raise ValueError("give ismcts a positive time_limit or number of simulations")
        np_rng = np.random.RandomState(rng.randrange(1 << 32))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=int(rollouts), random_state=np_rng)
        self.search = TimedISMCTSBot(
            self.game, evaluator, float(uct_c), self.time_limit if self.time_limit > 0 else 1e9,
            max_simulations=int(simulations), random_state=np_rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        self.search.set_resampler(self._resample)
        #: Decisions made at random because no world consistent with the view replayed,
        #: and simulations that searched the root's world again for the same reason.
        self.fallbacks = 0
        self.stale_worlds = 0

    def _resample(self, state: LaldState, player: int) -> LaldState:
        try:
            return state.resample(player, self.rng)
        except RuntimeError:  # no fresh world replayed: the root's own world is one
            self.stale_worlds += 1
            copy: LaldState = state.clone()
            return copy

    def _choose(self, view: PlayerView, stop: Stop, ids: dict[int, Any]) -> int:
        if len(ids) == 1:
            only: int = next(iter(ids))
            return only
        try:
            root = from_view(self.game, view, self.rng, stop)
        except RuntimeError:  # no world replayed: a uniformly random choice, counted
            self.fallbacks += 1
            guess: int = self.rng.choice(sorted(ids))
            return guess
        assert set(root.legal_actions()) == set(ids), "the world's choices are not the seat's"
        choice: int = int(self.search.step(root))
        return choice

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The turn action of most visits."""
        table = sum(1 << c for c in view.table)
        ids = legal_ids(list(legal), table)
        return ids[self._choose(view, "turn", ids)]

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """A claim, or None when passing has the most visits."""
        table = sum(1 << c for c in view.table)
        ids: dict[int, Action | None] = dict(legal_ids(list(claims), table))
        ids[PASS] = None
        choice = ids[self._choose(view, "claim", ids)]
        assert choice is None or isinstance(choice, Claim)
        return choice
