"""Schema version 2: tokens kept as their SHA-256 digests; tables' secrets, hosts, activity.

Upgrade (the data converted, in the migration's one transaction):

- every seat's token is replaced by its SHA-256 digest (hexadecimal), so the links
  already handed out keep working and the database no longer holds them;
- ``lald_tables`` gains ``secret`` (NULL: every old table was dealt from its seed, which
  its published records gave away, so it becomes a practice table), ``host`` (the digest
  of the host's token; NULL, the old tables have no host, indexed) and ``active_at``
  (set to the time of the upgrade, so no old table is closed as idle at once);
- ``lald_seats`` gains ``generation`` (0: no link was reissued);
- ``lald_writers`` is created if the database is older than it (the first releases);
- ``lald_meta`` is created, holding ``schema`` = 2, the one row a lald from before
  Alembic reads.

Downgrade (cannot restore everything; what it does instead):

- tokens stay digests: a digest cannot be turned back into its token, so every link
  handed out stops working under version 1 (which compares the token itself); the
  digests are kept rather than replaced, no two seats share one;
- a table dealt from its secret cannot be played by version 1, which deals every table
  from its seed: the secret is dropped with its column, and such a table still waiting
  or playing is set to ``closed`` (its seats and actions are kept), so version 1 never
  replays it on the wrong deal; practice tables are untouched and play on;
- ``host``, ``active_at``, ``generation`` and ``lald_meta`` are dropped.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import hashlib
import time

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

tables = sa.table("lald_tables", sa.column("id", sa.String), sa.column("status", sa.String),
                  sa.column("secret", sa.String), sa.column("active_at", sa.Float))
seats = sa.table("lald_seats", sa.column("table_id", sa.String), sa.column("seat", sa.Integer),
                 sa.column("token", sa.String))
meta = sa.table("lald_meta", sa.column("key", sa.String), sa.column("value", sa.String))


def _digest(token: str) -> str:
    # Written out here, not imported: a revision must convert as it did when it was written.
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def upgrade() -> None:
    conn = op.get_bind()
    if "lald_writers" not in sa.inspect(conn).get_table_names():
        op.create_table("lald_writers", sa.Column("id", sa.String(32), primary_key=True),
                        sa.Column("batch", sa.BigInteger, nullable=False))
    op.add_column("lald_tables", sa.Column("secret", sa.String(64), nullable=True))
    op.add_column("lald_tables", sa.Column("host", sa.String(64), nullable=True))
    op.add_column("lald_tables", sa.Column("active_at", sa.Float, nullable=True))
    op.create_index("ix_lald_tables_host", "lald_tables", ["host"])
    op.add_column("lald_seats", sa.Column("generation", sa.Integer, nullable=False, server_default="0"))
    conn.execute(tables.update().values(active_at=time.time()))
    rows = conn.execute(sa.select(seats.c.table_id, seats.c.seat, seats.c.token)).all()
    if rows:
        conn.execute(
            seats.update().where(seats.c.table_id == sa.bindparam("t"), seats.c.seat == sa.bindparam("s"))
            .values(token=sa.bindparam("h")),
            [{"t": t, "s": s, "h": _digest(token)} for t, s, token in rows])
    op.create_table("lald_meta", sa.Column("key", sa.String(32), primary_key=True),
                    sa.Column("value", sa.String(64), nullable=False))
    conn.execute(meta.insert().values(key="schema", value="2"))


def downgrade() -> None:
    conn = op.get_bind()
    conn.execute(tables.update().where(tables.c.secret.is_not(None),
                                       tables.c.status.in_(["waiting", "playing"]))
                 .values(status="closed"))
    op.drop_table("lald_meta")
    with op.batch_alter_table("lald_seats") as batch:
        batch.drop_column("generation")
    with op.batch_alter_table("lald_tables") as batch:
        batch.drop_index("ix_lald_tables_host")
        batch.drop_column("active_at")
        batch.drop_column("host")
        batch.drop_column("secret")
