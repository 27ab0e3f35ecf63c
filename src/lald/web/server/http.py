"""What this server's HTTP endpoints share: the request's hub, the pages, a request that
opens a table (and the limit on them), a deal's number in a path, and the host's requests
(which another server may answer); used by :mod:`.app` and :mod:`.community`. What any
endpoint of the web shares (a refusal in words, the JSON body, the client's address) is
:mod:`lald.web.endpoint`."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.websockets import WebSocket

from ...store import token_hash
from ..endpoint import client_address, json_body, refuse
from ..people.hub import Elsewhere, Hub
from ..table.create import LobbyError
from ..wire import RequestError

STATIC = Path(str(resources.files("lald.web").joinpath("static")))
"""The pages, scripts and styles."""
MAX_DEAL = 10_000
"""A deal number no table has (a path's number that cannot be read is taken for it)."""


class Site(Protocol):
    """What :func:`host_request` asks of the site when another server holds a host's table
    (:class:`lald.web.site.cluster.Cluster`; ``app.state.cluster``, None for one server alone)."""

    def hosted(self, digest: str) -> object | None:
        """The table whose host token hashes to ``digest``, as the other servers' events
        told of it; None if none told."""


def hub_of(request: Request | WebSocket) -> Hub:
    """The server's registry of live tables."""
    hub: Hub = request.app.state.hub
    return hub


def lobby_refusal(status: int, error: LobbyError) -> JSONResponse:
    """A refusal for a :class:`~lald.web.table.create.LobbyError`."""
    return refuse(status, str(error), error.code, error.values)


def page(name: str) -> Any:
    """The endpoint that sends the page ``name`` of :data:`STATIC` (never cached stale)."""
    async def send(request: Request) -> Response:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
    return send


async def opening(request: Request) -> Any:
    """The body of a request that opens a table or a lesson, or the refusal: a body that
    is not JSON (400), or too many tables opened from this address lately (429). Nothing
    is counted yet: only a table opened is (:func:`opened`)."""
    try:
        body = await json_body(request)
    except RequestError as e:
        return refuse(400, str(e))
    if not request.app.state.buckets.ready(client_address(request)):
        return refuse(429, "too many tables opened from your address: try again in a few minutes",
                      "too_many_tables", headers={"Retry-After": "120"})
    return body


def opened(request: Request) -> None:
    """Count a table just opened against its address's limit (with no ``await`` since
    :func:`opening` found room, so there still is)."""
    request.app.state.buckets.take(client_address(request))


def deal_of(text: str) -> int:
    """A deal's number in a path (0-based), or one no table has."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 5 else MAX_DEAL


#: The requests at a table's own address (where a server that does not hold the table
#: sends them: :mod:`lald.web.site.cluster`) take what ``/api/host...``, ``/api/sit`` and
#: ``/api/play-now`` take.
HOST_AT_TABLE = re.compile(
    r"^/api/tables/[A-Za-z0-9_-]{1,32}(/host(?:/reissue|/close|/mute|/spectators)?|/sit|/play-now)$")


async def host_request(request: Request, fields: set[str],
                        view: bool = False) -> tuple[Any, dict[str, Any]] | Response:
    """The host's table and the request's fields, or a refusal. When another server holds
    the table, the host's ``view`` is that server's table as its events told it, and any
    other request is sent to the table's own address (307: the proxy takes it there)."""
    try:
        body = await json_body(request)
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
        table = hub_of(request).hosted(body.get("token"))
    except Elsewhere as e:
        site: Site | None = request.app.state.cluster
        remote = site.hosted(token_hash(body["token"])) if site is not None and view else None
        if remote is not None:
            return remote, body
        at_table = HOST_AT_TABLE.match(request.url.path)
        suffix = at_table.group(1) if at_table else request.url.path.removeprefix("/api")
        return RedirectResponse(f"/api/tables/{e.table_id}{suffix}", status_code=307)
    at = request.path_params.get("table")
    if table is None or (at is not None and at != table.id):  # at another table's address: not valid
        return refuse(403, "this host link is not valid", "host_link")
    return table, body


__all__ = ["HOST_AT_TABLE", "MAX_DEAL", "STATIC", "Site", "deal_of", "host_request", "hub_of",
           "lobby_refusal", "opened", "opening", "page"]
