"""The arguments both vectorized environments take, checked: a bad value is a ValueError
in one line, an illegal action an IllegalActionError naming the legal ones."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from ...bots.learned.encoding import ACTION_NAMES
from ...core import IllegalActionError
from ...core.rng import MIN_SECRET
from .tables import MASK64, Tables


def whole(value: Any, low: int, high: int) -> bool:
    """Whether ``value`` is a whole number (not a bool) in [low, high)."""
    return not isinstance(value, bool) and isinstance(value, (int, np.integer)) and bool(low <= value < high)


def table_count(num_envs: Any) -> int:
    """``num_envs``, checked: a whole number of tables."""
    if not whole(num_envs, 1, 1 << 24):
        raise ValueError(f"num_envs={num_envs!r}: give a whole number of tables from 1 to {1 << 24}")
    return int(num_envs)


def per_table(value: Any, n: int, key: str, low: int, high: int, what: str) -> list[int]:
    """One whole number, or one per table, each in [low, high)."""
    items = list(value) if isinstance(value, (list, tuple, np.ndarray)) else None
    if items is None:
        if not whole(value, low, high):
            raise ValueError(f"{key}={value!r}: give {what}, or one per table")
        return [int(value)] * n
    if len(items) != n:
        raise ValueError(f"{key}: give one value per table ({n}), not {len(items)}")
    for v in items:
        if not whole(v, low, high):
            raise ValueError(f"{key}: {v!r} is not {what}")
    return [int(v) for v in items]


def first_deals(seed: Any, options: dict[str, Any] | None, n: int, players: int
           ) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int8]]:
    """Each table's first deal seed and dealer (-1: the seed modulo the players)."""
    options = dict(options or {})
    deals = options.get("deal")
    if deals is not None:
        seeds = per_table(deals, n, "deal", 0, 1 << 64, "a seed from 0 to 2**64 - 1")
    elif seed is None:
        base = random.SystemRandom().getrandbits(64)
        seeds = [(base + i) & MASK64 for i in range(n)]
    elif isinstance(seed, (list, tuple, np.ndarray)):
        seeds = per_table(seed, n, "seed", 0, 1 << 64, "a seed from 0 to 2**64 - 1")
    elif whole(seed, 0, 1 << 64):
        seeds = [(int(seed) + i) & MASK64 for i in range(n)]
    else:
        raise ValueError(f"seed={seed!r}: give a whole number from 0 to 2**64 - 1, one per table, or None")
    dealer = options.get("dealer")
    dealers = [-1] * n if dealer is None else per_table(dealer, n, "dealer", 0, players,
                                                         f"a seat from 0 to {players - 1}")
    return np.array(seeds, np.uint64), np.array(dealers, np.int8)


def refusal(tables: Tables, error: LookupError, who: str) -> IllegalActionError:
    """The one-line refusal of an illegal action the tables reported as ``"i seat id"``."""
    i, seat, action = (int(x) for x in str(error.args[0]).split())
    legal = tables.get(i)["legal"]
    choices = ", ".join(ACTION_NAMES[k] for k in legal)
    return IllegalActionError(f"table {i}: action {action} ({ACTION_NAMES[action]}) is not legal for "
                              f"seat {seat}{who} now: choose {choices}")


def no_session(session: bool, render_mode: str | None = None) -> None:
    """Refuse what the vectorized tables do not offer: sessions and drawing."""
    if session:
        raise ValueError("the vectorized environment plays single deals: session=True is not offered "
                         "(lald.rl.adapters.pettingzoo and lald/Seat-v0 play sessions)")
    if render_mode is not None:
        raise ValueError(f"render_mode={render_mode!r}: the vectorized tables draw nothing "
                         "(lald.rl.adapters.pettingzoo and lald/Seat-v0 render a table as text)")


def secret_of(secret: Any) -> bytes | bool | None:
    """``secret``, checked: None (seeded deals), True (a fresh one at each reset) or bytes."""
    if secret is None or secret is True:
        return secret
    if isinstance(secret, (bytes, bytearray)) and len(secret) >= MIN_SECRET:
        return bytes(secret)
    raise ValueError(f"secret: give None (deals named by seeds), True (a fresh secret at each reset) "
                     f"or bytes, at least {MIN_SECRET}")
