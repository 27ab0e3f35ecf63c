"""``lald review``: the expert's view of every decision a seat made, from what it knew then.

Hand-built positions whose right choice is known (an exact end position, the next seat left
without a capture, a forced lie-down with a dead pair to bank first), the review's
independence from hidden cards, determinism, the walk over a deal's decisions, the words
in every language, and the command's output and one-line errors."""

from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from lald.bots import make_bot
from lald.coach import reasons as reasons_module
from lald.coach import review as review_module
from lald.coach.hints import advise
from lald.coach.review import (
    DecisionKind,
    Verdict,
    decision_points,
    review_deal,
    review_decision,
    start_of,
)
from lald.coach.words import reason_text, review_json, review_lines
from lald.core import (
    Action,
    Capture,
    Claim,
    IllegalActionError,
    LieDown,
    PlayerView,
    Rules,
    State,
    cards_of,
    mask_of,
    parse_action,
)
from lald.core.codes import code_of
from lald.i18n import LANGUAGES, Catalog, messages
from lald.play.loop import play_deal, step
from lald.record import Record

sys.path.insert(0, str(Path(__file__).parents[1] / "core"))
from positions import position  # noqa: E402

SURVIVOR = Rules.make("survivor")


def _turn(state: State, made: str, worlds: int = 60) -> review_module.Decision:
    seat = state.to_move
    assert seat is not None
    return review_decision(state.view(seat), state.turn_actions(), parse_action(made), DecisionKind.TURN,
                           worlds=worlds)


def _values(decision: review_module.Decision) -> dict[str, tuple[float, float]]:
    return {str(o.action): (o.value.mean, o.value.half) for o in decision.options}


# -- positions whose right choice is known ------------------------------------------------


def test_exact_end_position_keeps_a_card_to_outlast() -> None:
    # Seats 1 and 2 alone hold cards; every other card is in a won pile, so seat 1 knows
    # seat 2's hand. The pair 7♠ 7♥ takes four cards, but then seat 1 is left with 4♠ and
    # must lie down after seat 2 takes the 8: seat 2 is the survivor. The single 7 keeps
    # 7♥ to take 7♣ later, and seat 2 (left with 4♥) lies down: seat 1 survives.
    state = position(SURVIVOR, ["", "7S 7H 4S", "4H 8S", "", ""], "7D 7C 8H")
    d = _turn(state, "1: 7S 7H x 7D 7C")
    # single: 4 cards won (-2 pairs) + prize 5 - ante 2 = +1; pair: 4 cards, -2 - 2 = -4
    assert _values(d) == {"1: 7S x 7D": (1.0, 0.0), "1: 7S 7H x 7D 7C": (-4.0, 0.0)}
    assert d.best == parse_action("1: 7S x 7D")
    assert (d.cost.mean, d.cost.half) == (5.0, 0.0)
    assert d.verdict is Verdict.BLUNDER
    assert d.reason is not None and d.reason.key == "review_why_lie"
    assert dict(d.reason.args) == {"made": 100, "best": 0}
    assert _turn(state, "1: 7S x 7D").verdict is Verdict.BEST


def test_a_capture_that_leaves_the_next_seat_without_a_match() -> None:
    # Taking the 9 leaves no 9 on the table for seat 2, who holds only 9♠ 9♣: it lays them
    # down (or lies down) and seat 1 survives. Taking the 5 lets seat 2 take 9♥; then seat 1,
    # holding 9♦ against an empty table, must lie down.
    state = position(SURVIVOR, ["", "9D 5S", "9S 9C", "", ""], "9H 5H")
    d = _turn(state, "1: 5S x 5H")
    assert _values(d) == {"1: 9D x 9H": (0.0, 0.0), "1: 5S x 5H": (-5.0, 0.0)}
    assert d.best == parse_action("1: 9D x 9H") and d.cost.mean == 5.0
    assert d.reason is not None and d.reason.key == "review_why_deny" and d.reason.get("seat") == 2
    text = reason_text(d, Catalog("en"))
    assert text == ("You played 5♠ and took 5♥; playing 9♦ to take 9♥ would have left Seat 2 "
                    "without a capture")


def test_a_forced_lie_down_is_no_decision_but_the_dead_pair_should_be_banked_first() -> None:
    # Seat 1 holds 5♠ 5♥ 9♠ and no rank on the table: it must lie down. Both live 5s are in
    # its hand, so it may lay them into its won pile first: two cards won instead of none.
    state = position(SURVIVOR, ["", "5S 5H 9S", "9H 3S JH", "", ""], "3H JS")
    view = state.view(1)
    forced = review_decision(view, state.turn_actions(), LieDown(1), DecisionKind.TURN)
    assert forced.verdict is Verdict.FORCED and forced.options == () and forced.cost.mean == 0
    window = review_decision(view, state.claims(1), None, DecisionKind.CLAIM, worlds=40)
    # claimed: 2 won (-3) - ante 2 = -5; passed: 0 won (-4) - 2 = -6
    assert _values(window) == {"1: claim 5S 5H": (-5.0, 0.0), "None": (-6.0, 0.0)}
    assert window.best == Claim(1, state.claims(1)[0].cards) and window.cost.mean == 1.0
    assert window.verdict is Verdict.MISTAKE
    assert window.reason is not None and window.reason.key == "review_why_lay_first"
    banked = review_decision(view, state.claims(1), state.claims(1)[0], DecisionKind.CLAIM, worlds=40)
    assert banked.verdict is Verdict.BEST and banked.reason is None


def test_an_uncertain_denial_reports_its_share_of_the_possible_hands() -> None:
    # Seat 1 does not know how 8♦ 3♠ 2♣ 2♥ are shared between seats 2 and 3 (two each).
    # After 2♦ takes 2♠ the table holds 10♥ 3♥: seat 2 can capture only if it holds 3♠,
    # in 3 of the 6 ways to deal it two of those cards.
    state = position(SURVIVOR, ["", "2D TC 8C", "8D 3S", "2C 2H", ""], "2S TH 3H")
    d = _turn(state, "1: TC x TH", worlds=200)
    assert d.best == parse_action("1: 2D x 2S") and d.verdict is Verdict.BLUNDER
    assert d.reason is not None and d.reason.key == "review_why_deny_likely"
    assert 35 <= int(d.reason.get("percent")) <= 65  # type: ignore[call-overload]
    # Seat 2 captures in every world (3♥ with 3♠, or 2♠ with a 2), so since heuristic
    # version 4 the play-outs agree to the chip in all of them: a point, not an interval.
    assert d.options[1].value.half == 0 and d.cost.mean == 4


def test_the_example_deal_spends_a_safe_capture() -> None:
    # docs/review.md's example: seat 1 holds Q♦, the other three queens lie on the table,
    # so nobody else can ever take them; it took one of them anyway, with a 6 and a 4 open.
    path = Path(__file__).parents[2] / "examples" / "review-deal.json"
    review = review_deal(Record.parse(path.read_text()).replay(), 1, worlds=200)
    d = review.decisions[review.costliest[0]]
    assert d.at == 2 and d.made == parse_action("1: QD x QC") and d.verdict is Verdict.BLUNDER
    assert isinstance(d.best, Capture) and d.best.take[0].rank in (3, 5)  # the 4 or the 6
    assert d.reason is not None and d.reason.key == "review_why_safe" and d.reason.get("rank") == "Q"
    assert review.result == -5


# -- only what the seat could know ---------------------------------------------------------


def _played(rules: Rules, seed: int, level: str = "heuristic") -> State:
    state = State.deal(rules, seed, dealer=seed % rules.players)
    bots = [make_bot(level, s, rules, random.Random(seed * 7 + s)) for s in range(rules.players)]
    return play_deal(state, bots)


def _other_deal_same_view(state: State, seat: int, at: int) -> State | None:
    """The deal of ``state`` with two hidden cards swapped between two other hands (cards
    both still held before action ``at``, so seat ``seat`` never saw them), replayed to
    ``at``, the seat's own action ``at`` made, then played on by bots; None if no swap keeps
    every earlier action legal and the seat's view the same."""
    before = start_of(state)
    for action in state.actions[:at]:
        before.apply(action)
    holders = [s for s in range(state.n) if s != seat and before.hands[s]]
    for a, b in combinations(holders, 2):
        for ca in cards_of(before.hands[a]):
            for cb in cards_of(before.hands[b]):
                if ca.rank == cb.rank:
                    continue
                hands = [list(cards_of(h)) for h in state.dealt_hands]
                hands[a][hands[a].index(ca)] = cb
                hands[b][hands[b].index(cb)] = ca
                other = State.from_layout(state.rules, hands, cards_of(state.dealt_table), state.dealer)
                try:
                    for action in state.actions[:at]:
                        other.apply(action)
                except IllegalActionError:
                    continue
                if other.view(seat) != before.view(seat):
                    continue
                assert other.hands != before.hands
                other.apply(state.actions[at])
                bots = [make_bot("heuristic", s, state.rules, random.Random(s)) for s in range(state.n)]
                while not other.over:
                    step(other, bots)
                return other
    return None


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_other_hidden_cards_consistent_with_the_view_do_not_change_a_decisions_review(preset: str) -> None:
    rules = Rules.make(preset)
    checked = 0
    for seed in range(40, 60):
        state = _played(rules, seed)
        seat = (seed % 4) + 1
        turns = [p for p in decision_points(state, seat) if p.kind is DecisionKind.TURN
                 and len({code_of(a, mask_of(p.view.table)) for a in p.legal}) > 1]
        if not turns:
            continue
        at = turns[len(turns) // 2].at
        other = _other_deal_same_view(state, seat, at)
        if other is None:
            continue
        mine = [d for d in review_deal(state, seat, seed=3, worlds=40).decisions
                if d.at == at and d.kind is DecisionKind.TURN]
        theirs = [d for d in review_deal(other, seat, seed=3, worlds=40).decisions
                  if d.at == at and d.kind is DecisionKind.TURN]
        assert mine == theirs and mine[0].verdict is not Verdict.FORCED
        checked += 1
        if checked == 2:
            break
    assert checked == 2


# -- a whole deal ------------------------------------------------------------------------


def test_same_record_and_seed_same_review_and_the_seed_names_the_draws() -> None:
    state = _played(SURVIVOR, 11, level="random")
    one = review_deal(state, 2, seed=5, worlds=40)
    assert one == review_deal(state, 2, seed=5, worlds=40)
    other = review_deal(state, 2, seed=6, worlds=40)
    assert [d.at for d in one.decisions] == [d.at for d in other.decisions]
    assert [d.options for d in one.choices] != [d.options for d in other.choices]


def test_the_walk_finds_every_decision_the_seat_made() -> None:
    for preset in ("survivor", "last-capture"):
        rules = Rules.make(preset)
        for seed in range(6):
            state = _played(rules, seed, level="random")
            for seat in range(rules.players):
                points = list(decision_points(state, seat))
                turns = [p.at for p in points if p.kind is DecisionKind.TURN]
                assert turns == [i for i, a in enumerate(state.actions)
                                 if a.seat == seat and not isinstance(a, Claim)]
                claimed = [p.at for p in points if p.kind is DecisionKind.CLAIM and p.made is not None]
                assert claimed == [i for i, a in enumerate(state.actions)
                                   if a.seat == seat and isinstance(a, Claim)]
                windows = {p.at: p for p in points if p.kind is DecisionKind.CLAIM}
                replay = start_of(state)
                for i, action in enumerate(state.actions):
                    order = replay.claim_order()
                    other_first = (isinstance(action, Claim) and action.seat != seat
                                   and order.index(action.seat) < order.index(seat))
                    if i in windows:  # offered, and it claimed or let the claims pass
                        assert replay.claims(seat) and not other_first
                        assert windows[i].made == (action if isinstance(action, Claim) and action.seat == seat
                                                   else None)
                    else:  # no claim open to it, or a seat before it claimed first
                        assert not replay.claims(seat) or other_first
                    replay.apply(action)


def test_summary_adds_the_costs_and_names_the_three_costliest() -> None:
    state = _played(SURVIVOR, 19, level="random")  # seat 1 makes four costly moves here
    calls: list[tuple[int, int]] = []
    review = review_deal(state, 1, worlds=60, progress=lambda done, total: calls.append((done, total)))
    costs = [d.cost.mean for d in review.decisions]
    assert review.lost.mean == pytest.approx(sum(costs))
    costly = [i for i, d in enumerate(review.decisions) if d.verdict in review_module.COSTLY]
    assert len(costly) >= 4  # enough that the summary must choose
    assert len(review.costliest) == 3 and set(review.costliest) <= set(costly)
    ranked = [costs[i] for i in review.costliest]
    assert ranked == sorted(ranked, reverse=True) and ranked[-1] >= 0.1
    assert all(costs[i] <= ranked[-1] for i in costly if i not in review.costliest)
    for i in review.costliest:
        assert review.decisions[i].reason is not None
    total = len(review.choices)
    assert calls[0] == (0, total) and calls[-1] == (total, total) and len(calls) == total + 1
    assert review.result == state.result.chips[1]  # type: ignore[union-attr]


def test_an_unfinished_deal_or_a_missing_seat_is_refused() -> None:
    state = State.deal(SURVIVOR, 3)
    with pytest.raises(ValueError, match="not over"):
        review_deal(state, 1)
    with pytest.raises(ValueError, match="no seat 5"):
        review_deal(_played(SURVIVOR, 3), 5)


# -- words ---------------------------------------------------------------------------------


def _reason_keys() -> set[str]:
    # the review names review_why_hint and review_why_close; its reasons module the rest
    trees = [ast.parse(Path(m.__file__).read_text()) for m in (review_module, reasons_module)]
    return {node.value for tree in trees for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value.startswith("review_why_")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_is_worded_in_every_language(lang: str) -> None:
    keys = _reason_keys()
    assert len(keys) == 15 and keys <= set(messages(lang))  # review_why_hint: issue 26, item 8
    catalog = Catalog(lang)
    made = Capture(1, *(tuple(cards_of(1 << c)) for c in (20, 21)))
    best = Claim(1, tuple(cards_of(0b11 << 24)))
    args = {"seat": 2, "rank": "7", "percent": 60, "best": 30, "made": 10}
    for key in keys:
        d = review_module.Decision(3, DecisionKind.TURN, made, best, (), review_module.ZERO, Verdict.MISTAKE,
                                   review_module.Reason(key, tuple(args.items())))
        text = reason_text(d, catalog, names=["A", "B", "Cleo", "D", "E"])
        assert text and "{" not in text and text[0].isupper()
        assert "6♠" in text and "7♠ 7♥" in text  # the move made and the best move are named
        assert ("Cleo" in text) == ("{seat}" in messages(lang)[key])
    passed = review_module.Decision(0, DecisionKind.CLAIM, None, best, (), review_module.ZERO,
                                    Verdict.MISTAKE, review_module.Reason("review_why_spot"))
    assert catalog.t("review_did_pass") in (reason_text(passed, catalog) or "").lower()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_review_reads_in_every_language(lang: str) -> None:
    state = _played(SURVIVOR, 7, level="random")
    review = review_deal(state, 1, worlds=30)
    catalog = Catalog(lang)
    lines = review_lines(review, catalog)
    assert lines[0] == catalog.t("review_title", name=catalog.t("seat_name", seat=1),
                                 preset=catalog.t("review_preset_survivor"), players=5, worlds=30, seed=0)
    assert catalog.t("review_summary") in lines
    assert all("{" not in line for line in lines)
    if lang != "en":
        assert lines != review_lines(review, Catalog("en"))
    data = review_json(review, catalog)
    assert json.loads(json.dumps(data)) == data


@pytest.mark.parametrize("lang", LANGUAGES)
def test_moves_are_counted_from_one_and_the_preset_is_named_in_words(lang: str) -> None:
    """Seen in the terminal: "Action 7" counted from 0, the title gave the preset's
    identifier ("survivor"), and "Spieler"/"jugadores" in the title."""
    state = _played(Rules.make("last-capture"), 7, level="random")
    review = review_deal(state, 1, worlds=20)
    catalog = Catalog(lang)
    lines = review_lines(review, catalog)
    title = lines[0]
    assert "last-capture" not in title and catalog.t("review_preset_last_capture") in title
    assert not any(word in title for word in ("Spieler", "jugadores", "jogadores", " players"))
    first = review.decisions[0]
    key = "review_forced" if first.verdict is Verdict.FORCED else f"review_{first.kind.value}"
    heading = next(line for line in lines[3:] if line.strip())
    number = catalog.t(key, number=first.at + 1, move="§").split("§")[0].rstrip(":")
    assert heading.startswith(number), (heading, first.at)
    if review.costliest:
        d = review.decisions[review.costliest[0]]
        place = next(line for line in lines if line.startswith("1. "))
        words = catalog.t("review_costly", place=1, number=d.at + 1, cost="§", verdict="", reason="")
        assert place.startswith(words.split("§")[0])


# -- the command ---------------------------------------------------------------------------


def lald(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lald", *args], input=stdin, capture_output=True,
                          text=True, timeout=120)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "deal.json"
    path.write_text(Record.from_state(_played(SURVIVOR, 7, level="random")).dumps())
    return path


def test_review_json_for_programs(record_file: Path) -> None:
    out = lald("review", str(record_file), "--seat", "1", "--json", "--worlds", "30", "--seed", "4")
    assert out.returncode == 0 and out.stderr == ""  # no progress bar off a terminal
    data = json.loads(out.stdout)
    assert data["format"] == "lald-review/1" and data["seat"] == 1 and data["worlds"] == 30
    assert data["seed"] == 4 and data["unit"] == "chips"
    record = Record.parse(record_file.read_text())
    for d in data["decisions"]:
        assert d["kind"] in ("turn", "claim") and d["verdict"] in [v.value for v in Verdict]
        if d["made"] is not None:
            assert d["action"] == d["at"] and d["made"] == record.actions[d["at"]].to_json()
        if d["verdict"] != "forced":
            assert d["options"][0]["action"] == d["best"]
            assert all(o["low"] <= o["mean"] <= o["high"] for o in d["options"])
    assert all(data["decisions"][i]["reason"]["text"] for i in data["costliest"])
    again = lald("review", "-", "--seat", "1", "--json", "--worlds", "30", "--seed", "4",
                 stdin=record_file.read_text())
    assert again.stdout == out.stdout


def test_review_text_in_words(record_file: Path) -> None:
    out = lald("review", str(record_file), "--seat", "1", "--worlds", "20", "--lang", "de")
    assert out.returncode == 0 and "Zusammenfassung" in out.stdout and "Platz 1" in out.stdout


@pytest.mark.parametrize("args, message", [
    (["--seat", "9"], "lald review: --seat 9: there is no seat 9: seats are 0 to 4"),
    (["--seat", "1", "--worlds", "0"], "lald review: --worlds 0: use 1 to 20000 sampled deals per decision"),
    (["--seat", "1", "--lang", "fr"],
     "lald review: argument --lang: invalid choice 'fr': choose en, de, pt, es"),
])
def test_bad_arguments_get_one_line(record_file: Path, args: list[str], message: str) -> None:
    """Usage mistakes: status 2, the command named (issue 30: they exited 1, "lald:")."""
    out = lald("review", str(record_file), *args)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == message + " (see lald review --help)\n"


def test_the_seat_may_be_named_as_the_terminal_names_it(record_file: Path) -> None:
    # issue 26, item 11: the terminal's review names "Ben"; --seat takes the name too
    by_number = lald("review", str(record_file), "--seat", "1", "--json", "--worlds", "10")
    for name in ("Ben", "ben", "Bernd", "Benito"):
        by_name = lald("review", str(record_file), "--seat", name, "--json", "--worlds", "10")
        assert by_name.returncode == 0 and by_name.stdout == by_number.stdout, (name, by_name.stderr)
    out = lald("review", str(record_file), "--seat", "Zoe")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == ("lald review: --seat: there is no seat named 'Zoe': seats are 0 to 4, "
                          "or Anne, Ben, Cis, Dick, Eve (see lald review --help)\n")


def test_bad_records_get_one_line(tmp_path: Path) -> None:
    unfinished = tmp_path / "open.json"
    unfinished.write_text(Record(rules=SURVIVOR, seed=3).dumps())
    out = lald("review", str(unfinished), "--seat", "1")
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr == "lald: the deal is not over (seat 1 is to move): a review needs a finished deal\n"
    for text in ("{", '{"format": "lald-record/1", "seed": 3, "actions": [{"seat": 2, "type": "lie_down"}]}'):
        out = lald("review", "-", "--seat", "1", stdin=text)
        assert out.returncode == 1 and out.stdout == "" and out.stderr.count("\n") == 1
    out = lald("review", str(tmp_path / "missing.json"), "--seat", "1")
    assert out.returncode == 1 and out.stderr.startswith("lald: cannot read")


def test_the_review_is_below_the_faces() -> None:
    code = ("import sys; import lald.coach.review, lald.coach.words; "
            "faces = ('lald.tui', 'lald.web', 'lald.cli', 'rich'); "
            "print(sorted(m for m in sys.modules if m.startswith(faces)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_title_names_the_variants_and_no_prize_where_cards_are_counted(lang: str) -> None:
    """Seen before: under low stakes (cards counted, no chips, no prize) the title said
    "Rules: survivor (the prize to the last with cards)" and named no variant."""
    catalog = Catalog(lang)
    low = _played(Rules.make("survivor", variants=["low-stakes", "silent"]), 3, level="random")
    title = review_lines(review_deal(low, 0, worlds=4), catalog)[0]
    assert catalog.t("variant_low_stakes") in title and catalog.t("variant_silent") in title
    assert catalog.t("review_preset_survivor") not in title
    assert catalog.t("review_preset_survivor_name") in title
    plain = review_lines(review_deal(_played(SURVIVOR, 3, level="random"), 0, worlds=4), catalog)[0]
    assert catalog.t("review_preset_survivor") in plain


# -- the hint and the review are one evaluation (issue 26, item 8) -------------------------


def test_a_cost_whose_interval_reaches_zero_as_written_is_no_inaccuracy() -> None:
    # "Cost 0.2 (+0.0 to +0.3): an inaccuracy": the interval as the review writes it
    # (to a tenth) reaches zero, so the review cannot tell the move from the best.
    assert review_module.grade(review_module.Estimate(0.2, 0.17)) is Verdict.GOOD
    assert review_module.grade(review_module.Estimate(0.2, 0.14)) is Verdict.INACCURACY
    assert review_module.grade(review_module.Estimate(0.8, 0.7)) is Verdict.MISTAKE


class _FollowsTheHint:
    """A seat that plays the hint at every decision, remembering each hint."""

    def __init__(self, seat: int, worlds: int) -> None:
        self.seat, self.worlds = seat, worlds
        self.hints: dict[tuple[int, DecisionKind], Action | None] = {}

    def _ask(self, view: PlayerView, legal: Sequence[Action], kind: DecisionKind) -> Action | None:
        hint = advise(view, legal, worlds=self.worlds)
        self.hints[len(view.history), kind] = hint.action
        return hint.action

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        action = self._ask(view, claims, DecisionKind.CLAIM)
        assert action is None or isinstance(action, Claim)
        return action

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        action = self._ask(view, legal, DecisionKind.TURN)
        assert action is not None
        return action


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_a_move_the_hint_recommended_is_never_faulted_whatever_the_reviews_seed(preset: str) -> None:
    rules = Rules.make(preset)
    worlds = 60
    hinted = 0
    for deal in range(3):
        seat = (deal + 1) % rules.players
        follower = _FollowsTheHint(seat, worlds)
        bots: list[Any] = [make_bot("heuristic", s, rules, random.Random(deal * 7 + s))
                           for s in range(rules.players)]
        bots[seat] = follower
        state = play_deal(State.deal(rules, deal, dealer=deal % rules.players), bots)
        for seed in (0, 1, 2):
            review = review_deal(state, seat, seed=seed, worlds=worlds)
            for d in review.decisions:
                key = (d.at, d.kind)
                assert key in follower.hints, key
                assert d.made == follower.hints[key]
                if d.verdict is Verdict.FORCED:
                    continue
                hinted += 1
                # the review with the hint's seed is the hint's own evaluation
                if seed == 0:  # review_module.HINT_SEED
                    assert d.verdict is Verdict.BEST, (preset, deal, seed, d)
                assert d.verdict in (Verdict.BEST, Verdict.GOOD), (preset, deal, seed, d)
                if d.verdict is Verdict.GOOD and d.reason is not None and d.reason.key == "review_why_hint":
                    assert reason_text(d, Catalog("en")) is not None
            for d in review.decisions:
                assert d.verdict not in review_module.COSTLY or round(d.cost.low, 1) > 0
    assert hinted >= 6


def test_the_hints_worth_is_the_reviews_value_of_the_same_move() -> None:
    state = State.deal(SURVIVOR, 4)
    bots = [make_bot("heuristic", s, SURVIVOR, random.Random(s)) for s in range(SURVIVOR.players)]
    def choice() -> bool:
        return len({code_of(a, mask_of(state.table)) for a in state.turn_actions()}) > 1

    while len(state.actions) < 6 or state.claims(state.to_move or 0) or not choice():
        step(state, bots)
    seat = state.to_move
    assert seat is not None
    hint = advise(state.view(seat), state.legal_actions(seat), worlds=40)
    assert hint.action is not None and hint.worth is not None
    d = review_decision(state.view(seat), state.turn_actions(), hint.action, DecisionKind.TURN, worlds=40)
    assert d.verdict is Verdict.BEST and d.made_value is not None
    assert d.made_value.mean == pytest.approx(hint.worth)
    assert hint.margin == pytest.approx(d.options[0].value.mean - d.options[1].value.mean)
