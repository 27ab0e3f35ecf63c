"""The HTTP and websocket endpoints where strangers meet (issue 24): the live lobby,
*Play now* and sitting at a public table.

They follow the rest of the API (:mod:`.app`): a refusal is ``{"error": ...}`` with a
4xx and, where a person meets it through the pages, a ``code``; the guard in front of
the application (origin, media type, body size) applies to them as to every request.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...i18n import LANGUAGES, Catalog
from ..endpoint import client_address, json_body, refuse, short
from ..people.accounts import (
    COOKIE,
    DEVICE_COOKIE,
    AccountError,
    LoggedIn,
    SessionGuard,
    Sessions,
    set_cookie,
)
from ..people.hub import Elsewhere, Hub, host_answer, seated_answer
from ..people.lobby import TOPIC
from ..settings import Bucket
from ..table.chat import deal_lines
from ..table.create import LobbyError
from ..wire import RequestError, parse_json
from .http import (
    deal_of,
    host_request,
    hub_of,
    lobby_refusal,
    opened,
    opening,
    page,
)

log = logging.getLogger("lald.web")

LOBBY_RATE = (2.0, 20.0)
"""Messages a second a lobby page may send on average (it needs none), and at once."""


def _sits(request: Request) -> Any:
    """The bucket of seats taken from this address, made on first use."""
    state = request.app.state
    if not hasattr(state, "sits"):
        from ..settings import Buckets

        hub = hub_of(request)
        state.sits = Buckets(hub.settings.sit_rate, hub.settings.sit_burst, clock=hub.clock)
    return state.sits


def _account(request: Request) -> tuple[int, str] | None:
    """The logged-in account of a request that changes something (id, name), if any: the
    :class:`~lald.web.people.accounts.SessionGuard` found it and checked its CSRF token."""
    found = getattr(request.state, "account", None)
    return None if found is None else (found.id, found.name)


def start(app: Any, hub: Hub) -> None:
    """What these endpoints keep in the running application (its lifespan calls it)."""
    settings = hub.settings
    app.state.sessions = Sessions(hub.accounts, settings.session_days, memory_cost=settings.password_memory,
                                  clock=hub.clock.now)


def _sessions(request: Request) -> Sessions:
    sessions: Sessions = request.app.state.sessions
    return sessions


def _account_refusal(e: AccountError, request: Request | None = None) -> Response:
    headers = {"Retry-After": str(max(1, math.ceil(e.retry or 300)))} if e.status == 429 else None
    response = refuse(e.status, str(e), e.code, e.values, headers=headers)
    if e.code == "password_logged_out" and request is not None:
        set_cookie(response, request, None)
    return response


async def _object(request: Request) -> dict[str, Any] | Response:
    """The request's body, a JSON object, through the one guarded parser (:func:`json_body`)."""
    try:
        body = await json_body(request)
    except RequestError as e:
        return refuse(400, str(e))
    if not isinstance(body, dict):
        return refuse(400, "send a JSON object")
    return body


def _session_answer(account: Any, csrf: str | None) -> dict[str, Any]:
    return {"account": None if account is None else {
        "name": account.name, "id": account.id, "share_name": bool(getattr(account, "share_name", False))},
        "csrf": csrf}


async def api_session(request: Request) -> Response:
    """Who is logged in on this page (or nobody), and the session's CSRF token, which every
    request that changes something must carry in ``X-CSRF-Token``."""
    found = await _sessions(request).session_of(request.cookies.get(COOKIE))
    answer = _session_answer(*found) if found is not None else _session_answer(None, None)
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


async def _logged_in(request: Request, fields: set[str]) -> tuple[Any, dict[str, Any]] | Response:
    body = await _object(request)
    if isinstance(body, Response):
        return body
    unknown = set(body) - fields
    if unknown:
        return refuse(400, f"unknown field {json.dumps(sorted(unknown)[0])[:40]}")
    account = getattr(request.state, "account", None)
    if account is None:
        return refuse(401, "log in first", "not_logged_in")
    return account, body


async def _started(request: Request, account: Any, status: int = 200,
                   entered: LoggedIn | None = None) -> Response:
    """A new session of ``account``; ``entered``, a login's: the answer tells the owner how
    many wrong passwords were given for the account since their last login
    (``failed_logins``), and the browser gets its device cookie."""
    cookie, csrf = await _sessions(request).start(account)
    answer = _session_answer(account, csrf)
    if entered is not None and entered.failed is not None:
        answer["failed_logins"] = entered.failed
    response = JSONResponse(answer, status_code=status)
    set_cookie(response, request, cookie, None if entered is None else entered.device)
    return response


async def api_register(request: Request) -> Response:
    """A new account (``{"name", "password"}``), logged in at once."""
    body = await _object(request)
    if isinstance(body, Response):
        return body
    if set(body) - {"name", "password"}:
        return refuse(400, "send 'name' and 'password' only")
    try:
        entered = await _sessions(request).register(body, client_address(request),
                                                    request.cookies.get(DEVICE_COOKIE))
    except AccountError as e:
        return _account_refusal(e)
    return await _started(request, entered.account, 201, entered)


async def api_login(request: Request) -> Response:
    """Log in (``{"name", "password"}``): a new session, whatever cookie came."""
    body = await _object(request)
    if isinstance(body, Response):
        return body
    try:
        entered = await _sessions(request).login(body, client_address(request),
                                                 request.cookies.get(DEVICE_COOKIE))
    except AccountError as e:
        return _account_refusal(e)
    old = getattr(request.state, "session", None)
    if old is not None:  # (the guard found it live and its token right) it ends here
        await asyncio.to_thread(_sessions(request).accounts.end_session, _digest(old))
    return await _started(request, entered.account, entered=entered)


def _digest(cookie: str) -> str:
    from ...store import token_hash

    return token_hash(cookie)


async def api_logout(request: Request) -> Response:
    """End this session."""
    found = await _logged_in(request, set())
    if isinstance(found, Response):
        return found
    await asyncio.to_thread(_sessions(request).accounts.end_session, _digest(request.state.session))
    response = JSONResponse(_session_answer(None, None))
    set_cookie(response, request, None)
    return response


async def api_share_name(request: Request) -> Response:
    """Whether the account's name may be given beside its seats in the site's public dataset
    of finished games (``{"share": true}``; off until its owner turns it on:
    ``lald db export-games``, docs/record.md#a-sites-games-lald-games1)."""
    found = await _logged_in(request, {"share"})
    if isinstance(found, Response):
        return found
    account, body = found
    share = body.get("share")
    if not isinstance(share, bool):
        return refuse(400, "'share' must be true (name me in the site's dataset of games) or false")
    await asyncio.to_thread(_sessions(request).accounts.set_share_name, account.id, share)
    return JSONResponse({"share_name": share})


async def api_password(request: Request) -> Response:
    """Change the password (``{"old", "new"}``): every other session ends, and this page
    gets a new session."""
    found = await _logged_in(request, {"old", "new"})
    if isinstance(found, Response):
        return found
    account, body = found
    sessions = _sessions(request)
    try:
        await sessions.change_password(account, request.state.session, body, client_address(request))
    except AccountError as e:
        return _account_refusal(e, request)
    await asyncio.to_thread(sessions.accounts.end_session, _digest(request.state.session))
    return await _started(request, account)


async def api_delete(request: Request) -> Response:
    """Delete the account (``{"password"}``): its sessions, ratings and chat lines go; its
    seats' records stay, under "deleted player"."""
    found = await _logged_in(request, {"password"})
    if isinstance(found, Response):
        return found
    account, body = found
    try:
        await _sessions(request).delete(account, request.state.session, body, client_address(request))
    except AccountError as e:
        return _account_refusal(e, request)
    hub = hub_of(request)
    for table in hub.tables.values():  # the seats in memory forget the account too
        for seat in table.seats:
            if seat.account == account.id:
                seat.account, seat.name, seat.erased = None, None, True
                table.listing_changed()
                table.notify()
    response = JSONResponse({"deleted": True})
    set_cookie(response, request, None)
    return response


async def api_data(request: Request) -> Response:
    """Everything kept about the logged-in account, as a JSON file."""
    account = await _sessions(request).current(request)
    if account is None:
        return refuse(401, "log in first", "not_logged_in")
    data = await asyncio.to_thread(_sessions(request).accounts.data, account.id)
    return JSONResponse(data, headers={"Content-Disposition": 'attachment; filename="lald-my-data.json"',
                                       "Cache-Control": "no-store"})


async def api_my_seats(request: Request) -> Response:
    """The logged-in account's seats at tables still to be played: which table and seat,
    its status, title, rules; never a token (a seat's link stays in the browser that took
    it) and nothing of any hand."""
    account = await _sessions(request).current(request)
    if account is None:
        return refuse(401, "log in first", "not_logged_in")
    seats = await asyncio.to_thread(hub_of(request).accounts.open_seats, account.id)
    live = hub_of(request).tables
    out = []
    for seat in seats:
        table = live.get(seat["table"])
        if table is not None:  # the live table knows better than the last write
            if not table.open:
                continue
            seat["status"], seat["deals"] = table.status, len(table.session.deals)
        out.append(seat | {"watch": f"/play#w={seat['table']}"})
    return JSONResponse({"seats": out}, headers={"Cache-Control": "no-store"})


async def api_play_now(request: Request) -> Response:
    """Seat the person at the public table of their reading that most needs a player, or
    open one (then they are its host too)."""
    body = await opening(request)
    if isinstance(body, Response):
        return body
    if not _sits(request).ready(client_address(request)):
        return refuse(429, "too many seats taken from your address: try again in a few minutes",
                      "too_many_seats", headers={"Retry-After": "120"})
    hub = hub_of(request)
    try:
        table, seat, token, host = hub.play_now(body, _account(request), request.path_params.get("table"))
    except Elsewhere as e:  # another server's table needs a player: ask there (the proxy takes it)
        return RedirectResponse(f"/api/tables/{e.table_id}/play-now", status_code=307)
    except LobbyError as e:
        return lobby_refusal(401 if e.code == "rated_login" else 400, e)
    _sits(request).take(client_address(request))
    if host is not None:
        opened(request)
    await table.until_saved()
    return JSONResponse(seated_answer(str(request.base_url), table, seat, token, host), status_code=201)


async def api_sit(request: Request) -> Response:
    """Take an open seat of a public table: ``{"table": ID, "name": ...}``."""
    try:
        body = await json_body(request)
    except RequestError as e:
        return refuse(400, str(e))
    if not isinstance(body, dict) or set(body) - {"table", "name"} or "table" not in body:
        return refuse(400, "send {\"table\": ID} and, if you like, \"name\"")
    if not _sits(request).ready(client_address(request)):
        return refuse(429, "too many seats taken from your address: try again in a few minutes",
                      "too_many_seats", headers={"Retry-After": "120"})
    hub = hub_of(request)
    at = request.path_params.get("table")
    try:
        table = hub.table(body["table"]) if at in (None, body["table"]) else None
    except Elsewhere as e:  # to the server that holds it (the proxy takes it there)
        return RedirectResponse(f"/api/tables/{e.table_id}/sit", status_code=307)
    if table is None:
        return refuse(404, "there is no such table", "no_table")
    if not table.open:
        return refuse(409, "the table is closed", "table_closed")
    try:
        seat, token = hub.sit(table, body.get("name"), _account(request))
    except LobbyError as e:
        return lobby_refusal({"no_free_seat": 409, "rated_login": 401}.get(e.code or "", 400), e)
    _sits(request).take(client_address(request))
    await table.until_saved()
    return JSONResponse(seated_answer(str(request.base_url), table, seat, token), status_code=201)


async def lobby_socket(ws: WebSocket) -> None:
    """A lobby page's live list: the whole list first (``{"type": "lobby", "tables":
    [...]}``), then each change as it is committed (``{"type": "lobby_update", "put":
    [rows], "drop": [ids]}``). The page sends nothing but, if it likes, pings."""
    hub = hub_of(ws)
    await ws.accept()
    sub = hub.lobby.channel.subscribe(TOPIC)
    rate, burst = LOBBY_RATE
    clock = hub.clock
    bucket = Bucket(rate, burst, clock.monotonic())

    async def reader() -> None:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            if not bucket.take(clock.monotonic()):
                return  # flooding: the socket is closed
            with contextlib.suppress(RequestError, TypeError):
                if parse_json(message.get("text") or "null") == {"type": "ping"}:
                    await ws.send_text('{"type": "pong"}')

    reading = asyncio.create_task(reader())
    try:
        await ws.send_text(json.dumps({"type": "lobby", "now": clock.now(), "tables": hub.lobby.snapshot()},
                                      ensure_ascii=False))
        while not reading.done():
            getting = asyncio.ensure_future(sub.get())
            await asyncio.wait({getting, reading}, return_when=asyncio.FIRST_COMPLETED)
            if not getting.done():
                getting.cancel()
                break
            message = getting.result()
            if sub.lost:  # fell behind: the whole list again
                sub.lost = False
                sub.queue.clear()
                await ws.send_text(json.dumps({"type": "lobby", "now": clock.now(),
                                               "tables": hub.lobby.snapshot()}, ensure_ascii=False))
                continue
            if message is not None:
                await ws.send_text(_update_text(message))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        sub.close()
        reading.cancel()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await reading
        with contextlib.suppress(Exception):
            await ws.close()


async def api_host_mute(request: Request) -> Response:
    """The host mutes a seat's chat, or lets it speak again: ``{"token", "seat", "muted"}``."""
    found = await host_request(request, {"seat", "muted"})
    if isinstance(found, Response):
        return found
    table, body = found
    seat, muted = body["seat"], body["muted"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
        return refuse(400, f"there is no seat {short(json.dumps(seat))}: "
                           f"seats are 0 to {len(table.seats) - 1}")
    if not isinstance(muted, bool):
        return refuse(400, "'muted' must be true or false")
    table.talk.mute(seat, muted)
    await table.until_saved()
    return JSONResponse(host_answer(str(request.base_url), table, body["token"]))


async def api_host_spectators(request: Request) -> Response:
    """The host opens or closes the spectators' chat: ``{"token", "chat"}``."""
    found = await host_request(request, {"chat"})
    if isinstance(found, Response):
        return found
    table, body = found
    if not isinstance(body["chat"], bool):
        return refuse(400, "'chat' must be true (spectators may chat) or false")
    table.talk.open_spectators(body["chat"])
    await table.until_saved()
    return JSONResponse(host_answer(str(request.base_url), table, body["token"]))


async def api_chat(request: Request) -> Response:
    """A finished deal's chat lines and laughs, each with the number of actions before it,
    for its replay; a deal in play is not disclosed, as its record is not."""
    table = hub_of(request).table(request.path_params["table"])
    if table is None:
        return refuse(404, "there is no such table", "no_table")
    lang = request.query_params.get("lang", "en")
    if lang not in LANGUAGES:
        return refuse(400, f"choose a language of {', '.join(LANGUAGES)}")
    text = request.path_params["deal"]
    deal = deal_of(text)
    await table.until_saved()
    try:
        table.record(deal)
    except KeyError:
        return refuse(404, f"deal {short(text)} is not over, or there is no such deal", "no_deal")
    return JSONResponse(deal_lines(table, deal, Catalog(lang)))


async def api_leaderboard(request: Request) -> Response:
    """A reading's leaderboard (``?reading=survivor/5``; without one, the reading with the
    most rated accounts), the readings that have one, and the bots' fixed ratings."""
    from ..people.ratings import BOT_RATINGS, BOT_SIGMA, leaderboard_rows

    asked = request.query_params.get("reading")
    if asked is not None and len(asked) > 64:
        return refuse(400, "a reading is a preset, players and variants, like survivor/5")
    accounts = hub_of(request).accounts
    readings = await asyncio.to_thread(accounts.readings)
    reading: str = asked if asked else await asyncio.to_thread(_busiest, accounts, readings)
    rows = await asyncio.to_thread(leaderboard_rows, accounts, reading)
    return JSONResponse({"reading": reading, "readings": readings, "players": rows,
                         "bots": [{"level": level, "mu": mu, "sigma": BOT_SIGMA}
                                  for level, mu in BOT_RATINGS.items()]})


def _busiest(accounts: Any, readings: list[str]) -> str:
    """The reading with the most rated accounts (survivor/5 when none has any, or on a
    tie): the leaderboard opens on the one people play."""
    counts = {r: len(accounts.leaderboard(r)) for r in readings}
    return max(["survivor/5", *readings], key=lambda r: counts.get(r, 0))


async def api_player(request: Request) -> Response:
    """An account's public profile: its ratings, their history, its tables."""
    from ..people.names import lookalike_key
    from ..people.ratings import ordinal

    name = request.path_params["name"]
    accounts = hub_of(request).accounts
    account = await asyncio.to_thread(accounts.by_skeleton, lookalike_key(name[:100]))
    if account is None:
        return refuse(404, "there is no such player", "no_player")
    profile = await asyncio.to_thread(accounts.profile, account.id)
    for row in profile["ratings"]:
        row["ordinal"] = round(ordinal(row["mu"], row["sigma"]), 3)
    return JSONResponse({"name": account.name} | profile)


_encoded: dict[int, tuple[Any, str]] = {}


def _update_text(message: dict[str, Any]) -> str:
    """A published lobby update as the text every lobby page is sent: made once per
    message, however many pages there are."""
    hit = _encoded.get(id(message))
    if hit is not None and hit[0] is message:
        return hit[1]
    text = json.dumps({"type": "lobby_update"} | message, ensure_ascii=False)
    if len(_encoded) >= 64:
        _encoded.clear()
    _encoded[id(message)] = (message, text)
    return text


def routes() -> list[BaseRoute]:
    """The routes of this module, for :func:`lald.web.server.app.create_app`."""
    return [
        Route("/api/play-now", api_play_now, methods=["POST"]),
        Route("/api/session", api_session),
        Route("/api/account/register", api_register, methods=["POST"]),
        Route("/api/account/login", api_login, methods=["POST"]),
        Route("/api/account/logout", api_logout, methods=["POST"]),
        Route("/api/account/password", api_password, methods=["POST"]),
        Route("/api/account/delete", api_delete, methods=["POST"]),
        Route("/api/account/share-name", api_share_name, methods=["POST"]),
        Route("/api/account/data", api_data),
        Route("/api/account/seats", api_my_seats),
        Route("/api/leaderboard", api_leaderboard),
        Route("/api/players/{name}", api_player),
        Route("/leaderboard", page("leaderboard.html")),
        Route("/player", page("player.html")),
        Route("/api/sit", api_sit, methods=["POST"]),
        # at a table's own address, where a server of several that does not hold it sends them
        Route("/api/tables/{table}/sit", api_sit, methods=["POST"]),
        Route("/api/tables/{table}/play-now", api_play_now, methods=["POST"]),
        Route("/api/host/mute", api_host_mute, methods=["POST"]),
        Route("/api/host/spectators", api_host_spectators, methods=["POST"]),
        # at the table's own address, where a server that does not hold the table sends them
        Route("/api/tables/{table}/host/mute", api_host_mute, methods=["POST"]),
        Route("/api/tables/{table}/host/spectators", api_host_spectators, methods=["POST"]),
        Route("/api/tables/{table}/deals/{deal}/chat", api_chat),
        WebSocketRoute("/ws/lobby", lobby_socket),
    ]


__all__ = ["SessionGuard", "routes", "start"]
