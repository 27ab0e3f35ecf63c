"""Several servers over one PostgreSQL database behind Debian's nginx (issue 25): real
workers, a real proxy, a real database, on 127.0.0.1. Tables are routed to their holder;
the lobby and the host's view work at any server; a worker killed with kill -9 at a chosen
moment (an action accepted but not committed, committed but not told, a bot thinking)
loses nothing accepted and applies nothing twice, its tables taken by another and its
pages reconnected through the proxy; a worker stopped gracefully hands its tables over;
each server's health, metrics and logs."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from lald.clock import ManualClock
from lald.store import NewAction, SeatChange, Store, TableChange, Write
from lald.store.leases import Leases
from lald.web.server.app import create_app
from lald.web.settings import Settings
from lald.web.site.cluster import ADOPT_AT_ONCE, Cluster, ClusterConfig
from lald.web.table.journal import Saved
from lald.web.table.tables import Table

from ..conftest import FAST as QUICK
from .sites import SRC, Player, Site, served_site

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the site runs on Linux")


@pytest.fixture(scope="module")
def db(postgres: Any) -> str:
    url: str = postgres.database()
    Store(url).close()
    return url


@pytest.fixture(scope="module")
def whole_site(db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    s = Site(db, ["w1", "w2"], tmp_path_factory.mktemp("site"))
    try:
        s.start()
        yield s
    finally:
        s.stop()


@pytest.fixture
def site(whole_site: Site) -> Iterator[Site]:
    """The site, each of its workers running again after the test (one that failed
    with a worker stopped leaves the next its whole site)."""
    yield whole_site
    for w in whole_site.workers.values():
        if not w.alive:
            w.start()


def stored(db: str, table_id: str) -> Any:
    """The table as the database has it, replayed by the engine (an illegal or doubled
    action would fail here)."""
    store = Store(db)
    try:
        [data] = store.load_tables(ids=[table_id])
    finally:
        store.close()
    return data


def replayed(data: Any) -> int:
    """The version of the stored table once replayed (deals started + actions)."""

    async def build() -> int:
        return Table(data, None, Settings()).version  # type: ignore[arg-type]

    return asyncio.run(build())


def test_workers_refuse_sqlite_in_one_line(tmp_path: Path) -> None:
    env = os.environ | {"PYTHONPATH": str(SRC), "PYTHONWARNINGS": ""}
    for args, words in [
        (["serve", "--workers", "2", "--db", f"sqlite:///{tmp_path / 'x.db'}"],
         "--workers 2 needs a PostgreSQL database"),
        (["worker", "--name", "w1", "--port", "1", "--db", f"sqlite:///{tmp_path / 'x.db'}"],
         "is not a PostgreSQL database"),
        (["worker", "--name", "W-1", "--port", "1", "--db", "postgresql+psycopg://x@127.0.0.1:1/x"],
         "a server's name is lower-case letters and digits"),
    ]:
        done = subprocess.run([sys.executable, "-m", "lald", *args], capture_output=True, text=True,
                              timeout=60, env=env)
        assert done.returncode == 1 and done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "x.db").exists()


def test_tables_go_to_their_holder_and_new_ones_spread(site: Site) -> None:
    made = [site.create() for _ in range(8)]
    holders = [site.holder(t["table"]["id"]) for t in made]
    assert set(holders) == {"w1", "w2"}, holders  # the least busy server makes each
    for t, holder in zip(made, holders, strict=True):
        table_id = t["table"]["id"]
        # Through the proxy: the table's own address reaches its holder...
        assert httpx.get(f"{site.base}/api/tables/{table_id}").json()["id"] == table_id
        # ...and its holder alone answers for it; the other says it is elsewhere.
        for name, w in site.workers.items():
            r = httpx.get(f"{w.base}/api/tables/{table_id}")
            assert r.status_code == (200 if name == holder else 503), (name, holder, r.text)
            if name != holder:
                assert r.json()["code"] == "elsewhere"
    # A page that joins at /ws (any server) is sent to the table's address and plays.
    player = Player(site, made[0])
    asyncio.run(player.play(lambda m: m["v"] >= 3, 30))
    assert player.frames and player.errors == []


def test_the_lobby_and_the_host_view_at_any_server(site: Site) -> None:
    a = site.create(via="w1")
    b = site.create(via="w2")
    assert site.holder(a["table"]["id"]) == "w1" and site.holder(b["table"]["id"]) == "w2"

    async def connected_then_ask() -> None:
        from websockets.asyncio.client import connect

        async with connect(f"ws://127.0.0.1:{site.port}/ws/{a['table']['id']}") as ws:
            await ws.send(json.dumps({"type": "join", "token": a["seats"][0]["token"]}))
            await ws.recv()
            deadline = time.monotonic() + 10
            while True:  # the host's view at the other server: seat 0 connected
                r = httpx.post(f"{site.workers['w2'].base}/api/host", json={"token": a["host"]["token"]})
                # (until w1's first event about the table comes, w2 sends the host to its address)
                assert r.status_code in (200, 307), r.text
                if r.status_code == 200 and r.json()["seats"][0]["online"]:
                    break
                assert time.monotonic() < deadline, r.text
                await asyncio.sleep(0.05)
            assert r.json()["seats"][0]["joined"] and r.json()["seats"][0]["url"].endswith(
                a["seats"][0]["token"])
        deadline = time.monotonic() + 10
        while httpx.post(f"{site.workers['w2'].base}/api/host",
                         json={"token": a["host"]["token"]}).json()["seats"][0]["online"]:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)

    asyncio.run(connected_then_ask())
    for w in site.workers.values():  # every server's lobby lists both
        deadline = time.monotonic() + 10
        while not {a["table"]["id"], b["table"]["id"]} <= {
                t["id"] for t in httpx.get(w.base + "/api/tables").json()}:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    # A reissue asked of the server that does not hold the table goes to its address (307),
    # which the proxy takes to the holder.
    r = httpx.post(f"{site.workers['w2'].base}/api/host/reissue",
                   json={"token": a["host"]["token"], "seat": 0})
    assert r.status_code == 307 and r.headers["location"] == f"/api/tables/{a['table']['id']}/host/reissue"
    r = httpx.post(f"{site.base}/api/host/reissue", json={"token": a["host"]["token"], "seat": 0},
                   follow_redirects=True)
    assert r.status_code == 200 and r.json()["seats"][0]["token"] != a["seats"][0]["token"]
    r = httpx.post(f"{site.base}/api/host/close", json={"token": b["host"]["token"]}, follow_redirects=True)
    assert r.json()["table"]["status"] == "closed"
    r = httpx.post(f"{site.base}/api/tables/{b['table']['id']}/host/close", content="x",
                   headers={"content-type": "text/plain"})
    assert r.status_code == 415  # the guard knows these addresses too


def test_every_lobby_page_lists_every_servers_public_tables_live(site: Site) -> None:
    """A lobby page at either server, or reached through the proxy, is told of a public
    table made at either server as it is made and as strangers sit at it; a stranger's
    Play now at the server that does not hold the table seats them there."""
    from websockets.asyncio.client import connect

    async def row(page: Any, table_id: str, free: int) -> None:
        while True:
            m = json.loads(await asyncio.wait_for(page.recv(), 10))
            if any(t["id"] == table_id and t["free"] == free for t in m.get("put", ())):
                return

    async def watch() -> None:
        pages = [await connect(f"ws://127.0.0.1:{w.port}/ws/lobby") for w in site.workers.values()]
        pages.append(await connect(f"ws://127.0.0.1:{site.port}/ws/lobby"))  # through nginx
        try:
            for page in pages:
                assert json.loads(await page.recv())["type"] == "lobby"
            # (a reading of its own each time: the first table still needs a player)
            for made, other, preset in (("w1", "w2", "last-capture"), ("w2", "w1", "survivor")):
                r = httpx.post(f"{site.workers[made].base}/api/tables", timeout=10,
                               json={"preset": preset, "players": 4, "public": True})
                assert r.status_code == 201, r.text
                table_id = r.json()["table"]["id"]
                for page in pages:
                    await row(page, table_id, 3)
                # Sitting down at the other server: sent to the holder, through the proxy.
                r = httpx.post(f"{site.workers[other].base}/api/sit", json={"table": table_id}, timeout=10)
                assert r.status_code == 307 and r.headers["location"] == f"/api/tables/{table_id}/sit"
                r = httpx.post(f"{site.base}/api/sit", json={"table": table_id}, timeout=10,
                               follow_redirects=True)
                assert r.status_code == 201 and r.json()["table"]["id"] == table_id, r.text
                for page in pages:
                    await row(page, table_id, 2)
                # Play now at the other server finds the table that needs a player there.
                ask = {"preset": preset, "players": 4}
                r = httpx.post(f"{site.workers[other].base}/api/play-now", json=ask, timeout=10)
                assert r.status_code == 307 and r.headers["location"] == f"/api/tables/{table_id}/play-now"
                r = httpx.post(f"{site.base}/api/play-now", json=ask, timeout=10, follow_redirects=True)
                assert r.status_code == 201 and r.json()["table"]["id"] == table_id, r.text
                assert "host" not in r.json()  # seated, not a table of their own
                for page in pages:
                    await row(page, table_id, 1)
        finally:
            for page in pages:
                await page.close()

    asyncio.run(watch())


def test_an_addresss_failed_logins_are_limited_whole_through_the_proxy(site: Site) -> None:
    """Each server keeps its own count of an address's failed logins: the proxy sends an
    address's logins to one server, so the limit (ten at once) holds through it (spread
    over two servers it let twenty through)."""
    answers = [httpx.post(f"{site.base}/api/account/login", json={"name": f"nobody{n}", "password": "x" * 10},
                          timeout=30).status_code for n in range(12)]
    assert answers == [401] * 10 + [429] * 2


@pytest.mark.parametrize("moment", ["before_commit", "after_commit", "bot_move"])
def test_a_worker_killed_at_a_chosen_moment_loses_nothing(site: Site, db: str, moment: str) -> None:
    """kill -9 (the worker kills itself at the fail point), three times at each moment, at
    different visits: the table is taken by the other worker, the page reconnects through
    the proxy and plays on; every action told is there, none is there twice."""
    w1 = site.workers["w1"]
    for visit in (1, 3, 5):
        w1.stop()
        w1.start(env={"LALD_FAILPOINT": f"{moment}:{visit}"})
        answer = site.create(via="w1", deals=4)
        table_id = answer["table"]["id"]
        assert site.holder(table_id) == "w1"
        player = Player(site, answer)
        asyncio.run(player.play(lambda m: False, 90))  # to the session's end
        assert w1.wait_dead(0), f"the fail point {moment}:{visit} was never reached"
        assert player.reconnects >= 1 and player.prefixes_kept, (moment, visit)
        assert site.holder(table_id) == "w2"
        data = stored(db, table_id)
        assert data.status == "over"
        version = replayed(data)  # every stored action legal, each at its own place
        assert version == player.last_v
        # The stored actions by the version each was chosen at (a deal's start counts one).
        at: dict[int, str] = {}
        v = 0
        for deal in data.actions:
            v += 1
            for _, source in deal:
                at[v] = source
                v += 1
        assert v == version
        humans = {v for v, source in at.items() if source == "human"}
        sent = {v for v, _ in player.sent}
        # Each stored move of the person's is one the page sent at that version; each
        # version the page sent at holds its move, unless refused as stale (a bot claimed
        # first, or a move sent again that the table had moved past) or, when the page
        # came back after a kill, the table had moved past it unanswered (committed before
        # the kill; or never committed, and a bot claimed first where the other server
        # loaded the table): none lost, none twice. (A move the page was told of and then
        # lost would break the log's prefix, checked above.)
        assert humans <= sent, (moment, visit, sorted(humans - sent))
        stale = sum(e["code"] == "stale" for e in player.errors)
        unanswered = len(player.passed - humans)
        assert len(humans) == len(sent) - stale - unanswered, (moment, visit, player.errors)
        assert [e for e in player.errors if e["code"] != "stale"] == []
    w1.stop()
    w1.start()


def test_two_workers_race_for_a_dead_workers_tables(postgres: Any, tmp_path: Path) -> None:
    """Three workers; one holding forty tables (ten of bots playing, thirty waiting for
    their person) is killed; the other two sweep at the same moments for its free leases:
    each table is taken by exactly one of them."""
    db = postgres.database()  # a site of its own: the module's servers would sweep too
    Store(db).close()
    site = Site(db, ["a1", "a2", "a3"], tmp_path)
    try:
        site.start()
        made = [site.create(via="a1", humans=0 if i < 10 else 1, deals=50)["table"]["id"] for i in range(40)]
        site.workers["a1"].kill()
        deadline = time.monotonic() + 20
        answers: dict[str, list[str]] = {}
        while time.monotonic() < deadline:
            answers = {t: [n for n in ("a2", "a3")
                           if httpx.get(f"{site.workers[n].base}/api/tables/{t}").status_code == 200]
                       for t in made}
            if all(answers.values()):
                break
            time.sleep(0.1)
        assert not {t: h for t, h in answers.items() if len(h) != 1}  # never two
        assert {h for holders in answers.values() for h in holders} <= {"a2", "a3"}
        for t in made:
            data = stored(db, t)
            replayed(data)  # the tables played on, each move legal, none doubled
    finally:
        site.stop()


def test_a_worker_stopped_gracefully_hands_its_tables_over(site: Site, db: str) -> None:
    w1 = site.workers["w1"]
    answer = site.create(via="w1", deals=3)
    bots = site.create(via="w1", humans=0, deals=50)["table"]["id"]
    player = Player(site, answer)

    async def play_and_stop() -> None:
        task = asyncio.create_task(player.play(lambda m: False, 90))
        while player.last_v < 8:
            await asyncio.sleep(0.02)
        # The page holds its move, so the table waits for it at w1 while w1 stops (played
        # on, three deals could end before the signal arrives, no page left to send on).
        player.holding = True
        await asyncio.to_thread(w1.stop)
        player.holding = False
        await task

    asyncio.run(play_and_stop())
    # uvicorn ends by the signal it was stopped with, once shut down
    assert w1.proc is not None and w1.proc.returncode in (0, -15)
    assert player.elsewhere >= 1 and player.prefixes_kept
    assert site.holder(answer["table"]["id"]) == "w2" and site.holder(bots) == "w2"
    assert replayed(stored(db, answer["table"]["id"])) == player.last_v
    log = (site.tmp / "w1.log").read_text()
    assert '"handed over' in log and "Application shutdown complete" in log
    w1.start()


def test_a_worker_that_starts_again_gets_its_share_back(site: Site, db: str) -> None:
    w2 = site.workers["w2"]
    w2.stop()  # w1 alone: it takes w2's tables and makes every new one
    made = [site.create()["table"]["id"] for _ in range(40)]  # open: each waits for its person
    w2.start()
    deadline = time.monotonic() + 60
    while True:
        holders = [site.holder(t) for t in made]
        if holders.count("w2") >= 10:
            break
        assert time.monotonic() < deadline, holders
        time.sleep(0.5)
    for t in made:  # each held by one of them, played on legally
        answers = [n for n, w in site.workers.items()
                   if httpx.get(f"{w.base}/api/tables/{t}").status_code == 200]
        assert len(answers) == 1, (t, answers)
        replayed(stored(db, t))
    assert "to even the load" in (site.tmp / "w1.log").read_text()


def test_health_metrics_and_logs(site: Site) -> None:
    answer = site.create()
    player = Player(site, answer)
    asyncio.run(player.play(lambda m: m["v"] >= 10, 30))
    holder = site.workers[site.holder(answer["table"]["id"])]
    assert httpx.get(holder.base + "/healthz").json() == {"status": "ok"}
    assert httpx.get(holder.base + "/readyz").json() == {"status": "ready"}
    assert httpx.get(site.base + "/metrics").status_code == 404  # not to the outside
    text = httpx.get(holder.base + "/metrics").text
    values = {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines()
              if line and not line.startswith("#")}
    assert values['lald_actions_total{source="human"}'] >= 1
    assert values['lald_actions_total{source="bot"}'] >= 1
    assert values["lald_action_seconds_count"] >= 2 and values["lald_db_commit_seconds_count"] >= 1
    assert values['lald_tables{state="open"}'] >= 1
    # Every line of every worker's log is one JSON object, and no token is in any.
    tokens = {answer["host"]["token"], *(s["token"] for s in answer["seats"] if "token" in s)}
    for w in site.workers.values():
        lines = w.log.read_text().splitlines()
        assert lines
        for line in lines:
            event = json.loads(line)
            assert {"time", "level", "logger", "message", "worker"} <= set(event)
            assert not any(t in line for t in tokens)


def test_lald_serve_workers_runs_a_site_and_starts_a_dead_worker_again(postgres: Any, tmp_path: Path) -> None:
    with served_site(postgres.database(), tmp_path) as (proc, port, err):  # one database, one site
        r = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"seats": [{"human": False}] * 5})
        assert r.status_code == 201
        table_id = r.json()["table"]["id"]
        worker = next(p for p in _children(proc.pid) if "worker" in _cmdline(p))
        os.kill(worker, 9)
        deadline = time.monotonic() + 30
        while "starting it again" not in err.read_text():
            assert time.monotonic() < deadline, err.read_text()
            time.sleep(0.1)
        deadline = time.monotonic() + 30
        while httpx.get(f"http://127.0.0.1:{port}/api/tables/{table_id}").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.1)


def _children(pid: int) -> list[int]:
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [int(p) for p in found]


def _cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


def test_a_lobby_message_too_long_for_one_event_is_sent_whole_in_parts(
        caplog: pytest.LogCaptureFixture) -> None:
    """PostgreSQL's NOTIFY takes under 8,000 bytes: a lobby update of many tables (a server
    that starts, or a burst of changes) goes in parts that each fit, rows and dropped ids
    in order, none lost (the dropped ids of a thousand tables once went in one event,
    refused as too long: the other servers' lobby pages kept those tables listed)."""
    from lald.web.site.events import MAX_PAYLOAD, Channel
    from lald.web.site.remote import SiteChannel

    events = Channel("host=127.0.0.1 port=1", "w1")  # never connected: what it would send is queued
    site = SiteChannel(events)
    rows = [{"id": f"t{i:04d}", "title": "x" * (i % 700), "seats": [{"name": "é" * 20}] * 5}
            for i in range(300)]
    drops = [f"gone{i:05d}" for i in range(2000)]
    message = {"put": rows, "drop": drops, "now": 1.5}
    with caplog.at_level("WARNING", logger="lald.web"):
        site.publish("lobby", message)
    sent = [events._out.get_nowait() for _ in range(events._out.qsize())]
    assert len(sent) > 2 and not caplog.records
    assert all(len(p.encode()) <= MAX_PAYLOAD for p in sent)
    parts = [json.loads(p)["body"]["message"] for p in sent]
    assert [r for p in parts for r in p["put"]] == rows
    assert [d for p in parts for d in p["drop"]] == drops
    assert {p["now"] for p in parts} == {1.5}
    small = {"put": rows[:2], "drop": drops[:3], "now": 2.0}
    site.publish("lobby", small)  # one event when it fits
    assert json.loads(events._out.get_nowait())["body"]["message"] == small and events._out.empty()


# -- one server in this process, its faults injected ------------------------------------------

PEOPLE = {"seats": [{"human": True, "level": "random"}] * 5}  # a table that waits for its people


async def _stop(cluster: Cluster) -> None:
    """Stop as the app's lifespan does: hand over, close the hub (its writer), leave."""
    await cluster.drain()
    await cluster.hub.close()
    await cluster.close()


@contextlib.asynccontextmanager
async def _server(db: str, **config: Any) -> AsyncIterator[Cluster]:
    """One server of a site in this process, not sweeping unless told (the test drives it)."""
    store = Store(db)
    cluster = Cluster(store, QUICK, ClusterConfig("w1", **{"sweep_every": 3600.0} | config))
    await cluster.start()
    try:
        yield cluster
    finally:
        try:
            await asyncio.wait_for(_stop(cluster), 60)
        finally:
            store.close()


def _refusing(cluster: Cluster, refuse: threading.Event, block: threading.Event | None = None) -> None:
    """The server's database refuses its writes while ``refuse`` is set; a write waits
    while ``block`` is not set (a database that does not answer)."""
    real = cluster.leases.write

    def write(writes: Sequence[Write], mark: tuple[str, int] | None = None) -> set[str]:
        if block is not None:
            block.wait(60)
        if refuse.is_set():
            raise OperationalError("INSERT", {}, Exception("the database is away"))
        return real(writes, mark)

    cluster.leases.write = write  # type: ignore[method-assign]


def test_a_write_that_can_never_succeed_is_dropped_and_its_table_handed_over(postgres: Any) -> None:
    """Issue 31: a batch of a table another server played meanwhile (PostgreSQL restarted,
    the other took the table, this one took it back without loading it) was retried every
    5 s for ever against the unique key, and every table of the server froze. It is
    dropped with its table, whose lease is given up for its holder to load; the batch's
    other tables commit, and the server writes on."""
    db = postgres.database()

    async def scenario() -> None:
        async with _server(db) as cluster:
            t1, _ = cluster.hub.create(PEOPLE)
            t2, _ = cluster.hub.create(PEOPLE)
            await asyncio.wait_for(asyncio.gather(t1.until_saved(), t2.until_saved()), 30)
            assert {t1.id, t2.id} <= cluster.leased
            act = {"seat": 0, "type": "lie_down"}
            cluster.hub.store.write([NewAction(t1.id, 0, 0, act, "bot")])  # the other server's move
            cluster.journal.add(NewAction(t1.id, 0, 0, {"seat": 0, "type": "x"}, "human"), t1)
            cluster.journal.add(NewAction(t2.id, 0, 0, act, "human"), t2)
            await asyncio.wait_for(cluster.journal.flush(), 30)
            assert t1.id not in cluster.hub.tables and t1.id not in cluster.leased
            assert cluster.leases.where([t1.id]) == {}  # free: its holder (or anyone) loads it
            assert t2.id in cluster.hub.tables and t2.id in cluster.leased
            cluster.journal.add(NewAction(t2.id, 0, 1, act, "human"), t2)  # and it writes on
            await asyncio.wait_for(cluster.journal.flush(), 30)
            stored = {t.id: t for t in cluster.hub.store.load_tables(ids=[t1.id, t2.id])}
            assert [s for _, s in stored[t1.id].actions[0]] == ["bot"]
            assert [s for _, s in stored[t2.id].actions[0]] == ["human", "human"]
            assert await cluster.ready() is None
            # A table handed over takes none of its queued writes with it: they were
            # accepted against what this server wrongly held.
            cluster.journal.add(TableChange(t2.id, {"active_at": 1.0}), t2)
            cluster.lose({t2.id})
            assert t2.unsaved == 0 and t2.id not in cluster.hub.tables
            await asyncio.wait_for(cluster.journal.flush(), 30)

    asyncio.run(scenario())


def test_a_table_taken_back_from_another_server_is_loaded_afresh(postgres: Any) -> None:
    """Issue 31's wedge began so: PostgreSQL restarted, both servers lost their life locks,
    the other server took a table of this one and changed it, then this one's sweep took
    it back and played on its copy in memory, behind the database's (its next move could
    never be committed). A table a sweep takes from another server's lease is loaded afresh."""
    db = postgres.database()

    async def scenario() -> None:
        async with _server(db) as cluster:
            t, _ = cluster.hub.create(PEOPLE)
            await asyncio.wait_for(t.until_saved(), 30)
            with cluster.hub.store.engine.begin() as conn:  # w2 took it, then lost it in turn
                conn.execute(text("UPDATE lald_leases SET owner = 'w2-00000000', route = 'w2', expires = 0 "
                                  "WHERE table_id = :t"), {"t": t.id})
            cluster.hub.store.write([SeatChange(t.id, 0, {"joined": True, "name": "Ann"})])  # at w2
            assert await cluster.sweep() == 1
            fresh = cluster.hub.tables[t.id]
            assert fresh is not t and fresh.seats[0].name == "Ann" and t.id in cluster.leased
            assert cluster.leases.where([t.id])[t.id].owner == cluster.me
            with cluster.hub.store.engine.begin() as conn:  # its own lease lapsed: taken again, kept
                conn.execute(text("UPDATE lald_leases SET expires = 0 WHERE table_id = :t"), {"t": t.id})
            assert await cluster.sweep() == 0 and cluster.hub.tables[t.id] is fresh

    asyncio.run(scenario())


def test_a_table_two_servers_gave_up_is_taken_at_once(postgres: Any) -> None:
    """A server leaves a table it gave up to even the load to the others for a while; but
    once another has given it up too, it takes it at once. After a PostgreSQL restart both
    servers took each other's tables, then each gave some up, and a table given up by both
    was held by none for 30 s."""
    db = postgres.database()

    async def scenario() -> None:
        async with _server(db) as cluster:
            t, _ = cluster.hub.create(PEOPLE)
            await asyncio.wait_for(t.until_saved(), 30)
            cluster._given[t.id] = cluster.clock.monotonic()  # given up, as balance() does
            cluster.hub.hand_over(t)
            cluster.leased.discard(t.id)
            cluster.leases.release([t.id])
            assert await cluster.sweep() == 0  # left to the others
            cluster._on_released("w2-00000000", {"ids": [t.id]})  # which gave it up in turn
            assert await cluster.sweep() == 1 and t.id in cluster.hub.tables

    asyncio.run(scenario())


def test_a_stop_waits_for_the_database_calls_its_loops_left_running(postgres: Any) -> None:
    """A loop cancelled at the stop leaves its database call running in its thread; the
    store closed under it, that call's connection was left open (psycopg warned when it was
    collected, failing whichever test was running then). The stop waits for it."""
    db = postgres.database()
    release, asked, done = threading.Event(), threading.Event(), threading.Event()

    async def scenario() -> None:
        async with _server(db) as cluster:
            real = cluster.leases.orphans

            def orphans() -> list[str]:
                asked.set()
                release.wait(30)
                try:
                    return real()
                finally:
                    done.set()

            cluster.leases.orphans = orphans  # type: ignore[method-assign]
            sweep = asyncio.create_task(cluster.sweep())
            await asyncio.to_thread(asked.wait, 30)
            sweep.cancel()
            threading.Timer(0.3, release.set).start()
            await cluster.close()
            assert done.is_set(), "the stop returned while its loop's database call still ran"

    asyncio.run(scenario())


def test_a_worker_that_cannot_write_says_so_on_readyz(postgres: Any) -> None:
    """A server whose writes the database refuses, or does not answer, is not ready
    (503 and why), and is ready again once its writes go through (it said 200 throughout)."""
    clock = ManualClock()
    app = create_app(postgres.database(), QUICK, ClusterConfig("w1", sweep_every=3600.0), clock=clock)

    def readyz(client: TestClient, status: int, words: str = "") -> dict[str, Any]:
        deadline = time.monotonic() + 30
        while True:
            r = client.get("/readyz")
            if r.status_code == status and words in r.text:
                return dict(r.json())
            assert time.monotonic() < deadline, r.text
            time.sleep(0.02)

    with TestClient(app) as client:
        cluster: Cluster = app.state.cluster
        readyz(client, 200)
        refuse, block = threading.Event(), threading.Event()
        refuse.set()
        block.set()
        _refusing(cluster, refuse, block)
        try:
            client.portal.call(cluster.journal.add, TableChange("nope", {"active_at": 1.0}), Saved())
            assert "refuses this server's writes" in readyz(client, 503, "refuses")["reason"]
            refuse.clear()
            readyz(client, 200)
            # A write the database does not answer: late after a while, by the server's clock.
            block.clear()
            client.portal.call(cluster.journal.add, TableChange("nope", {"active_at": 2.0}), Saved())
            assert client.get("/readyz").status_code == 200
            clock.advance(cluster.config.write_late + 1)
            assert "has waited" in readyz(client, 503, "waited")["reason"]
        finally:  # the database answers again (before the fix, the stop waited for it)
            refuse.clear()
            block.set()
        readyz(client, 200)


def test_a_worker_that_cannot_write_stops_within_its_bound(postgres: Any) -> None:
    """A stop (SIGTERM) waits for the writes accepted at most ``stop_seconds``, then gives
    them up (they were told to nobody) and its leases with them; it hung for ever."""
    db = postgres.database()

    async def scenario() -> None:
        store = Store(db)
        cluster = Cluster(store, QUICK, ClusterConfig("w1", sweep_every=3600.0, stop_seconds=0.5))
        await cluster.start()
        try:
            t, _ = cluster.hub.create(PEOPLE)
            await asyncio.wait_for(t.until_saved(), 30)
            refuse = threading.Event()
            refuse.set()
            _refusing(cluster, refuse)
            cluster.journal.add(TableChange(t.id, {"active_at": 1.0}), t)
            await asyncio.wait_for(_stop(cluster), 30)
            assert Leases(store, "w9").where([t.id]) == {}
        finally:
            store.close()

    asyncio.run(scenario())


def test_a_sweep_adopts_a_few_tables_at_a_time_and_lets_the_server_answer_between(postgres: Any) -> None:
    """Seen in a 30-minute chaos run (bench/chaos.py): a worker that took 26 tables nobody
    held replayed them all in one go on its event loop (13.6 s at load), and answered
    nothing meanwhile, /readyz included. A sweep now adopts a few tables at a time and
    lets the loop run between them."""
    db = postgres.database()

    async def scenario() -> None:
        async with _server(db) as cluster:
            made = [cluster.hub.create(PEOPLE)[0] for _ in range(12)]
            for t in made:
                await asyncio.wait_for(t.until_saved(), 30)
                cluster.hub.hand_over(t)
            await asyncio.wait_for(cluster.journal.flush(), 30)
            cluster.leased.difference_update(t.id for t in made)
            cluster.leases.release([t.id for t in made])
            sizes: list[int] = []
            ticks: list[int] = []
            adopt = cluster.hub.adopt

            def counted(datas: Any) -> Any:
                sizes.append(len(datas))
                ticks.append(len(beats))
                return adopt(datas)

            beats: list[float] = []

            async def heart() -> None:
                while True:
                    beats.append(time.monotonic())
                    await asyncio.sleep(0)

            cluster.hub.adopt = counted  # type: ignore[method-assign]
            beating = asyncio.create_task(heart())
            try:
                assert await cluster.sweep() == 12
            finally:
                beating.cancel()
            assert sum(sizes) == 12 and max(sizes) <= ADOPT_AT_ONCE, sizes
            assert all(b > a for a, b in zip(ticks, ticks[1:], strict=False)), ticks  # the loop ran between

    asyncio.run(scenario())
