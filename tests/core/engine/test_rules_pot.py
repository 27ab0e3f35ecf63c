"""docs/rules.md §7 under ``pot_rule = real``: a pot that never goes below zero, paid the
prize first, then the shortfalls, then the surpluses from the eldest round."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from lald.bots.expert import ExpertBot
from lald.bots.knowledge import read
from lald.core import Rules, RulesError, State, settle
from lald.core.codes import code_of
from lald.core.fast import FastState
from lald.lab.reading import describe, parse_reading
from lald.narrate import explain_settlement
from lald.rl.vector.tables import make_tables

REAL4 = Rules.make("last-capture", 4, options={"pot_rule": "real"})
WON4 = (18, 14, 12, 8)  # quota 10: pairs +4, +2, +1, -1


def test_rules_7_real_pot_worked_example() -> None:
    """docs/rules.md §13: the dealer, paid last, takes the 2 chips left of its 4."""
    r = settle(REAL4, WON4, dealer=0, survivor=1, last_capture=1, pot_before=0)
    assert r.pairs == (4, 2, 1, -1) and r.prize_to == 1 and r.prize_paid == 5
    assert r.taken == (2, 2, 1, 0)
    assert r.chips == (-1, 5, -1, -3) and r.pot_after == 0
    signed = settle(Rules.make("last-capture", 4), WON4, dealer=0, survivor=1, last_capture=1, pot_before=0)
    assert signed.chips == (1, 5, -1, -3) and signed.pot_after == -2 and signed.taken == (4, 2, 1, 0)


def test_rules_7_real_pot_pays_the_prize_first_and_in_part() -> None:
    rules = REAL4.replace(prize=12)
    r = settle(rules, WON4, dealer=2, survivor=1, last_capture=0, pot_before=0)
    # 9 in the pot: the prize takes all 9 of its 12; seat 3 pays 1 in; the eldest (seat 3)
    # has no surplus, then seat 0 takes the 1 chip left and seats 1 and 2 nothing
    assert r.prize_paid == 9 and r.taken == (1, 0, 0, 0)
    assert r.chips == (-2 + 1 + 9, -2, -3, -3) and r.pot_after == 0


def test_rules_7_real_pot_with_nobody_to_pay_keeps_the_pot() -> None:
    r = settle(REAL4, WON4, dealer=0, survivor=1, last_capture=None, pot_before=3)
    assert r.prize_to is None and r.prize_paid == 0
    assert r.taken == (4, 2, 1, 0) and r.pot_after == 3 + 9 + 1 - 7


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_rules_7_real_pot_never_goes_below_zero_over_sessions(preset: str) -> None:
    rules = Rules.make(preset, 3, options={"pot_rule": "real"})
    rng = random.Random(5)
    pot, balances, short = 0, [0, 0, 0], 0
    for seed in range(60):
        state = State.deal(rules, seed=seed, dealer=seed % 3, pot=pot, balances=balances)
        while not state.over:
            actions = [a for s in range(3) for a in state.legal_actions(s)]
            before, last = state.clone(), rng.choice(actions)
            state.apply(last)
        result = state.result
        assert result is not None and result.pot_after >= 0
        assert all(0 <= t <= max(p, 0) for t, p in zip(result.taken, result.pairs, strict=True))  # type: ignore[arg-type]
        short += result.taken != tuple(max(p, 0) for p in result.pairs)  # type: ignore[union-attr]
        pot = result.pot_after
        balances = [b + c for b, c in zip(balances, result.chips, strict=True)]
        assert sum(balances) + pot == 0
        fast = FastState.from_state(before)  # the last move on the fast path: the same settlement
        fast.apply(code_of(last, before.table_mask))
        assert fast.over and fast.result() == result
        assert [fast.value(s) for s in range(3)] == [
            float(result.chips[s] + result.antes[s]) for s in range(3)]
    assert short >= 5  # the pot ran short often enough to be tested


def test_rules_7_real_pot_the_compiled_search_leaves_it_to_the_pure_path() -> None:
    """The kernel's search values a world without a pot, so it refuses a real pot and the
    expert searches on the pure path, whose values are the settlement's (above)."""
    state = State.deal(REAL4, seed=4)
    seat = state.to_move
    assert seat is not None
    codes = [-1]
    assert ExpertBot(seat, REAL4, random.Random(1))._search_context(read(state.view(seat)), codes) is None
    signed = State.deal(Rules.make("last-capture", 4), seed=4)
    bot = ExpertBot(seat, signed.rules, random.Random(1))
    assert bot._search_context(read(signed.view(seat)), codes) is not None


def test_rules_7_real_pot_refused_by_the_vectorized_tables() -> None:
    for backend in ("python", None):
        with pytest.raises(RulesError, match="pot_rule=real is not played by the vectorized tables"):
            make_tables(REAL4, 2, 0, backend=backend)


def test_rules_7_real_pot_played_by_lald_play(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "lald", "play", "--plain", "--no-setup", "--players", "3",
                          "--preset", "last-capture", "--option", "pot_rule=real", "--option", "deals=3",
                          "--seed", "5", "--pace", "0", "--claim-window", "0", "--save-dir", str(tmp_path),
                          *(f"--seat={s}={'heuristic' if s == 0 else 'random'}" for s in range(3))],
                         input="", capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    pots = [line.split()[-1] for line in out.stdout.splitlines() if line.strip().startswith("Pot")]
    assert pots and all(int(p) >= 0 for p in pots), pots


def test_rules_7_real_pot_the_settlement_says_what_the_pot_could_not_pay() -> None:
    r = settle(REAL4, WON4, dealer=0, survivor=1, last_capture=1, pot_before=0)
    lines = explain_settlement(REAL4, r, 0, ["Anne", "Ben", "Cis", "Dick"], r.chips)
    assert "Anne's +4 pairs are paid only 2 chips: the pot holds no more." in lines
    assert "Ben is 2 pairs over the quota and is paid 2 chips from the pot." in lines
    prize = lines.index("Ben made the last capture and wins the prize: 5 chips from the pot.")
    assert prize < lines.index("Dick is 1 pair short and pays 1 chip into the pot.")


def test_rules_7_real_pot_in_a_reading_of_the_laboratory() -> None:
    reading = parse_reading("last-capture:pot_rule=real/4")
    assert reading.rules == REAL4
    assert any("never below zero" in line for line in describe(REAL4))
    assert all("below zero (the ledger is signed)" not in line for line in describe(REAL4))
