"""The table's driver: the turn loop with people in some seats, undo, save and resume."""

from __future__ import annotations

import json

import pytest

from lald.core import Capture, Rules, State, parse_cards
from lald.i18n import Catalog
from lald.tui.game import Game, Prompt, PromptKind, SeatSpec
from lald.tui.words import choices, rank_groups, seat_rows, status_word

EN = Catalog("en")


def seats(players: int, humans: tuple[int, ...] = (0,)) -> list[SeatSpec]:
    return [SeatSpec("human" if s in humans else "random", f"P{s}") for s in range(players)]


def play_first(game: Game, prompts: list[Prompt] | None = None) -> None:
    """Play the session to its end, every person always taking the first offer."""
    while not game.session.over:
        if game.state is None:
            game.start_deal()
        event = game.advance()
        if event is None:
            game.finish_deal()
        elif isinstance(event, Prompt):
            if prompts is not None:
                prompts.append(event)
            game.act(event, event.actions[0])


def test_whole_session_against_bots_keeps_the_ledger() -> None:
    game = Game.new(Rules.make(players=5), seats(5), seed=21)
    prompts: list[Prompt] = []
    play_first(game, prompts)
    assert game.session.over and game.session.winners
    assert len(game.session.results) >= 5
    assert sum(game.session.balances) + game.session.pot == 0
    assert prompts and all(p.seat == 0 for p in prompts)


def test_turn_prompt_offers_exactly_the_engines_legal_actions() -> None:
    game = Game.new(Rules.make(players=4), seats(4, humans=(0, 1, 2, 3)), seed=5)
    state = game.start_deal()
    for _ in range(30):
        event = game.advance()
        if event is None:
            break
        assert isinstance(event, Prompt)
        if event.kind is PromptKind.TURN:
            assert event.seat == state.to_move
            assert list(event.actions) == state.legal_actions(event.seat)
        else:
            assert list(event.actions) == state.claims(event.seat)
        game.act(event, event.actions[0])


def test_claims_are_offered_in_claim_order_before_the_turn_and_pass_on() -> None:
    rules = Rules.make(players=5)
    for seed in range(300):
        game = Game.new(rules, seats(5, (0, 1, 2, 3, 4)), seed=seed)
        deal = game.start_deal()
        if sum(1 for s in range(5) if deal.claims(s)) >= 2:
            break
    order = deal.claim_order()
    expected = [s for s in order if deal.claims(s)]
    asked = []
    while True:
        event = game.advance()
        assert isinstance(event, Prompt)
        if event.kind is PromptKind.TURN:
            break
        asked.append(event.seat)
        game.decline(event)
    assert asked == expected
    # a declined claim is not offered again after the next action
    game.act(event, next(a for a in event.actions if isinstance(a, Capture)))
    event2 = game.advance()
    assert isinstance(event2, Prompt)
    if event2.kind is PromptKind.CLAIM:
        assert not set(event2.actions) <= game._declined[event2.seat]


def test_undo_rebuilds_the_deal_without_the_last_human_action() -> None:
    game = Game.new(Rules.make(players=3), seats(3), seed=8)
    game.start_deal()
    first = None
    while True:
        event = game.advance()
        if isinstance(event, Prompt):
            if first is None:
                first = event
                before = list(game.state.actions)  # type: ignore[union-attr]
                game.act(event, event.actions[-1])
            else:
                break
    assert game.can_undo and game.undo()
    state = game.state
    assert state is not None
    assert list(state.actions) == before
    again = game.advance()
    assert isinstance(again, Prompt) and again.seat == first.seat and again.actions == first.actions
    assert not game.undo()  # nothing of the person's left in this deal


def test_undo_is_refused_with_several_people() -> None:
    game = Game.new(Rules.make(players=3), seats(3, humans=(0, 1)), seed=8)
    game.start_deal()
    event = game.advance()
    while not isinstance(event, Prompt):
        event = game.advance()
    game.act(event, event.actions[0])
    assert not game.undo_allowed and not game.undo()


def test_snapshot_and_restore_continue_the_same_session() -> None:
    game = Game.new(Rules.make("last-capture", players=4), seats(4), seed=13)
    game.start_deal()
    for _ in range(12):
        event = game.advance()
        if isinstance(event, Prompt):
            game.act(event, event.actions[0])
    data = json.loads(json.dumps(game.snapshot()))
    again = Game.restore(data)
    assert again.seats == game.seats
    assert again.state is not None and game.state is not None
    assert again.state.actions == game.state.actions
    assert again.state.hands == game.state.hands
    with pytest.raises(ValueError):
        Game.restore({"format": "something else"})


def test_menu_offers_one_choice_per_outcome_and_confirms_lying_down() -> None:
    # issue 11, terminal 8: "one 7 takes one 7 (4 ways)" asked which suit, though only
    # ranks matter; now each different outcome is one line with the engine's cards
    rules = Rules.make()
    hands = [parse_cards("QS 2S 3S 4S 5S 6S 7S 8S"), parse_cards("AH 2H 3H 4H 5H 6H 7H 8H"),
             parse_cards("AD 2D 3D 4D 5D 6D 7D 8D"), parse_cards("AC 2C 3C 4C 5C 6C 7C 8C"),
             parse_cards("AS 9S 9H 9D 9C TS TH TD")]
    table = parse_cards("QH QD QC TC JS JH JD JC KS KH KD KC")
    state = State.from_layout(rules, hands, table, dealer=4)
    prompt = Prompt(0, PromptKind.TURN, tuple(state.legal_actions(0)))
    menu = choices(prompt, state, EN)
    assert len(prompt.actions) == 4  # Q♠ takes one of three queens, or sweeps them
    assert [c.label for c in menu] == ["Q♠ takes Q♥", "Q♠ sweeps all three: Q♥ Q♦ Q♣"]
    assert [c.ways for c in menu] == [3, 1]
    assert all(c.action in prompt.actions for c in menu)
    # a hand prial of nines set aside: two of three, one line (the engine keeps real cards)
    sets = choices(Prompt(4, PromptKind.CLAIM, tuple(state.claims(4))), state, EN)
    assert [c.label for c in sets] == ["set aside 9♠ 9♥ 9♦ 9♣ from your hand",
                                       "set aside 10♠ 10♥ from your hand", "let it pass"]
    # the lie-down is a confirmed choice
    state2 = State.from_layout(rules, hands, parse_cards("KS KH KD KC JS JH JD JC TC QH QD QC"),
                               dealer=4)
    state2.apply(Capture(0, (hands[0][0],), (table[0],)))
    prompt2 = Prompt(1, PromptKind.TURN, tuple(state2.legal_actions(1)))
    menu2 = choices(prompt2, state2, EN)
    confirmed = [c for c in menu2 if c.confirm]
    assert len(confirmed) == 1 and confirmed[0].label.startswith("lie down")
    # the queens left on the table after a single took one are a spotter claim
    assert any(c.label == "claim Q♦ Q♣ from the table" for c in menu2)
    assert choices(Prompt(0, PromptKind.CLAIM, ()), state2, EN)[-1].action is None


def test_hand_is_grouped_by_rank() -> None:
    groups = rank_groups(parse_cards("KS 2H 2C KD 2D 9S"))
    assert [len(g) for g in groups] == [3, 1, 2]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_last_with_cards_is_called_so_once_the_deal_is_over(lang: str) -> None:
    """Seen before: at the end of a deal, the survivor's row said "out of cards" like the
    rows of those who played their last card (the survivor's hand goes to the dealer), so
    only the settlement told who had won the prize for it."""
    catalog = Catalog(lang)
    game = Game.new(Rules.make(), [SeatSpec("random", f"P{s}") for s in range(5)], 3)
    game.start_deal()
    while (event := game.advance()) is not None:
        assert not isinstance(event, Prompt)
    state = game.state
    assert state is not None and state.result is not None
    rows = seat_rows(state.view(0), game.names, catalog)
    survivor = state.result.survivor
    assert rows[survivor].status == catalog.t("status_survivor")
    assert [r.status for r in rows if r.seat != survivor] == [
        status_word(state.view(0).statuses[s], catalog) for s in range(5) if s != survivor]
    assert catalog.t("status_survivor") not in [r.status for r in rows if r.seat != survivor]
