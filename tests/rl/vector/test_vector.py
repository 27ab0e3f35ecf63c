"""The vectorized environment: the compiled tables equal the pure ones (the adapters' own
Deal and observe, table by table) step for step in every rules set and on Hypothesis's
options; observations, masks and rewards equal the PettingZoo adapter's and the engine's
chips; the one-seat VectorEnv plays as lald/Seat-v0; a seed names the deal as ``lald deal``
does; auto-reset in its three modes; nothing a seat receives tells it another's hand or the
deal to come; bad input is refused in one line."""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from hypothesis import given, settings
from hypothesis import strategies as st

from lald.bots import LEVELS, Bot
from lald.bots.learned.encoding import LAYOUT, NUM_ACTIONS, OBS_SIZE, PASS, legal_ids, observe, observe_view
from lald.core import Action, Claim, IllegalActionError, PlayerView, Rules, State, cards_of
from lald.core.rng import PortableRandom
from lald.core.rules import PRESET_NAMES, VARIANT_NAMES
from lald.rl import vector
from lald.rl.adapters.pettingzoo import raw_env
from lald.rl.deal import Deal, deal_rewards
from lald.rl.vector import STREAM_KEY, VectorDeals, VectorSeatEnv, tables

VARIANT_SETS = [c for k in range(len(VARIANT_NAMES) + 1) for c in itertools.combinations(VARIANT_NAMES, k)]
CONFIGS = [(p, n, v) for p in PRESET_NAMES for n in (3, 4, 5) for v in VARIANT_SETS]
BUILT = importlib.util.find_spec("lald.rl.vector._vector") is not None
needs_compiled = pytest.mark.skipif(
    not BUILT, reason="the compiled tables (lald.rl.vector._vector) are not built: "
    "python setup.py build_ext --inplace")

#: every value of every option (Hypothesis draws combinations of them)
OPTIONS: dict[str, tuple[Any, ...]] = {
    "prize_rule": ("survivor", "last_capture"),
    "prize": (0, 3, 5, 100),
    "single_takes_three": ("choice", "forced", "off"),
    "pair_on_pair": ("on", "off"),
    "prial_on_single": ("on", "off"),
    "hand_sets": ("on", "off"),
    "hand_set_timing": ("foreplay", "foreplay_or_own_turn"),
    "hand_sets_face_down": ("on", "off"),
    "dead_claims": ("any_time", "own_turn", "off"),
    "spotter_claims": ("on", "off"),
    "table_mournival_to_dealer": ("on", "off"),
    "no_capture": ("lie_down", "trail"),
    "rounding": ("toward_zero", "floor"),
    "scoring": ("chips", "card_count"),
    "ante_dealer": (0, 3, 100),
    "ante_other": (0, 2, 100),
    "laugh": ("on", "off"),
}


def _name(c: tuple[str, int, tuple[str, ...]]) -> str:
    return f"{c[0]}-{c[1]}-{'+'.join(c[2]) or 'plain'}"


def _compiled_or_skip() -> None:
    if vector.backend_status() != "compiled":
        pytest.skip(f"the compiled tables do not play: {vector.backend_status()}")


def _lockstep(a: VectorDeals, b: VectorDeals, steps: int) -> int:
    """Step two environments with the same actions (drawn by ``a``; ``b`` draws the same),
    requiring equal outputs and equal tables at every step; the deals that ended."""
    ended = 0
    for _ in range(steps):
        actions = a.random_actions()
        assert np.array_equal(actions, b.random_actions())
        out_a, out_b = a.step(actions), b.step(actions)
        for x, y in zip(out_a[:4], out_b[:4], strict=True):
            assert x.dtype == y.dtype and np.array_equal(x, y)
        assert out_a[4].keys() == out_b[4].keys()
        for key in out_a[4]:
            assert np.array_equal(out_a[4][key], out_b[4][key]), key
        for i in range(a.num_envs):
            assert a.table(i) == b.table(i)
        ended += int(out_a[2].sum())
    return ended


# -- the compiled tables are the pure ones ------------------------------------------------------


@needs_compiled
@pytest.mark.parametrize("config", CONFIGS, ids=_name)
def test_compiled_tables_equal_the_pure_ones_step_for_step(config: tuple[str, int, tuple[str, ...]]) -> None:
    """Self-play at 12 tables, 250 steps, uniformly random legal actions: every observation,
    mask, seat, reward and every table's whole state (hands, won piles, face-down sets,
    window, legal IDs, chips, pot) equal the pure tables'."""
    _compiled_or_skip()
    preset, players, variants = config
    seed = sum(map(ord, _name(config)))
    a = VectorDeals(12, preset, players, variants, backend="compiled", copy=False)
    b = VectorDeals(12, preset, players, variants, backend="python")
    for x, y in zip(a.reset(seed=seed), b.reset(seed=seed), strict=True):
        assert np.array_equal(x, y) if isinstance(x, np.ndarray) else x.keys() == y.keys()
    assert _lockstep(a, b, 250) >= 60


@needs_compiled
@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(PRESET_NAMES),
    players=st.sampled_from((3, 4, 5)),
    variants=st.sampled_from(VARIANT_SETS),
    options=st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in OPTIONS.items()}),
    seed=st.integers(0, 2**64 - 1),
)
def test_compiled_tables_equal_the_pure_ones_on_any_options(
        preset: str, players: int, variants: tuple[str, ...], options: dict[str, Any], seed: int) -> None:
    _compiled_or_skip()
    a = VectorDeals(6, preset, players, variants, options, backend="compiled")
    b = VectorDeals(6, preset, players, variants, options, backend="python")
    assert np.array_equal(a.reset(seed=seed)[0], b.reset(seed=seed)[0])
    _lockstep(a, b, 120)


@needs_compiled
@pytest.mark.parametrize("config", CONFIGS[::3], ids=_name)
def test_the_random_opponents_weigh_ids_as_the_random_level(config: tuple[str, int, tuple[str, ...]]) -> None:
    """The compiled opponents' weight of each legal ID is the number of the engine's legal
    actions (turn actions, or the polled seat's claims) it stands for, pass one: the
    ``random`` level's law."""
    _compiled_or_skip()
    preset, players, variants = config
    env = VectorDeals(8, preset, players, variants, backend="compiled")
    pure = VectorDeals(8, preset, players, variants, backend="python")
    env.reset(seed=3)
    pure.reset(seed=3)
    for _ in range(150):
        for i in range(8):
            deal: Deal = pure._t.deal_of(i)  # type: ignore[attr-defined]
            actions: Sequence[Action] = deal.claims if deal.deciding == "claim" else deal.state.turn_actions()
            counts: dict[int, int] = {}
            for action in actions:
                k = next(k for k, v in legal_ids([action], deal.state.table_mask).items())
                counts[k] = counts.get(k, 0) + 1
            if deal.deciding == "claim":
                counts[PASS] = 1
            assert env._t.weights(i) == counts
        actions_now = env.random_actions()
        pure.random_actions()
        env.step(actions_now)
        pure.step(actions_now)


@needs_compiled
@pytest.mark.parametrize("autoreset", ["NextStep", "SameStep", "Disabled"])
@pytest.mark.parametrize("seat", [0, 2, None])
@pytest.mark.parametrize("opponents", ["random", "policy"])
def test_the_one_seat_compiled_tables_equal_the_pure_ones(autoreset: str, seat: int | None,
                                                          opponents: str) -> None:
    """The one-seat environment, every mode: the same learner observations, masks,
    rewards, terminations, infos (the last observations too), with illegal actions now and
    then."""
    _compiled_or_skip()

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return (obs[:, :80] * mask + mask).argmax(axis=1)  # it reads the observation too

    opp: Any = "random" if opponents == "random" else policy
    envs = [VectorSeatEnv(6, "last-capture", 4, seat=seat, opponents=opp, autoreset_mode=autoreset,
                          backend=b) for b in ("compiled", "python")]
    first = [e.reset(seed=11) for e in envs]
    assert np.array_equal(first[0][0], first[1][0])
    ended = 0
    for step in range(250):
        actions = envs[0].random_actions()
        assert np.array_equal(actions, envs[1].random_actions())
        if step % 17 == 3:
            actions[step % 6] = 77
        out = [e.step(actions) for e in envs]
        for x, y in zip(out[0][:4], out[1][:4], strict=True):
            assert np.array_equal(x, y)
        assert out[0][4].keys() == out[1][4].keys()
        for key in out[0][4]:
            if key == "final_info":
                assert out[0][4][key].keys() == out[1][4][key].keys()
                for k in out[0][4][key]:
                    assert np.array_equal(out[0][4][key][k], out[1][4][key][k]), k
                continue
            assert np.array_equal(out[0][4][key], out[1][4][key]), key
        for i in range(6):
            assert envs[0].table(i) == envs[1].table(i)
        ended += int(out[0][2].sum())
    assert ended > 60


# -- the adapters and the engine -----------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=_name)
def test_observations_masks_and_rewards_are_the_pettingzoo_adapters(
        config: tuple[str, int, tuple[str, ...]]) -> None:
    """Each table's deals replayed in PettingZoo's raw_env (reset with the table's deal seed
    and dealer) and in the engine: the same observation of the seat to decide as ``last()``,
    the same seat, the same legal mask, the same observation of every seat, and at the end
    the same rewards as PettingZoo's and the engine's settlement (chips, or the winners under
    card-count scoring)."""
    preset, players, variants = config
    rules = Rules.make(preset, players, variants)
    n_tables = 3
    env = VectorDeals(n_tables, preset, players, variants)
    obs, info = env.reset(seed=sum(map(ord, _name(config))) * 1000)
    mirrors: list[tuple[Any, Deal]] = []

    def start(i: int) -> tuple[Any, Deal]:
        seeds, dealers = env.deals()
        e = raw_env(preset=preset, players=players, variants=variants)
        e.reset(options={"deal": int(seeds[i]), "dealer": int(dealers[i])})
        return e, Deal(State.deal(rules, int(seeds[i]), dealer=int(dealers[i])))

    mirrors = [start(i) for i in range(n_tables)]
    finished = 0
    while finished < 12:
        every = env.state()
        for i, (e, deal) in enumerate(mirrors):
            agent = e.agent_selection
            assert agent == f"seat_{info['seat'][i]}" and deal.seat == info["seat"][i]
            pz_obs, _, _, _, pz_info = e.last()
            assert np.array_equal(obs[i], pz_obs)
            assert np.array_equal(info["action_mask"][i], pz_info["action_mask"].astype(bool))
            for s in range(players):
                assert np.array_equal(every[i, s], e.observe(f"seat_{s}"))
        actions = env.random_actions()
        obs, rewards, done, _, info = env.step(actions)
        for i, (e, deal) in enumerate(mirrors):
            e.step(int(actions[i]))
            deal.step(int(actions[i]))
            if done[i]:
                assert deal.over and all(e.terminations.values())
                paid = [e.rewards[f"seat_{s}"] for s in range(players)]
                assert list(rewards[i]) == paid == deal_rewards(deal.state)
                result = deal.state.result
                assert result is not None
                if rules.antes:
                    assert list(rewards[i]) == list(result.chips)
                else:
                    assert list(rewards[i]) == [float(s in result.winners) for s in range(players)]
                finished += 1
                mirrors[i] = start(i)
            else:
                assert not deal.over and not rewards[i].any()


def test_every_observation_is_read_from_the_seats_view_only() -> None:
    """The compiled observation of every seat, at every step of many deals, equals the
    reference encoder on the engine's censored view (``observe_view(state.view(seat))``):
    it is a function of what the seat may know and of nothing else."""
    for preset in PRESET_NAMES:
        env = VectorDeals(4, preset, 4)
        pure = VectorDeals(4, preset, 4, backend="python")
        env.reset(seed=9)
        pure.reset(seed=9)
        for _ in range(120):
            every = env.state()
            for i in range(4):
                deal: Deal = pure._t.deal_of(i)  # type: ignore[attr-defined]
                for s in range(4):
                    deciding = deal.deciding if s == deal.seat else "none"
                    assert np.array_equal(every[i, s], observe_view(deal.state.view(s), deciding))
            actions = env.random_actions()
            pure.random_actions()
            env.step(actions)
            pure.step(actions)


# -- the one-seat VectorEnv plays as lald/Seat-v0 -------------------------------------------------------


def _lowest(view: PlayerView, actions: Sequence[Action], claim: bool) -> Action | None:
    table = sum(1 << c for c in view.table)
    ids: dict[int, Action | None] = dict(legal_ids(list(actions), table))
    if claim:
        ids[PASS] = None
    return ids[min(ids)]


class _LowestBot(Bot):
    """The lowest legal ID, at turns and in claim windows (a deterministic opponent)."""

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        chosen = _lowest(view, legal, False)
        assert chosen is not None
        return chosen

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        chosen = _lowest(view, claims, True)
        assert chosen is None or isinstance(chosen, Claim)
        return chosen


@pytest.fixture
def lowest_level(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setitem(LEVELS, "lowest_test", _LowestBot)
    yield "lowest_test"


@pytest.mark.parametrize("config", CONFIGS[::4], ids=_name)
def test_the_vector_seat_env_plays_as_lald_seat_v0(config: tuple[str, int, tuple[str, ...]],
                                                   lowest_level: str) -> None:
    """With a batched policy as opponents (the lowest legal ID) and lald/Seat-v0 with bots
    that choose the same, on the same deal and the same learner's choices: the learner's
    observations, masks, rewards and terminations are the adapter's at every step."""
    from lald.rl.adapters.gymnasium import SeatEnv

    preset, players, variants = config

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return mask.argmax(axis=1)

    seat = players - 1
    env = VectorSeatEnv(2, preset, players, variants, seat=seat, opponents=policy)
    obs, info = env.reset(seed=77)
    rng = random.Random(1)
    compared = 0
    for _ in range(6):
        seeds, dealers = env.deals()
        adapter = SeatEnv(preset=preset, players=players, variants=variants, seat=seat,
                          opponents=lowest_level)
        a_obs, a_info = adapter.reset(seed=0, options={"deal": int(seeds[0]), "dealer": int(dealers[0])})
        assert adapter.deal is not None
        if adapter.deal.state.seed != int(seeds[0]):
            continue  # the adapter dealt again (no choice for the learner): another stream
        done = False
        while not done:
            assert np.array_equal(obs[0], a_obs)
            assert np.array_equal(info["action_mask"][0], a_info["action_mask"])
            choice = rng.choice(list(np.flatnonzero(info["action_mask"][0])))
            actions = env.random_actions()
            actions[0] = choice
            obs, reward, term, _, info = env.step(actions)
            a_obs, a_reward, a_term, _, a_info = adapter.step(int(choice))
            assert (reward[0], bool(term[0])) == (a_reward, a_term)
            compared += 1
            done = a_term
        assert np.array_equal(obs[0], a_obs)  # the last observation: the deal as it ended
        obs, _, _, _, info = env.step(env.random_actions())  # next step: the next deal
    assert compared > 20


# -- seeds ----------------------------------------------------------------------------------------------


def test_a_seed_names_the_deal_as_lald_deal_does(capsys: pytest.CaptureFixture[str]) -> None:
    """``reset(seed=x)``: table i deals ``x + i`` (modulo 2**64), its dealer that seed
    modulo the players: the deal ``lald deal --seed S --dealer D`` prints."""
    from lald.cli import main
    from lald.record import Record

    env = VectorDeals(3, players=4)
    env.reset(seed=2**64 - 2)
    seeds, dealers = env.deals()
    assert list(seeds) == [2**64 - 2, 2**64 - 1, 0]
    for i, s in enumerate(seeds):
        main(["deal", "--players", "4", "--seed", str(s), "--dealer", str(int(s) % 4)])
        printed = Record.from_json(json.loads(capsys.readouterr().out)).start()
        table = env.table(i)
        assert dealers[i] == printed.dealer == int(s) % 4
        assert table["hands"] == tuple(printed.hands) and table["table"] == printed.table_mask
        assert table["won"] == tuple(printed.won)


def test_each_table_deals_on_from_its_seed_by_the_number_of_tables() -> None:
    n_tables, rules = 5, Rules.make(players=3)
    env = VectorDeals(n_tables, players=3)
    env.reset(seed=100)
    seen: list[list[int]] = [[100 + i] for i in range(n_tables)]
    while min(map(len, seen)) < 4:
        _, _, done, _, _ = env.step(env.random_actions())
        seeds, dealers = env.deals()
        for i in np.flatnonzero(done):
            seen[i].append(int(seeds[i]))
            assert dealers[i] == seeds[i] % 3
            fresh = State.deal(rules, int(seeds[i]), dealer=int(dealers[i]))
            assert env.table(i)["hands"] == tuple(fresh.hands)
    for i, chain in enumerate(seen):
        assert chain[:4] == [100 + i + k * n_tables for k in range(4)]


def test_options_name_the_first_deals_and_their_dealers() -> None:
    env = VectorDeals(3, players=5)
    env.reset(options={"deal": [7, 7, 123], "dealer": [4, 0, 2]})
    seeds, dealers = env.deals()
    assert list(seeds) == [7, 7, 123] and list(dealers) == [4, 0, 2]
    rules = Rules.make()
    for i in range(3):
        assert env.table(i)["hands"] == tuple(State.deal(rules, int(seeds[i]), dealer=int(dealers[i])).hands)
    env.reset(options={"deal": 42})  # one seed for all: every table the same deal (duplicate play)
    assert list(env.deals()[0]) == [42, 42, 42]


def test_the_same_seed_plays_the_same_and_another_seed_another() -> None:
    runs = []
    for seed in (5, 5, 6):
        env = VectorSeatEnv(16, seat=None, autoreset_mode="SameStep")
        obs, _ = env.reset(seed=seed)
        trail = [obs]
        for _ in range(60):
            obs, reward, _, _, info = env.step(env.random_actions())
            trail += [obs, reward, info["seat"]]
        runs.append(trail)
    assert all(np.array_equal(x, y) for x, y in zip(runs[0], runs[1], strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(runs[0], runs[2], strict=True))


# -- auto-reset -------------------------------------------------------------------------------------------


def _flags(obs: np.ndarray) -> tuple[float, ...]:
    return tuple(obs[LAYOUT["flags"]])


def test_self_play_deals_again_at_once() -> None:
    env = VectorDeals(32, players=3)
    obs, info = env.reset(seed=1)
    for _ in range(40):
        before = env.deals()[0]
        obs, rewards, done, _, info = env.step(env.random_actions())
        after = env.deals()[0]
        for i in range(32):
            assert (after[i] == before[i] + 32) == bool(done[i])
            if not done[i]:
                assert not rewards[i].any()
            assert _flags(obs[i])[1] == 0.0 and info["action_mask"][i].any()  # a live deal's decision
            table = env.table(i)
            assert table["seat"] == info["seat"][i]
            assert table["legal"] == list(np.flatnonzero(info["action_mask"][i]))


def test_next_step_autoreset_shows_the_end_then_deals_again_ignoring_the_action() -> None:
    env = VectorSeatEnv(16, players=4, seat=1)
    obs, info = env.reset(seed=3)
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    ended = 0
    while ended < 20:
        seeds_before = env.deals()[0]
        obs, reward, term, trunc, info = env.step(env.random_actions())
        for i in np.flatnonzero(term):
            ended += 1
            assert _flags(obs[i])[1:] == (1.0, 0.0, 0.0)  # over, deciding nothing
            ended_mask = [k == PASS for k in range(NUM_ACTIONS)]  # pass alone: a sampler draws, ignored
            assert info["action_mask"][i].tolist() == ended_mask
            assert env.action_masks()[i].tolist() == ended_mask
            assert env.table(i)["over"] and env.table(i)["pending"]
        if term.any():
            actions = env.random_actions()
            actions[term] = 0  # ignored, legal or not
            seeds_mid = env.deals()[0]
            obs2, reward2, term2, _, info2 = env.step(actions)
            for i in np.flatnonzero(term):
                assert reward2[i] == 0.0 and not term2[i]
                assert env.deals()[0][i] >= seeds_mid[i] + 16
                assert _flags(obs2[i])[1] == 0.0 and info2["action_mask"][i].any()
            obs, info = obs2, info2
        assert not trunc.any()
        del seeds_before


def test_same_step_autoreset_gives_the_last_observation_in_the_info() -> None:
    env = VectorSeatEnv(16, players=5, seat=0, autoreset_mode="SameStep")
    env.reset(seed=4)
    ended = 0
    while ended < 20:
        obs, reward, term, _, info = env.step(env.random_actions())
        assert np.array_equal(info["_final_obs"], term)
        for i in np.flatnonzero(term):
            ended += 1
            assert _flags(info["final_obs"][i])[1] == 1.0  # the deal as it ended
            assert _flags(obs[i])[1] == 0.0 and info["action_mask"][i].any()  # the next deal's decision


def test_disabled_autoreset_waits_for_a_masked_reset() -> None:
    env = VectorSeatEnv(8, players=3, autoreset_mode="Disabled")
    env.reset(seed=5)
    while True:
        obs, _, term, _, _ = env.step(env.random_actions())
        if term.any():
            break
    before = [env.table(i) for i in range(8)]
    obs2, info = env.reset(options={"reset_mask": term.copy()})
    for i in range(8):
        if term[i]:
            assert not env.table(i)["over"] and info["action_mask"][i].any()
        else:
            assert env.table(i) == before[i] and np.array_equal(obs2[i], obs[i])
    env.step(env.random_actions())


# -- Gymnasium's VectorEnv -----------------------------------------------------------------------------------


def test_the_vector_seat_env_keeps_gymnasiums_vector_api() -> None:
    from gymnasium.vector import VectorEnv

    env = VectorSeatEnv(8, players=4, seat=None)
    assert isinstance(env, VectorEnv) and env.num_envs == 8
    assert env.single_observation_space.shape == (OBS_SIZE,) and env.observation_space.shape == (8, OBS_SIZE)
    assert env.single_action_space.n == NUM_ACTIONS and env.action_space.shape == (8,)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    for key in ("action_mask", "seat"):
        assert info[f"_{key}"].all() and len(info[key]) == 8
    env.action_space.seed(0)
    for _ in range(30):
        obs, reward, term, trunc, info = env.step(env.action_space.sample())  # mostly illegal
        assert reward.dtype == np.float64 and term.dtype == trunc.dtype == np.bool_
        assert env.observation_space.contains(obs)
        assert (~info["illegal_action"] | (term & (reward == -10.0))).all()
    env.close()


def test_an_illegal_action_ends_the_episode_or_is_refused_in_words() -> None:
    env = VectorDeals(4, players=3)
    obs, info = env.reset(seed=8)
    illegal = np.array([int(np.flatnonzero(~m)[0]) for m in info["action_mask"]])
    seats = info["seat"].copy()
    _, rewards, done, _, info = env.step(illegal)
    assert done.all() and info["illegal_action"].all()
    for i in range(4):
        assert rewards[i, seats[i]] == -10.0 and rewards[i].sum() == -10.0
    strict = VectorDeals(4, players=3, illegal_reward=None)
    obs, info = strict.reset(seed=8)
    before = [strict.table(i) for i in range(4)]
    actions = strict.random_actions()
    actions[2] = int(np.flatnonzero(~info["action_mask"][2])[0])
    with pytest.raises(IllegalActionError) as e:
        strict.step(actions)
    text = str(e.value)
    assert "\n" not in text and text.startswith("table 2: action") and "not legal" in text
    assert [strict.table(i) for i in range(4)] == before  # no table changed


@pytest.mark.parametrize("bad", [np.zeros(3, np.int64), np.zeros(4, np.float32), [0, 1, 2, 99], "x",
                                 np.zeros((4, 1), np.int64), np.array([True] * 4)])
def test_actions_that_are_no_ids_are_refused_in_one_line(bad: Any) -> None:
    env = VectorDeals(4)
    env.reset(seed=1)
    before = [env.table(i) for i in range(4)]
    with pytest.raises(ValueError) as e:
        env.step(bad)
    assert "\n" not in str(e.value)
    assert [env.table(i) for i in range(4)] == before


@pytest.mark.parametrize("make", [
    lambda: VectorDeals(0), lambda: VectorDeals(2, players=6), lambda: VectorDeals(2, preset="classic"),
    lambda: VectorDeals(2, options={"prize": -1}), lambda: VectorDeals(2, session=True),
    lambda: VectorDeals(2, backend="fortran"), lambda: VectorSeatEnv(2, seat=5),
    lambda: VectorSeatEnv(2, opponents="expert"), lambda: VectorSeatEnv(2, autoreset_mode="sometimes"),
    lambda: VectorSeatEnv(2, render_mode="ansi"), lambda: VectorDeals(2, render_mode="human"),
])
def test_what_the_tables_cannot_play_is_refused_before_play(make: Callable[[], object]) -> None:
    with pytest.raises(ValueError) as e:
        make()
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("seed, options", [(-1, None), (2**64, None), (1.5, None), ([1, 2], None),
                                           (None, {"deal": -3}), (None, {"dealer": 5}),
                                           (None, {"deal": [1, 2, 3, 4]}), ("x", None)])
def test_bad_seeds_and_options_are_refused_in_one_line(seed: Any, options: Any) -> None:
    env = VectorDeals(3)
    with pytest.raises(ValueError) as e:
        env.reset(seed=seed, options=options)
    assert "\n" not in str(e.value)


def test_a_step_before_reset_is_refused() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        VectorDeals(2).step([0, 0])
    with pytest.raises(RuntimeError, match="reset"):
        VectorSeatEnv(2).step([0, 0])


def test_the_pure_tables_play_when_lald_kernel_is_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LALD_KERNEL", "python")
    monkeypatch.setattr(tables, "_status", None)
    try:
        assert vector.backend_status() == "python (LALD_KERNEL=python)"
        env = VectorDeals(3)
        assert env.backend == "python"
        env.reset(seed=1)
        env.step(env.random_actions())
        with pytest.raises(ValueError, match="not loaded"):
            VectorDeals(3, backend="compiled")
    finally:
        monkeypatch.setattr(tables, "_status", None)
        monkeypatch.delenv("LALD_KERNEL")
        vector.backend_status()


# -- hidden information ------------------------------------------------------------------------------------


def _swap_layout(rules: Rules, seed: int) -> tuple[list[list[Any]], list[Any], int, int] | None:
    """A deal and two cards of one rank in seats 2 and 3's hands, to swap (None: none)."""
    state = State.deal(rules, seed)
    hands = [list(cards_of(h)) for h in state.dealt_hands]
    for a in hands[2]:
        for b in hands[3]:
            if a >> 2 == b >> 2:
                return hands, list(cards_of(state.dealt_table)), a, b
    return None


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_seat_sees_the_same_while_two_hidden_cards_differ(preset: str) -> None:
    """Two tables whose deals differ only by two cards of one rank swapped between seats 2
    and 3 play the same IDs (legal in both: ranks decide): seat 0's observation is the same
    at both as long as neither card has been shown to it, and seat 0 cannot tell them apart."""
    rules = Rules.make(preset, 5)
    compared = shown = 0
    for seed in range(120):
        found = _swap_layout(rules, seed)
        if found is None:
            continue
        hands, table, a, b = found
        twin = [list(h) for h in hands]
        twin[2][twin[2].index(a)], twin[3][twin[3].index(b)] = b, a
        env = VectorDeals(2, preset, 5)
        env.reset(seed=seed)
        env.set_layout(0, hands, table)
        env.set_layout(1, twin, table)
        rng = random.Random(seed)
        while True:
            seen = env.observe(0)
            t0, t1 = env.table(0), env.table(1)
            visible = [t["table"] | t["hands"][0] | t["won"][0]
                       | sum(t["won"][s] & ~t["face_down"][s] for s in range(1, 5)) for t in (t0, t1)]
            if not any(v >> c & 1 for v in visible for c in (a, b)):
                assert np.array_equal(seen[0], seen[1])
                compared += 1
            else:
                shown += 1
            assert t0["legal"] == t1["legal"]
            choice = rng.choice(t0["legal"])
            _, _, done, _, _ = env.step([choice, choice])
            if done.any():
                assert done.all()
                break
    assert compared > 1000 and shown > 100


def test_a_face_down_set_is_seen_by_nobody_else() -> None:
    """Under last-capture hand sets are face down: at every step, no other seat's
    observation shows a card of one, while its own does."""
    env = VectorDeals(16, "last-capture", 5)
    env.reset(seed=21)
    hidden = 0
    for _ in range(300):
        every = env.state()
        for i in range(16):
            t = env.table(i)
            for s in range(5):
                down = t["face_down"][s]
                for k in range(5):  # seat (s - k) % 5 sees seat s as its k-th seat
                    viewer = (s - k) % 5
                    plane = every[i, viewer][LAYOUT["won_seen"]][52 * k:52 * k + 52]
                    for c in range(52):
                        if down >> c & 1:
                            assert plane[c] == (1.0 if viewer == s else 0.0)
                            hidden += viewer != s
        env.step(env.random_actions())
    assert hidden > 1000


def test_the_deal_to_come_changes_nothing_a_seat_receives() -> None:
    """The same deal at two environments whose next deals differ (other table counts, so
    other next seeds): every observation, mask, seat and reward of the deal being played
    is the same; only after it ends do they differ."""
    one = VectorSeatEnv(1, players=4, seat=2)
    two = VectorSeatEnv(3, players=4, seat=2)
    o1, i1 = one.reset(options={"deal": 99, "dealer": 1})
    o2, i2 = two.reset(options={"deal": [99, 5, 6], "dealer": [1, 0, 0]})
    assert np.array_equal(o1[0], o2[0])
    ended = False
    while not ended:
        actions = two.random_actions()
        assert one.random_actions()[0] == actions[0]  # the table's own stream, the same
        o1, r1, t1, _, i1 = one.step(actions[:1])
        o2, r2, t2, _, i2 = two.step(actions)
        assert np.array_equal(o1[0], o2[0]) and r1[0] == r2[0] and t1[0] == t2[0]
        assert np.array_equal(i1["action_mask"][0], i2["action_mask"][0])
        ended = bool(t1[0])
    one.step([0])
    two.step(np.zeros(3, np.int64))
    assert one.deals()[0][0] == 100 and two.deals()[0][0] == 102


def test_nothing_a_seat_receives_holds_a_seed_or_the_tables_streams() -> None:
    """The info a step returns holds only the documented keys, and no array a seat
    receives (observations, masks, seats, rewards) holds a deal's seed or its stream's
    seed in any of its bytes."""
    env = VectorSeatEnv(8, players=5, seat=None, autoreset_mode="SameStep")
    obs, info = env.reset(seed=0xDEADBEEF12345678)
    secrets: set[bytes] = set()
    for _ in range(40):
        seeds, _ = env.deals()
        for s in seeds:
            secrets.add(int(s).to_bytes(8, "little"))
            secrets.add((int(s) ^ STREAM_KEY).to_bytes(8, "little"))
        obs, reward, term, trunc, info = env.step(env.random_actions())
        assert set(info) <= {"action_mask", "_action_mask", "seat", "_seat", "illegal_action",
                             "_illegal_action", "final_obs", "_final_obs", "final_info", "_final_info"}
        final = info.get("final_info", {})
        assert set(final) <= {"action_mask", "_action_mask", "seat", "_seat", "illegal_action",
                              "_illegal_action"}
        arrays = [x for k, x in info.items() if k != "final_info"] + list(final.values())
        payload = b"".join(np.ascontiguousarray(x).tobytes() for x in (obs, reward, term, trunc, *arrays))
        for secret in secrets:
            assert secret not in payload


def test_the_pure_tables_observe_as_the_adapters_encoder() -> None:
    """The pure tables are the adapters' own code: their observation of each table is
    ``observe(state, seat, deciding)`` of the Deal they hold."""
    env = VectorDeals(3, backend="python")
    obs, info = env.reset(seed=2)
    for _ in range(50):
        for i in range(3):
            deal: Deal = env._t.deal_of(i)  # type: ignore[attr-defined]
            assert deal.seat is not None
            assert np.array_equal(obs[i], observe(deal.state, deal.seat, deal.deciding))
            assert set(np.flatnonzero(info["action_mask"][i])) == set(deal.legal)
        obs, _, _, _, info = env.step(env.random_actions())


def test_gymnasium_make_vec_makes_the_vector_seat_env() -> None:
    import gymnasium as gym

    envs = gym.make_vec(vector.VECTOR_ENV_ID, num_envs=6, players=3, seat=None)
    assert isinstance(envs, VectorSeatEnv) and envs.num_envs == 6 and envs.rules.players == 3
    obs, _ = envs.reset(seed=2)
    assert obs.shape == (6, OBS_SIZE)


def test_tables_in_two_threads_step_as_they_do_one_after_the_other() -> None:
    """A step runs without holding the GIL: two environments stepped by two threads at
    once give what they give stepped in turn."""
    import threading

    def run(env: VectorDeals, out: list[np.ndarray]) -> None:
        for _ in range(40):
            obs, rewards, _, _, info = env.step(env.random_actions())
            out += [obs, rewards, info["seat"]]

    alone: list[list[np.ndarray]] = [[], []]
    for k in range(2):
        env = VectorDeals(2048, players=4)
        env.reset(seed=k)
        run(env, alone[k])
    together: list[list[np.ndarray]] = [[], []]
    envs = [VectorDeals(2048, players=4) for _ in range(2)]
    for k, env in enumerate(envs):
        env.reset(seed=k)
    threads = [threading.Thread(target=run, args=(envs[k], together[k])) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(2):
        assert len(alone[k]) == len(together[k]) == 120
        assert all(np.array_equal(x, y) for x, y in zip(alone[k], together[k], strict=True))


@needs_compiled
def test_the_compiled_tables_take_only_a_layout_of_their_rules() -> None:
    _compiled_or_skip()
    env = VectorDeals(2, players=5, backend="compiled")
    env.reset(seed=1)
    state = State.deal(Rules.make(), 4)
    good = list(state.dealt_hands)
    for hands, table in [(good[:4] + [good[4] & (good[4] - 1)], state.dealt_table),  # a card short
                         (good[:4] + [good[0]], state.dealt_table),  # a hand twice
                         (good, state.dealt_table | 1 << 60)]:  # a card past the deck
        with pytest.raises(ValueError, match="layout"):
            env._t.load(0, hands, table, 0)
    env._t.load(0, good, state.dealt_table, 0)
    assert env.table(0)["hands"] == tuple(good)


@pytest.mark.parametrize("module, status", [
    (None, "python (the compiled tables are not built)"),
    (type("Off", (), {"shuffle": staticmethod(lambda seed: list(range(52))),
                      "draws": staticmethod(lambda seed, bound, count: [0] * count)}),
     "python (self-check failed: deals or draws)"),
])
def test_the_pure_tables_play_where_the_compiled_ones_are_missing_or_wrong(
        monkeypatch: pytest.MonkeyPatch, module: Any, status: str) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "lald.rl.vector._vector", module)
    monkeypatch.setattr(tables, "_status", None)
    monkeypatch.setattr(tables, "_compiled", None)
    import lald.rl.vector

    if module is None:
        monkeypatch.delattr(lald.rl.vector, "_vector", raising=False)
    else:
        monkeypatch.setattr(lald.rl.vector, "_vector", module, raising=False)
    assert vector.backend_status() == status
    env = VectorDeals(2)
    assert env.backend == "python"
    env.reset(seed=1)
    env.step(env.random_actions())
    monkeypatch.setattr(tables, "_status", None)  # undone after: the next use loads again


# -- keyed deals ------------------------------------------------------------------------------------------

SECRET = bytes(range(100, 132))


@needs_compiled
@pytest.mark.parametrize("config", CONFIGS[::7], ids=_name)
def test_keyed_compiled_tables_equal_the_pure_ones(config: tuple[str, int, tuple[str, ...]]) -> None:
    _compiled_or_skip()
    preset, players, variants = config
    a = VectorDeals(8, preset, players, variants, backend="compiled", secret=SECRET)
    b = VectorDeals(8, preset, players, variants, backend="python", secret=SECRET)
    assert np.array_equal(a.reset(seed=5)[0], b.reset(seed=5)[0])
    assert _lockstep(a, b, 150) >= 20


def test_a_keyed_deal_is_the_secrets_deal_of_its_number() -> None:
    """With a secret, table i's deal is ``State.deal_from(rules, KeyedRandom(secret, "deal",
    x + i), dealer)``, the deal numbers running on as the seeds do; the same secret deals the
    same, another secret or ``secret=True`` (a fresh one at each reset) other deals."""
    from lald.core.rng import KeyedRandom

    rules = Rules.make(players=4)
    env = VectorDeals(3, players=4, secret=SECRET)
    env.reset(seed=40)
    numbers, dealers = env.deals()
    assert list(numbers) == [40, 41, 42]
    for i in range(3):
        keyed = State.deal_from(rules, KeyedRandom(SECRET, "deal", 40 + i), dealer=int(dealers[i]))
        assert env.table(i)["hands"] == tuple(keyed.hands)
        assert env.table(i)["hands"] != tuple(State.deal(rules, 40 + i, dealer=int(dealers[i])).hands)
    again = VectorDeals(3, players=4, secret=SECRET)
    again.reset(seed=40)
    fresh = VectorDeals(3, players=4, secret=True)
    fresh.reset(seed=40)
    first = fresh.table(0)["hands"]
    fresh.reset(seed=40)
    assert again.table(0)["hands"] == env.table(0)["hands"] != fresh.table(0)["hands"] != first


@pytest.mark.parametrize("secret", [b"short", "a string", 5, False])
def test_a_bad_secret_is_refused_in_one_line(secret: Any) -> None:
    with pytest.raises(ValueError) as e:
        VectorDeals(2, secret=secret)
    assert "\n" not in str(e.value)


def _seed_from_table_order(deck: list[int]) -> list[int]:
    """The attack on a seeded deal: the first SplitMix64 draw of the shuffle places the last
    11 cards of the deck (the table's), so their order gives that draw up to a multiple of
    the moduli's product, and the draw gives the generator's state, the seed.  The seeds
    this order allows."""
    import math

    from lald.core.rng import _plan

    mask, golden = (1 << 64) - 1, 0x9E3779B97F4A7C15

    def unshift(z: int, k: int) -> int:
        x = z
        for _ in range(64 // k + 1):
            x = z ^ (x >> k)
        return x & mask

    def unmix(z: int) -> int:
        z = unshift(z, 31) * pow(0x94D049BB133111EB, -1, 1 << 64) & mask
        z = unshift(z, 27) * pow(0xBF58476D1CE4E5B9, -1, 1 << 64) & mask
        return unshift(z, 30)

    moduli, limit = _plan(52)[0]
    items, base, weight, i = list(range(52)), 0, 1, 51
    for m in moduli:
        j = items.index(deck[i])
        base += j * weight
        weight *= m
        items[i], items[j] = items[j], items[i]
        i -= 1
    product = math.prod(moduli)
    return [(unmix(base + product * q) - golden) & mask for q in range(limit // product)]


def test_an_attacker_told_the_tables_order_finds_a_seeded_deal_but_not_a_keyed_one() -> None:
    """An attacker who computes: from the order of the table's cards (more than a seat
    sees: it sees them as a set, and would try their 12! orders) the shuffle's first draw,
    and from it the seed, follow for most seeded deals, and with the seed every hand and the
    deals the table plays next.  For a keyed deal the same computation finds nothing."""
    from lald.core.rng import KeyedRandom

    rules = Rules.make()
    found = {"seeded": 0, "keyed": 0}
    for number in range(300):
        for kind in found:
            deck = list(range(52))
            if kind == "seeded":
                PortableRandom(number).shuffle(deck)
            else:
                KeyedRandom(SECRET, "deal", number).shuffle(deck)
            truth = State.deal_from(rules, PortableRandom(number) if kind == "seeded"
                                    else KeyedRandom(SECRET, "deal", number))
            seeds = _seed_from_table_order(deck)
            found[kind] += any(State.deal(rules, s).hands == truth.hands for s in seeds)
    assert found["seeded"] > 250 and found["keyed"] == 0


@pytest.mark.parametrize("policy, words", [
    (lambda obs, mask: (~mask).argmax(axis=1), "the opponents' policy chose it"),
    (lambda obs, mask: np.zeros(len(mask) + 1, np.int64), "must return"),
    (lambda obs, mask: mask.astype(np.float32).argmax(axis=1) * 0.5, "must return"),
])
def test_an_opponents_policy_that_answers_wrong_is_refused_in_one_line(policy: Any, words: str) -> None:
    env = VectorSeatEnv(4, players=3, seat=0, opponents=policy)
    with pytest.raises(ValueError) as e:  # IllegalActionError is a ValueError
        env.reset(seed=1)
        for _ in range(20):
            env.step(env.random_actions())
    assert "\n" not in str(e.value) and words in str(e.value)
    with pytest.raises(RuntimeError, match="reset"):  # the step was half made: no other until a reset
        env.step(env.random_actions())
