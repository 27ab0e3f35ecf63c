"""The readings laboratory, for historians: what each reading of the old texts does to the
game, measured on the same deals under every reading, and the report that says it.

It may import the core, the bots, :mod:`lald.play` and :mod:`lald.stats`; never another
capability (:mod:`lald.tournament`, :mod:`lald.coach`) nor a face. ``lald readings`` is
:mod:`lald.cli.readings`.

- :mod:`.reading`: a reading written short (``last-capture+silent/4``) and parsed;
- :mod:`.measure`: the plan of deals and tables, and what is counted in each deal;
- :mod:`.experiment`: playing a plan on many workers, resumable, and its results as files;
- :mod:`.analysis`: every measurement with its interval, and paired differences;
- :mod:`.summary`: all of it as plain data (``summary.json``);
- :mod:`.report`: the report for a reader, in HTML and Markdown with its plots.
"""

from .experiment import run

__all__ = ["run"]
