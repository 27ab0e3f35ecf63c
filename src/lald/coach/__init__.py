"""The coach, for a player learning the game: the guided first deal, the hint at a
decision, the review of a finished deal, and their words in every catalog language.

The terminal table (:mod:`lald.tui`) and the web table (:mod:`lald.web`) both show what
is made here, so neither re-implements it. It may import the core, the bots, records, the
catalogs and :mod:`lald.play`; never another capability (:mod:`lald.tournament`,
:mod:`lald.lab`) nor a face. ``lald review`` is :mod:`lald.cli.review`.

- :mod:`.lesson`: the teaching deal and its scripted seats;
- :mod:`.hints`: the strongest bot's advice at one seat's decision, as data;
- :mod:`.review`: the expert's verdict on every decision a seat made, and (:mod:`.reasons`)
  why the best choice was better;
- :mod:`.words`: a review in sentences and as JSON.
"""
