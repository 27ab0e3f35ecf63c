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
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..i18n import LANGUAGES, Catalog
from .app import _client, _deal_of, _host_request, _hub, _opened, _opening, _short, lobby_refusal, refuse
from .chat import deal_lines
from .hub import LobbyError, host_answer
from .lobby import TOPIC
from .settings import Bucket

log = logging.getLogger("lald.web")

LOBBY_RATE = (2.0, 20.0)
"""Messages a second a lobby page may send on average (it needs none), and at once."""


def _seated_answer(base: str, table: Any, seat: int, token: str, host: str | None) -> dict[str, Any]:
    answer: dict[str, Any] = {"table": table.summary(), "seat": seat, "token": token,
                              "url": f"{base}play#t={token}"}
    if host is not None:
        answer["host"] = {"token": host, "url": f"{base}#host={host}"}
    return answer


def _sits(request: Request) -> Any:
    """The bucket of seats taken from this address, made on first use."""
    state = request.app.state
    if not hasattr(state, "sits"):
        from .settings import Buckets

        settings = _hub(request).settings
        state.sits = Buckets(settings.sit_rate, settings.sit_burst)
    return state.sits


def _account(request: Request) -> tuple[int, str] | None:
    """The logged-in account of the request (id, name), if any (:mod:`.accounts`)."""
    found = getattr(request.state, "account", None)
    return None if found is None else (found.id, found.name)


async def api_play_now(request: Request) -> Response:
    """Seat the person at the public table of their reading that most needs a player, or
    open one (then they are its host too)."""
    body = await _opening(request)
    if isinstance(body, Response):
        return body
    if not _sits(request).ready(_client(request)):
        return refuse(429, "too many seats taken from your address: try again in a few minutes",
                      "too_many_seats", headers={"Retry-After": "120"})
    hub = _hub(request)
    try:
        table, seat, token, host = hub.play_now(body, _account(request))
    except LobbyError as e:
        return lobby_refusal(401 if e.code == "rated_login" else 400, e)
    _sits(request).take(_client(request))
    if host is not None:
        _opened(request)
    await table.until_saved()
    return JSONResponse(_seated_answer(str(request.base_url), table, seat, token, host), status_code=201)


async def api_sit(request: Request) -> Response:
    """Take an open seat of a public table: ``{"table": ID, "name": ...}``."""
    try:
        body = json.loads((await request.body()).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return refuse(400, "the body is not JSON")
    if not isinstance(body, dict) or set(body) - {"table", "name"} or "table" not in body:
        return refuse(400, "send {\"table\": ID} and, if you like, \"name\"")
    if not _sits(request).ready(_client(request)):
        return refuse(429, "too many seats taken from your address: try again in a few minutes",
                      "too_many_seats", headers={"Retry-After": "120"})
    hub = _hub(request)
    table = hub.table(body["table"])
    if table is None:
        return refuse(404, "there is no such table", "no_table")
    if not table.open:
        return refuse(409, "the table is closed", "table_closed")
    try:
        seat, token = hub.sit(table, body.get("name"), _account(request))
    except LobbyError as e:
        return lobby_refusal({"no_free_seat": 409, "rated_login": 401}.get(e.code or "", 400), e)
    _sits(request).take(_client(request))
    await table.until_saved()
    return JSONResponse(_seated_answer(str(request.base_url), table, seat, token, None), status_code=201)


async def lobby_socket(ws: WebSocket) -> None:
    """A lobby page's live list: the whole list first (``{"type": "lobby", "tables":
    [...]}``), then each change as it is committed (``{"type": "lobby_update", "put":
    [rows], "drop": [ids]}``). The page sends nothing but, if it likes, pings."""
    hub = _hub(ws)
    await ws.accept()
    sub = hub.lobby.channel.subscribe(TOPIC)
    rate, burst = LOBBY_RATE
    bucket = Bucket(rate, burst, time.monotonic())

    async def reader() -> None:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            if not bucket.take(time.monotonic()):
                return  # flooding: the socket is closed
            with contextlib.suppress(ValueError, TypeError):
                if json.loads(message.get("text") or "null") == {"type": "ping"}:
                    await ws.send_text('{"type": "pong"}')

    reading = asyncio.create_task(reader())
    try:
        await ws.send_text(json.dumps({"type": "lobby", "now": time.time(), "tables": hub.lobby.snapshot()},
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
                await ws.send_text(json.dumps({"type": "lobby", "now": time.time(),
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
    found = await _host_request(request, {"seat", "muted"})
    if isinstance(found, Response):
        return found
    table, body = found
    seat, muted = body["seat"], body["muted"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.seats):
        return refuse(400, f"there is no seat {_short(json.dumps(seat))}: "
                           f"seats are 0 to {len(table.seats) - 1}")
    if not isinstance(muted, bool):
        return refuse(400, "'muted' must be true or false")
    table.talk.mute(seat, muted)
    await table.until_saved()
    return JSONResponse(host_answer(str(request.base_url), table, body["token"]))


async def api_host_spectators(request: Request) -> Response:
    """The host opens or closes the spectators' chat: ``{"token", "chat"}``."""
    found = await _host_request(request, {"chat"})
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
    table = _hub(request).table(request.path_params["table"])
    if table is None:
        return refuse(404, "there is no such table", "no_table")
    lang = request.query_params.get("lang", "en")
    if lang not in LANGUAGES:
        return refuse(400, f"choose a language of {', '.join(LANGUAGES)}")
    text = request.path_params["deal"]
    deal = _deal_of(text)
    await table.until_saved()
    try:
        table.record(deal)
    except KeyError:
        return refuse(404, f"deal {_short(text)} is not over, or there is no such deal", "no_deal")
    return JSONResponse(deal_lines(table, deal, Catalog(lang)))


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
    """The routes of this module, for :func:`lald.web.app.create_app`."""
    return [
        Route("/api/play-now", api_play_now, methods=["POST"]),
        Route("/api/sit", api_sit, methods=["POST"]),
        Route("/api/host/mute", api_host_mute, methods=["POST"]),
        Route("/api/host/spectators", api_host_spectators, methods=["POST"]),
        Route("/api/tables/{table}/deals/{deal}/chat", api_chat),
        WebSocketRoute("/ws/lobby", lobby_socket),
    ]


__all__ = ["routes"]
