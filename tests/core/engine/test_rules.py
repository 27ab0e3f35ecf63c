"""One test (or a few) per numbered rule of RULES.md, named after it, and the §10 examples."""

from __future__ import annotations

import pytest

from lald.core import (
    Capture,
    CaptureKind,
    Card,
    CardError,
    Claim,
    Claimed,
    ClaimKind,
    IllegalActionError,
    LayoutError,
    LieDown,
    PortableRandom,
    Rules,
    RulesError,
    Session,
    State,
    Status,
    TableMournival,
    Trail,
    cut_for_dealer,
    parse_cards,
    settle,
)
from lald.core.rules import LAYOUTS, OPTION_NAMES

from ..positions import position

C = Card.parse


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def cap(seat: int, play: str, take: str) -> Capture:
    return Capture(seat, cards(play), cards(take))


def claim(seat: int, text: str) -> Claim:
    return Claim(seat, cards(text))


SURVIVOR = Rules.make("survivor")
LAST = Rules.make("last-capture")


def illegal(state: State, action: object, match: str | None = None) -> str:
    """Assert ``action`` is rejected with a sentence and leaves the state untouched."""
    before = (state.hands[:], state.table_mask, state.won[:], state.to_move, len(state.history))
    with pytest.raises(IllegalActionError, match=match) as info:
        state.apply(action)  # type: ignore[arg-type]
    after = (state.hands[:], state.table_mask, state.won[:], state.to_move, len(state.history))
    assert before == after
    assert not state.can(action)  # type: ignore[arg-type]
    message = str(info.value)
    assert message and "\n" not in message
    return message


# -- §1 cards, seats, notation -------------------------------------------------------------


def test_rules_1_card_notation() -> None:
    assert str(C("QS")) == "QS"
    assert C("10d") == C("TD") == C("10♦")
    assert C("q♠") == C("QS")
    assert str(C("ah")) == "AH"
    assert C("AS").rank == 0 and C("KC").rank == 12
    for bad in ("", "Q", "1S", "QX", "11H", "ZZ"):
        with pytest.raises(CardError):
            C(bad)


def test_rules_1_seats_and_eldest() -> None:
    state = State.deal(SURVIVOR, seed=1, dealer=4)
    assert state.eldest == 0 and state.to_move == 0


# -- §2 the deal ---------------------------------------------------------------------------


@pytest.mark.parametrize("players,hand,table,antes", [(5, 8, 12, 11), (4, 10, 12, 9), (3, 13, 13, 7)])
def test_rules_2_layout_and_antes(players: int, hand: int, table: int, antes: int) -> None:
    rules = Rules.make(players=players, options={"table_mournival_to_dealer": False})
    assert LAYOUTS[players] == (hand, table)
    assert rules.antes == antes
    state = State.deal(rules, seed=11)
    assert [len(state.hand(s)) for s in range(players)] == [hand] * players
    assert len(state.table) == table
    assert state.pot == antes
    assert sum(state.chips()) == -antes


def test_rules_2_1_first_dealer_cut_lowest_deals() -> None:
    for seed in range(200):
        dealer, rounds = cut_for_dealer(5, PortableRandom(seed))
        last = rounds[-1]
        low = min(c.rank for _, c in last)
        assert [s for s, c in last if c.rank == low] == [dealer]
        for earlier, later in zip(rounds, rounds[1:], strict=False):
            low = min(c.rank for _, c in earlier)
            tied = [s for s, c in earlier if c.rank == low]
            assert len(tied) > 1 and [s for s, _ in later] == tied
    assert any(len(cut_for_dealer(5, PortableRandom(s))[1]) > 1 for s in range(200))


def test_rules_2_1_first_dealer_seat_and_rotation() -> None:
    rules = Rules.make(options={"first_dealer": "seat"})
    session = Session(rules, seed=3)
    assert session.first_dealer == 0
    assert session.schedule == [0, 1, 2, 3, 4]
    cut = Session(SURVIVOR, seed=3)
    first = cut.first_dealer
    assert cut.schedule == [(first + i) % 5 for i in range(5)]


def test_rules_2_2_antes() -> None:
    rules = Rules.make(options={"ante_dealer": 4, "ante_other": 1})
    state = State.deal(rules, seed=2, dealer=3)
    assert state.chips() == (-1, -1, -1, -4, -1)
    assert state.pot == 8


def test_rules_2_3_deal_one_at_a_time_from_eldest() -> None:
    rules = Rules.make(options={"table_mournival_to_dealer": False})
    deck = list(range(52))
    PortableRandom(99).shuffle(deck)
    state = State.deal(rules, seed=99, dealer=2)
    for i in range(40):
        seat = (3 + i) % 5
        assert state.hands[seat] >> deck[i] & 1
    assert set(state.table) == set(deck[40:])


def test_rules_2_3_portable_shuffle_is_fixed() -> None:
    # A seed names a deal on every machine: these are the first cards of seed 0 and 1.
    deck = list(range(52))
    PortableRandom(0).shuffle(deck)
    assert deck[:8] == GOLDEN_SEED0_DECK
    state = State.deal(Rules.make(options={"table_mournival_to_dealer": False}), seed=0)
    assert state.hands[1] >> deck[0] & 1 and state.hands[2] >> deck[1] & 1


GOLDEN_SEED0_DECK = [48, 23, 25, 21, 28, 24, 43, 20]


def test_rules_2_4_table_mournival_to_dealer() -> None:
    seed = next(s for s in range(5000) if any(
        (State.deal(Rules.make(options={"table_mournival_to_dealer": False}), s).table_mask
         >> 4 * r) & 15 == 15 for r in range(13)))
    off = State.deal(Rules.make(options={"table_mournival_to_dealer": False}), seed, dealer=2)
    on = State.deal(SURVIVOR, seed, dealer=2)
    assert len(off.table) == 12 and len(on.table) == 8
    assert len(on.won_cards(2)) == 4
    assert isinstance(on.history[0], TableMournival)
    assert {c.rank for c in on.history[0].cards} == {on.history[0].cards[0].rank}


def test_rules_2_4_mournival_reaching_table_later_is_a_spotter_claim() -> None:
    # Seat 2 lies down holding a mournival of 9s: the 9s lie on the table, but nothing
    # moves them automatically; they are a spotter claim.
    state = position(SURVIVOR, ["AS AH", "2S 2H", "9S 9H 9D 9C", "3S 3H"], "KS KH",
                     to_move=2, dealer=0)
    state.rules = Rules.make(options={"hand_sets": False, "dead_claims": "off"})
    state.apply(LieDown(2))
    assert len([c for c in state.table if c.rank == 8]) == 4
    assert claim(0, "9S 9H 9D 9C") in state.claims(0)


def test_rules_2_portable_generator_is_documented_splitmix64() -> None:
    r = PortableRandom(0)
    assert r.next64() == 0xE220A8397B1DCDAF
    assert PortableRandom(-1).next64() == PortableRandom(2**64 - 1).next64()


# -- §3 live and dead ranks ----------------------------------------------------------------


def test_rules_3_dead_rank_cannot_be_captured() -> None:
    # Seat 1 holds both live 5s: nobody can capture 5s; seat 2's only capture is gone.
    state = position(SURVIVOR, ["KS KH", "5S 5H 7S", "7H 8S", "8H QS", "QH"], "",
                     to_move=2)
    state.table_mask = 0
    assert 3 not in [c.rank for c in state.table]
    assert state.dead_ranks() == [4, 12]
    for seat in range(5):
        assert all(not (isinstance(a, Capture) and a.take[0].rank == 4)
                   for a in state.legal_actions(seat))


# -- §4 turns ------------------------------------------------------------------------------


def test_rules_4_eldest_first_then_clockwise_skipping_out_seats() -> None:
    state = position(SURVIVOR, ["4S 4H", "AS 2S", "", "3S 3H", "5S 5H"], "AH 2H",
                     to_move=1, lain=(2,))
    state.apply(cap(1, "AS", "AH"))
    assert state.to_move == 3
    assert state.status(2) is Status.LAIN_DOWN


def test_rules_4_must_capture_no_pass() -> None:
    state = position(SURVIVOR, ["4S 4H", "AS 9S", "3S 3H", "5S 5H", "9H KS"], "AH KH",
                     to_move=1)
    message = illegal(state, LieDown(1), "can capture")
    assert "AS takes AH" in message
    assert all(isinstance(a, Capture) for a in state.turn_actions())


def test_rules_4_single() -> None:
    state = position(SURVIVOR, ["4S 4H", "QS 9S", "3S 3H", "5S 5H", "9H KS KD QH"], "QD QC KH KC",
                     to_move=1)
    op = state.apply(cap(1, "QS", "QD"))
    assert isinstance(op, Capture) and op.kind is CaptureKind.SINGLE
    assert set(state.won_cards(1)) >= {C("QS"), C("QD")}
    assert C("QD") not in state.table


def _sweep_position(rules: Rules) -> State:
    return position(rules, ["4S 4H", "QS 9S", "3S 3H", "5S 5H", "9H"], "QH QD QC",
                    to_move=1)


def test_rules_4_sweep_choice() -> None:
    state = _sweep_position(SURVIVOR)
    caps = state.turn_actions()
    assert cap(1, "QS", "QH QD QC") in caps
    assert {cap(1, "QS", t) for t in ("QH", "QD", "QC")} <= set(caps)
    state.apply(cap(1, "QS", "QH QD QC"))
    assert len(state.won_cards(1)) == 4


def test_rules_4_sweep_forced() -> None:
    state = _sweep_position(SURVIVOR.replace(single_takes_three="forced"))
    assert [a for a in state.turn_actions() if a.kind is CaptureKind.SINGLE] == []  # type: ignore[union-attr]
    illegal(state, cap(1, "QS", "QH"), "must take all three")
    state.apply(cap(1, "QS", "QH QD QC"))


def test_rules_4_sweep_off() -> None:
    state = _sweep_position(SURVIVOR.replace(single_takes_three="off"))
    assert cap(1, "QS", "QH QD QC") not in state.turn_actions()
    illegal(state, cap(1, "QS", "QH QD QC"), "single_takes_three is off")
    state.apply(cap(1, "QS", "QD"))


def test_rules_4_pair_on_pair() -> None:
    state = position(SURVIVOR, ["4S 4H", "QS QH 9S", "3S 3H", "5S 5H", "9H"], "QD QC",
                     to_move=1)
    assert cap(1, "QS QH", "QD QC") in state.turn_actions()
    off = position(SURVIVOR.replace(pair_on_pair=False), ["4S 4H", "QS QH 9S", "3S 3H", "5S 5H", "9H"],
                   "QD QC", to_move=1)
    assert all(len(a.play) == 1 for a in off.turn_actions())  # type: ignore[union-attr]
    illegal(off, cap(1, "QS QH", "QD QC"), "pair_on_pair is off")
    op = state.apply(cap(1, "QS QH", "QD QC"))
    assert op.kind is CaptureKind.PAIR  # type: ignore[union-attr]


def test_rules_4_prial_on_single() -> None:
    hands = ["4S 4H", "QS QH QD 9S", "3S 3H", "5S 5H", "9H"]
    state = position(SURVIVOR, hands, "QC", to_move=1)
    assert cap(1, "QS QH QD", "QC") in state.turn_actions()
    assert cap(1, "QS", "QC") in state.turn_actions()
    off = position(SURVIVOR.replace(prial_on_single=False), hands, "QC", to_move=1)
    illegal(off, cap(1, "QS QH QD", "QC"), "prial_on_single is off")
    op = state.apply(cap(1, "QS QH QD", "QC"))
    assert op.kind is CaptureKind.PRIAL  # type: ignore[union-attr]


def test_rules_4_each_card_choice_is_its_own_action() -> None:
    state = position(SURVIVOR, ["4S 4H", "QS QH 9S", "3S 3H", "5S 5H", "9H"], "QD QC",
                     to_move=1)
    singles = [a for a in state.turn_actions() if a.kind is CaptureKind.SINGLE]  # type: ignore[union-attr]
    assert len(singles) == 4  # two queens in hand × two on the table


def test_rules_4_capture_errors_are_sentences() -> None:
    state = position(SURVIVOR, ["4S 4H", "QS 9S", "3S 3H", "5S 5H", "9H KS"], "QH KH",
                     to_move=1)
    assert illegal(state, cap(3, "3S", "QH")) == "it is seat 1's turn, not seat 3's"
    assert illegal(state, cap(1, "QC", "QH")) == "seat 1 does not hold QC"
    assert illegal(state, cap(1, "KS", "KH")) == "seat 1 cannot take KH: seat 1 holds no king"
    assert illegal(state, cap(1, "2S", "2H")) == "seat 1 cannot take 2H: seat 1 holds no 2"
    assert illegal(state, cap(1, "QS", "QD")) == "QD is not on the table"
    assert "one rank" in illegal(state, cap(1, "QS", "KH"))
    assert "twice" in illegal(state, Capture(1, cards("QS"), cards("QH QH")))
    two = position(SURVIVOR, ["4S 4H", "QS 9S", "3S 3H", "5S 5H", "9H KS KH QC"], "QH QD",
                   to_move=1)
    assert "no capture" in illegal(two, cap(1, "QS", "QH QD"))
    illegal(state, Trail(1, C("QS")), "modern-laugh")
    illegal(state, cap(7, "QS", "QH"), "no seat 7")


def test_rules_4_lie_down() -> None:
    rules = SURVIVOR
    state = position(rules, ["4S 4H", "AS 9S", "3S 3H", "5S 5H", "9H KS AH"], "KH 7S 7H",
                     to_move=1)
    assert state.turn_actions() == [LieDown(1)]
    op = state.apply(LieDown(1))
    assert set(state.table) >= {C("AS"), C("9S")}
    assert state.status(1) is Status.LAIN_DOWN and state.hands[1] == 0
    assert op.cards == cards("AS 9S")  # type: ignore[union-attr]
    assert state.to_move == 2
    assert rules.laugh and not Rules.make(variants=["silent"]).laugh


def test_rules_4_trail() -> None:
    rules = Rules.make(variants=["modern-laugh"])
    state = position(rules, ["4S 4H", "AS 9S", "3S 3H", "5S 5H", "9H KS AH"], "KH 7S 7H",
                     to_move=1)
    assert state.turn_actions() == [Trail(1, C("AS")), Trail(1, C("9S"))]
    illegal(state, LieDown(1), "trails a card")
    illegal(state, Trail(1, C("3S")), "does not hold")
    state.apply(Trail(1, C("AS")))
    assert C("AS") in state.table and state.hand(1) == cards("9S")
    assert state.status(1) is Status.PLAYING


def test_rules_4_trail_seat_with_empty_hand_is_out() -> None:
    rules = Rules.make(variants=["modern-laugh"])
    state = position(rules, ["4S 4H", "AS", "3S 3H", "5S 5H", "9H 9S AH"], "KH KS",
                     to_move=1)
    state.apply(Trail(1, C("AS")))
    assert state.status(1) is Status.EMPTY
    assert state.to_move == 2


# -- §5 claims -----------------------------------------------------------------------------


def test_rules_5_claims_never_use_a_turn_and_go_out_of_turn() -> None:
    state = position(SURVIVOR, ["4S 4H", "AS 9S", "3S 3H", "5S 5H KS KH", "9H AH"], "",
                     to_move=1)
    state.table_mask = 0
    assert claim(2, "3S 3H") in state.claims(2)  # dead pair, seat 2 is not to move
    state.apply(claim(2, "3S 3H"))
    assert state.to_move == 1


def test_rules_5_claim_emptying_mover_hand_passes_turn() -> None:
    state = position(SURVIVOR, ["4S 4H", "3S 3H", "AS AH", "5S 5H", "9H 9S"], "KS KH",
                     to_move=1)
    state.apply(claim(1, "3S 3H"))
    assert state.status(1) is Status.EMPTY and state.to_move == 2


def test_rules_5_1_hand_set_prial_two_of_three() -> None:
    state = State.deal(SURVIVOR, seed=0)
    state = position(SURVIVOR, ["4S 4H", "QS QH QD 9S", "3S 3H", "5S 5H", "9H QC"], "AS AH",
                     to_move=1, foreplay=True)
    claims = [c for c in state.claims(1) if c.cards[0].rank == 11]
    assert sorted(map(str, claims)) == ["1: claim QH QD", "1: claim QS QD", "1: claim QS QH"]
    illegal(state, claim(1, "QS QH QD"), "third kept")
    op = state.apply(claim(1, "QS QD"))
    assert isinstance(op, Claimed) and op.kind is ClaimKind.HAND_SET
    assert set(state.hand(1)) == set(cards("QH 9S"))


def test_rules_5_1_hand_set_mournival_all_four() -> None:
    state = position(SURVIVOR, ["4S 4H", "QS QH QD QC 9S", "3S 3H", "5S 5H", "9H"], "AS AH",
                     to_move=2, foreplay=True)
    assert claim(1, "QS QH QD QC") in state.claims(1)
    illegal(state, claim(1, "QS QH"), "whole")
    state.apply(claim(1, "QS QH QD QC"))


def test_rules_5_1_hand_sets_off() -> None:
    rules = SURVIVOR.replace(hand_sets=False)
    state = position(rules, ["4S 4H", "QS QH QD 9S", "3S 3H", "5S 5H", "9H QC"], "AS AH",
                     to_move=1, foreplay=True)
    assert [c for c in state.claims(1) if c.cards[0].rank == 11] == []
    illegal(state, claim(1, "QS QH"), "off")


def test_rules_5_1_hand_set_timing_foreplay() -> None:
    rules = LAST  # hand_set_timing = foreplay
    hands = ["4S 4H", "QS QH QD 9S", "3S 3H", "5S 5H", "9H QC"]
    fore = position(rules, hands, "AS AH", to_move=1, foreplay=True)
    assert claim(1, "QS QH") in fore.claims(1)
    later = position(rules, hands, "AS AH", to_move=1, foreplay=False)
    assert [c for c in later.claims(1) if len(c.cards) == 2 and c.cards[0].rank == 11] == []
    illegal(later, claim(1, "QS QH"), "only before the first turn")


def test_rules_5_1_hand_set_timing_own_turn() -> None:
    hands = ["4S 4H", "QS QH QD 9S", "3S 3H", "5S 5H", "9H QC"]
    mine = position(SURVIVOR, hands, "AS AH", to_move=1, foreplay=False)
    assert claim(1, "QS QH") in mine.claims(1)
    others = position(SURVIVOR, hands, "AS AH", to_move=2, foreplay=False)
    illegal(others, claim(1, "QS QH"), "own turn")


def test_rules_5_1_any_seat_in_foreplay() -> None:
    state = position(SURVIVOR, ["4S 4H", "9S", "QS QH QD 3S", "5S 5H", "9H QC"], "3H AS AH",
                     to_move=1, foreplay=True)
    assert claim(2, "QS QH") in state.claims(2)


def test_rules_5_1_face_down_hand_sets_are_hidden_from_others() -> None:
    rules = LAST
    state = position(rules, ["4S 4H", "QS QH QD QC 9S", "3S 3H", "5S 5H", "9H"], "AS AH",
                     to_move=1, foreplay=True)
    op = state.apply(claim(1, "QS QH QD QC"))
    assert isinstance(op, Claimed) and op.face_down
    other = state.view(2)
    hidden = other.history[-1]
    assert isinstance(hidden, Claimed) and hidden.cards is None and hidden.count == 4
    assert not set(other.won_seen[1]) & set(cards("QS QH QD QC"))
    own = state.view(1)
    assert own.history[-1] == op


def test_rules_5_1_mournival_outside_window_is_face_up_dead_claim() -> None:
    rules = LAST
    state = position(rules, ["4S 4H", "QS QH QD QC 9S", "3S 3H", "5S 5H", "9H"], "AS AH",
                     to_move=2, foreplay=False)
    op = state.apply(claim(1, "QS QH QD QC"))
    assert isinstance(op, Claimed) and op.kind is ClaimKind.DEAD and not op.face_down
    assert state.view(3).history[-1] == op


def test_rules_5_2_dead_claims_any_time() -> None:
    state = position(SURVIVOR, ["4S 4H", "AS 9S", "3S 3H", "5S 5H", "9H AH"], "KS KH",
                     to_move=1)
    assert claim(2, "3S 3H") in state.claims(2)
    assert claim(1, "AS 9S") not in state.claims(1)


def test_rules_5_2_dead_claim_needs_all_live_cards() -> None:
    state = position(SURVIVOR, ["4S 4H", "AS 9S", "3S 3H", "5S 5H 3D 3C", "9H AH"], "KS KH",
                     to_move=1)
    assert claim(2, "3S 3H") not in state.claims(2)
    illegal(state, claim(2, "3S 3H"), "still live")


def test_rules_5_2_dead_claims_own_turn() -> None:
    rules = SURVIVOR.replace(dead_claims="own_turn")
    state = position(rules, ["4S 4H", "AS 9S", "3S 3H", "5S 5H", "9H AH"], "KS KH",
                     to_move=1)
    assert claim(2, "3S 3H") not in state.claims(2)
    illegal(state, claim(2, "3S 3H"), "own turn")
    state.to_move = 2
    assert claim(2, "3S 3H") in state.claims(2)


def test_rules_5_2_dead_claims_off() -> None:
    rules = SURVIVOR.replace(dead_claims="off")
    state = position(rules, ["4S 4H", "AS 9S", "3S 3H", "5S 5H", "9H AH"], "KS KH",
                     to_move=2)
    assert claim(2, "3S 3H") not in state.claims(2)
    illegal(state, claim(2, "3S 3H"), "off")


def test_rules_5_3_spotter_claims_any_seat_even_lain_down() -> None:
    state = position(SURVIVOR, ["4S 4H", "AS 9S", "", "5S 5H", "9H AH"], "QD QC",
                     to_move=1, lain=(2,))
    for seat in range(5):
        assert claim(seat, "QD QC") in state.claims(seat)
    illegal(state, claim(2, "QD"), "as many as there are")
    state.apply(claim(2, "QD QC"))
    assert set(state.won_cards(2)) >= set(cards("QD QC"))
    illegal(state, claim(3, "QD QC"), "not on the table")  # first claim made wins


def test_rules_5_3_spotter_claims_off() -> None:
    state = position(LAST, ["4S 4H", "AS 9S", "3S 3H", "5S 5H", "9H AH"], "QD QC",
                     to_move=1)
    assert claim(0, "QD QC") not in state.claims(0)
    illegal(state, claim(0, "QD QC"), "off")


def test_rules_5_3_claim_order_from_left_of_last_actor() -> None:
    state = State.deal(SURVIVOR, seed=5, dealer=2)
    assert state.claim_order() == [3, 4, 0, 1, 2]
    state.apply(state.turn_actions()[0])
    assert state.claim_order() == [4, 0, 1, 2, 3]
    assert state.view(2).claim_order == (4, 0, 1, 2, 3)
    order = [c.seat for c in state.open_claims()]
    assert order == sorted(order, key=state.claim_order().index)


def test_rules_5_3_dead_rank_in_survivor_hand_goes_to_dealer() -> None:
    # Seat 1 takes the last possible capture; seat 3, the survivor, holds a dead pair of
    # 3s: the deal ends at once, and the 3s go to the dealer with the residue.
    state = position(SURVIVOR, ["", "AS", "", "3S 3H", ""], "AH", to_move=1, lain=(0, 2, 4),
                     dealer=0)
    state.apply(cap(1, "AS", "AH"))
    assert state.over and state.result is not None and state.result.survivor == 3
    assert set(cards("3S 3H")) <= set(state.won_cards(0))
    illegal(state, claim(3, "3S 3H"), "over")


# -- §6 end of the deal --------------------------------------------------------------------


def test_rules_6_end_after_claim_and_no_further_action() -> None:
    state = position(SURVIVOR, ["", "3S 3H", "", "AS AH", ""], "", to_move=1, lain=(0, 2, 4))
    state.table_mask = 0
    state.apply(claim(3, "AS AH"))
    assert state.over and state.result is not None and state.result.survivor == 1
    assert state.legal_actions(1) == [] and state.open_claims() == []
    illegal(state, claim(1, "3S 3H"), "the deal is over")


def test_rules_6_1_residue_to_dealer() -> None:
    state = position(SURVIVOR, ["", "AS", "", "3S 3H KS", ""], "AH KH", to_move=1,
                     lain=(0, 2, 4), dealer=4)
    won_before = len(state.won_cards(4))
    state.apply(cap(1, "AS", "AH"))
    assert len(state.won_cards(4)) == won_before + 4
    assert state.table == () and state.hand(3) == ()


def test_rules_6_2_prize_survivor() -> None:
    r = settle(SURVIVOR, (16, 12, 10, 8, 6), dealer=0, survivor=2, last_capture=4, pot_before=0)
    assert r.prize_to == 2


def test_rules_6_2_prize_last_capture_and_none() -> None:
    r = settle(LAST, (16, 12, 10, 8, 6), dealer=0, survivor=2, last_capture=4, pot_before=0)
    assert r.prize_to == 4 and r.chips[4] == -2 - 1 + 5
    nobody = settle(LAST, (16, 12, 10, 8, 6), dealer=0, survivor=2, last_capture=None,
                    pot_before=0)
    assert nobody.prize_to is None and nobody.pot_after == 5


def test_rules_6_2_claims_do_not_count_as_last_capture() -> None:
    state = position(LAST, ["", "AS", "", "3S 3H KS", "QS QH"], "AH KH", to_move=1,
                     lain=(0, 2))
    state.apply(cap(1, "AS", "AH"))
    state.apply(claim(4, "QS QH"))
    assert state.over and state.result is not None
    assert state.result.last_capture == 1 and state.result.prize_to == 1


def test_rules_6_3_rounding() -> None:
    won = (20, 16, 16)  # quota 13: +7, +3, +3 surplus
    toward = settle(Rules.make(players=3), won, 0, 2, 2, 0)
    floor = settle(Rules.make(players=3, options={"rounding": "floor"}), won, 0, 2, 2, 0)
    assert toward.pairs == (3, 1, 1) and floor.pairs == (3, 1, 1)
    low = (6, 22, 24)  # -7, +9, +11
    assert settle(Rules.make(players=3), low, 0, 2, 2, 0).pairs == (-3, 4, 5)
    assert settle(Rules.make(players=3, options={"rounding": "floor"}), low, 0, 2, 2, 0).pairs == (-4, 4, 5)


def test_rules_6_4_signed_ledger() -> None:
    r = settle(Rules.make(players=3), (6, 22, 24), 0, 2, 2, pot_before=-3)
    assert r.pot_before - r.pot_after == sum(r.chips)


def test_rules_6_standard_game_pot_returns() -> None:
    for seed in range(50):
        state = State.deal(SURVIVOR, seed, pot=7)
        while not state.over:
            state.apply(state.turn_actions()[-1])
        assert state.result is not None and state.result.pot_after == 7


def test_rules_6_card_count_scoring() -> None:
    rules = Rules.make(variants=["low-stakes"])
    assert rules.antes == 0
    r = settle(rules, (16, 12, 16, 8, 0), 0, 2, 4, pot_before=3)
    assert r.chips == (0,) * 5 and r.pairs is None and r.prize_to is None
    assert r.pot_after == 3 and r.winners == (0, 2)


# -- §7 the session ------------------------------------------------------------------------


def _play_session_until_last(session: Session) -> State:
    while True:
        state = session.start_deal()
        while not state.over:
            state.apply(state.turn_actions()[0])
        if len(session.deals) == len(session.schedule):
            return state
        session.end_deal(state)


def test_rules_7_session_deals_default_one_per_player() -> None:
    for players in (3, 4, 5):
        assert Rules.make(players=players).deals == players
    session = Session(SURVIVOR, seed=9)
    last = _play_session_until_last(session)
    session.end_deal(last)
    if session.over:
        best = max(session.balances)
        assert session.winners == tuple(s for s in range(5) if session.balances[s] == best)
        assert len(session.results) == 5
    assert sum(session.balances) + session.pot == 0


def test_rules_7_tie_break_shared() -> None:
    session = Session(SURVIVOR, seed=4)
    last = _play_session_until_last(session)
    assert last.result is not None
    chips = last.result.chips
    session.balances = [10 - chips[s] if s in (1, 3) else -20 for s in range(5)]
    session.end_deal(last)
    assert session.over and session.winners == (1, 3)


def test_rules_7_tie_break_extra_deals() -> None:
    rules = Rules.make("last-capture", options={"max_tie_cycles": 2})
    session = Session(rules, seed=4)
    last = _play_session_until_last(session)
    assert last.result is not None
    chips = last.result.chips
    session.balances = [10 - chips[s] if s in (1, 3) else -20 for s in range(5)]
    session.end_deal(last)
    assert not session.over and session.schedule[5:] == [1, 3]
    cycles = 0
    while not session.over:
        state = session.start_deal()
        assert state.dealer == session.schedule[len(session.deals) - 1]
        while not state.over:
            state.apply(state.turn_actions()[0])
        session.end_deal(state)
        cycles = session.tie_cycles
    assert cycles <= 2
    assert len(session.deals) in (7, 8, 9) or len(session.winners) > 1


def test_rules_7_card_count_standings() -> None:
    rules = Rules.make(variants=["low-stakes"], players=3)
    session = Session(rules, seed=2)
    while not session.over:
        state = session.start_deal()
        while not state.over:
            state.apply(state.turn_actions()[0])
        session.end_deal(state)
    rows = session.standings()
    keys = [(r.deals_won, r.cards_won) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert session.balances == [0, 0, 0] and session.pot == 0


# -- §8 presets ----------------------------------------------------------------------------

PRESET_TABLE = {
    "prize_rule": ("survivor", "last_capture"),
    "prize": (5, 5),
    "single_takes_three": ("choice", "off"),
    "pair_on_pair": (True, True),
    "prial_on_single": (True, True),
    "hand_sets": (True, True),
    "hand_set_timing": ("foreplay_or_own_turn", "foreplay"),
    "hand_sets_face_down": (False, True),
    "prials_face_up": (False, False),
    "dead_claims": ("any_time", "any_time"),
    "spotter_claims": (True, False),
    "table_mournival_to_dealer": (True, True),
    "no_capture": ("lie_down", "lie_down"),
    "rounding": ("toward_zero", "toward_zero"),
    "pot_rule": ("signed", "signed"),
    "scoring": ("chips", "chips"),
    "tie_break": ("shared", "extra_deals"),
    "ante_dealer": (3, 3),
    "ante_other": (2, 2),
    "first_dealer": ("cut", "cut"),
    "laugh": (True, True),
    "max_tie_cycles": (3, 3),
}


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_rules_8_presets(name: str) -> None:
    assert set(PRESET_TABLE) == set(OPTION_NAMES) - {"deals"}
    for i, preset in enumerate(("survivor", "last-capture")):
        assert getattr(Rules.make(preset), name) == PRESET_TABLE[name][i]


def test_rules_8_player_adaptations() -> None:
    assert Rules.make("survivor", 4).prize == 3
    assert Rules.make("last-capture", 4).prize == 5
    assert Rules.make("survivor", 3).prize == 5
    assert Rules.make("survivor", 3).deals == 3


def test_rules_8_variants_and_precedence() -> None:
    assert Rules.make(variants=["modern-laugh"]).no_capture == "trail"
    assert Rules.make(variants=["low-stakes"]).scoring == "card_count"
    assert Rules.make(variants=["silent"]).laugh is False
    assert Rules.make("survivor", 4, options={"prize": 9}).prize == 9
    assert Rules.make(variants=["modern-laugh"], options={"no_capture": "lie_down"}).no_capture == "lie_down"
    assert Rules.make(options={"deals": 2}).deals == 2
    assert Rules.make(options={"pair_on_pair": "off"}).pair_on_pair is False


@pytest.mark.parametrize("call,words", [
    (lambda: Rules.make("classic"), "survivor or last-capture"),
    (lambda: Rules.make(players=6), "3, 4 or 5"),
    (lambda: Rules.make(variants=["loud"]), "modern-laugh, low-stakes or silent"),
    (lambda: Rules.make(options={"jokers": True}), "prize_rule"),
    (lambda: Rules.make(options={"rounding": "up"}), "toward_zero or floor"),
    (lambda: Rules.make(options={"laugh": "maybe"}), "on or off"),
    (lambda: Rules.make(options={"prize": -1}), "from 0 to 100"),
    (lambda: Rules.make(options={"deals": 0}), "from 1 to 50"),
    (lambda: Rules.make(options={"prize": "lots"}), "whole number"),
])
def test_rules_8_unknown_names_are_clear_errors(call: object, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        call()  # type: ignore[operator]


# -- §9 what a seat may know ---------------------------------------------------------------


def test_rules_9_view_holds_own_hand_only() -> None:
    state = State.deal(SURVIVOR, seed=8)
    for seat in range(5):
        v = state.view(seat)
        assert v.hand == state.hand(seat)
        text = repr(v)
        for other in range(5):
            if other != seat:
                for c in state.hand(other):
                    assert f"Card.parse('{c}')" not in text
    spectator = state.view(None)
    assert spectator.hand == ()


# -- §10 worked examples -------------------------------------------------------------------


def _queen_sweep(rules: Rules) -> State:
    return position(rules, ["4S 4H", "QS 9S", "3S 3H", "5S 5H", "9H"], "QH QD QC",
                    to_move=1, lain=())


def test_rules_10_1_queen_sweep_survivor() -> None:
    state = _queen_sweep(SURVIVOR)
    assert cap(1, "QS", "QH QD QC") in state.turn_actions()
    assert cap(1, "QS", "QH") in state.turn_actions()
    state.apply(cap(1, "QS", "QH"))
    assert state.dead_ranks().count(11) == 1
    for seat in range(5):
        assert claim(seat, "QD QC") in state.claims(seat)
    state.lain[0] = True
    assert claim(0, "QD QC") in state.claims(0)


def test_rules_10_1_queen_sweep_last_capture() -> None:
    state = _queen_sweep(LAST)
    assert [a for a in state.turn_actions() if a.take[0].rank == 11] == [  # type: ignore[union-attr]
        cap(1, "QS", "QH"), cap(1, "QS", "QD"), cap(1, "QS", "QC")]
    state.apply(cap(1, "QS", "QH"))
    assert all(claim(s, "QD QC") not in state.claims(s) for s in range(5))
    assert set(cards("QD QC")) <= set(state.table)


def test_rules_10_2_settlement_five_players() -> None:
    r = settle(SURVIVOR, (16, 12, 10, 8, 6), dealer=0, survivor=2, last_capture=None,
               pot_before=0)
    assert r.pairs == (4, 2, 1, 0, -1)
    assert sum(r.pairs) == 6
    assert r.chips == (1, 0, 4, -2, -3)
    assert r.pot_after == 0


def test_rules_10_3_four_players_last_capture() -> None:
    rules = Rules.make("last-capture", 4)
    r = settle(rules, (18, 14, 12, 8), dealer=0, survivor=1, last_capture=2, pot_before=0)
    assert r.pairs == (4, 2, 1, -1)
    assert r.pot_after == -2


def test_rules_2_a_layout_must_be_a_deal_of_the_rules() -> None:
    """A deal laid out by hand is refused, with a sentence, unless each seat has one hand of
    the hand size, the table its size, and no card lies twice."""
    rules = Rules.make("survivor", players=4)
    dealt = State.deal(rules, seed=3)
    hands = [dealt.hand(seat) for seat in range(4)]
    again = State.from_layout(rules, hands, dealt.table)
    assert again.dealt_hands == dealt.dealt_hands and again.dealt_table == dealt.dealt_table
    with pytest.raises(LayoutError, match="the layout has 3 hands; 4 players need 4"):
        State.from_layout(rules, hands[:3], dealt.table)
    twice = [hands[0], [hands[0][0], *hands[1][1:]], *hands[2:]]
    with pytest.raises(LayoutError, match=f"card {hands[0][0]} is dealt twice \\(in hand 1\\)"):
        State.from_layout(rules, twice, dealt.table)
    with pytest.raises(LayoutError, match=f"the table has {len(dealt.table) - 1} cards; it must have"):
        State.from_layout(rules, hands, dealt.table[1:])
