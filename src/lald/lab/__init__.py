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
- :mod:`.report`: the report for a reader, in HTML and Markdown with its plots;
- :mod:`.sources`: where every rule of every reading comes from.
"""

from __future__ import annotations

from typing import Any

__all__ = ["run"]


def __getattr__(name: str) -> Any:
    # run plays deals on many workers: its imports wait until it is asked for, so that
    # `lald readings --help` (which reads .sources) stays quick
    if name == "run":
        from .experiment import run

        return run
    raise AttributeError(name)
