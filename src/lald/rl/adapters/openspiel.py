"""The OpenSpiel game ``python_lald``: one deal, sequential with claim windows, imperfect
information, the shuffle as chance nodes.

Importing this module registers the game with ``pyspiel.register_game``.  Parameters:
``preset`` (``survivor``), ``players`` (5), ``variants`` (joined by ``+``, ``""``),
``dealer`` (0), and every single option of :data:`lald.core.rules.OPTION_NAMES` under its
name, as PettingZoo's and Gymnasium's ``options`` take them: a number option as a number
(``prize=7``), the others as the strings docs/rules.md writes (``pair_on_pair=off``,
``no_capture=trail``).  An option left out (-1 for a number, ``""`` otherwise) is what
preset, players and variants give; the game's parameters then hold every option's value,
so its string names the whole rules.  The 52 chance nodes deal the shuffled deck one card at a time, as
:meth:`lald.core.State.deal` does (clockwise from the eldest, then the table): feeding
them a seed's shuffle gives that seed's deal.  Player actions are the 80 IDs of
:mod:`lald.bots.learned.encoding`; a seat polled in a claim window chooses a claim or ``pass``.
Returns are the deal's chips (under ``low-stakes`` scoring, 1 to each seat with the most
cards).  The observation tensor is the shared 451-number vector; the information-state
tensor adds the dealt hand, the public history and this seat's passes.
``resample_from_infostate`` draws a world with :func:`lald.bots.learned.worlds.world_from_view`.

>>> import pyspiel
>>> game = pyspiel.load_game("python_lald", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.current_player() in (0, 1, 2), len(state.observation_tensor()) == 451
(True, True)
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any, Literal

import numpy as np
import pyspiel

from ...bots.learned.encoding import (
    ACTION_NAMES,
    LIE_DOWN,
    MAX_PLAYERS,
    NUM_ACTIONS,
    OBS_SIZE,
    PASS,
    observe,
    without_private,
)
from ...bots.learned.worlds import world_from_view
from ...core import (
    Capture,
    Claimed,
    IllegalActionError,
    LaidDown,
    Operation,
    Rules,
    State,
    Trail,
    cards_of,
    format_cards,
)
from ...core.cards import NUM_CARDS, NUM_RANKS
from ...core.rules import OPTION_NAMES, RANGES
from ..deal import Deal, deal_rewards
from .text import op_text

#: Turn actions empty a hand card by card (at most 40 hand cards) and every claim takes at
#: least two live cards (at most 26 claims); every window polls each seat at most once.
MAX_ACTIONS = 66
MAX_GAME_LENGTH = MAX_ACTIONS * (1 + MAX_PLAYERS)
#: Per action of the history: who (counted from the observer), which ID, and a flag for a
#: face-down set whose rank the observer did not see.
HISTORY_ITEM = MAX_PLAYERS + NUM_ACTIONS + 1

#: Each option's parameter when it is left out: the reading's own value.
UNSET: dict[str, int | str] = {name: -1 if name in RANGES else "" for name in OPTION_NAMES}


def option_parameter(value: object) -> int | str:
    """A rules option's value as a ``python_lald`` parameter (a number, or the string
    docs/rules.md writes: ``on``, ``off``, ``last_capture``)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, StrEnum):
        return value.value
    assert isinstance(value, int)
    return value


def game_parameters(rules: Rules, dealer: int = 0) -> dict[str, int | str]:
    """The parameters of the ``python_lald`` game of ``rules``, every option named."""
    params: dict[str, int | str] = {"preset": rules.preset, "players": rules.players,
                                    "variants": "+".join(rules.variants), "dealer": dealer}
    params.update({name: option_parameter(getattr(rules, name)) for name in OPTION_NAMES})
    return params


_GAME_TYPE = pyspiel.GameType(
    short_name="python_lald",
    long_name="Laugh and Lie Down",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"preset": "survivor", "players": 5, "variants": "", "dealer": 0, **UNSET},
)


def utility_range(rules: Rules) -> tuple[float, float]:
    """The least and most a seat can be paid for one deal under ``rules``."""
    if not rules.antes:
        return 0.0, 1.0
    quota = rules.quota
    worst = -((quota + 1) // 2) - max(rules.ante_dealer, rules.ante_other)
    best = (NUM_CARDS - quota) // 2 + rules.prize
    return float(worst), float(best)


class LaldGame(pyspiel.Game):  # type: ignore[misc]
    """``python_lald``: one deal of Laugh and Lie Down."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        preset = str(params.get("preset", "survivor"))
        players = int(params.get("players", 5))
        # "+" between variants: a comma would end the parameter in OpenSpiel's game string
        variants = tuple(v.strip() for v in str(params.get("variants", "")).replace(",", "+").split("+")
                         if v.strip())
        params["variants"] = "+".join(variants)
        options = {name: params[name] for name in OPTION_NAMES
                   if name in params and params[name] != UNSET[name]}
        self.rules = Rules.make(preset, players, variants, options)
        # every option's value, so that the game's string names the whole rules
        params.update({name: option_parameter(getattr(self.rules, name)) for name in OPTION_NAMES})
        self.dealer = int(params.get("dealer", 0))
        if not 0 <= self.dealer < players:
            raise ValueError(f"dealer {self.dealer}: seats are 0 to {players - 1}")
        low, high = utility_range(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=NUM_CARDS, num_players=players,
            min_utility=low, max_utility=high, utility_sum=None, max_game_length=MAX_GAME_LENGTH)
        super().__init__(_GAME_TYPE, info, params)

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        # (pybind11's own pickling rebuilt the C++ game but not this object: an unpickled
        # game had no rules, and could not start a deal)
        return pyspiel.load_game, ("python_lald", self.get_parameters())

    def new_initial_state(self) -> LaldState:
        """The deck not yet dealt."""
        return LaldState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> LaldObserver:
        """An observer: observation (default) or information state (perfect recall)."""
        return LaldObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Shared:
    """An immutable value a clone shares (OpenSpiel clones a Python state by deep-copying
    each attribute; the rules need no copy)."""

    __slots__ = ("rules",)

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def __deepcopy__(self, memo: dict[int, object]) -> _Shared:
        return self


class LaldState(pyspiel.State):  # type: ignore[misc]
    """A deal being dealt (chance), then played (:class:`lald.rl.deal.Deal`)."""

    def __init__(self, game: LaldGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game.rules)
        self.dealer = game.dealer
        self.deck: list[int] = []
        self.deal: Deal | None = None
        #: Per seat: the number of actions in the history when it passed a claim window.
        self.passes: list[list[int]] = [[] for _ in range(self.rules.players)]

    @property
    def rules(self) -> Rules:
        """The rules of the deal."""
        return self._shared.rules

    # -- the game -----------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to decide, the chance player while dealing, or terminal."""
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.deal.seat is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.deal.seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None
        return sorted(self.deal.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card not yet dealt, equally likely."""
        dealt = set(self.deck)
        left = [c for c in range(NUM_CARDS) if c not in dealt]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            card = int(action)
            if not 0 <= card < NUM_CARDS or card in self.deck:  # (it was taken, and failed later)
                raise IllegalActionError(f"card {card} is not one still to deal: give a card ID from 0 to "
                                         f"{NUM_CARDS - 1} not dealt yet")
            self.deck.append(card)
            if len(self.deck) == NUM_CARDS:
                self.deal = Deal(self._deal_deck())
            return
        seat, at = self.deal.seat, len(self.deal.state.actions)
        self.deal.step(int(action))  # an ID not legal now raises and changes nothing
        if action == PASS:  # (noted only once made: a refused pass was noted all the same)
            assert seat is not None
            self.passes[seat].append(at)

    def _deal_deck(self) -> State:
        n, size = self.rules.players, self.rules.hand_size
        hands: list[list[int]] = [[] for _ in range(n)]
        for i, card in enumerate(self.deck[:n * size]):
            hands[(self.dealer + 1 + i) % n].append(card)
        table = cards_of(sum(1 << c for c in self.deck[n * size:]))
        return State.from_layout(self.rules, [cards_of(sum(1 << c for c in h)) for h in hands], table,
                                 self.dealer)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {cards_of(1 << action)[0]}"
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        """Whether the deal has ended."""
        return self.deal is not None and self.deal.over

    def returns(self) -> list[float]:
        """Each seat's chips for the deal (zeros until it ends)."""
        if self.deal is None or not self.deal.over:
            return [0.0] * self.rules.players
        return deal_rewards(self.deal.state)

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealing: {format_cards(cards_of(1 << c)[0] for c in self.deck)}"
        return repr(self.deal.state) + f" deciding={self.deal.seat}:{self.deal.deciding}"

    # -- worlds -------------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> LaldState:
        """A state ``player_id`` cannot tell from this one: the other hands and the
        face-down sets it has not seen drawn by lald.bots' consistent sampler (see
        :mod:`lald.bots.learned.worlds`). ``probability_sampler``, if callable, seeds the draw."""
        seed = None
        if callable(probability_sampler):
            seed = int(probability_sampler() * 2**52)
        return self.resample(player_id, random.Random(seed))

    def resample(self, player: int, rng: random.Random) -> LaldState:
        """:meth:`resample_from_infostate` with a Python generator."""
        deal = self.deal
        if deal is None:  # still dealing: redeal the cards this player has not seen
            return self._resample_dealing(player, rng)
        stop: Stop = "start"
        if deal.seat == player:
            stop = "turn" if deal.deciding == "turn" else "claim"
        elif self.passes[player] and self.passes[player][-1] == len(deal.state.actions):
            stop = "after_pass"
        view = deal.state.view(player)
        # Not to move and not yet polled here, the player is not the one a window polls
        # now: a world whose window polls it first is not this one (seen before: a world
        # that said "you answer the claim window" where the player had nothing to answer).
        for _ in range(RESAMPLE_TRIES):
            world = from_view(self.get_game(), view, rng, stop)
            if stop != "start" or world.current_player() != player:
                return world
        raise RuntimeError(f"no world of seat {player}'s information found in {RESAMPLE_TRIES} draws")

    def _resample_dealing(self, player: int, rng: random.Random) -> LaldState:
        n, size = self.rules.players, self.rules.hand_size
        mine = {i for i in range(len(self.deck)) if i < n * size and (self.dealer + 1 + i) % n == player
                or i >= n * size}
        known = {self.deck[i] for i in mine}
        others = [c for c in range(NUM_CARDS) if c not in known]
        rng.shuffle(others)
        out = LaldState(self.get_game())
        for i in range(len(self.deck)):
            out.apply_action(self.deck[i] if i in mine else others.pop())
        return out


Stop = Literal["start", "claim", "turn", "after_pass"]


#: Draws :meth:`LaldState.resample` makes at most for a world of the player's information.
RESAMPLE_TRIES = 1000


def from_view(game: LaldGame, view: Any, rng: random.Random, stop: Stop = "start") -> LaldState:
    """A state of ``game`` consistent with ``view`` (a seat's :class:`~lald.core.PlayerView`
    of a deal in play), its claim window polled: to the start (``"start"``), to the
    seat's own poll (``"claim"``), through every poll to the turn (``"turn"``, the seat
    passing if polled), or through the seat's pass (``"after_pass"``)."""
    state, passes = world_from_view(view, rng)
    out = LaldState(game)
    out.deck = list(range(NUM_CARDS))  # dealt (the order of a world's deal is not kept)
    deal = Deal(state)
    me = view.seat
    out.passes[me] = passes
    if stop != "start":
        while deal.deciding == "claim" and (stop != "claim" or deal.seat != me):
            if deal.seat == me:
                out.passes[me].append(len(state.actions))
                deal.play(None)
                if stop == "after_pass":
                    break
            else:
                deal.play(None)
    out.deal = deal
    return out


# -- the observer -----------------------------------------------------------------------


def _history_ids(op: Operation) -> tuple[int, int] | None:
    """(seat, ID) of an action of the history (ID -1: a face-down set not seen)."""
    if isinstance(op, Capture):
        shape = (len(op.play), len(op.take))
        block = {(1, 1): 0, (1, 3): 1, (2, 2): 2, (3, 1): 3}[shape]
        return op.seat, block * NUM_RANKS + (op.play[0] >> 2)
    if isinstance(op, Trail):
        return op.seat, 4 * NUM_RANKS + (op.card >> 2)
    if isinstance(op, Claimed):
        return op.seat, -1 if op.cards is None else 5 * NUM_RANKS + (op.cards[0] >> 2)
    if isinstance(op, LaidDown):
        return op.seat, LIE_DOWN
    return None


class LaldObserver:
    """OpenSpiel's observer: ``tensor``/``dict`` set by :meth:`set_from`, and
    :meth:`string_from`.  Private information is the observer's own (its hand, its
    passes); ``private_info=NONE`` leaves it out."""

    def __init__(self, game: LaldGame, iig_obs_type: Any) -> None:
        self.game = game
        self.recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_lald observes one seat at a time: "
                             "private_info=ALL_PLAYERS is not offered")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        pieces: list[tuple[str, int, tuple[int, ...]]] = [("observation", OBS_SIZE, (OBS_SIZE,))]
        if self.recall:
            pieces += [("dealt_hand", NUM_CARDS, (NUM_CARDS,)),
                       ("history", MAX_ACTIONS * HISTORY_ITEM, (MAX_ACTIONS, HISTORY_ITEM)),
                       ("passes", MAX_ACTIONS + 1, (MAX_ACTIONS + 1,))]
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state: LaldState, player: int) -> None:
        """Fill the tensor with what ``player`` knows of ``state``."""
        self.tensor.fill(0)
        d = self.dict
        if state.deal is None:
            self._dealing(state, player)
            return
        deal = state.deal
        obs = observe(deal.state, player, self._deciding(state, player))
        if not self.private:
            without_private(obs, deal.state, player)
        if not self.public:
            obs[NUM_CARDS:] = 0
        d["observation"][:] = obs
        if not self.recall:
            return
        n = state.rules.players
        if self.private:
            for c in cards_of(deal.state.dealt_hands[player]):
                d["dealt_hand"][c] = 1
            for k in state.passes[player]:
                d["passes"][k] = 1
        if self.public:
            i = 0
            for op in deal.state.view(player if self.private else None).history:
                item = _history_ids(op)
                if item is None:
                    continue
                seat, action = item
                row = d["history"][i]
                row[(seat - player) % n] = 1
                row[MAX_PLAYERS + action if action >= 0 else HISTORY_ITEM - 1] = 1
                i += 1

    def _deciding(self, state: LaldState, player: int) -> Literal["turn", "claim", "none"]:
        """What ``player`` decides now, as far as this observer may say: that a claim window
        polls it tells that it holds a claim, which is private."""
        deal = state.deal
        assert deal is not None
        if deal.seat != player or (deal.deciding == "claim" and not self.private):
            return "none"
        return deal.deciding

    def _dealing(self, state: LaldState, player: int) -> None:
        obs = self.dict["observation"]
        n, size = state.rules.players, state.rules.hand_size
        for i, card in enumerate(state.deck):
            if i >= n * size:
                if self.public:
                    obs[NUM_CARDS + card] = 1
            elif (state.dealer + 1 + i) % n == player and self.private:
                obs[card] = 1
                if self.recall:
                    self.dict["dealt_hand"][card] = 1

    def string_from(self, state: LaldState, player: int) -> str:
        """What ``player`` knows of ``state``, in words."""
        if state.deal is None:
            n, size = state.rules.players, state.rules.hand_size
            mine = [c for i, c in enumerate(state.deck)
                    if i < n * size and (state.dealer + 1 + i) % n == player]
            table = [c for i, c in enumerate(state.deck) if i >= n * size]
            parts = [f"seat {player}", f"dealing card {len(state.deck) + 1}"]
            if self.private:
                parts.append("hand " + format_cards(cards_of(sum(1 << c for c in mine))))
            if self.public:
                parts.append("table " + format_cards(cards_of(sum(1 << c for c in table))))
            return "; ".join(parts)
        deal = state.deal
        view = deal.state.view(player)
        parts = [f"seat {player}"]
        if self.private:
            parts.append("hand " + format_cards(view.hand))
        if self.public:
            parts += [f"table {format_cards(view.table)}",
                      "hands " + " ".join(map(str, view.hand_sizes)),
                      "won " + " ".join(map(str, view.won_sizes)),
                      "status " + " ".join(s.value for s in view.statuses),
                      f"to move {view.to_move}", f"last capture {view.last_capture}", f"pot {view.pot}"]
        if self.recall:
            if self.private:
                parts.append("dealt " + format_cards(cards_of(deal.state.dealt_hands[player])))
            passes = set(state.passes[player]) if self.private else set()
            events = []
            k = 0
            # (public: the spectator's history, without the seat's own face-down sets)
            for op in (view if self.private else deal.state.view(None)).history:
                if _history_ids(op) is None:
                    continue
                if k in passes:
                    events.append("you pass")
                if self.public:
                    events.append(op_text(op))
                k += 1
            if k in passes:
                events.append("you pass")
            parts.append("history: " + " | ".join(events))
        deciding = self._deciding(state, player)
        if deciding != "none":
            parts.append("you answer the claim window" if deciding == "claim" else "your turn")
        return "; ".join(parts)


pyspiel.register_game(_GAME_TYPE, LaldGame)
