"""The laboratory's endpoints (:mod:`lald.web.readings`): the ``/readings`` page, a
comparison asked for (``POST /api/readings``) and where one stands, with its figures and,
once done, its report (``GET /api/readings/{id}``).

A comparison is named by its request, so its link (``/readings#r=ID``) shows it to anyone,
at no cost, for as long as the server keeps it. Every refusal is one line with a 4xx status
(a request that is not a comparison: 400; an address over its hourly deals: 429; the queue
full: 503), and the page words each in its own language by its code.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..endpoint import client_address, json_body, refuse
from ..readings.jobs import Laboratory, Refused
from ..readings.work import parse_request
from ..wire import RequestError
from .http import page

__all__ = ["routes"]


def _lab(request: Request) -> Laboratory:
    lab: Laboratory = request.app.state.laboratory
    return lab


async def api_readings(request: Request) -> Response:
    """POST: a comparison of two readings; answered at once with where it stands (202 while
    it waits or plays, 200 once done: ask ``GET /api/readings/{id}`` again)."""
    try:
        body = await json_body(request)
        asked = parse_request(body)
    except (RequestError, ValueError) as e:
        return refuse(400, str(e), "lab_request", {"detail": str(e)})
    try:
        job, ahead = _lab(request).submit(asked, client_address(request))
    except Refused as e:
        headers = {"Retry-After": "60"} if e.status in (429, 503) else None
        return refuse(e.status, str(e), e.code, e.values, headers=headers)
    return JSONResponse(job.to_json(ahead), status_code=200 if job.status == "done" else 202)


async def api_reading(request: Request) -> Response:
    """GET: where the comparison ``id`` stands, its figures so far, and its report once done."""
    ident = request.path_params["id"]
    found = _lab(request).find(ident) if len(ident) <= 32 else None
    if found is None:
        return refuse(404, "there is no such comparison: the server keeps only the last ones made; "
                           "ask for it again", "no_comparison")
    job, ahead = found
    body: dict[str, Any] = job.to_json(ahead)
    return JSONResponse(body)


def routes() -> list[Route]:
    """The laboratory's routes."""
    return [
        Route("/readings", page("readings.html")),
        Route("/api/readings", api_readings, methods=["POST"]),
        Route("/api/readings/{id}", api_reading),
    ]
