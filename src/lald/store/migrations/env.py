"""Alembic's environment for the store: online only, on the connection that
:mod:`lald.store.migrate` hands it (already in a transaction, and holding the migration
lock), so that every revision of one upgrade is committed together, or none."""

from __future__ import annotations

from alembic import context

from lald.store.migrate import VERSION_TABLE


def run() -> None:
    """Run the migrations Alembic was asked for."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, version_table=VERSION_TABLE, transaction_per_migration=False)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # run by Alembic (not merely imported, as by the doctests)
    run()
