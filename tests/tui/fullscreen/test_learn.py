"""The guided first deal (``lald play --learn``) and the expert's review of one's play after
a settlement, at the full-screen table (Textual's pilot, by key presses) and in ``--plain``
(answered as a person reading the lines would answer).

The lesson is played end to end in each language: every note is checked at the moment
lald.coach.lesson gives it, a move other than the lesson's is refused and changes nothing,
the settlement is explained, and the normal deal is offered and starts with hints on.
"""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from textual.worker import WorkerCancelled

from lald.coach.lesson import Lesson, Note
from lald.coach.review import review_deal
from lald.coach.words import review_lines
from lald.core import Action, Capture, Card, Claim, Rules, State
from lald.i18n import LANGUAGES, Catalog
from lald.narrate import describe, explain_settlement
from lald.tui.fullscreen.app import TableApp
from lald.tui.fullscreen.review import ReviewScreen, SeatChoiceScreen
from lald.tui.fullscreen.screens import ConfirmScreen, HelpScreen, LessonIntroScreen, SettlementScreen
from lald.tui.fullscreen.table import TableScreen
from lald.tui.fullscreen.widgets import IndentedLinesView, LessonView, LinesView
from lald.tui.game import Game, Prompt, SeatSpec
from lald.tui.lesson import DO, NEXT, WELCOME, LessonGame
from lald.tui.store import Store
from lald.tui.text.plain import RULES_DOC, PlainTable, run_plain
from lald.tui.words import action_label, default_names, note_text

from .test_keys import until

#: Sampled deals per decision in the review tests: enough to run the review, fast.
WORLDS = 6

EN = Catalog("en")


# -- what the lesson says when, from lald.coach.lesson itself ------------------------------


def moments() -> tuple[Lesson, list[State], list[list[Note]]]:
    """The lesson's states before each action (and the last one), and the notes of each."""
    lesson = Lesson()
    state = lesson.start()
    states, notes = [], []
    for action in lesson.script:
        states.append(state.clone())
        notes.append(lesson.notes(state))
        state.apply(action)
    states.append(state)
    notes.append(lesson.notes(state))
    return lesson, states, notes


LESSON, STATES, NOTES = moments()


def explained(m: int, catalog: Catalog, names: list[str]) -> list[str]:
    """The explanations of moment ``m`` in words (not the welcome, the move, or the offer)."""
    return [note_text(n, STATES[m], names, catalog) for n in NOTES[m]
            if n.key not in (DO, WELCOME, NEXT)]


def standing(m: int, catalog: Catalog, names: list[str]) -> list[str]:
    """What the lesson panel explains at moment ``m``: the explanations of the latest
    moment that had some, less those whose move (their cards) the learner has made."""
    latest = max(k for k in range(m + 1) if explained(k, catalog, names))
    made = [set(map(str, _cards(a))) for a in LESSON.script[:m] if a.seat == 0]
    return [note_text(n, STATES[latest], names, catalog) for n in NOTES[latest]
            if n.key not in (DO, WELCOME, NEXT) and not (n.cards and set(map(str, n.cards)) in made)]


def _cards(action: Action) -> tuple[Card, ...]:
    if isinstance(action, Claim):
        return action.cards
    if isinstance(action, Capture):
        return (*action.play, *action.take)
    return ()


def move_words(m: int, catalog: Catalog, names: list[str]) -> str:
    want = LESSON.script[m]
    return action_label(want, STATES[m], catalog)


def first_moments() -> dict[str, int]:
    """Each note's key and the moment it is first given."""
    out: dict[str, int] = {}
    for m, notes in enumerate(NOTES):
        for n in notes:
            out.setdefault(n.key, m)
    return out


def after_game(catalog: Catalog, seed: int = 5) -> Game:
    """The normal session offered after the lesson (fast bots, for the tests)."""
    names = default_names(catalog, 5)
    return Game.new(Rules.make(), [SeatSpec("human" if s == 0 else "random", names[s])
                                   for s in range(5)], seed)


def run(app: TableApp, body: Callable[[Pilot[str]], Awaitable[None]],
        size: tuple[int, int] = (120, 40)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(main())


def text(widget: Any) -> str:
    """What a widget (or a Rich text) shows, as plain text."""
    content = getattr(widget, "content", widget)
    return str(content.plain if hasattr(content, "plain") else content)


def test_the_lesson_game_plays_the_script_through_the_driver() -> None:
    game = LessonGame(default_names(EN, 5))
    state = game.start_deal()
    assert [n.key for n in game.news()][:1] == [WELCOME] and game.news() == []
    with pytest.raises(ValueError):
        game.start_deal()
    assert not game.undo_allowed and game.session.cut == ()
    while True:
        event = game.advance()
        if event is None:
            break
        if isinstance(event, Prompt):
            want = game.expected()
            assert want is not None and want in event.actions
            assert [a for a in event.actions if game.refusal(a) is None] == [want]
            for other in event.actions:
                note = game.refusal(other)
                assert other == want or (note is not None and note.key == "lesson_try"
                                         and note.action == want)
            refused = game.refusal(None)  # letting the claims pass is no lesson move either
            assert refused is not None and refused.action == want
            game.act(event, want)
    assert tuple(state.actions) == LESSON.script and state.over
    game.finish_deal()
    assert game.session.over and game.session.deals == [state]


def test_after_lying_down_the_panel_no_longer_says_you_must_lie_down() -> None:
    """After the learner lay down the lesson's panel still said "...you must lie down"
    while the others played on: from the next moment it says the learner lay down."""
    game = LessonGame(default_names(EN, 5))
    game.start_deal()
    lain = False
    while True:
        game.news()  # as the table asks at every moment
        state = game.state
        assert state is not None
        keys = [n.key for n in game.standing()]
        if lain:
            assert "lesson_lie_down" not in keys, (len(state.actions), keys)
        event = game.advance()
        if event is None:
            break
        if isinstance(event, Prompt):
            want = game.expected()
            assert want is not None
            game.act(event, want)
            lain = lain or want.seat == 0 and type(want).__name__ == "LieDown"
    assert lain


# -- the full-screen table ---------------------------------------------------------------


CASES = [("en", (120, 40)), ("de", (80, 24)), ("pt", (80, 24)), ("es", (120, 40))]


@pytest.mark.parametrize(("lang", "size"), CASES)
def test_the_lesson_at_the_table_end_to_end(lang: str, size: tuple[int, int], tmp_path: Path) -> None:
    catalog = Catalog(lang)
    t = catalog.t
    names = default_names(catalog, 5)
    game = LessonGame(names)
    after = after_game(catalog)
    app = TableApp(game, catalog, Store(tmp_path), pace=0, claim_window=5, setup=False,
                   after_lesson=after)
    seen: dict[str, int] = {}
    refused: list[int] = []

    def saw(m: int, keys: list[str]) -> None:
        for key in keys:
            seen.setdefault(key, m)

    async def body(pilot: Pilot[str]) -> None:
        intro = app.screen
        assert isinstance(intro, LessonIntroScreen)
        welcome = next(n for n in NOTES[0] if n.key == WELCOME)
        assert intro.lines == [note_text(welcome, STATES[0], names, catalog)]
        saw(0, [WELCOME])
        # the rules, one key away, link the rules document
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert t("help_more", path=RULES_DOC) + "\n" in app.screen.query_one("#help-rules", LinesView).lines
        # its key bar: Esc, ? or q go back to the lesson (seen before: "q save and quit")
        assert text(app.screen.query_one(".keys")) == t("keys_help_lesson")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        for _ in range(200):
            screen = app.screen
            if isinstance(screen, SettlementScreen):
                break
            if isinstance(screen, ConfirmScreen):
                await pilot.press("enter")  # the forced lie-down
                await pilot.pause()
                continue
            assert isinstance(screen, TableScreen) and screen.lesson is game
            state = game.state
            assert state is not None
            m = len(state.actions)
            panel = screen.query_one("#lesson", LessonView)
            here = [n.key for n in NOTES[m] if n.key not in (WELCOME, NEXT)]
            if screen.deal_over:
                assert m == len(LESSON.script)
                assert list(panel.told) == explained(m, catalog, names)
                saw(m, here)
            elif screen.waiting:
                # a note to read while another seat is to move: play stands until Enter
                assert LESSON.script[m].seat != 0 and here
                assert list(panel.told) == explained(m, catalog, names) and panel.do is None
                assert text(screen.query_one("#prompt-title", Static)) == t("lesson_go_on")
                saw(m, here)
            else:
                prompt = screen.prompt
                assert prompt is not None and prompt.seat == 0 and LESSON.script[m].seat == 0
                assert list(panel.told) == standing(m, catalog, names)
                assert panel.do == t("lesson_do", move=move_words(m, catalog, names))
                saw(m, here)
                index = screen.lesson_index
                assert index is not None and screen.menu[index].action == LESSON.script[m]
                menu = screen.query_one("#menu", OptionList)
                label = text(menu.get_option_at_index(index).prompt)
                assert label.endswith(t("lesson_mark"))
                other = next((i for i in range(len(screen.menu)) if i != index), None)
                if other is not None and m not in refused:
                    before = list(state.actions)
                    await pilot.press(str(other + 1))
                    await pilot.pause()
                    refused.append(m)
                    assert list(state.actions) == before and screen.prompt is prompt
                    assert panel.refused == t("lesson_try", move=move_words(m, catalog, names))
                    # at 80x24 the panel, the refusal and every choice stay in view
                    assert panel.max_scroll_y == 0 and menu.max_scroll_y == 0
                    assert screen.region.contains_region(menu.region)
                await pilot.press(str(index + 1))
                await pilot.pause()
                continue
            await pilot.press("enter")
            await pilot.pause()
        settlement = app.screen
        assert isinstance(settlement, SettlementScreen) and settlement.teaching
        deal = game.last_deal
        assert deal is not None and deal.result is not None
        assert tuple(deal.actions) == LESSON.script
        end = len(LESSON.script)
        assert settlement.lesson == explained(end, catalog, names)
        assert settlement.after == [t(NEXT)]
        assert settlement.settlement == explain_settlement(deal.rules, deal.result, deal.dealer, names,
                                                           game.session.balances, catalog)
        saw(end, [NEXT])
        keys = text(settlement.query_one(".keys"))
        assert keys == t("keys_lesson_settlement")
        assert list(tmp_path.iterdir()) == []  # the lesson is never saved
        await pilot.press("enter")
        for _ in range(50):
            if app.table.prompt is not None:
                break
            await pilot.pause()
        table = app.table
        assert app.game is after and table.lesson is None and table.hints
        assert table.prompt is not None and table.hint is not None
        assert text(table.query_one("#hint", LinesView)) == table.hint.text

    run(app, body, size)
    assert seen == first_moments()
    assert refused == [0, 3, 7, 11]  # every learner step with another choice on offer


def test_on_a_small_terminal_a_refused_move_is_said_in_sight(tmp_path: Path) -> None:
    """60×20 in German: the first moment's two notes fill the lesson's panel, so the
    sentence saying why a move was refused came below them, out of sight (the panel stayed
    at its top, and only the bell said anything). Now the panel shows it."""
    de = Catalog("de")
    app = TableApp(LessonGame(default_names(de, 5)), de, Store(tmp_path), pace=0, claim_window=5,
                   setup=False)

    async def body(pilot: Pilot[str]) -> None:
        await pilot.press("enter")
        await pilot.pause()
        table = app.table
        panel = table.query_one("#lesson", LessonView)
        assert table.prompt is not None and table.lesson_index == 0
        await pilot.press("2")  # not the lesson's move
        await pilot.pause()
        assert panel.refused and panel.max_scroll_y > 0  # it does not all fit
        assert panel.scroll_y == panel.max_scroll_y, "the refusal is below the panel's view"
        await pilot.press("1")  # the lesson's move: the next notes are read from their top
        await pilot.pause()
        await pilot.pause()
        assert panel.refused is None and panel.scroll_y == 0

    run(app, body, (60, 20))


def test_the_lessons_keys_save_nothing_and_q_leaves(tmp_path: Path) -> None:
    game = LessonGame(default_names(EN, 5))
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=5, setup=False,
                   after_lesson=after_game(EN))

    async def body(pilot: Pilot[str]) -> None:
        await pilot.press("enter")
        await pilot.pause()
        table = app.table
        hint = table.query_one("#hint", LinesView)
        for key, said in (("s", EN.t("lesson_not_saved")), ("u", EN.t("lesson_no_undo")),
                          ("h", table.do)):
            await pilot.press(key)
            assert text(hint) == said, key
        assert table.do == "Your move: set aside K♠ K♥ from your hand"
        await pilot.press("q")
        await pilot.pause()

    run(app, body)
    assert app.return_value == EN.t("lesson_left")
    assert list(tmp_path.iterdir()) == []


def test_learn_to_play_on_the_setup_screen(tmp_path: Path) -> None:
    first = after_game(EN)
    app = TableApp(first, EN, Store(tmp_path), pace=0, claim_window=0, setup=True)

    async def body(pilot: Pilot[str]) -> None:
        await pilot.click("#learn")
        await pilot.pause()
        assert isinstance(app.screen, LessonIntroScreen)
        assert isinstance(app.game, LessonGame) and app.after_lesson is first
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.prompt is not None
        await pilot.press("q")
        await pilot.pause()

    run(app, body)
    assert app.return_value == EN.t("lesson_left") and list(tmp_path.iterdir()) == []


# -- the review after a settlement ---------------------------------------------------------


def finished(humans: tuple[int, ...], seed: int = 2) -> Game:
    """A three-player game whose first deal is over (every person took the first offer)."""
    names = ["Anne", "Ben", "Cis"]
    game = Game.new(Rules.make(players=3), [SeatSpec("human" if s in humans else "random", names[s])
                                            for s in range(3)], seed)
    game.start_deal()
    while (event := game.advance()) is not None:
        if isinstance(event, Prompt):
            game.act(event, event.actions[0])
    return game


async def _until_done(pilot: Pilot[str], screen: ReviewScreen) -> None:
    for _ in range(400):
        if screen.done:
            return
        await pilot.pause(0.02)
    raise AssertionError("the review did not finish")


def test_the_review_opens_after_a_settlement_and_esc_goes_back(tmp_path: Path) -> None:
    game = finished(humans=(0,))
    deal = game.state
    assert deal is not None and deal.over
    expected = review_lines(review_deal(deal, 0, worlds=WORLDS), EN, game.names)
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False,
                   review_worlds=WORLDS)

    async def body(pilot: Pilot[str]) -> None:
        await pilot.press("enter")  # the deal's end, then its settlement
        await pilot.pause()
        settlement = app.screen
        assert isinstance(settlement, SettlementScreen)
        assert text(settlement.query_one("#review-offer", LinesView)) == EN.t("review_offer")
        await pilot.press("r")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.seat == 0
        await _until_done(pilot, review)
        assert review.lines == expected
        assert review.query_one("#review-lines", IndentedLinesView).lines == tuple(expected)
        assert not review.query_one("#review-working").display
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is settlement
        await pilot.press("r")  # the same review again, at once, and q goes back too
        await pilot.pause()
        again = app.screen
        assert isinstance(again, ReviewScreen) and again.done and again.lines == expected
        await pilot.press("q")
        await pilot.pause()
        assert app.screen is settlement

    run(app, body)
    assert list(app.reviews) == [(0, 0)]


def test_in_a_hot_seat_game_each_person_reviews_their_own_seat(tmp_path: Path) -> None:
    game = finished(humans=(0, 1), seed=4)
    deal = game.state
    assert deal is not None and deal.over
    expected = review_lines(review_deal(deal, 1, worlds=WORLDS), EN, game.names)
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False,
                   review_worlds=WORLDS)

    async def body(pilot: Pilot[str]) -> None:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        choice = app.screen
        assert isinstance(choice, SeatChoiceScreen)
        # centred, and it says its keys (seen before: in the top left corner, keys unsaid)
        dialog = choice.query_one(".dialog")
        assert dialog.region.x > 0 and dialog.region.y > 0
        assert abs((dialog.region.x * 2 + dialog.region.width) - app.size.width) <= 1
        assert text(choice.query_one(".dialog-keys")) == EN.t("keys_whose", count=2)
        await pilot.press("2")
        await pilot.pause()
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.seat == 1
        await _until_done(pilot, review)
        assert review.lines == expected
        assert review.lines[0] == EN.t("review_title", name="Ben", preset=EN.t("review_preset_survivor"),
                                       players=3, worlds=WORLDS, seed=0)

    run(app, body)


def test_leaving_a_review_before_it_is_done_stops_it(tmp_path: Path) -> None:
    game = finished(humans=(0,))
    app = TableApp(game, EN, Store(tmp_path), pace=0, claim_window=0, setup=False,
                   review_worlds=2000)

    async def body(pilot: Pilot[str]) -> None:
        await pilot.press("enter")
        await pilot.pause()
        settlement = app.screen
        app.open_review()  # not through the pilot, which waits for the busy thread
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen._worker is not None)
        review = app.screen
        assert isinstance(review, ReviewScreen) and not review.done
        review.action_back()
        await until(pilot, lambda: app.screen is settlement)
        worker = review._worker
        assert worker is not None and worker.is_cancelled
        # A cancelled worker's wait says so (waiting on the app's workers passed only when
        # the app had already let go of it: under load it had not, and the wait raised).
        with pytest.raises(WorkerCancelled):
            await worker.wait()

    run(app, body)
    assert app.reviews == {}


# -- the plain table ------------------------------------------------------------------------


class Reader(io.StringIO):
    """Standard input answered as a person reading the output would: ``decide`` gets the
    lines printed so far and gives the answer."""

    def __init__(self, out: io.StringIO, decide: Callable[[list[str]], str]) -> None:
        super().__init__()
        self.out, self.decide = out, decide
        self.answers: list[tuple[int, str]] = []

    def readline(self, size: int | None = -1) -> str:
        lines = self.out.getvalue().splitlines()
        answer = self.decide(lines)
        self.answers.append((len(lines), answer))
        return answer + "\n" if answer != "EOF" else ""


def _lesson_answers(catalog: Catalog) -> Callable[[list[str]], str]:
    t = catalog.t
    mark = "  ◀ " + t("lesson_mark")

    def decide(lines: list[str]) -> str:
        last = lines[-1]
        if last in (t("plain_lesson_go_on"), t("plain_lesson_next")):
            return ""
        if last == t("plain_lesson_commands"):
            menu = []
            for line in reversed(lines[:-1]):
                if not line.startswith("  ") or ". " not in line:
                    break
                menu.append(line)
            marked = next(line for line in menu if line.endswith(mark))
            number = marked.split(".")[0].strip()
            refused = lines[-len(menu) - 3].startswith(t("plain_lesson_note", text=t("lesson_try", move="")))
            other = next((line for line in menu if not line.endswith(mark)), None)
            if other is not None and not refused:
                return other.split(".")[0].strip()
            return number
        if len(lines) >= 3 and lines[-3] == t("confirm_lie_down"):
            return "1"
        if last == t("plain_commands"):
            return "q"  # the normal deal has begun
        raise AssertionError(f"an unexpected question: {last!r}")

    return decide


def _expected_lines(catalog: Catalog, names: list[str]) -> list[str]:
    """What the plain table must say, in this order: each action's line, then the notes of
    the moment after it; the settlement's notes around its lines."""
    note = lambda n, m: catalog.t("plain_lesson_note", text=note_text(n, STATES[m], names, catalog))  # noqa: E731
    out = [note(n, 0) for n in NOTES[0]]
    state = LESSON.start()
    for m, action in enumerate(LESSON.script):
        op = state.apply(action)
        out.append(describe(op, names, catalog))
        if m + 1 < len(LESSON.script):
            out += [note(n, m + 1) for n in NOTES[m + 1]]
    end = len(LESSON.script)
    assert state.result is not None
    out += [note(n, end) for n in NOTES[end] if n.key != NEXT]
    out += explain_settlement(state.rules, state.result, state.dealer, names, state.result.chips, catalog)
    out += [note(n, end) for n in NOTES[end] if n.key == NEXT]
    out.append(catalog.t("plain_lesson_next"))
    return out


def _in_order(wanted: list[str], lines: list[str]) -> list[int]:
    """Where each wanted line is found, in order (AssertionError names the first missing)."""
    at, found = 0, []
    for line in wanted:
        try:
            at = lines.index(line, at)
        except ValueError:
            raise AssertionError(f"not said (in its place): {line!r}") from None
        found.append(at)
        at += 1
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lesson_in_plain_end_to_end(lang: str, tmp_path: Path) -> None:
    catalog = Catalog(lang)
    t = catalog.t
    names = default_names(catalog, 5)
    game, after = LessonGame(names), after_game(catalog, seed=8)
    out = io.StringIO()
    reader = Reader(out, _lesson_answers(catalog))
    assert run_plain(game, catalog, reader, out, tmp_path, after_lesson=after) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == t("lesson_title")
    _in_order(_expected_lines(catalog, names), lines)
    assert tuple(game.session.deals[0].actions) == LESSON.script
    # each refused answer was said so, and nothing happened before the question came again
    try_prefix = t("plain_lesson_note", text=t("lesson_try", move=""))
    refusals = [i for i, line in enumerate(lines) if line.startswith(try_prefix)]
    assert len(refusals) == 4
    for i in refusals:
        assert lines[i + 1] in (t("prompt_turn", name=names[0]), t("prompt_claim", name=names[0]),
                                t("prompt_set_aside", name=names[0]))
    # then the normal deal, hints on, saved as a normal session when the player quits
    start = lines.index(t("plain_lesson_next"))
    rest = lines[start + 1:]
    assert rest[0] == t("game_title") and t("hints_on") in rest
    assert any(t("hint_do", action="").rstrip(".") in line for line in rest)
    assert [p.name for p in tmp_path.iterdir()] == [f"session-{after.session.seed}.json"]
    assert Store.load(tmp_path / f"session-{after.session.seed}.json").seats == after.seats


def _review_answers(catalog: Catalog, whose: str = "") -> Callable[[list[str]], str]:
    t = catalog.t
    asked: list[str] = []

    def decide(lines: list[str]) -> str:
        last = lines[-1]
        if last == t("plain_after_deal"):
            asked.append(last)
            return "r" if len(asked) == 1 else "q"
        if whose and t("plain_review_whose") in lines[-4:]:
            return whose
        return "" if last == t("plain_press_enter") else "1"

    return decide


def test_the_review_in_plain_after_a_settlement(tmp_path: Path) -> None:
    names = ["Anne", "Ben", "Cis"]
    game = Game.new(Rules.make(players=3), [SeatSpec("human" if s == 0 else "random", names[s])
                                            for s in range(3)], 2)
    out = io.StringIO()
    table = PlainTable(game, EN, Reader(out, _review_answers(EN)), out, Store(tmp_path),
                       review_worlds=WORLDS)
    assert table.run() == 0
    lines = out.getvalue().splitlines()
    deal = game.session.deals[0]
    review = review_deal(deal, 0, worlds=WORLDS)
    at = lines.index(EN.t("plain_review_start", name="Anne", total=len(review.choices)))
    expected = review_lines(review, EN, names)
    assert lines[at + 2:at + 2 + len(expected)] == expected
    assert lines.count(EN.t("plain_after_deal")) == 2  # asked again after the review


def test_the_review_in_plain_hot_seat_asks_whose(tmp_path: Path) -> None:
    names = ["Anne", "Ben", "Cis"]
    game = Game.new(Rules.make(players=3), [SeatSpec("human" if s < 2 else "random", names[s])
                                            for s in range(3)], 4)
    out = io.StringIO()
    table = PlainTable(game, EN, Reader(out, _review_answers(EN, whose="2")), out, Store(tmp_path),
                       review_worlds=WORLDS)
    assert table.run() == 0
    lines = out.getvalue().splitlines()
    review = review_deal(game.session.deals[0], 1, worlds=WORLDS)
    assert EN.t("plain_review_start", name="Ben", total=len(review.choices)) in lines
    _in_order(review_lines(review, EN, names), lines)


# -- the command ------------------------------------------------------------------------------

LALD = [sys.executable, "-m", "lald"]


def _lald(args: list[str], answers: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LALD_SAVE_DIR": str(tmp), "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([*LALD, "play", *args], input=answers, capture_output=True, text=True,
                          env=env, timeout=120, check=False)


def test_lald_play_learn_plain_and_leaving_it(tmp_path: Path) -> None:
    result = _lald(["--learn", "--plain", "--lang", "pt"], "1\nq\n", tmp_path)
    assert result.returncode == 0, result.stderr
    pt = Catalog("pt")
    lines = result.stdout.splitlines()
    assert lines[0] == pt.t("lesson_title")
    assert pt.t("plain_lesson_note", text=pt.t("lesson_do", move="separar K♠ K♥ da mão")) in lines
    assert "  1. separar K♠ K♥ da mão  ◀ " + pt.t("lesson_mark") in lines
    assert lines[-1] == pt.t("lesson_left")
    assert list(tmp_path.iterdir()) == []
    wrong = _lald(["--learn", "--resume"], "", tmp_path)
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1 and "--learn" in wrong.stderr  # usage
