"""Schema version 1, the baseline: tables, seats (tokens in the clear), actions, writers.

This is the schema lald had before it kept a schema version. A database of that time (it
has ``lald_tables`` but no ``lald_meta``) is stamped with this revision, then upgraded.

Downgrade: drops every table, and with them every row (there is nothing before this).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lald_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("deals_started", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False))
    op.create_index("ix_lald_tables_status", "lald_tables", ["status"])
    op.create_table(
        "lald_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("lald_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("token", sa.String(64), nullable=False, unique=True),
        sa.Column("human", sa.Boolean, nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("joined", sa.Boolean, nullable=False))
    op.create_table(
        "lald_actions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("lald_tables.id"), nullable=False),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", "deal", "seq"))
    op.create_index("ix_lald_actions_table_id", "lald_actions", ["table_id"])
    op.create_table(
        "lald_writers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("batch", sa.BigInteger, nullable=False))


def downgrade() -> None:
    op.drop_table("lald_writers")
    op.drop_table("lald_actions")
    op.drop_table("lald_seats")
    op.drop_table("lald_tables")
