"""What the HTTP endpoints share: refusals in words, the request's hub, client address,
JSON body and host, the pages; used by :mod:`.app` and :mod:`.community`."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.websockets import WebSocket

from ...store import token_hash
from ..people.hub import Elsewhere, Hub
from ..table.create import LobbyError
from ..wire import RequestError, parse_json

if TYPE_CHECKING:
    from ..site.cluster import Cluster

STATIC = Path(str(resources.files("lald.web").joinpath("static")))
"""The pages, scripts and styles."""
MAX_DEAL = 10_000
"""A deal number no table has (a path's number that cannot be read is taken for it)."""


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def refuse(status: int, message: str, code: str | None = None, values: dict[str, Any] | None = None,
           headers: dict[str, str] | None = None) -> JSONResponse:
    """A refusal: ``{"error": message}`` with ``status``. The refusals a person can meet
    through the pages add a ``code`` (and the numbers its sentence names), which the pages
    word in their own language (``REFUSALS`` in ``static/js/i18n.js``); ``error`` stays
    English, for programs."""
    body: dict[str, Any] = {"error": message}
    if code is not None:
        body |= {"code": code} | (values or {})
    return JSONResponse(body, status_code=status, headers=headers)


def lobby_refusal(status: int, error: LobbyError) -> JSONResponse:
    """A refusal for a :class:`~lald.web.table.create.LobbyError`."""
    return refuse(status, str(error), error.code, error.values)


def _page(name: str) -> Any:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
    return page


async def _json_body(request: Request) -> Any:
    """The request's body as JSON; raise :class:`RequestError`."""
    try:
        text = (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        raise RequestError("the body is not UTF-8 text") from None
    return parse_json(text)


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


async def _opening(request: Request) -> Any:
    """The body of a request that opens a table or a lesson, or the refusal: a body that
    is not JSON (400), or too many tables opened from this address lately (429). Nothing
    is counted yet: only a table opened is (:func:`_opened`)."""
    try:
        body = await _json_body(request)
    except RequestError as e:
        return refuse(400, str(e))
    if not request.app.state.buckets.ready(_client(request)):
        return refuse(429, "too many tables opened from your address: try again in a few minutes",
                      "too_many_tables", headers={"Retry-After": "120"})
    return body


def _opened(request: Request) -> None:
    """Count a table just opened against its address's limit (with no ``await`` since
    :func:`_opening` found room, so there still is)."""
    request.app.state.buckets.take(_client(request))


def _deal_of(text: str) -> int:
    """A deal's number in a path (0-based), or one no table has."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 5 else MAX_DEAL


def _short(text: str, limit: int = 12) -> str:
    """A path's part for a one-line message: as it is if printable, else as JSON (a
    newline in it would break the line), cut to ``limit`` characters."""
    shown = text if text.isprintable() else json.dumps(text)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


#: The requests at a table's own address (where a server that does not hold the table
#: sends them: :mod:`lald.web.site.cluster`) take what ``/api/host...``, ``/api/sit`` and
#: ``/api/play-now`` take.
HOST_AT_TABLE = re.compile(
    r"^/api/tables/[A-Za-z0-9_-]{1,32}(/host(?:/reissue|/close|/mute|/spectators)?|/sit|/play-now)$")


async def _host_request(request: Request, fields: set[str],
                        view: bool = False) -> tuple[Any, dict[str, Any]] | Response:
    """The host's table and the request's fields, or a refusal. When another server holds
    the table, the host's ``view`` is that server's table as its events told it, and any
    other request is sent to the table's own address (307: the proxy takes it there)."""
    try:
        body = await _json_body(request)
    except RequestError as e:
        return refuse(400, str(e))
    if not isinstance(body, dict):
        return refuse(400, "send a JSON object")
    unknown = set(body) - fields - {"token"}
    if unknown:
        return refuse(400, f"unknown field {json.dumps(sorted(unknown)[0])[:40]}")
    missing = fields - set(body)
    if missing:
        return refuse(400, f"give {sorted(missing)[0]!r}")
    try:
        table = _hub(request).hosted(body.get("token"))
    except Elsewhere as e:
        cluster: Cluster | None = request.app.state.cluster
        remote = cluster.hosted(token_hash(body["token"])) if cluster is not None and view else None
        if remote is not None:
            return remote, body
        at_table = HOST_AT_TABLE.match(request.url.path)
        suffix = at_table.group(1) if at_table else request.url.path.removeprefix("/api")
        return RedirectResponse(f"/api/tables/{e.table_id}{suffix}", status_code=307)
    at = request.path_params.get("table")
    if table is None or (at is not None and at != table.id):  # at another table's address: not valid
        return refuse(403, "this host link is not valid", "host_link")
    return table, body


__all__ = ["HOST_AT_TABLE", "MAX_DEAL", "STATIC", "lobby_refusal", "refuse"]
