"""The hidden-information audit: every message sent to every seat and spectator over
hundreds of deals holds no card that recipient may not know, and no secret at all.

What a recipient may know is computed from the engine, afterwards, by replaying each
deal's record: the cards in that seat's views up to that moment. Independently of the
views, no message may name a card that is then in another seat's hand, nor one of another
seat's face-down hand sets. Every byte of every message and API answer is also scanned for
the table's secret (in every usual encoding), the first words of every deal's keyed
stream, the seeds of a practice table's deals, the host's token and the other seats'
tokens: none may occur."""

from __future__ import annotations

import base64
import contextlib
import json
import re
import time
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from lald.core import (
    CARDS,
    Claimed,
    DealEnded,
    KeyedRandom,
    LaidDown,
    PlayerView,
    Session,
    State,
    cards_of,
)
from lald.record import load

from ..conftest import create, hub_of, poll_text, recv

RULESETS: list[dict[str, Any]] = [
    {"preset": "survivor"},
    {"preset": "last-capture"},
    {"preset": "survivor", "players": 4, "variants": ["modern-laugh"]},
    {"preset": "last-capture", "players": 3},
    {"preset": "survivor", "players": 3, "variants": ["low-stakes"]},
    {"preset": "last-capture", "players": 4, "variants": ["modern-laugh", "silent"]},
]
TABLES_PER_RULESET = 10
PRACTICE_EVERY = 6
"""Every sixth table is a practice table (dealt from a seed)."""
CANONICAL = re.compile(r"[A2-9TJQK][SHDC]")
GLYPH = re.compile(r"(10|[A2-9JQK])([♠♥♦♣])")
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_in(value: Any) -> set[str]:
    """Every card a JSON value names: canonical strings, and glyphs inside text."""
    out: set[str] = set()
    if isinstance(value, str):
        if CANONICAL.fullmatch(value):
            out.add(value)
        for rank, suit in GLYPH.findall(value):
            out.add(("T" if rank == "10" else rank) + SUITS[suit])
    elif isinstance(value, dict):
        for v in value.values():
            out |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= cards_in(v)
    return out


def view_cards(v: PlayerView) -> set[str]:
    """The cards a view shows."""
    shown = set(v.hand) | set(v.table) | {c for pile in v.won_seen for c in pile}
    for op in v.history:
        if isinstance(op, Claimed):
            shown |= set(op.cards or ())
        elif isinstance(op, DealEnded):
            shown |= set(op.hand) | set(op.table)
        elif isinstance(op, LaidDown):
            shown |= set(op.cards)
        else:
            shown |= {c for c in getattr(op, "play", ()) + getattr(op, "take", ()) + getattr(op, "cards", ())}
            if hasattr(op, "card"):
                shown.add(op.card)
    return {str(c) for c in shown}


class Truth:
    """Per deal and step, what each recipient may know and what it must never see."""

    def __init__(self, states: list[State], players: int) -> None:
        self.allowed: dict[tuple[int | None, int], list[set[str]]] = {}
        self.hidden: dict[tuple[int | None, int], list[set[str]]] = {}
        self.hands: dict[tuple[int, int], list[list[str]]] = {}
        self.base: list[int] = []
        version = 0
        for d, final in enumerate(states):
            version += 1
            self.base.append(version)
            version += len(final.actions)
            state = State.from_layout(final.rules, [cards_of(h) for h in final.dealt_hands],
                                      cards_of(final.dealt_table), final.dealer, final.pot_before,
                                      final.balances_before)
            steps = [state.clone()]
            for action in final.actions:
                state.apply(action)
                steps.append(state.clone())
            for r in [None, *range(players)]:
                allowed: set[str] = set()
                self.allowed[r, d], self.hidden[r, d] = [], []
                for st in steps:
                    allowed = allowed | view_cards(st.view(r))
                    self.allowed[r, d].append(allowed)
                    secret = 0
                    for o in range(players):
                        if o != r:
                            secret |= st.hands[o] | st.face_down[o]
                    self.hidden[r, d].append({str(c) for c in cards_of(secret)})
            for s in range(players):
                self.hands[s, d] = [[str(c) for c in st.hand(s)] for st in steps]

    def check(self, r: int | None, part: Any, d: int, k: int, what: str) -> None:
        named = cards_in(part)
        allowed, hidden = self.allowed[r, d][k], self.hidden[r, d][k]
        assert named <= allowed, f"{what}: recipient {r} was sent {named - allowed} (deal {d}, step {k})"
        assert not named & hidden, f"{what}: recipient {r} was sent hidden {named & hidden}"


def secrets_of(client: TestClient, table_id: str, data: dict[str, Any]) -> dict[str, str]:
    """Every secret of a table as text that must never be sent, by what it is; the
    seat tokens under ``seat N``."""
    table = hub_of(client).tables[table_id]
    out = {"host token": data["host"]["token"]}
    for s in data["seats"]:
        if "token" in s:
            out[f"seat {s['seat']}"] = s["token"]
    if table.secret is not None:
        key = table.secret
        out |= {"secret (hex)": key.hex(), "secret (HEX)": key.hex().upper(),
                "secret (base64)": base64.b64encode(key).decode().rstrip("="),
                "secret (base64url)": base64.urlsafe_b64encode(key).decode().rstrip("="),
                "secret (number)": str(int.from_bytes(key, "big"))}
        for d in range(len(table.session.schedule) + 2):
            word = KeyedRandom(key, "deal", d).next64()
            out |= {f"deal {d}'s first word": str(word), f"deal {d}'s first word (hex)": f"{word:x}"}
    else:
        out["the practice seed"] = str(table.seed)
        rng = Session(table.rules, table.seed)._rng  # the cut is drawn: next come the deals' seeds
        for d in range(len(table.session.schedule) + 2):
            out[f"deal {d}'s seed"] = str(rng.next64())
    return out


def scan(text: str, forbidden: dict[str, str], mine: str | None, where: str) -> None:
    """No forbidden secret occurs in ``text`` (``mine``, the recipient's own token, may)."""
    for what, needle in forbidden.items():
        if what != mine:
            assert needle not in text, f"{where}: {what} was sent"


def audit(client: TestClient, table_id: str, players: int,
          inbox: dict[int | None, list[str]], forbidden: dict[str, str]) -> int:
    """Check every message one table sent; return how many deals it played."""
    answer = client.get(f"/api/tables/{table_id}").text
    scan(answer, forbidden, None, "the table's summary")
    summary = json.loads(answer)
    assert summary["status"] == "over"
    states = []
    for d in range(summary["deal"]):
        for form in ("", "?format=text"):
            scan(client.get(f"/api/tables/{table_id}/deals/{d}/record{form}").text, forbidden, None,
                 f"the record of deal {d}")
        record, state = load(client.get(f"/api/tables/{table_id}/deals/{d}/record").text)
        assert state.over and record.seed is None and record.hands is not None
        states.append(state)
    truth = Truth(states, players)
    for r, texts in inbox.items():
        for text in texts:
            scan(text, forbidden, None if r is None else f"seat {r}", f"a message to {r}")
        messages = [json.loads(t) for t in texts]
        assert messages and messages[-1]["table"]["status"] == "over"
        for m in messages:
            if m["type"] == "error":
                assert m["code"] == "stale", m  # the person was a moment late: a bot claimed first
                continue
            if m["type"] != "state":
                assert m["type"] == "welcome" and not cards_in(m), m
                continue
            d = m["deal"]
            if d < 0:
                assert m["view"] is None and not cards_in(m)
                continue
            k = m["v"] - truth.base[d]
            assert 0 <= k < len(truth.allowed[r, d])
            truth.check(r, [m["view"], m["legal"]], d, k, "view")
            assert m["view"]["hand"] == ([] if r is None else truth.hands[r, d][k])
            for e in m["log"]:
                de = e["deal"]
                ke = k if de == d else len(truth.allowed[r, de]) - 1
                truth.check(r, e, de, ke, "log")
            assert not cards_in({key: m[key] for key in ("table", "session")})
    return len(states)


def person(ws: WebSocketTestSession, frame: dict[str, Any]) -> None:
    """Seat 0's person: plays the first turn action on its turn, deals on when asked."""
    if frame["can_next"]:
        ws.send_json({"type": "next_deal"})
        return
    view = frame["view"]
    if view is None or view["over"] or view["to_move"] != 0:
        return
    turn = [a for a in frame["legal"] if a["type"] != "claim"]
    if turn:
        ws.send_json({"type": "act", "v": frame["v"], "action": turn[0]})


def test_no_recipient_is_ever_sent_a_card_it_may_not_know(client: TestClient) -> None:
    deals = 0
    with contextlib.ExitStack() as stack:
        pending: dict[str, tuple[int, dict[int | None, WebSocketTestSession],
                                 dict[int | None, list[str]], dict[str, str]]] = {}
        for i, rules in enumerate(RULESETS * TABLES_PER_RULESET):
            players = rules.get("players", 5)
            # Every seat is opened by a page; all but seat 0 hand their seat to its bot at
            # once, and the test plays seat 0 as a person.
            practice = {"seed": (1 << 61) + 7919 * i} if i % PRACTICE_EVERY == 0 else {}
            data = create(client, players, **practice, **rules)
            forbidden = secrets_of(client, data["table"]["id"], data)
            assert len(forbidden) > 5
            socks: dict[int | None, WebSocketTestSession] = {}
            for r in [None, *range(1, players), 0]:
                ws = stack.enter_context(client.websocket_connect("/ws"))
                if r is None:
                    ws.send_json({"type": "watch", "table": data["table"]["id"]})
                else:
                    ws.send_json({"type": "join", "token": data["seats"][r]["token"]})
                assert recv(ws)["type"] == "welcome"
                if r:
                    ws.send_json({"type": "leave"})
                socks[r] = ws
            pending[data["table"]["id"]] = (players, socks, {r: [] for r in socks}, forbidden)
        deadline = time.monotonic() + 120
        while pending:
            assert time.monotonic() < deadline, "the tables did not finish in time"
            quiet = True
            for table_id in list(pending):
                players, socks, inbox, forbidden = pending[table_id]
                for r, ws in socks.items():
                    last = None
                    while (text := poll_text(ws)) is not None:
                        quiet = False
                        inbox[r].append(text)
                        last = json.loads(text)
                    if r == 0 and last is not None and last["type"] == "state":
                        person(ws, last)
                if all(box and _over(box[-1]) for box in inbox.values()):
                    deals += audit(client, table_id, players, inbox, forbidden)
                    for ws in socks.values():
                        ws.close()
                    del pending[table_id]
            if quiet:
                time.sleep(0.005)
    assert deals >= 200
    listing = client.get("/api/tables").text
    for text in (listing, client.get("/api/levels").text):
        assert "secret" not in text and "token" not in text
    # Sanity of the checker itself: a frame naming another seat's card is caught.
    assert cards_in({"x": ["QS"], "t": "Seat 1 plays 10♥ and takes 10♦."}) == {"QS", "TH", "TD"}
    assert CARDS[0] == 0


def _over(text: str) -> bool:
    m = json.loads(text)
    return bool(m["type"] == "state" and m["table"]["status"] == "over")
