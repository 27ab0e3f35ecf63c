"""The levels that play what was learned, numpy only (imported when their first bot is made):

- :mod:`lald.bots.learned.encoding`: the action IDs, the observation and the legal mask a
  learner sees (the research adapters' too);
- :mod:`lald.bots.learned.network`: the ``learned`` level, a trained action-value network,
  and the shipped weights (``weights/``);
- :mod:`lald.bots.learned.guided`: the ``guided`` level, the expert's search guided by it;
- :mod:`lald.bots.learned.policy`: any policy on (observation, mask) as the ``policy`` level;
- :mod:`lald.bots.learned.worlds`: a whole deal drawn consistent with a seat's view.
"""
