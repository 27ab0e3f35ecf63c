"""Leases on PostgreSQL: one holder per table; a lease frees when its holder's session ends
or when it expires; two servers racing for one free lease, one wins; the writes of a
table whose lease was lost are dropped, never committed beside the new holder's."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from lald.clock import Clock, ManualClock
from lald.store import NewAction, NewTable, SeatData, Store, TableData, token_hash
from lald.store.leases import Leases

SRC = Path(__file__).resolve().parents[2] / "src"


def conninfo(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class Server:
    """A server's leases and the connection that holds its life lock."""

    def __init__(self, store: Store, route: str, ttl: float = 30.0, clock: Clock | None = None) -> None:
        self.leases = Leases(store, route, ttl, clock)
        self.life: psycopg.Connection[Any] | None = psycopg.connect(conninfo(store.url), autocommit=True)
        statement, params = self.leases.life_lock()
        self.life.execute(statement, params)

    def die(self) -> None:
        """The process is gone: its connection ends, its life lock with it."""
        assert self.life is not None
        self.life.close()
        self.life = None


def soon(check: Any, seconds: float = 5.0) -> bool:
    """Whether ``check()`` comes true within ``seconds`` (a closed connection's backend
    ends a moment after its client)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def table(i: str) -> TableData:
    return TableData(i, time.time(), {"rules": {}}, 0, 1, "playing",
                     [SeatData(0, token_hash(f"seat-{i}"), True, "random", None, False)])


@pytest.fixture
def store(postgres: Any) -> Iterator[Store]:
    s = Store(postgres.database())
    try:
        yield s
    finally:
        s.close()


def test_leases_refuse_sqlite(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="leases need PostgreSQL"):
        Leases(Store(f"sqlite:///{tmp_path / 'x.db'}"), "w1")


def test_one_holder_until_its_session_ends(store: Store) -> None:
    a, b = Server(store, "w1"), Server(store, "w2")
    a.leases.write([NewTable(table("t1"))])  # a new table is leased with its creation
    assert b.leases.claim(["t1", "nope"]) == set()
    where = b.leases.where(["t1"])
    assert (where["t1"].owner, where["t1"].route, where["t1"].held) == (a.leases.owner, "w1", True)
    assert a.leases.claim(["t1"]) == {"t1"}  # its own: taken again, renewed
    assert b.leases.orphans() == [] and b.leases.live_servers() == 2
    a.die()
    assert soon(lambda: b.leases.where(["t1"])["t1"].held is False, 2.0)  # at once, not after 30 s
    assert b.leases.orphans() == ["t1"] and b.leases.live_servers() == 1
    assert b.leases.claim(["t1"]) == {"t1"}
    assert b.leases.where(["t1"])["t1"].owner == b.leases.owner
    b.die()


def test_a_lease_not_renewed_expires(store: Store) -> None:
    clock = ManualClock()
    a, b = Server(store, "w1", ttl=10, clock=clock), Server(store, "w2", clock=clock)
    a.leases.write([NewTable(table("t1"))])
    assert b.leases.claim(["t1"]) == set()
    clock.advance(6)
    assert a.leases.renew() == {"t1"}
    clock.advance(6)
    assert b.leases.claim(["t1"]) == set()  # renewed 6 s ago: still held
    assert b.leases.where(["t1"])["t1"].held and b.leases.orphans() == []
    clock.advance(4.5)
    assert b.leases.orphans() == ["t1"]  # a hangs: its life lock is there, its lease is not
    assert b.leases.claim(["t1"]) == {"t1"}
    assert a.leases.renew() == set()  # a learns it lost the table
    a.die()
    b.die()


def test_without_a_clock_leases_end_by_the_databases(store: Store) -> None:
    # A clock a day ahead takes no lease from a server on the database's clock, and a
    # server on the database's clock sees a lease a day old, by a clock of its own, expired.
    late = ManualClock(start=time.time() - 86_400)
    a, b, c = Server(store, "w1", ttl=60), Server(store, "w2", clock=late), Server(store, "w3")
    a.leases.write([NewTable(table("t1"))])
    assert b.leases.claim(["t1"]) == set() and b.leases.where(["t1"])["t1"].held
    a.die()
    assert soon(lambda: c.leases.where(["t1"])["t1"].held is False, 2.0)
    assert b.leases.claim(["t1"]) == {"t1"}
    assert c.leases.where(["t1"])["t1"].held is False  # its lease ended yesterday
    assert b.leases.where(["t1"])["t1"].held  # by its own clock, not yet
    b.die()
    c.die()


def test_two_servers_racing_for_one_free_lease_one_wins(store: Store) -> None:
    rounds = 40
    store.write([NewTable(table(f"r{i}")) for i in range(rounds)])
    servers = [Server(store, "w1"), Server(store, "w2")]
    won: list[list[set[str]]] = [[], []]
    start = threading.Barrier(2)

    def race(n: int) -> None:
        for i in range(rounds):
            start.wait(10)
            won[n].append(servers[n].leases.claim([f"r{i}"]))

    threads = [threading.Thread(target=race, args=(n,)) for n in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    for i in range(rounds):
        assert len(won[0][i]) + len(won[1][i]) == 1, i  # exactly one of them, every time
    holders = servers[0].leases.where([f"r{i}" for i in range(rounds)])
    for i in range(rounds):
        winner = 0 if won[0][i] else 1
        assert holders[f"r{i}"].owner == servers[winner].leases.owner
    for s in servers:
        s.die()


def test_the_writes_of_a_lost_table_are_dropped(store: Store) -> None:
    a, b = Server(store, "w1"), Server(store, "w2")
    a.leases.write([NewTable(table("t1")), NewTable(table("t2"))])
    act = {"seat": 0, "type": "lie_down"}
    assert a.leases.write([NewAction("t1", 0, 0, act, "human"), NewAction("t2", 0, 0, act, "human")]) == set()
    with store.engine.begin() as conn:  # a's lease of t1 ran out; b takes the table
        conn.execute(text("UPDATE lald_leases SET expires = 0 WHERE table_id = 't1'"))
    assert b.leases.claim(["t1"]) == {"t1"}
    assert b.leases.write([NewAction("t1", 0, 1, act, "bot")]) == set()
    # a did not notice: its next batch for both tables keeps t2's write and drops t1's
    lost = a.leases.write([NewAction("t1", 0, 1, {"seat": 0, "type": "x"}, "human"),
                           NewAction("t2", 0, 1, act, "human")], mark=("a", 1))
    assert lost == {"t1"}
    tables = {t.id: t for t in store.load_tables()}
    assert [s for _, s in tables["t1"].actions[0]] == ["human", "bot"]
    assert [s for _, s in tables["t2"].actions[0]] == ["human", "human"]
    assert a.leases.release() == 1 and b.leases.where(["t2"]) == {}
    a.die()
    b.die()


def test_share_spreads_orphans_over_live_servers(store: Store) -> None:
    store.write([NewTable(table(f"o{i}")) for i in range(5)])
    a, b = Server(store, "w1"), Server(store, "w2")
    assert a.leases.orphans() == [f"o{i}" for i in range(5)]
    assert a.leases.share(5) == 3
    assert a.leases.claim(a.leases.orphans()[:3]) == {"o0", "o1", "o2"}
    assert b.leases.claim(b.leases.orphans()[: b.leases.share(2)]) == {"o3"}
    assert b.leases.orphans() == ["o4"]
    a.die()
    b.die()


def test_the_servers_of_another_database_are_not_counted(store: Store, postgres: Any) -> None:
    other = Store(postgres.database())
    try:
        elsewhere = Server(other, "w9")
        a = Server(store, "w1")
        assert a.leases.live_servers() == 1 and elsewhere.leases.live_servers() == 1
        elsewhere.die()
        a.die()
    finally:
        other.close()


def test_a_batch_that_can_never_be_committed_is_dropped_and_its_lease_given_up(store: Store) -> None:
    """A server that lost a table while the database was away (b took it and played on),
    then took it again without loading what b committed, holds a batch whose action is
    at a place b's already fills: it can never be committed. It is recognised, dropped
    with the table's other writes of the batch, and the lease given up in the same
    transaction (so that the table is loaded afresh); the batch's other tables commit."""
    a, b = Server(store, "w1"), Server(store, "w2")
    a.leases.write([NewTable(table("t1")), NewTable(table("t2"))])
    act = {"seat": 0, "type": "lie_down"}
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE lald_leases SET expires = 0 WHERE table_id = 't1'"))
    assert b.leases.claim(["t1"]) == {"t1"}
    assert b.leases.write([NewAction("t1", 0, 0, act, "bot")]) == set()
    with store.engine.begin() as conn:  # and b's lease lapsed in turn: a took t1 back
        conn.execute(text("UPDATE lald_leases SET expires = 0 WHERE table_id = 't1'"))
    assert a.leases.claim(["t1"]) == {"t1"}
    batch = [NewAction("t1", 0, 0, {"seat": 0, "type": "x"}, "human"), NewAction("t1", 0, 1, act, "human"),
             NewAction("t2", 0, 0, act, "human")]
    assert a.leases.write(batch, mark=("a", 1)) == {"t1"}
    tables = {t.id: t for t in store.load_tables()}
    assert [s for _, s in tables["t1"].actions[0]] == ["bot"]
    assert [s for _, s in tables["t2"].actions[0]] == ["human"]
    assert set(a.leases.where(["t1", "t2"])) == {"t2"}  # t1's lease given up: free for its holder
    assert b.leases.claim(["t1"]) == {"t1"}
    a.die()
    b.die()


def _waiting_for_a_lock(store: Store) -> bool:
    with store.engine.connect() as conn:
        return bool(conn.execute(text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'")).scalar())


@pytest.mark.parametrize("step", ["renew", "write", "release", "claim"])
def test_leases_are_locked_in_the_order_of_their_tables(store: Store, step: str) -> None:
    """Every statement that locks lease rows locks them in table order, as a claim does:
    two servers renewing, writing under, giving up and taking overlapping leases at once
    then never deadlock (they did at 1,000 tables: ``_renew failed ... DeadlockDetected``).
    Shown without timing: another session locks t2 (stored before t1); the step, made to
    wait for t2, holds t1 already."""
    a = Server(store, "w1")
    a.leases.write([NewTable(table("t2"))])
    a.leases.write([NewTable(table("t1"))])
    act = {"seat": 0, "type": "lie_down"}
    b = Server(store, "w2")
    with store.engine.begin() as conn:  # free for b's claim
        conn.execute(text("UPDATE lald_leases SET expires = 0"))
    batch = [NewAction("t2", 0, 0, act, "bot"), NewAction("t1", 0, 0, act, "bot")]
    run = {"renew": a.leases.renew,
           "write": lambda: a.leases.write(batch),
           "release": a.leases.release,
           "claim": lambda: b.leases.claim(["t2", "t1"])}[step]
    other = psycopg.connect(conninfo(store.url))
    try:
        other.execute("SELECT 1 FROM lald_leases WHERE table_id = 't2' FOR UPDATE")
        done: list[Any] = []
        worker = threading.Thread(target=lambda: done.append(run()))
        worker.start()
        assert soon(lambda: _waiting_for_a_lock(store), 30.0)
        with pytest.raises(psycopg.errors.LockNotAvailable):
            other.execute("SELECT 1 FROM lald_leases WHERE table_id = 't1' FOR UPDATE NOWAIT")
        other.rollback()
        worker.join(30)
        assert done and not worker.is_alive()
    finally:
        other.close()
        a.die()
        b.die()


def lald(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lald", *args], capture_output=True, text=True, timeout=60,
                          env=os.environ | {"PYTHONPATH": str(SRC), "PYTHONWARNINGS": ""})


def test_lald_db_where_names_the_server_that_holds_a_table(store: Store, tmp_path: Path) -> None:
    """``lald db where TABLE_ID``: the server that holds the table, in one line (its name
    for the proxy, its id, when its lease ends); a sentence and status 1 when none does;
    status 2 and the command's name for what is not a table's id."""
    a = Server(store, "w1")
    a.leases.write([NewTable(table(t)) for t in ("t1", "t2", "t3")])
    assert a.leases.release(["t2", "t3"]) == 2
    store.update_table("t3", status="finished")
    done = lald("db", "where", "t1", "--db", store.url)
    assert done.returncode == 0 and done.stderr == "" and done.stdout.count("\n") == 1, done
    held = f"table t1 is held by w1 (server {a.leases.owner}), its lease running until "
    assert done.stdout.startswith(held), done.stdout
    for args, words in [(["t2"], "no server holds table t2"), (["t3"], "table t3 is finished"),
                        (["t9"], "there is no table t9 in the database")]:
        done = lald("db", "where", *args, "--db", store.url)
        assert done.returncode == 1 and done.stdout == "" and done.stderr.count("\n") == 1, (args, done)
        assert done.stderr.startswith("lald db where: ") and words in done.stderr, (args, done.stderr)
    a.die()
    assert soon(lambda: not a.leases.where(["t1"])["t1"].held)
    done = lald("db", "where", "t1", "--db", store.url)
    assert done.returncode == 1 and "no server holds table t1: the lease of w1" in done.stderr, done.stderr
    for args, status, words in [
        (["db", "where", "no such id", "--db", store.url], 2,
         "lald db where: argument TABLE_ID: 'no such id' is not a table's id"),
        (["db", "where", "--db", store.url], 2, "lald db where: "),
        (["db", "where", "t1", "--db", f"sqlite:///{tmp_path / 'x.db'}"], 1,
         "the one server of this database holds every table"),
        (["db", "where", "t1", "--db", "postgresql+psycopg://someone:hunter2@127.0.0.1:1/x"], 1,
         "cannot open the database"),
    ]:
        done = lald(*args)
        assert done.returncode == status and done.stderr.count("\n") == 1, (args, done)
        assert words in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr and "hunter2" not in done.stderr
    assert not (tmp_path / "x.db").exists()
