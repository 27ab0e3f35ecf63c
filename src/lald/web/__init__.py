"""Play online: the ``lald serve`` web service (Starlette under uvicorn, websockets,
a static front end of plain ES modules, SQLAlchemy persistence).

A face, for players in a browser: it may import the core, the bots, records, the catalogs,
:mod:`lald.narrate`, :mod:`lald.play`, :mod:`lald.coach` and :mod:`lald.store`; never
another face (:mod:`lald.tui`, :mod:`lald.rl`). ``lald serve`` is :mod:`lald.cli.host.serve`.

Its sub-packages, by what they serve, each importing only those above it in this list
(``tests/test_layers.py`` holds them to it):

- the base every part stands on: :mod:`.settings` (the server's settings and rate limits),
  :mod:`.ops` (logs, metrics, fail points), :mod:`.wire` (what goes on the wire, both ways),
  :mod:`.endpoint` (what every HTTP endpoint shares: a refusal in words, the JSON body);
- :mod:`.table`, the live table: one table and its driver (:mod:`.table.tables`), its seats
  and who is at them (:mod:`.table.seats`), what each page is told of it
  (:mod:`.table.frames`), one page's websocket (:mod:`.table.conn`), committing writes
  before anyone is told (:mod:`.table.journal`), the chat and the laugh (:mod:`.table.chat`),
  a new table's request checked (:mod:`.table.create`), and the coach's work at a web table
  (:mod:`.table.hints`, :mod:`.table.lesson`, :mod:`.table.reviews`, :mod:`.table.replay`);
- :mod:`.people`, where strangers meet: the registry of live tables and hosts
  (:mod:`.people.hub`), the public lobby (:mod:`.people.lobby`), accounts and lookalike names
  (:mod:`.people.accounts`, :mod:`.people.names`), ratings (:mod:`.people.ratings`);
- :mod:`.readings`, the readings laboratory in the browser: a comparison asked for, checked
  and played by :mod:`lald.lab` in a worker process (:mod:`.readings.work`), the queue,
  the bounds on what a visitor may ask and the comparisons kept (:mod:`.readings.jobs`);
- :mod:`.site`, a site of several servers: one server of several (:mod:`.site.cluster`),
  its writes under the lease (:mod:`.site.leased`), the others' tables and the lobby across
  servers (:mod:`.site.remote`), the servers' channel (:mod:`.site.events`), the proxy in
  front (:mod:`.site.proxy`);
- :mod:`.server`, the one server's HTTP face: the ASGI application (:mod:`.server.app`)
  and the guard in front of it (:mod:`.server.guard`), what the endpoints share
  (:mod:`.server.http`), the community's endpoints (:mod:`.server.community`), the
  laboratory's (:mod:`.server.readings`), the websocket messages (:mod:`.server.protocol`),
  the OpenAPI document (:mod:`.server.openapi`).

The pages, scripts and styles are ``static/``. Heavy imports stay in
:mod:`lald.web.server.app`, so ``import lald.web`` is cheap.
"""
