"""Helpers for the web tests: an app with instant bots, sockets that never hang, a
real ``lald serve`` process on 127.0.0.1, and for the browser tests one such server for
the whole run and one Chromium per module (helpers in ``browser/pages.py``)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import httpx
import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from lald.clock import ManualClock
from lald.web.people.hub import Hub
from lald.web.server.app import create_app
from lald.web.settings import Settings

from ..conftest import free_port

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, WebSocketRoute

# The tests' sockets do not ping as a page does: a silent one is kept for an hour, not
# dropped after 30 s (table/test_heartbeat.py sets its own short timeouts).
FAST = Settings(bot_delay=0.0, claim_window=0.0, deal_pause=0.0, threaded_bots=False, create_burst=10_000,
                silent_seconds=3600.0)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app on a fresh SQLite file, bots acting at once."""
    app = create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)
    with TestClient(app) as c:
        yield c


@pytest.fixture
def clock() -> ManualClock:
    """A clock that moves only when the test moves it (:mod:`lald.clock`)."""
    return ManualClock()


@pytest.fixture
def clocked(tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """The app of :func:`client` on :func:`clock`: its timers (a turn's, a public table's
    wait for players, a stand-in's grace) run when the test moves the clock past them."""
    app = create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST, clock=clock)
    with TestClient(app) as c:
        yield c


def timer_set(clock: ManualClock, seconds: float, timeout: float = 10.0) -> None:
    """Wait until a timer of the app is due in ``seconds`` on ``clock`` (the table sets it
    a moment after the change its page was told of)."""
    deadline = time.monotonic() + timeout
    while not any(abs(due - seconds) < 1e-9 for due in clock.pending()):
        assert time.monotonic() < deadline, f"no timer due in {seconds} s: {clock.pending()}"
        time.sleep(0.001)


def recv(ws: WebSocketTestSession, timeout: float = 10.0) -> dict[str, Any]:
    """The next message, or a test failure after ``timeout`` seconds (never a hang)."""
    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    result: dict[str, Any] = json.loads(message["text"])
    return result


def poll_text(ws: WebSocketTestSession) -> str | None:
    """The next message as sent (its text) if one is waiting, else None."""
    async def get() -> Any:
        try:
            return ws._send_rx.receive_nowait()
        except anyio.WouldBlock:
            return None

    message = ws.portal.call(get)
    if message is None:
        return None
    ws._raise_on_close(message)
    text: str = message["text"]
    return text


def poll(ws: WebSocketTestSession) -> dict[str, Any] | None:
    """The next message if one is waiting, else None."""
    text = poll_text(ws)
    if text is None:
        return None
    result: dict[str, Any] = json.loads(text)
    return result


def hub_of(client: TestClient) -> Hub:
    """The running app's hub (to look behind the API in a test)."""
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def until(ws: WebSocketTestSession, pred: Any, timeout: float = 10.0) -> dict[str, Any]:
    """Read messages until one satisfies ``pred``; fail on an error message."""
    deadline = time.monotonic() + timeout
    while True:
        msg = recv(ws, max(0.01, deadline - time.monotonic()))
        if msg["type"] == "error":
            raise AssertionError(f"unexpected error message: {msg}")
        if pred(msg):
            return msg


def state_at(ws: WebSocketTestSession, v: int, timeout: float = 10.0) -> dict[str, Any]:
    """The first state frame at version ``v`` or later."""
    return until(ws, lambda m: m["type"] == "state" and m["v"] >= v, timeout)


def create(client: TestClient | httpx.Client, humans: list[bool] | int, levels: str = "random",
           **rules: Any) -> dict[str, Any]:
    """Create a table; ``humans`` says which seats people play (an int: the first N)."""
    players = rules.get("players", 5)
    if isinstance(humans, int):
        humans = [s < humans for s in range(players)]
    body = {"seats": [{"human": h, "level": levels} for h in humans]} | rules
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


class Server:
    """``lald serve`` in a subprocess on 127.0.0.1."""

    def __init__(self, db: str, *extra: str, log: Path | None = None) -> None:
        self.db = db
        self.log = log or Path(os.devnull)
        self.extra = extra
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start and wait until it answers."""
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "lald", "serve", "--port", str(self.port), "--db", self.db,
                 "--log-level", "warning", *self.extra],
                stdout=subprocess.DEVNULL, stderr=err, env=os.environ | {"PYTHONWARNINGS": ""})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"lald serve exited with status {self.proc.returncode}")
            try:
                if httpx.get(self.base + "/api/levels", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("lald serve did not start in 30 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """Stop gracefully if still running."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


# -- the browser tests: one server and one browser for the whole run ------------------------


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``lald serve`` with fast bots and a quick review, for every browser test."""
    from .browser.pages import FAST

    tmp = tmp_path_factory.mktemp("browser")
    s = Server(f"sqlite:///{tmp / 'browser.db'}", *FAST, log=tmp / "server.log")
    s.start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, for one test module (Playwright's synchronous API runs an
    event loop while it is open, which tests after it must not find running)."""
    from playwright.sync_api import sync_playwright

    from .browser.pages import ARGS, ARTIFACTS

    chromium = shutil.which("chromium")
    assert chromium, "the browser test needs Debian's chromium: apt-get install chromium"
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Open a URL in a fresh context; at the end, no page may have logged an error."""
    from .browser.pages import DESKTOP

    contexts = []
    errors: list[str] = []

    def make(url: str, viewport: dict[str, int] = DESKTOP, locale: str = "en-GB",
             init: str | None = None, route: Callable[[WebSocketRoute], Any] | None = None,
             clock: bool = False) -> Page:
        """``clock``: the page's timers on Playwright's clock (``page.clock``), which runs
        as the machine's until the test moves it on, ``page.clock.run_for(ms)`` running
        every timer due meanwhile (to show that a page does nothing in a while)."""
        context = browser.new_context(viewport=viewport, locale=locale)
        contexts.append(context)
        if clock:
            context.clock.install()
        if init:
            context.add_init_script(init)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        if route is not None:
            # the table's socket: /ws, then the table's own address /ws/{id}
            page.route_web_socket(lambda url: re.search(r"/ws(/[A-Za-z0-9_-]+)?$", url) is not None, route)
        page.goto(url)
        return page

    yield make
    for context in contexts:
        context.close()
    # Reconnection attempts to a server that is down are refused, as they should be, and a
    # refused request (a bad record, a busy expert) is the page's to explain, which the
    # tests check; so are requests a browser set offline cannot make.
    expected = ("ERR_CONNECTION_REFUSED", "ERR_INTERNET_DISCONNECTED", "WebSocket",
                "the server responded with a status of 4",
                "the server responded with a status of 503")
    assert not [e for e in errors if not any(x in e for x in expected)], errors
