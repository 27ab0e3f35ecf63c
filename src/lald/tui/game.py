"""The table's driver, shared by the full-screen table and ``--plain``: a session, who sits
where, and the turn loop of :func:`lald.play.loop.step` with people in some seats.

Before each turn action the claim window (:class:`lald.core.ClaimWindow`, the one every
table drives) asks the seats with open claims in claim order; a person's seat is asked like
a bot's, except that the question waits for an answer (a :class:`Prompt`).  Claims a person
has let pass are not offered again until a new one opens (the window remembers them).

See ``tests/tui/test_game.py`` for a whole session driven through it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from enum import StrEnum, unique
from typing import Any

from ..bots import FRIENDLY, Bot, level_of, make_bot
from ..coach.hints import playable_levels
from ..coach.lesson import Note
from ..core import Action, Claim, ClaimWindow, DealResult, Operation, Rules, Session, State
from ..core.engine.window import Mark

HUMAN = "human"

SAVE_FORMAT = "lald-play-save"
SAVE_VERSION = 1


@dataclasses.dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who plays a seat: ``human`` or a bot level, and the name shown."""

    kind: str
    name: str

    @property
    def human(self) -> bool:
        """Whether a person plays this seat."""
        return self.kind == HUMAN


@dataclasses.dataclass(frozen=True, slots=True)
class TableSettings:
    """How the session is shown, kept with its save so that a resumed session looks as
    it did: the table's language (None: the locale's) and whether hints are shown at
    every decision."""

    lang: str | None = None
    hints: bool = False


@unique
class PromptKind(StrEnum):
    """What a person is asked."""

    TURN = "turn"
    """Its turn: one turn action, or a claim first."""
    CLAIM = "claim"
    """Out of turn (or before the turn loop reaches it): take an open claim or let it pass."""


@dataclasses.dataclass(frozen=True, slots=True)
class Prompt:
    """A person's decision: ``seat`` chooses one of ``actions`` (or passes a claim prompt)."""

    seat: int
    kind: PromptKind
    actions: tuple[Action, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class _Decision:
    """Where a person acted, so that undo can go back there."""

    seat: int
    index: int  # the action's place in the deal's actions
    window: Mark


class Game:
    """A session at one table: seats, bots, the current deal and the turn loop."""

    def __init__(self, session: Session, seats: Sequence[SeatSpec],
                 bots: Mapping[int, Bot] | None = None,
                 settings: TableSettings | None = None) -> None:
        """``bots`` plays the seats that are not people (default: a bot of each seat's
        level, seeded by the session); ``settings``, how the table shows the session (the
        table that plays it keeps them up to date, and they are saved with it)."""
        rules = session.rules
        if len(seats) != rules.players:
            raise ValueError(f"{len(seats)} seats given for {rules.players} players")
        for s, spec in enumerate(seats):
            known = level_of(spec.kind) in playable_levels()
            if not spec.human and (bots is None or s not in bots) and not known:
                friendly = [name for name, level in FRIENDLY.items() if level in playable_levels()]
                raise ValueError(f"unknown bot level {spec.kind!r}: choose human, "
                                 f"{', '.join(playable_levels())} (or {', '.join(friendly)})")
        self.session = session
        self.settings = settings or TableSettings()
        self.seats = tuple(seats)
        self.names = [s.name for s in seats]
        self.bots: dict[int, Bot] = {
            s: bots[s] if bots is not None and s in bots
            else make_bot(spec.kind, s, rules, random.Random(session.seed * 7919 + s))
            for s, spec in enumerate(seats) if not spec.human}
        self._window: ClaimWindow | None = None
        self._decisions: list[_Decision] = []
        self.last_result: DealResult | None = None
        self.tie_leaders: tuple[int, ...] = ()

    @classmethod
    def new(cls, rules: Rules, seats: Sequence[SeatSpec], seed: int) -> Game:
        """A fresh session."""
        return cls(Session(rules, seed), seats)

    # -- who is who ---------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The session's rules."""
        return self.session.rules

    @property
    def humans(self) -> list[int]:
        """The seats people play."""
        return [s for s, spec in enumerate(self.seats) if spec.human]

    @property
    def state(self) -> State | None:
        """The deal being played (None between deals)."""
        return self.session.current

    @property
    def undo_allowed(self) -> bool:
        """Undo is for one person against bots only."""
        return len(self.humans) == 1

    # -- the deal -----------------------------------------------------------------------

    def start_deal(self) -> State:
        """Deal the next deal."""
        self._reset()
        return self.session.start_deal()

    def _reset(self) -> None:
        """A new deal: no claim passed, nothing to undo."""
        self._window = None
        self._decisions = []
        self.last_result = None

    def _window_on(self, state: State) -> ClaimWindow:
        """The claim window of the deal in play (opened on its first use)."""
        window = self._window
        if window is None or window.state is not state:
            window = self._window = ClaimWindow(state, self.humans)
        return window

    @property
    def _declined(self) -> tuple[frozenset[Claim], ...]:
        """The claims each person has let pass in this deal."""
        state = self.state
        if state is None:
            return (frozenset(),) * self.rules.players
        return self._window_on(state).passed

    def advance(self) -> Prompt | Operation | None:
        """One step of the turn loop: a bot's operation, a person's prompt, or None once
        the deal is over."""
        state = self.state
        if state is None or state.over:
            return None
        window = self._window_on(state)
        while (ask := window.asking()) is not None:
            seat, claims = ask
            if seat not in self.bots:
                return Prompt(seat, PromptKind.CLAIM, tuple(claims))
            choice = self.bots[seat].claim(state.view(seat), claims)
            if choice is not None:
                return self._apply(choice)
            window.let_pass(seat)
        mover, offered = window.turn()
        if mover in self.bots:
            return self._apply(self.bots[mover].act(state.view(mover), offered))
        return Prompt(mover, PromptKind.TURN, tuple(offered))

    def act(self, prompt: Prompt, action: Action) -> Operation:
        """A person's choice; it must be one of the prompt's actions."""
        state = self.state
        assert state is not None
        if action not in prompt.actions:
            raise ValueError(f"{action} was not offered")
        self._decisions.append(_Decision(prompt.seat, len(state.actions), self._window_on(state).mark()))
        return self._apply(action)

    def refusal(self, action: Action | None) -> Note | None:
        """Why a person's choice is not made, or None to make it: at a normal table every
        offered choice is made (the lesson refuses moves other than its own,
        :class:`lald.tui.lesson.LessonGame`). ``None`` stands for letting claims pass."""
        return None

    def decline(self, prompt: Prompt) -> None:
        """A person lets the open claims of a claim prompt pass."""
        assert prompt.kind is PromptKind.CLAIM
        state = self.state
        assert state is not None
        self._window_on(state).let_pass(prompt.seat)

    def _apply(self, action: Action) -> Operation:
        state = self.state
        assert state is not None
        return self._window_on(state).apply(action)

    @property
    def can_undo(self) -> bool:
        """Whether there is a person's action in this deal to take back."""
        state = self.state
        return (self.undo_allowed and state is not None and not state.over
                and bool(self._decisions))

    def undo(self) -> bool:
        """Take back the person's last action and everything after it, rebuilding the deal
        by replaying the actions before it through the engine."""
        if not self.can_undo:
            return False
        state = self.state
        assert state is not None and state.seed is not None
        back = self._decisions.pop()
        rebuilt = State.deal(self.rules, state.seed, dealer=state.dealer, pot=state.pot_before,
                             balances=state.balances_before)
        for action in state.actions[:back.index]:
            rebuilt.apply(action)
        self._window_on(state).rewind(rebuilt, back.window)
        self.session.current = rebuilt
        self.session.deals[-1] = rebuilt
        return True

    def finish_deal(self) -> DealResult:
        """Book the finished deal; note tie-break deals if the rules added some."""
        state = self.state
        assert state is not None and state.over
        scheduled = len(self.session.schedule)
        result = self.session.end_deal(state)
        self.tie_leaders = tuple(self.session.schedule[scheduled:])
        self.last_result = result
        return result

    @property
    def last_deal(self) -> State | None:
        """The most recent deal, finished or not."""
        return self.session.deals[-1] if self.session.deals else None

    # -- saving -------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Plain data for a save file."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "session": self.session.snapshot(),
            "seats": [{"kind": s.kind, "name": s.name} for s in self.seats],
            # (added within format 1: older saves have none, and older lald ignores it)
            "table": {"lang": self.settings.lang, "hints": self.settings.hints},
        }

    @classmethod
    def restore(cls, data: Any) -> Game:
        """Rebuild a saved game by replaying the session through the engine; anything
        that is not a save of this format version raises ``ValueError`` with one line."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError("it is not a saved lald game")
        version = data.get("version")
        if version != SAVE_VERSION:
            raise ValueError(f"it was saved in save format {_short(version)}; this lald reads "
                             f"format {SAVE_VERSION}")
        seats, session = data.get("seats"), data.get("session")
        if not isinstance(seats, list) or not all(
                isinstance(s, dict) and isinstance(s.get("kind"), str) and isinstance(s.get("name"), str)
                for s in seats):
            raise ValueError("the save is damaged: its seats are not a list of kinds and names")
        if not isinstance(session, dict):
            raise ValueError("the save is damaged: it holds no session")
        table = data.get("table", {})
        if not (isinstance(table, dict) and isinstance(table.get("lang"), str | None)
                and isinstance(table.get("hints", False), bool)):
            raise ValueError("the save is damaged: its table settings are not a language and hints")
        rules, seed, deals = session.get("rules"), session.get("seed"), session.get("deals")
        if not (isinstance(rules, dict) and isinstance(rules.get("preset", ""), str)
                and isinstance(rules.get("players", 5), int)
                and isinstance(rules.get("variants", []), list)
                and all(isinstance(v, str) for v in rules.get("variants", []))
                and isinstance(rules.get("options", {}), dict)):
            raise ValueError("the save is damaged: its rules are not rules")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("the save is damaged: its seed is not a seed")
        if not isinstance(deals, list) or not all(isinstance(d, list) for d in deals):
            raise ValueError("the save is damaged: its deals are not lists of actions")
        try:
            restored = Session.restore({"rules": rules, "seed": seed, "deals": deals})
        except (ValueError, TypeError, KeyError) as e:
            raise ValueError(f"the save is damaged: {_short(e)}") from None
        if len(deals) > len(restored.schedule) or (
                restored.over and restored.deal_number < len(deals)):
            raise ValueError("the save is damaged: it holds more deals than the session has")
        return cls(restored, [SeatSpec(s["kind"], s["name"]) for s in seats],
                   settings=TableSettings(table.get("lang"), table.get("hints", False)))


def _short(value: object) -> str:
    """A value for a one-line message: its text, cut to 60 characters."""
    text = " ".join(str(value).split())
    return text if len(text) <= 60 else text[:57] + "..."
