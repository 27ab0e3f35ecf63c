"""Play online: the ``lald serve`` web service (Starlette under uvicorn, websockets,
a static front end of plain ES modules, SQLAlchemy persistence).

A face, for players in a browser: it may import the core, the bots, records, the catalogs,
:mod:`lald.narrate`, :mod:`lald.play`, :mod:`lald.coach` and :mod:`lald.store`; never
another face (:mod:`lald.tui`, :mod:`lald.rl`). ``lald serve`` is :mod:`lald.cli.serve`.

- :mod:`.app`: the ASGI application, its HTTP API and the guard in front of it;
- :mod:`.hub`: the registry of live tables, the lobby's table factory, hosts;
- :mod:`.protocol`: the websocket messages a page may send, each checked;
- :mod:`.conn`: one page's websocket; :mod:`.tables`: one live table and its driver;
- :mod:`.wire`: what goes on the wire, both ways; :mod:`.settings`: the server's settings and rate limits;
- :mod:`.journal`: committing writes before anyone is told; :mod:`.hints`, :mod:`.lesson`,
  :mod:`.reviews`, :mod:`.replay`: the coach's work at a web table;
- where strangers meet: :mod:`.lobby` (public tables, Play now, the live list and its
  publish/subscribe seam), :mod:`.chat` (the table chat and the laugh), :mod:`.accounts`
  and :mod:`.names` (accounts, sessions, CSRF, lookalike names), :mod:`.ratings`
  (OpenSkill), :mod:`.community` (their endpoints); :mod:`.http`: what the endpoints share.

Heavy imports stay in :mod:`lald.web.app`, so ``import lald.web`` is cheap.
"""
