"""The guard in front of the server's application: before the application sees them, it
refuses a body over :data:`MAX_BODY` bytes (413, without reading it whole), a POST that is
not JSON (415; ``/api/replay`` also takes the record's text notation as ``text/plain``), a
POST or a websocket from a page of another origin unless ``allow_origins`` names it (403,
a websocket's at its handshake); and it gives every response a Content-Security-Policy,
``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``
(:data:`SECURITY_HEADERS`). :func:`lald.web.server.app.create_app` puts it in front.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..endpoint import refuse
from .http import HOST_AT_TABLE

MAX_BODY = 64 * 1024
"""The largest request body read (bytes)."""
SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
     b"form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
JSON_ONLY = ("application/json",)
#: The media types each POST takes (any other: 415); a POST elsewhere is a 405.
MEDIA_TYPES = {"/api/replay": ("application/json", "text/plain"), "/api/tables": JSON_ONLY,
               "/api/lessons": JSON_ONLY, "/api/readings": JSON_ONLY,
               "/api/host": JSON_ONLY, "/api/host/reissue": JSON_ONLY, "/api/host/close": JSON_ONLY,
               # where strangers meet (.community)
               "/api/play-now": JSON_ONLY, "/api/sit": JSON_ONLY, "/api/host/mute": JSON_ONLY,
               "/api/host/spectators": JSON_ONLY, "/api/account/register": JSON_ONLY,
               "/api/account/login": JSON_ONLY, "/api/account/logout": JSON_ONLY,
               "/api/account/password": JSON_ONLY, "/api/account/delete": JSON_ONLY,
               "/api/account/share-name": JSON_ONLY}


def _media_types(path: str) -> tuple[str, ...] | None:
    at_table = HOST_AT_TABLE.match(path)
    return MEDIA_TYPES.get(f"/api{at_table.group(1)}" if at_table else path)



def _netloc(url: str) -> str:
    """``host:port`` of a URL or Host header, lower case, without the scheme's default port."""
    parts = urlsplit(url if "//" in url else f"//{url}")
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        return ""
    if port is None or (parts.scheme, port) in (("http", 80), ("https", 443), ("ws", 80), ("wss", 443)):
        return host
    return f"{host}:{port}"


class Guard:
    """Pure ASGI middleware: origin, media type and body size checks, security headers."""

    def __init__(self, app: ASGIApp, allow_origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allow_origins = {o.rstrip("/").lower() for o in allow_origins}

    def _foreign(self, headers: Headers) -> bool:
        """Whether the request comes from a page of another origin (not allowed)."""
        origin = headers.get("origin")
        if origin is None:  # not sent by a browser page: no one's cookies or links at stake
            return False
        if origin.rstrip("/").lower() in self.allow_origins:
            return False
        own = _netloc(headers.get("host", ""))
        return origin == "null" or not own or _netloc(origin) != own

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if self._foreign(Headers(scope=scope)):
                await self._deny(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        headers = Headers(scope=scope)
        if scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            error = self._check(scope, headers)
            if error is None:
                body, error = await self._read(receive, headers)
            if error is not None:
                await error(scope, receive, secured)
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, secured)

    @staticmethod
    async def _deny(scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a websocket from another site's page at the handshake: 403 with the
        refusal in words, as a POST gets (the socket is never opened, so nothing of a
        table reaches that page). A server without ASGI's denial responses answers 403
        without the words."""
        await receive()  # websocket.connect
        if "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1008})
            return

        async def secured(message: Message) -> None:
            if message["type"] == "websocket.http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await refuse(403, "requests from other sites are refused", "other_site")(scope, receive, secured)

    def _check(self, scope: Scope, headers: Headers) -> Response | None:
        if self._foreign(headers):
            return refuse(403, "requests from other sites are refused", "other_site")
        allowed = _media_types(scope["path"])
        if scope["method"] == "POST" and allowed is not None:
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media not in allowed:
                return refuse(415, f"send {' or '.join(allowed)}")
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or len(length) > 12 or int(length) > MAX_BODY):
            return refuse(413, f"the body is longer than {MAX_BODY // 1024} KiB")
        return None

    @staticmethod
    async def _read(receive: Receive, headers: Headers) -> tuple[bytes, Response | None]:
        """The body, read up to :data:`MAX_BODY` bytes and no further."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                return b"", refuse(413, f"the body is longer than {MAX_BODY // 1024} KiB")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks), None


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the application the body already read, then the
    connection's own messages (its disconnection)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


__all__ = ["MAX_BODY", "MEDIA_TYPES", "SECURITY_HEADERS", "Guard"]
