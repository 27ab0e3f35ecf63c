"""The heuristic bot reads its view without the history (:func:`lald.bots.heuristic.seat_state`)
and decides exactly as it did from the full knowledge and its filled-in world.

At decisions of every seat in deals played under every preset, variant, option value and
player count, the seat's state must hold the same fields for that seat as the
:class:`~lald.core.fast.FastState` that :func:`~lald.bots.knowledge.read` and
:func:`~lald.bots.knowledge.fill` give, and every habit combination must choose the same
turn move (with the same draws for ties) and the same claim from either.
"""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from lald.bots import make_bot
from lald.bots.heuristic import HABITS, HeuristicPolicy, _view_state, level_params, seat_state
from lald.core import State
from lald.core.codes import code_of
from lald.play.loop import step

from ..core.compiled.test_kernel import _sweep_rules

#: the level's habits, none, all, and each habit alone off and alone on
HABIT_SETS = [frozenset(off) for off in (
    *[("keep_sets", "survivor_hold", "last_capture_play", "spotter_now")], (), tuple(HABITS),
    *combinations(HABITS, 1), *(tuple(h for h in HABITS if h != one) for one in HABITS))]


def test_the_seat_state_decides_as_the_full_reading_does() -> None:
    turns = claims = 0
    for i, rules in enumerate(_sweep_rules()):
        n = rules.players
        policies = [HeuristicPolicy(rules, off, level_params(rules, ("4", "3")[j % 2]))
                    for j, off in enumerate(HABIT_SETS)]
        pick = random.Random(i)
        for d in range(3):
            state = State.deal(rules, seed=900 + 13 * i + d, dealer=d % n)
            bots = [make_bot(pick.choice(("random", "heuristic")), s, rules, random.Random(d * 5 + s))
                    for s in range(n)]
            while not state.over:
                deciding = {c.seat for c in state.open_claims()} or {state.to_move}
                for seat in sorted(s for s in deciding if s is not None):
                    view = state.view(seat)
                    light, unknown = seat_state(view)
                    full, outside = _view_state(view)
                    assert unknown == outside
                    assert (light.to_move, light.foreplay, light.tc, light.hs, light.tp, light.holding) == (
                        full.to_move, full.foreplay, full.tc, full.hs, full.tp, full.holding)
                    assert (light.hc[seat], light.hp[seat]) == (full.hc[seat], full.hp[seat])
                    codes = list(dict.fromkeys(code_of(a, state.table_mask) for a in state.claims(seat)))
                    if codes:
                        for p in policies:
                            assert p.claim(light, seat, codes) == p.claim(full, seat, codes)
                        claims += 1
                    if seat == state.to_move and not state.open_claims():
                        legal = state.turn_actions()
                        codes = list(dict.fromkeys(code_of(a, state.table_mask) for a in legal))
                        if len(codes) > 1:
                            for j, p in enumerate(policies):
                                a, b = random.Random(j), random.Random(j)
                                assert p.turn(light, codes, unknown, a) == p.turn(full, codes, outside, b)
                                assert a.getstate() == b.getstate()
                            turns += 1
                step(state, bots)
    assert turns > 3000 and claims > 500, (turns, claims)


def test_the_bot_acts_and_claims_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots themselves, level and ablations (``read_table`` off counts every card it
    does not see), against the same bots reading the full knowledge."""
    import lald.bots.heuristic as heuristic
    from lald.bots.heuristic import HeuristicBot

    specs = [{}, {"off": {"read_table"}}, {"on": {"survivor_hold", "keep_sets"}}, {"version": "3"},
             {"on": {"last_capture_play"}, "off": {"deny"}}]
    decided = 0
    for i, rules in enumerate(_sweep_rules()[::3]):
        n = rules.players
        for d in range(3):
            state = State.deal(rules, seed=77 + 7 * i + d, dealer=d % n)
            spec = specs[(i + d) % len(specs)]
            bots = [HeuristicBot(s, rules, random.Random(s), **spec) for s in range(n)]  # type: ignore[arg-type]
            twins = [HeuristicBot(s, rules, random.Random(s), **spec) for s in range(n)]  # type: ignore[arg-type]
            while not state.over:
                claimed = False
                for seat in state.claim_order():
                    open_claims = state.claims(seat)
                    if not open_claims:
                        continue
                    choice = bots[seat].claim(state.view(seat), open_claims)
                    with monkeypatch.context() as m:
                        m.setattr(heuristic, "seat_state", heuristic._view_state)
                        assert twins[seat].claim(state.view(seat), open_claims) == choice
                    decided += 1
                    if choice is not None:
                        state.apply(choice)
                        claimed = True
                        break
                if claimed:
                    continue
                mover = state.to_move
                assert mover is not None
                legal = state.turn_actions()
                action = bots[mover].act(state.view(mover), legal)
                with monkeypatch.context() as m:
                    m.setattr(heuristic, "seat_state", heuristic._view_state)
                    assert twins[mover].act(state.view(mover), legal) == action
                decided += 1
                state.apply(action)
    assert decided > 2000, decided
