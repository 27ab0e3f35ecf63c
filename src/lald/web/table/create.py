"""A request for a new table, checked: the JSON the lobby and the API take (rules, seats,
names, timers, the public lobby's and rated tables' fields) made into the table's data
and its host's token, or refused with a :class:`LobbyError` that says why. The registry
that keeps the tables made is :mod:`lald.web.people.hub`.

A seat's invitation token derives from the host's token (:func:`seat_token`): the host
alone can bring the links back; the database keeps only digests.
"""

from __future__ import annotations

import base64
import hmac
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

from ...bots import LEVELS
from ...core import Rules, RulesError
from ...core.rules import RANGES
from ...i18n import LANGUAGES
from ...store import SeatData, TableData, token_hash
from ..wire import Status, clean_text, shown
from .chat import forbidden
from .lesson import Lesson

#: Levels never offered to people: the oracle sees every hand.
HIDDEN_LEVELS = frozenset({"oracle"})
MAX_NAME = 40
TURN_SECONDS = (5, 600)
"""A turn timer is off (0) or this many seconds, both ends included."""
FILL_SECONDS = (5, 3600)
"""A public table's wait for players before bots fill its empty seats: 0 (wait for
people) or this many seconds, both ends included."""
MAX_TITLE = 60
"""The longest table title (characters)."""
NAME_PATTERN = "^[^\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]*$"
"""The same rule for the API's description (a JSON Schema pattern)."""



class LobbyError(ValueError):
    """A table request the lobby refuses; the message says why (in English, for programs).
    A refusal a person can meet through the pages also has a ``code`` and its ``values``,
    which the pages word in their own language (:func:`lald.web.server.http.refuse`)."""

    def __init__(self, message: str, code: str | None = None, **values: int | str) -> None:
        super().__init__(message)
        self.code, self.values = code, values


def _whole_numbers(options: dict[str, Any]) -> None:
    """Refuse a number option not written as a whole number: the engine also reads
    ``"7"`` (the command line's ``--option deals=7``), the lobby takes JSON's numbers only,
    as records do."""
    for key, value in options.items():
        if key in RANGES and (isinstance(value, bool) or not isinstance(value, int)):
            low, high = RANGES[key]
            raise LobbyError(f"bad value {shown(value)} for {key}: "
                             f"choose a whole number from {low} to {high}")


def levels() -> list[str]:
    """The bot levels a table may seat, as registered in :data:`lald.bots.LEVELS`."""
    return [name for name in LEVELS if name not in HIDDEN_LEVELS]


def seat_token(host_token: str, seat: int, generation: int) -> str:
    """The invitation token of ``seat`` after ``generation`` reissues, derived from the
    host's token (so the host alone can bring the links back; the database keeps only
    digests)."""
    digest = hmac.digest(host_token.encode(), f"lald/seat/{seat}/{generation}".encode(), "sha256")
    return base64.urlsafe_b64encode(digest[:24]).decode()


def table_data(request: Any, account: tuple[int, str] | None,
               refuse_names: Callable[[list[str], str | None], None],
               now: float | None = None) -> tuple[TableData, str]:
    """A new table's data from the lobby's request, and its host's token; raise
    :class:`LobbyError`. ``account`` is the id and name of the host's account, if they
    are logged in; ``refuse_names`` refuses seat names that are accounts' (or look like
    them), but the host's own; ``now``: when it is made (seconds since the epoch; by
    default the machine's time)."""
    if not isinstance(request, dict):
        raise LobbyError("send a JSON object")
    unknown = set(request) - {"preset", "players", "variants", "options", "seats", "turn_seconds",
                              "seed", "hints", "public", "fill_seconds", "lang", "title", "rated"}
    if unknown:
        raise LobbyError(f"unknown field {shown(sorted(unknown)[0])}")
    absent = [key for key, value in request.items() if value is None]
    if absent:
        raise LobbyError(f"'{absent[0]}' is null: leave it out for its default")
    if not isinstance(request.get("variants", []), list):
        raise LobbyError("'variants' must be a list of names")
    if not isinstance(request.get("options", {}), dict):
        raise LobbyError("'options' must be an object of option names and values")
    _whole_numbers(request.get("options", {}))
    try:
        rules = Rules.make(request.get("preset", "survivor"), request.get("players", 5),
                           request.get("variants", []), request.get("options", {}))
    except RulesError as e:
        raise LobbyError(str(e)) from None
    public = request.get("public", False)
    if not isinstance(public, bool):
        raise LobbyError("'public' must be true (listed, with seats open to strangers) or false")
    host = secrets.token_urlsafe(32)
    seats = _seats(request.get("seats"), rules.players, host, public)
    refuse_names([s.name for s in seats if s.name], account[1] if account else None)
    lobby = _lobby_fields(request, public)
    rated = request.get("rated", False)
    if not isinstance(rated, bool):
        raise LobbyError("'rated' must be true or false")
    if rated:
        _rated(request, seats, public, account)
        lobby["rated"] = True
    turn = request.get("turn_seconds", 0)
    low, high = TURN_SECONDS
    if (isinstance(turn, bool) or not isinstance(turn, int | float) or not math.isfinite(turn)
            or not (turn == 0 or low <= turn <= high)):
        raise LobbyError(f"'turn_seconds' must be 0 (no timer) or from {low} to {high} seconds")
    hints = request.get("hints", False)
    if not isinstance(hints, bool):
        raise LobbyError("'hints' must be true (the expert's hints may be asked for) or false")
    seed = request.get("seed")
    secret: str | None = None
    if seed is None:
        secret, seed = secrets.token_hex(32), 0
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 62:
        raise LobbyError("'seed' must be a whole number from 0 to 2**62 - 1")
    now = time.time() if now is None else now
    data = TableData(
        id=secrets.token_urlsafe(6), created=now,
        config={"rules": rules.spec(), "turn_seconds": turn} | ({"hints": True} if hints else {}) | lobby
               | ({"open": [s.seat for s in seats if s.generation < 0]} if public else {}),
        seed=seed,
        deals_started=0, status=Status.WAITING, seats=seats, secret=secret,
        host_hash=token_hash(host), active_at=now)
    for s in seats:
        s.generation = max(0, s.generation)  # (an open seat was marked by -1 until now)
    return data, host


def _rated(request: dict[str, Any], seats: list[SeatData], public: bool,
           account: tuple[int, str] | None) -> None:
    """Check a rated table's request (:mod:`lald.web.people.ratings`), and seat the host's account in
    seat 0; raise :class:`LobbyError`."""
    if account is None:
        raise LobbyError("rated tables are for accounts: log in to open one", "rated_login")
    if not public:
        raise LobbyError("a rated table is public: private tables are never rated", "rated_public")
    if request.get("seed") is not None or request.get("hints") or request.get("options"):
        raise LobbyError("a rated table has no seed, no hints and no other options than its "
                         "preset, players and variants", "rated_rules")
    if not seats[0].human or seats[0].seat in (s.seat for s in seats if s.generation < 0):
        raise LobbyError("at a rated table the host plays seat 0", "rated_rules")
    if any(s.human and s.generation >= 0 for s in seats[1:]):
        raise LobbyError("at a rated table every other person's seat is open (for an account "
                         "from the lobby)", "rated_rules")
    seats[0].account, seats[0].name = account


def _lobby_fields(request: dict[str, Any], public: bool) -> dict[str, Any]:
    """A table's title, language and wait for players, checked."""
    title = request.get("title")
    bad = forbidden(title) if isinstance(title, str) else None
    if bad is not None:
        raise LobbyError(f"a title may not hold the invisible or control character {bad}: take it out",
                         "title_character", char=bad)
    if title is not None and (not isinstance(title, str) or len(title.strip()) > MAX_TITLE
                              or not clean_text(title)):
        raise LobbyError(f"a title is text of at most {MAX_TITLE} characters", "title", most=MAX_TITLE)
    lang = request.get("lang", "en")
    if lang not in LANGUAGES:
        raise LobbyError(f"'lang' must be one of {', '.join(LANGUAGES)}")
    fill = request.get("fill_seconds", 60 if public else 0)
    low, high = FILL_SECONDS
    if isinstance(fill, bool) or not isinstance(fill, int) or not (fill == 0 or low <= fill <= high):
        raise LobbyError(f"'fill_seconds' must be 0 (wait for people) or a whole number of seconds "
                         f"from {low} to {high}")
    if not public and "fill_seconds" in request:
        raise LobbyError("'fill_seconds' is for public tables: a private table waits for its links")
    out: dict[str, Any] = {"lang": lang}
    if title is not None and title.strip():
        out["title"] = title.strip()
    if public:
        out |= {"public": True, "fill_seconds": fill}
    return out


def _seats(raw: Any, players: int, host: str, public: bool = False) -> list[SeatData]:
    """The seats of a new table; an open seat (for strangers) is marked by a
    generation of -1 until the table is made."""
    if raw is None:
        raw = [{"open": True} if public and s else {"human": s == 0} for s in range(players)]
    if not isinstance(raw, list) or len(raw) != players:
        raise LobbyError(f"'seats' must list the {players} seats")
    allowed = levels()
    out = []
    for i, s in enumerate(raw):
        if not isinstance(s, dict) or set(s) - {"human", "level", "name", "open"}:
            raise LobbyError(f"seat {i}: give 'human', 'level', 'name' and 'open'")
        human = s.get("human", False)
        level = s.get("level", allowed[0])
        name = s.get("name")
        opened = s.get("open", False)
        if not isinstance(opened, bool):
            raise LobbyError(f"seat {i}: 'open' must be true (a seat for a stranger) or false")
        if opened and not public:
            raise LobbyError(f"seat {i}: only a public table has seats open to strangers")
        if opened:
            if name is not None or s.get("human", True) is not True:
                raise LobbyError(f"seat {i}: an open seat is a person's, named when taken")
            out.append(SeatData(i, token_hash(secrets.token_urlsafe(24)), True, level, None, False, -1))
            if not isinstance(level, str) or level not in allowed:
                raise LobbyError(f"seat {i}: unknown bot level {shown(level)}: "
                                 f"choose {', '.join(allowed)}")
            continue
        if not isinstance(human, bool):
            raise LobbyError(f"seat {i}: 'human' must be true or false")
        if not isinstance(level, str) or level not in allowed:
            raise LobbyError(f"seat {i}: unknown bot level {shown(level)}: choose {', '.join(allowed)}")
        if name is not None and (not isinstance(name, str) or len(name.strip()) > MAX_NAME
                                 or not clean_text(name)):
            raise LobbyError(f"seat {i}: a name is text of at most {MAX_NAME} characters "
                             "(letters, digits, signs)", "name", seat=i, most=MAX_NAME)
        # A bot seat gets a token nobody is told: it has no invitation link.
        token = seat_token(host, i, 0) if human else secrets.token_urlsafe(24)
        out.append(SeatData(i, token_hash(token), human, level,
                            name.strip() or None if name else None, False))
    return out


def lesson_data(request: Any, now: float | None = None) -> tuple[TableData, str]:
    """A new lesson table's data (the teaching deal, :mod:`.lesson`) and the learner's
    seat token; raise :class:`LobbyError`. A lesson has no host and is listed nowhere."""
    if not isinstance(request, dict):
        raise LobbyError("send a JSON object")
    if request:
        raise LobbyError(f"unknown field {shown(sorted(request)[0])}: a lesson takes none")
    rules = Lesson().rules
    token = secrets.token_urlsafe(24)
    seats = [SeatData(s, token_hash(token if s == 0 else secrets.token_urlsafe(24)), s == 0,
                      "lesson", None, False) for s in range(rules.players)]
    now = time.time() if now is None else now
    data = TableData(
        id=secrets.token_urlsafe(6), created=now,
        config={"rules": rules.spec(), "turn_seconds": 0, "lesson": 1}, seed=0,
        deals_started=0, status=Status.WAITING, seats=seats, secret=None, host_hash=None, active_at=now)
    return data, token


def play_now_request(request: Any, account: tuple[int, str] | None) -> tuple[Rules, bool]:
    """The rules and whether rated of a *Play now* request (:meth:`lald.web.people.hub.Hub.play_now`),
    checked; raise :class:`LobbyError`."""
    if not isinstance(request, dict):
        raise LobbyError("send a JSON object")
    unknown = set(request) - {"preset", "players", "variants", "rated", "name", "lang"}
    if unknown:
        raise LobbyError(f"unknown field {shown(sorted(unknown)[0])}")
    absent = [key for key, value in request.items() if value is None]
    if absent:
        raise LobbyError(f"'{absent[0]}' is null: leave it out for its default")
    if not isinstance(request.get("variants", []), list):
        raise LobbyError("'variants' must be a list of names")
    try:
        rules = Rules.make(request.get("preset", "survivor"), request.get("players", 5),
                           request.get("variants", []))
    except RulesError as e:
        raise LobbyError(str(e)) from None
    rated = request.get("rated", False)
    if not isinstance(rated, bool):
        raise LobbyError("'rated' must be true or false")
    if request.get("lang", "en") not in LANGUAGES:
        raise LobbyError(f"'lang' must be one of {', '.join(LANGUAGES)}")
    if rated and account is None:
        raise LobbyError("rated tables are for accounts: log in to play rated", "rated_login")
    return rules, rated
