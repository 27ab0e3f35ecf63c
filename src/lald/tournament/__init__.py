"""Duplicate tournaments of bots, for whoever asks which player is stronger: deals replayed
with the bots rotated through the seats, their results with 95% intervals, and the report.

It may import the core, the bots, :mod:`lald.play` and :mod:`lald.stats`; never another
capability (:mod:`lald.lab`, :mod:`lald.coach`) nor a face. ``lald tournament`` is
:mod:`lald.cli.tournament`, ``lald eval`` :mod:`lald.cli.eval`.

- :mod:`.duplicate`: :class:`Tournament`, its deal groups, its resumable run;
- :mod:`.report`: strength per bot, decision times and fallbacks, as a table, JSON, CSV and a plot;
- :mod:`.evaluate`: the standard evaluation of one agent against the ladder (``lald eval``).
"""

from .duplicate import Tournament, run

__all__ = ["Tournament", "run"]
