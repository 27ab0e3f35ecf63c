"""Research adapters: PettingZoo, Gymnasium and OpenSpiel on one shared encoding.

An optional extra (``pip install 'lald[rl]'``); nothing else in lald imports it. A face, for
researchers: it may import the core, the bots and :mod:`lald.play`; never another face.
Its parts, each on the ones before it (``tests/test_layers.py`` holds them to it):

- :mod:`lald.rl.deal`: a deal as one-seat decisions, with the claim window, and the
  environments' rules and rewards;
- :mod:`lald.rl.vector`: N tables stepped in one call (self-play, and Gymnasium's
  ``VectorEnv`` for the one-seat task), compiled in ``lald.rl.vector._vector`` with the
  pure tables of :mod:`lald.rl.vector.vecpy` as reference and fallback;
- :mod:`lald.rl.adapters`: PettingZoo, Gymnasium, OpenSpiel (and ISMCTS as a bot), text;
- :mod:`lald.rl.training`: the self-play actors and ``lald train``, the learner;
- :mod:`lald.rl.benchmark`: the version in the environments' ids and its fingerprint.

The observation encoding and the levels that play what was learned (``learned``,
``guided``, ``policy``) are players: :mod:`lald.bots.learned`. See ``docs/research.md``.
"""
