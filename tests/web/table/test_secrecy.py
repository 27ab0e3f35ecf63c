"""Deal secrecy: the published data of deals 1..k (every record and every frame) does not
determine deal k+1.

The attack seen on a live table: a finished deal's record carried its seed; a session's
deal seeds were consecutive SplitMix64 outputs, and SplitMix64's output step inverts, so
deal k's seed gave deal k+1's. :func:`predict` is that attack, grown into an attacker who
computes: every whole number anywhere in the published data is tried as a deal's seed and
as the seed of the deal before. Against a seeded session (what was published before) it
finds the next deal; against a table on the server it finds nothing.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import re
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from lald.core import KeyedRandom, PortableRandom, Rules, Session, State
from lald.record import load

from ..conftest import create, hub_of, poll_text, recv

MASK = (1 << 64) - 1


def unmix(z: int) -> int:
    """The SplitMix64 state whose output is ``z`` (the output step inverted)."""
    z ^= (z >> 31) ^ (z >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z ^= (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    z ^= (z >> 30) ^ (z >> 60)
    return z


def layout(state: State) -> tuple[tuple[int, ...], int]:
    return state.dealt_hands, state.dealt_table


def numbers(published: list[str]) -> set[int]:
    """Every whole number that occurs in the published texts."""
    out: set[int] = set()
    for text in published:
        out |= {int(n) for n in re.findall(r"\d{1,20}", text) if int(n) <= MASK}
    return out


def predict(published: list[str], rules: Rules, dealer: int) -> set[tuple[tuple[int, ...], int]]:
    """Every layout of the next deal the published data lets an attacker compute: each
    number tried as that deal's seed, and as the seed of a deal before it."""
    guesses = set()
    for n in numbers(published):
        for seed in (n, PortableRandom(unmix(n)).next64()):
            guesses.add(layout(State.deal(rules, seed, dealer)))
    return guesses


def test_keyed_random_is_hmac_sha256_as_documented() -> None:
    secret = bytes(range(32))
    block = hmac.digest(secret, b"lald/deal/3/" + (0).to_bytes(8, "big"), "sha256")
    words = [int.from_bytes(block[i:i + 8], "big") for i in (0, 8, 16, 24)]
    rng = KeyedRandom(secret, "deal", 3)
    assert [rng.next64() for _ in range(4)] == words
    nxt = hmac.digest(secret, b"lald/deal/3/" + (1).to_bytes(8, "big"), "sha256")
    assert rng.next64() == int.from_bytes(nxt[:8], "big")
    a, b = Session(Rules.make(), secret=secret), Session(Rules.make(), secret=secret)
    assert layout(a.start_deal()) == layout(b.start_deal())
    other = Session(Rules.make(), secret=bytes(range(1, 33))).start_deal()
    assert layout(other) != layout(Session(Rules.make(), secret=secret).start_deal())


def test_the_attack_computes_the_next_deal_from_a_seeded_record() -> None:
    """The control: with the records as they were published (a seed in each), the attack
    finds deal k+1 from deal k's record alone."""
    rules = Rules.make()
    session = Session(rules, seed=20240611)
    deals = []
    for _ in range(3):
        state = session.start_deal()
        while not state.over:
            state.apply(state.turn_actions()[0])
        session.end_deal(state)
        deals.append(state)
    record = json.dumps({"format": "lald-record/1", "seed": deals[1].seed})
    assert layout(deals[2]) in predict([record], rules, deals[2].dealer)


def _play_out(client: TestClient, data: dict[str, Any]) -> tuple[list[str], list[str]]:
    """A table of one person (played by the test) and four bots, to the session's end:
    every text the person's page and a spectator were sent, and every finished record."""
    frames: list[str] = []
    with contextlib.ExitStack() as stack:
        socks: list[WebSocketTestSession] = []
        for hello in ({"type": "join", "token": data["seats"][0]["token"]},
                      {"type": "watch", "table": data["table"]["id"]}):
            ws = stack.enter_context(client.websocket_connect("/ws"))
            ws.send_json(hello)
            frames.append(json.dumps(recv(ws)))
            socks.append(ws)
        over = False
        while not over:
            text = json.dumps(recv(socks[0]))
            frames.append(text)
            m = json.loads(text)
            if m["type"] != "state":
                continue
            over = m["table"]["status"] == "over"
            if m["can_next"]:
                socks[0].send_json({"type": "next_deal"})
            elif m["view"] and not m["view"]["over"] and m["view"]["to_move"] == 0:
                turn = [a for a in m["legal"] if a["type"] != "claim"]
                socks[0].send_json({"type": "act", "v": m["v"], "action": turn[0]})
        while (text := poll_text(socks[1])) is not None:
            frames.append(text)
    table = data["table"]["id"]
    deals = client.get(f"/api/tables/{table}").json()["deal"]
    records = [client.get(f"/api/tables/{table}/deals/{d}/record").text for d in range(deals)]
    return frames, records


def test_published_deals_do_not_determine_the_next_one(client: TestClient) -> None:
    data = create(client, 1)
    table = hub_of(client).tables[data["table"]["id"]]
    assert table.secret is not None and len(table.secret) * 8 >= 128 and not table.practice
    frames, records = _play_out(client, data)
    assert len(records) >= 5
    published = [*frames, *records, client.get("/api/tables").text,
                 client.get(f"/api/tables/{table.id}").text]
    states = []
    for text in records:
        record, state = load(text)
        assert record.seed is None and record.hands is not None and '"seed"' not in text
        states.append(state)
    for k in range(1, len(states)):
        # Everything published until deal k+1 was dealt, and more: all of it.
        assert layout(states[k]) not in predict(published, table.rules, states[k].dealer)
    assert table.secret.hex() not in "".join(published)


def test_a_practice_table_is_marked_in_every_frame_and_in_the_lobby(client: TestClient) -> None:
    practice = create(client, 2, seed=99)
    dealt = create(client, 2)
    listing = {t["id"]: t["practice"] for t in client.get("/api/tables").json()}
    assert listing == {practice["table"]["id"]: True, dealt["table"]["id"]: False}
    for data, marked in ((practice, True), (dealt, False)):
        for s in (0, 1):
            with client.websocket_connect("/ws") as ws:
                ws.send_json({"type": "join", "token": data["seats"][s]["token"]})
                assert recv(ws)["practice"] is marked
                assert recv(ws)["table"]["practice"] is marked
    # Even a practice table's record gives the layout, not the seed.
    frames, records = _play_out(client, create(client, 1, seed=5))
    assert all('"seed"' not in r and '"hands"' in r for r in records)
