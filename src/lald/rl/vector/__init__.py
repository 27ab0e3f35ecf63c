"""The vectorized environment: N tables stepped in one call, every array a numpy array.

Two interfaces on the same tables:

- :class:`VectorDeals`, self-play: at every table the seat to decide acts (a turn, or an
  answer in a claim window, as :mod:`lald.rl.deal` polls them); ``step(actions)`` takes one
  action ID per table and gives back the observation of the seat now to decide at each
  table, which seat that is, its legal mask, and the rewards of every seat of the deals
  that ended (each table then deals its next deal at once);
- :class:`VectorSeatEnv`, Gymnasium's :class:`~gymnasium.vector.VectorEnv` for the
  one-seat task of ``lald/Seat-v0``: one seat learns at each table, the others are
  opponents, played inside the tables (the ``random`` level's law, or the ``greedy`` and
  ``heuristic`` levels choosing in C as :mod:`lald.bots` does, see
  :mod:`lald.rl.vector.opponents`), or any batched policy of yours.

Observations are the adapters' 451 float32 numbers (:mod:`lald.bots.learned.encoding`; with
``history=K`` the latest K public actions after them), masks N x 80
bools, rewards float64, and no Python object is made per table per step: the compiled
tables (``lald.rl.vector._vector``, C) play every table in one call.  Where they are not built
(or ``LALD_KERNEL=python``) the pure tables (:mod:`lald.rl.vector.vecpy`, the adapters' own
code table by table) play instead, the same numbers, slower.

Deals are named by seeds as everywhere in lald: a table whose deal seed is ``S`` and
dealer ``D`` plays ``State.deal(rules, S, dealer=D)``, the deal of ``lald deal --seed S
--dealer D`` and of the adapters' ``reset(options={"deal": S, "dealer": D})``.
``reset(seed=x)`` gives table ``i`` the deal ``x + i``; when a table's deal ends it deals
the seed ``num_envs`` higher, so the tables play the deals ``x, x + 1, x + 2, ...`` each
once.  A deal's dealer is its seed modulo the player count, unless ``options={"dealer":
...}`` names the first deals' dealers.  :meth:`VectorDeals.deals` tells each table's seed
and dealer now (the trainer's: a seed names every hand).  With ``secret`` (bytes, or True:
a fresh one at each reset) the seeds are deal numbers in the secret's keyed streams
(``State.deal_from(rules, KeyedRandom(secret, "deal", number), dealer)``), deals that
nothing a seat sees gives away, as lald's online tables deal.

>>> env = VectorDeals(4, players=3)
>>> obs, info = env.reset(seed=1)
>>> obs.shape, obs.dtype, info["action_mask"].shape, info["seat"].dtype
((4, 451), dtype('float32'), (4, 80), dtype('int8'))
>>> obs, rewards, terminated, truncated, info = env.step(env.random_actions())
>>> rewards.shape, terminated.shape
((4, 3), (4,))
"""

from .env import VECTOR_ENV_ID, Masks, Observations, Policy, VectorDeals, VectorSeatEnv
from .tables import STREAM_KEY, Tables, backend_status, make_tables

__all__ = ["Masks", "Observations", "Policy", "STREAM_KEY", "Tables", "VECTOR_ENV_ID", "VectorDeals",
           "VectorSeatEnv", "backend_status", "make_tables"]
