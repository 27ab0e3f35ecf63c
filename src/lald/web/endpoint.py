"""What every HTTP endpoint of the web may share, whatever part of it serves the request:
a refusal in words, the request's body as JSON, the client's address, and a path's part
made fit for a one-line message.

Part of :mod:`lald.web`'s base: it imports nothing of the web but :mod:`.wire`, so the
people (:mod:`lald.web.people.accounts`) refuse a request as the server's endpoints do
without importing the server (:mod:`lald.web.server.http`).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from .wire import RequestError, parse_json


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


async def json_body(request: Request) -> Any:
    """The request's body as JSON; raise :class:`~lald.web.wire.RequestError` (with the
    sentence to refuse it with) if it is not UTF-8 text or not JSON within the wire's
    limits."""
    try:
        text = (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        raise RequestError("the body is not UTF-8 text") from None
    return parse_json(text)


def client_address(request: Request) -> str:
    """The address the request came from (``unknown`` when the server is not told)."""
    return request.client.host if request.client is not None else "unknown"


def short(text: str, limit: int = 12) -> str:
    """A path's part for a one-line message: as it is if printable, else as JSON (a
    newline in it would break the line), cut to ``limit`` characters."""
    shown = text if text.isprintable() else json.dumps(text)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


__all__ = ["client_address", "json_body", "refuse", "short"]
