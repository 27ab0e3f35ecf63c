"""Migration figure: the upgrade from revision 0001 (schema version 1) to this lald's, of a
database of TABLES finished tables (five seats with their tokens in the clear, twenty
actions each), timed from opening the store to its return (a figure, not a test).

    .venv/bin/python bench/migrate.py --tables 10000                 # a SQLite file
    .venv/bin/python bench/migrate.py --tables 10000 --db postgresql+psycopg://lald@/empty
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time

from alembic import command
from sqlalchemy import create_engine, text

import machine
from lald.store import Store
from lald.store.migrate import VERSION_TABLE, alembic_config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--db", default=None, help="an empty database (default: a new SQLite file)")
    args = parser.parse_args()
    url = args.db or f"sqlite:///{tempfile.mkdtemp(prefix='lald-migrate-')}/lald.db"
    n = args.tables
    engine = create_engine(url)
    config = json.dumps({"rules": {"preset": "survivor", "players": 5}})
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0001")
        conn.execute(text(f"DROP TABLE {VERSION_TABLE}"))  # as before Alembic
        conn.execute(text("INSERT INTO lald_tables VALUES (:i, 1.0, :c, :s, 1, 'over')"),
                     [{"i": f"t{i}", "c": config, "s": i} for i in range(n)])
        conn.execute(text("INSERT INTO lald_seats VALUES (:t, :s, :k, true, 'random', NULL, true)"),
                     [{"t": f"t{i}", "s": s, "k": f"token-{i}-{s}-of-an-old-table"}
                      for i in range(n) for s in range(5)])
        conn.execute(text("INSERT INTO lald_actions (table_id, deal, seq, action, source, at) "
                          "VALUES (:t, 0, :q, '{}', 'bot', 1.0)"),
                     [{"t": f"t{i}", "q": q} for i in range(n) for q in range(20)])
    engine.dispose()
    start = time.perf_counter()
    store = Store(url, upgrade=True)
    took = time.perf_counter() - start
    store.close()
    print(machine.line())
    print(f"{url.split(':')[0]}: {n} finished tables upgraded in {took:.2f} s ({store.upgraded})")


if __name__ == "__main__":
    main()
