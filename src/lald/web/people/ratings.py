"""Ratings: an OpenSkill rating per account and reading, from rated sessions.

A *rated* table is public, opened by a logged-in host, with a named reading (a preset,
players and variants: no other option), no practice seed and no hints; every person at it
has an account (its open seats are for accounts only). When its session ends, each seat
is ranked by the session's standings (chips; under ``low-stakes`` deals won, then cards
won; ties share a rank), and the whole table is rated at once with OpenSkill's
Plackett–Luce model (the ``openskill`` package: its multiplayer free-for-all model, its
default prior mu 25, sigma 25/3): each account's rating in the table's reading
(:func:`lald.web.people.lobby.reading_of`) moves; a bot takes part with its level's fixed,
published rating (:data:`BOT_RATINGS`) and keeps it. A table's ratings are applied once
(the store keeps which tables are rated); a server stopped between a session's end and its
rating rates it on restart (:meth:`Ratings.catch_up`).

Private tables are never rated, so a rating cannot be farmed by losing on purpose among
friends; practice tables (whose seed someone chose) are never rated.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...core import Session
from ...core.rules import Scoring
from ...store.accounts import Accounts
from .lobby import reading_of

if TYPE_CHECKING:
    from ..table.tables import Table

log = logging.getLogger("lald.web")

BOT_SIGMA = 1.0
"""The uncertainty of every bot's fixed rating."""
BOT_RATINGS: dict[str, float] = {
    "random": 10.0, "greedy": 17.0, "heuristic": 25.0, "pimc": 28.0, "expert": 30.0,
}
"""Each bot level's fixed mu in every reading, set in the order of their measured strength
(docs/strength.md), one step of about a beginner's first games between neighbours; a
level not named here counts as ``heuristic``."""


def bot_rating(level: str) -> tuple[float, float]:
    """A bot level's fixed (mu, sigma)."""
    return BOT_RATINGS.get(level.split(":")[0], BOT_RATINGS["heuristic"]), BOT_SIGMA


def ordinal(mu: float, sigma: float) -> float:
    """What a leaderboard sorts by: mu - 3 sigma (a rating the player very likely has)."""
    return mu - 3 * sigma


def session_ranks(session: Session) -> list[int]:
    """Each seat's rank in a finished session (1 best; ties share a rank)."""
    rows = session.standings()
    card_count = session.rules.scoring is Scoring.CARD_COUNT

    def key(row: Any) -> tuple[int, ...]:
        return (row.deals_won, row.cards_won) if card_count else (row.balance,)

    keys = {row.seat: key(row) for row in rows}
    return [1 + sum(other > keys[s] for other in keys.values()) for s in range(session.rules.players)]


def rate(players: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """The ratings after one free-for-all game of ``players`` ((mu, sigma) each) that
    finished in ``ranks``: OpenSkill's Plackett–Luce model, each player a team of one."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in players]
    rated = model.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def prior() -> tuple[float, float]:
    """A new account's rating: OpenSkill's default (mu 25, sigma 25/3)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    return model.mu, model.sigma


class Ratings:
    """Applies rated sessions to the accounts' ratings."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.tasks: set[asyncio.Task[None]] = set()

    def session_over(self, table: Table) -> None:
        """A table's session ended: rate it (in a worker thread) if it is rated."""
        if not table.rated or table.practice:
            return
        task = asyncio.create_task(self._rate_later(table), name=f"rate {table.id}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _rate_later(self, table: Table) -> None:
        await table.until_saved()  # the session's last action first
        try:
            await asyncio.to_thread(self.apply, table)
        except Exception:
            log.exception("rating table %s failed (it is rated again at the next start)", table.id)

    def apply(self, table: Table) -> bool:
        """Rate a finished rated session; False if there was nothing to rate (not rated,
        not over, or rated already)."""
        session = table.session
        if not table.rated or table.practice or not session.over:
            return False
        reading = reading_of(table.rules.spec())
        accounts = {s.seat: s.account for s in table.seats if s.account is not None}
        known = self.accounts.ratings(accounts.values(), reading)
        start = prior()
        players = []
        for s in table.seats:
            if s.seat in accounts:
                mu, sigma, _games = known.get(accounts[s.seat], (*start, 0))
                players.append((mu, sigma))
            elif s.human:  # an account deleted since: a new player's place, not kept
                players.append(start)
            else:
                players.append(bot_rating(s.level))
        ranks = session_ranks(session)
        after = rate(players, ranks)
        updates = {accounts[seat]: (*after[seat], ranks[seat]) for seat in accounts}
        return self.accounts.apply_ratings(table.id, reading, len(table.seats), updates)

    async def close(self) -> None:
        """Let the ratings under way finish."""
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)


def leaderboard_rows(accounts: Accounts, reading: str, limit: int = 100) -> list[dict[str, Any]]:
    """A reading's leaderboard, best first."""
    out = []
    for i, row in enumerate(accounts.leaderboard(reading, limit)):
        out.append({"rank": i + 1, "name": row.name, "mu": round(row.mu, 3), "sigma": round(row.sigma, 3),
                    "ordinal": round(ordinal(row.mu, row.sigma), 3), "games": row.games})
    return out
