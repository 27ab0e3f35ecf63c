"""The websocket messages (:mod:`lald.messages`): the checked-in JSON Schema is the one
the definitions make, it takes every message as the page and the terminal write it, and
refuses what the server refuses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from lald.messages import FIELDS, schema, schema_text

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "docs" / "messages.schema.json"


def validator(direction: str) -> Draft202012Validator:
    """A validator of one direction's messages (``ToServer``, ``ToPage``, ``ToLobby``)."""
    document = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return Draft202012Validator({"$ref": f"#/$defs/{direction}", "$defs": document["$defs"]})


def test_the_checked_in_schema_is_the_one_the_definitions_make() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        "the messages changed: write the schema again with "
        ".venv/bin/python -m lald.messages > docs/messages.schema.json")
    Draft202012Validator.check_schema(schema())


CAPTURE = {"seat": 0, "type": "capture", "play": ["7S"], "take": ["7D"]}
SENT: list[dict[str, Any]] = [
    {"type": "join", "token": "abc", "lang": "de"}, {"type": "join", "token": "abc"},
    {"type": "watch", "table": "t1", "lang": "en"}, {"type": "act", "v": 3, "action": CAPTURE},
    {"type": "act", "v": 0, "action": {"seat": 2, "type": "claim", "cards": ["3C", "3D", "3H"]}},
    {"type": "act", "v": 9, "action": {"seat": 1, "type": "lie_down"}},
    {"type": "act", "v": 9, "action": {"seat": 1, "type": "trail", "card": "KH"}},
    {"type": "next_deal"}, {"type": "take"}, {"type": "leave"}, {"type": "lang", "lang": "pt"},
    {"type": "ping"}, {"type": "ping", "id": 7}, {"type": "ping", "id": "p7"}, {"type": "go_on"},
    {"type": "hint", "v": 4}, {"type": "chat", "text": "hello"}, {"type": "laugh"},
]


@pytest.mark.parametrize("message", SENT, ids=lambda m: str(m["type"]))
def test_every_message_a_page_sends_is_taken(message: dict[str, Any]) -> None:
    validator("ToServer").validate(message)
    assert set(message) - {"type"} <= FIELDS[message["type"]]


REFUSED: list[dict[str, Any]] = [
    {"type": "join"},                                              # no token
    {"type": "join", "token": "abc", "seat": 1},                   # a field a join does not have
    {"type": "act", "v": "3", "action": CAPTURE},                  # a version as text
    {"type": "act", "v": True, "action": CAPTURE},                 # true is no number
    {"type": "act", "v": 3, "action": CAPTURE | {"type": "pass"}},  # no such action
    {"type": "ping", "id": [1]},
    {"type": "shout"},
    {"kind": "ping"},
]


@pytest.mark.parametrize("message", REFUSED, ids=str)
def test_what_the_server_refuses_the_schema_refuses(message: dict[str, Any]) -> None:
    assert not validator("ToServer").is_valid(message)


def test_the_fields_of_each_message_are_its_definitions() -> None:
    assert FIELDS == {
        "join": {"token", "lang"}, "watch": {"table", "lang"}, "act": {"v", "action"}, "next_deal": set(),
        "take": set(), "leave": set(), "lang": {"lang"}, "ping": {"id"}, "go_on": set(),
        "hint": {"v"}, "chat": {"text"}, "laugh": set(),
    }


def test_the_pages_messages_and_the_servers_are_told_apart() -> None:
    # "hint" goes both ways: the page's asks (a version), the server's answers (the hint).
    answer = {"type": "hint", "v": 4, "deal": 0, "index": 3, "text": "Take the 7.", "hint": {}}
    assert validator("ToPage").is_valid(answer) and not validator("ToServer").is_valid(answer)
    assert validator("ToServer").is_valid({"type": "hint", "v": 4})
    assert not validator("ToPage").is_valid({"type": "hint", "v": 4})
    assert validator("ToPage").is_valid({"type": "error", "code": "stale", "message": "Too late.", "v": 5})
    assert validator("ToLobby").is_valid({"type": "lobby_update", "put": [], "drop": ["t1"], "now": 1.5})
