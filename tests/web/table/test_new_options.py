"""The options of issue 33 (docs/rules.md §5-§7) reach a web table through a new table's
request, and a bad value is refused in one line."""

from __future__ import annotations

import pytest

from lald.core import PotRule, PrizeRule, Rules
from lald.web.table.create import LobbyError, table_data

OPTIONS = {"prize_rule": "last_card", "pot_rule": "real", "hand_sets_face_down": "on", "prials_face_up": "on"}


def test_a_new_table_plays_the_options_it_was_asked_for() -> None:
    data, _ = table_data({"players": 4, "options": OPTIONS}, None, lambda names, own: None)
    spec = data.config["rules"]
    rules = Rules.make(spec["preset"], spec["players"], spec["variants"], spec["options"])
    assert rules.prize_rule is PrizeRule.LAST_CARD and rules.pot_rule is PotRule.REAL
    assert rules.hand_sets_face_down and rules.prials_face_up and rules.players == 4


@pytest.mark.parametrize(("options", "said"), [
    ({"pot_rule": "negative"}, "bad value 'negative' for pot_rule: choose signed or real"),
    ({"prize_rule": "first_card"},
     "bad value 'first_card' for prize_rule: choose survivor, last_capture or last_card"),
    ({"prials_face_up": 2}, "bad value 2 for prials_face_up: choose on or off"),
])
def test_a_bad_value_of_a_new_option_is_refused_in_one_line(options: dict[str, object], said: str) -> None:
    with pytest.raises(LobbyError) as refused:
        table_data({"options": options}, None, lambda names, own: None)
    assert str(refused.value) == said
