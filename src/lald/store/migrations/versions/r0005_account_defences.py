"""Schema version 3, revision 0005: what defends an account (issue 30).

Upgrade (adds; converts nothing):

- ``lald_accounts`` gains ``failed_logins`` (wrong passwords given for it since its last
  login, told to its owner at the next one; 0);
- ``lald_sessions`` gains ``wrong_passwords`` (wrong passwords given through this session
  when changing the password or deleting the account; at five the session ends; 0);
- ``lald_known_clients``: the browsers (a device cookie's digest) and addresses (a digest of
  the account and the address) an account has logged in from, which the per-name limit on
  failed logins does not hold back;
- ``lald_name_holds``: the lookalike keys of deleted accounts' names, kept from everyone
  until a date.

Downgrade: drops the new tables and columns (no game's data).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("lald_accounts") as batch:
        batch.add_column(sa.Column("failed_logins", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("lald_sessions") as batch:
        batch.add_column(sa.Column("wrong_passwords", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "lald_known_clients",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("lald_accounts.id"), primary_key=True),
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False))
    op.create_table(
        "lald_name_holds",
        sa.Column("skeleton", sa.String(255), primary_key=True),
        sa.Column("until", sa.Float, nullable=False))


def downgrade() -> None:
    op.drop_table("lald_name_holds")
    op.drop_table("lald_known_clients")
    with op.batch_alter_table("lald_sessions") as batch:
        batch.drop_column("wrong_passwords")
    with op.batch_alter_table("lald_accounts") as batch:
        batch.drop_column("failed_logins")
