"""Schema version 3, revision 0006: an account's consent to be named in the site's
public dataset of finished games (issue 33, ``lald db export-games``).

Upgrade (adds; converts nothing):

- ``lald_accounts`` gains ``share_name`` (whether the account agreed that its name be
  given beside its seat in the exported games; false, so that no account that has not
  said so is ever named).

Downgrade: drops the column (no game's data).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("lald_accounts") as batch:
        batch.add_column(sa.Column("share_name", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("lald_accounts") as batch:
        batch.drop_column("share_name")
