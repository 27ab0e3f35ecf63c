"""Each habit of the heuristic chooses as it says, in a position built for it: with the
habit alone switched on it makes the described choice, and without it the choice differs."""

from __future__ import annotations

import random

import pytest

from lald.bots import make_bot
from lald.bots.heuristic import HABITS, HeuristicBot, HeuristicPolicy
from lald.bots.kernel import HEURISTIC, TUNED, tables
from lald.bots.search import PimcBot
from lald.core import Rules
from lald.core.codes import HAND_CLAIM, PAIR, SINGLE, TABLE_CLAIM, make_code
from lald.core.fast import FastState
from lald.play.spec import parse_spec

A, FIVE, SEVEN, NINE, QUEEN, KING = 0, 4, 6, 8, 11, 12


def world(rules: Rules, mine: dict[int, int], table: dict[int, int],
          others: dict[int, dict[int, int]], *, me: int = 1, to_move: int = 1,
          foreplay: bool = False) -> FastState:
    """A position from counts: ranks not named anywhere are out of play (won earlier)."""
    n = rules.players
    hands = [[0] * 13 for _ in range(n)]
    for r, c in mine.items():
        hands[me][r] = c
    for seat, held in others.items():
        for r, c in held.items():
            hands[seat][r] = c
    tc = [0] * 13
    for r, c in table.items():
        tc[r] = c
    return FastState.from_world(rules, hands, tc, [0] * n, [False] * n, dealer=0, to_move=to_move,
                                foreplay=foreplay, last_capture=None, last_actor=0, pot_before=0)


def only(habit: str, rules: Rules, *also: str) -> HeuristicPolicy:
    return HeuristicPolicy(rules, off=set(HABITS) - {habit, *also})


def bare(rules: Rules) -> HeuristicPolicy:
    return HeuristicPolicy(rules, off=set(HABITS))


SURVIVOR = Rules.make("survivor", 5)
LAST = Rules.make("last-capture", 5)
FILLER = {2: {KING: 3, NINE: 1, 2: 2}, 3: {NINE: 2, 3: 2, 9: 2}, 4: {10: 2, 2: 2, 3: 2}}
#: Cards for seat 1 of ranks others hold too (so none is a dead rank in its hand).
MINE = {NINE: 1, 9: 1, 10: 1, KING: 1}


def test_habit_keep_sets_keeps_a_pair_for_the_pair_capture() -> None:
    # two aces in hand, one on the table; a 5 takes a 5 as well: keep the aces together
    fs = world(SURVIVOR, {A: 2, FIVE: 1, **MINE}, {A: 1, FIVE: 1}, {0: {A: 1, FIVE: 2}, **FILLER})
    codes = fs.turn_codes()
    ace_single, five_single = make_code(SINGLE, A, 1), make_code(SINGLE, FIVE, 1)
    assert only("keep_sets", SURVIVOR).turn(fs, codes) == five_single
    assert bare(SURVIVOR).turn(fs, codes) == ace_single


def test_habit_keep_sets_prefers_the_pair_on_pair() -> None:
    fs = world(SURVIVOR, {QUEEN: 2, FIVE: 1, **MINE}, {QUEEN: 2, FIVE: 2}, {0: {FIVE: 1}, **FILLER})
    scores = dict(zip(fs.turn_codes(), only("keep_sets", SURVIVOR).turn_scores(
        fs, fs.turn_codes(), [0] * 13), strict=True))
    assert max(scores, key=scores.__getitem__) == make_code(PAIR, QUEEN, 1)


def test_habit_set_aside_lays_a_dealt_prial_aside_in_foreplay() -> None:
    fs = world(SURVIVOR, {SEVEN: 3, **MINE}, {FIVE: 1}, {0: {SEVEN: 1, FIVE: 1}, **FILLER}, foreplay=True)
    claims = fs.claim_codes(1)
    assert make_code(HAND_CLAIM, SEVEN, 1) in claims
    assert only("set_aside", SURVIVOR).claim(fs, 1, claims) == make_code(HAND_CLAIM, SEVEN, 1)
    assert bare(SURVIVOR).claim(fs, 1, claims) is None


def test_habit_deny_takes_the_last_table_card_of_a_rank_others_hold() -> None:
    # aces: two on the table, one elsewhere (taking one leaves a match for the others);
    # fives: the only one on the table, another elsewhere (taking it leaves none)
    fs = world(SURVIVOR, {A: 1, FIVE: 1, **MINE}, {A: 2, FIVE: 1}, {0: {A: 1, FIVE: 1}, **FILLER})
    codes = fs.turn_codes()
    assert only("deny", SURVIVOR).turn(fs, codes) == make_code(SINGLE, FIVE, 1)
    assert bare(SURVIVOR).turn(fs, codes) == make_code(SINGLE, A, 1)


def test_habit_safe_keep_saves_the_capture_nobody_else_can_take() -> None:
    # aces: one on the table, one in hand, none anywhere else (a safe future capture)
    fs = world(SURVIVOR, {A: 1, FIVE: 1, **MINE}, {A: 1, FIVE: 1}, {0: {FIVE: 2}, **FILLER})
    codes = fs.turn_codes()
    # (knowing that nobody else holds an ace takes counting the cards shown)
    assert only("safe_keep", SURVIVOR, "read_table").turn(fs, codes) == make_code(SINGLE, FIVE, 1)
    assert only("read_table", SURVIVOR).turn(fs, codes) == make_code(SINGLE, A, 1)


def test_habit_read_table_counts_cards_already_won() -> None:
    # aces: two already won (out of play), so nobody else holds one: denying them is
    # worthless; fives: one elsewhere.  Counting nothing, both look alike.
    fs = world(SURVIVOR, {A: 1, FIVE: 1, **MINE}, {A: 1, FIVE: 1}, {0: {FIVE: 1}, **FILLER})
    codes = fs.turn_codes()
    deny_reading = HeuristicPolicy(SURVIVOR, off=set(HABITS) - {"deny", "read_table"})
    deny_blind = HeuristicPolicy(SURVIVOR, off=set(HABITS) - {"deny"})
    assert deny_reading.turn(fs, codes) == make_code(SINGLE, FIVE, 1)
    assert deny_blind.turn(fs, codes) == make_code(SINGLE, A, 1)


def test_habit_survivor_hold_keeps_a_dead_pair_until_needed() -> None:
    # seat 1 holds both live nines (a dead pair); it is seat 2's turn; four seats hold cards
    fs = world(SURVIVOR, {QUEEN: 2, FIVE: 1, **MINE}, {A: 2}, {0: {FIVE: 1, A: 2}, **FILLER}, to_move=2)
    claims = fs.claim_codes(1)
    assert claims == [make_code(HAND_CLAIM, QUEEN, 1)]
    assert only("survivor_hold", SURVIVOR).claim(fs, 1, claims) is None
    assert bare(SURVIVOR).claim(fs, 1, claims) == claims[0]
    # with only two seats holding cards the deal may end at any moment: bank it
    end = world(SURVIVOR, {QUEEN: 2, FIVE: 1}, {A: 2}, {2: {FIVE: 1, KING: 3}}, to_move=2)
    assert only("survivor_hold", SURVIVOR).claim(end, 1, end.claim_codes(1)) == claims[0]


def test_habit_last_capture_play_keeps_a_capture_for_the_end() -> None:
    # two seats hold cards; aces are safe (nobody else has one); the five is not.
    # Take the five now and keep the aces for the final capture.
    fs = world(LAST, {A: 1, FIVE: 1, KING: 1}, {A: 1, FIVE: 1}, {2: {FIVE: 1, KING: 1}}, to_move=1)
    codes = fs.turn_codes()
    assert only("last_capture_play", LAST, "read_table").turn(fs, codes) == make_code(SINGLE, FIVE, 1)
    assert only("read_table", LAST).turn(fs, codes) == make_code(SINGLE, A, 1)


def test_habit_last_capture_play_is_off_under_the_survivor_prize() -> None:
    assert not HeuristicPolicy(SURVIVOR).last_capture_play
    assert not HeuristicPolicy(LAST).survivor_hold


def test_habit_spotter_now_claims_a_dead_table_pair_at_once() -> None:
    # both live kings lie on the table; it is seat 2's turn, seat 1 is offered them
    fs = world(SURVIVOR, {FIVE: 1, 9: 1, 10: 1}, {QUEEN: 2, A: 1}, {0: {A: 1, FIVE: 1}, **FILLER}, to_move=2)
    claims = fs.claim_codes(1)
    assert make_code(TABLE_CLAIM, QUEEN, 1) in claims
    assert only("spotter_now", SURVIVOR).claim(fs, 1, claims) == make_code(TABLE_CLAIM, QUEEN, 1)
    assert bare(SURVIVOR).claim(fs, 1, claims) is None


def test_unknown_habit_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown habit"):
        HeuristicPolicy(SURVIVOR, off={"bluff"})


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_pimc_plays_out_and_claims_with_the_heuristic_level(preset: str) -> None:
    rules = Rules.make(preset)
    level = make_bot("heuristic", 1, rules, random.Random(0))
    pimc = make_bot("pimc", 1, rules, random.Random(0))
    assert isinstance(level, HeuristicBot) and isinstance(pimc, PimcBot)
    assert pimc.rollout.policy.off == level.policy.off == pimc.fallback.off
    assert pimc.rollout.policy.params == level.policy.params == pimc.fallback.params


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_the_level_takes_a_single_before_the_pair_on_a_pair_and_version_3_did_not(preset: str) -> None:
    # two queens in hand, two on the table, none anywhere else: the tuned scores (version
    # 4) keep the second queen for a later capture; version 3 took both pairs at once
    rules = Rules.make(preset)
    fs = world(rules, {QUEEN: 2, **MINE}, {QUEEN: 2}, {0: {FIVE: 2}, **FILLER})
    codes = fs.turn_codes()
    assert set(codes) == {make_code(SINGLE, QUEEN, 1), make_code(PAIR, QUEEN, 1)}
    level = make_bot("heuristic", 1, rules, random.Random(0))
    old = parse_spec("heuristic:version=3").make(1, rules, random.Random(0))
    assert isinstance(level, HeuristicBot) and isinstance(old, HeuristicBot)
    assert level.policy.params == TUNED[rules.prize_rule] and old.policy.params == HEURISTIC
    assert level.policy.off == old.policy.off  # the same habits: only the capture scores differ
    assert level.policy.turn(fs, codes) == make_code(SINGLE, QUEEN, 1)
    assert old.policy.turn(fs, codes) == make_code(PAIR, QUEEN, 1)
    with pytest.raises(ValueError, match="version=7"):
        parse_spec("heuristic:version=7")


def test_pimc_plays_out_with_the_level_or_with_version_3() -> None:
    rules = Rules.make()
    pimc = make_bot("pimc", 1, rules, random.Random(0))
    old = parse_spec("pimc:heuristic=3").make(1, rules, random.Random(0))
    assert isinstance(pimc, PimcBot) and isinstance(old, PimcBot)
    assert pimc.rollout.tables is tables(rules, TUNED[rules.prize_rule])
    assert pimc.fallback.params == TUNED[rules.prize_rule]
    assert old.rollout.tables is tables(rules, HEURISTIC) and old.fallback.params == HEURISTIC
