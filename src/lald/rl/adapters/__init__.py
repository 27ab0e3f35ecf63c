"""The research adapters, each a library's interface on a :class:`lald.rl.deal.Deal`:

- :mod:`lald.rl.adapters.pettingzoo`: the AEC environment (``env()``, ``raw_env()``);
- :mod:`lald.rl.adapters.gymnasium`: one seat against :mod:`lald.bots`, registered as
  ``lald/Seat-v0``;
- :mod:`lald.rl.adapters.openspiel`: the OpenSpiel game ``python_lald`` and its resampler;
- :mod:`lald.rl.adapters.ismcts`: OpenSpiel's ISMCTS as the ``ismcts`` level;
- :mod:`lald.rl.adapters.text`: a table drawn as text and as an RGB image.
"""
