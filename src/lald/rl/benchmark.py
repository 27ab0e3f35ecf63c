"""The benchmark's version: what the ``-vN`` of ``lald/Seat-vN``, ``lald/VectorSeat-vN`` and
PettingZoo's ``lald_vN`` stands for, and a fingerprint that changes when it must.

A result on ``lald/Seat-v0`` is comparable with another on ``lald/Seat-v0``: the same
observation, the same action IDs and masks, the same rules and rewards.  :func:`fingerprint`
hashes all of these: the observation's layout, the action names, the rules of every preset,
player count and variant set, and what the tables give (observations, masks, seats and
rewards) over fixed seeded deals of random play in both presets at three, four and five
players.  ``tests/rl/test_benchmark.py`` holds it equal to :data:`FINGERPRINTS` of
:data:`ENV_VERSION`: a change of the observation or of a rule fails that test until the
version goes up, the ids with it, and docs/research.md's changelog ("Versions") says what
changed.

>>> ENV_VERSION, ENV_IDS["gymnasium"]
(0, 'lald/Seat-v0')
"""

from __future__ import annotations

import hashlib
import itertools
import json

#: The version of every environment id.
ENV_VERSION = 0
#: The ids that carry it (the OpenSpiel game's short name, ``python_lald``, carries none:
#: OpenSpiel's names have no versions; it plays the same version).
ENV_IDS = {"gymnasium": f"lald/Seat-v{ENV_VERSION}", "vector": f"lald/VectorSeat-v{ENV_VERSION}",
           "pettingzoo": f"lald_v{ENV_VERSION}"}
#: Each version's fingerprint, as docs/research.md's changelog gives it.
FINGERPRINTS = {0: "9893bc786cb2"}
#: Options added to the rules since v0, each at the value under which every v0 rules set
#: plays as it did (the tables refuse the others): a rules set that leaves one there is
#: fingerprinted as it was before the option existed, so adding an option does not move the
#: fingerprint, while changing what a v0 rules set plays still does.
ADDED_SINCE_V0 = {"prials_face_up": False, "pot_rule": "signed"}


def fingerprint(steps: int = 120, tables: int = 32) -> str:
    """The first 12 hex digits of SHA-256 over the observation's layout, the action
    names, every rules set's options and the numbers the tables give in fixed seeded play
    (see the module's docstring)."""
    import numpy as np

    from ..bots.learned.encoding import ACTION_NAMES, LAYOUT, NUM_ACTIONS, OBS_SIZE
    from ..core import Rules
    from ..core.rules import PRESET_NAMES, VARIANT_NAMES
    from .vector import VectorDeals

    h = hashlib.sha256()
    layout = {name: [part.start, part.stop] for name, part in LAYOUT.items()}
    h.update(json.dumps([OBS_SIZE, NUM_ACTIONS, list(ACTION_NAMES), layout], sort_keys=True).encode())
    for preset, players in itertools.product(PRESET_NAMES, (3, 4, 5)):
        for k in range(len(VARIANT_NAMES) + 1):
            for variants in itertools.combinations(VARIANT_NAMES, k):
                h.update(_as_in_v0(Rules.make(preset, players, variants)).encode())
        env = VectorDeals(tables, preset=preset, players=players)
        obs, info = env.reset(seed=players * 1000)
        rng = np.random.default_rng(players)
        for _ in range(steps):
            h.update(obs.tobytes())
            h.update(info["action_mask"].tobytes())
            h.update(info["seat"].tobytes())
            actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
            obs, rewards, done, _, info = env.step(actions)
            h.update(rewards.tobytes())
            h.update(done.tobytes())
    return h.hexdigest()[:12]


def _as_in_v0(rules: object) -> str:
    """``repr(rules)`` without the options added since v0 where they hold their v0 value."""
    import dataclasses
    import enum

    text = repr(rules)
    for field in dataclasses.fields(rules):  # type: ignore[arg-type]
        value = getattr(rules, field.name)
        plain = value.value if isinstance(value, enum.Enum) else value
        if field.name in ADDED_SINCE_V0 and plain == ADDED_SINCE_V0[field.name]:
            text = text.replace(f", {field.name}={value!r}", "", 1)
    return text


__all__ = ["ADDED_SINCE_V0", "ENV_IDS", "ENV_VERSION", "FINGERPRINTS", "fingerprint"]
