"""Accounts, sessions, the table chat, ratings (issue 24).

Upgrade (adds; converts nothing):

- ``lald_seats`` gains ``account`` (the account that plays the seat; NULL for a guest or
  a bot, as every existing seat) and ``erased`` (its account was deleted: its records
  stay, under "deleted player"; false);
- ``lald_accounts``: a name as shown, its lookalike key (``skeleton``, unique: NFKC, case
  folded, Unicode's confusables mapped), the argon2id hash of the password, when made;
- ``lald_sessions``: the SHA-256 digest of a session's cookie, its account, its CSRF
  token, when made and last used;
- ``lald_chat``: every chat line and laugh of a table, with the deal and the number of
  actions it came after (so a replay shows it in its place), who said it (seat or
  spectator, name, account);
- ``lald_ratings`` (an account's OpenSkill rating per reading), ``lald_rating_events``
  (each rated session's rating after it, for the profile's history) and ``lald_rated``
  (the tables whose ratings are applied, so none is applied twice).

Downgrade: drops the new tables and columns, and with them every account, session, chat
line and rating (tables, seats and actions stay as they are).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("lald_seats") as batch:
        batch.add_column(sa.Column("account", sa.Integer, nullable=True))
        batch.add_column(sa.Column("erased", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.create_index("ix_lald_seats_account", ["account"])
    op.create_table(
        "lald_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("skeleton", sa.String(255), nullable=False, unique=True),
        sa.Column("password", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False))
    op.create_table(
        "lald_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("lald_accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False))
    op.create_index("ix_lald_sessions_account_id", "lald_sessions", ["account_id"])
    op.create_table(
        "lald_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("lald_tables.id"), nullable=False),
        sa.Column("deal", sa.Integer, nullable=False),
        sa.Column("after", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False))
    op.create_index("ix_lald_chat_table_id", "lald_chat", ["table_id"])
    op.create_index("ix_lald_chat_account_id", "lald_chat", ["account_id"])
    op.create_table(
        "lald_ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("lald_accounts.id"), primary_key=True),
        sa.Column("reading", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False))
    op.create_index("ix_lald_ratings_reading", "lald_ratings", ["reading"])
    op.create_table(
        "lald_rating_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("lald_accounts.id"), nullable=False),
        sa.Column("reading", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False))
    op.create_index("ix_lald_rating_events_account_id", "lald_rating_events", ["account_id"])
    op.create_table(
        "lald_rated",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("at", sa.Float, nullable=False))


def downgrade() -> None:
    op.drop_table("lald_rated")
    op.drop_table("lald_rating_events")
    op.drop_table("lald_ratings")
    op.drop_table("lald_chat")
    op.drop_table("lald_sessions")
    op.drop_table("lald_accounts")
    with op.batch_alter_table("lald_seats") as batch:
        batch.drop_index("ix_lald_seats_account")
        batch.drop_column("erased")
        batch.drop_column("account")
