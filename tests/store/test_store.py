"""The store on each supported database: SQLite and a real PostgreSQL server."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from lald.store import NewAction, NewTable, SeatChange, SeatData, Store, TableChange, TableData
from lald.store import _sqlite_pragmas as switch_to_wal


def _table(tid: str, created: float, status: str = "waiting") -> TableData:
    seats = [SeatData(s, f"{tid}-token-{s}-" + "x" * 40, s < 2, "greedy" if s else "random",
                      "Zoë «ace»" if s == 1 else None, False) for s in range(5)]
    config = {"rules": {"preset": "last-capture", "players": 5, "variants": ["silent"],
                        "options": {"stake": 3}}, "turn_seconds": 12.5}
    return TableData(tid, created, config, (1 << 62) - 1, 0, status, seats)


def test_everything_written_is_read_back_exactly(db_url: str) -> None:
    store = Store(db_url)
    store.create_table(_table("t-old", 1.0))
    store.create_table(_table("t-new", 2.0))
    store.create_table(_table("t-done", 3.0, status="over"))
    store.update_table("t-new", deals_started=2, status="playing")
    deal0 = [{"seat": 1, "type": "trail", "card": "7H"}, {"seat": 2, "type": "lie_down"}]
    for seq, action in enumerate(deal0):
        store.add_action("t-new", 0, seq, action, "bot" if seq else "human")
    store.write([NewAction("t-new", 1, 0, {"seat": 3, "type": "claim", "cards": ["AS", "AH"]}, "timer"),
                 NewAction("t-new", 1, 1, {"seat": 4, "type": "trail", "card": "TD"}, "bot"),
                 SeatChange("t-new", 1, {"human": False, "joined": True, "name": "Ünal"})])
    store.close()

    store = Store(db_url)  # a new engine: nothing comes from a cache
    tables = {t.id: t for t in store.load_tables()}
    assert list(tables) == ["t-old", "t-new", "t-done"]  # oldest first
    t = tables["t-new"]
    assert (t.created, t.seed, t.deals_started, t.status) == (2.0, (1 << 62) - 1, 2, "playing")
    assert t.config == _table("x", 0).config
    assert t.actions == [[(deal0[0], "human"), (deal0[1], "bot")],
                         [({"seat": 3, "type": "claim", "cards": ["AS", "AH"]}, "timer"),
                          ({"seat": 4, "type": "trail", "card": "TD"}, "bot")]]
    assert [s.seat for s in t.seats] == [0, 1, 2, 3, 4]
    assert t.seats[1] == SeatData(1, "t-new-token-1-" + "x" * 40, False, "greedy", "Ünal", True)
    assert tables["t-old"].seats[1].name == "Zoë «ace»" and tables["t-old"].actions == []
    assert [x.id for x in store.load_tables(statuses=("waiting", "playing"))] == ["t-old", "t-new"]
    assert [x.id for x in store.load_tables(ids=["t-done", "nope"])] == ["t-done"]
    assert store.load_tables(ids=["nope"]) == []
    assert store.table_of_token("t-done-token-3-" + "x" * 40) == "t-done"
    assert store.table_of_token("t-done-token-9") is None
    store.close()


def test_a_batch_is_committed_whole_or_not_at_all(db_url: str) -> None:
    store = Store(db_url)
    store.write([NewTable(_table("t", 1.0)), TableChange("t", {"deals_started": 1, "status": "playing"}),
                 NewAction("t", 0, 0, {"seat": 1, "type": "lie_down"}, "bot")])
    with pytest.raises(IntegrityError):  # the second action repeats seq 0: the batch fails
        store.write([NewAction("t", 0, 1, {"seat": 2, "type": "lie_down"}, "bot"),
                     NewAction("t", 0, 0, {"seat": 3, "type": "lie_down"}, "bot"),
                     TableChange("t", {"status": "over"})])
    with pytest.raises(IntegrityError):  # two seats may not share a token
        store.create_table(_table("t", 2.0))
    (t,) = store.load_tables()
    assert t.status == "playing" and t.actions == [[({"seat": 1, "type": "lie_down"}, "bot")]]
    store.close()


def test_a_gap_in_a_deals_actions_is_refused_on_loading(db_url: str) -> None:
    store = Store(db_url)
    store.write([NewTable(_table("t", 1.0)), TableChange("t", {"deals_started": 1}),
                 NewAction("t", 0, 0, {"seat": 1, "type": "lie_down"}, "bot"),
                 NewAction("t", 0, 2, {"seat": 2, "type": "lie_down"}, "bot")])
    with pytest.raises(ValueError, match="action 2 is stored after 1 actions"):
        store.load_tables()
    store.close()


def test_a_marked_batch_is_written_once_however_often_it_is_retried(db_url: str) -> None:
    store = Store(db_url)
    batch = [NewTable(_table("t", 1.0)), NewAction("t", 0, 0, {"seat": 1, "type": "lie_down"}, "bot")]
    store.write(batch, mark=("writer-a", 1))
    store.write(batch, mark=("writer-a", 1))  # a retry after a lost confirmation: no error, no copy
    second = [NewAction("t", 0, 1, {"seat": 2, "type": "lie_down"}, "bot")]
    store.write(second, mark=("writer-a", 2))
    store.write(second, mark=("writer-a", 2))
    store.write([NewAction("t", 0, 2, {"seat": 3, "type": "lie_down"}, "bot")], mark=("writer-b", 1))
    with pytest.raises(IntegrityError):  # unmarked, the same write is a duplicate, as before
        store.write(second)
    (t,) = store.load_tables()
    assert [a for a, _ in t.actions[0]] == [{"seat": s, "type": "lie_down"} for s in (1, 2, 3)]
    store.close()


def test_a_file_being_written_in_the_old_journal_mode_is_switched_to_wal_once_free(tmp_path: Path) -> None:
    # Two servers (or lald db upgrades) opening one file in the old journal mode at once:
    # while the first holds the write lock, SQLite refused the second's switch to WAL at
    # once ("database is locked"), without the wait its busy timeout promises. CI saw it.
    path = str(tmp_path / "old.db")
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("CREATE TABLE t (a)")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO t VALUES (1)")
    done = threading.Timer(0.3, lambda: writer.execute("COMMIT"))
    done.start()
    opener = sqlite3.connect(path, timeout=5)
    try:
        switch_to_wal(opener, None)
        assert opener.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert opener.execute("SELECT a FROM t").fetchall() == [(1,)]
    finally:
        done.join()
        opener.close()
        writer.close()
