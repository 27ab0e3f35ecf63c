"""Duplicate tournaments: rotations, reproducibility, processes, checkpoint and resume,
and the results' aggregation (strength, sessions, fallbacks)."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from lald.bots import LEVELS, Bot
from lald.core import Action, Claim, PlayerView, Rules
from lald.play.batch import CheckpointError
from lald.play.spec import parse_spec, parse_specs
from lald.tournament import report as rep
from lald.tournament.duplicate import Checkpoint, Tournament, play_group, run


def _t(bots: Sequence[str], players: int = 3, preset: str = "survivor", seed: int = 1,
       variants: Sequence[str] = ()) -> Tournament:
    return Tournament(Rules.make(preset, players, variants), tuple(parse_specs(bots)), seed)


def _outcomes(results: dict[int, Any]) -> dict[int, Any]:
    """The results without the decision times, which are wall clock."""
    return {g: [(r["chips"], r["won"], r["fallback"]) for r in res["rotations"]]
            for g, res in results.items()}


@pytest.mark.parametrize(("k", "n"), [(1, 3), (2, 3), (2, 4), (3, 3), (2, 5), (5, 5), (6, 4), (7, 3)])
def test_lineups_put_every_bot_in_every_seat_equally_often(k: int, n: int) -> None:
    t = _t(["random"] * k, players=n)
    for group in range(3 * n):
        lineups = t.lineups(group)
        assert len(lineups) == max(k, n) == t.rotations
        for b in range(k):
            per_seat = Counter(s for lineup in lineups for s, x in enumerate(lineup) if x == b)
            assert set(per_seat) == set(range(n))
            assert len(set(per_seat.values())) == 1, per_seat
            if k >= n:
                assert set(per_seat.values()) == {1}
        session = group - group % n
        assert lineups == t.lineups(session)  # one session keeps its places


def test_places_are_shuffled_so_every_bot_sits_beside_every_other() -> None:
    t = _t(["random"] * 9, players=5)
    left_of: Counter[tuple[int, int]] = Counter()
    for session in range(1000):
        for lineup in t.lineups(session * 5):
            # (bot in seat s, bot in seat s + 1 around the table)
            left_of.update(zip(lineup, lineup[1:] + lineup[:1], strict=True))
    pairs = [(a, b) for a in range(9) for b in range(9) if a != b]
    assert set(left_of) == set(pairs)  # with fixed places each bot would meet only four others
    # 1000 sessions x 9 rotations x 5 neighbour pairs, spread evenly over the 72 ordered pairs
    mean = 1000 * 9 * 5 / 72
    assert 0.65 * mean < min(left_of.values()) and max(left_of.values()) < 1.35 * mean


class _Recorder(Bot):
    """Plays like the random bot and notes the hand it is dealt in each deal."""

    seen: list[tuple[str, int, int, tuple[str, ...]]] = []
    label = ""

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if view.foreplay and not any(h for h in view.history if not _is_table_op(h)):
            self.seen.append((self.label, view.dealer, self.seat, tuple(str(c) for c in view.hand)))
        return super().act(view, legal)

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        return None


def _is_table_op(op: object) -> bool:
    return type(op).__name__ == "TableMournival"


def _recorder(label: str) -> Any:
    def make(seat: int, rules: Rules, rng: random.Random) -> Bot:
        bot = _Recorder(seat, rules, rng)
        bot.label = label
        return bot
    return make


def test_each_bot_plays_each_seat_of_each_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "rec_a", _recorder("a"))
    monkeypatch.setitem(LEVELS, "rec_b", _recorder("b"))
    monkeypatch.setattr(_Recorder, "seen", [])
    t = _t(["rec_a", "rec_b"], players=4)
    for g in range(3):
        _Recorder.seen.clear()
        play_group(t, g)
        # the eldest acts first, with no claim before (the recorder never claims): it is
        # seen in every rotation; the other seats are seen when they get a turn
        deals = {(dealer, seat): hand for _, dealer, seat, hand in _Recorder.seen}
        for _, dealer, seat, hand in _Recorder.seen:
            assert dealer == g % 4
            assert deals[(dealer, seat)] == hand  # same cards in every rotation
        eldest = (g % 4 + 1) % 4
        at_eldest = Counter(label for label, _, seat, _ in _Recorder.seen if seat == eldest)
        assert at_eldest == {"a": 2, "b": 2}  # 4 rotations, lineup a b a b


def test_same_seed_same_results_other_seed_other_results() -> None:
    t = _t(["random", "random"], players=4)
    first = _outcomes(run(t, 6))
    assert first == _outcomes(run(t, 6))
    assert first != _outcomes(run(_t(["random", "random"], players=4, seed=2), 6))


def test_processes_give_the_same_results_as_one() -> None:
    t = _t(["random", "random"], players=3)
    assert _outcomes(run(t, 8, jobs=2)) == _outcomes(run(t, 8, jobs=1))


def test_resume_after_interruption_gives_the_uninterrupted_totals(tmp_path: Path) -> None:
    t = _t(["random", "random"], players=5)
    whole = rep.summarize(t, run(t, 10))

    def stop_after_four(done: int, total: int) -> None:
        if done == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(t, 10, checkpoint=Checkpoint(tmp_path, t), progress=stop_after_four)
    saved = Checkpoint(tmp_path, t)
    assert sorted(saved.done) == [0, 1, 2, 3]
    played: list[int] = []
    resumed = run(t, 10, checkpoint=saved, progress=lambda done, total: played.append(done))
    assert played == list(range(4, 11))
    again = rep.summarize(t, resumed)
    assert [(r.chips, r.sessions, r.session_wins) for r in again.rows] == \
        [(r.chips, r.sessions, r.session_wins) for r in whole.rows]
    assert len((tmp_path / "deals.jsonl").read_text().splitlines()) == 10


def test_checkpoint_drops_a_line_cut_short(tmp_path: Path) -> None:
    t = _t(["random"], players=3)
    run(t, 3, checkpoint=Checkpoint(tmp_path, t))
    path = tmp_path / "deals.jsonl"
    path.write_text(path.read_text() + '{"group": 3, "rotat')
    cp = Checkpoint(tmp_path, t)
    assert sorted(cp.done) == [0, 1, 2]
    cp.close()
    assert path.read_text().endswith("}\n") and len(path.read_text().splitlines()) == 3


def test_checkpoint_of_another_tournament_is_refused(tmp_path: Path) -> None:
    Checkpoint(tmp_path, _t(["random"], seed=1)).close()
    with pytest.raises(CheckpointError, match="another tournament"):
        Checkpoint(tmp_path, _t(["random"], seed=2))
    fresh = Checkpoint(tmp_path, _t(["random"], seed=2), fresh=True)
    assert fresh.done == {}
    fresh.close()


def test_more_deals_extend_a_finished_run(tmp_path: Path) -> None:
    t = _t(["random", "random"], players=3)
    run(t, 4, checkpoint=Checkpoint(tmp_path, t))
    calls: list[int] = []
    results = run(t, 6, checkpoint=Checkpoint(tmp_path, t), progress=lambda d, n: calls.append(d))
    assert calls == [4, 5, 6] and sorted(results) == list(range(6))


def _fake_group(g: int, chips: list[list[int]], won: list[list[int]], fallback: Any = None) -> dict[str, Any]:
    empty = {"n": 0, "sum": 0.0, "bins": {}}
    k = 2
    return {"group": g,
            "rotations": [{"chips": c, "won": w, "fallback": fallback or [None] * len(c)}
                          for c, w in zip(chips, won, strict=True)],
            "times": [{"act": empty, "claim": empty} for _ in range(k)]}


def test_summary_pairs_rotations_and_counts_sessions() -> None:
    t = _t(["random", "random"], players=3)
    assert sorted(t.lineups(0)) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    won = [[20, 18, 14]] * 3

    def chips(g: int, scale: int) -> list[list[int]]:
        """Bot 1's seat gets +2 * scale in every rotation, bot 0's seats share it."""
        return [[2 * scale if b else -scale for b in lineup] for lineup in t.lineups(g)]

    results = {0: _fake_group(0, chips(0, 2), won), 1: _fake_group(1, chips(1, 1), won),
               2: _fake_group(2, chips(2, 0), won), 3: _fake_group(3, chips(3, 2), won)}
    report = rep.summarize(t, results)
    a, b = report.rows
    assert (a.name, b.name) == ("random#1", "random#2")
    assert b.chips.mean == pytest.approx((4 + 2 + 0 + 4) / 4)
    assert a.chips.mean == pytest.approx((-2 - 1 + 0 - 2) / 4)
    assert a.chips.n == b.chips.n == 4  # one sample per deal group, not per rotation
    assert a.seat_deals == 24 and b.seat_deals == 12
    # one complete session (groups 0-2); group 3 starts an incomplete one
    assert (a.sessions, b.sessions) == (6, 3)
    assert b.session_wins == 3 and a.session_wins == 0
    assert b.session_win_rate == 1.0
    (diff,) = report.differences
    assert diff.diff.mean == pytest.approx(a.chips.mean - b.chips.mean)
    # bot 0 holds seats 0 and 2, then 1 and 2, then 0 and 1 of piles 20 18 14 (quota 13)
    expected = ((20 + 14) / 2 + (18 + 14) / 2 + (20 + 18) / 2) / 3 - 13
    assert report.rows[0].cards.mean == pytest.approx(expected)


def test_session_ties_share_the_win() -> None:
    t = _t(["random", "random"], players=3)
    won = [[18, 18, 16]] * 3
    zero = [[0, 0, 0]] * 3
    report = rep.summarize(t, {g: _fake_group(g, zero, won) for g in range(3)})
    a, b = report.rows
    assert a.session_wins == pytest.approx(2) and b.session_wins == pytest.approx(1)
    assert a.session_win_rate == pytest.approx(1 / 3) == b.session_win_rate


def test_low_stakes_ranks_by_cards() -> None:
    t = _t(["random", "random"], players=3, variants=["low-stakes"])
    results = run(t, 3)
    report = rep.summarize(t, results)
    assert report.metric == "cards"
    assert all(r.chips.mean == 0 for r in report.rows)
    # 52 cards, quota 13 for three seats: the surplus of every deal is the 13 table cards
    total = sum(rot["won"][s] - 13 for res in results.values() for rot in res["rotations"] for s in range(3))
    assert total == 13 * 3 * 3
    assert sum(r.cards.mean * r.seat_deals for r in report.rows) == pytest.approx(total)
    assert [r.sessions for r in report.rows] == [6, 3]  # one session of three rotations


def test_fallbacks_are_counted_and_marked(tmp_path: Path) -> None:
    crash = parse_spec("cmd:sh -c 'read line; exit 3'")
    t = Tournament(Rules.make(players=3), (parse_spec("random"), crash), seed=4, timeout=2)
    report = rep.summarize(t, run(t, 2))
    _, ext = report.rows
    assert ext.fallbacks == Counter({"crash": 2 * 3})  # every deal it sat in
    assert ext.fallback_example is not None and "exited with status 3" in ext.fallback_example
    header, lines = rep.table_rows(report)
    assert any(line[0].endswith(" *") and line[-1] == "6 (crash 6)" for line in lines)


def test_results_are_written_as_json_and_csv(tmp_path: Path) -> None:
    t = _t(["random", "random"], players=4)
    report = rep.summarize(t, run(t, 8))
    json_path, csv_path = rep.write(report, tmp_path)
    data = json.loads(json_path.read_text())
    assert data["format"] == "lald-tournament/1" and data["deals"] == 8 and data["rotations"] == 4
    assert [b["name"] for b in data["bots"]] == ["random#1", "random#2"]
    for bot, row in zip(data["bots"], report.rows, strict=True):
        assert bot["chips"]["mean"] == pytest.approx(row.chips.mean)
        assert bot["chips"]["low"] < bot["chips"]["mean"] < bot["chips"]["high"]
        assert bot["act"]["count"] > 0 and 0 < bot["act"]["p50_ms"] <= bot["act"]["p99_ms"]
        assert bot["sessions"] == 2 * 4 * 2 and bot["seat_deals"] == 8 * 4 * 2  # lineup a b a b
    assert data["differences"][0]["a"] == "random#1"
    lines = csv_path.read_text().splitlines()
    assert lines[0].split(",") == list(rep.CSV_COLUMNS)
    assert [line.split(",")[0] for line in lines[1:]] == ["random#1", "random#2"]
    assert float(lines[1].split(",")[2]) == pytest.approx(report.rows[0].chips.mean, abs=1e-4)


def test_plot_is_a_png(tmp_path: Path) -> None:
    t = _t(["random", "random"], players=3)
    path = tmp_path / "strength.png"
    rep.plot(rep.summarize(t, run(t, 3)), path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_tournament_needs_a_bot() -> None:
    with pytest.raises(ValueError):
        Tournament(Rules.make(), ())


def test_random_against_itself_is_even_in_a_bigger_run() -> None:
    """A sanity check of the whole chain: identical bots show no significant difference
    (this seed; the interval is a 95% one, so this is a fixed-seed regression check)."""
    t = _t(["random", "random"], players=5)
    report = rep.summarize(t, run(t, 40))
    (diff,) = report.differences
    assert not diff.diff.excludes_zero()
    # survivor with five players balances: all chips of a deal sum to zero
    assert math.isclose(sum(r.chips.mean * r.seat_deals for r in report.rows), 0, abs_tol=1e-9)


class _Seer(Bot):
    """Declares ``needs_state`` like the oracle; checks it is shown the state it decides in."""

    needs_state = True
    shown: list[int] = []

    def __init__(self, seat: int, rules: Rules, rng: random.Random) -> None:
        super().__init__(seat, rules, rng)
        self.state: Any = None

    def see(self, state: Any) -> None:
        self.state = state

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        assert self.state is not None and self.state.to_move == self.seat
        assert self.state.hand(self.seat) == view.hand and len(self.state.history) == len(view.history)
        self.shown.append(self.seat)
        return super().act(view, legal)

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        assert self.state is not None and self.state.claims(self.seat) == list(claims)
        return super().claim(view, claims)


def test_a_bot_that_needs_the_state_is_shown_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "seer", _Seer)
    monkeypatch.setattr(_Seer, "shown", [])
    t = _t(["seer", "random"], players=3)
    play_group(t, 0)
    assert set(_Seer.shown) == {0, 1, 2}


def test_results_without_their_setup_are_refused(tmp_path: Path) -> None:
    t = _t(["random"], players=3)
    run(t, 1, checkpoint=Checkpoint(tmp_path, t))
    (tmp_path / "tournament.json").unlink()
    with pytest.raises(CheckpointError, match="without tournament.json"):
        Checkpoint(tmp_path, t)
