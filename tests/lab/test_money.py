"""Fairness in money (issue 33, item 3): each seat's chips split into the prize, the pairs
won by play, the dealer's residue and the ante, per deal and across sessions whole or
stopped early; headlines that say for which players they hold; the decomposition at the
expert's level."""

from __future__ import annotations

import pytest

from lald.lab.experiment import run
from lald.lab.money import PARTS, parts
from lald.lab.reading import parse_reading
from lald.lab.report import build


@pytest.mark.parametrize("reading", ["survivor", "last-capture/4", "survivor/3", "last-capture+modern-laugh"])
def test_the_parts_of_a_deal_add_up_to_its_chips(reading: str) -> None:
    res = run([reading], bots=["random"], deals=60, seed=5)
    rules = parse_reading(reading).rules
    for r in res.records():
        n = rules.players
        split = parts(rules, [r[f"chips_{p}"] for p in range(n)], [r[f"won_{p}"] for p in range(n)],
                      r["prize_to"], r["residue"])
        for p in range(n):
            assert sum(split[p]) == r[f"chips_{p}"]
            assert split[p][2] == 0 or p == 0  # only the dealer takes the residue
            assert split[p][0] in (0, rules.prize)
        assert split[0][3] == -rules.ante_dealer
        # the residue's share is what its cards add to the dealer's pairs
        if r["residue"] == 0:
            assert split[0][2] == 0
        else:
            assert split[0][2] >= 0
    entry = res.summary["tables"][0]["readings"][0]
    for p in range(rules.players):
        total = sum(entry["money"][k][p]["mean"] for k in PARTS)
        assert total == pytest.approx(entry["by_position"]["chips"][p]["mean"], abs=1e-6)


def test_the_dealers_residue_is_its_share_of_the_pairs() -> None:
    rules = parse_reading("survivor").rules
    # won piles 16, 12, 10, 8, 6; the dealer's 16 hold a residue of 4 cards: 2 of its 4 pairs
    assert parts(rules, [1, 0, 4, -2, -3], [16, 12, 10, 8, 6], 2, 4)[0] == (0, 2, 2, -3)
    # three players round: 16 cards won, 2 of them the residue, which make its 3 over the quota 1 pair
    three = parse_reading("survivor/3").rules
    assert parts(three, [-2, 4, -2], [16, 24, 12], 1, 2)[0] == (0, 0, 1, -3)


def test_a_whole_session_is_each_seats_balance_and_an_early_stop_its_first_deals() -> None:
    res = run(["survivor", "last-capture/4"], bots=["random"], deals=40, seed=3, sessions=True)
    for ri, entry in enumerate(res.summary["tables"][0]["readings"]):
        n = entry["players"]
        money = entry["session"]["money"]
        assert [m["deals"] for m in money] == [*range(1, n + 1), "whole"]
        balances = [s for s in res.sessions[(ri, 0)]]
        from lald.lab.measure import SESSION_COLUMN

        for q in range(n):
            mean = sum(s[SESSION_COLUMN[f"balance_{q}"]] for s in balances) / len(balances)
            assert money[-1]["chips"][q]["mean"] == pytest.approx(mean, abs=1e-6)
            for stop in money:
                assert sum(stop[k][q]["mean"] for k in PARTS) == pytest.approx(stop["chips"][q]["mean"],
                                                                               abs=1e-6)
        # after one deal the first dealer alone has paid the dealer's ante and taken a residue
        first = money[0]
        assert first["ante"][0]["mean"] == -3 and all(a["mean"] == -2 for a in first["ante"][1:])
        assert all(r["mean"] == 0 for r in first["residue"][1:])
        # over the whole session every seat has dealt once: each paid the dealer's ante once
        whole_antes = [a["mean"] for a in money[n - 1]["ante"]]
        assert whole_antes == [-3 - 2 * (n - 1)] * n


def test_the_report_says_where_chips_come_from_and_for_which_players(tmp_path: object) -> None:
    res = run(["survivor", "last-capture"], bots=["random", "heuristic,random"], deals=20, seed=3,
              sessions=True)
    text = "\n".join(str(b) for b in build(res.summary, {}))
    assert "Where each position's chips come from, per deal, between random players" in text
    assert "pairs won by play" in text and "the dealer's residue" in text
    assert "A session stopped early" in text and "whole session" in text
    assert "between random players" in text and "with one heuristic bot among random players" in text
    assert "These count deal wins, not money" in text


def test_the_decomposition_runs_at_the_experts_level_and_says_where_each_rule_is_real() -> None:
    res = run([], bots=["random", "expert:worlds=4"], deals=6, seed=2,
              decomposition=("survivor", "survivor:prize_rule=last_capture:spotter_claims=off"))
    d = res.summary["decomposition"]
    assert set(d["tables"]) == {"random", "expert:worlds=4"}
    assert set(d["real_at"]) >= {"prize_rule|turns", "spotter_claims|residue"}
    assert all(set(ts) <= {"random", "expert:worlds=4"} for ts in d["real_at"].values())
    text = "\n".join(str(b) for b in build(res.summary, {}))
    assert "random players' mistakes included" in text
    assert "expert:worlds=4: length and how the deal unfolds" in text
