"""Issue 30, item 16: the terminal's small words. A lie-down of one card "goes"; the
lesson's first prompt says "set aside" before "claim" is explained; the lie-down question
takes y and the language's own yes (j in German), in --plain and at the full-screen table;
the setup screen lists every level a seat may play, the learned one too."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from lald.coach.hints import playable_levels
from lald.core import Card, LieDown
from lald.i18n import LANGUAGES, Catalog
from lald.tui.fullscreen.app import TableApp
from lald.tui.fullscreen.screens import ConfirmScreen, SetupScreen
from lald.tui.game import Game, Prompt
from lald.tui.store import Store
from lald.tui.text.plain import run_plain
from lald.tui.words import level_label, levels_list, move_words

from .fullscreen.test_keys import _forced_lie_down, game_of

EN, DE = Catalog("en"), Catalog("de")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_lie_down_of_one_card_is_singular(lang: str) -> None:
    """Seen before: "lie down: 4♥ go face up to the table"."""
    catalog = Catalog(lang)
    one = move_words(LieDown(0), None, [Card.parse("4H")], catalog)
    two = move_words(LieDown(0), None, [Card.parse("4H"), Card.parse("9S")], catalog)
    assert "4♥" in one and "4♥ 9♠" in two and one.replace("4♥", "") != two.replace("4♥ 9♠", "")
    if lang == "en":
        assert one == "lie down: 4♥ (1 card) goes face up to the table"
        assert two == "lie down: 4♥ 9♠ (2 cards) go face up to the table"
    if lang == "de":
        assert "kommt offen" in one and "kommen offen" in two


def test_the_lessons_first_prompt_says_set_aside_before_claim_is_explained(tmp_path: Path) -> None:
    """Seen before: "Anne, you may claim now (or let it pass)." at the lesson's first step,
    above the menu's "set aside K♠ K♥ from your hand", long before claims are explained."""
    from lald.tui.lesson import LessonGame
    from lald.tui.words import default_names

    out = io.StringIO()
    lesson = LessonGame(default_names(EN, LessonGame.PLAYERS))
    run_plain(lesson, EN, io.StringIO("1\nq\n"), out, tmp_path)
    text = out.getvalue()
    assert EN.t("prompt_set_aside", name="Anne") in text, text
    assert "claim" not in text.lower(), text


def _at_forced_lie_down(lang: str) -> Game:
    """A game whose person (seat 0) must lie down at the prompt it is at."""
    game = game_of(seed=_forced_lie_down())
    game.start_deal()
    while True:
        event = game.advance()
        assert event is not None
        if isinstance(event, Prompt):
            if list(event.actions) == [LieDown(0)]:
                return game
            game.act(event, event.actions[0])


def _laid_down(game: Game) -> bool:
    state = game.state or game.session.deals[-1]
    return any(op.seat == 0 and type(op).__name__ == "LaidDown" for op in state.history)


@pytest.mark.parametrize(("lang", "answer", "lies_down"), [
    ("en", "y", True), ("en", "yes", True), ("en", "n", False), ("de", "j", True), ("de", "Ja", True),
    ("de", "y", True), ("de", "nein", False), ("es", "s", True), ("pt", "sim", True), ("pt", "n", False),
])
def test_plain_takes_yes_and_no_in_words(tmp_path: Path, lang: str, answer: str, lies_down: bool) -> None:
    """Seen before: y (and j in German) were answered "Please answer with a number"."""
    catalog = Catalog(lang)
    game = _at_forced_lie_down(lang)
    out = io.StringIO()
    run_plain(game, catalog, io.StringIO(f"1\n{answer}\nq\n"), out, tmp_path)
    assert catalog.t("plain_bad_answer", count=2) not in out.getvalue(), out.getvalue()[-800:]
    assert _laid_down(game) is lies_down


@pytest.mark.parametrize(("lang", "key", "lies_down"), [("de", "j", True), ("es", "s", True),
                                                        ("de", "n", False)])
def test_the_tables_dialog_takes_the_languages_own_yes(tmp_path: Path, lang: str, key: str,
                                                       lies_down: bool) -> None:
    game = _at_forced_lie_down(lang)
    app = TableApp(game, Catalog(lang), Store(tmp_path), pace=0, claim_window=0, setup=False)

    async def main() -> None:
        async with app.run_test(size=(130, 42)) as pilot:
            for _ in range(100):
                if app.table.prompt is not None:
                    break
                await pilot.pause(0.01)
            await pilot.press("1")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press(key)
            await pilot.pause()
            assert not isinstance(app.screen, ConfirmScreen)

    asyncio.run(main())
    assert _laid_down(game) is lies_down


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_setup_screens_list_names_every_playable_level(lang: str) -> None:
    """Seen before: the list stopped at "expert" and left out "learned"."""
    catalog = Catalog(lang)
    listed = levels_list(catalog, playable_levels()[::-1])
    for level in playable_levels():
        short = level_label(level, catalog).partition(": ")[2].partition(" (")[0]
        assert short and short in listed, (level, listed)
    if lang == "en":
        assert listed == "Bots, from the easiest: beginner, easy, medium, learned, strong, expert."


def test_the_setup_screen_shows_the_list(tmp_path: Path) -> None:
    app = TableApp(game_of(), EN, Store(tmp_path), pace=0, claim_window=0, setup=True)

    async def main() -> None:
        async with app.run_test(size=(130, 42)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SetupScreen)
            note = str(app.screen.query_one(".setup-note").content)
            assert note == levels_list(EN, playable_levels()[::-1]) and "learned" in note

    asyncio.run(main())
