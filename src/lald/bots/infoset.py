"""Information-set search below the expert's root: this seat's later turns, searched.

The expert (:mod:`lald.bots.expert`) judges each candidate move by the deal played on in
sampled worlds, every later move, this seat's own included, by the heuristic.  An
:class:`InfoSetTree` plays this seat's later turns by a search instead (single-observer
information-set Monte Carlo tree search, Cowling, Powley and Whitehouse 2012): a node is
one of this seat's later decisions as *it* would see it, named by everything public
played since the root (the root move, every seat's moves and claims, the cards a seat
threw down when it lay down; the rank of a face-down hand set hidden), so the worlds
that lead to the same node share its statistics, and the move chosen there depends on
what the seat could know, never on the world (no strategy fusion).  The other seats
play the heuristic, in the tree too.

At a node seen fewer than ``expand`` times the seat plays the heuristic's move and the
rest of the deal is rolled out on the fused kernel; from then on UCB1 chooses among its
moves (each tried once, then the best mean plus ``c`` chips times the square root of log
visits over the move's visits), and the next node down grows the same way.  With few
visits the search is the expert's own (the heuristic below the root); the tree only
takes over where its statistics are.  A position small enough for the expert's exact
solve right after the root move is solved (there is nothing to search for), as the
expert does.

:class:`InfoSetTree` is the expert's ``search=tree`` (the root stays the expert's:
every candidate in every world, common random numbers) and ``search=ismcts`` (the root
is a node too, its move chosen by UCB1 per world, the most visited played).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import log, sqrt
from typing import TYPE_CHECKING

from ..core.fast import HAND_CLAIM, LIE, FastState
from .kernel import heuristic_outcome

if TYPE_CHECKING:
    from .expert import Player

Key = tuple[int, ...]
"""A node's name: the public tokens of every move since the root (:meth:`InfoSetTree.token`)."""


class Node:
    """One of the seat's decisions as it sees it: its moves (the same in every world that
    reaches it: its hand and the table are public to it), the heuristic's choice, and per
    move its visits and the sum of the values that followed."""

    __slots__ = ("codes", "default", "visits", "count", "total")

    def __init__(self, codes: Sequence[int], default: int) -> None:
        self.codes = list(codes)
        self.default = default
        self.visits = 0
        self.count = [0] * len(self.codes)
        self.total = [0.0] * len(self.codes)

    def update(self, i: int, value: float) -> None:
        """Count a visit that played move ``i`` and was worth ``value``."""
        self.visits += 1
        self.count[i] += 1
        self.total[i] += value

    def mean(self, i: int) -> float:
        """Move ``i``'s mean value so far (0 before its first visit)."""
        return self.total[i] / self.count[i] if self.count[i] else 0.0

    def select(self, c: float) -> int:
        """UCB1: a move not tried yet (the first in order), else the best mean plus ``c``
        times the square root of log visits over the move's visits."""
        count, total = self.count, self.total
        for i, n in enumerate(count):
            if not n:
                return i
        scale = c * sqrt(log(self.visits))
        return max(range(len(count)), key=lambda i: total[i] / count[i] + scale / sqrt(count[i]))


class InfoSetTree:
    """The seat's later turns by information-set search (see the module's text), its
    other moves and every other seat's by the heuristic of ``player``, whose
    :meth:`~lald.bots.expert.Player.finish` plays out below the tree."""

    def __init__(self, player: Player, seat: int, expand: int = 4, c: float = 2.0) -> None:
        if expand < 1 or c < 0:
            raise ValueError("expand must be at least 1 and c at least 0")
        if player.tables is None:
            raise ValueError("the tree plays out on the kernel: its roll-outs need the heuristic's habits")
        self.tables = player.tables
        self.player = player
        self.seat = seat
        self.expand = expand
        self.c = c
        self.face_down = player.policy.rules.hand_sets_face_down
        self.nodes: dict[Key, Node] = {}

    def reset(self) -> None:
        """Forget every node (a new decision)."""
        self.nodes.clear()

    def token(self, fs: FastState, code: int) -> int:
        """What the seat sees of move ``code`` about to be made in ``fs``: the code, and for
        a lie-down the hand thrown down; another seat's hand claim while hand sets may be
        made face down shows only its seat and how many cards."""
        kind = code & 7
        mover = code >> 7
        if kind == LIE:
            enc = 0
            for c in fs.hc[mover]:
                enc = enc * 5 + c
            return code | (enc + 1) << 11
        if kind == HAND_CLAIM and self.face_down and mover != self.seat and fs.foreplay:
            held = fs.hc[mover][code >> 3 & 15]
            return (mover << 7 | HAND_CLAIM) | (2 if held == 3 else held) << 11 | 1 << 10
        return code

    def _claims(self, fs: FastState, key: list[int], after: int = -1) -> bool:
        """The heuristic's first claim now (only by the seats after ``after`` in the claim
        order, if given), made and recorded in ``key``; whether one was made."""
        order = fs.claim_order()
        if after >= 0:
            order = order[order.index(after) + 1:]
        player = self.player
        for s in order:
            codes = fs.claim_codes(s)
            if codes:
                code = player.claim(fs, s, codes)
                if code is not None:
                    key.append(self.token(fs, code))
                    fs.apply(code)
                    return True
        return False

    def finish(self, fs: FastState, root: int, passed: bool = False) -> float:
        """The seat's value of ``fs`` (changed), just after the root move ``root`` (a code,
        or -1 for letting the open claims pass, ``passed``: then only the seats after it
        in the claim order may claim before the turn), played on: the seat's later turns
        by the tree, everything else by the heuristic, the rest rolled out from the first
        node that has not grown yet.  Every node passed counts the value.

        Below a node that has not grown the play is the heuristic's, so the deal is
        rolled out on the fused kernel and its trace replayed only as far as the seat's
        next turn with a choice, to name that node: the same moves as playing each one
        in turn, at the cost of one roll-out and a few replayed moves."""
        seat, player = self.seat, self.player
        key = [root]
        path: list[tuple[Node, int]] = []
        skip = passed and not self._claims(fs, key, after=seat)
        if player.solve_cards and sum(fs.hs) <= player.solve_cards:
            return player.finish(fs, seat, skip_claims=skip)  # solved exactly: no tree needed
        if skip and not fs.over:
            code = player.turn(fs, fs.turn_codes())
            key.append(self.token(fs, code))
            fs.apply(code)
        nodes, tables, token = self.nodes, self.tables, self.token
        while not fs.over:
            trace: list[int] = []
            outcome = heuristic_outcome(fs, trace, tables)
            node: Node | None = None
            for code in trace:
                if code >> 7 == seat and code & 7 < HAND_CLAIM:
                    codes = fs.turn_codes()
                    if len(codes) > 1:
                        name = tuple(key)
                        node = nodes.get(name)
                        if node is None:
                            node = nodes[name] = Node(codes, code)  # the kernel plays the heuristic's move
                        break
                key.append(token(fs, code))
                fs.apply(code)
            if node is None or node.visits < self.expand:
                if node is not None:
                    path.append((node, node.codes.index(node.default)))
                fs.finish_as(outcome)
                break
            i = node.select(self.c)
            path.append((node, i))
            code = node.codes[i]
            key.append(token(fs, code))
            fs.apply(code)
        value = fs.value(seat)
        for node, i in path:
            node.update(i, value)
        return value
