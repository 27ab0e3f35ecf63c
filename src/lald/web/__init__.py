"""Play online: the ``lald serve`` web service (Starlette under uvicorn, websockets,
a static front end of plain ES modules, SQLAlchemy persistence).

Heavy imports stay in :mod:`lald.web.app`, so ``import lald.web`` is cheap.
"""
