"""The ASGI application: the lobby's HTTP API, the play websocket, the static pages.

>>> app = create_app("sqlite://")
>>> sorted(r.path for r in app.routes if r.path.startswith("/api"))[:3]
['/api/i18n/{lang}', '/api/levels', '/api/replay']
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..i18n import LANGUAGES, messages
from ..record import Record, RecordError
from ..store import Store
from .hub import MAX_NAME, Hub, LobbyError, levels, seat_links
from .replay import replay_frames
from .tables import Conn, Settings

STATIC = Path(str(resources.files(__package__).joinpath("static")))
MAX_RECORD = 200_000
DOCS = Path(__file__).resolve().parents[3] / "docs"
DOCS_SERVED = frozenset({"rules.md", "record.md"})


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _page(name: str) -> Any:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
    return page


async def api_levels(request: Request) -> Response:
    """The bot levels a seat may be given."""
    return JSONResponse(levels())


async def api_tables(request: Request) -> Response:
    """GET: the open tables. POST: create a table; returns one secret link per seat."""
    hub = _hub(request)
    if request.method == "GET":
        return JSONResponse(await hub.open_tables())
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"error": "send a JSON object"}, status_code=400)
    try:
        table = hub.create(body)
    except LobbyError as e:
        return JSONResponse({"error": str(e)}, status_code=400)
    await table.until_saved()
    base = str(request.base_url)
    return JSONResponse({"table": table.summary(), "seats": seat_links(base, table),
                         "watch": f"{base}play#w={table.id}"}, status_code=201)


async def api_table(request: Request) -> Response:
    """One table's public summary."""
    table = _hub(request).table(request.path_params["table"])
    if table is None:
        return JSONResponse({"error": "there is no such table"}, status_code=404)
    await table.until_saved()
    return JSONResponse(table.summary())


async def api_record(request: Request) -> Response:
    """A finished deal's record (RECORD.md), as JSON or (``?format=text``) text notation."""
    table = _hub(request).table(request.path_params["table"])
    if table is None:
        return JSONResponse({"error": "there is no such table"}, status_code=404)
    deal = request.path_params["deal"]
    await table.until_saved()
    try:
        state = table.record(deal)
    except KeyError:
        return JSONResponse({"error": f"deal {deal} is not over, or there is no such deal"},
                            status_code=404)
    record = Record.from_state(state)
    name = f"lald-{table.id}-deal{deal + 1}"
    if request.query_params.get("format") == "text":
        return PlainTextResponse(record.to_text(), headers={
            "Content-Disposition": f'attachment; filename="{name}.txt"'})
    return Response(record.dumps(), media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="{name}.json"'})


async def api_replay(request: Request) -> Response:
    """Every step of a record, replayed by the engine, for the replay viewer."""
    body = await request.body()
    if len(body) > MAX_RECORD:
        return JSONResponse({"error": "the record is too long"}, status_code=413)
    lang = request.query_params.get("lang", "en")
    # The players' names, one ``name`` parameter per seat (the page knows them for a table's deal).
    names = [n.strip()[:MAX_NAME] or None for n in request.query_params.getlist("name")] or None
    try:
        text = body.decode("utf-8")
        return JSONResponse(replay_frames(Record.parse(text), lang, names))
    except UnicodeDecodeError:
        return JSONResponse({"error": "the record is not UTF-8 text"}, status_code=400)
    except RecordError as e:
        return JSONResponse({"error": str(e)}, status_code=400)


async def api_i18n(request: Request) -> Response:
    """A language's message catalog (English fills any key it lacks)."""
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return JSONResponse({"error": f"choose a language of {', '.join(LANGUAGES)}"}, status_code=404)
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


async def play_socket(ws: WebSocket) -> None:
    """One page's websocket: messages in, frames out through :meth:`Conn.pump`."""
    hub = _hub(ws)
    await ws.accept()
    conn = Conn(ws, hub.settings)
    pump = asyncio.create_task(conn.pump())
    try:
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            hub.handle(conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        hub.detach(conn)
        conn.closed = True
        conn.wake.set()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(pump, 1.0)


def create_app(db: str = "sqlite:///lald.db", settings: Settings | None = None) -> Starlette:
    """The whole service, storing into the SQLAlchemy URL ``db``."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db)
        hub = Hub(store, settings)
        app.state.hub = hub
        hub.restore()
        try:
            yield
        finally:
            await hub.close()
            store.close()

    routes = [
        Route("/", _page("index.html")),
        Route("/play", _page("play.html")),
        Route("/replay", _page("replay.html")),
        Route("/rules", _page("rules.html")),
        Route("/docs/{name}", doc),
        Route("/api/levels", api_levels),
        Route("/api/tables", api_tables, methods=["GET", "POST"]),
        Route("/api/tables/{table}", api_table),
        Route("/api/tables/{table}/deals/{deal:int}/record", api_record),
        Route("/api/replay", api_replay, methods=["POST"]),
        Route("/api/i18n/{lang}", api_i18n),
        WebSocketRoute("/ws", play_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
