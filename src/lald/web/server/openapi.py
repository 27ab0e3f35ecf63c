"""The HTTP API described in OpenAPI 3.1, served at ``/api/openapi.json``.

A test checks that it names every route of the application and no other, and an API
fuzzer (schemathesis) checks the answers against it, so the description stays true.

>>> sorted(p for p in spec()["paths"] if p.startswith("/api/host"))[:2]
['/api/host', '/api/host/close']
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from ...core.rules import OPTION_NAMES, PRESET_NAMES, RANGES, VARIANT_NAMES, Rules
from ...i18n import LANGUAGES
from ..table.create import NAME_PATTERN, levels
from ..wire import Status

WHOLE = ("A number that counts (players, a seat, a seed, an option's number) is written as a "
         "whole number: 5, not 5.0 or \"5\" (JSON Schema would take 5.0 for 5; this API refuses it).")
_ERROR = {"$ref": "#/components/schemas/Error"}
_TABLE = {"$ref": "#/components/schemas/Table"}


def _answer(description: str, schema: dict[str, Any] | None = None,
            media: str = "application/json") -> dict[str, Any]:
    out: dict[str, Any] = {"description": description}
    if schema is not None:
        out["content"] = {media: {"schema": schema}}
    return out


def _refusals(*codes: int) -> dict[str, Any]:
    words = {400: "the request cannot be read or is refused; `error` says why",
             403: "another site's page, or a token that is not valid",
             404: "no such thing",
             413: "the body is longer than 64 KiB", 415: "not JSON", 429: "too many tables opened",
             503: "the expert is busy, or the review could not be made: try again later",
             401: "log in first (a rated table is for accounts), or a wrong name or password",
             409: "the table is closed, no seat is free, or the name is taken"}
    return {str(c): _answer(words[c], _ERROR) for c in codes}


_POSTED = (400, 403, 413, 415)


def _json_body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def spec() -> dict[str, Any]:
    """The whole description."""
    options: dict[str, Any] = {}
    defaults = Rules()
    for name in OPTION_NAMES:
        default = getattr(defaults, name)
        if name in RANGES:
            low, high = RANGES[name]
            options[name] = {"type": "integer", "minimum": low, "maximum": high}
        elif isinstance(default, StrEnum):
            options[name] = {"enum": [m.value for m in type(default)]}
        else:
            options[name] = {"anyOf": [{"type": "boolean"}, {"enum": ["on", "off"]}]}
    seat = {"type": "object", "additionalProperties": False, "properties": {
        "human": {"type": "boolean"},
        "open": {"type": "boolean", "description": "a seat for a stranger from the lobby (public tables): "
                                                   "named when taken, a person's"},
        "level": {"enum": levels(), "description": "a bot level of /api/levels"},
        "name": {"anyOf": [{"type": "string", "maxLength": 40, "pattern": NAME_PATTERN}, {"type": "null"}]}},
        "if": {"required": ["open"], "properties": {"open": {"const": True}}},
        "then": {"not": {"required": ["name"]}, "properties": {"human": {"const": True}}}}
    summary = {"type": "object", "required": ["id", "rules", "status", "deal", "deals", "seats", "practice"],
               "properties": {
                   "id": {"type": "string"},
                   "rules": {"$ref": "#/components/schemas/Rules"},
                   "status": {"enum": [s.value for s in Status]},
                   "deal": {"type": "integer"}, "deals": {"type": "integer"},
                   "turn_seconds": {"type": "number"},
                   "practice": {"type": "boolean",
                                "description": "dealt from a seed its creator chose: the creator "
                                               "can know every hand"},
                   "lesson": {"type": "boolean",
                              "description": "the teaching deal: a prepared layout, scripted seats"},
                   "hints": {"type": "boolean",
                             "description": "its people may ask for the expert's hint (a practice aid)"},
                   "seats": {"type": "array", "items": {"type": "object"}},
                   "public": {"type": "boolean"}, "rated": {"type": "boolean"},
                   "title": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                   "lang": {"enum": list(LANGUAGES)}, "free": {"type": "integer", "minimum": 0},
                   "fill_at": {"anyOf": [{"type": "number"}, {"type": "null"}]}}}
    host_answer = {"type": "object", "required": ["table", "seats", "host", "watch"], "properties": {
        "table": {"$ref": "#/components/schemas/Table"},
        "seats": {"type": "array", "items": {"type": "object", "required": ["seat", "human", "joined"],
                                             "properties": {
                                                 "seat": {"type": "integer"},
                                                 "human": {"type": "boolean"},
                                                 "joined": {"type": "boolean"},
                                                 "online": {"type": "boolean"},
                                                 "token": {"type": "string"},
                                                 "url": {"type": "string"}}}},
        "host": {"type": "object", "required": ["token", "url"],
                 "properties": {"token": {"type": "string"}, "url": {"type": "string"}}},
        "watch": {"type": "string"}}}
    token = {"type": "string", "description": "the host's secret token"}
    host: dict[str, Any] = {
        "/api/host": {"post": {
            "summary": "the host's view: seats, their links, who joined, who is connected",
            "requestBody": _json_body({"type": "object", "required": ["token"],
                                       "additionalProperties": False, "properties": {"token": token}}),
            "responses": {"200": _answer("the host's view", {"$ref": "#/components/schemas/HostAnswer"}),
                          **_refusals(*_POSTED)}}},
        "/api/host/reissue": {"post": {
            "summary": "a new link for a seat (the old one stops at once)", "description": WHOLE,
            "requestBody": _json_body({"type": "object", "required": ["token", "seat"],
                                       "additionalProperties": False,
                                       "properties": {"token": token, "seat": {"type": "integer"}}}),
            "responses": {"200": _answer("the host's view", {"$ref": "#/components/schemas/HostAnswer"}),
                          **_refusals(*_POSTED, 409)}}},
        "/api/host/close": {"post": {
            "summary": "close the table (finished records stay)",
            "requestBody": _json_body({"type": "object", "required": ["token"],
                                       "additionalProperties": False, "properties": {"token": token}}),
            "responses": {"200": _answer("the host's view", {"$ref": "#/components/schemas/HostAnswer"}),
                          **_refusals(*_POSTED)}}},
    }
    community = community_paths()
    # Where a server of several that does not hold the table sends these (307), by the
    # table's id, for the proxy to take to its holder (docs/deploy.md).
    at_table = {path: community[path] for path in ("/api/play-now", "/api/sit", "/api/host/mute",
                                                   "/api/host/spectators")}
    return {
        "openapi": "3.1.0",
        "info": {"title": "lald serve", "version": "1",
                 "description": "Laugh and Lie Down online: the lobby, the host's links, records."},
        "paths": {
            "/api/levels": {"get": {"summary": "the bot levels a seat may be given", "responses": {
                "200": _answer("level names", {"type": "array", "items": {"type": "string"}})}}},
            "/api/tables": {
                "get": {"summary": "the tables still to be played, newest first", "responses": {
                    "200": _answer("tables", {"type": "array", "items": _TABLE})}},
                "post": {"summary": "open a table", "description": WHOLE, "requestBody": _json_body({
                    "type": "object", "additionalProperties": False,
                    "allOf": [*_seats_per_players(), *_public_only()],
                    "properties": {
                        "preset": {"enum": list(PRESET_NAMES)},
                        "players": {"enum": [3, 4, 5]},
                        "variants": {"type": "array", "items": {"enum": list(VARIANT_NAMES)},
                                     "uniqueItems": True},
                        "options": {"type": "object", "additionalProperties": False, "properties": options},
                        "seats": {"type": "array", "items": seat, "minItems": 3, "maxItems": 5},
                        "turn_seconds": {"anyOf": [{"const": 0}, {"type": "number", "minimum": 5,
                                                                  "maximum": 600}]},
                        "seed": {"type": "integer", "minimum": 0, "maximum": (1 << 62) - 1,
                                 "description": "makes a practice table"},
                        "hints": {"type": "boolean", "description": "the expert's hints for the "
                                                                    "table's people (off by default)"},
                        **LOBBY_FIELDS}}),
                    "responses": {"201": _answer("the table, the host's link and the seats' links",
                                                 {"$ref": "#/components/schemas/HostAnswer"}),
                                  **_refusals(*_POSTED, 429)}}},
            "/api/lessons": {"post": {
                "summary": "open a lesson: the teaching deal for one person, in seat 0 (never listed)",
                "requestBody": _json_body({"type": "object", "additionalProperties": False,
                                           "maxProperties": 0}),
                "responses": {"201": _answer("the lesson table and the learner's link", {
                    "type": "object", "required": ["table", "seat", "token", "url"], "properties": {
                        "table": _TABLE, "seat": {"const": 0}, "token": {"type": "string"},
                        "url": {"type": "string"}}}),
                    **_refusals(*_POSTED, 429)}}},
            "/api/readings": {"post": {
                "summary": "compare two readings on the same deals (the readings laboratory, "
                           "docs/readings/README.md): answered at once with where the comparison "
                           "stands; the same request is the same comparison",
                "requestBody": _json_body(_LAB_REQUEST),
                "responses": {"200": _answer("the comparison, done", _COMPARISON),
                              "202": _answer("the comparison, waiting or playing: ask GET "
                                             "/api/readings/{id} again", _COMPARISON),
                              **_refusals(*_POSTED),
                              "429": _answer("this address asked for too many deals in the last hour",
                                             _ERROR),
                              "503": _answer("the laboratory is busy: too many comparisons wait", _ERROR)}}},
            "/api/readings/{id}": {"get": {
                "summary": "where a comparison stands: its progress, its figures so far, its report "
                           "once done",
                "parameters": [_path("id", {"type": "string", "maxLength": 32})],
                "responses": {"200": _answer("the comparison", _COMPARISON), **_refusals(404)}}},
            "/api/tables/{table}": {"get": {
                "summary": "one table", "parameters": [_path("table")],
                "responses": {"200": _answer("the table", {"$ref": "#/components/schemas/Table"}),
                              **_refusals(404)}}},
            "/api/tables/{table}/deals/{deal}/record": {"get": {
                "summary": "a finished deal's record (docs/record.md): its layout and actions",
                "parameters": [_path("table"), _path("deal", {"type": "integer", "minimum": 0}),
                               {"name": "format", "in": "query", "required": False,
                                "schema": {"enum": ["json", "text"]}}],
                "responses": {"200": {"description": "the record", "content": {
                    "application/json": {"schema": {"type": "object",
                                                    "required": ["format", "hands", "table"],
                                                    "not": {"required": ["seed"]}}},
                    "text/plain": {"schema": {"type": "string"}}}}, **_refusals(404)}}},
            "/api/tables/{table}/deals/{deal}/review": {"get": {
                "summary": "the expert's review of one seat's play in a finished deal (docs/review.md); "
                           "made one at a time: ask again while the answer is 202",
                "parameters": [_path("table"), _path("deal", {"type": "integer", "minimum": 0}),
                               {"name": "seat", "in": "query", "required": True,
                                "schema": {"type": "integer", "minimum": 0, "maximum": 4}},
                               {"name": "lang", "in": "query", "required": False,
                                "schema": {"enum": list(LANGUAGES)}}],
                "responses": {
                    "200": _answer("the review (lald-review/1) and its lines in the language asked for", {
                        "type": "object", "required": ["status", "format", "seat", "decisions", "costliest",
                                                       "text"],
                        "properties": {"status": {"const": "done"}, "format": {"const": "lald-review/1"},
                                       "seat": {"type": "integer"}, "decisions": {"type": "array"},
                                       "costliest": {"type": "array", "items": {"type": "integer"}},
                                       "text": {"type": "object"}}}),
                    "202": _answer("not made yet: waiting for the expert, or being made", {
                        "type": "object", "required": ["status", "ahead", "done", "total"],
                        "properties": {"status": {"enum": ["queued", "working"]},
                                       "ahead": {"type": "integer", "minimum": 0},
                                       "done": {"type": "integer", "minimum": 0},
                                       "total": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}),
                    **_refusals(400, 404, 503)}}},
            "/api/replay": {"post": {
                "summary": "every step of a record, replayed by the engine",
                "parameters": [{"name": "lang", "in": "query", "required": False,
                                "schema": {"enum": list(LANGUAGES)}}],
                "requestBody": {"required": True, "content": {
                    "application/json": {"schema": {"type": "object"}},
                    "text/plain": {"schema": {"type": "string"}}}},
                "responses": {"200": _answer("the steps", {"type": "object", "required": ["steps"]}),
                              **_refusals(*_POSTED)}}},
            "/api/i18n/{lang}": {"get": {
                "summary": "a language's message catalog", "parameters": [_path("lang")],
                "responses": {"200": _answer("the catalog", {"type": "object",
                                                             "additionalProperties": {"type": "string"}}),
                              **_refusals(404)}}},
            # The same at the table's own address: where a server of several that does not hold
            # the table sends them (307), and the proxy takes them to its holder (docs/deploy.md).
            **host,
            **{f"/api/tables/{{table}}{path[4:]}": {"post": operation["post"] | {
                "summary": f"{operation['post']['summary']}, at the table's own address",
                "parameters": [_path("table")]}}
               for path, operation in host.items()},
            **community,
            **{f"/api/tables/{{table}}{path[4:]}": {"post": operation["post"] | {
                "summary": f"{operation['post']['summary']}, at the table's own address",
                "parameters": [_path("table")]}}
               for path, operation in at_table.items()},
            "/api/openapi.json": {"get": {"summary": "this description", "responses": {
                "200": _answer("OpenAPI 3.1", {"type": "object"})}}},
        },
        "components": {"schemas": {
            "Error": {"type": "object", "required": ["error"], "properties": {
                "error": {"type": "string", "description": "why, in one line of English"},
                "code": {"type": "string", "description":
                         "for the refusals a person can meet through the pages, which word them in "
                         "their own language: other_site, too_many_tables, name (with the seat and "
                         "the most characters a name may have), table_closed, host_link, "
                         "server_error, no_table, no_deal, record and record_move (a record the "
                         "replay cannot read; with the number of the move, as move); and those of the "
                         "lobby and accounts (private_table, rated_login, rated_public, rated_rules, "
                         "seated, no_free_seat, guest_name, title, too_many_seats, login, login_limit, "
                         "name_taken, name_rules, name_refused, name_character (with the character, "
                         "as char: U+XXXX), name_marks (with most), password_rules, password_wrong, "
                         "password_limit and login_limit (with the minutes to wait, as count), "
                         "password_logged_out (with most), csrf, register_limit, not_logged_in, "
                         "no_player)"},
                "seat": {"type": "integer"}, "most": {"type": "integer"}, "move": {"type": "integer"},
                "count": {"type": "integer"}, "char": {"type": "string"}}},
            "Rules": {"type": "object", "required": ["preset", "players", "variants", "options"]},
            "Table": summary,
            "HostAnswer": host_answer,
        }},
    }


def _seats_per_players() -> list[dict[str, Any]]:
    """``seats`` lists one seat per player (5 when ``players`` is left out)."""
    def seats(n: int) -> dict[str, Any]:
        return {"properties": {"seats": {"minItems": n, "maxItems": n}}}
    rules: list[dict[str, Any]] = [{"if": {"required": ["players"], "properties": {"players": {"const": n}}},
                                    "then": seats(n)} for n in (3, 4)]
    rules.append({"if": {"not": {"required": ["players"]}}, "then": seats(5)})
    rules.append({"if": {"required": ["players"], "properties": {"players": {"const": 5}}}, "then": seats(5)})
    return rules


#: A comparison asked of the readings laboratory (:func:`lald.web.readings.work.parse_request`).
_LAB_REQUEST: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["a", "b", "deals"], "properties": {
        "a": {"type": "string", "maxLength": 300,
              "description": "a reading: PRESET[+VARIANT...][:OPTION=VALUE...][/PLAYERS]"},
        "b": {"type": "string", "maxLength": 300, "description": "the reading compared with a"},
        "players": {"enum": ["random", "heuristic", "expert"], "description": "the bots in every seat"},
        "deals": {"type": "integer", "minimum": 1, "maximum": 4000,
                  "description": "deals per reading: at most 4000 (random), 2000 (heuristic), 200 (expert)"},
        "seed": {"type": "integer", "minimum": 0, "description": "names the deals (default 1)"}}}
#: Where a comparison stands.
_COMPARISON: dict[str, Any] = {
    "type": "object", "required": ["request", "status", "done", "total", "brief"], "properties": {
        "request": {"type": "object", "required": ["id", "a", "b", "players", "deals", "seed", "rules"]},
        "status": {"enum": ["queued", "running", "done", "failed"]},
        "done": {"type": "integer"}, "total": {"type": "integer"},
        "ahead": {"type": "integer", "description": "comparisons before it (queued)"},
        "brief": {"anyOf": [{"type": "object"}, {"type": "null"}],
                  "description": "the main figures so far, with their intervals"},
        "report": {"type": "array", "description": "the report's blocks (done)"},
        "error": {"type": "string"}, "code": {"type": "string"}}}


def _path(name: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": schema or {"type": "string"}}


#: The lobby's fields of a new table (issue 24).
LOBBY_FIELDS: dict[str, Any] = {
    "public": {"type": "boolean", "description": "listed in the lobby, its open seats for strangers "
                                                 "(private, link-only, by default)"},
    "fill_seconds": {"anyOf": [{"const": 0}, {"type": "integer", "minimum": 5, "maximum": 3600}],
                     "description": "public tables: how long to wait for people once one has joined "
                                    "before bots take the empty seats (0: wait for people)"},
    "lang": {"enum": list(LANGUAGES), "description": "the language the table speaks"},
    "title": {"type": "string", "maxLength": 60, "pattern": NAME_PATTERN},
}


def community_paths() -> dict[str, Any]:
    """The lobby's endpoints (issue 24)."""
    seated = {"type": "object", "required": ["table", "seat", "token", "url"], "properties": {
        "table": _TABLE, "seat": {"type": "integer"}, "token": {"type": "string"}, "url": {"type": "string"},
        "host": {"type": "object", "required": ["token", "url"]}}}
    name = {"type": "string", "maxLength": 40, "pattern": NAME_PATTERN}
    host_token = {"type": "string", "description": "the host's secret token"}
    credentials = {"type": "object", "required": ["name", "password"], "additionalProperties": False,
                   "properties": {"name": {"type": "string"}, "password": {"type": "string"}}}
    session_answer = {"type": "object", "required": ["account", "csrf"]}
    return {
        "/api/play-now": {"post": {
            "summary": "seat me at the public table of this reading that most needs a player, or open one",
            "description": WHOLE, "requestBody": _json_body({
                "type": "object", "additionalProperties": False, "properties": {
                    "preset": {"enum": list(PRESET_NAMES)}, "players": {"enum": [3, 4, 5]},
                    "variants": {"type": "array", "items": {"enum": list(VARIANT_NAMES)},
                                 "uniqueItems": True},
                    "rated": {"type": "boolean", "description": "a rated table (accounts only)"},
                    "name": name, "lang": {"enum": list(LANGUAGES)}}}),
            "responses": {"201": _answer("the seat taken: its link (and, for a table just opened, the "
                                         "host's)", seated),
                          **_refusals(*_POSTED, 401, 429)}}},
        "/api/sit": {"post": {
            "summary": "take an open seat of a public table",
            "requestBody": _json_body({"type": "object", "required": ["table"], "additionalProperties": False,
                                       "properties": {"table": {"type": "string"}, "name": name}}),
            "responses": {"201": _answer("the seat taken and its link", seated),
                          **_refusals(*_POSTED, 401, 404, 409, 429)}}},
        "/api/host/mute": {"post": {
            "summary": "mute a seat's chat, or let it speak again", "description": WHOLE,
            "requestBody": _json_body({"type": "object", "required": ["token", "seat", "muted"],
                                       "additionalProperties": False, "properties": {
                                           "token": host_token, "seat": {"type": "integer"},
                                           "muted": {"type": "boolean"}}}),
            "responses": {"200": _answer("the host's view", {"$ref": "#/components/schemas/HostAnswer"}),
                          **_refusals(*_POSTED)}}},
        "/api/host/spectators": {"post": {
            "summary": "open or close the spectators' chat",
            "requestBody": _json_body({"type": "object", "required": ["token", "chat"],
                                       "additionalProperties": False, "properties": {
                                           "token": host_token, "chat": {"type": "boolean"}}}),
            "responses": {"200": _answer("the host's view", {"$ref": "#/components/schemas/HostAnswer"}),
                          **_refusals(*_POSTED)}}},
        "/api/session": {"get": {
            "summary": "who is logged in on this page, and the session's CSRF token (for X-CSRF-Token)",
            "responses": {"200": _answer("the session", {
                "type": "object", "required": ["account", "csrf"], "properties": {
                    "account": {"anyOf": [{"type": "null"}, {"type": "object", "required": ["name", "id"]}]},
                    "csrf": {"anyOf": [{"type": "null"}, {"type": "string"}]}}})}}},
        "/api/account/register": {"post": {
            "summary": "make an account and log in (a session cookie: HttpOnly, SameSite=Strict)",
            "requestBody": _json_body(credentials),
            "responses": {"201": _answer("the session", session_answer), **_refusals(*_POSTED, 409, 429)}}},
        "/api/account/login": {"post": {
            "summary": "log in: a new session whatever cookie came; the same 401 for a wrong name or a "
                       "wrong password",
            "description": "The answer's failed_logins is how many wrong passwords were given for "
                           "the account since its last login. Failed logins are limited per address "
                           "and, backing off, per name; a browser or an address the account has "
                           "logged in from before is not held back by its name's limit.",
            "requestBody": _json_body(credentials),
            "responses": {"200": _answer("the session", session_answer | {
                "properties": {"failed_logins": {"type": "integer", "minimum": 0}}}),
                **_refusals(*_POSTED, 401, 429)}}},
        "/api/account/logout": {"post": {
            "summary": "end this session",
            "requestBody": _json_body({"type": "object", "maxProperties": 0}),
            "responses": {"200": _answer("no session", session_answer), **_refusals(*_POSTED, 401)}}},
        "/api/account/password": {"post": {
            "summary": "change the password; every other session ends (the fifth wrong old password "
                       "given through a session ends it: 401)",
            "requestBody": _json_body({"type": "object", "required": ["old", "new"],
                                       "additionalProperties": False,
                                       "properties": {"old": {"type": "string"},
                                                      "new": {"type": "string", "minLength": 8,
                                                              "maxLength": 256}}}),
            "responses": {"200": _answer("a new session", session_answer),
                          **_refusals(*_POSTED, 401, 429)}}},
        "/api/account/delete": {"post": {
            "summary": "delete the account: its sessions, ratings and chat lines go; its games stay, "
                       "under \"deleted player\"",
            "requestBody": _json_body({"type": "object", "required": ["password"],
                                       "additionalProperties": False,
                                       "properties": {"password": {"type": "string"}}}),
            "responses": {"200": _answer("deleted", {"type": "object"}), **_refusals(*_POSTED, 401, 429)}}},
        "/api/account/share-name": {"post": {
            "summary": "whether the account's name is given beside its seats in the site's public "
                       "dataset of finished games (off until its owner turns it on)",
            "requestBody": _json_body({"type": "object", "required": ["share"], "additionalProperties": False,
                                       "properties": {"share": {"type": "boolean"}}}),
            "responses": {"200": _answer("the choice as kept", {
                "type": "object", "required": ["share_name"],
                "properties": {"share_name": {"type": "boolean"}}}),
                **_refusals(*_POSTED, 401)}}},
        "/api/account/data": {"get": {
            "summary": "everything kept about the logged-in account, as a JSON file",
            "responses": {"200": _answer("the data", {"type": "object"}), **_refusals(401)}}},
        "/api/account/seats": {"get": {
            "summary": "the logged-in account's seats at tables still to be played (no token, no card)",
            "responses": {"200": _answer("the seats", {
                "type": "object", "required": ["seats"],
                "properties": {"seats": {"type": "array", "items": {
                    "type": "object", "required": ["table", "seat", "status", "watch"],
                    "properties": {"table": {"type": "string"}, "seat": {"type": "integer"},
                                   "status": {"type": "string"}, "watch": {"type": "string"},
                                   "title": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                                   "rules": {"type": "object"}, "deals": {"type": "integer"},
                                   "created": {"type": "number"}, "rated": {"type": "boolean"}}}}}}),
                **_refusals(401)}}},
        "/api/leaderboard": {"get": {
            "summary": "a reading's leaderboard (ratings of rated tables; without a reading, the one "
                       "with the most rated accounts), and the bots' fixed ratings",
            "parameters": [{"name": "reading", "in": "query", "required": False,
                            "schema": {"type": "string", "maxLength": 64}}],
            "responses": {"200": _answer("the leaderboard", {
                "type": "object", "required": ["reading", "readings", "players", "bots"]}),
                **_refusals(400)}}},
        "/api/players/{name}": {"get": {
            "summary": "a player's profile: ratings per reading, their history, their games",
            "parameters": [_path("name")],
            "responses": {"200": _answer("the profile", {
                "type": "object", "required": ["name", "ratings", "history", "tables"]}),
                **_refusals(404)}}},
        "/api/tables/{table}/deals/{deal}/chat": {"get": {
            "summary": "a finished deal's chat lines and laughs, each after how many actions it was said",
            "parameters": [_path("table"), _path("deal", {"type": "integer", "minimum": 0}),
                           {"name": "lang", "in": "query", "required": False,
                            "schema": {"enum": list(LANGUAGES)}}],
            "responses": {"200": _answer("the lines", {"type": "array", "items": {
                "type": "object", "required": ["kind", "after", "seat", "spectator", "name", "text"]}}),
                **_refusals(400, 404)}}},
    }


def _public_only() -> list[dict[str, Any]]:
    """Open seats and a wait for players are a public table's."""
    public = {"required": ["public"], "properties": {"public": {"const": True}}}
    opened = {"required": ["open"], "properties": {"open": {"const": True}}}
    return [{"if": {"required": ["fill_seconds"]}, "then": public},
            {"if": {"required": ["seats"], "properties": {"seats": {"contains": opened}}}, "then": public}]
