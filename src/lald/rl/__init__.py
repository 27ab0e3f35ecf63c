"""Research adapters: PettingZoo, Gymnasium and OpenSpiel on one shared encoding.

An optional extra (``pip install 'lald[rl]'``); nothing else in lald imports it. A face, for
researchers: it may import the core, the bots and :mod:`lald.play`; never another face.

- :mod:`lald.rl.encoding`: the action IDs, the observation and the legal mask;
- :mod:`lald.rl.deal`: a deal as one-seat decisions, with the claim window;
- :mod:`lald.rl.pettingzoo`: the AEC environment (``env()``, ``raw_env()``);
- :mod:`lald.rl.gymnasium`: one seat against :mod:`lald.bots`, registered as ``lald/Seat-v0``;
- :mod:`lald.rl.openspiel`: the OpenSpiel game ``python_lald``, its resampler and ISMCTS as a bot;
- :mod:`lald.rl.policy`: any policy on (observation, mask) as a bot level;
- :mod:`lald.rl.vector`: N tables stepped in one call (self-play, and Gymnasium's
  ``VectorEnv`` for the one-seat task), compiled in ``lald.rl._vector`` with the pure
  tables of :mod:`lald.rl.vecpy` as reference and fallback.
- :mod:`lald.rl.learned`: the ``learned`` level, a trained action-value network in numpy;
- :mod:`lald.rl.selfplay`: the self-play actors that collect its training records (numpy);
- :mod:`lald.rl.train`: ``lald train``, the learner (PyTorch, the ``train`` extra);
- :mod:`lald.rl.benchmark`: the version in the environments' ids and its fingerprint.

See ``docs/research.md``.
"""
