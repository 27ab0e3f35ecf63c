"""The websocket messages, both ways: one definition of each, shared by the server
(:mod:`lald.web`, which checks what a page sends against them) and the terminal's online
client (:mod:`lald.tui.text.online`), and a JSON Schema made from them (:func:`schema`), kept in
``docs/messages.schema.json``, that the page's messages are tested against.

Every message is a JSON object with a ``type``. What a page (or the terminal) sends the
table is a :data:`ToServer`; what the table sends it, a :data:`ToPage`; a lobby page's
socket is sent a :class:`Lobby` and then :class:`LobbyUpdate` messages. An action is in the
record's form (docs/record.md#actions), :class:`ActionJson`.

>>> sorted(FIELDS["act"]), sorted(FIELDS["join"])
(['action', 'v'], ['lang', 'token'])
>>> schema()["$defs"]["Ping"]["properties"]["id"]
{'anyOf': [{'type': 'integer'}, {'type': 'string'}]}

Standard library only: the definitions are ``TypedDict`` classes, and the schema is made
from their annotations (``python -m lald.messages`` prints it).
"""

import json
import sys
import types
import typing
from typing import Any, Literal, NotRequired, TypedDict, Union, get_args, get_origin

__all__ = [
    "FIELDS", "Act", "ActionJson", "Chat", "Elsewhere", "Error", "GoOn", "Hint", "HintAnswer", "Join",
    "Lang", "Laugh", "Leave", "Lobby", "LobbyUpdate", "NextDeal", "Ping", "Pong", "PingTimes", "StateFrame",
    "Take", "ToPage", "ToServer", "Watch", "Welcome", "schema",
]

# -- an action, in the record's form --------------------------------------------------


class ActionJson(TypedDict):
    """An action as the record writes it (docs/record.md#actions): the seat, its kind and
    its cards in canonical notation (``"QS"``): a capture's ``play`` and ``take``, a claim's
    ``cards``, a trail's ``card``; a lie-down names no card."""

    seat: int
    type: Literal["capture", "claim", "lie_down", "trail"]
    play: NotRequired[list[str]]
    take: NotRequired[list[str]]
    cards: NotRequired[list[str]]
    card: NotRequired[str]


# -- what a page sends the table ------------------------------------------------------


class Join(TypedDict):
    """Take the seat whose secret invitation token is ``token`` (a page already on it is
    told ``taken_over`` and closed)."""

    type: Literal["join"]
    token: str
    lang: NotRequired[str]


class Watch(TypedDict):
    """Watch the table ``table`` as a spectator (no hand is shown)."""

    type: Literal["watch"]
    table: str
    lang: NotRequired[str]


class Act(TypedDict):
    """An action, built on version ``v`` of the table (a claim may be sent at any moment)."""

    type: Literal["act"]
    v: int
    action: ActionJson


class NextDeal(TypedDict):
    """Deal the next deal (the first one starts the table)."""

    type: Literal["next_deal"]


class Take(TypedDict):
    """The person takes the seat back from its bot."""

    type: Literal["take"]


class Leave(TypedDict):
    """The person leaves; the seat's bot plays on."""

    type: Literal["leave"]


class Lang(TypedDict):
    """The page's language from now on (the log is sent again in it)."""

    type: Literal["lang"]
    lang: str


class Ping(TypedDict):
    """A heartbeat; ``id`` (a short text or number) is echoed in the :class:`Pong`."""

    type: Literal["ping"]
    id: NotRequired[int | str]


class GoOn(TypedDict):
    """At a lesson table, the learner has read the note where play stood still for it."""

    type: Literal["go_on"]


class Hint(TypedDict):
    """The expert's hint for this seat's decision at version ``v`` (a table with hints on)."""

    type: Literal["hint"]
    v: int


class Chat(TypedDict):
    """A line of the table chat."""

    type: Literal["chat"]
    text: str


class Laugh(TypedDict):
    """Laugh at the one who just lay down."""

    type: Literal["laugh"]


ToServer = Join | Watch | Act | NextDeal | Take | Leave | Lang | Ping | GoOn | Hint | Chat | Laugh
"""Any message a page sends the table."""

# -- what the table sends a page ------------------------------------------------------


class PingTimes(TypedDict):
    """How the page pings: every ``every`` seconds, its connection counted lost when no
    pong comes within ``wait``."""

    every: float
    wait: float


class Welcome(TypedDict):
    """The first message on a seat (or to a spectator): the table, the rules, the pings."""

    type: Literal["welcome"]
    table: str
    seat: int | None
    role: Literal["seat", "spectator"]
    rules: dict[str, Any]
    levels: list[Any]
    practice: bool
    lesson: bool
    hints: bool
    ping: PingTimes


class StateFrame(TypedDict):
    """The table as the recipient may see it: its own view, its legal actions and their
    kinds, the log's new lines, whom the table waits for, the session, and at a lesson
    table the lesson's words."""

    type: Literal["state"]
    v: int
    you: int | None
    deal: int
    can_next: bool
    turn_deadline: float | None
    now: float
    waiting_for: dict[str, Any] | None
    stand_ins: list[int]
    reset: bool
    log: list[dict[str, Any]]
    table: dict[str, Any]
    view: dict[str, Any] | None
    legal: list[ActionJson]
    kinds: list[str | None]
    session: dict[str, Any]
    lesson: dict[str, Any] | None


class Error(TypedDict):
    """Why a message changed nothing: a ``code`` and a sentence in the page's language
    (``detail``: what was wrong; a stale action's refusal also names the version ``v``)."""

    type: Literal["error"]
    code: str
    message: str
    detail: NotRequired[str]
    v: NotRequired[int]


class Pong(TypedDict):
    """The answer to a :class:`Ping`, with its ``id``."""

    type: Literal["pong"]
    id: NotRequired[int | str]


class HintAnswer(TypedDict):
    """The expert's hint for the decision at version ``v``: in words and as data."""

    type: Literal["hint"]
    v: int
    deal: int
    index: int | None
    text: str
    hint: dict[str, Any]


class Elsewhere(TypedDict):
    """Another server holds the table: the page goes there."""

    type: Literal["elsewhere"]
    table: str


ToPage = Welcome | StateFrame | Error | Pong | HintAnswer | Elsewhere
"""Any message the table sends a page."""


class Lobby(TypedDict):
    """A lobby page's whole list of public tables (first, and again if it fell behind)."""

    type: Literal["lobby"]
    now: float
    tables: list[dict[str, Any]]


class LobbyUpdate(TypedDict):
    """The lobby's rows changed (``put``) and gone (``drop``: their ids)."""

    type: Literal["lobby_update"]
    put: list[dict[str, Any]]
    drop: list[str]
    now: NotRequired[float]


def _members(union: Any) -> tuple[type, ...]:
    return tuple(get_args(union))


def _kind(message: type) -> str:
    hint = typing.get_type_hints(message)["type"]
    (kind,) = get_args(hint)
    return str(kind)


FIELDS: dict[str, frozenset[str]] = {
    _kind(m): frozenset(typing.get_type_hints(m)) - {"type"} for m in _members(ToServer)}
"""The fields each message a page sends may have besides its ``type``, by its type."""

# -- the JSON Schema --------------------------------------------------------------------

_SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"}, int: {"type": "integer"}, float: {"type": "number"},
    bool: {"type": "boolean"}, type(None): {"type": "null"}, Any: {},
}


def _schema_of(hint: Any, defs: dict[str, Any]) -> dict[str, Any]:
    if hint in _SCALARS:
        return dict(_SCALARS[hint])
    if typing.is_typeddict(hint):
        if hint.__name__ not in defs:
            defs[hint.__name__] = {}  # taken: a definition that names itself ends here
            defs[hint.__name__] = _object(hint, defs)
        return {"$ref": f"#/$defs/{hint.__name__}"}
    origin, args = get_origin(hint), get_args(hint)
    if origin is NotRequired:
        return _schema_of(args[0], defs)
    if origin is Literal:
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema_of(a, defs) for a in args]}
    if origin is list:
        return {"type": "array", "items": _schema_of(args[0], defs)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _schema_of(args[1], defs)}
    raise TypeError(f"no JSON Schema for {hint!r}")


def _object(message: type, defs: dict[str, Any]) -> dict[str, Any]:
    hints = typing.get_type_hints(message, include_extras=True)
    required = [name for name, hint in hints.items() if get_origin(hint) is not NotRequired]
    out: dict[str, Any] = {"type": "object", "description": " ".join((message.__doc__ or "").split()),
                           "properties": {name: _schema_of(hint, defs) for name, hint in hints.items()},
                           "required": required, "additionalProperties": False}
    return out


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message: ``$defs`` holds each, and
    ``ToServer``, ``ToPage`` and ``ToLobby`` the messages of each direction; the document
    itself takes any of them."""
    defs: dict[str, Any] = {}
    for name, union in (("ToServer", ToServer), ("ToPage", ToPage), ("ToLobby", Lobby | LobbyUpdate)):
        defs[name] = {"oneOf": [_schema_of(m, defs) for m in _members(union)]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "lald's websocket messages",
        "description": "Generated from lald.messages (python -m lald.messages); do not edit by hand.",
        "anyOf": [{"$ref": "#/$defs/ToServer"}, {"$ref": "#/$defs/ToPage"}, {"$ref": "#/$defs/ToLobby"}],
        "$defs": dict(sorted(defs.items())),
    }


def schema_text() -> str:
    """:func:`schema` as the checked-in file holds it."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(schema_text())
