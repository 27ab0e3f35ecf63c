"""The hint key: what the best available bot would do here, and why, in sentences.

The expert (``lald.bots``' strongest level) is asked as it plays: its claim choice, then
the mean value of each different turn move over the deals it samples
(:meth:`~lald.bots.expert.ExpertBot.evaluate`); the sentence says what the move does,
what it is worth on average and by how much it beats the next best.  Without the expert,
the strongest level there is names its choice and the sentence says what it does.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from decimal import Decimal

from .. import bots
from ..core import Action, Capture, CaptureKind, Claim, LieDown, Scoring, State
from ..i18n import Catalog
from .game import Prompt, PromptKind, best_level
from .words import Choice, action_label, outcome_code


@dataclasses.dataclass(frozen=True, slots=True)
class Hint:
    """The suggested menu line (None when it is not in the menu) and the sentences."""

    index: int | None
    text: str


def _chips(value: float, catalog: Catalog, signed: bool) -> str:
    # the plural follows the number as written: "1.0 chips" has a visible decimal (CLDR)
    return catalog.t("n_chips", count=Decimal(f"{abs(value):.1f}"), amount=catalog.decimal(value, signed))


def _what(action: Action | None, state: State, catalog: Catalog) -> str:
    """What the move does, as a sentence."""
    t = catalog.t
    if action is None:
        return t("why_pass")
    if isinstance(action, Claim):
        return t("why_claim", count=len(action.cards))
    if isinstance(action, LieDown):
        return t("why_lie_down")
    if isinstance(action, Capture):
        count = len(action.play) + len(action.take)
        return t("why_sweep" if action.kind is CaptureKind.SWEEP else "why_capture", count=count)
    return t("why_trail")


def _expert(state: State, prompt: Prompt) -> tuple[Action | None, list[float]]:
    """The expert's choice, and the mean values of the turn moves best first (empty when
    there was nothing to weigh)."""
    from ..bots.expert import ExpertBot
    from ..bots.knowledge import read

    view = state.view(prompt.seat)
    bot = ExpertBot(prompt.seat, state.rules, random.Random(len(state.actions)))
    claims = [a for a in prompt.actions if isinstance(a, Claim)]
    turns = [a for a in prompt.actions if not isinstance(a, Claim)]
    if claims:
        choice = bot.claim(view, claims)
        if choice is not None or not turns:
            return choice, []
    codes = list(dict.fromkeys(outcome_code(a, state) for a in turns))
    if len(codes) == 1:
        return turns[0], []
    means = bot.evaluate(read(view), codes, acting=True)
    best = max(range(len(codes)), key=means.__getitem__)
    chosen = next(a for a in turns if outcome_code(a, state) == codes[best])
    return chosen, sorted(means, reverse=True)


def _other(state: State, prompt: Prompt) -> Action | None:
    level = best_level()
    bot = bots.make_bot(level, prompt.seat, state.rules, random.Random(len(state.actions)))
    view = state.view(prompt.seat)
    claims = [a for a in prompt.actions if isinstance(a, Claim)]
    if claims:
        choice = bot.claim(view, claims)
        if choice is not None or prompt.kind is PromptKind.CLAIM:
            return choice
    return bot.act(view, state.turn_actions())


def advise(state: State, prompt: Prompt, menu: Sequence[Choice], catalog: Catalog) -> Hint:
    """The hint for ``prompt``: the menu line the best bot would choose and why."""
    t = catalog.t
    level = best_level()
    means: list[float] = []
    if level == "expert":
        action, means = _expert(state, prompt)
    else:
        action = _other(state, prompt)
    index = None
    for i, choice in enumerate(menu):
        same = (choice.action is None if action is None else choice.action is not None
                and outcome_code(choice.action, state) == outcome_code(action, state))
        if same:
            index = i
    what = action_label(action, state, catalog) if action is not None else t("act_pass")
    sentences = [t("hint_do", action=what), _what(action, state, catalog)]
    if len(menu) - (1 if prompt.kind is PromptKind.CLAIM else 0) == 1 and action is not None:
        sentences.append(t("hint_only"))
    elif means and state.rules.scoring is Scoring.CHIPS:
        margin = means[0] - means[1]
        worth = _chips(means[0], catalog, signed=True)
        if round(margin, 1) == 0:
            sentences.append(t("hint_worth_tie", worth=worth))
        else:
            sentences.append(t("hint_worth", worth=worth, margin=_chips(margin, catalog, signed=False)))
    elif means:
        sentences.append(t("hint_best_cards"))
    return Hint(index, " ".join(sentences))
