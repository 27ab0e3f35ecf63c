"""The hint (lald.coach.hints), shared by the terminal and the web table: the move the
strongest bot would make, its expected chips and margin, and the reason, as data and in
every language; on hand-built positions whose right choice is known; and made from the
seat's view alone (two deals that look the same from the seat give the same hint)."""

from __future__ import annotations

import random
import sys
from itertools import combinations
from pathlib import Path

import pytest

from lald.bots import make_bot
from lald.coach.hints import Hint, Reason, advise, best_level, chips, hint_json, hint_text, outcome
from lald.core import (
    Claim,
    IllegalActionError,
    LieDown,
    Rules,
    State,
    cards_of,
    parse_action,
)
from lald.i18n import LANGUAGES, Catalog
from lald.play.loop import step

sys.path.insert(0, str(Path(__file__).parents[1] / "core"))
from positions import position  # noqa: E402

SURVIVOR = Rules.make("survivor")
EN = Catalog("en")
#: A budget the expert never reaches in these tests: its worlds stop it, not the clock.
NO_CLOCK = 60.0


def test_the_exact_end_position_keeps_a_card_to_outlast() -> None:
    # lald review's known position (tests/coach/test_review.py): the single 7 keeps 7♥ for
    # 7♣ and seat 1 survives (+1 chip after its ante of 2); the pair leaves it to lie down
    # (-4). The hint says the single, worth what the review says it is worth.
    state = position(SURVIVOR, ["", "7S 7H 4S", "4H 8S", "", ""], "7D 7C 8H")
    hint = advise(state.view(1), state.legal_actions(1), worlds=16, time_limit=NO_CLOCK)
    assert hint.action == parse_action("1: 7S x 7D") and hint.level == best_level() == "expert"
    assert (hint.worth, hint.margin, hint.weighed, hint.only) == (1.0, 5.0, True, False)
    assert hint.reason == Reason("why_capture", {"count": 2})
    assert hint_text(hint, "7♠ takes 7♦", EN) == (
        "Hint: 7♠ takes 7♦. It wins 2 cards now. Played out by the expert bot, it is worth "
        "+1.0 chips on average, 5.0 chips more than the next best.")
    assert hint_json(hint) == {
        "seat": 1, "action": parse_action("1: 7S x 7D").to_json(), "level": "expert", "worth": 1.0,
        "margin": 5.0, "weighed": True, "only": False,
        "reason": {"key": "why_capture", "values": {"count": 2}}}


def test_a_dead_pair_is_banked_before_lying_down() -> None:
    # Seat 1 cannot capture, and holds both live 5s: claiming them first wins two cards.
    state = position(SURVIVOR, ["", "5S 5H 9S", "9H 3S JH", "", ""], "3H JS")
    claim = state.claims(1)[0]
    turn = advise(state.view(1), state.legal_actions(1), worlds=16, time_limit=NO_CLOCK)
    assert turn.action == claim and turn.reason == Reason("why_claim", {"count": 2})
    assert not turn.only and turn.worth is None
    # Offered out of turn (the claims alone), letting them pass is a choice too: not "only".
    window = advise(state.view(1), [claim], worlds=16, time_limit=NO_CLOCK)
    assert window.action == claim and not window.only
    assert "only" not in hint_text(window, "claim", EN)
    # With the claim made, lying down is all there is.
    state.apply(claim)
    forced = advise(state.view(1), state.legal_actions(1))
    assert forced.action == LieDown(1) and forced.only and forced.reason.key == "why_lie_down"
    assert hint_text(forced, "lie down", EN) == "Hint: lie down. No capture is possible. It is the only move."


def test_letting_a_claim_pass_is_said_in_words() -> None:
    hint = Hint(1, None, Reason("why_pass"), "expert")
    for lang in LANGUAGES:
        c = Catalog(lang)
        assert hint_text(hint, "", c) == f"{c.t('hint_do', action=c.t('act_pass'))} {c.t('why_pass')}"


def test_card_count_scoring_names_no_chips() -> None:
    rules = Rules.make("survivor", options={"scoring": "card_count"})
    state = position(rules, ["", "7S 7H 4S", "4H 8S", "", ""], "7D 7C 8H")
    hint = advise(state.view(1), state.legal_actions(1), worlds=16, time_limit=NO_CLOCK)
    assert hint.weighed and hint.worth is None and hint.margin is None
    assert hint_text(hint, "x", EN).endswith(EN.t("hint_best_cards"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_in_every_language(lang: str) -> None:
    c = Catalog(lang)
    reasons = (Reason("why_capture", {"count": 1}), Reason("why_claim", {"count": 3}), Reason("why_sweep"),
               Reason("why_trail"), Reason("why_lie_down"))
    extras = ({"worth": -1.25, "margin": 0.5, "weighed": True},
              {"worth": 2.0, "margin": 0.01, "weighed": True}, {"weighed": True}, {"only": True}, {})
    for reason in reasons:
        for extra in extras:
            text = hint_text(Hint(0, LieDown(0), reason, "expert", **extra), "MOVE", c)  # type: ignore[arg-type]
            assert text.startswith(c.t("hint_do", action="MOVE")) and "{" not in text and "\n" not in text
    tie = Hint(0, LieDown(0), Reason("why_trail"), "expert", worth=1.0, margin=0.04, weighed=True)
    assert hint_text(tie, "m", c).endswith(c.t("hint_worth_tie", worth=chips(1.0, c, signed=True)))


def test_nothing_to_decide_is_refused() -> None:
    state = State.deal(SURVIVOR, seed=2)
    seat = state.to_move
    assert seat is not None
    with pytest.raises(ValueError, match="nothing to decide"):
        advise(state.view(seat), [])
    with pytest.raises(ValueError, match="another seat"):
        advise(state.view((seat + 1) % 5), state.legal_actions(seat))


def _same_view_other_deal(state: State, seat: int) -> State | None:
    """The deal of ``state`` with two of another two seats' hidden cards swapped, replayed
    to now, if the seat's view stays the same (the earlier actions still legal)."""
    holders = [s for s in range(state.n) if s != seat and state.hands[s]]
    for a, b in combinations(holders, 2):
        for ca in cards_of(state.hands[a]):
            for cb in cards_of(state.hands[b]):
                if ca.rank == cb.rank:
                    continue
                hands = [list(cards_of(h)) for h in state.dealt_hands]
                hands[a][hands[a].index(ca)] = cb
                hands[b][hands[b].index(cb)] = ca
                other = State.from_layout(state.rules, hands, cards_of(state.dealt_table), state.dealer)
                try:
                    for action in state.actions:
                        other.apply(action)
                except IllegalActionError:
                    continue
                if other.view(seat) == state.view(seat):
                    assert other.hands != state.hands
                    return other
    return None


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_two_deals_that_look_the_same_from_the_seat_give_the_same_hint(preset: str) -> None:
    rules = Rules.make(preset)
    checked = 0
    for seed in range(12):
        state = State.deal(rules, seed, dealer=seed % 5)
        bots = [make_bot("heuristic", s, rules, random.Random(s)) for s in range(5)]
        for _ in range(3 + seed % 7):
            if not state.over:
                step(state, bots)
        if state.over or state.to_move is None:
            continue
        seat = state.to_move
        legal = state.legal_actions(seat)
        if len({outcome(a, state.view(seat)) for a in legal}) < 2:
            continue
        other = _same_view_other_deal(state, seat)
        if other is None:
            continue
        mine = advise(state.view(seat), legal, seed=f"t/{seed}", worlds=24, time_limit=NO_CLOCK)
        theirs = advise(other.view(seat), other.legal_actions(seat), seed=f"t/{seed}", worlds=24,
                        time_limit=NO_CLOCK)
        assert mine == theirs, seed
        assert mine.weighed or isinstance(mine.action, Claim)
        checked += 1
    assert checked >= 4
