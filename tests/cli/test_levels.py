"""One set of level names (issue 26, item 11): the setup screen's friendly names (beginner,
easy, medium, strong, expert) and the engine's (random, greedy, heuristic, pimc, expert)
are both taken wherever a level is named, mapped in one place (lald.bots.FRIENDLY)."""

from __future__ import annotations

import random

import pytest

from lald.bots import FRIENDLY, level_of, make_bot
from lald.cli.play import parse_seats
from lald.core import Rules
from lald.i18n import Catalog
from lald.tui.game import Game, SeatSpec

RULES = Rules.make()
EN = Catalog("en")


@pytest.mark.parametrize("friendly, level", [("beginner", "random"), ("easy", "greedy"),
                                             ("medium", "heuristic"), ("strong", "pimc"),
                                             ("expert", "expert")])
def test_the_setup_screens_names_are_the_levels(friendly: str, level: str) -> None:
    assert level_of(friendly) == level_of(level) == level
    # the setup screen shows the catalog's label, which uses the friendly name
    assert friendly in EN.t(f"level_{level}")
    seats = parse_seats([f"1={friendly}", f"2={level}:Zed"], RULES, EN)
    assert seats[1] == SeatSpec(level, seats[1].name) and seats[2] == SeatSpec(level, "Zed")
    made = make_bot(friendly, 1, RULES, random.Random(0))
    assert type(made) is type(make_bot(level, 1, RULES, random.Random(0)))
    Game.new(RULES, seats, seed=1)


def test_every_friendly_name_is_in_the_setup_screens_list() -> None:
    from lald.coach.hints import playable_levels
    from lald.tui.words import levels_list

    listed = levels_list(EN, playable_levels()[::-1])
    assert all(name in listed for name in FRIENDLY)


def test_an_unknown_level_names_both_sets() -> None:
    seats = [SeatSpec("human", "A")] + [SeatSpec("tough", "B")] * 4
    with pytest.raises(ValueError, match="choose human, expert, pimc, learned, heuristic, greedy, random "
                                         r"\(or beginner, easy, medium, strong\)"):
        Game.new(RULES, seats, seed=1)


def test_a_tournament_bot_may_be_named_either_way() -> None:
    from lald.play.spec import parse_spec

    assert parse_spec("easy").text == parse_spec("greedy").text == "greedy"
    assert parse_spec("strong").level == "pimc"
