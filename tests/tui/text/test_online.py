"""``lald play --online URL``: a web table's seat from the terminal, as text, against a
real ``lald serve``: the log and the seat's moves, a move played by its number, a chat line
the web page's seats see (and one of theirs shown), the laugh, and links it cannot join."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from lald.clock import ManualClock
from lald.i18n import Catalog
from lald.tui.text.online import OnlineError, OnlineTable, endpoint, run_online

from ...conftest import free_port

SRC = Path(__file__).resolve().parents[3] / "src"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    db = tmp_path_factory.mktemp("online") / "online.db"
    proc = subprocess.Popen([sys.executable, "-m", "lald", "serve", "--port", str(port), "--db", f"sqlite:///{db}",
                             "--bot-delay", "0.05", "--claim-window", "0", "--log-level", "warning"],
                            stdout=subprocess.DEVNULL, env=os.environ | {"PYTHONPATH": str(SRC)})
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/api/levels", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


class Lines(io.StringIO):
    """Standard input typed as a person would: each line once the output shows what it
    answers (a text, or a pattern), and then it ends."""

    def __init__(self, out: io.StringIO, lines: list[tuple[str, str]]) -> None:
        super().__init__()
        self.out, self.lines = out, lines

    def __iter__(self) -> Iterator[str]:
        for awaited, line in self.lines:
            deadline = time.monotonic() + 20
            while not re.search(awaited, self.out.getvalue(), re.MULTILINE):
                assert time.monotonic() < deadline, f"never shown: {awaited!r}"
                time.sleep(0.01)
            yield line + "\n"


def test_a_seat_from_the_terminal_plays_chats_and_reads_the_others(site: str) -> None:
    r = httpx.post(site + "/api/tables", json={"players": 3, "seed": 4, "seats": [
        {"human": True, "name": "Tom"}, {"human": True, "name": "Pia"}, {"human": False, "level": "random"}]})
    made = r.json()
    with connect(site.replace("http", "ws") + "/ws", origin=site) as pia:  # type: ignore[arg-type]
        pia.send(json.dumps({"type": "join", "token": made["seats"][1]["token"]}))
        pia.send(json.dumps({"type": "chat", "text": "hello from the web"}))
        out = io.StringIO()
        answers = Lines(out, [("^> Pia: hello from the web$", "say hello from the terminal"),
                              (r"^  1\) ", "1"), ("^Tom", "1"), ("", "laugh"), ("", "q")])
        status = run_online(made["seats"][0]["url"], Catalog("en"), answers, out, seconds=30)
        seen = ""
        deadline = time.monotonic() + 5
        while "hello from the terminal" not in seen and time.monotonic() < deadline:
            try:
                seen += pia.recv(timeout=1)
            except TimeoutError:
                pass
    text = out.getvalue()
    assert status == 0
    assert "Deal 1" in text and "> Pia: hello from the web" in text  # the log and the others' chat
    # This seat's table, hand and moves, numbered, in words (not the record's notation).
    menu = [line for line in text.splitlines() if re.match(r"  \d+\) ", line)]
    assert menu and not [line for line in menu if re.match(r"  \d+\) \d: ", line)], menu
    assert any(" takes " in line or line.endswith(" on the table") for line in menu), menu
    assert "\nTable: " in text and "\nYour hand: " in text
    assert any(line.startswith("Tom") for line in text.splitlines())  # its move played, in the log
    assert "Tom" in seen and "hello from the terminal" in seen  # the web seat heard it


def test_links_it_cannot_join_are_refused_in_one_line() -> None:
    for url in ("not a link", "ftp://x/play#t=abc", "http://x.example/play"):
        with pytest.raises(OnlineError) as refused:
            endpoint(url)
        assert "\n" not in str(refused.value)
    assert endpoint("https://cards.example.org/play#w=abc123") == (
        "wss://cards.example.org/ws", "https://cards.example.org", {"type": "watch", "table": "abc123"})
    done = subprocess.run([sys.executable, "-m", "lald", "play", "--online", "http://127.0.0.1:1/play#t=x"],
                          capture_output=True, text=True, env=os.environ | {"PYTHONPATH": str(SRC)},
                          timeout=60)
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "cannot reach" in done.stderr


def test_a_spectators_line_is_marked_and_the_laugh_is_said() -> None:
    out = io.StringIO()
    table = OnlineTable(Catalog("de"), out, lambda m: None)
    table.entry({"kind": "chat", "name": "Zuschauer·in 2", "spectator": True, "text": "hi"})
    table.entry({"kind": "laughs", "text": "Ann lacht!"})
    assert out.getvalue().splitlines() == ["> Zuschauer·in 2 (schaut zu): hi", "Ann lacht!"]


# -- issue 30, item 16 ----------------------------------------------------------------------------


def _capture(play: str, take: str) -> dict[str, object]:
    return {"seat": 0, "type": "capture", "play": [play], "take": [take]}


def test_captures_that_differ_only_in_suit_are_one_entry_that_names_the_other() -> None:
    """Seen before: "1) 3♣ takes 3♠" and "2) 3♣ takes 3♥", the same capture offered twice."""
    out, sent = io.StringIO(), []
    table = OnlineTable(Catalog("en"), out, sent.append)
    legal = [_capture("3C", "3S"), _capture("3C", "3H"), _capture("9S", "9D")]
    table.handle({"type": "state", "v": 4, "you": 0, "log": [], "can_next": False,
                  "view": {"hand": ["3C", "9S"], "table": ["3S", "3H", "9D"]},
                  "legal": legal, "kinds": ["single"] * 3})
    moves = [line for line in out.getvalue().splitlines() if line.startswith("  ")]
    assert moves == ["  1) 3♣ takes 3♠ (the same move as 3♣ takes 3♥: suits never matter)",
                     "  2) 9♠ takes 9♦"]
    table.answer("2")
    assert sent == [{"type": "act", "v": 4, "action": legal[2]}]


class _Quiet:
    """A websocket on which nothing comes: each wait for a message ends at once."""

    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []

    def recv(self, timeout: float) -> str:
        raise TimeoutError

    def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


@pytest.mark.parametrize("hello", [{"type": "watch", "table": "abc"}, {"type": "join", "token": "t"}])
def test_a_spectator_is_greeted_as_one_and_q_says_goodbye(hello: dict[str, str]) -> None:
    """Seen before: a spectator was told to "type a move's number", and q printed nothing."""
    from lald.tui.text.online import _play

    en, out, ws = Catalog("en"), io.StringIO(), _Quiet()
    status = _play(ws, hello, en, io.StringIO("hello\nq\n"), out, 60, ConnectionError)
    lines = out.getvalue().splitlines()
    watching = hello["type"] == "watch"
    assert status == 0 and ws.sent[0] == hello | {"lang": "en"}
    help_ = en.t("online_help_watch" if watching else "online_help")
    assert lines == [help_, help_, en.t("online_left_watch" if watching else "online_left")]
    assert ("number" in help_) is not watching


class _Slow(_Quiet):
    """A websocket on which nothing comes, each wait for a message taking 4 s of ``clock``."""

    def __init__(self, clock: ManualClock) -> None:
        super().__init__()
        self.clock = clock

    def recv(self, timeout: float) -> str:
        self.clock.advance(4)
        raise TimeoutError


class _Open(io.StringIO):
    """Standard input on which nothing is typed, and that stays open until :attr:`done`."""

    def __init__(self) -> None:
        super().__init__()
        self.done = threading.Event()

    def __iter__(self) -> Iterator[str]:
        self.done.wait(60)
        return iter(())


def test_it_pings_every_ten_seconds_and_stops_when_its_time_is_up() -> None:
    from lald.tui.text.online import PING_SECONDS, _play

    clock, quiet = ManualClock(), _Open()
    ws, hello = _Slow(clock), {"type": "join", "token": "t"}
    try:
        status = _play(ws, hello, Catalog("en"), quiet, io.StringIO(), 30, ConnectionError, clock)
    finally:
        quiet.done.set()
    # waits end at 4, 8, 12 (a ping: over 10 s since the last), 16, 20, 24 (a ping), 28, 32: done
    assert PING_SECONDS == 10 and status == 0 and clock.monotonic() == 32
    assert ws.sent == [hello | {"lang": "en"}, {"type": "ping"}, {"type": "ping"}]
