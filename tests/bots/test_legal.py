"""Every bot makes only legal moves, in every preset, player count and variant, and a bot
with a seeded generator plays the same deal the same way."""

from __future__ import annotations

import random
from typing import Any

import pytest

from lald.bots import LEVELS, MENU_LEVELS, Bot, hint, make_bot
from lald.bots.strength import play
from lald.core import Action, Claim, PlayerView, Rules, State

RULES = [
    Rules.make("survivor", 5), Rules.make("survivor", 4), Rules.make("survivor", 3),
    Rules.make("last-capture", 5), Rules.make("last-capture", 4), Rules.make("last-capture", 3),
    Rules.make("survivor", 5, ["modern-laugh"]), Rules.make("last-capture", 4, ["modern-laugh", "silent"]),
    Rules.make("survivor", 3, ["low-stakes"]),
    Rules.make("survivor", 5, options={"dead_claims": "own_turn", "single_takes_three": "forced"}),
]
SMALL = {"pimc": {"worlds": 2, "time_limit": 5.0}, "expert": {"worlds": 4, "time_limit": 5.0},
         "oracle": {"worlds": 2, "time_limit": 5.0}}


class Checked(Bot):
    """Wraps a bot: every answer must be one of the offered actions."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.seat, inner.rules, inner.rng)
        self.inner = inner
        self.needs_state = getattr(inner, "needs_state", False)
        self.moves: list[Action | None] = []

    def see(self, state: State) -> None:
        self.inner.see(state)  # type: ignore[attr-defined]

    def act(self, view: PlayerView, legal: Any) -> Action:
        assert view.seat == self.seat and view.to_move == self.seat
        action = self.inner.act(view, legal)
        assert action in legal
        self.moves.append(action)
        return action

    def claim(self, view: PlayerView, claims: Any) -> Claim | None:
        choice = self.inner.claim(view, claims)
        assert choice is None or choice in claims
        self.moves.append(choice)
        return choice


def _bot(level: str, seat: int, rules: Rules, seed: int) -> Checked:
    rng = random.Random(seed)
    return Checked(LEVELS[level](seat, rules, rng, **SMALL.get(level, {})))  # type: ignore[call-arg]


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_bot_plays_only_legal_moves(level: str) -> None:
    deals = 6 if level in SMALL else 24
    for i, rules in enumerate(RULES):
        for d in range(deals if level not in SMALL else (1 if i % 3 else 2)):
            n = rules.players
            others = ["random", "greedy", "heuristic"]
            bots = [_bot(level if s == d % n else others[s % 3], s, rules, 100 * d + s) for s in range(n)]
            state = play(State.deal(rules, seed=1000 * i + d, dealer=d % n), bots)
            assert state.over and sum(state.result.won) == 52  # type: ignore[union-attr]


@pytest.mark.parametrize("level", list(LEVELS))
def test_a_seeded_bot_plays_the_same_deal_the_same_way(level: str) -> None:
    rules = Rules.make("survivor", 4, ["modern-laugh"])
    runs = []
    for _ in range(2):
        bots = [_bot(level, s, rules, 7 + s) for s in range(4)]
        play(State.deal(rules, seed=42), bots)
        runs.append([b.moves for b in bots])
    assert runs[0] == runs[1]


def test_oracle_is_a_level_but_never_on_the_menu() -> None:
    assert "oracle" in LEVELS and "oracle" not in MENU_LEVELS
    assert {"random", "greedy", "heuristic", "pimc", "expert"} <= set(MENU_LEVELS)


def test_oracle_refuses_to_play_blind() -> None:
    rules = Rules.make()
    state = next(s for s in (State.deal(rules, seed=i) for i in range(50))
                 if len({(a.play[0].rank, len(a.play), len(a.take))  # type: ignore[union-attr]
                         for a in s.turn_actions()}) > 1)
    bot = make_bot("oracle", state.eldest, rules, random.Random(1))
    turns = state.turn_actions()
    with pytest.raises(RuntimeError, match="true state"):
        bot.act(state.view(state.eldest), turns)


def test_hint_answers_a_legal_move_and_a_reason() -> None:
    rules = Rules.make()
    rng = random.Random(3)
    for seed in range(4):
        state = State.deal(rules, seed=seed)
        for _ in range(rng.randrange(6)):
            if state.over:
                break
            state.apply(rng.choice(state.turn_actions()))
        if state.over:
            continue
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions(seat)
        action, reason = hint(state.view(seat), legal)
        assert action is None or action in legal
        assert reason and "\n" not in reason
