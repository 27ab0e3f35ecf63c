"""A site's finished deals as a public dataset, ``lald-games/1`` (docs/record.md#a-sites-games-lald-games1).

One line per finished deal: the game (a table's session, numbered in the export), the
deal's place in it, who sat in each seat (a person, or a bot of a level), who chose each
action (the person, a bot, or a bot standing in for an absent person) and the deal itself
as a game record (``lald-record/1``), by its layout, with the names of the people whose
accounts agreed to be named and ``Seat N`` for everyone else.

It is given a stored table as plain data (:class:`SiteTable`: the laboratory does not
read the site's database; ``lald db export-games`` does, and hands it over) and rebuilds
its session through the engine, deal by deal. Only finished deals are written: the deal
in play never is, nor any deal of a practice table still open (it is dealt from a seed,
and a finished deal's cards would tell its deals to come), nor a lesson (a scripted deal
of the teaching table, not a game).

>>> from lald.core import Rules, Session
>>> session = Session(Rules.make(players=3), seed=8)
>>> deal = session.start_deal()
>>> while not deal.over:
...     _ = deal.apply(deal.turn_actions()[0])
>>> table = SiteTable({"preset": "survivor", "players": 3}, 8, None, False, False,
...     (SiteSeat(True, "random", "Ann"), SiteSeat(False, "heuristic"), SiteSeat(True, "random")),
...     [[(a.to_json(), "human") for a in deal.actions]])
>>> [line] = export_lines(table, game=1)
>>> line["players"], line["record"]["names"]
(['person', 'bot:heuristic', 'person'], ['Ann', 'Seat 1', 'Seat 2'])
>>> read_line(line).record.replay().over
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ...core import Rules, Session, State, action_from_json
from ...record import Record, RecordError, parse_json

__all__ = ["BY", "DATASET", "GameLine", "SiteSeat", "SiteTable", "export_lines", "finished_deals",
           "read_line", "read_lines"]

DATASET = "lald-games/1"

#: Who chose an action, by the source the site stored with it.
BY = {"human": "person", "bot": "bot", "away": "stand-in", "timer": "stand-in"}

_KEYS = ("dataset", "game", "deal", "players", "by", "record")


@dataclasses.dataclass(frozen=True, slots=True)
class SiteSeat:
    """One seat of a stored table, as the dataset may show it."""

    person: bool
    """Whether a person sits there (else a bot)."""
    level: str
    """The seat's bot level (a person's stand-in when they are away)."""
    name: str | None = None
    """The name to give it: only that of an account whose owner agreed, else None."""


@dataclasses.dataclass(frozen=True, slots=True)
class SiteTable:
    """One stored table, as plain data."""

    rules: dict[str, Any]
    """The rules' spec (``preset``, ``players``, ``variants``, ``options``)."""
    seed: int
    """A practice table's seed (its deals come from it)."""
    secret: str | None
    """The key of its deals in hexadecimal (None: a practice table, dealt from ``seed``)."""
    lesson: bool
    """A lesson table (a scripted teaching deal: never exported)."""
    open: bool
    """Still to be played (waiting or playing)."""
    seats: tuple[SiteSeat, ...]
    deals: Sequence[Sequence[tuple[dict[str, Any], str]]]
    """Each deal's actions (their JSON form) and who chose each (the stored source)."""


@dataclasses.dataclass(frozen=True, slots=True)
class GameLine:
    """One line of the dataset, read back."""

    game: int
    deal: int
    """The deal's place in its game, from 1."""
    players: tuple[str, ...]
    """``person`` or ``bot:LEVEL`` for each seat."""
    by: tuple[str, ...]
    """Who chose each action: ``person``, ``bot`` or ``stand-in``."""
    record: Record

    def people(self) -> list[int]:
        """The seats a person played throughout: a person's seat none of whose actions a
        bot chose in their place."""
        stood_in = {a.seat for a, who in zip(self.record.actions, self.by, strict=True) if who != "person"}
        return [s for s, p in enumerate(self.players) if p == "person" and s not in stood_in]


def _rules(spec: dict[str, Any]) -> Rules:
    return Rules.make(spec.get("preset", "survivor"), spec.get("players", 5), spec.get("variants", ()),
                      spec.get("options", {}))


def finished_deals(table: SiteTable) -> Iterator[tuple[int, State, list[str]]]:
    """The table's finished deals, in order: the deal's index, the deal and each action's
    stored source. Stops before the first deal not over (the deal in play)."""
    rules = _rules(table.rules)
    session = Session(rules, table.seed, secret=None if table.secret is None else bytes.fromhex(table.secret))
    for index, actions in enumerate(table.deals):
        if session.over:
            return
        state = session.start_deal()
        for obj, _source in actions:
            state.apply(action_from_json(obj))
        if not state.over:
            return
        yield index, state, [source for _obj, source in actions]
        session.end_deal(state)


def export_lines(table: SiteTable, game: int) -> list[dict[str, Any]]:
    """The dataset's lines of one table, numbered ``game``: one per finished deal (none
    for a lesson, nor for a practice table still open)."""
    if table.lesson or (table.open and table.secret is None):
        return []
    players = ["person" if s.person else f"bot:{s.level}" for s in table.seats]
    names = [s.name if s.person and s.name else "" for s in table.seats]
    out = []
    for index, state, sources in finished_deals(table):
        record = Record.from_state(state, layout=True, names=names)
        out.append({"dataset": DATASET, "game": game, "deal": index + 1, "players": players,
                    "by": [BY.get(s, "bot") for s in sources], "record": record.to_json()})
    return out


def _whole(obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < 2**63:
        raise RecordError(f"'{key}' must be a whole number from 1")
    return value


def _words(obj: dict[str, Any], key: str, allowed: Iterable[str], prefix: str = "") -> tuple[str, ...]:
    value = obj.get(key)
    choices = set(allowed)
    if not isinstance(value, list) or not all(
            isinstance(v, str) and (v in choices or (prefix and v.startswith(prefix))) for v in value):
        raise RecordError(f"'{key}' must be a list of {', '.join(sorted(choices))}"
                          + (f" or {prefix}LEVEL" if prefix else ""))
    return tuple(value)


def read_line(obj: Any) -> GameLine:
    """One line of the dataset (parsed JSON); raise :class:`RecordError` in one line."""
    if not isinstance(obj, dict):
        raise RecordError("a line must be a JSON object")
    unknown = sorted(set(obj) - set(_KEYS))
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r}")
    if obj.get("dataset") != DATASET:
        raise RecordError(f"'dataset' must be {DATASET!r}")
    record = Record.from_json(obj.get("record"))
    players = _words(obj, "players", ["person"], prefix="bot:")
    by = _words(obj, "by", set(BY.values()))
    if len(players) != record.rules.players:
        raise RecordError(f"'players' has {len(players)} seats for {record.rules.players}")
    if len(by) != len(record.actions):
        raise RecordError(f"'by' names {len(by)} choosers for {len(record.actions)} actions")
    if not record.replay().over:
        raise RecordError("the deal is not over: the dataset holds finished deals only")
    return GameLine(_whole(obj, "game"), _whole(obj, "deal"), players, by, record)


def read_lines(lines: Iterable[str | dict[str, Any]]) -> list[GameLine]:
    """Every line of a dataset (text lines, or objects already parsed); a bad one raises
    :class:`RecordError` naming its line number. Blank lines are skipped."""
    out = []
    for number, line in enumerate(lines, 1):
        try:
            if isinstance(line, str):
                if not line.strip():
                    continue
                obj = parse_json(line)
            else:
                obj = line
            out.append(read_line(obj))
        except RecordError as e:
            raise RecordError(f"line {number}: {e}") from None
    return out
