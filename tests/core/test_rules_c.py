"""The C rules are written once: ``src/lald/core/_rules.h``, played by both extensions.

The kernel (``lald.core._kernel``) and the vectorized environment's tables
(``lald.rl.vector._vector``) hold a deal in different shapes, but the turn order, the claim order,
the end of a deal, the settlement and the deal's shuffle are the header's, included by
both; their differential tests (tests/core/compiled/test_kernel.py, tests/bots/test_*compiled*.py,
tests/rl/vector/test_vector.py) hold that one copy to the Python engine.  These tests hold the
sharing itself: a second copy creeping back into either source fails here."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from lald.core import Rules
from lald.core.fast.pack import pack_tables
from lald.core.fast.tables import tables_for

ROOT = Path(__file__).resolve().parents[2]
RULES_H = ROOT / "src/lald/core/_rules.h"
SOURCES = {"kernel": ROOT / "src/lald/core/_kernel.c", "vector": ROOT / "src/lald/rl/vector/_vector.c"}

#: What each extension must take from the header (and so must not write again).
SHARED = ("lald_after_move", "lald_claim_first", "lald_survivor", "lald_prize_to", "lald_heuristic_claim_key",
          "lald_deal_chips", "lald_winners", "lald_shuffle_group", "lald_shuffle_take", "lald_splitmix64",
          "lald_ring_fill")

BUILT = importlib.util.find_spec("lald.core._kernel") is not None
needs_kernel = pytest.mark.skipif(not BUILT, reason="the compiled kernel (lald.core._kernel) is not built: "
                                  "python setup.py build_ext --inplace")


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_each_extension_plays_the_rules_header(name: str) -> None:
    source = SOURCES[name].read_text()
    assert re.search(r'#include "(\.\./)*(core/)?_rules\.h"', source), f"{name} lacks _rules.h"
    header = RULES_H.read_text()
    for fn in SHARED:
        assert re.search(rf"\b{fn}\b", header), fn
        assert re.search(rf"\b{fn}\(", source), f"{name} does not play {fn} from _rules.h"
    # the rules the header holds are not written again beside it
    defined = set(re.findall(r"^static [^(;=]*?\b(\w+)\(", source, re.M))
    twice = defined & set(re.findall(r"^static [^(;=]*?\b(\w+)\(", header, re.M))
    assert not twice, f"{name} defines {sorted(twice)} again"
    for old in ("next_turn", "after_claim", "pairs_of", "splitmix_next", "next64", "two64_over",
                "popcount32"):
        assert old not in defined, f"{name} has its own {old} again"


def test_setup_rebuilds_both_extensions_when_the_rules_change() -> None:
    setup = (ROOT / "setup.py").read_text()
    assert '"src/lald/core/_rules.h"' in setup
    assert setup.count("depends=RULES") == 2


@needs_kernel
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_kernel_takes_its_turn_order_from_the_rules_header(players: int) -> None:
    """The kernel's ring is the header's; a rollout ring that differs is refused."""
    from lald.core import _kernel

    k = tables_for(Rules.make("survivor", players=players))
    packed = list(pack_tables(k))
    _kernel.prepare(*packed)
    ring = bytearray(packed[6])  # int32 per (holders, seat): seat 1 among seats 0 and 1 is followed by 1
    at = (3 * players + 1) * 4
    ring[at] = (ring[at] + 1) % players
    packed[6] = bytes(ring)
    with pytest.raises(ValueError, match="turn order"):
        _kernel.prepare(*packed)
