"""The information-set tree below the expert's root (``expert:search=tree`` and
``search=ismcts``): its play-out is the heuristic's until a node grows, its nodes are
named by what the seat sees only, and a grown node's choice is the seat's own."""

from __future__ import annotations

import random

import pytest

from lald.bots import make_bot
from lald.bots.expert import PASS, ExpertBot, Player
from lald.bots.heuristic import DROPPED, level_params
from lald.bots.infoset import InfoSetTree, Node
from lald.bots.knowledge import read
from lald.core import Rules, State
from lald.core.fast import HAND_CLAIM, LIE, FastState
from lald.sim.play import step
from lald.sim.spec import parse_spec


def _decisions(rules: Rules, deals: int, every: int = 3) -> list[State]:
    """Turn decisions with a choice (claims all passed) from heuristic play."""
    out = []
    for d in range(deals):
        state = State.deal(rules, seed=900 + d, dealer=d % rules.players)
        bots = [make_bot("heuristic", s, rules, random.Random(d * 5 + s)) for s in range(rules.players)]
        i = 0
        while not state.over:
            mover = state.to_move
            if (mover is not None and not state.open_claims() and i % every == 0
                    and len(set(FastState.from_state(state).turn_codes())) > 1):
                out.append(state.clone())
            step(state, bots)
            i += 1
    return out


def _player(rules: Rules, solve: int = 0) -> Player:
    return Player(rules, solve, 1500, DROPPED, 0, level_params(rules))


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_an_ungrown_tree_plays_on_as_the_expert_does(preset: str) -> None:
    """With no node grown (``expand`` out of reach) the tree's value of every move in every
    world is the expert's own play-out, and it counts one visit at the seat's next turn."""
    rules = Rules.make(preset)
    compared = visited = 0
    for state in _decisions(rules, 6):
        seat = state.to_move
        assert seat is not None
        k = read(state.view(seat))
        player = _player(rules)
        tree = InfoSetTree(player, seat, expand=10**9)
        bot = ExpertBot(seat, rules, random.Random(2))
        for _ in range(3):
            world = bot.draw(k, [], [])
            for code in world.turn_codes():
                plain, mine = world.copy(), world.copy()
                plain.apply(code)
                mine.apply(code)
                assert tree.finish(mine, code) == player.finish(plain, seat)
                compared += 1
        visited += sum(n.visits for n in tree.nodes.values())
        assert all(n.codes[n.count.index(n.visits)] == n.default for n in tree.nodes.values() if n.visits)
    assert compared > 100
    assert visited > 50  # the seat's next turns were found and counted


def _first_node(tree: InfoSetTree, fs: FastState, root: int) -> tuple[tuple[int, ...], int] | None:
    """The name of the seat's next turn with a choice after ``root`` and the heuristic's
    move there, found by playing the heuristic move by move (the tree finds them on the
    kernel's trace)."""
    player, seat, key = tree.player, tree.seat, [root]
    while not fs.over:
        if fs.any_claims() and tree._claims(fs, key):
            continue
        codes = fs.turn_codes()
        if fs.to_move == seat and len(codes) > 1:
            return tuple(key), player.turn(fs, codes)
        code = player.turn(fs, codes)
        key.append(tree.token(fs, code))
        fs.apply(code)
    return None


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_nodes_are_the_seats_next_turns_with_the_heuristics_move(preset: str) -> None:
    """The node a play-out counts is the one playing the heuristic move by move reaches,
    and its default is the heuristic's move there."""
    rules = Rules.make(preset)
    player = _player(rules)
    seen = 0
    for state in _decisions(rules, 5):
        seat = state.to_move
        assert seat is not None
        bot = ExpertBot(seat, rules, random.Random(4))
        k = read(state.view(seat))
        for _ in range(3):
            world = bot.draw(k, [], [])
            for code in world.turn_codes():
                tree = InfoSetTree(player, seat, expand=10**9)
                child = world.copy()
                child.apply(code)
                expected = _first_node(tree, child.copy(), code)
                tree.finish(child, code)
                if expected is None:
                    assert not tree.nodes
                    continue
                name, default = expected
                assert list(tree.nodes) == [name]
                assert tree.nodes[name].default == default
                seen += 1
    assert seen > 50


def test_the_tree_below_a_pass_lets_only_the_later_seats_claim() -> None:
    """Letting the claims pass (the root move PASS) plays on as the expert's own pass."""
    rules = Rules.make("survivor")
    found = 0
    for d in range(40):
        state = State.deal(rules, seed=1300 + d, dealer=d % 5)
        bots = [make_bot("heuristic", s, rules, random.Random(s)) for s in range(5)]
        while not state.over and found < 30:
            for seat in state.claim_order():
                if state.claims(seat):
                    fs = FastState.from_state(state)
                    player = _player(rules)
                    tree = InfoSetTree(player, seat, expand=10**9)
                    expected = player.finish(fs.copy(), seat, passed=seat)
                    assert tree.finish(fs.copy(), PASS, passed=True) == expected
                    found += 1
                    break
            step(state, bots)
    assert found >= 30


def _world(rules: Rules, hands: list[list[int]], to_move: int, foreplay: bool) -> FastState:
    """A position with ``hands`` and a table of one card of each rank but the king."""
    return FastState.from_world(rules, hands, [1] * 12 + [0], [0] * 5, [False] * 5, 4, to_move, foreplay,
                                None, -1, 0, False)


def test_tokens_hide_face_down_hand_sets_and_show_a_lie_down() -> None:
    rules = Rules.make("last-capture")  # hand sets face down, in foreplay
    tree = InfoSetTree(_player(rules), 0)
    hands = [[0] * 13 for _ in range(5)]
    hands[0][0] = 8
    hands[2][3] = 3
    hands[2][4] = 3
    hands[2][5] = 2
    hands[1][6] = 4
    hands[1][7] = 4
    ws = _world(rules, hands, 0, True)
    a = tree.token(ws, 2 << 7 | 3 << 3 | HAND_CLAIM)
    b = tree.token(ws, 2 << 7 | 4 << 3 | HAND_CLAIM)
    assert a == b  # which prial seat 2 set aside face down: not seen
    assert tree.token(ws, 1 << 7 | 6 << 3 | HAND_CLAIM) != a  # four cards, not two: seen
    own = tree.token(ws, 0 << 7 | 0 << 3 | HAND_CLAIM)
    assert own == 0 << 7 | 0 << 3 | HAND_CLAIM  # its own set: it knows the rank
    survivor = InfoSetTree(_player(Rules.make("survivor")), 0)
    assert (survivor.token(ws, 2 << 7 | 3 << 3 | HAND_CLAIM)
            != survivor.token(ws, 2 << 7 | 4 << 3 | HAND_CLAIM))
    # lying down: the hand thrown face up is part of what is seen
    hands2 = [list(h) for h in hands]
    hands2[2][5], hands2[2][8] = 0, 2
    ws2 = _world(rules, hands2, 2, False)
    ws1 = _world(rules, hands, 2, False)
    assert tree.token(ws1, 2 << 7 | LIE) != tree.token(ws2, 2 << 7 | LIE)


def test_ucb_tries_every_move_then_prefers_the_better_mean() -> None:
    node = Node([10, 20, 30], default=20)
    order = []
    for _ in range(3):
        i = node.select(2.0)
        order.append(i)
        node.update(i, [0.0, 1.0, 5.0][i])
    assert order == [0, 1, 2]
    for _ in range(200):
        i = node.select(2.0)
        node.update(i, [0.0, 1.0, 5.0][i])
    assert node.count[2] > node.count[1] > 0 and node.count[2] > 150
    assert node.select(0.0) == 2


def test_a_grown_node_searches_the_seats_own_later_turn() -> None:
    """Once a node has grown its moves are tried by UCB: more than the heuristic's."""
    rules = Rules.make("survivor")
    tried = 0
    for state in _decisions(rules, 3):
        seat = state.to_move
        assert seat is not None
        bot = ExpertBot(seat, rules, random.Random(3), search="tree", expand=1, worlds=200, time_limit=10)
        bot.act(state.view(seat), state.turn_actions())
        assert bot.tree is not None
        tried += sum(1 for n in bot.tree.nodes.values() if sum(1 for c in n.count if c) > 1)
    assert tried > 0


@pytest.mark.parametrize("spec", ["expert:search=tree", "expert:search=ismcts:c=1",
                                  "expert:search=tree:expand=2"])
@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_tree_experts_play_legal_whole_deals(spec: str, preset: str) -> None:
    rules = Rules.make(preset)
    sp = parse_spec(spec + ":time_limit=0.003")
    state = State.deal(rules, seed=77)
    bots = [sp.make(s, rules, random.Random(s)) for s in range(5)]
    while not state.over:
        step(state, bots)  # the engine refuses an illegal move
    assert state.result is not None


def test_bad_tree_parameters_are_refused_in_words() -> None:
    rules = Rules.make()
    with pytest.raises(ValueError, match="search=deep: choose pimc, tree or ismcts"):
        ExpertBot(0, rules, random.Random(1), search="deep")
    with pytest.raises(ValueError, match="expand must be at least 1"):
        ExpertBot(0, rules, random.Random(1), search="tree", expand=0)
    with pytest.raises(ValueError, match="heuristic's habits"):
        ExpertBot(0, rules, random.Random(1), search="tree", rollout="plain")
