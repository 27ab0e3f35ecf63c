"""Bot specs: the one place where a bot's name on the command line becomes a bot.

A spec is ``LEVEL``, ``LEVEL:PARAM:PARAM...`` or ``cmd:COMMAND``:

- ``LEVEL`` is a name of :data:`lald.bots.LEVELS` (``random``, ``greedy``, ...).
- ``PARAM`` is ``-name``, ``+name`` or ``key=value``; they reach the level's factory as
  the keywords ``off`` and ``on`` (frozensets of names) and ``key="value"`` (see
  :func:`_with_params`), and the level says what they mean. For the heuristic,
  ``heuristic:-deny`` is the bot without its ``deny`` habit, and ``heuristic:+deny:+keep_sets``
  the bare policy with only those two habits; the search bots take ``worlds=N`` and
  ``time_limit=SECONDS`` (``pimc:worlds=8``).
- ``cmd:COMMAND`` runs an outside program speaking ``lald-bot/2`` (docs/bot-protocol.md);
  COMMAND is split like a shell would split it, but no shell runs it.

>>> parse_spec("random")
BotSpec(text='random', level='random', params=(), command=None, name='random')
>>> parse_spec("cmd:node examples/bot.js").command
'node examples/bot.js'
>>> parse_spec("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
  ...
ValueError: unknown bot 'chess': choose ...random... or cmd:COMMAND
"""

from __future__ import annotations

import dataclasses
import inspect
import random
from collections.abc import Sequence

from ..bots import LEVELS, Bot, find_level, level_names, level_of
from ..bots.external import DEFAULT_TIMEOUT, ExternalBot, check_command
from ..core import Rules

#: A parameter: ``("-", name)``, ``("+", name)`` or ``("=", key, value)``.
Param = tuple[str, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class BotSpec:
    """A parsed bot spec; ``text`` is its canonical form."""

    text: str
    level: str
    params: tuple[Param, ...] = ()
    command: str | None = None
    name: str = ""
    """The bot's name in results: ``text``, numbered when one spec is named twice."""

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", self.text)

    @property
    def external(self) -> bool:
        """Whether an outside program plays this bot."""
        return self.command is not None

    def make(self, seat: int, rules: Rules, rng: random.Random, timeout: float = DEFAULT_TIMEOUT) -> Bot:
        """A bot of this spec for ``seat``."""
        if self.command is not None:
            return ExternalBot(seat, rules, rng, self.command, timeout)
        factory = find_level(self.level)
        assert factory is not None, f"no level {self.level!r}"
        if not self.params:
            return factory(seat, rules, rng)
        return factory(seat, rules, rng, **_with_params(self))


def _choices() -> str:
    # (the plug-in levels too: seen before, ismcts and policy:file=PATH, which work, went unlisted)
    return ", ".join(n + ":file=PATH" if n == "policy" else n for n in level_names()) + " or cmd:COMMAND"


def _with_params(spec: BotSpec) -> dict[str, object]:
    """The keyword arguments a spec's parameters give its level's factory: ``off`` and
    ``on`` (frozensets of habit names) and each ``key=value`` as a string."""
    off = frozenset(p[1] for p in spec.params if p[0] == "-")
    on = frozenset(p[1] for p in spec.params if p[0] == "+")
    kwargs: dict[str, object] = {p[1]: p[2] for p in spec.params if p[0] == "="}
    if off:
        kwargs["off"] = off
    if on:
        kwargs["on"] = on
    return kwargs


def _check_params(spec: BotSpec) -> None:
    factory = find_level(spec.level)
    assert factory is not None, f"no level {spec.level!r}"
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # pragma: no cover - classes and functions have one
        return
    accepts_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values())
    for key in _with_params(spec):
        if not accepts_any and key not in signature.parameters:
            what = "habits to switch" if key in ("on", "off") else f"parameter {key!r}"
            raise ValueError(f"bot {spec.level!r} takes no {what}")


def parse_spec(text: str, rules: Rules | None = None) -> BotSpec:
    """Read one bot spec; raise ValueError with a one-line reason, also when its level
    cannot play ``rules`` (the default rules if None)."""
    text = text.strip()
    head, sep, rest = text.partition(":")
    if head == "cmd":
        command = rest.strip()
        check_command(command)
        return BotSpec(f"cmd:{command}", "cmd", (), command)
    head = level_of(head.strip())  # the setup screen's names too (lald.bots.FRIENDLY)
    if find_level(head) is None:
        raise ValueError(f"unknown bot {head!r}: choose {_choices()}")
    params: list[Param] = []
    if sep:
        for item in rest.split(":"):
            item = item.strip()
            if item[:1] in ("-", "+") and item[1:].replace("_", "").replace("-", "").isalnum():
                params.append((item[0], item[1:]))
            elif "=" in item and item.partition("=")[0].isidentifier() and item.partition("=")[2]:
                key, _, value = item.partition("=")
                params.append(("=", key, value))
            else:
                raise ValueError(
                    f"bad parameter {item!r} in bot {text!r}: write -habit, +habit or key=value")
    spec = BotSpec(head if not params else head + ":" + ":".join(_param_text(p) for p in params),
                   head, tuple(params))
    _check_params(spec)
    # let the level judge its parameters and the rules now, not in a worker mid-tournament
    # (a plug-in level is made once even without them: it may need an extra that is not
    # installed, or refuse the rules)
    if params or head not in LEVELS:
        try:
            spec.make(0, rules or Rules.make(), random.Random(0))
        except (ValueError, TypeError) as e:
            raise ValueError(f"bot {spec.text!r}: {e}") from None
    return spec


def _param_text(p: Param) -> str:
    return p[0] + p[1] if p[0] in "-+" else f"{p[1]}={p[2]}"


def parse_specs(bots: Sequence[str], bot_lists: Sequence[str] = (), rules: Rules | None = None
                ) -> list[BotSpec]:
    """The specs of ``--bots a,b,c`` lists (split on commas) followed by repeated
    ``--bot SPEC`` values (not split, so a command may hold commas). A spec named more
    than once is numbered, ``random#1`` and ``random#2``, so that the results tell the
    copies apart (random against random is the tournament's sanity check). Each is
    judged under ``rules``, as :func:`parse_spec` does."""
    texts = [t for group in bot_lists for t in group.split(",") if t.strip()] + list(bots)
    specs = [parse_spec(t, rules) for t in texts]
    counts: dict[str, int] = {}
    for spec in specs:
        counts[spec.text] = counts.get(spec.text, 0) + 1
    seen: dict[str, int] = {}
    named = []
    for spec in specs:
        if counts[spec.text] > 1:
            seen[spec.text] = seen.get(spec.text, 0) + 1
            spec = dataclasses.replace(spec, name=f"{spec.text}#{seen[spec.text]}")
        named.append(spec)
    return named
