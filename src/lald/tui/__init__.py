"""The terminal card table: ``lald play`` (Textual), ``--plain`` and ``--online``.

At the root, what every way of playing at a terminal shares: :mod:`.game` drives a
session with people and bots at one table (:mod:`.lesson` the guided first deal,
:mod:`.hints` the hint key); :mod:`.words` turns the engine's views into the table's words
(all from :mod:`lald.i18n`); :mod:`.store` saves, resumes and exports. On it, neither on
the other (``tests/test_layers.py``): :mod:`.fullscreen`, the Textual table, and
:mod:`.text`, the tables as lines of text (``--plain`` for screen readers, pipes and
scripts; ``--online``, a seat of a web table).

A face, for players at a terminal: it may import the core, the bots, records, the
catalogs, :mod:`lald.narrate`, :mod:`lald.play` and :mod:`lald.coach` (the lesson, hints
and review it shows); never another face (:mod:`lald.web`, :mod:`lald.rl`). ``lald play``
is :mod:`lald.cli.play`.
"""
