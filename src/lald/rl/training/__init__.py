"""Training the ``learned`` level (:mod:`lald.bots.learned.network`):

- :mod:`lald.rl.training.selfplay`: the self-play actors that collect its training
  records (numpy);
- :mod:`lald.rl.training.train`: ``lald train``, the learner (PyTorch, the ``train`` extra).
"""
