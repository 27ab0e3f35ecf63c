"""The benchmark's version (issue 35, item 11): the ids carry it, a fingerprint of the
observation, the actions, the rules and the tables' numbers holds it to its changelog, and
CITATION.cff says how to cite lald."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import pytest

import lald.rl.adapters.gymnasium  # noqa: F401  (registers the ids)
import lald.rl.vector  # noqa: F401
from lald.rl.benchmark import ENV_IDS, ENV_VERSION, FINGERPRINTS, fingerprint

ROOT = Path(__file__).resolve().parents[2]


def test_the_fingerprint_is_the_versions() -> None:
    got = fingerprint()
    assert got == FINGERPRINTS[ENV_VERSION], (
        f"the observation, the actions, a rule or the tables' numbers changed (fingerprint {got}, "
        f"v{ENV_VERSION} is {FINGERPRINTS[ENV_VERSION]}): raise lald.rl.benchmark.ENV_VERSION and the "
        "ids, add the fingerprint, and say what changed in docs/research.md's changelog")


def test_the_fingerprint_sees_a_changed_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    from lald.bots.learned import encoding

    before = fingerprint(steps=2, tables=2)
    layout = dict(encoding.LAYOUT)
    layout["pot"], layout["balances"] = layout["balances"], layout["pot"]
    monkeypatch.setattr(encoding, "LAYOUT", layout)
    assert fingerprint(steps=2, tables=2) != before


def test_the_ids_carry_the_version() -> None:
    from lald.rl.adapters.pettingzoo import LaldEnv

    assert gym.spec(ENV_IDS["gymnasium"]).entry_point == "lald.rl.adapters.gymnasium:SeatEnv"
    assert gym.spec(ENV_IDS["vector"]).vector_entry_point == "lald.rl.vector:VectorSeatEnv"
    assert LaldEnv.metadata["name"] == ENV_IDS["pettingzoo"]
    assert lald.rl.adapters.gymnasium.ENV_ID == ENV_IDS["gymnasium"]
    assert lald.rl.vector.VECTOR_ENV_ID == ENV_IDS["vector"]


def test_the_changelog_names_every_version_and_its_fingerprint() -> None:
    text = (ROOT / "docs" / "research.md").read_text()
    section = text[text.index("## Versions"):]
    for version, digest in FINGERPRINTS.items():
        assert f"| v{version} |" in section and digest in section


def test_citation_cff_is_there_and_names_the_version() -> None:
    yaml = pytest.importorskip("yaml")
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and cff["title"] and cff["message"] and cff["license"] == "MIT"
    assert cff["version"] == "0.1.0" and f"v{ENV_VERSION}" in cff["abstract"]


def test_an_option_added_since_v0_is_read_only_where_it_plays_otherwise() -> None:
    from lald.core import Rules
    from lald.rl.benchmark import ADDED_SINCE_V0, _as_in_v0

    plain = _as_in_v0(Rules.make())
    assert not any(f"{name}=" in plain for name in ADDED_SINCE_V0)
    assert "pot_rule=<PotRule.REAL" in _as_in_v0(Rules.make(options={"pot_rule": "real"}))
    assert "prials_face_up=True" in _as_in_v0(
        Rules.make(options={"hand_sets_face_down": True, "prials_face_up": True}))
