"""Bots: players built on the engine's views (a bot never sees a hidden card).

A bot is made with its seat, the rules and an injected :class:`random.Random`; the engine
offers it its legal turn actions through :meth:`Bot.act`, and its open claims through
:meth:`Bot.claim` whenever a claim window opens.
"""

from __future__ import annotations

import importlib.util
import os
import random
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

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


#: Levels other packages plug in, each an entry point of this group naming a bot factory
#: (``policy``, ``learned`` and ``guided`` of :mod:`lald.bots.learned`, which needs numpy;
#: ``ismcts`` of the research extra, :mod:`lald.rl`). They are found by
#: name (``find_level``, ``lald tournament --bot ismcts``) and imported on first use; the
#: menus do not list them.
PLUGIN_GROUP = "lald.levels"
#: Saved policies to seat as named levels, menus included: ``NAME=FILE[,NAME=FILE...]``
#: (each played by the ``policy`` plug-in level with ``file=FILE``).
POLICIES_ENV = "LALD_POLICIES"


class _Plugin:
    """A plug-in level, imported when its first bot is made."""

    def __init__(self, name: str, target: str, fixed: dict[str, str] | None = None) -> None:
        self.name, self.target, self.fixed = name, target, fixed or {}
        self._factory: Callable[..., Bot] | None = None

    def __call__(self, seat: int, rules: Rules, rng: random.Random, **params: object) -> Bot:
        if self._factory is None:
            found = [e for e in entry_points(group=PLUGIN_GROUP) if e.name == self.target]
            if not found:
                raise ValueError(f"bot level {self.name!r} needs the {self.target!r} plug-in level, "
                                 "which is not installed: pip install 'lald[rl]'")
            try:
                self._factory = found[0].load()
            except ImportError as e:
                raise ValueError(f"bot level {self.name!r} needs the research extra "
                                 f"(pip install 'lald[rl]'): {e}") from None
        return self._factory(seat, rules, rng, **{**params, **self.fixed})


_PLUGINS: dict[str, _Plugin] = {}


def level_names() -> list[str]:
    """Every level a spec may name: the registered ones and the plug-in levels installed
    (``policy``, ``guided``; ``ismcts`` with the research extra), sorted."""
    return sorted({*LEVELS, *(e.name for e in entry_points(group=PLUGIN_GROUP))})


#: The names people call the levels by (the setup screen's, lald.i18n's ``level_*``
#: labels), each with the level it stands for; ``expert`` is both. Every command that
#: names a level takes either name (:func:`level_of`).
FRIENDLY: dict[str, str] = {"beginner": "random", "easy": "greedy", "medium": "heuristic", "strong": "pimc"}


def level_of(name: str) -> str:
    """The level a name stands for: a friendly name's level (:data:`FRIENDLY`), else the
    name itself.

    >>> level_of("easy"), level_of("greedy"), level_of("expert")
    ('greedy', 'greedy', 'expert')
    """
    return FRIENDLY.get(name, name)


def find_level(name: str) -> BotFactory | None:
    """The factory of a level: a registered one, or a plug-in level (None if neither);
    a friendly name finds its level's."""
    name = level_of(name)
    if name in LEVELS:
        return LEVELS[name]
    if name not in _PLUGINS and any(e.name == name for e in entry_points(group=PLUGIN_GROUP)):
        _PLUGINS[name] = _Plugin(name, name)
    return _PLUGINS.get(name)


def _policy_levels() -> None:
    """The named policy levels of :data:`POLICIES_ENV`."""
    for item in os.environ.get(POLICIES_ENV, "").split(","):
        name, sep, path = item.partition("=")
        if sep and name.strip() and path.strip() and name.strip() not in LEVELS:
            LEVELS[name.strip()] = _Plugin(name.strip(), "policy", {"file": path.strip()})


def make_bot(level: str, seat: int, rules: Rules, rng: random.Random) -> Bot:
    """A bot of the named level."""
    factory = find_level(level)
    if factory is None:
        raise ValueError(f"unknown bot level {level!r}: choose {', '.join(LEVELS)} "
                         f"(or {', '.join(FRIENDLY)})")
    return factory(seat, rules, rng)


def _register() -> None:
    from .heuristic import GreedyBot, HeuristicBot
    from .search import ExpertBot, OracleBot, PimcBot

    LEVELS["greedy"] = GreedyBot
    LEVELS["heuristic"] = HeuristicBot
    LEVELS["pimc"] = PimcBot
    LEVELS["expert"] = ExpertBot
    LEVELS["oracle"] = OracleBot


def _learned_level() -> None:
    """The ``learned`` level (a network trained by self-play, :mod:`lald.bots.learned.network`)
    joins the menus wherever numpy is installed, the only library it needs (lald's play,
    web and rl extras bring it); it is imported when its first bot is made. It comes after
    the heuristic in the menus' order of strength (docs/strength.md §10)."""
    if "learned" not in LEVELS and importlib.util.find_spec("numpy") is not None:
        items = list(LEVELS.items())
        at = [name for name, _ in items].index("heuristic") + 1
        items.insert(at, ("learned", _Plugin("learned", "learned")))
        LEVELS.clear()
        LEVELS.update(items)


_register()
_learned_level()
_policy_levels()

#: The levels a person may choose as opponents (the oracle sees every hand: never offered).
MENU_LEVELS: tuple[str, ...] = tuple(name for name in LEVELS if name != "oracle")

#: Each level's version, for result tables.
VERSIONS: dict[str, str] = {name: getattr(factory, "version", "1") for name, factory in LEVELS.items()}


def hint(view: PlayerView, legal: Sequence[Action]) -> tuple[Action | None, str]:
    """What the best bot would do here and why, in one line (the terminal's hint key)."""
    from .search import hint as search_hint

    return search_hint(view, legal)
