"""The expert's parts: the opponent model in its draws, the exact solve of end positions
(checked against the same solve on the checked engine), and its spec parameters."""

from __future__ import annotations

import random

import pytest

from lald.bots import make_bot
from lald.bots.expert import TUNED_OFF, ExpertBot, Player
from lald.bots.kernel import HEURISTIC, TUNED, tables
from lald.bots.knowledge import fill, read
from lald.bots.sampler import consistent
from lald.bots.search import OracleBot
from lald.core import PrizeRule, Rules, State
from lald.core.codes import choose_action, code_of
from lald.core.fast import FastState
from lald.play.loop import step
from lald.play.spec import parse_spec


def _positions(rules: Rules, deals: int, keep: int = 3) -> list[State]:
    """Positions after foreplay from heuristic play, ``keep`` per deal at random moments,
    each taken as the seat to move is asked to act (every claim window has passed)."""
    out = []
    rng = random.Random(5)
    for d in range(deals):
        state = State.deal(rules, seed=500 + d, dealer=d % rules.players)
        bots = [make_bot("heuristic", s, rules, random.Random(d * 7 + s)) for s in range(rules.players)]
        moments = set(rng.sample(range(1, 30), keep))
        i = 0
        while not state.over:
            claimed = False
            for seat in state.claim_order():
                claims = state.claims(seat)
                choice = bots[seat].claim(state.view(seat), claims) if claims else None
                if choice is not None:
                    state.apply(choice)
                    claimed = True
                    break
            if claimed:
                continue
            if not state.foreplay and i in moments:
                out.append(state.clone())
            mover = state.to_move
            assert mover is not None
            state.apply(bots[mover].act(state.view(mover), state.turn_actions()))
            i += 1
    return out


def _hands(fs: FastState) -> list[list[int]]:
    return [list(h) for h in fs.hc]


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_model_draws_only_worlds_the_heuristic_opponents_could_be_in(preset: str) -> None:
    rules = Rules.make(preset)
    modelled = broken_uniform = 0
    for state in _positions(rules, 12):
        seat = state.to_move
        assert seat is not None
        k = read(state.view(seat))
        bot = ExpertBot(seat, rules, random.Random(1))
        capped, dead = bot._constraints(k, acting=True)
        assert capped == k.others  # after foreplay every other seat passed its hand sets
        if preset == "last-capture":
            assert dead == k.others  # the heuristic banks dead ranks at once here
        for _ in range(10):
            hands, set_ranks = bot.draw_world(k, capped, dead)
            assert consistent(k, hands, set_ranks)
            assert bot._plausible(k, hands, capped, dead)
            modelled += 1
        plain = ExpertBot(seat, rules, random.Random(1), model=0)
        assert plain._constraints(k, acting=True) == ([], [])
        for _ in range(10):
            broken_uniform += not bot._plausible(k, plain.draw_world(k, [], [])[0], capped, dead)
    assert modelled >= 200
    assert broken_uniform > 0  # the uniform draw does break the model: the constraint bites


def test_the_true_hands_are_plausible_when_every_seat_plays_the_heuristic() -> None:
    for preset in ("survivor", "last-capture"):
        rules = Rules.make(preset)
        for state in _positions(rules, 10):
            seat = state.to_move
            assert seat is not None
            k = read(state.view(seat))
            bot = ExpertBot(seat, rules, random.Random(1))
            truth = _hands(FastState.from_state(state))
            assert bot._plausible(k, truth, *bot._constraints(k, acting=True))


def _solve_checked(state: State, player: Player) -> list[float]:
    """Max-n over the checked engine's turn actions, claims by the heuristic: the solve
    written again on :class:`State`, move by move."""
    while not state.over:
        fs = FastState.from_state(state)
        made = False
        for seat in state.claim_order():
            claims = state.claims(seat)
            if claims:
                table = state.table_mask
                codes = list(dict.fromkeys(code_of(c, table) for c in claims))
                code = player.claim(fs, seat, codes)
                if code is not None:
                    state.apply(choose_action(code, claims, table))
                    made = True
                    break
        if made:
            continue
        table = state.table_mask
        actions = state.turn_actions()
        codes = list(dict.fromkeys(code_of(a, table) for a in actions))
        assert sorted(codes) == sorted(fs.turn_codes())
        codes = fs.turn_codes()  # the same moves, in the fast path's order (ties: the first)
        if len(codes) == 1:
            state.apply(actions[0])
            continue
        mover = state.to_move
        assert mover is not None
        best: list[float] | None = None
        for code in codes:
            child = state.clone()
            child.apply(choose_action(code, actions, table))
            values = _solve_checked(child, player)
            if best is None or values[mover] > best[mover]:
                best = values
        assert best is not None
        return best
    result = state.result
    assert result is not None
    prize = state.rules.prize
    return [float(p + (prize if result.prize_to == s else 0)) for s, p in enumerate(result.pairs)]


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_the_exact_solve_agrees_with_the_checked_engine(preset: str) -> None:
    rules = Rules.make(preset)
    player = Player(rules, solve_cards=99, node_cap=10**6)
    solved = 0
    for d in range(40):
        state = State.deal(rules, seed=900 + d, dealer=d % 5)
        bots = [make_bot("heuristic", s, rules, random.Random(s)) for s in range(5)]
        while not state.over and sum(len(h) for h in (state.view(s).hand for s in range(5))) > 9:
            step(state, bots)
        if state.over:
            continue
        fast = player._solve(FastState.from_state(state))
        assert fast == _solve_checked(state.clone(), player)
        solved += 1
    assert solved >= 30


def test_the_solve_can_beat_the_roll_out() -> None:
    # In small end positions the max-n solve, for the seat to move, is never below the
    # heuristic's own choice played on by the same solve, and now and then above the
    # heuristic's roll-out.
    rules = Rules.make("survivor")
    player = Player(rules, solve_cards=99, node_cap=10**6)
    positions = better = 0
    for d in range(40):
        state = State.deal(rules, seed=2000 + d, dealer=d % 5)
        bots = [make_bot("heuristic", s, rules, random.Random(s)) for s in range(5)]
        while not state.over:
            fs = FastState.from_state(state)
            if sum(fs.hs) <= 12 and len(fs.turn_codes()) >= 2:
                mover = fs.to_move
                best = player._solve(fs.copy(), skip_claims=True)[mover]
                habit = fs.copy()
                habit.apply(player.turn(habit, habit.turn_codes()))
                assert player._solve(habit.copy())[mover] <= best
                better += player.rollout(habit, mover) < best
                positions += 1
            step(state, bots)
    assert positions >= 50 and better > 0


def test_the_solve_gives_up_past_its_node_cap_and_rolls_out() -> None:
    rules = Rules.make("survivor")
    state = State.deal(rules, seed=3)
    fs = FastState.from_state(state)
    capped = Player(rules, solve_cards=99, node_cap=5)
    rolled = Player(rules, solve_cards=0)
    assert capped.finish(fs.copy(), 0) == rolled.finish(fs.copy(), 0)
    assert capped.nodes > 5


def test_spec_parameters_reach_the_expert() -> None:
    spec = parse_spec("expert:time_limit=0.05:worlds=9:model=0:solve=0")
    bot = spec.make(2, Rules.make(), random.Random(0))
    assert isinstance(bot, ExpertBot)
    assert (bot.time_limit, bot.worlds, bot.model, bot.player.solve_cards) == (0.05, 9, False, 0)
    assert bot.policy.off == TUNED_OFF  # the heuristic level's claims and habits
    assert bot.player.tables is tables(Rules.make(), TUNED[PrizeRule.SURVIVOR])  # the level's captures
    old = parse_spec("expert:rollout=v3").make(0, Rules.make(), random.Random(0))
    assert isinstance(old, ExpertBot) and old.player.tables is tables(Rules.make(), HEURISTIC)
    plain = parse_spec("expert:rollout=plain").make(0, Rules.make(), random.Random(0))
    assert isinstance(plain, ExpertBot) and plain.policy.off == frozenset()
    chosen = parse_spec("expert:-deny").make(0, Rules.make(), random.Random(0))
    assert isinstance(chosen, ExpertBot) and chosen.policy.off == {"deny"}
    with pytest.raises(ValueError, match="rollout"):
        parse_spec("expert:rollout=clever")
    with pytest.raises(ValueError, match="model"):
        parse_spec("expert:model=maybe")
    with pytest.raises(ValueError):
        parse_spec("expert:worlds=0")


@pytest.mark.parametrize("claims", ["all", "own"])
def test_claims_are_searched_against_letting_them_pass(claims: str) -> None:
    # survivor: a dead pair or a prial held in hand is a claim the search weighs, in every
    # window (claims=all, the default) or on its own turn only (claims=own)
    rules = Rules.make("survivor")
    asked = own = off_turn = 0
    for d in range(30):
        state = State.deal(rules, seed=3000 + d, dealer=d % 5)
        bots = [make_bot("heuristic", s, rules, random.Random(s)) for s in range(5)]
        while not state.over:
            for seat in range(5):
                offered = state.claims(seat)
                if not offered:
                    continue
                bot = ExpertBot(seat, rules, random.Random(d), worlds=3, time_limit=5, claims=claims)
                seen: list[list[int]] = []
                search = bot.search

                def spy(k: object, codes: list[int], acting: bool, seen: list[list[int]] = seen,
                        search: object = search) -> object:
                    seen.append(codes)
                    return search(k, codes, acting)  # type: ignore[operator]

                bot.search = spy  # type: ignore[method-assign, assignment]
                choice = bot.claim(state.view(seat), offered)
                assert choice is None or choice in offered
                mine = state.to_move == seat and not state.foreplay
                if claims == "all" or mine:
                    assert seen and seen[0][-1] == -1 and len(seen[0]) == 1 + len(
                        {code_of(c, state.table_mask) for c in offered})
                    asked += 1
                    own += mine
                    off_turn += not mine
                else:
                    assert not seen  # as the heuristic claims
            step(state, bots)
    assert own > 0 and (off_turn > 0) == (claims == "all")


def test_the_search_keeps_the_heuristics_move_unless_another_is_clearly_better() -> None:
    rules = Rules.make("survivor")
    kept = switched = 0
    for state in _positions(rules, 12):
        seat = state.to_move
        assert seat is not None
        k = read(state.view(seat))
        fs = FastState.from_state(state)
        codes = list(dict.fromkeys(fs.turn_codes()))
        if len(codes) < 2:
            continue
        bot = ExpertBot(seat, rules, random.Random(3), worlds=12, time_limit=5, prior=1.5)
        default = bot.policy.turn(k.world(fill(k)), codes, k.outside())
        means, values, exact = bot.search(k, codes, True)
        bot.rng = random.Random(3)  # the same worlds again
        choice = bot.choose(k, codes, True, default)
        top = max(range(len(codes)), key=means.__getitem__)
        if exact or means[codes.index(default)] == means[top]:
            assert means[codes.index(choice)] == means[top]  # the best (one of them, if tied)
            continue
        b, d = values[top], values[codes.index(default)]
        diffs = [x - y for x, y in zip(b, d, strict=True)]
        mean = sum(diffs) / len(diffs)
        se = (sum((x - mean) ** 2 for x in diffs) / (len(diffs) - 1) / len(diffs)) ** 0.5
        if mean > 1.5 * se:
            assert choice == codes[top]
            switched += 1
        else:
            assert choice == default
            kept += 1
    assert kept > 0 and switched > 0


def test_lookahead_plays_its_own_next_choice_as_the_best_in_the_world() -> None:
    # With one look, the value of a position where this seat chooses is the best of its
    # choices each rolled out; without looks it is the heuristic's choice rolled out.
    rules = Rules.make("survivor")
    player = Player(rules, solve_cards=0)
    checked = raised = 0
    for d in range(80):
        state = State.deal(rules, seed=4000 + d, dealer=d % 5)
        bots = [make_bot("heuristic", s, rules, random.Random(s)) for s in range(5)]
        for _ in range(random.Random(d).randrange(2, 12)):
            if state.over:
                break
            step(state, bots)
        if state.over:
            continue
        fs = FastState.from_state(state)
        if fs.any_claims() or len(fs.turn_codes()) < 2:
            continue
        seat = fs.to_move
        children = []
        for code in fs.turn_codes():
            child = fs.copy()
            child.apply(code)
            children.append(player.finish(child, seat, looks=0))
        looked = player.finish(fs.copy(), seat, looks=1)
        assert looked == max(children)
        raised += looked > player.finish(fs.copy(), seat, looks=0)
        checked += 1
    assert checked >= 10 and raised > 0


def test_the_oracle_plays_the_best_move_of_the_true_deal() -> None:
    # one world, the true one: no prior toward the heuristic, no list of worlds
    rules = Rules.make("last-capture")
    checked = differs = 0
    for state in _positions(rules, 14):
        seat = state.to_move
        assert seat is not None
        fs = FastState.from_state(state)
        codes = list(dict.fromkeys(fs.turn_codes()))
        if len(codes) < 2:
            continue
        bot = make_bot("oracle", seat, rules, random.Random(0))
        assert isinstance(bot, OracleBot)
        bot.see(state)
        values = []
        for code in codes:
            child = fs.copy()
            child.apply(code)
            values.append(bot.player.finish(child, seat))
        action = bot.act(state.view(seat), state.turn_actions())
        assert values[codes.index(code_of(action, state.table_mask))] == max(values)
        k = read(state.view(seat))
        differs += codes[values.index(max(values))] != bot.policy.turn(k.world(fill(k)), codes, k.outside())
        checked += 1
    assert checked >= 10 and differs > 0


def test_solves_stop_when_they_would_leave_too_few_worlds() -> None:
    # late positions, where every world would be solved: once the first world shows the
    # time would hold fewer than min_worlds of them, the others are rolled out
    rules = Rules.make("survivor")
    checked = differs = 0
    for state in _positions(rules, 30, keep=6):
        fs = FastState.from_state(state)
        codes = list(dict.fromkeys(fs.turn_codes()))
        seat = state.to_move
        assert seat is not None
        if sum(fs.hs) > 12 or len(codes) < 2:
            continue
        k = read(state.view(seat))
        hurried = ExpertBot(seat, rules, random.Random(4), worlds=6, time_limit=5, min_worlds=10**12,
                            exact=0, model=0)
        patient = ExpertBot(seat, rules, random.Random(4), worlds=6, time_limit=5, exact=0, model=0)
        rolled = ExpertBot(seat, rules, random.Random(4), worlds=6, time_limit=5, exact=0, model=0, solve=0)
        h, p, r = (bot.search(k, codes, True)[1] for bot in (hurried, patient, rolled))
        assert [v[0] for v in h] == [v[0] for v in p]  # the first world is solved
        assert [v[1:] for v in h] == [v[1:] for v in r]  # the rest rolled out
        assert hurried.player.solve_cards == 12  # and solving is on again for the next decision
        differs += [v[1:] for v in p] != [v[1:] for v in r]
        checked += 1
    assert checked >= 3 and differs > 0  # (solved and rolled-out values do differ)
