"""The readings' figures measured on deals people played, beside the bots' on the same
deals (docs/readings/README.md#human-evidence).

Each deal of the dataset is played twice through :func:`lald.lab.measure.measure`, the
readings' own counting loop: once by its record (every seat's recorded choice, the claim
window asking the seats as the readings' loop always does), and once by bots, from the
same layout, dealer and pot. Two sets of figures follow:

- **by seat**, for every seat a person played throughout the deal (none of its actions
  chosen by a bot standing in): its captures by kind, the sweeps it held back (a turn with
  a choice where one card could take all three of its rank and the seat took less), its
  claims by kind, whether it lay down, survived, its chips and cards won; the bot in the
  same seat with the same cards is its pair;
- **by deal**, for the deals every seat of which a person played: the readings' per-deal
  figures (turns, lie-downs, captures by kind, whether the survivor made the last capture,
  the residue), beside the bots' on the same deal.

Deals are grouped by reading (:func:`lald.lab.reading.reading_of` of the record's rules);
every figure is a mean with its 95% interval, and each difference people minus bots is
paired deal by deal, with Holm's correction over all the differences shown.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from typing import Any

from ...bots import Bot
from ...core import (
    Action,
    Capture,
    CaptureKind,
    Claim,
    Claimed,
    LaidDown,
    PlayerView,
    Rules,
    State,
)
from ...record import RecordError
from ..analysis import Difference, holm, mean, paired_difference, wilson
from ..measure import COLUMN, Table, bot_rng, measure
from ..reading import reading_of
from .dataset import GameLine

__all__ = ["DEAL_MEASURES", "SEAT_MEASURES", "SHARES", "Evidence", "measure_lines"]

#: The figures of a person's seat in one deal.
SEAT_MEASURES: tuple[str, ...] = (
    "single", "sweep", "pair", "prial", "sweep_chances", "sweeps_held", "hand_set", "dead", "spotter",
    "lie_down", "survived", "chips", "won")

#: The per-deal figures of the readings (columns of ``deals.csv``) compared on deals
#: people played at every seat.
DEAL_MEASURES: tuple[str, ...] = (
    "turns", "lie_downs", "single", "sweep", "pair", "prial", "hand_set", "survivor_last", "residue")

#: The figures that are shares (of seats, or of deals), with Wilson's interval.
SHARES = frozenset({"lie_down", "survived", "survivor_last"})

_SWEEP = CaptureKind.SWEEP


class _Replay(Bot):
    """A seat that chooses what the record says it chose, at the moment it did: the
    record's next action is its move if it is this seat's (the state's own list of
    actions says how far the deal has gone)."""

    def __init__(self, seat: int, rules: Rules, state: State, actions: Sequence[Action]) -> None:
        super().__init__(seat, rules, random.Random(0))
        self.state = state
        self.actions = actions

    def _next(self) -> Action | None:
        done = len(self.state.actions)
        return self.actions[done] if done < len(self.actions) else None

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        action = self._next()
        if action is None or isinstance(action, Claim) or action.seat != self.seat:
            raise RecordError(f"seat {self.seat} is to move here, but the record has "
                              f"{'nothing more' if action is None else str(action)}", len(self.state.actions))
        return action

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        action = self._next()
        return action if isinstance(action, Claim) and action.seat == self.seat else None


class _Watch(Bot):
    """A seat's player, and how often it held back a sweep it could have made."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.seat, inner.rules, inner.rng)
        self.inner = inner
        self.chances = 0
        self.held = 0

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        action = self.inner.act(view, legal)
        if any(isinstance(a, Capture) and a.kind is _SWEEP for a in legal):
            self.chances += 1
            self.held += not (isinstance(action, Capture) and action.kind is _SWEEP)
        return action

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        return self.inner.claim(view, claims)


def _play(line: GameLine, state: State, players: list[Bot]) -> tuple[list[Any], list[_Watch]]:
    """Play ``state``, the deal's layout, through the readings' loop with ``players``; its
    row and the watched seats."""
    watched = [_Watch(b) for b in players]
    return measure(state, watched, None, line.game, line.deal - 1, False), watched


def _seat_figures(state: State, watched: _Watch, seat: int) -> dict[str, float]:
    out = dict.fromkeys(SEAT_MEASURES, 0.0)
    for op in state.history:
        if isinstance(op, Capture) and op.seat == seat and op.kind is not None:
            out[op.kind.value] += 1
        elif isinstance(op, Claimed) and op.seat == seat:
            out[op.kind.value] += 1
        elif isinstance(op, LaidDown) and op.seat == seat:
            out["lie_down"] = 1
    result = state.result
    assert result is not None
    out["sweep_chances"] = watched.chances
    out["sweeps_held"] = watched.held
    out["survived"] = float(result.survivor == seat)
    out["chips"] = result.chips[seat]
    out["won"] = result.won[seat]
    return out


@dataclasses.dataclass
class _Group:
    """One reading's deals, played by their people and by one table of bots."""

    deals: int = 0
    seats: dict[str, tuple[list[float], list[float]]] = dataclasses.field(
        default_factory=lambda: {m: ([], []) for m in SEAT_MEASURES})
    whole: dict[str, tuple[list[float], list[float]]] = dataclasses.field(
        default_factory=lambda: {m: ([], []) for m in DEAL_MEASURES})
    people_seats: int = 0
    people_deals: int = 0


@dataclasses.dataclass(frozen=True)
class Evidence:
    """What people did beside what bots did on the same deals, by reading."""

    bots: str
    """The bots' table (``heuristic``)."""
    groups: dict[str, _Group]

    def to_json(self) -> dict[str, Any]:
        """Plain data: for each reading its counts, and for each figure the people's mean,
        the bots' and the paired difference (``real``: after Holm's correction)."""
        diffs: list[tuple[str, str, str, Difference, Any, Any]] = []
        for reading, g in self.groups.items():
            for part, data in (("seat", g.seats), ("deal", g.whole)):
                for m, (people, bots) in data.items():
                    if len(people) < 2:
                        continue
                    est, p = paired_difference(people, bots)
                    share = m in SHARES
                    diffs.append((reading, part, m, Difference("people", self.bots, m, est, p, True),
                                  wilson(sum(people), len(people)) if share else mean(people),
                                  wilson(sum(bots), len(bots)) if share else mean(bots)))
        adjusted = holm([1.0 if math.isnan(d[3].p) else d[3].p for d in diffs])
        out: dict[str, Any] = {"bots": self.bots, "readings": []}
        by_reading: dict[str, dict[str, Any]] = {}
        for reading, g in self.groups.items():
            entry = {"reading": reading, "deals": g.deals, "people_seats": g.people_seats,
                     "people_deals": g.people_deals, "seat": {}, "deal": {}}
            by_reading[reading] = entry
            out["readings"].append(entry)
        for (reading, part, m, d, people, bots), p_holm in zip(diffs, adjusted, strict=True):
            d = dataclasses.replace(d, p_holm=p_holm)
            by_reading[reading][part][m] = {"people": people.to_json(), "bots": bots.to_json(),
                                            "difference": d.to_json()}
        return out


def measure_lines(lines: Sequence[GameLine], table: Table, seed: int = 1) -> Evidence:
    """Play every line by its record and by ``table``'s bots (one bot spec in every seat,
    seeded by ``seed``, the line's game and deal, and the seat), and gather the figures."""
    if table.hero is not None:
        raise ValueError(f"bots {table.name!r}: the people's deals are compared with one kind of bot "
                         "in every seat (e.g. heuristic)")
    groups: dict[str, _Group] = {}
    for line in lines:
        rules = line.record.rules
        reading = reading_of(rules).text
        group = groups.setdefault(reading, _Group())
        n = rules.players
        state = line.record.start()
        row, watched = _play(line, state, [_Replay(s, rules, state, line.record.actions) for s in range(n)])
        if tuple(state.actions) != line.record.actions:
            raise RecordError(f"game {line.game}, deal {line.deal}: the record does not follow the claim "
                              "window to its end")
        unit = line.game * 10_000 + line.deal
        bot_state = line.record.start()
        bot_row, bot_watched = _play(line, bot_state, [
            table.field.make(s, rules, bot_rng(seed, "evidence", unit, s)) for s in range(n)])
        group.deals += 1
        people = line.people()
        for s in people:
            mine = _seat_figures(state, watched[s], s)
            theirs = _seat_figures(bot_state, bot_watched[s], s)
            for m in SEAT_MEASURES:
                group.seats[m][0].append(mine[m])
                group.seats[m][1].append(theirs[m])
        group.people_seats += len(people)
        if len(people) == n:
            group.people_deals += 1
            for m in DEAL_MEASURES:
                group.whole[m][0].append(float(row[COLUMN[m]]))
                group.whole[m][1].append(float(bot_row[COLUMN[m]]))
    return Evidence(table.name, groups)
