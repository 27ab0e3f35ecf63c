"""The laboratory in the browser: two readings compared on the same deals by
:mod:`lald.lab`, in a worker process, for the ``/readings`` page.

- :mod:`.work`: a request checked and named, and what the worker computes (the readings'
  measuring loop, summary and report);
- :mod:`.jobs`: the queue, the bounds on what a visitor may ask, the worker process and the
  comparisons kept.

It stands on the web's base and :mod:`lald.lab`; the endpoints are
:mod:`lald.web.server.readings`.
"""
