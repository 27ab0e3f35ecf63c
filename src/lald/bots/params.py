"""The search bots' spec parameters, read once into frozen values (``expert:worlds=40``).

A bot spec gives every value as text (``lald.play.spec``), code gives numbers; either is
read here once, and a value the bot cannot use is refused with one line naming it and
what it takes:

>>> ExpertParams.parse(worlds="40", model="off").worlds
40
>>> ExpertParams.parse(time_limit="soon")
Traceback (most recent call last):
  ...
ValueError: time_limit=soon: give a number of seconds above 0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

_ON, _OFF = ("1", "on", "true", "yes"), ("0", "off", "false", "no")


def whole(name: str, value: object, low: int, what: str) -> int:
    """``value`` as a whole number of at least ``low``; ``what`` says what it counts."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"{name}={value}: give {what}")
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"{name}={value}: give {what}") from None
    if number < low:
        raise ValueError(f"{name}={value}: give {what}")
    return number


def number(name: str, value: object, low: float, what: str, *, above: bool = False) -> float:
    """``value`` as a number of at least ``low`` (above it, with ``above``): ``inf`` is one
    (``time_limit=inf``: no clock), NaN is not."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"{name}={value}: give {what}")
    try:
        x = float(value)
    except ValueError:
        raise ValueError(f"{name}={value}: give {what}") from None
    if not (x > low if above else x >= low):  # (NaN is neither)
        raise ValueError(f"{name}={value}: give {what}")
    return x


def flag(name: str, value: object) -> bool:
    """``value`` as on or off: ``1``/``on``/``true``/``yes`` or ``0``/``off``/``false``/``no``."""
    if isinstance(value, str):
        if value.lower() in _ON:
            return True
        if value.lower() in _OFF:
            return False
        raise ValueError(f"{name}={value}: give 1 (on) or 0 (off)")
    if isinstance(value, bool | int):
        return bool(value)
    raise ValueError(f"{name}={value}: give 1 (on) or 0 (off)")


def choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of ``choices``."""
    if value not in choices:
        raise ValueError(f"{name}={value}: choose {', '.join(choices[:-1])} or {choices[-1]}")
    return str(value)


def habits(name: str, value: object) -> frozenset[str] | None:
    """``value`` as a set of habit names (None: the level's own choice)."""
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, Iterable) or not all(
            isinstance(h, str) for h in value):
        raise ValueError(f"{name}={value!r}: give habit names")
    return frozenset(value)


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class ExpertParams:
    """The ``expert``'s parameters (what each does: :mod:`lald.bots.expert`), checked."""

    worlds: int = 160
    """The most worlds searched in one decision."""
    time_limit: float = 0.08
    """Seconds a decision may take."""
    model: bool = True
    """Whether worlds are drawn under the opponent model."""
    solve: int = 12
    """Cards left in the hands at which an end position is solved exactly (0: never)."""
    nodes: int = 1500
    """The node cap of one exact solve."""
    off: frozenset[str] | None = None
    """Habits the roll-out plays without (None: the default ones)."""
    on: frozenset[str] | None = None
    """Habits the roll-out plays with, the others off (None: the default ones)."""
    rollout: str = "heuristic"
    """The roll-out policy: ``heuristic``, ``v3`` or ``plain`` (every habit)."""
    look: int = 0
    """This seat's choices made by look-ahead in each world (0: the heuristic's)."""
    exact: int = 48
    """Search every world once there are at most this many (0: never)."""
    claims: str = "all"
    """Claim windows searched: ``all``, or ``own`` (only when it is the one to move)."""
    prior: float = 1.0
    """Standard errors by which a move must beat the heuristic's to be played (0: off)."""
    infer: float = -1.0
    """The temperature worlds are weighed by their likelihood with (below 0: off)."""
    min_worlds: int = 16
    """Fewer worlds in the time than this and the other worlds are rolled out, not solved."""
    kernel: str = "compiled"
    """``compiled`` (the kernel wherever it is loaded) or ``python`` (the pure path)."""

    @classmethod
    def parse(cls, **given: object) -> ExpertParams:
        """The parameters from numbers or a spec's text (those not given keep their
        defaults); ValueError with one line for a name or a value the expert cannot use."""
        names = [f.name for f in dataclasses.fields(cls)]
        for name in given:
            if name not in names:
                raise ValueError(f"the expert takes no parameter {name!r}: choose {', '.join(names)}")
        d = {f.name: f.default for f in dataclasses.fields(cls)} | given
        return cls(
            worlds=whole("worlds", d["worlds"], 1, "a whole number of worlds, at least 1"),
            time_limit=number("time_limit", d["time_limit"], 0, "a number of seconds above 0", above=True),
            model=flag("model", d["model"]),
            solve=whole("solve", d["solve"], 0, "a whole number of cards (0: no exact solves)"),
            nodes=whole("nodes", d["nodes"], 1, "a whole number of nodes, at least 1"),
            off=habits("off", d["off"]),
            on=habits("on", d["on"]),
            rollout=choice("rollout", d["rollout"], ("heuristic", "v3", "plain")),
            look=whole("look", d["look"], 0, "a whole number of choices (0: off)"),
            exact=whole("exact", d["exact"], 0, "0 (off) or a whole number of worlds"),
            claims=choice("claims", d["claims"], ("all", "own")),
            prior=number("prior", d["prior"], 0, "0 (off) or a number of standard errors"),
            infer=number("infer", d["infer"], -float("inf"), "a number (below 0: off)"),
            min_worlds=whole("min_worlds", d["min_worlds"], 0, "a whole number of worlds"),
            kernel=choice("kernel", d["kernel"], ("compiled", "python")),
        )
