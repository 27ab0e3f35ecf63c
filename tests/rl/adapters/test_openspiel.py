"""The OpenSpiel game python_lald passes OpenSpiel's random_sim_test in every rules set,
round-trips through pickle and serialize_game_and_state, plays the engine's deals move
for move, and its resampler keeps the information state while hiding the true hands."""

from __future__ import annotations

import itertools
import pickle
import random

import numpy as np
import pyspiel
import pytest

from lald.bots.learned.encoding import OBS_SIZE, PASS, observe
from lald.core import PortableRandom, Rules, State, cards_of
from lald.core.rules import PRESET_NAMES, VARIANT_NAMES
from lald.rl.adapters.openspiel import LaldState, from_view, utility_range
from lald.rl.deal import Deal

VARIANT_SETS = [c for k in range(len(VARIANT_NAMES) + 1) for c in itertools.combinations(VARIANT_NAMES, k)]
CONFIGS = [(p, n, v) for p in PRESET_NAMES for n in (3, 4, 5) for v in VARIANT_SETS]


def _name(c: tuple[str, int, tuple[str, ...]]) -> str:
    return f"{c[0]}-{c[1]}-{'+'.join(c[2]) or 'plain'}"


def _game(config: tuple[str, int, tuple[str, ...]], dealer: int = 0) -> pyspiel.Game:
    preset, players, variants = config
    return pyspiel.load_game("python_lald", {"preset": preset, "players": players,
                                             "variants": "+".join(variants), "dealer": dealer})


def _dealt(game: pyspiel.Game, seed: int) -> LaldState:
    """The deal of ``State.deal(rules, seed, dealer)`` through the chance nodes."""
    deck = list(range(52))
    PortableRandom(seed).shuffle(deck)
    state = game.new_initial_state()
    for card in deck:
        assert state.is_chance_node()
        state.apply_action(card)
    assert isinstance(state, LaldState)
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=_name)
def test_random_sim_test_in_every_rules_set(config: tuple[str, int, tuple[str, ...]]) -> None:
    """OpenSpiel's random_sim_test (serialize_game_and_state round trips included), and a
    pickle round trip of the game and of a state in play."""
    game = _game(config, dealer=1)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    state = _dealt(game, 8)
    for _ in range(6):
        state.apply_action(state.legal_actions()[-1])
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize("config", CONFIGS[::6], ids=_name)
def test_pickling_and_serialize_round_trips(config: tuple[str, int, tuple[str, ...]]) -> None:
    game = _game(config)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if len(state.history()) in (10, 52, 60, 75):
            text = pyspiel.serialize_game_and_state(game, state)
            new_game, new_state = pyspiel.deserialize_game_and_state(text)
            assert str(new_game) == str(game) and str(new_state) == str(state)
            assert new_state.history() == state.history()
            again = pickle.loads(pickle.dumps(state))
            assert str(again) == str(state) and again.history() == state.history()
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.returns() == pickle.loads(pickle.dumps(state)).returns()


@pytest.mark.parametrize("config", CONFIGS[::5], ids=_name)
def test_the_game_plays_the_engines_deal_move_for_move(config: tuple[str, int, tuple[str, ...]]) -> None:
    """The chance nodes deal a seed's shuffle as State.deal does; the same choices through
    OpenSpiel and through lald.core give the same actions, tensors and returns."""
    preset, players, variants = config
    rules = Rules.make(preset, players, variants)
    for seed in range(3):
        dealer = seed % players
        state = _dealt(_game(config, dealer), seed)
        deal = Deal(State.deal(rules, seed, dealer=dealer))
        assert state.deal is not None
        assert state.deal.state.hands == deal.state.hands
        assert state.deal.state.table_mask == deal.state.table_mask
        rng = random.Random(seed)
        while not deal.over:
            assert state.current_player() == deal.seat
            assert state.legal_actions() == sorted(deal.legal)
            assert np.array_equal(state.observation_tensor(), observe(deal.state, deal.seat, deal.deciding))
            choice = rng.choice(sorted(deal.legal))
            deal.step(choice)
            state.apply_action(choice)
        assert state.is_terminal()
        assert state.deal.state.actions == deal.state.actions
        result = deal.state.result
        assert result is not None
        expected = [float(c) for c in result.chips] if rules.antes else [
            float(s in result.winners) for s in range(players)]
        assert state.returns() == expected
        low, high = utility_range(rules)
        assert all(low <= r <= high for r in expected)


def test_information_state_tensor_and_strings() -> None:
    game = pyspiel.load_game("python_lald")
    state = _dealt(game, 11)
    size = game.information_state_tensor_size()
    assert game.observation_tensor_size() == OBS_SIZE and size > OBS_SIZE
    rng = random.Random(0)
    strings: set[str] = set()
    while not state.is_terminal():
        p = state.current_player()
        strings.add(state.information_state_string(p))
        assert len(state.information_state_tensor(p)) == size
        if PASS in state.legal_actions():
            assert "claim window" in state.information_state_string(p)
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(strings) > 20


def _hidden_cards_of_others(state: LaldState, seat: int) -> list[int]:
    assert state.deal is not None
    s = state.deal.state
    return [h for i, h in enumerate(s.hands) if i != seat]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_resample_keeps_the_information_state_and_draws_other_hands(preset: str) -> None:
    game = pyspiel.load_game("python_lald", {"preset": preset})
    rng = random.Random(5)
    checked = differs = 0
    for seed in range(12):
        state = _dealt(game, seed)
        while not state.is_terminal():
            p = state.current_player()
            if rng.random() < 0.25:
                key = state.information_state_string(p)
                for _ in range(3):
                    world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                    assert world.information_state_string(p) == key
                    assert world.current_player() == p and world.legal_actions() == state.legal_actions()
                    tensor = world.information_state_tensor(p)
                    assert np.array_equal(tensor, state.information_state_tensor(p))
                    differs += _hidden_cards_of_others(world, p) != _hidden_cards_of_others(state, p)
                    checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 50 and differs > checked // 2


def test_a_world_from_a_view_needs_nothing_but_the_view() -> None:
    """from_view reads the view alone: a state with other hands swapped gives the same
    worlds for the same generator."""
    rules = Rules.make("last-capture")
    game = pyspiel.load_game("python_lald", {"preset": "last-capture"})
    for seed in range(30):
        state = State.deal(rules, seed)
        rng = random.Random(seed)
        deal = Deal(state)
        for _ in range(rng.randrange(1, 30)):
            if deal.over:
                break
            deal.step(rng.choice(sorted(deal.legal)))
        if deal.over or deal.seat is None:
            continue
        me = deal.seat
        view = deal.state.view(me)
        a = from_view(game, view, random.Random(1), deal.deciding)  # type: ignore[arg-type]
        b = from_view(game, deal.state.view(me), random.Random(1), deal.deciding)  # type: ignore[arg-type]
        assert str(a) == str(b) and a.legal_actions() == sorted(deal.legal)


def test_ismcts_searches_the_game() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_lald", {"players": 3})
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, 15,
                           random_state=np.random.RandomState(1))
    state = _dealt(game, 4)
    rng = random.Random(2)
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    assert state.is_terminal()


def test_ismcts_level_plays_a_tournament_deal() -> None:
    from lald.bots import make_bot
    from lald.play.loop import play_deal
    from lald.play.spec import parse_spec

    rules = Rules.make(players=3)
    # one simulation only expands the root: the bot runs two at least, even out of time
    spec = parse_spec("ismcts:time_limit=0.000001")
    bots = [spec.make(0, rules, random.Random(0)), make_bot("heuristic", 1, rules, random.Random(1)),
            make_bot("random", 2, rules, random.Random(2))]
    state = play_deal(State.deal(rules, 9), bots)
    assert state.over and state.result is not None
    # (issue 26: a single option was refused mid-tournament, with a traceback)
    odd = Rules.make(players=3, options={"prize": 7, "single_takes_three": "forced"})
    bot = spec.make(0, odd, random.Random(0))
    assert bot.game.rules == odd  # type: ignore[attr-defined]
    bots = [bot, *(make_bot("random", s, odd, random.Random(s)) for s in (1, 2))]
    assert play_deal(State.deal(odd, 9), bots).over


def test_ismcts_goes_on_when_no_world_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """A world that cannot be drawn does not stop a tournament: the search reuses the
    root's world, and with no root world the decision is random; both are counted."""
    import lald.rl.adapters.ismcts as bot_module
    from lald.bots import make_bot
    from lald.play.loop import play_deal

    rules = Rules.make(players=3)
    bot = bot_module.IsmctsBot(0, rules, random.Random(0), simulations=6)

    def no_world(self: LaldState, player: int, rng: random.Random) -> LaldState:
        raise RuntimeError("no world")

    monkeypatch.setattr(LaldState, "resample", no_world)
    others = [make_bot("random", s, rules, random.Random(s)) for s in (1, 2)]
    assert play_deal(State.deal(rules, 2), [bot, *others]).over
    assert bot.stale_worlds > 0 and bot.fallbacks == 0

    def no_root(*args: object, **kwargs: object) -> LaldState:
        raise RuntimeError("no world")

    monkeypatch.setattr(bot_module, "from_view", no_root)
    assert play_deal(State.deal(rules, 3), [bot, *others]).over
    assert bot.fallbacks > 0


def test_a_refused_action_changes_nothing_and_chance_takes_only_cards_still_to_deal() -> None:
    """Seen before: a pass refused at a seat's turn was still noted in its information
    state; a pass after the end was a bare AssertionError; a card dealt twice, or card 60,
    was taken and failed only later."""
    game = pyspiel.load_game("python_lald")
    state = game.new_initial_state()
    state.apply_action(7)
    for bad in (7, 60):
        with pytest.raises(ValueError, match="not one still to deal"):
            state.apply_action(bad)
    assert state.deck == [7]
    state = _dealt(game, 3)
    rng = random.Random(0)
    while not state.is_terminal():
        p = state.current_player()
        if PASS not in state.legal_actions():
            before = (state.information_state_string(p), list(state.information_state_tensor(p)))
            with pytest.raises(ValueError, match="not legal|may pass"):
                state.apply_action(PASS)
            assert (state.information_state_string(p), list(state.information_state_tensor(p))) == before
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(ValueError, match="over"):
        state.apply_action(PASS)


def test_the_public_observer_holds_nothing_private() -> None:
    """Seen before (last-capture: hand sets face down): with private_info=NONE the tensor
    held the seat's own face-down set and the history named its cards, and the string
    told the polled seat it answers a claim window (so that it holds a claim)."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_lald", {"preset": "last-capture"})
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        state = _dealt(game, seed)
        while not state.is_terminal():
            assert state.deal is not None
            for p in range(5):
                public.set_from(state, p)
                text = public.string_from(state, p)
                assert "claim window" not in text
                own = state.deal.state.face_down[p]
                if own:
                    won = public.dict["observation"][104:156]  # the seat's own won plane
                    assert not any(won[c] for c in range(52) if own >> c & 1), (seed, p)
                    history = text.split("history:")[1]
                    assert not any(str(card) in history for card in cards_of(own)), (seed, p, history)
                    checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0


def test_a_world_resampled_for_a_player_not_to_move_keeps_its_information_state() -> None:
    """Seen before: for a seat not to move, the world often polled it first in the claim
    window ("you answer the claim window"), a state it could tell from the true one."""
    game = pyspiel.load_game("python_lald")
    checked = 0
    for seed in range(15):
        state = _dealt(game, seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            mover = state.current_player()
            for p in range(5):
                if p != mover:
                    world = state.resample(p, random.Random(rng.random()))
                    assert world.information_state_string(p) == state.information_state_string(p)
                    checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 1000


# -- issue 26, item 5: every rules option is a parameter of python_lald ----------------------


def _odd_value(name: str, rules: Rules) -> object:
    """A value of option ``name`` other than ``rules``' own, written as a parameter."""
    from enum import StrEnum

    from lald.core.rules import RANGES

    value = getattr(rules, name)
    if isinstance(value, bool):
        return "off" if value else "on"
    if isinstance(value, StrEnum):
        return next(m.value for m in type(value) if m is not value)
    low, high = RANGES[name]
    return low if value != low else high


def test_every_rules_option_is_a_parameter() -> None:
    from lald.core.rules import OPTION_NAMES

    game = pyspiel.load_game("python_lald")
    spec = game.get_type().parameter_specification
    assert set(OPTION_NAMES) <= set(spec), set(OPTION_NAMES) - set(spec)
    for preset in PRESET_NAMES:
        base = Rules.make(preset, 4)
        for name in OPTION_NAMES:
            value = _odd_value(name, base)
            game = pyspiel.load_game("python_lald", {"preset": preset, "players": 4, name: value})
            wanted = Rules.make(preset, 4, (), {name: value})
            assert game.rules == wanted, (preset, name, value)
            # the game string holds the whole rules: loading it again gives the same game
            again = pyspiel.load_game(str(game))
            assert again.rules == wanted and str(again) == str(game)


def test_an_option_left_out_is_the_readings_own() -> None:
    """The four-player survivor prize is 3, last-capture's single takes none of three: a
    parameter left out is what preset, players and variants give, not a fixed default."""
    game = pyspiel.load_game("python_lald", {"players": 4})
    assert game.rules == Rules.make("survivor", 4) and game.rules.prize == 3
    assert game.get_parameters()["prize"] == 3
    game = pyspiel.load_game("python_lald", {"preset": "last-capture", "variants": "silent"})
    assert game.rules == Rules.make("last-capture", 5, ["silent"])
    assert game.get_parameters()["laugh"] == "off"


def test_a_game_with_options_plays_and_round_trips() -> None:
    game = pyspiel.load_game("python_lald", {"players": 3, "prize": 9, "pair_on_pair": "off",
                                             "no_capture": "trail", "scoring": "card_count"})
    assert game.rules == Rules.make(players=3, options={"prize": 9, "pair_on_pair": False,
                                                        "no_capture": "trail", "scoring": "card_count"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    assert pickle.loads(pickle.dumps(game)).rules == game.rules


@pytest.mark.parametrize(("params", "words"), [
    ({"prize": 700}, "bad value 700 for prize: choose a whole number from 0 to 100"),
    ({"pair_on_pair": "maybe"}, "bad value 'maybe' for pair_on_pair: choose on or off"),
    ({"no_capture": "pass"}, "bad value 'pass' for no_capture"),
])
def test_a_bad_option_is_refused_in_the_engines_words(params: dict[str, object], words: str) -> None:
    with pytest.raises(Exception, match=words):
        pyspiel.load_game("python_lald", params)
