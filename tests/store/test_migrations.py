"""The schema's migrations (Alembic): every revision up and down with data in the tables,
on SQLite and PostgreSQL; databases from before Alembic brought to the newest revision;
a newer database refused in one line; ``lald db``; two migrators at once."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Engine

from lald.store import HEAD, REVISIONS, SCHEMA, Store, StoreError, _Base, token_hash
from lald.store.migrate import (
    VERSION_TABLE,
    NewerDatabase,
    OlderDatabase,
    Upgrade,
    alembic_config,
    prepare,
    status,
)

SRC = Path(__file__).resolve().parents[2] / "src"
CONFIG = json.dumps({"rules": {"preset": "survivor", "players": 3, "variants": [], "options": {}}})
PLAIN = [f"plain-token-{s}-of-an-old-table" for s in range(3)]


def migrate(engine: Engine, action: str, revision: str) -> None:
    """Alembic's ``upgrade`` or ``downgrade`` to ``revision``, in one transaction."""
    with engine.begin() as conn:
        getattr(command, action)(alembic_config(conn), revision)


def write_version_1(conn: Any, table: str = "old1") -> None:
    """A version-1 table: three seats with their tokens in the clear, two actions."""
    conn.execute(text("INSERT INTO lald_tables (id, created, config, seed, deals_started, status) "
                      "VALUES (:t, 1.0, :c, 12345, 1, 'playing')"), {"t": table, "c": CONFIG})
    for s in range(3):
        conn.execute(text("INSERT INTO lald_seats (table_id, seat, token, human, level, name, joined) "
                          "VALUES (:t, :s, :k, :h, 'random', NULL, false)"),
                     {"t": table, "s": s, "k": PLAIN[s] + table, "h": s == 0})
    for seq in range(2):
        conn.execute(text("INSERT INTO lald_actions (table_id, deal, seq, action, source, at) "
                          "VALUES (:t, 0, :q, :a, 'human', 2.0)"),
                     {"t": table, "q": seq, "a": json.dumps({"seat": seq, "type": "lie_down"})})
    conn.execute(text("INSERT INTO lald_writers (id, batch) VALUES (:w, 7)"), {"w": "w-" + table})


def write_version_2(conn: Any, table: str, secret: str, host: str | None, name: str | None,
                    generation: int) -> None:
    """A version-2 table dealt from its secret, waiting, with one seat."""
    conn.execute(text("INSERT INTO lald_tables (id, created, config, seed, deals_started, status, secret, "
                      "host, active_at) VALUES (:t, 3.0, :c, 0, 0, 'waiting', :s, :h, 4.0)"),
                 {"t": table, "c": CONFIG, "s": secret, "h": host})
    conn.execute(text("INSERT INTO lald_seats (table_id, seat, token, generation, human, level, name, "
                      "joined) "
                      "VALUES (:t, 0, :k, :g, true, 'random', :n, true)"),
                 {"t": table, "k": token_hash("seat" + table), "g": generation, "n": name})


def write_version_3(engine: Engine) -> None:
    """An account with a session, a chat line and a rating, at revision 0003."""
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO lald_accounts (id, name, skeleton, password, created) "
                          "VALUES (1, 'Ann', 'ann', '$argon2id$x', 1.0)"))
        conn.execute(text("INSERT INTO lald_sessions VALUES ('d' , 1, 'c', 1.0, 1.0)"))
        conn.execute(text("INSERT INTO lald_chat (table_id, deal, after, seat, name, account_id, kind, text, "
                          "at) "
                          "VALUES ('new1', 0, 0, 0, 'Ann', 1, 'chat', 'hello', 1.0)"))
        conn.execute(text("INSERT INTO lald_ratings VALUES (1, 'survivor/5', 25.0, 8.3, 1, 1.0)"))
        conn.execute(text("UPDATE lald_seats SET account = 1 WHERE table_id = 'new1'"))


def columns(engine: Engine, table: str) -> set[str]:
    return {c["name"] for c in inspect(engine).get_columns(table)}


def rows(engine: Engine, query: str) -> list[tuple[Any, ...]]:
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(query))]


def schema_differences(engine: Engine) -> list[Any]:
    """What the database's schema lacks or has more than the store's declaration."""
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
        return list(compare_metadata(context, _Base.metadata))


def version_1_from_before_alembic(url: str) -> Engine:
    """A database as lald made it before the schema had a version: revision 0001's tables,
    no ``lald_meta``, no Alembic table; with two tables of data."""
    engine = create_engine(url)
    migrate(engine, "upgrade", "0001")
    with engine.begin() as conn:
        conn.execute(text(f"DROP TABLE {VERSION_TABLE}"))
        write_version_1(conn, "old1")
        write_version_1(conn, "old2")
    return engine


def test_the_revisions_are_the_ones_the_store_names() -> None:
    script = ScriptDirectory.from_config(alembic_config(None))  # type: ignore[arg-type]
    assert [r.revision for r in reversed(list(script.walk_revisions()))] == list(REVISIONS)
    assert script.get_current_head() == HEAD


def test_every_revision_up_and_down_with_data(db_url: str) -> None:
    engine = create_engine(db_url)
    migrate(engine, "upgrade", "0001")
    with engine.begin() as conn:
        write_version_1(conn)
    before = time.time()
    migrate(engine, "upgrade", "0002")
    # The data converted: tokens are their digests, the table a practice table (no
    # secret), just active, no link reissued; the actions and writers as they were.
    assert sorted(rows(engine, "SELECT seat, token, generation FROM lald_seats")) == [
        (s, token_hash(PLAIN[s] + "old1"), 0) for s in range(3)]
    [(secret, host, active_at)] = rows(engine, "SELECT secret, host, active_at FROM lald_tables")
    assert secret is None and host is None and active_at >= before
    assert rows(engine, "SELECT value FROM lald_meta WHERE key = 'schema'") == [("2",)]
    assert len(rows(engine, "SELECT * FROM lald_actions")) == 2
    assert rows(engine, "SELECT id, batch FROM lald_writers") == [("w-old1", 7)]
    # 0003 adds accounts, sessions, chat and ratings: no seat has an account, none is erased.
    migrate(engine, "upgrade", "0003")
    assert rows(engine, "SELECT account, erased FROM lald_seats") == [(None, False)] * 3
    assert rows(engine, "SELECT value FROM lald_meta WHERE key = 'schema'") == [("2",)]
    # 0003 lacks, of tables, only what 0004 and 0005 add: the leases of live tables, an
    # account's known clients and the deleted names held.
    assert {d[1].name for d in schema_differences(engine) if d[0] == "add_table"} == {
        "lald_leases", "lald_known_clients", "lald_name_holds"}
    migrate(engine, "upgrade", "0004")
    assert columns(engine, "lald_leases") == {"table_id", "owner", "route", "lock_key", "expires"}
    assert rows(engine, "SELECT value FROM lald_meta WHERE key = 'schema'") == [("3",)]
    assert rows(engine, "SELECT count(*) FROM lald_leases") == [(0,)]
    # 0005 adds what defends an account: its failed logins, a session's wrong passwords,
    # the clients it logged in from, the deleted names held.
    assert sorted((d[0], d[1].name) for d in schema_differences(engine) if d[0] == "add_table") == [
        ("add_table", "lald_known_clients"), ("add_table", "lald_name_holds")]
    migrate(engine, "upgrade", "0005")
    assert "failed_logins" in columns(engine, "lald_accounts")
    assert "wrong_passwords" in columns(engine, "lald_sessions")
    assert rows(engine, "SELECT value FROM lald_meta WHERE key = 'schema'") == [("3",)]
    # 0006 adds an account's consent to be named in the exported games: off for every
    # account already there.
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO lald_accounts (id, name, skeleton, password, created) "
                          "VALUES (99, 'Early', 'early', 'x', 1.0)"))
    assert [d[0] for d in schema_differences(engine)] == ["add_column"]
    migrate(engine, "upgrade", "0006")
    assert rows(engine, "SELECT name, share_name FROM lald_accounts") == [("Early", False)]
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM lald_accounts"))
    assert len(rows(engine, "SELECT * FROM lald_actions")) == 2
    assert len(rows(engine, "SELECT * FROM lald_seats")) == 3
    assert schema_differences(engine) == []
    store = Store(db_url, upgrade=False)  # at the newest revision: nothing to do
    assert store.upgraded is None
    [old] = store.load_tables()
    assert old.secret is None and old.actions == [[({"seat": 0, "type": "lie_down"}, "human"),
                                                    ({"seat": 1, "type": "lie_down"}, "human")]]
    # Written at 0002: a table dealt from its secret, with a host, still playing.
    with engine.begin() as conn:
        write_version_2(conn, "new1", "ab" * 32, token_hash("host"), "Ann", 2)
    with engine.begin() as conn:  # a server holds the old table
        conn.execute(text("INSERT INTO lald_leases VALUES ('old1', 'w1-abc', 'w1', 7, 1.0)"))
    store.close()

    with engine.begin() as conn:  # an account written at 0005, with a known client and a name held
        conn.execute(text("INSERT INTO lald_accounts (name, skeleton, password, created, failed_logins) "
                          "VALUES ('Held', 'held', 'x', 1.0, 2)"))
        conn.execute(text("INSERT INTO lald_known_clients VALUES (1, 'ab', 'device', 1.0, 1.0)"))
        conn.execute(text("INSERT INTO lald_name_holds VALUES ('gone', 9.0)"))
    with engine.begin() as conn:
        conn.execute(text("UPDATE lald_accounts SET share_name = true"))
    migrate(engine, "downgrade", "0005")  # the consent goes; the account stays
    assert "share_name" not in columns(engine, "lald_accounts")
    assert rows(engine, "SELECT name, failed_logins FROM lald_accounts") == [("Held", 2)]
    migrate(engine, "downgrade", "0004")  # the defences go; the account stays
    assert "lald_known_clients" not in inspect(engine).get_table_names()
    assert "failed_logins" not in columns(engine, "lald_accounts")
    assert rows(engine, "SELECT name FROM lald_accounts") == [("Held",)]
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM lald_accounts"))
    migrate(engine, "downgrade", "0003")  # the leases go; the tables and their data stay
    assert "lald_leases" not in inspect(engine).get_table_names()
    assert rows(engine, "SELECT value FROM lald_meta WHERE key = 'schema'") == [("2",)]
    assert sorted(rows(engine, "SELECT id, status FROM lald_tables")) == [
        ("new1", "waiting"), ("old1", "playing")]
    # Written at 0003: an account, its session, a chat line and a rating; down to 0002,
    # they go with their tables (the seats and actions stay).
    write_version_3(engine)
    migrate(engine, "downgrade", "0002")
    assert "lald_accounts" not in inspect(engine).get_table_names()
    assert "account" not in columns(engine, "lald_seats")
    assert len(rows(engine, "SELECT * FROM lald_seats")) == 4
    migrate(engine, "downgrade", "0001")
    assert columns(engine, "lald_tables") == {"id", "created", "config", "seed", "deals_started", "status"}
    assert "generation" not in columns(engine, "lald_seats")
    assert "lald_meta" not in inspect(engine).get_table_names()
    # The table dealt from its secret is closed (version 1 would deal it from its seed);
    # the practice table plays on; digests stay digests (they cannot be turned back).
    assert sorted(rows(engine, "SELECT id, status FROM lald_tables")) == [
        ("new1", "closed"), ("old1", "playing")]
    assert (token_hash(PLAIN[0] + "old1"),) in rows(engine, "SELECT token FROM lald_seats")
    assert len(rows(engine, "SELECT * FROM lald_actions")) == 2

    migrate(engine, "upgrade", HEAD)  # and up again: the schema is whole
    assert schema_differences(engine) == []
    assert len(rows(engine, "SELECT * FROM lald_seats")) == 4
    migrate(engine, "downgrade", "base")
    assert set(inspect(engine).get_table_names()) <= {VERSION_TABLE}
    engine.dispose()


def test_a_fresh_database_is_created_at_the_newest_revision(db_url: str) -> None:
    store = Store(db_url)
    assert store.upgraded == Upgrade(None, HEAD)
    store.close()
    engine = create_engine(db_url)
    assert schema_differences(engine) == []
    assert rows(engine, f"SELECT version_num FROM {VERSION_TABLE}") == [(HEAD,)]
    engine.dispose()
    found = status(db_url)
    assert (found.revision, found.stamped, found.schema, found.state) == (HEAD, True, SCHEMA, "current")


def test_a_version_1_database_from_before_alembic_is_brought_to_the_newest(db_url: str) -> None:
    engine = version_1_from_before_alembic(db_url)
    assert status(db_url).describe().startswith("revision 0001 (schema version 1), from before")
    with pytest.raises(OlderDatabase, match=f"revision 0001 .* older than this lald's {HEAD}") as refused:
        Store(db_url, upgrade=False)
    assert "\n" not in str(refused.value)
    assert VERSION_TABLE not in inspect(engine).get_table_names()  # refused: untouched

    if db_url.startswith("sqlite"):
        store = Store(db_url)  # a SQLite file is upgraded on opening, after a backup
    else:
        with pytest.raises(OlderDatabase):
            Store(db_url)  # a shared database only when asked
        store = Store(db_url, upgrade=True)
    store.close()
    assert store.upgraded is not None and (store.upgraded.before, store.upgraded.after) == ("0001", HEAD)
    assert sorted(rows(engine, "SELECT table_id, seat, token FROM lald_seats")) == [
        (t, s, token_hash(PLAIN[s] + t)) for t in ("old1", "old2") for s in range(3)]
    assert rows(engine, f"SELECT version_num FROM {VERSION_TABLE}") == [(HEAD,)]
    assert schema_differences(engine) == []
    backup = store.upgraded.backup
    if db_url.startswith("sqlite"):
        # The file as it was, beside it: version 1, its tokens in the clear.
        assert backup is not None and backup.parent == Path(db_url.removeprefix("sqlite:///")).parent
        assert backup.name in store.upgraded.describe(db_url)
        old = create_engine(f"sqlite:///{backup}")
        assert (PLAIN[0] + "old1",) in rows(old, "SELECT token FROM lald_seats")
        assert "lald_meta" not in inspect(old).get_table_names()
        old.dispose()
    else:
        assert backup is None
    again = Store(db_url, upgrade=False)  # at the newest: opening again changes nothing
    assert again.upgraded is None and len(again.load_tables()) == 2
    again.close()
    engine.dispose()


def test_a_version_2_database_from_before_alembic_is_stamped_then_upgraded(db_url: str) -> None:
    engine = create_engine(db_url)
    migrate(engine, "upgrade", "0002")
    with engine.begin() as conn:  # as lald made it before Alembic: no record of the revision
        conn.execute(text(f"DROP TABLE {VERSION_TABLE}"))
        write_version_2(conn, "t2", "cd" * 32, None, None, 0)
    found = status(db_url)
    assert (found.revision, found.stamped, found.state) == ("0002", False, "older")
    with pytest.raises(OlderDatabase, match=f"revision 0002 .* older than this lald's {HEAD}"):
        Store(db_url, upgrade=False)
    store = Store(db_url, upgrade=True)  # stamped as 0002, then brought to the newest
    assert store.upgraded is not None and (store.upgraded.before, store.upgraded.after) == ("0002", HEAD)
    [table] = store.load_tables()
    assert table.secret == "cd" * 32
    assert table.seats[0].token_hash == token_hash("seat" + "t2")  # not hashed again
    store.close()
    assert rows(engine, f"SELECT version_num FROM {VERSION_TABLE}") == [(HEAD,)]
    assert schema_differences(engine) == []
    engine.dispose()


def newer(url: str, how: str) -> None:
    """Make the database at ``url`` look written by a later lald."""
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        if how == "revision":
            conn.execute(text(f"UPDATE {VERSION_TABLE} SET version_num = '0099'"))
        else:
            conn.execute(text("UPDATE lald_meta SET value = :v WHERE key = 'schema'"), {"v": str(SCHEMA + 1)})
    engine.dispose()


@pytest.mark.parametrize("how", ["revision", "schema"])
def test_a_newer_database_is_refused_in_one_line(db_url: str, how: str) -> None:
    newer(db_url, how)
    for upgrade in (None, True, False):
        with pytest.raises(NewerDatabase) as refused:
            Store(db_url, upgrade=upgrade)
        message = str(refused.value)
        assert "\n" not in message and f"this lald knows revisions up to {HEAD}" in message
        assert ("revision 0099" if how == "revision"
                else f"schema version {SCHEMA + 1} (revision {HEAD})") in message
    assert status(db_url).state == "newer"


def lald(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lald", *args], capture_output=True, text=True, timeout=60,
                          env=os.environ | {"PYTHONPATH": str(SRC), "PYTHONWARNINGS": ""})


def test_lald_db_current_and_upgrade(db_url: str) -> None:
    version_1_from_before_alembic(db_url).dispose()
    done = lald("db", "current", "--db", db_url)
    assert done.returncode == 0 and done.stderr == ""
    assert "revision 0001 (schema version 1), from before migrations were recorded" in done.stdout
    assert f"older than this lald's {HEAD}" in done.stdout
    done = lald("db", "upgrade", "--db", db_url)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    [line] = done.stdout.splitlines()
    assert line.startswith("lald: upgraded the database") and f"from revision 0001 to {HEAD}" in line
    assert ("the file as it was is kept as" in line) == db_url.startswith("sqlite")
    done = lald("db", "current", "--db", db_url)
    assert done.returncode == 0
    assert f"revision {HEAD} (schema version {SCHEMA}): the newest this lald knows" in done.stdout
    done = lald("db", "upgrade", "--db", db_url)
    assert done.returncode == 0 and f"at revision {HEAD} already" in done.stdout
    store = Store(db_url, upgrade=False)
    assert {s.token_hash for t in store.load_tables() for s in t.seats} == {
        token_hash(PLAIN[s] + t) for t in ("old1", "old2") for s in range(3)}
    store.close()


def test_lald_db_mistakes_are_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    newer(url, "revision")
    for args, status_, words in [
        (["db", "upgrade", "--db", url], 1, "revision 0099, newer than this lald"),
        (["db", "current", "--db", "nope://x"], 1, "'nope://x' is not a database URL"),
        (["db", "upgrade", "--db", "postgresql+psycopg://someone:hunter2@127.0.0.1:1/x"], 1,
         "cannot open the database"),
        (["db", "upgrade", "--db", f"sqlite:///{tmp_path / 'no' / 'x.db'}"], 1, "cannot open the database"),
        (["db"], 2, "lald db"),
        (["db", "downgrade"], 2, "the commands are current, upgrade"),
        (["db", "current", "--frob"], 2, "unrecognized arguments: --frob"),
    ]:
        done = lald(*args)
        assert done.returncode == status_, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and words in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr and "hunter2" not in done.stderr


def test_lald_serve_refuses_a_newer_or_unasked_older_database(tmp_path: Path, postgres: Any) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    newer(url, "revision")
    done = lald("serve", "--db", url, "--port", "1")
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and done.stdout == ""
    assert f"revision 0099, newer than this lald: this lald knows revisions up to {HEAD}" in done.stderr
    shared = postgres.database()
    version_1_from_before_alembic(shared).dispose()
    done = lald("serve", "--db", shared, "--port", "1")
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and done.stdout == ""
    assert f"older than this lald's {HEAD}" in done.stderr and "lald serve --upgrade" in done.stderr
    assert status(shared).revision == "0001"


def test_lald_serve_upgrade_upgrades_a_shared_database(postgres: Any,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from lald.cli.host.serve import check_database

    shared = postgres.database()
    version_1_from_before_alembic(shared).dispose()
    check_database(shared, upgrade=True)  # what lald serve --upgrade does before serving
    assert f"from revision 0001 to {HEAD}" in capsys.readouterr().out
    assert status(shared).revision == HEAD


def test_two_migrators_at_once_upgrade_the_database_once(db_url: str) -> None:
    version_1_from_before_alembic(db_url).dispose()
    start = threading.Barrier(2)
    held: list[str] = []
    results: list[Upgrade | None | BaseException] = []

    def run(name: str) -> None:
        engine = create_engine(db_url)  # an engine each, as two servers would have

        def holding() -> None:
            held.append(name)
            time.sleep(0.5)  # long enough for the other to be waiting on the lock

        try:
            start.wait()
            results.append(prepare(engine, db_url, True, before_migrating=holding))
        except BaseException as e:  # noqa: B036 - reported below
            results.append(e)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=run, args=(n,)) for n in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(held) == ["a", "b"]  # both reached the lock, one after the other
    assert not [r for r in results if isinstance(r, BaseException)], results
    upgrades = [r for r in results if r is not None]
    assert len(upgrades) == 1 and isinstance(upgrades[0], Upgrade) and upgrades[0].before == "0001"
    engine = create_engine(db_url)
    assert sorted(rows(engine, "SELECT table_id, seat, token FROM lald_seats")) == [
        (t, s, token_hash(PLAIN[s] + t)) for t in ("old1", "old2") for s in range(3)]  # hashed once
    assert rows(engine, f"SELECT version_num FROM {VERSION_TABLE}") == [(HEAD,)]
    assert rows(engine, "SELECT key, value FROM lald_meta") == [("schema", str(SCHEMA))]
    engine.dispose()
    if db_url.startswith("sqlite"):
        assert len(list(Path(db_url.removeprefix("sqlite:///")).parent.glob("*.bak"))) == 1


def test_the_digest_of_revision_0002_is_the_stores() -> None:
    # The revision writes its digest out rather than import it: the two must agree.
    script = ScriptDirectory.from_config(alembic_config(None))  # type: ignore[arg-type]
    digest = script.get_revision("0002").module._digest
    for token in ("x" * 22, "é\udc80", ""):
        assert digest(token) == token_hash(token)
    assert token_hash("abc") == hashlib.sha256(b"abc").hexdigest()


def test_store_error_is_the_base_of_the_refusals() -> None:
    assert issubclass(OlderDatabase, StoreError) and issubclass(NewerDatabase, StoreError)


def test_two_lald_db_upgrades_started_together_upgrade_once(db_url: str) -> None:
    version_1_from_before_alembic(db_url).dispose()
    env = os.environ | {"PYTHONPATH": str(SRC), "PYTHONWARNINGS": ""}
    runs = [subprocess.Popen([sys.executable, "-m", "lald", "db", "upgrade", "--db", db_url], text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for _ in range(2)]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    lines = sorted(out for out, _ in outputs)
    assert f"at revision {HEAD} already" in lines[0] and f"from revision 0001 to {HEAD}" in lines[1], lines
    engine = create_engine(db_url)
    assert sorted(rows(engine, "SELECT table_id, seat, token FROM lald_seats")) == [
        (t, s, token_hash(PLAIN[s] + t)) for t in ("old1", "old2") for s in range(3)]
    assert rows(engine, f"SELECT version_num FROM {VERSION_TABLE}") == [(HEAD,)]
    engine.dispose()
