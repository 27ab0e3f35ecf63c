"""The hidden-information audit: every message sent to every seat and spectator over
hundreds of bot-played deals holds no card that recipient may not know.

What a recipient may know is computed from the engine, afterwards, by replaying each
deal's record: the cards in that seat's views up to that moment. Independently of the
views, no message may name a card that is then in another seat's hand, nor one of another
seat's face-down hand sets."""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from lald.core import CARDS, Claimed, DealEnded, LaidDown, PlayerView, State, cards_of
from lald.record import load

from .conftest import create, poll, recv

RULESETS: list[dict[str, Any]] = [
    {"preset": "survivor"},
    {"preset": "last-capture"},
    {"preset": "survivor", "players": 4, "variants": ["modern-laugh"]},
    {"preset": "last-capture", "players": 3},
    {"preset": "survivor", "players": 3, "variants": ["low-stakes"]},
    {"preset": "last-capture", "players": 4, "variants": ["modern-laugh", "silent"]},
]
TABLES_PER_RULESET = 10
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
            state = State.deal(final.rules, final.seed or 0, final.dealer, final.pot_before,
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


def audit(client: TestClient, table_id: str, players: int,
          inbox: dict[int | None, list[dict[str, Any]]]) -> int:
    """Check every message one table sent; return how many deals it played."""
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["status"] == "over"
    states = []
    for d in range(summary["deal"]):
        _, state = load(client.get(f"/api/tables/{table_id}/deals/{d}/record").text)
        assert state.over
        states.append(state)
    truth = Truth(states, players)
    for r, messages in inbox.items():
        assert messages and messages[-1]["table"]["status"] == "over"
        for m in messages:
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


def test_no_recipient_is_ever_sent_a_card_it_may_not_know(client: TestClient) -> None:
    deals = 0
    with contextlib.ExitStack() as stack:
        pending: dict[str, tuple[int, dict[int | None, WebSocketTestSession],
                                 dict[int | None, list[dict[str, Any]]]]] = {}
        for i, rules in enumerate(RULESETS * TABLES_PER_RULESET):
            players = rules.get("players", 5)
            # Seat 0 is a person who never acts: a timer of 1 ms lets its bot play for it.
            data = create(client, 1, seed=1000 + i, turn_seconds=0.001, **rules)
            socks: dict[int | None, WebSocketTestSession] = {}
            for r in [None, *range(1, players), 0]:
                ws = stack.enter_context(client.websocket_connect("/ws"))
                if r is None:
                    ws.send_json({"type": "watch", "table": data["table"]["id"]})
                else:
                    ws.send_json({"type": "join", "token": data["seats"][r]["token"]})
                assert recv(ws)["type"] == "welcome"
                socks[r] = ws
            pending[data["table"]["id"]] = (players, socks, {r: [] for r in socks})
        deadline = time.monotonic() + 120
        while pending:
            assert time.monotonic() < deadline, "the bot tables did not finish in time"
            quiet = True
            for table_id in list(pending):
                players, socks, inbox = pending[table_id]
                for r, ws in socks.items():
                    while (m := poll(ws)) is not None:
                        quiet = False
                        inbox[r].append(m)
                if all(box and box[-1]["type"] == "state" and box[-1]["table"]["status"] == "over"
                       for box in inbox.values()):
                    deals += audit(client, table_id, players, inbox)
                    for ws in socks.values():
                        ws.close()
                    del pending[table_id]
            if quiet:
                time.sleep(0.005)
    assert deals >= 200
    # Sanity of the checker itself: a frame naming another seat's card is caught.
    assert cards_in({"x": ["QS"], "t": "Seat 1 plays 10♥ and takes 10♦."}) == {"QS", "TH", "TD"}
    assert CARDS[0] == 0
