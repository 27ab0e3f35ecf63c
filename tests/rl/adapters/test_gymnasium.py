"""The Gymnasium environment passes gymnasium's env_checker, is registered as an id, and
plays the same deals as lald.play.loop with the same bots."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from lald.bots import Bot
from lald.bots.learned.encoding import OBS_SIZE, PASS, legal_ids, observe_view
from lald.core import Action, Claim, PlayerView, Rules, State
from lald.core.rules import PRESET_NAMES, VARIANT_NAMES
from lald.play.loop import play_deal
from lald.play.spec import parse_spec
from lald.rl.adapters.gymnasium import ENV_ID, SeatEnv

VARIANT_SETS = [c for k in range(len(VARIANT_NAMES) + 1) for c in itertools.combinations(VARIANT_NAMES, k)]
CONFIGS = [(p, n, v) for p in PRESET_NAMES for n in (3, 4, 5) for v in VARIANT_SETS]


def _name(c: tuple[str, int, tuple[str, ...]]) -> str:
    return f"{c[0]}-{c[1]}-{'+'.join(c[2]) or 'plain'}"


@pytest.mark.parametrize("config", CONFIGS, ids=_name)
def test_env_checker_in_every_rules_set(config: tuple[str, int, tuple[str, ...]]) -> None:
    preset, players, variants = config
    env = gym.make(ENV_ID, preset=preset, players=players, variants=variants, seat=None)
    check_env(env.unwrapped)


@pytest.mark.parametrize("opponents", ["expert:worlds=2:time_limit=60", "pimc:worlds=2:time_limit=60",
                                       "random", ["greedy", "heuristic", "random", "oracle"]])
def test_env_checker_with_each_kind_of_opponent(opponents: str | list[str]) -> None:
    env = gym.make(ENV_ID, opponents=opponents, session=isinstance(opponents, list))
    check_env(env.unwrapped)


class _Replay(Bot):
    """Plays recorded action IDs, as the learner chose them."""

    def __init__(self, seat: int, rules: Rules, rng: random.Random, ids: list[int]) -> None:
        super().__init__(seat, rules, rng)
        self.ids = iter(ids)

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return legal_ids(list(legal), sum(1 << c for c in view.table))[next(self.ids)]

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        choice = next(self.ids)
        return None if choice == PASS else legal_ids(list(claims), sum(1 << c for c in view.table))[choice]


@pytest.mark.parametrize("config", CONFIGS[::6], ids=_name)
def test_the_seat_env_plays_lald_sim_plays_deal(config: tuple[str, int, tuple[str, ...]]) -> None:
    """The learner's choices replayed with the same bots (same seeds) through
    lald.play.loop give the same actions and chips; each observation is the view's."""
    preset, players, variants = config
    rules = Rules.make(preset, players, variants)
    env = SeatEnv(preset=preset, players=players, variants=variants, seat=None, opponents="heuristic")
    for seed in range(3):
        obs, info = env.reset(seed=seed, options={"deal": seed, "dealer": 0})
        rng = random.Random(seed)
        chosen: list[int] = []
        done, reward = False, 0.0
        while not done:
            assert env.deal is not None
            assert np.array_equal(obs, observe_view(env.deal.state.view(env.seat), env.deal.deciding))
            assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
            choice = int(rng.choice(np.flatnonzero(env.action_masks())))
            chosen.append(choice)
            obs, reward, done, truncated, info = env.step(choice)
            assert not truncated
        assert env.deal is not None and env.deal.state.result is not None
        assert not env.action_masks().any()
        bots: list[Bot] = [
            _Replay(s, rules, random.Random(0), chosen) if s == env.seat
            else parse_spec("heuristic").make(s, rules, random.Random(env.bot_seeds[s]))
            for s in range(players)]
        native = play_deal(State.deal(rules, seed, dealer=0), bots)
        assert native.actions == env.deal.state.actions
        assert native.result is not None
        expected = native.result.chips[env.seat] if rules.antes else float(env.seat in native.result.winners)
        assert reward == expected


def test_an_illegal_action_ends_the_episode() -> None:
    env = SeatEnv(opponents="random")
    obs, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert terminated and not truncated and reward == -10.0 and info["illegal_action"]
    assert obs.shape == (OBS_SIZE,) and not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_bad_settings_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="no seat 7"):
        SeatEnv(seat=7)
    with pytest.raises(ValueError, match="one opponent for all"):
        SeatEnv(opponents=["random", "random"])
    with pytest.raises(ValueError, match="unknown bot"):
        SeatEnv(opponents="chess")
    with pytest.raises(ValueError, match="render_mode"):
        SeatEnv(render_mode="svg")


def test_a_legal_id_as_a_0d_array_is_played_and_no_action_id_is_refused_in_words() -> None:
    """Seen before: ``np.array(1)``, legal by the mask (what stable-baselines3's predict
    gives), ended the episode with the illegal-action penalty; a float, a string or None
    were scored as illegal moves instead of refused."""
    env = SeatEnv(opponents="random")
    _obs, info = env.reset(seed=1)
    for bad in (1.5, "3", None, [1], True):
        with pytest.raises(ValueError, match="not an action ID"):
            env.step(bad)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    _obs, reward, terminated, _truncated, info = env.step(np.array(legal))
    assert not info.get("illegal_action") and reward != -10.0


def test_a_bad_reset_option_is_refused_in_one_line() -> None:
    """Seen before: {"deal": 3.7} was taken as 3, a negative seed and an absent seat
    accepted, and a session's dealer silently ignored."""
    from lald.rl.adapters.pettingzoo import raw_env

    env = SeatEnv(opponents="random")
    aec = raw_env()
    for bad, words in (({"deal": 3.7}, "deal=3.7"), ({"deal": -1}, "deal=-1"), ({"dealer": 5}, "dealer=5"),
                       ({"dealer": True}, "dealer=True"), ({"deal": "7"}, "deal='7'")):
        with pytest.raises(ValueError, match=words):
            env.reset(seed=1, options=bad)
        with pytest.raises(ValueError, match=words):
            aec.reset(seed=1, options=bad)
    with pytest.raises(ValueError, match="cut chooses"):
        SeatEnv(opponents="random", session=True).reset(seed=1, options={"dealer": 2})
    _obs, _info = env.reset(seed=1, options={"deal": 7, "dealer": 2})
    assert env.deal is not None and env.deal.state.dealer == 2
