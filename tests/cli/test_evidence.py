"""Human evidence (issue 33, item 6): a site's database made by playing deals through the
store's API, exported by ``lald db export-games`` (JSON lines and Parquet), and measured by
``lald readings --records`` beside the bots on the same deals; a deal in play is never
exported, nor a practice table still open; a name only with its account's consent."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from lald.bots import Bot, make_bot
from lald.cli import main
from lald.core import ClaimWindow, Rules, Session, State
from lald.lab.evidence import read_lines
from lald.record import Record
from lald.store import NewAction, SeatData, Store, TableChange, TableData, token_hash
from lald.store.accounts import Accounts

RULES = {"preset": "survivor", "players": 3, "variants": [], "options": {}}
SECRET = "5e" * 32


def play(state: State, bots: list[Bot], upto: int | None = None) -> None:
    """Play ``state`` with ``bots`` through its claim window (to its end, or to ``upto``
    actions)."""
    window = ClaimWindow(state)
    while not state.over and (upto is None or len(state.actions) < upto):
        ask = window.asking()
        if ask is not None:
            seat, claims = ask
            choice = bots[seat].claim(state.view(seat), claims)
            if choice is None:
                window.let_pass(seat)
            else:
                window.apply(choice)
            continue
        seat, legal = window.turn()
        window.apply(bots[seat].act(state.view(seat), legal))


def seat_row(seat: int, human: bool, account: int | None = None, name: str | None = None) -> SeatData:
    return SeatData(seat, token_hash(f"token-{seat}-{random.random()}"), human, "heuristic", name, human, 0,
                    account)


def store_table(store: Store, table_id: str, seats: list[SeatData], deals: int, last_upto: int | None,
                secret: str | None, seed: int, status: str, sources: list[str]) -> list[State]:
    """A table played through the store: ``deals`` deals, the last stopped after
    ``last_upto`` actions if given; each seat's actions stored with its source."""
    store.create_table(TableData(table_id, float(len(table_id)), {"rules": RULES}, seed, 0, "waiting", seats,
                                 secret=secret))
    rules = Rules.make("survivor", 3)
    session = Session(rules, seed, secret=None if secret is None else bytes.fromhex(secret))
    bots = [make_bot("heuristic", s, rules, random.Random(f"{table_id}/{s}")) for s in range(3)]
    played = []
    for d in range(deals):
        state = session.start_deal()
        store.update_table(table_id, deals_started=d + 1, status="playing")
        play(state, bots, last_upto if d == deals - 1 else None)
        store.write([NewAction(table_id, d, i, a.to_json(), sources[a.seat])
                     for i, a in enumerate(state.actions)])
        played.append(state)
        if state.over:
            session.end_deal(state)
    store.write([TableChange(table_id, {"status": status})])
    return played


@pytest.fixture
def site(tmp_path: Path) -> tuple[str, dict[str, Any]]:
    """A site's database: Ann agreed to be named, Ben did not; a table dealt from its secret
    with two finished deals and one in play; a practice table still open; a finished
    practice table of three guests."""
    url = f"sqlite:///{tmp_path / 'site.db'}"
    store = Store(url)
    accounts = Accounts(store)
    ann = accounts.create("Ann Lee", "ann lee", "$argon2id$a", 1.0)
    ben = accounts.create("Ben", "ben", "$argon2id$b", 1.0)
    accounts.set_share_name(ann.id, True)
    people = [seat_row(0, True, ann.id, "Ann Lee"), seat_row(1, True, ben.id, "Ben"), seat_row(2, False)]
    keyed = store_table(store, "keyed", people, 3, 5, SECRET, 0, "playing", ["human", "human", "bot"])
    practice = store_table(store, "practice", [seat_row(0, True, ann.id, "Ann Lee"), seat_row(1, False),
                                               seat_row(2, False)], 2, 4, None, 77, "playing",
                           ["human", "bot", "bot"])
    guests = store_table(store, "guests", [seat_row(s, True, None, f"Guest {s}") for s in range(3)], 2, None,
                         None, 91, "over", ["human", "human", "human"])
    store.close()
    return url, {"keyed": keyed, "practice": practice, "guests": guests}


def test_export_games_writes_finished_deals_only_with_names_by_consent(
        site: tuple[str, dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url, played = site
    keyed, practice, guests = played["keyed"], played["practice"], played["guests"]
    assert keyed[0].over and keyed[1].over and not keyed[2].over and not practice[1].over
    main(["db", "export-games", "--db", url])
    out, err = capsys.readouterr()
    objects = [json.loads(line) for line in out.splitlines()]
    lines = read_lines(out.splitlines())
    # The keyed table's two finished deals, then the finished practice table's two; not
    # the deal in play, and nothing of the practice table still open.
    assert [(line.game, line.deal) for line in lines] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert "wrote 4 finished deal(s) of 2 game(s); 2 seat(s) named" in err
    assert [line.record.actions for line in lines] == [tuple(s.actions) for s in (*keyed[:2], *guests)]
    layouts = {(tuple(map(tuple, o["record"]["hands"])), tuple(o["record"]["table"])) for o in objects}
    for state in (keyed[2], *practice):
        dealt = (tuple(tuple(str(c) for c in Record.from_state(state, layout=True).hands or ())),
                 tuple(str(c) for c in Record.from_state(state, layout=True).table or ()))
        assert dealt not in layouts
    assert "seed" not in out  # layouts only, never a seed
    # Ann agreed to be named, Ben did not, guests cannot: "Seat N" for every other seat.
    assert lines[0].record.names == ("Ann Lee", "Seat 1", "Seat 2")
    assert lines[2].record.names == ("Seat 0", "Seat 1", "Seat 2")
    assert "Ben" not in out and "Guest" not in out
    assert lines[0].players == ("person", "person", "bot:heuristic")
    assert lines[0].people() == [0, 1] and lines[2].people() == [0, 1, 2]
    assert set(lines[0].by) == {"person", "bot"}
    # Parquet holds the same lines.
    path = tmp_path / "games.parquet"
    main(["db", "export-games", "--db", url, "--out", str(path)])
    capsys.readouterr()
    import pyarrow.parquet as pq

    rows = pq.read_table(path).to_pylist()
    assert [{**r, "record": json.loads(r["record"])} for r in rows] == objects


def test_a_name_is_withdrawn_with_the_consent(site: tuple[str, dict[str, Any]],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    url, _played = site
    store = Store(url)
    accounts = Accounts(store)
    ann = accounts.by_skeleton("ann lee")
    assert ann is not None
    accounts.set_share_name(ann.id, False)
    store.close()
    main(["db", "export-games", "--db", url])
    out, err = capsys.readouterr()
    assert "Ann" not in out and "0 seat(s) named" in err


def test_readings_records_measures_people_beside_the_bots(
        site: tuple[str, dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url, played = site
    dataset = tmp_path / "games.jsonl"
    main(["db", "export-games", "--db", url, "--out", str(dataset)])
    capsys.readouterr()
    main(["readings", "--records", str(dataset), "--bots", "random", "--out", str(tmp_path / "ev")])
    out, _err = capsys.readouterr()
    assert "survivor/3: people beside random bots on the same deals, per seat a person played" in out
    assert "sweeps held back" in out and "lay down (share)" in out
    data = json.loads((tmp_path / "ev" / "evidence.json").read_text())
    [entry] = data["readings"]
    assert entry["reading"] == "survivor/3" and entry["deals"] == 4
    assert entry["people_seats"] == 2 * 2 + 2 * 3 and entry["people_deals"] == 2
    # The people's figures are the recorded deals': their chips, seat by seat.
    keyed, guests = played["keyed"], played["guests"]
    chips = [st.result.chips[s] for st in keyed[:2] for s in (0, 1)]
    chips += [st.result.chips[s] for st in guests for s in range(3)]
    assert entry["seat"]["chips"]["people"]["mean"] == pytest.approx(sum(chips) / len(chips))
    assert entry["seat"]["chips"]["bots"]["n"] == len(chips)
    assert set(entry["deal"]) >= {"turns", "lie_downs", "sweep", "survivor_last"}
    turns = [sum(1 for a in st.actions if a.to_json()["type"] != "claim") for st in guests]
    assert entry["deal"]["turns"]["people"]["mean"] == pytest.approx(sum(turns) / 2)
    # The database itself is a source, and so is the dataset as Parquet: the same figures.
    main(["readings", "--records", url, "--bots", "random", "--out", str(tmp_path / "ev2")])
    main(["db", "export-games", "--db", url, "--out", str(tmp_path / "games.parquet")])
    main(["readings", "--records", str(tmp_path / "games.parquet"), "--bots", "random",
          "--out", str(tmp_path / "ev3")])
    capsys.readouterr()
    assert json.loads((tmp_path / "ev2" / "evidence.json").read_text()) == data
    assert json.loads((tmp_path / "ev3" / "evidence.json").read_text()) == data


@pytest.mark.parametrize(("argv", "status", "words"), [
    (["readings", "--records", "{dataset}", "survivor"], 2, "leave out READING"),
    (["readings", "--records", "{dataset}", "--bots", "expert,heuristic"], 2, "one kind of bot in"),
    (["readings", "--records", "{dataset}", "--bots", "heuristic", "--bots", "random"], 2, "--bots once"),
    (["readings", "--records", "{missing}"], 1, "cannot read"),
    (["readings", "--records", "{bad}"], 1, "line 2: unknown key 'seed'"),
    (["db", "export-games", "--db", "sqlite:///{missing}"], 1, "there is no lald database at"),
    (["db", "export-games", "--db", "{url}", "--out", "/nonexistent/dir/x.jsonl"], 1, "cannot write"),
])
def test_mistakes_are_one_line_and_change_nothing(site: tuple[str, dict[str, Any]], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str], argv: list[str],
                                                 status: int, words: str) -> None:
    url, _played = site
    dataset = tmp_path / "games.jsonl"
    main(["db", "export-games", "--db", url, "--out", str(dataset)])
    first = dataset.read_text().splitlines()[0]
    (tmp_path / "bad.jsonl").write_text(first + "\n" + first[:-1] + ', "seed": 4}\n')
    capsys.readouterr()
    names = {"dataset": str(dataset), "missing": str(tmp_path / "none.jsonl"),
             "bad": str(tmp_path / "bad.jsonl"), "url": url}
    with pytest.raises(SystemExit) as info:
        main([a.format(**names) for a in argv])
    out, err = capsys.readouterr()
    assert info.value.code == status and out == ""
    assert err.count("\n") == 1 and words in err, err
    assert not (tmp_path / "none.jsonl").exists()
