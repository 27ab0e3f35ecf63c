"""Bots: players built on the engine's views (a bot never sees a hidden card).

A bot is made with its seat, the rules and an injected :class:`random.Random`; the engine
offers it its legal turn actions through :meth:`Bot.act`, and its open claims through
:meth:`Bot.claim` whenever a claim window opens.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..core import Action, Claim, PlayerView, Rules


class Bot:
    """The bot protocol, with the choices of a uniform random player as defaults."""

    name = "random"
    version = "1"

    def __init__(self, seat: int, rules: Rules, rng: random.Random) -> None:
        self.seat = seat
        self.rules = rules
        self.rng = rng

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """Choose one of ``legal``, the seat's turn actions."""
        return self.rng.choice(legal)

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """Choose one of the open ``claims``, or None to let them pass for now."""
        options: list[Claim | None] = [None, *claims]
        return self.rng.choice(options)


class RandomBot(Bot):
    """Uniform over the engine's legal actions: every card choice counts as one, and
    passing on open claims counts as one choice among them."""


BotFactory = Callable[[int, Rules, random.Random], Bot]

#: Bot levels by name; later levels register themselves here.
LEVELS: dict[str, BotFactory] = {"random": RandomBot}


def make_bot(level: str, seat: int, rules: Rules, rng: random.Random) -> Bot:
    """A bot of the named level."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}: choose {', '.join(LEVELS)}") from None
    return factory(seat, rules, rng)


def _register() -> None:
    from .heuristic import GreedyBot, HeuristicBot
    from .search import ExpertBot, OracleBot, PimcBot

    LEVELS["greedy"] = GreedyBot
    LEVELS["heuristic"] = HeuristicBot
    LEVELS["pimc"] = PimcBot
    LEVELS["expert"] = ExpertBot
    LEVELS["oracle"] = OracleBot


_register()

#: The levels a person may choose as opponents (the oracle sees every hand: never offered).
MENU_LEVELS: tuple[str, ...] = tuple(name for name in LEVELS if name != "oracle")

#: Each level's version, for result tables.
VERSIONS: dict[str, str] = {name: getattr(factory, "version", "1") for name, factory in LEVELS.items()}


def hint(view: PlayerView, legal: Sequence[Action]) -> tuple[Action | None, str]:
    """What the best bot would do here and why, in one line (the terminal's hint key)."""
    from .search import hint as search_hint

    return search_hint(view, legal)
