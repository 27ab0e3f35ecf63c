"""docs/rules.md §5 under ``prials_face_up``: the English text's foreplay, a mournival set
aside face down and a prial's two cards shown; and what each seat may see of it (§12).
§2.4: the Spanish text's forgotten table mournival, for whoever spots it."""

from __future__ import annotations

import pytest

from lald.core import Claim, Claimed, ClaimWindow, Rules, RulesError, State, parse_cards
from lald.rl.vector.tables import make_tables

from ..positions import position

ENGLISH_SETS = Rules.make(options={"hand_sets_face_down": "on", "prials_face_up": "on"})
HANDS = ["", "7S 7H 7D 2S", "9S 9H 9D 9C 3S", "KS", "2H 3H KH"]


def foreplay(rules: Rules) -> State:
    """Seat 1 sets two of its prial of 7s aside, then seat 2 its mournival of 9s."""
    state = position(rules, HANDS, "7C", to_move=1, foreplay=True, won={0: ""})
    state.apply(Claim(1, parse_cards("7S 7H")))
    state.apply(Claim(2, parse_cards("9S 9H 9D 9C")))
    return state


def claimed(state: State, seat: int) -> list[Claimed]:
    return [op for op in state.view(seat).history if isinstance(op, Claimed)]


def test_rules_5_1_prials_face_up_shows_the_prial_and_hides_the_mournival() -> None:
    state = foreplay(ENGLISH_SETS)
    prial, mournival = claimed(state, 3)
    assert prial.cards == parse_cards("7S 7H") and not prial.face_down
    assert mournival.cards is None and mournival.face_down and mournival.count == 4
    for seat in (0, 1, 3, 4):  # no other seat's view holds a card of the hidden set
        view = state.view(seat)
        assert not any(c in parse_cards("9S 9H 9D 9C") for c in view.won_seen[2])
        assert "9S" not in repr(view) and "9C" not in repr(view)
        assert set(parse_cards("7S 7H")) <= set(view.won_seen[1])
    own = state.view(2)  # the seat that set it aside sees its own cards
    assert set(parse_cards("9S 9H 9D 9C")) <= set(own.won_seen[2])


@pytest.mark.parametrize(("options", "prial_hidden", "mournival_hidden"), [
    ({"hand_sets_face_down": "on"}, True, True),
    ({"hand_sets_face_down": "off", "prials_face_up": "on"}, False, False),
    ({}, False, False),
])
def test_rules_5_1_without_prials_face_up_both_sets_follow_hand_sets_face_down(
        options: dict[str, str], prial_hidden: bool, mournival_hidden: bool) -> None:
    prial, mournival = claimed(foreplay(Rules.make(options=options)), 3)
    assert (prial.cards is None, mournival.cards is None) == (prial_hidden, mournival_hidden)


def test_rules_5_1_prials_face_up_record_round_trip() -> None:
    assert Rules.make(options={"prials_face_up": "on"}).spec()["options"] == {"prials_face_up": True}
    with pytest.raises(RulesError, match="bad value 'up' for prials_face_up: choose on or off"):
        Rules.make(options={"prials_face_up": "up"})


def test_rules_5_1_prials_face_up_the_compiled_vector_tables_leave_it_to_the_pure_ones() -> None:
    tables, kind = make_tables(ENGLISH_SETS, 2, 0)
    assert kind == "python"
    with pytest.raises(RulesError, match="prials_face_up is not played by the compiled tables yet"):
        make_tables(ENGLISH_SETS, 2, 0, backend="compiled")


def test_rules_2_4_a_mournival_left_on_the_table_is_for_whoever_spots_it() -> None:
    """docs/rules.md §2.4: seed 41 deals 7S 7H 7D 7C to the table (seat 0 deals); left there,
    it is a spotter claim open to every seat before the first move, eldest asked first."""
    seven = parse_cards("7S 7H 7D 7C")
    kept = State.deal(Rules.make(), seed=41)
    assert kept.dealer == 0 and set(seven) <= set(kept.won_cards(0))
    left = State.deal(Rules.make(options={"table_mournival_to_dealer": "off"}), seed=41)
    assert set(seven) <= set(left.table)
    for seat in range(5):
        assert Claim(seat, seven) in left.claims(seat)
    window = ClaimWindow(left)
    asked = window.asking()
    assert asked is not None and asked[0] == 1  # the eldest
    left.apply(Claim(3, seven))
    assert set(seven) <= set(left.won_cards(3)) and not set(seven) & set(left.table)
    silent = State.deal(Rules.make(options={"table_mournival_to_dealer": "off", "spotter_claims": "off"}),
                        seed=41)
    assert all(Claim(seat, seven) not in silent.claims(seat) for seat in range(5))
