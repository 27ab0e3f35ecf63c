"""The hint key: what the best available bot would do here, and why, in one line.

``lald.bots.hint(view, legal)`` gives the expert's choice and its reason (in English; in
other languages the reason is told from what the choice does).  Without it, the strongest
level in :data:`lald.bots.LEVELS` is asked for its choice.
"""

from __future__ import annotations

import random
from typing import Any

from .. import bots
from ..core import Action, Capture, CaptureKind, Claim, LieDown, State
from ..i18n import Catalog
from .game import Prompt, PromptKind, best_level
from .words import action_label


def _bot_choice(state: State, prompt: Prompt) -> Action | None:
    level = best_level()
    bot = bots.make_bot(level, prompt.seat, state.rules, random.Random(len(state.actions)))
    view = state.view(prompt.seat)
    claims = [a for a in prompt.actions if isinstance(a, Claim)]
    if claims:
        choice = bot.claim(view, claims)
        if choice is not None or prompt.kind is PromptKind.CLAIM:
            return choice
    return bot.act(view, state.turn_actions())


def _reason(action: Action | None, state: State, catalog: Catalog) -> str:
    if action is None:
        return catalog.t("why_pass")
    if isinstance(action, Claim):
        return catalog.t("why_claim", count=len(action.cards))
    if isinstance(action, LieDown):
        return catalog.t("why_lie_down")
    if isinstance(action, Capture):
        if action.kind is CaptureKind.SWEEP:
            return catalog.t("why_sweep")
        return catalog.t("why_capture", count=len(action.play) + len(action.take))
    return catalog.t("why_trail")


def hint_line(state: State, prompt: Prompt, catalog: Catalog) -> str:
    """One line: the suggested action and the reason."""
    level = best_level()
    fn: Any = getattr(bots, "hint", None)
    if fn is None:
        action = _bot_choice(state, prompt)
        why = _reason(action, state, catalog)
    else:
        action, why = fn(state.view(prompt.seat), list(prompt.actions))
        if catalog.lang != "en" or not why:
            # the bots explain themselves in English only
            why = _reason(action, state, catalog)
    what = action_label(action, state, catalog) if action is not None else catalog.t("act_pass")
    return catalog.t("hint_line", level=catalog.t(f"level_{level}") if catalog.has(f"level_{level}")
                     else level, action=what, why=why)
