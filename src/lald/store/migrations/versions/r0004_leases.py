"""Schema version 3: leases, which server holds each live table (several servers over one
PostgreSQL database, :mod:`lald.store.leases`).

Upgrade: adds ``lald_leases`` (empty: the servers take their tables when they start).

Downgrade: drops ``lald_leases``; nothing else changes (a lease is no game's data, and
one server alone needs none).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

meta = sa.table("lald_meta", sa.column("key", sa.String), sa.column("value", sa.String))


def upgrade() -> None:
    op.create_table(
        "lald_leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("lald_tables.id"), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("route", sa.String(64), nullable=False),
        sa.Column("lock_key", sa.Integer, nullable=False),
        sa.Column("expires", sa.Float, nullable=False))
    op.create_index("ix_lald_leases_owner", "lald_leases", ["owner"])
    op.get_bind().execute(meta.update().where(meta.c.key == "schema").values(value="3"))


def downgrade() -> None:
    op.drop_index("ix_lald_leases_owner", "lald_leases")
    op.drop_table("lald_leases")
    op.get_bind().execute(meta.update().where(meta.c.key == "schema").values(value="2"))
