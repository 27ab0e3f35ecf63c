"""The ``learned`` level: the shipped weights load, are small, say how they were made,
give PyTorch's values with numpy alone, and play only legal moves at every table."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from lald.bots import LEVELS, MENU_LEVELS, make_bot
from lald.bots.learned.network import WEIGHTS_DIR, LearnedBot, QNetwork, load_network, shipped_file
from lald.core import Rules, State
from lald.play.loop import play_deal

PRESETS = ("survivor", "last-capture")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_shipped_weights_are_small_and_say_how_they_were_made(preset: str) -> None:
    path = WEIGHTS_DIR / f"{preset}-5.npz"
    assert path == shipped_file(Rules.make(preset=preset, players=5))
    assert path.stat().st_size <= 10 * 1024 * 1024
    meta = QNetwork.load(path).meta
    assert meta["preset"] == preset and meta["players"] == 5
    assert meta["command"].startswith("lald train") and meta["commit"] != "unknown"
    assert meta["curve"] and all({"round", "hours", "diff", "ci"} <= p.keys() for p in meta["curve"])


def test_the_prize_to_the_last_card_plays_on_the_last_capture_s_weights() -> None:
    rules = Rules.make(options={"prize_rule": "last_card"})
    assert shipped_file(rules) == WEIGHTS_DIR / "last-capture-5.npz"


def test_numpy_gives_the_values_pytorch_recorded() -> None:
    """tests/bots/learned/data/positions.npz holds PyTorch's values of the shipped networks on
    recorded positions (record_positions.py beside it); numpy alone gives the same."""
    data = np.load(Path(__file__).parent / "data" / "positions.npz")
    assert len(data["ids"]) >= 100
    for preset in PRESETS:
        network = QNetwork.load(WEIGHTS_DIR / f"{preset}-5.npz")
        got = np.array([network.values(s, [i])[0] for s, i in zip(data["states"], data["ids"], strict=True)])
        np.testing.assert_allclose(got, data[f"torch_{preset}"], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_level_plays_legal_moves_at_every_table(preset: str, players: int) -> None:
    rules = Rules.make(preset=preset, players=players)
    for seed in range(4):
        bots = [make_bot("learned" if s % 2 == 0 else "heuristic", s, rules, random.Random(s))
                for s in range(players)]
        state = play_deal(State.deal(rules, seed=seed), bots)  # an illegal move would raise
        assert state.over and sum(state.result.won) == 52


def test_the_level_is_in_the_menus() -> None:
    assert "learned" in LEVELS and "learned" in MENU_LEVELS
    assert isinstance(make_bot("learned", 0, Rules.make(), random.Random(0)), LearnedBot)


def test_bad_weights_files_are_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read the weights file"):
        load_network(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="cannot read the weights file"):
        QNetwork.load(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", w0=np.zeros((3, 1), np.float32), b0=np.zeros(1, np.float32))
    with pytest.raises(ValueError, match="not an action-value network"):
        QNetwork.load(tmp_path / "other.npz")


def test_the_level_picks_the_action_of_highest_value() -> None:
    network = load_network(shipped_file(Rules.make()))
    state = State.deal(Rules.make(), seed=9)
    from lald.bots.learned.encoding import legal_ids, observe
    from lald.bots.learned.network import state_features

    while len(state.turn_actions()) < 2 or state.open_claims():
        state.apply(state.turn_actions()[0] if not state.open_claims() else state.open_claims()[0])
    ids = sorted(legal_ids(state.turn_actions(), state.table_mask))
    values = network.values(state_features(observe(state, state.to_move, "turn")), ids)
    bot = LearnedBot(state.to_move, state.rules, random.Random(0), network=network)
    chosen = bot.act(state.view(state.to_move), state.turn_actions())
    legal = legal_ids(state.turn_actions(), state.table_mask)
    assert chosen is legal[ids[int(np.argmax(values))]]
