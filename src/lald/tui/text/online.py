"""``lald play --online URL``: a seat of a web table (or a table to watch) from the
terminal, as lines of text, like ``--plain``.

The URL is a link the site gave: a seat's (``…/play#t=TOKEN``) or a table's to watch
(``…/play#w=ID``). The terminal speaks the page's websocket protocol
(:mod:`lald.web.server.protocol`, over the network: nothing of the server is imported) and prints
what a page shows: the log in the chosen language (moves, the laugh, the settlement), the
chat (a spectator's line marked), and, when this seat has a decision, the table, its hand
and its moves numbered, in words: one number a move, captures that differ only in suits
being one move (the others named beside it).
Answers, one a line: a number plays that move; ``say TEXT`` says a line in the chat;
``laugh`` laughs at the one who just lay down; ``next`` deals the next deal; ``q`` leaves,
saying so (the seat stays yours: its bot stands in while you are away, as at the web
table). A spectator is told only what a spectator may type.

What it sends is typed by the definitions the server checks them against
(:mod:`lald.messages`); its run's bound and its pings are timed on a clock it is given
(:mod:`lald.clock`), so a test moves time rather than waiting for it.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable
from typing import Any, TextIO
from urllib.parse import parse_qs, urlsplit

from ...clock import SYSTEM, Clock
from ...core import action_from_json, mask_of, parse_cards
from ...core.codes import code_of
from ...i18n import Catalog
from ...messages import ActionJson, Join, ToServer, Watch
from ..words import groups_text, move_words

PING_SECONDS = 10.0


class OnlineError(ValueError):
    """A link the terminal cannot join, or a server it cannot reach: the words say which."""


def endpoint(url: str) -> tuple[str, str, Join | Watch]:
    """The websocket address, the site's origin and the join message of a seat's or a
    table's link."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise OnlineError(f"{url!r} is not a table's link: give the link the site gave, "
                          "like http://cards.example.org/play#t=…")
    fragment = {k: v[0] for k, v in parse_qs(parts.fragment).items()}
    ws = f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}/ws"
    origin = f"{parts.scheme}://{parts.netloc}"
    if "t" in fragment:
        return ws, origin, {"type": "join", "token": fragment["t"]}
    if "w" in fragment:
        return ws, origin, {"type": "watch", "table": fragment["w"]}
    raise OnlineError(f"{url!r} names no seat (#t=…) and no table (#w=…)")


def _lines(inp: TextIO, into: queue.Queue[str | None]) -> None:
    for line in inp:
        into.put(line.rstrip("\n"))
    into.put(None)


class OnlineTable:
    """One seat (or a spectator) of a web table, in lines of text."""

    def __init__(self, catalog: Catalog, out: TextIO, send: Callable[[ToServer], None],
                 watching: bool = False) -> None:
        """``watching``: a spectator's table (no moves to number, nothing to play)."""
        self.catalog, self.out, self.send, self.watching = catalog, out, send, watching
        self.t = catalog.t
        self.frame: dict[str, Any] | None = None
        self.menu: list[ActionJson] = []
        self.shown_menu = -1

    @property
    def help(self) -> str:
        """What may be typed: a seat's answers, or a spectator's."""
        return self.t("online_help_watch" if self.watching else "online_help")

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def entry(self, e: dict[str, Any]) -> None:
        """One line of the table's log as a page shows it."""
        kind = e.get("kind")
        if kind == "chat":
            mark = f" ({self.t('web_spectator_mark')})" if e.get("spectator") else ""
            self.say(f"> {e.get('name')}{mark}: {e.get('text')}")
        elif kind == "settle":
            self.say("\n".join(e.get("lines") or [e.get("text", "")]))
        else:
            self.say(str(e.get("text", "")))

    def handle(self, m: dict[str, Any]) -> bool:
        """One message from the server; False when the table has sent this seat away."""
        kind = m.get("type")
        if kind == "state":
            for e in m.get("log", []):
                self.entry(e)
            self.frame = m
            self.show_menu()
        elif kind == "error":
            self.say(f"! {m.get('message')}")
            if m.get("code") in ("bad_token", "no_table", "taken_over", "reissued", "flooding"):
                return False
        return True

    def show_menu(self) -> None:
        """This seat's moves, numbered, once per version of the table."""
        f = self.frame
        if f is None or f.get("you") is None or self.shown_menu == f.get("v"):
            return
        legal = list(f.get("legal", []))
        if not legal and not f.get("can_next"):
            return
        self.shown_menu = f["v"]
        view = f.get("view") or {}
        hand = parse_cards(view.get("hand", []))
        table = parse_cards(view.get("table", []))
        if legal:
            self.say(self.t("plain_table", cards=groups_text(table) or self.t("empty")))
            self.say(self.t("plain_hand", cards=groups_text(hand) or self.t("empty")))
        kinds = f.get("kinds") or [None] * len(legal)
        # one entry a move: captures that differ only in suits are one move in play (as at the
        # terminal's own table); the others are named beside it, so no two lines look alike
        moves: dict[int, list[tuple[ActionJson, str]]] = {}
        for action, kind in zip(legal, kinds, strict=True):
            parsed = action_from_json(action)
            words = move_words(parsed, kind, hand, self.catalog)
            moves.setdefault(code_of(parsed, mask_of(table)), []).append((action, words))
        self.menu = [same[0][0] for same in moves.values()]
        for i, same in enumerate(moves.values(), 1):
            line = f"  {i}) {same[0][1]}"
            if len(same) > 1:
                line += " " + self.t("same_move_as", moves=" / ".join(words for _, words in same[1:]))
            self.say(line)
        if f.get("can_next"):
            self.say(f"  next) {self.t('web_next_deal')}")

    def answer(self, line: str) -> bool:
        """One line typed; False to leave."""
        words = line.strip()
        if words in ("q", "quit"):
            self.say(self.t("online_left_watch" if self.watching else "online_left"))
            return False
        if words.startswith("say "):
            self.send({"type": "chat", "text": words[4:]})
        elif words == "laugh":
            self.send({"type": "laugh"})
        elif words == "next":
            self.send({"type": "next_deal"})
        elif words.isdigit() and self.frame is not None and 1 <= int(words) <= len(self.menu):
            self.send({"type": "act", "v": self.frame["v"], "action": self.menu[int(words) - 1]})
        elif words:
            self.say(self.help)
        return True


def run_online(url: str, catalog: Catalog, inp: TextIO, out: TextIO,
               seconds: float | None = None, clock: Clock = SYSTEM) -> int:
    """Play (or watch) the table of ``url`` until ``q``, the end of the input, or the server
    sends this seat away; ``seconds`` bounds the whole (for tests), on ``clock``, which
    also times the pings. Returns an exit status."""
    try:
        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect
        from websockets.typing import Origin
    except ImportError:
        raise OnlineError("playing online needs the websockets package: pip install 'lald[web]'") from None
    address, origin, hello = endpoint(url)
    try:
        with connect(address, origin=Origin(origin), open_timeout=10) as ws:
            return _play(ws, hello, catalog, inp, out, seconds, ConnectionClosed, clock)
    except (OSError, TimeoutError) as e:
        raise OnlineError(f"cannot reach {origin}: {e}") from None


def _play(ws: Any, hello: Join | Watch, catalog: Catalog, inp: TextIO, out: TextIO,
          seconds: float | None, closed: type[Exception], clock: Clock = SYSTEM) -> int:
    answers: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_lines, args=(inp, answers), daemon=True).start()

    def send(message: ToServer) -> None:
        ws.send(json.dumps(message))

    table = OnlineTable(catalog, out, send, watching=hello["type"] == "watch")
    table.say(table.help)
    first = hello.copy()
    first["lang"] = catalog.lang
    send(first)
    stop = None if seconds is None else clock.monotonic() + seconds
    pinged = clock.monotonic()
    try:
        while stop is None or clock.monotonic() < stop:
            try:
                raw = ws.recv(timeout=0.1)
                if not table.handle(json.loads(raw)):
                    return 1
            except TimeoutError:
                pass
            while not answers.empty():
                line = answers.get()
                if line is None or not table.answer(line):
                    return 0
            if clock.monotonic() - pinged > PING_SECONDS:
                send({"type": "ping"})
                pinged = clock.monotonic()
    except closed:
        table.say(catalog.t("online_closed"))
        return 1
    return 0
