"""The store's schema migrations, run by Alembic: ``env.py`` and one module a revision
under ``versions/``, configured in :mod:`lald.store.migrate` (no ``alembic.ini``).

A new revision must also set ``schema`` in ``lald_meta`` to its schema version, so that a
lald from before Alembic, which reads only that row, refuses the database too; and
:data:`lald.store.HEAD` and :data:`lald.store.REVISIONS` must name it (a test checks them
against this folder).
"""
