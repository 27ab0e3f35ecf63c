"""docs/rules.md §6.2 under ``prize_rule = last_card``: the prize to whoever took the very
last card, claims included, and the fast path's refusal of it until it plays it."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from lald.core import (
    Capture,
    Claim,
    Claimed,
    LieDown,
    Rules,
    RulesError,
    State,
    TableMournival,
    parse_cards,
    settle,
)
from lald.core.fast import FastState
from lald.narrate import explain_settlement
from lald.record import Record
from lald.rl.vector.tables import make_tables

from ..positions import position

LAST_CARD = Rules.make(options={"prize_rule": "last_card"})


def cap(seat: int, play: str, take: str) -> Capture:
    return Capture(seat, parse_cards(play), parse_cards(take))


def claim(seat: int, text: str) -> Claim:
    return Claim(seat, parse_cards(text))


def worked_example(rules: Rules) -> State:
    """docs/rules.md §13, the very last card: a capture, then a claim that ends the deal."""
    state = position(rules, ["", "AS", "", "3S 3H KS", "QS QH"], "AH KH", to_move=1, lain=(0, 2))
    state.apply(cap(1, "AS", "AH"))
    assert not state.over
    state.apply(claim(4, "QS QH"))
    assert state.over and state.result is not None
    return state


@pytest.mark.parametrize(("preset", "options", "paid"), [
    ("survivor", {"prize_rule": "last_card"}, 4),
    ("last-capture", {"prize_rule": "last_card"}, 4),
    ("last-capture", {}, 1),
    ("survivor", {}, 3),
])
def test_rules_6_2_last_card_a_claim_takes_the_last_card(preset: str, options: dict[str, str],
                                                          paid: int) -> None:
    state = worked_example(Rules.make(preset, options=options))
    result = state.result
    assert result is not None and result.survivor == 3 and result.last_capture == 1
    assert result.prize_to == paid
    chips = result.chips
    assert chips[4] == result.pairs[4] - 2 + (5 if paid == 4 else 0)  # type: ignore[index]


def test_rules_6_2_last_card_a_spotter_claim_by_a_seat_that_lay_down() -> None:
    """Seat 0 lay down long ago; its spotter claim is the deal's last take, and a lie-down
    after it takes nothing."""
    state = position(LAST_CARD, ["", "2S 2H", "", "3S 3H KS", ""], "QS QH KH", to_move=1,
                     lain=(0, 2, 4))
    state.apply(claim(0, "QS QH"))
    state.apply(LieDown(1))
    result = state.result
    assert state.over and result is not None and result.survivor == 3
    assert result.last_capture is None and result.prize_to == 0
    assert result.chips[0] == result.pairs[0] - 3 + 5  # type: ignore[index]  # seat 0 dealt


def test_rules_6_2_last_card_nobody_took_a_card_so_the_prize_stays() -> None:
    state = position(LAST_CARD, ["", "2S 2H", "", "3S 3H KH", ""], "KS", to_move=1, lain=(0, 2, 4))
    state.apply(LieDown(1))
    result = state.result
    assert result is not None and result.prize_to is None
    assert result.pot_after == result.pot_before + sum(result.antes) - sum(
        result.pairs)  # type: ignore[arg-type]


def test_rules_6_2_last_card_settle_pays_the_last_take() -> None:
    won = (16, 12, 10, 8, 6)
    r = settle(LAST_CARD, won, dealer=0, survivor=2, last_capture=4, pot_before=0, last_take=3)
    assert r.prize_to == 3 and r.chips[3] == 0 - 2 + 5
    nobody = settle(LAST_CARD, won, dealer=0, survivor=2, last_capture=4, pot_before=0)
    assert nobody.prize_to is None and nobody.pot_after == 5


def test_rules_6_2_last_card_the_table_mournival_is_taken_by_nobody() -> None:
    """A deal whose only cards moved to a won pile are a table mournival dealt to the dealer
    (§2) pays nobody: the dealer did not take them."""
    state = position(LAST_CARD, ["", "2S 2H", "", "3S 3H KH", ""], "KS", to_move=1, lain=(0, 2, 4),
                     won={0: "7S 7H 7D 7C"})
    state.history.append(TableMournival(0, parse_cards("7S 7H 7D 7C")))
    state.apply(LieDown(1))
    assert state.result is not None and state.result.prize_to is None


def test_rules_6_2_last_card_in_a_record_and_replayed_by_lald_replay() -> None:
    """The option travels in the record's options and the command line's replay pays it."""
    rng = random.Random(7)
    state = State.deal(LAST_CARD, seed=11)
    while not state.over:
        actions = [a for s in range(5) for a in state.legal_actions(s)]
        state.apply(rng.choice(actions))
    assert state.result is not None
    takers = [op.seat for op in state.history if isinstance(op, Capture | Claimed)]
    record = Record.from_state(state, layout=True)
    assert json.loads(record.dumps())["rules"]["options"] == {"prize_rule": "last_card"}
    out = subprocess.run([sys.executable, "-m", "lald", "replay", "-", "--json"], input=record.dumps(),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["prize_to"] == takers[-1] == state.result.prize_to


def test_rules_6_2_last_card_the_fast_path_pays_the_engine_s_taker() -> None:
    """The fast twin of the worked example, from before its claim: it pays seat 4."""
    state = position(LAST_CARD, ["", "AS", "", "3S 3H KS", "QS QH"], "AH KH", to_move=1, lain=(0, 2))
    state.apply(cap(1, "AS", "AH"))
    fast = FastState.from_state(state)
    assert (fast.last_capture, fast.last_take) == (1, 1)
    claims = [code for code in fast.open_claim_codes() if code >> 7 == 4]
    assert len(claims) == 1
    fast.apply(claims[0])
    assert fast.over and fast.last_take == 4 and fast.last_capture == 1
    assert fast.result().prize_to == 4 == worked_example(LAST_CARD).result.prize_to  # type: ignore[union-attr]
    assert fast.value(4) == fast.result().pairs[4] + 5  # type: ignore[index]


def test_rules_6_2_last_card_refused_by_the_vectorized_tables() -> None:
    for backend in ("python", None):
        with pytest.raises(RulesError, match="prize_rule=last_card is not played by the vectorized tables"):
            make_tables(LAST_CARD, 2, 0, backend=backend)


def test_rules_6_2_last_card_played_by_lald_play_with_a_search_bot(tmp_path: Path) -> None:
    """The terminal's public entry takes the option and plays a whole session under it,
    a heuristic bot among random ones."""
    out = subprocess.run([sys.executable, "-m", "lald", "play", "--plain", "--no-setup", "--option",
                          "prize_rule=last_card", "--option", "deals=1", "--seed", "3", "--pace", "0",
                          "--claim-window", "0", "--save-dir", str(tmp_path),
                          *(f"--seat={s}={'heuristic' if s == 0 else 'random'}" for s in range(5))],
                         input="", capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "wins the session" in out.stdout or "share the win" in out.stdout



def test_rules_6_2_last_card_the_settlement_says_who_took_the_last_card() -> None:
    state = worked_example(LAST_CARD)
    assert state.result is not None
    names = ["Anne", "Ben", "Cis", "Dick", "Eve"]
    lines = explain_settlement(LAST_CARD, state.result, state.dealer, names, state.result.chips)
    assert "Eve took the very last card and wins the prize: 5 chips from the pot." in lines
