"""The greedy and heuristic opponents of the vectorized tables: the compiled tables
(``_vector.c``) choose move by move what the Python bots seated on the pure tables choose
(:mod:`lald.rl.vector.opponents`), draws included, over many seeded deals of both presets
at 3 to 5 players, every variant set and Hypothesis's options; the one-seat environment
against them equals the pure one step for step; a seed names the opponents' choices."""

from __future__ import annotations

import importlib.util
import itertools
from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from hypothesis import given, settings
from hypothesis import strategies as st

from lald.bots.heuristic import GreedyBot, HeuristicBot
from lald.bots.learned.encoding import NUM_ACTIONS, OBS_SIZE
from lald.core import Rules, State
from lald.core.rng import PortableRandom
from lald.core.rules import PRESET_NAMES, VARIANT_NAMES
from lald.rl import vector
from lald.rl.deal import Deal
from lald.rl.vector import VectorSeatEnv, tables
from lald.rl.vector.opponents import StreamRandom, play_bot, seat_bots
from lald.rl.vector.vecpy import MODE_SEAT, OPP_GREEDY, OPP_HEURISTIC

LEVELS = {"greedy": OPP_GREEDY, "heuristic": OPP_HEURISTIC}
BUILT = importlib.util.find_spec("lald.rl.vector._vector") is not None
needs_compiled = pytest.mark.skipif(
    not BUILT, reason="the compiled tables (lald.rl.vector._vector) are not built: "
    "python setup.py build_ext --inplace")
VARIANT_SETS = [c for k in range(len(VARIANT_NAMES) + 1) for c in itertools.combinations(VARIANT_NAMES, k)]


def _compiled_or_skip() -> None:
    if vector.backend_status() != "compiled":
        pytest.skip(f"the compiled tables do not play: {vector.backend_status()}")


def _pair(rules: Rules, level: str, count: int, seed: int) -> tuple[Any, Any]:
    """Compiled and pure tables of ``rules`` against ``level``, dealt the deals ``seed`` on."""
    made = [tables.make_tables(rules, count, MODE_SEAT, LEVELS[level], backend=b)[0]
            for b in ("compiled", "python")]
    seeds = np.arange(seed, seed + count, dtype=np.uint64)
    for t in made:
        t.reset(seeds, np.full(count, -1, np.int8), seeds ^ np.uint64(tables.STREAM_KEY),
                np.zeros(count, np.int8), None, count, None)
    return made[0], made[1]


def _play_out(rules: Rules, level: str, count: int, seed: int) -> int:
    """Every seat of ``count`` deals played by ``level``'s bot on both tables, move by move:
    the same choice, then the same table, at every move; the moves made."""
    c, p = _pair(rules, level, count, seed)
    moves = 0
    for i in range(count):
        while True:
            before = p.get(i)
            chosen = c.bot_step(i)
            assert chosen == p.bot_step(i), f"table {i}, move {moves}: {before}"
            assert c.get(i) == p.get(i), f"table {i} after {chosen}"
            if chosen < 0:
                break
            moves += 1
    obs = [np.empty((count, OBS_SIZE), np.float32) for _ in range(2)]
    for seat in range(rules.players):
        for t, o in zip((c, p), obs, strict=True):
            t.observe(np.full(count, seat, np.int8), o)
        assert np.array_equal(obs[0], obs[1])
    return moves


@needs_compiled
@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_compiled_opponents_choose_as_the_python_bots_move_by_move(level: str, preset: str,
                                                                         players: int) -> None:
    _compiled_or_skip()
    moves = _play_out(Rules.make(preset, players), level, 150, 1000 * players)
    assert moves > 150 * 20


@needs_compiled
@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("variants", VARIANT_SETS, ids=lambda v: "+".join(v) or "plain")
def test_the_compiled_opponents_choose_as_the_python_bots_in_every_variant(level: str,
                                                                           variants: tuple[str, ...]) -> None:
    _compiled_or_skip()
    for preset, players in itertools.product(PRESET_NAMES, (3, 5)):
        _play_out(Rules.make(preset, players, variants), level, 20, 77)


OPTIONS: dict[str, tuple[Any, ...]] = {
    "prize_rule": ("survivor", "last_capture"),
    "prize": (0, 3),
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
    "scoring": ("chips", "card_count"),
}


@needs_compiled
@settings(max_examples=25)
@given(st.fixed_dictionaries({k: st.sampled_from(v) for k, v in OPTIONS.items()}),
       st.sampled_from([3, 4, 5]), st.sampled_from(sorted(LEVELS)), st.integers(0, 2 ** 32))
def test_the_compiled_opponents_choose_as_the_python_bots_on_any_options(
        options: dict[str, Any], players: int, level: str, seed: int) -> None:
    _compiled_or_skip()
    _play_out(Rules.make("survivor", players, options=options), level, 6, seed)


@needs_compiled
@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("autoreset", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_a_learner_against_the_compiled_opponents_sees_what_it_sees_against_the_bots(
        level: str, preset: str, autoreset: AutoresetMode) -> None:
    """VectorSeatEnv step for step on both tables: a random learner seat, random legal
    actions from a numpy generator, every output equal."""
    _compiled_or_skip()
    envs = [VectorSeatEnv(24, preset, 4, seat=None, opponents=level, autoreset_mode=autoreset, backend=b)
            for b in ("compiled", "python")]
    outs = [env.reset(seed=5) for env in envs]
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(150):
        assert np.array_equal(outs[0][0], outs[1][0])
        mask = envs[0].action_masks()
        assert np.array_equal(mask, envs[1].action_masks())
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        outs = [env.step(actions) for env in envs]
        for x, y in zip(outs[0][1:3], outs[1][1:3], strict=True):
            assert np.array_equal(x, y)
        ended += int(outs[0][2].sum())
    assert ended > 24


def test_a_table_stream_draws_for_the_bots() -> None:
    """The bots' choice is the stream's bounded draw; other draws come from it too."""
    rng = StreamRandom(PortableRandom(3))
    ref = PortableRandom(3)
    for n in (1, 2, 7, 80):
        assert rng.choice(list(range(n))) == ref.below(n)
    assert rng.getrandbits(10) == ref.next64() >> 54
    assert 0 <= rng.random() < 1
    assert rng.randrange(5) in range(5)


@pytest.mark.parametrize("level", ["greedy", "heuristic"])
def test_the_pure_tables_seat_the_bots_of_the_level(level: str) -> None:
    """The pure tables' opponents are lald.bots' own, each seat one, on the table's stream."""
    rules = Rules.make("survivor", 5)
    bots = seat_bots(level, rules, PortableRandom(1))
    assert [type(b) for b in bots] == [{"greedy": GreedyBot, "heuristic": HeuristicBot}[level]] * 5
    assert [b.seat for b in bots] == list(range(5))
    deal = Deal(State.deal(rules, 3))
    while not deal.over:
        legal = set(deal.legal)
        assert play_bot(bots, deal) in legal


@needs_compiled
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_seed_names_the_opponents_choices(level: str) -> None:
    _compiled_or_skip()
    runs = []
    for _ in range(2):
        env = VectorSeatEnv(16, "survivor", 5, opponents=level)
        obs, _ = env.reset(seed=9)
        seen = [obs]
        for _ in range(40):
            seen.append(env.step(np.argmax(env.action_masks(), axis=1))[0])
        runs.append(np.stack(seen))
    assert np.array_equal(runs[0], runs[1])
    assert NUM_ACTIONS == 80
