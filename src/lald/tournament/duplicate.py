"""Duplicate tournaments: every deal is replayed with the bots rotated through all seats,
so the luck of the cards cancels.

Deal group ``g`` deals the cards of seed :meth:`Tournament.deal_seed` with seat
``g % players`` dealing, then plays them once per *rotation*. With ``k`` bots and ``n``
seats the lineup has ``L = max(k, n)`` places, ``L // k`` or one more of them holding
each bot, and in rotation ``r`` seat ``s`` is played by the bot at place ``(s + r) % L``:
so every bot plays every seat of every deal equally often (once when ``k >= n``). Each
bot's results are averaged over the rotations of a group first: a group is one sample.

Which bot holds which place is shuffled (seeded) for every session, ``n`` consecutive
groups: a bot's neighbours at the table change, so no bot gains or loses by always
sitting after the same others (with fixed places, two copies of one bot in a nine-bot
table differed by 0.06 chips per deal over 5,000 deals, more than the interval allows).

The groups are independent of each other and of the order they are played in (every
bot gets its own generator, seeded by tournament seed, group, rotation and seat), so a
tournament can run on many processes, be interrupted and be resumed, and give the same
results. Finished groups are appended to a checkpoint file, one JSON line each.

>>> from lald.core import Rules
>>> from lald.play.spec import parse_specs
>>> t = Tournament(Rules.make(players=3), tuple(parse_specs(["random", "random"])))
>>> t.lineups(0)
[(0, 0, 1), (0, 1, 0), (1, 0, 0)]
>>> group = play_group(t, 0)
>>> len(group["rotations"]), sum(group["rotations"][0]["won"])
(3, 52)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import multiprocessing
import multiprocessing.util
import random
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..bots.external import DEFAULT_TIMEOUT, POOL, ExternalBot
from ..core import Rules, State
from ..play.batch import ResultsDirectory, run_batches
from ..play.loop import play_deal
from ..play.spec import BotSpec
from ..stats import LogHistogram

FORMAT = "lald-tournament/1"
#: How bots are given places; a results directory made otherwise (fixed places, before
#: this was recorded) holds another tournament.
PLACES = "shuffled per session"
CHECKPOINT = "deals.jsonl"
IDENTITY = "tournament.json"

#: A finished deal group as plain JSON data (see :func:`play_group`).
GroupResult = dict[str, Any]


@dataclasses.dataclass(frozen=True, slots=True)
class Tournament:
    """What is played: the rules, the bots (at least one), the seed, and how long an
    outside program may think."""

    rules: Rules
    bots: tuple[BotSpec, ...]
    seed: int = 1
    timeout: float = DEFAULT_TIMEOUT

    def __post_init__(self) -> None:
        if not self.bots:
            raise ValueError("a tournament needs at least one bot")

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players

    @property
    def rotations(self) -> int:
        """Rotations per deal group: one per place, ``max(bots, players)``."""
        return max(len(self.bots), self.players)

    def lineups(self, group: int) -> list[tuple[int, ...]]:
        """For each rotation of ``group``, the index of the bot in each seat (the places
        are shuffled once per session of ``players`` groups)."""
        k, n, places = len(self.bots), self.players, self.rotations
        holder = [i % k for i in range(places)]
        random.Random(f"{FORMAT}/{self.seed}/places/{group // n}").shuffle(holder)
        return [tuple(holder[(s + r) % places] for s in range(n)) for r in range(places)]

    def deal_seed(self, group: int) -> int:
        """The seed of group ``group``'s cards: a hash of tournament seed and group."""
        digest = hashlib.blake2b(f"{FORMAT}/{self.seed}/{group}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def dealer(self, group: int) -> int:
        """Who deals group ``group``: the deal passes to the left from group to group, so
        ``players`` consecutive groups make a session in which every seat deals once."""
        return group % self.players

    def bot_rng(self, group: int, rotation: int, seat: int) -> random.Random:
        """The generator of the bot in ``seat`` for one rotation of one group."""
        return random.Random(f"{FORMAT}/{self.seed}/{group}/{rotation}/{seat}")

    def identity(self) -> dict[str, Any]:
        """What makes two runs the same tournament (the number of deals does not: a
        rerun with more deals extends the checkpoint)."""
        return {"format": FORMAT, "rules": self.rules.spec(), "bots": [b.text for b in self.bots],
                "seed": self.seed, "timeout": self.timeout, "places": PLACES}

    def key(self) -> str:
        """A short hash of :meth:`identity`, naming the default results directory."""
        text = json.dumps(self.identity(), sort_keys=True)
        return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def play_group(t: Tournament, group: int) -> GroupResult:
    """Play every rotation of one deal group. The result holds, per rotation, each
    seat's chips and won cards and why a seat fell back to random (or None), and per
    bot the histograms of its decision times (``act`` and ``claim`` calls)."""
    n = t.players
    times = [{"act": LogHistogram(), "claim": LogHistogram()} for _ in t.bots]
    rotations = []
    for r, lineup in enumerate(t.lineups(group)):
        bots = [t.bots[b].make(s, t.rules, t.bot_rng(group, r, s), t.timeout) for s, b in enumerate(lineup)]

        def timer(seat: int, kind: str, seconds: float, lineup: tuple[int, ...] = lineup) -> None:
            times[lineup[seat]][kind].add(seconds)

        state = play_deal(State.deal(t.rules, t.deal_seed(group), dealer=t.dealer(group)), bots, timer=timer)
        assert state.result is not None
        fallback: list[str | None] = [None] * n
        for s, bot in enumerate(bots):
            if isinstance(bot, ExternalBot):
                bot.finish(state.view(s))
                if bot.fallback is not None:
                    fallback[s] = f"{bot.fallback.kind.value}: {bot.fallback.message}"
            # a bot that replaces its own illegal choices by random ones (a learned policy,
            # lald.bots.learned.policy) says how often: seen before, an always-illegal policy played
            # on as a random bot, unsaid
            illegal = getattr(bot, "illegal_choices", 0)
            if illegal and fallback[s] is None:
                fallback[s] = f"illegal: {illegal} of its choices were not legal and were played at random"
        rotations.append({"chips": list(state.result.chips), "won": list(state.result.won),
                          "fallback": fallback})
    return {"group": group, "rotations": rotations,
            "times": [{kind: h.to_json() for kind, h in tt.items()} for tt in times]}


# -- running on many processes or a cluster ---------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class TournamentJob:
    """A tournament as a :mod:`lald.play.batch` job: a batch is ``(group,)``."""

    tournament: Tournament

    def setup(self) -> None:
        """In a worker: stop the worker's outside programs when it exits."""
        multiprocessing.util.Finalize(POOL, POOL.close, exitpriority=10)

    def run(self, batch: tuple[int, ...]) -> GroupResult:
        """Play the deal group ``batch[0]``."""
        return play_group(self.tournament, batch[0])


def play_groups(
    t: Tournament, groups: Iterable[int], jobs: int, backend: str = "process", address: str | None = None,
) -> Iterator[GroupResult]:
    """Play ``groups`` on ``jobs`` workers of ``backend`` (``process``: 1 plays in this
    process; ``ray``: see :mod:`lald.play.batch`), yielding each result as it finishes (in
    any order). Closing the iterator early, or Ctrl-C, stops the workers at once."""
    yield from run_batches(TournamentJob(t), [(g,) for g in groups], backend, jobs, address)


# -- the checkpoint ---------------------------------------------------------------------


class Checkpoint(ResultsDirectory):
    """A results directory: ``tournament.json`` (what is played) and ``deals.jsonl``
    (one finished group per line)."""

    IDENTITY = IDENTITY
    JOURNAL = CHECKPOINT
    OTHER = "another tournament"

    def __init__(self, directory: Path, t: Tournament, fresh: bool = False) -> None:
        self.rotations = t.rotations
        self.done: dict[int, GroupResult] = {}
        super().__init__(directory, t.identity(), fresh)

    def valid(self, result: Any) -> bool:
        return isinstance(result["group"], int) and len(result["rotations"]) == self.rotations

    def keep(self, result: Any) -> None:
        self.done[result["group"]] = result


def run(
    t: Tournament,
    deals: int,
    jobs: int = 1,
    checkpoint: Checkpoint | None = None,
    progress: Callable[[int, int], None] | None = None,
    backend: str = "process",
    address: str | None = None,
) -> dict[int, GroupResult]:
    """Play deal groups ``0 .. deals - 1`` (those not already in ``checkpoint``), calling
    ``progress(done, deals)`` after each; return every group's result. On Ctrl-C the
    finished groups are already saved; KeyboardInterrupt propagates."""
    results = {g: r for g, r in (checkpoint.done.items() if checkpoint else ()) if g < deals}
    todo = [g for g in range(deals) if g not in results]
    if progress:
        progress(len(results), deals)
    try:
        for result in play_groups(t, todo, jobs, backend, address):
            results[result["group"]] = result
            if checkpoint:
                checkpoint.add(result)
            if progress:
                progress(len(results), deals)
    finally:
        if checkpoint:
            checkpoint.close()
    return results

