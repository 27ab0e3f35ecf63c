"""The ASGI application: the lobby's HTTP API, the host's API, the play websocket, the
static pages, and the guard in front of them.

Every answer to a bad request is a 4xx with ``{"error": "<one line in words>"}``. The
guard in front of it (:class:`~lald.web.server.guard.Guard`) refuses a body too long, a
POST that is not JSON and a request from another site's page before the application sees
them, and gives every response the security headers. Opening tables is limited per client
address by a token bucket (429). The API is described by ``/api/openapi.json``
(:mod:`.openapi`).

>>> app = create_app("sqlite://")
>>> sorted(r.path for r in app.routes if r.path.startswith("/api/host"))[:3]
['/api/host', '/api/host/close', '/api/host/mute']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...clock import SYSTEM, Clock
from ...i18n import LANGUAGES, Catalog, messages
from ...record import Record, RecordError
from ...store import Store
from .. import ops
from ..endpoint import refuse, short
from ..people.hub import Elsewhere, Hub, host_answer, seat_links, seated_answer
from ..settings import Buckets, Settings
from ..site.cluster import Cluster, ClusterConfig
from ..table.conn import Conn
from ..table.create import MAX_NAME, LobbyError
from ..table.replay import replay_frames
from ..table.reviews import Reviews
from ..table.tables import Table
from ..wire import depth
from . import protocol
from .guard import Guard
from .http import (
    STATIC,
    deal_of,
    host_request,
    hub_of,
    lobby_refusal,
    opened,
    opening,
    page,
)
from .openapi import spec

log = logging.getLogger("lald.web")
DOCS = Path(__file__).resolve().parents[4] / "docs"
DOCS_SERVED = frozenset({"rules.md", "record.md"})
# -- the API --------------------------------------------------------------------------------


async def api_levels(request: Request) -> Response:
    """The bot levels a seat may be given."""
    from ..table.create import levels

    return JSONResponse(levels())


async def api_tables(request: Request) -> Response:
    """GET: the open tables. POST: create a table; returns the host's link and one secret
    link per seat a person plays."""
    hub = hub_of(request)
    if request.method == "GET":
        return JSONResponse(await hub.open_tables())
    body = await opening(request)
    if isinstance(body, Response):
        return body
    stopping = _stopping(request)
    if stopping is not None:
        return stopping
    account = getattr(request.state, "account", None)  # (checked with its CSRF token: .accounts)
    try:
        table, host = hub.create(body, None if account is None else (account.id, account.name))
    except LobbyError as e:
        return lobby_refusal(401 if e.code == "rated_login" else 400, e)
    opened(request)
    await table.until_saved()
    return JSONResponse(host_answer(str(request.base_url), table, host), status_code=201)


async def api_lessons(request: Request) -> Response:
    """POST: open a lesson (the teaching deal, for one person); returns the learner's
    link. Lessons count against the same limit per address as tables."""
    body = await opening(request)
    if isinstance(body, Response):
        return body
    stopping = _stopping(request)
    if stopping is not None:
        return stopping
    try:
        table, token = hub_of(request).create_lesson(body)
    except LobbyError as e:
        return lobby_refusal(400, e)
    opened(request)
    await table.until_saved()
    return JSONResponse(seated_answer(str(request.base_url), table, 0, token), status_code=201)


async def route(request: Request) -> Response:
    """``/_lald/route``: which server holds the table named by the path in the header
    ``X-Lald-Path`` (the proxy's request), in the header ``X-Lald-Route``: a server's name,
    or ``any`` (:meth:`lald.web.site.cluster.Cluster.route`); 503 while the proxy should ask
    another, 404 from a server alone."""
    cluster: Cluster | None = getattr(request.app.state, "cluster", None)
    if cluster is None:
        return Response(status_code=404)
    where = await cluster.route(request.headers.get("x-lald-path", ""))
    if where is None:
        return Response(status_code=503)
    return Response(headers={"X-Lald-Route": where})


def _stopping(request: Request) -> Response | None:
    """503 while this server stops (one of several: the proxy asks another), else None."""
    cluster: Cluster | None = request.app.state.cluster
    if cluster is not None and cluster.draining:
        return refuse(503, "this server is stopping: try again", headers={"Retry-After": "1"})
    return None


def _table_of(request: Request) -> Any:
    return hub_of(request).table(request.path_params["table"])


async def api_table(request: Request) -> Response:
    """One table's public summary."""
    table = _table_of(request)
    if table is None:
        return refuse(404, "there is no such table", "no_table")
    await table.until_saved()
    return JSONResponse(table.summary())


async def api_record(request: Request) -> Response:
    """A finished deal's record (docs/record.md), as JSON or (``?format=text``) text notation.

    The record gives the deal's layout (``hands`` and ``table``), never a seed.
    """
    table = _table_of(request)
    if table is None:
        return refuse(404, "there is no such table", "no_table")
    text = request.path_params["deal"]
    deal = deal_of(text)
    await table.until_saved()
    try:
        state = table.record(deal)
    except KeyError:
        return refuse(404, f"deal {short(text)} is not over, or there is no such deal", "no_deal")
    record = Record.from_state(state, layout=True)
    name = f"lald-{table.id}-deal{deal + 1}"
    if request.query_params.get("format") == "text":
        return PlainTextResponse(record.to_text(), headers={
            "Content-Disposition": f'attachment; filename="{name}.txt"'})
    return Response(record.dumps(), media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="{name}.json"'})


async def api_review(request: Request) -> Response:
    """The expert's review of one seat's play in a finished deal (docs/review.md): 200
    with the review once made; 202 with where it stands while it waits or is made (ask
    again); 503 when the expert is busy or the review failed."""
    table = _table_of(request)
    if table is None:
        return refuse(404, "there is no such table", "no_table")
    text = request.path_params["deal"]
    deal = deal_of(text)
    lang = request.query_params.get("lang", "en")
    if lang not in LANGUAGES:
        return refuse(400, f"choose a language of {', '.join(LANGUAGES)}")
    seats = len(table.seats)
    raw = request.query_params.get("seat", "")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 2 and int(raw) < seats):
        return refuse(400, f"give seat=N, a seat from 0 to {seats - 1}")
    seat = int(raw)
    await table.until_saved()
    try:
        state = table.record(deal)
    except KeyError:
        return refuse(404, f"deal {short(text)} is not over, or there is no such deal", "no_deal")
    reviews: Reviews = request.app.state.reviews
    key = (table.id, deal, seat)
    progress = reviews.ask(key, state)
    if progress.status == "busy":
        return JSONResponse({"error": "the expert is busy with other reviews: try again in a minute",
                             "busy": True}, status_code=503, headers={"Retry-After": "60"})
    if progress.status == "failed":
        return refuse(503, f"the review could not be made: {progress.reason}",
                      headers={"Retry-After": "5"})
    if progress.review is None:
        return JSONResponse({"status": progress.status, "ahead": progress.ahead, "done": progress.done,
                             "total": progress.total}, status_code=202, headers={"Retry-After": "1"})
    catalog = Catalog(lang)
    text = reviews.text(key, progress.review, lang, names=table.frames.names(catalog))
    if table.lesson is not None:  # its moves were the lesson's: the learner is told why the expert differs
        text = text | {"text": text["text"] | {"note": catalog.t("web_review_lesson")}}
    return JSONResponse({"status": "done"} | text)


async def api_replay(request: Request) -> Response:
    """Every step of a record, replayed by the engine, for the replay viewer."""
    lang = request.query_params.get("lang", "en")
    # The players' names, one ``name`` parameter per seat (the page knows them for a table's deal).
    names = [n.strip()[:MAX_NAME] or None for n in request.query_params.getlist("name")] or None
    # (codes for the page: ``record``, or ``record_move`` with the move's number; the
    # reason itself stays English, for programs)
    try:
        text = (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        return refuse(400, "the record is not UTF-8 text", "record")
    if text.lstrip().startswith(("{", "[")) and depth(text) > 16:
        return refuse(400, "the record is nested too deeply", "record")
    try:
        record = Record.parse(text)
        return JSONResponse(replay_frames(record, lang, names))
    except RecordError as e:
        if e.index is not None:
            return refuse(400, short(str(e), 200), "record_move", {"move": e.index + 1})
        return refuse(400, short(str(e), 200), "record")
    except Exception:  # the record reader failed on input it should refuse: say so plainly
        log.warning("the record reader failed on a record", exc_info=True)
        return refuse(400, "the record cannot be read", "record")


async def api_i18n(request: Request) -> Response:
    """A language's message catalog (English fills any key it lacks)."""
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return refuse(404, f"choose a language of {', '.join(LANGUAGES)}")
    return JSONResponse(messages("en") | messages(lang))


async def doc(request: Request) -> Response:
    """The project's own rules and record documents (docs/), as plain text, where the
    service runs from a checkout that has them."""
    name = request.path_params["name"]
    path = DOCS / name
    if name not in DOCS_SERVED or not path.is_file():
        return PlainTextResponse(f"{name} is not with this installation of lald: see docs/ in its source",
                                 status_code=404)
    return PlainTextResponse(path.read_text(encoding="utf-8"), headers={"Cache-Control": "no-cache"})


async def api_host(request: Request) -> Response:
    """The host's view: every seat with its link, who has joined and who is connected."""
    found = await host_request(request, set(), view=True)
    if isinstance(found, Response):
        return found
    table, body = found
    if isinstance(table, Table):
        await table.until_saved()
    return JSONResponse(host_answer(str(request.base_url), table, body["token"]))


async def api_host_reissue(request: Request) -> Response:
    """A new link for a seat; the old one stops working at once."""
    found = await host_request(request, {"seat"})
    if isinstance(found, Response):
        return found
    table, body = found
    try:
        hub_of(request).reissue(table, body["token"], body["seat"])
    except LobbyError as e:
        return lobby_refusal(409 if not table.open else 400, e)
    await table.until_saved()
    return JSONResponse(host_answer(str(request.base_url), table, body["token"]))


async def api_host_close(request: Request) -> Response:
    """Close the table: no deal is played on; the finished deals' records stay."""
    found = await host_request(request, set())
    if isinstance(found, Response):
        return found
    table, body = found
    table.close()
    await table.until_saved()
    return JSONResponse(host_answer(str(request.base_url), table, body["token"]))


async def api_openapi(request: Request) -> Response:
    """This API, described in OpenAPI 3.1."""
    return JSONResponse(spec())


async def play_socket(ws: WebSocket) -> None:
    """One page's websocket: messages in, frames out through :meth:`Conn.pump`."""
    hub = hub_of(ws)
    await ws.accept()
    conn: Conn[Table] = Conn(ws, hub.settings, hub.clock)
    pump = asyncio.create_task(conn.pump())
    try:
        while not conn.closed and conn.ending is None:
            try:
                # A page pings every ``ping_seconds``: one silent for longer than
                # ``silent_seconds`` has lost its network (or hangs) and is gone.
                # (A timeout on this task, not wait_for's task per message: no delay added.)
                async with hub.clock.timeout(hub.settings.silent_seconds):
                    message = await ws.receive()
            except TimeoutError:
                log.info("a page silent for %g s was dropped", hub.settings.silent_seconds)
                conn.end(protocol.SILENT)
                break
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            protocol.handle(hub, conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        hub.detach(conn)
        if conn.ending is None:
            conn.closed = True
        conn.wake.set()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(pump, 1.0)


async def _ready() -> str | None:
    return None


# -- errors the router raises ---------------------------------------------------------------

Handler = Callable[[Request, Exception], Awaitable[Response]]


async def _not_found(request: Request, exc: Exception) -> Response:
    return refuse(404, "there is nothing at this address")


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    headers = dict(exc.headers or {})  # a 405 keeps its Allow header
    if exc.status_code == 405:
        return refuse(405, f"{request.method[:10]} is not allowed here", headers=headers)
    return refuse(exc.status_code, "the request was refused", headers=headers)


async def _elsewhere(request: Request, exc: Exception) -> Response:
    # A request naming a table that another server holds reached this one (while the table
    # moves): the proxy takes it to the right one when asked again.
    return refuse(503, "the table is moving to another server: try again in a moment", "elsewhere",
                  headers={"Retry-After": "1"})


async def _server_error(request: Request, exc: Exception) -> Response:
    return refuse(500, "something went wrong on the server; the table is unharmed", "server_error")


def create_app(db: str = "sqlite:///lald.db", settings: Settings | None = None,
               cluster: ClusterConfig | None = None, clock: Clock = SYSTEM) -> Starlette:
    """The whole service, storing into the SQLAlchemy URL ``db``; one of several servers
    over one PostgreSQL database if ``cluster`` says which (:mod:`lald.web.site.cluster`).
    Its tables, their timers, the lobby's waits and the pages' rate limits and silences are
    timed on ``clock`` (a test gives a :class:`~lald.clock.ManualClock` and moves it)."""
    from ..readings.jobs import Laboratory
    from . import community, readings

    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db)
        site = Cluster(store, settings, cluster, clock) if cluster is not None else None
        hub = site.hub if site is not None else Hub(store, settings, clock=clock)
        app.state.hub, app.state.cluster = hub, site
        metrics = app.state.metrics = ops.Metrics(hub)
        hub.journal.observe = metrics.observe
        app.state.buckets = Buckets(settings.create_rate, settings.create_burst, clock=clock)
        reviews = app.state.reviews = Reviews(settings.review_worlds, settings.review_queue)
        community.start(app, hub)
        if site is not None:
            site.metrics = metrics
            await site.start()
            app.state.ready = site.ready
        else:
            hub.restore()
            app.state.ready = _ready
        reviews.start()
        laboratory = app.state.laboratory = Laboratory(
            clock, queue=settings.lab_queue, per_hour=settings.lab_per_hour, time_limit=settings.lab_seconds)
        laboratory.start()
        try:
            yield
        finally:
            await reviews.close()
            await laboratory.close()
            if site is not None:
                await site.drain()
            await hub.close()
            if site is not None:
                await site.close()
            store.close()

    routes = [
        Route("/", page("index.html")),
        Route("/play", page("play.html")),
        Route("/learn", page("play.html")),
        Route("/replay", page("replay.html")),
        Route("/rules", page("rules.html")),
        Route("/docs/{name}", doc),
        Route("/api/levels", api_levels),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/lessons", api_lessons, methods=["POST"]),
        Route("/api/tables/{table}", api_table),
        Route("/api/tables/{table}/deals/{deal}/record", api_record),
        Route("/api/tables/{table}/deals/{deal}/review", api_review),
        Route("/api/replay", api_replay, methods=["POST"]),
        Route("/api/i18n/{lang}", api_i18n),
        Route("/api/host", api_host, methods=["POST"]),
        Route("/api/host/reissue", api_host_reissue, methods=["POST"]),
        Route("/api/host/close", api_host_close, methods=["POST"]),
        Route("/api/openapi.json", api_openapi),
        Route("/api/tables/{table}/host", api_host, methods=["POST"]),
        Route("/api/tables/{table}/host/reissue", api_host_reissue, methods=["POST"]),
        Route("/api/tables/{table}/host/close", api_host_close, methods=["POST"]),
        WebSocketRoute("/ws", play_socket),
        *community.routes(),  # before /ws/{table}, which would take /ws/lobby for a table
        WebSocketRoute("/ws/{table}", play_socket),
        Route("/_lald/route", route),
        *ops.routes(),
        *readings.routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers: dict[Any, Handler] = {404: _not_found, HTTPException: _http_error, Elsewhere: _elsewhere,
                                    Exception: _server_error}
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)
    app.add_middleware(community.SessionGuard)
    app.add_middleware(Guard, allow_origins=settings.allow_origins)
    return app


__all__ = ["create_app", "seat_links"]
