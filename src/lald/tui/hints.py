"""The hint key: what the best available bot would do here, and why, in sentences.

The hint itself is :mod:`lald.coach.hints`' (shared with the web table): made from the
seat's view and the prompt's choices alone; here it is found in the menu and worded.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..coach import hints
from ..core import State
from ..i18n import Catalog
from .game import Prompt
from .words import Choice, action_label, outcome_code


@dataclasses.dataclass(frozen=True, slots=True)
class Hint:
    """The suggested menu line (None when it is not in the menu) and the sentences."""

    index: int | None
    text: str


def advise(state: State, prompt: Prompt, menu: Sequence[Choice], catalog: Catalog) -> Hint:
    """The hint for ``prompt``: the menu line the best bot would choose and why."""
    hint = hints.advise(state.view(prompt.seat), prompt.actions)
    action = hint.action
    index = None
    for i, choice in enumerate(menu):
        same = (choice.action is None if action is None else choice.action is not None
                and outcome_code(choice.action, state) == outcome_code(action, state))
        if same:
            index = i
    what = action_label(action, state, catalog) if action is not None else ""
    return Hint(index, hints.hint_text(hint, what, catalog))
