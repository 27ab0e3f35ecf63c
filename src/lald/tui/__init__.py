"""The terminal card table: ``lald play`` (Textual) and ``lald play --plain``.

:mod:`.game` drives a session with people and bots at one table; :mod:`.words` turns the
engine's views into the table's words (all from :mod:`lald.i18n`); :mod:`.app` (the
Textual app), :mod:`.table` (the table's screen and its turn loop), :mod:`.screens` and
:mod:`.widgets` are the full-screen table; :mod:`.plain` is the text table for screen
readers, pipes and scripts; :mod:`.store` saves, resumes and exports.

A face, for players at a terminal: it may import the core, the bots, records, the
catalogs, :mod:`lald.narrate`, :mod:`lald.play` and :mod:`lald.coach` (the lesson, hints
and review it shows); never another face (:mod:`lald.web`, :mod:`lald.rl`). ``lald play``
is :mod:`lald.cli.play`.
"""
