"""The expert's search in one world, compiled (``lald.core._kernel.world_values``), is the
pure one: :meth:`lald.bots.expert.Player.finish` after each candidate move.

At decisions of every seat (turns, and claim windows with "let them pass") in deals played
under every preset, variant, option value and player count, in the true world and in
worlds the sampler draws, the compiled kernel must give every candidate the same value as
the pure path, float for float: exact solves of small end positions (max-n, the node cap
reached or not), roll-outs with the heuristic, the heuristic's turn after a window let
pass, and every scoring.  A kernel that disagrees once fails.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lald.bots import make_bot
from lald.bots.expert import PASS, TUNED_OFF, ExpertBot, Player
from lald.bots.heuristic import level_params
from lald.bots.kernel import search_context, tables, world_values
from lald.bots.knowledge import fill, read
from lald.bots.sampler import sample
from lald.core import Rules, State
from lald.core.codes import code_of, counts
from lald.core.compiled import KERNEL, kernel_status, pure_path

from ..core.compiled.test_kernel import BUILT, KERNEL_OPTIONS, OTHER_OPTIONS, VARIANT_SETS, _sweep_rules


@pytest.fixture
def search() -> Iterator[None]:
    """The compiled search (skips only where the kernel is not built)."""
    if not BUILT:
        pytest.skip("the compiled kernel (lald.core._kernel) is not built: setup.py build_ext --inplace")
    if os.environ.get("LALD_KERNEL", "").strip().lower() == "python":
        pytest.skip("LALD_KERNEL=python forces the pure path in this run")
    assert KERNEL.playing() is not None, f"not loaded: {kernel_status()}"
    yield


def decisions(rules: Rules, deals: int, seed: int, per_deal: int) -> Iterator[tuple[State, int, list[int]]]:
    """(state, seat, candidate codes) at up to ``per_deal`` decisions of each deal: a turn
    with a choice, or a claim window (its claims and :data:`PASS`), in deals played by
    random and heuristic bots."""
    rng = random.Random(seed)
    n = rules.players
    for d in range(deals):
        state = State.deal(rules, seed=seed * 7907 + d, dealer=d % n)
        bots = [make_bot(rng.choice(("random", "heuristic")), s, rules, random.Random(seed + d + s))
                for s in range(n)]
        found = 0
        while not state.over:
            claimed = False
            for seat in state.claim_order():
                claims = state.claims(seat)
                if claims and found < per_deal and rng.random() < 0.3:
                    codes = list(dict.fromkeys(code_of(a, state.table_mask) for a in claims))
                    yield state.clone(), seat, [*codes, PASS]
                    found += 1
                choice = bots[seat].claim(state.view(seat), claims) if claims else None
                if choice is not None:
                    state.apply(choice)
                    claimed = True
                    break
            if claimed:
                continue
            mover = state.to_move
            assert mover is not None
            legal = state.turn_actions()
            codes = list(dict.fromkeys(code_of(a, state.table_mask) for a in legal))
            if len(codes) > 1 and found < per_deal and rng.random() < 0.3:
                yield state.clone(), mover, codes
                found += 1
            state.apply(bots[mover].act(state.view(mover), legal))


def pure_values(player: Player, world: object, seat: int, codes: list[int]) -> list[float]:
    """Player.finish after each code, as ExpertBot.search plays it on the pure path."""
    out = []
    for code in codes:
        fs = world.copy()  # type: ignore[attr-defined]
        if code == PASS:
            out.append(player.finish(fs, seat, passed=seat))
        else:
            fs.apply(code)
            out.append(player.finish(fs, seat))
    return out


def same_values(state: State, seat: int, codes: list[int], pick: random.Random, counts_: dict[str, int],
                solve_cards: int, node_cap: int) -> None:
    rules = state.rules
    k = read(state.view(seat))
    params = level_params(rules)
    player = Player(rules, solve_cards, node_cap, TUNED_OFF, 0, params)
    assert player.tables is tables(rules, params)
    context = search_context(k.world(fill(k)), player.tables, seat, codes)
    assert context is not None
    worlds = [[counts(h) for h in state.hands]]  # the true world, then drawn ones
    worlds += [sample(k, random.Random(pick.getrandbits(32)))[0][0] for _ in range(2)]
    for hands in worlds:
        got = world_values(context, hands, solve_cards, node_cap, float("inf"))
        with pure_path():
            want = pure_values(player, k.world(hands), seat, codes)
        assert got == want, (rules.spec(), seat, codes, hands, solve_cards, node_cap)
        counts_["worlds"] += 1
        counts_["values"] += len(codes)
        counts_["passes"] += PASS in codes
        counts_["small"] += sum(map(sum, hands)) <= solve_cards


@pytest.mark.usefixtures("search")
def test_the_compiled_search_of_a_world_is_the_pure_one_across_every_rule() -> None:
    tally = dict.fromkeys(("worlds", "values", "passes", "small"), 0)
    pick = random.Random(3)
    for i, rules in enumerate(_sweep_rules()):
        for j, (state, seat, codes) in enumerate(decisions(rules, 3, 200 + i, 4)):
            solve_cards, node_cap = ((12, 1500), (8, 40), (99, 5), (0, 1500))[j % 4]
            same_values(state, seat, codes, pick, tally, solve_cards, node_cap)
    assert tally["worlds"] > 2000 and tally["passes"] > 200 and tally["small"] > 200, tally


@pytest.mark.usefixtures("search")
def test_late_positions_are_solved_alike() -> None:
    # the last cards, where most worlds are solved exactly (the node cap reached or not)
    tally = dict.fromkeys(("worlds", "values", "passes", "small"), 0)
    pick = random.Random(4)
    for preset in ("survivor", "last-capture"):
        for n in (3, 4, 5):
            for variants in VARIANT_SETS:
                rules = Rules.make(preset, n, variants)
                for j, (state, seat, codes) in enumerate(decisions(rules, 6, 50 + n, 40)):
                    if sum(map(int.bit_count, state.hands)) <= 16:
                        same_values(state, seat, codes, pick, tally, 12, (1500, 300, 60)[j % 3])
    assert tally["small"] > 300, tally


@pytest.mark.usefixtures("search")
@settings(max_examples=25, deadline=None)
@given(st.fixed_dictionaries({name: st.sampled_from(values)
                              for name, values in {**KERNEL_OPTIONS, **OTHER_OPTIONS}.items()}),
       st.sampled_from(("survivor", "last-capture")), st.integers(3, 5), st.sampled_from(VARIANT_SETS),
       st.integers(0, 2**32))
def test_option_combinations_search_alike(options: dict[str, str], preset: str, players: int,
                                          variants: tuple[str, ...], seed: int) -> None:
    rules = Rules.make(preset, players, variants, options)
    tally = dict.fromkeys(("worlds", "values", "passes", "small"), 0)
    pick = random.Random(seed)
    for state, seat, codes in decisions(rules, 2, seed % 10**6, 3):
        same_values(state, seat, codes, pick, tally, 12, 1500)


@pytest.mark.usefixtures("search")
def test_what_the_compiled_search_leaves_to_the_pure_path() -> None:
    rules = Rules.make("survivor")
    state, seat, codes = next(decisions(rules, 1, 9, 1))
    k = read(state.view(seat))
    player = Player(rules, 12, 1500, TUNED_OFF, 0, level_params(rules))
    assert player.tables is not None
    context = search_context(k.world(fill(k)), player.tables, seat, codes)
    hands = [counts(h) for h in state.hands]
    assert world_values(context, hands, 12, 1500, float("inf")) is not None
    wrong = [list(h) for h in hands]
    wrong[seat][0] += 4  # five of a rank
    assert world_values(context, wrong, 12, 1500, float("inf")) is None
    assert state.to_move is not None
    other = (state.to_move + 1) % rules.players
    bad = search_context(k.world(fill(k)), player.tables, seat, [other << 7])  # a capture out of turn
    assert bad is not None and world_values(bad, hands, 12, 1500, float("inf")) is None
    assert world_values(object(), hands, 12, 1500, float("inf")) is None
    with pure_path():
        assert search_context(k.world(fill(k)), player.tables, seat, codes) is None
    # a bot whose roll-out is not the level's, or that looks ahead, searches on the pure path
    for spec in ({"rollout": "plain"}, {"look": 1}):
        bot = ExpertBot(seat, rules, random.Random(1), **spec)  # type: ignore[arg-type]
        assert bot._search_context(k, codes) is None
    assert ExpertBot(seat, rules, random.Random(1))._search_context(k, codes) is not None
