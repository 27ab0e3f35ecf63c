"""The laboratory in the browser, its server side (lald.web.readings): a request checked in
one line, the same request the same comparison, a comparison played in a worker process
with its figures filling in, the queue, the hourly deals of an address and the time limit
bounded (the clock advanced, never slept), and the endpoints' answers to absurd requests."""

from __future__ import annotations

import asyncio
import collections
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from lald.clock import ManualClock
from lald.web.readings.jobs import ADDRESSES, Laboratory, Refused
from lald.web.readings.work import MAX_DEALS, Request, compute, parse_request


@pytest.mark.parametrize(("body", "words"), [
    ([], "send a JSON object"),
    ({"a": "survivor", "b": "last-capture", "deals": 10, "colour": "red"}, 'unknown field "colour"'),
    ({"a": "survivor", "deals": 10}, "give two readings"),
    ({"a": "survivor", "b": "survivor:prize=700", "deals": 10}, "prize"),
    ({"a": "survivor", "b": "survivor/5", "deals": 10}, "named twice"),
    ({"a": "survivor", "b": "last-capture", "deals": 10, "players": "oracle"}, "players: choose random"),
    ({"a": "survivor", "b": "last-capture", "deals": 0}, "deals: give a whole number from 1 to 2,000"),
    ({"a": "survivor", "b": "last-capture", "deals": 10**12, "players": "expert"}, "from 1 to 200"),
    ({"a": "survivor", "b": "last-capture", "deals": True}, "deals: give a whole number"),
    ({"a": "survivor", "b": "last-capture", "deals": 10, "seed": -1}, "seed: give a whole number"),
    ({"a": "survivor,last-capture", "b": "survivor/4", "deals": 10}, "one reading in a"),
    ({"a": "x" * 400, "b": "survivor", "deals": 10}, "at most 300 characters"),
])
def test_an_absurd_request_is_refused_in_one_line(body: Any, words: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_request(body)
    message = str(refused.value)
    assert words in message and "\n" not in message and len(message) < 300


def test_a_request_names_its_comparison() -> None:
    asked = {"a": "survivor", "b": "last-capture/4", "players": "random", "deals": 8}
    one = parse_request(asked)
    same = parse_request(asked | {"a": " survivor/5 ", "seed": 1})
    other = parse_request(asked | {"seed": 2})
    assert one == same and one.id == same.id and one.id != other.id
    rules = {"preset": "last-capture", "players": 4, "variants": [], "options": {}}
    assert one.to_json()["rules"][1] == rules


def test_the_same_request_plays_the_same_deals_and_fills_in() -> None:
    request = Request("survivor/3", "last-capture/3", "random", 12)
    said: list[Any] = []
    first = compute(request, said.append)
    second = compute(request, lambda _message: None)
    assert first["brief"] == second["brief"] and first["report"] == second["report"]
    partial = [m[1] for m in said if m[0] == "partial"]
    assert [r["deals"] for r in partial[0]["readings"]] == [3, 3]  # a quarter, then half, then all
    assert [r["deals"] for r in partial[-1]["readings"]] == [12, 12] and partial[-1] == first["brief"]
    assert [m[1:] for m in said if m[0] == "progress"][-1] == (24, 24)
    kinds = {b["kind"] for b in first["report"]}
    assert {"h", "p", "table", "img"} <= kinds
    plot = next(b for b in first["report"] if b["kind"] == "img")
    assert plot["src"].startswith("data:image/png;base64,") and plot["caption"]
    turns = first["brief"]["readings"][0]["figures"]["turns"]
    assert turns["low"] <= turns["mean"] <= turns["high"] and turns["n"] == 12


def test_the_queue_and_an_addresss_hourly_deals_are_bounded() -> None:
    clock = ManualClock()
    lab = Laboratory(clock, queue=2, per_hour=100)  # not started: nothing runs, everything waits

    def ask(deals: int, seed: int = 1, address: str = "1.2.3.4") -> tuple[Any, int]:
        return lab.submit(Request("survivor", "last-capture", "random", deals, seed), address)

    job, ahead = ask(60)
    assert job.status == "queued" and ahead == 0
    assert ask(60) == (job, 0)  # the same comparison: asked again, at no cost
    with pytest.raises(Refused) as refused:
        ask(50, seed=2)
    assert refused.value.status == 429 and refused.value.code == "lab_hourly"
    assert "asked for 60 deals in the last hour, and may ask for 100" in str(refused.value)
    _job, ahead = ask(40, seed=3)
    assert ahead == 1
    with pytest.raises(Refused) as refused:
        ask(10, seed=4, address="5.6.7.8")
    assert refused.value.status == 503 and refused.value.code == "lab_busy"
    assert str(refused.value).startswith("the laboratory is busy: 2 comparisons are waiting")
    assert len(lab.waiting) == 2
    clock.advance(3600)  # an hour on, the address may ask again (once there is room)
    lab.waiting.clear()
    job, _ahead = ask(100, seed=5)
    assert job.status == "queued"
    # What the addresses asked is kept for an hour, and no longer once many have asked.
    lab.waiting.clear()
    for i in range(ADDRESSES + 1):
        lab.asked[f"10.0.{i // 256}.{i % 256}"] = collections.deque([(clock.monotonic() - 3600, 1)])
    ask(1, seed=6, address="9.9.9.9")
    assert set(lab.asked) == {"1.2.3.4", "9.9.9.9"}


def test_a_comparison_past_its_time_is_stopped_and_the_next_runs() -> None:
    async def scenario() -> None:
        clock = ManualClock()
        lab = Laboratory(clock, time_limit=60.0)
        lab.start()
        slow, _ = lab.submit(Request("survivor", "last-capture", "expert", MAX_DEALS["expert"]), "1.2.3.4")
        quick, ahead = lab.submit(Request("survivor/3", "last-capture/3", "random", 4), "1.2.3.4")
        assert slow.status == "running" and quick.status == "queued" and ahead == 1
        clock.advance(59.0)
        assert slow.status == "running"
        clock.advance(1.0)
        assert slow.status == "failed" and slow.code == "lab_time"
        assert "took longer than 60 seconds" in slow.reason
        assert lab.find(slow.request.id) == (slow, 0)
        assert quick.status == "running"
        for _ in range(600):  # the quick one plays in its worker; the loop goes on meanwhile
            if quick.status != "running":
                break
            await asyncio.sleep(0.05)
        assert quick.status == "done", quick.reason
        await asyncio.to_thread(slow.process.join, 10)
        assert not slow.process.is_alive()
        assert quick.to_json()["report"] and quick.to_json()["brief"]["readings"][0]["deals"] == 4
        await lab.close()

    asyncio.run(scenario())


# -- the endpoints ------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "words"), [
    ({"a": "survivor", "b": "survivor:prize=700", "deals": 10}, "prize"),
    ({"a": "survivor", "b": "last-capture:pair_on_pair=maybe", "deals": 10}, "pair_on_pair"),
    ({"a": "survivor", "b": "last-capture", "deals": 5000, "players": "random"}, "from 1 to 4,000"),
    ({"a": "survivor", "b": "last-capture", "deals": 10, "players": "expert:worlds=9999"}, "players: choose"),
    ({"a": "survivor", "b": "last-capture", "deals": 10.0}, "deals: give a whole number"),
    ("survivor", "send a JSON object"),
])
def test_the_api_refuses_an_absurd_comparison_in_one_line(client: TestClient, body: Any, words: str) -> None:
    r = client.post("/api/readings", json=body)
    assert r.status_code == 400, r.text
    answer = r.json()
    assert answer["code"] == "lab_request" and words in answer["error"] and "\n" not in answer["error"]
    lab = client.app.state.laboratory  # type: ignore[attr-defined]
    assert lab.running is None and not lab.waiting and not lab.kept  # nothing asked of the worker


def test_the_api_answers_what_is_not_a_comparison(client: TestClient) -> None:
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    r = client.post("/api/readings", content=b"a=b", headers=form)
    assert r.status_code == 415
    r = client.post("/api/readings", content=b'{"a": ', headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "\n" not in r.json()["error"]
    for ident in ("0123456789abcdef", "x" * 200, "%00"):
        r = client.get(f"/api/readings/{ident}")
        assert r.status_code == 404 and r.json()["code"] == "no_comparison"
        assert r.json()["error"].startswith("there is no such comparison")


def test_a_comparison_through_the_api(client: TestClient) -> None:
    asked = {"a": "survivor/3", "b": "survivor:single_takes_three=off/3", "players": "random", "deals": 6}
    r = client.post("/api/readings", json=asked)
    assert r.status_code == 202, r.text
    ident = r.json()["request"]["id"]
    assert r.json()["request"]["rules"][1]["options"] == {"single_takes_three": "off"}
    deadline = time.monotonic() + 120
    while (answer := client.get(f"/api/readings/{ident}").json())["status"] != "done":
        assert answer["status"] in ("queued", "running") and time.monotonic() < deadline, answer
        time.sleep(0.1)  # the worker plays meanwhile: waiting for real work, not for time to pass
    assert answer["done"] == answer["total"] == 12
    assert [r["deals"] for r in answer["brief"]["readings"]] == [6, 6]
    assert any(b["kind"] == "img" for b in answer["report"])
    again = client.post("/api/readings", json=asked | {"seed": 1})  # the same comparison: no new work
    assert again.status_code == 200 and again.json() == answer
