"""Outside bots over lald-bot/2: what they are sent, what they may answer, and how a
time-out, a crash or an illegal answer falls back to the random bot."""

from __future__ import annotations

import json
import random
import re
import shutil
import sys
from pathlib import Path

import pytest

from lald.bots import RandomBot
from lald.bots.external import (
    BotProtocolError,
    ExternalBot,
    Failure,
    ProgramPool,
    act_message,
    claim_message,
    end_message,
    operation_to_json,
    read_answer,
    rules_to_json,
    view_to_json,
)
from lald.core import (
    Card,
    Claim,
    Claimed,
    LieDown,
    Rules,
    Session,
    State,
    Trail,
    action_from_json,
    mask_of,
    parse_cards,
)
from lald.core.cards import RANK_SYMBOLS
from lald.play.loop import play_deal

ROOT = Path(__file__).resolve().parents[2]
NODE_BOT = f"node {ROOT / 'examples' / 'bot.js'}"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

CARD = re.compile(r'"([A2-9TJQK][SHDC])"')


def _play_checking_messages(rules: Rules, seed: int) -> tuple[int, int]:
    """Play a random deal; at every step encode every seat's messages and check that no
    card of another seat's hand or face-down set appears in them. Returns the cards
    checked and the face-down sets made."""
    rng = random.Random(seed)
    state = State.deal(rules, seed, dealer=seed % rules.players)
    checked = 0
    while not state.over:
        for seat in range(state.n):
            view = state.view(seat)
            msgs = [act_message(view, state.turn_actions())] if state.to_move == seat else []
            claims = state.claims(seat)
            if claims:
                msgs.append(claim_message(view, claims))
            msgs.append({"view": view_to_json(view)})
            hidden = 0
            for other in range(state.n):
                if other != seat:
                    hidden |= state.hands[other] | state.face_down[other]
            for msg in msgs:
                shown = mask_of(parse_cards(CARD.findall(json.dumps(msg))))
                checked += shown.bit_count()
                assert shown & hidden == 0, f"seat {seat} was sent a hidden card"
        claims = state.open_claims()
        if claims and rng.random() < 0.5:
            state.apply(rng.choice(claims))
        else:
            state.apply(rng.choice(state.turn_actions()))
    return checked, sum(1 for op in state.history if isinstance(op, Claimed) and op.face_down)


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_messages_never_show_a_hidden_card(preset: str) -> None:
    rules = Rules.make(preset)
    assert rules.hand_sets_face_down == (preset == "last-capture")
    face_down_sets = 0
    for seed in range(15):
        checked, sets = _play_checking_messages(rules, seed)
        assert checked > 0
        face_down_sets += sets
    assert (face_down_sets > 0) == (preset == "last-capture")  # the hidden case was exercised


def test_view_json_holds_the_censored_view() -> None:
    rules = Rules.make("last-capture")
    for seed in range(200):
        state = State.deal(rules, seed)
        eldest = state.eldest
        sets = [c for c in state.claims(eldest) if len(c.cards) == 2]
        if sets:
            break
    else:  # pragma: no cover - a prial in an eldest hand is common
        raise AssertionError("no foreplay hand set found")
    state.apply(sets[0])
    mine = view_to_json(state.view(eldest))
    other = view_to_json(state.view((eldest + 1) % rules.players))
    assert mine["history"][-1]["cards"] == [str(c) for c in sets[0].cards]
    assert other["history"][-1] == {"op": "claim", "seat": eldest, "kind": "hand_set", "count": 2,
                                    "face_down": True, "cards": None}
    assert other["won_sizes"][eldest] == 2 and other["won_seen"][eldest] == []
    assert mine["won_seen"][eldest] == [str(c) for c in sets[0].cards]
    assert len(other["hand"]) == rules.hand_size and other["hand"] != mine["hand"]


def test_read_answer_forms() -> None:
    legal = [LieDown(2), Trail(2, Card.parse("4D"))]
    assert read_answer("0\n", legal, False) == LieDown(2)
    assert read_answer(' {"seat": 2, "type": "trail", "card": "4d"} ', legal, False) == legal[1]
    assert read_answer("null", [Claim(1, ())], True) is None
    bad = [("2", "index 2"), ("-1", "index -1"), ("true", "neither"), ("hello", "not JSON"),
           ("null", "turn action is required"), ('{"seat": 3, "type": "lie_down"}', "not one of"),
           ('{"type": "dance"}', "unknown action type"), ('"0"', "neither"),
           # deep nesting is JSON too deep to read, not "not JSON" (and never a RecursionError)
           ("[" * 100_000 + "]" * 100_000, "nested too deeply")]
    for line, words in bad:
        with pytest.raises(BotProtocolError, match=words) as info:
            read_answer(line, legal, False)
        assert info.value.kind is Failure.ILLEGAL


@needs_node
def test_node_example_bot_takes_the_biggest_capture() -> None:
    rules = Rules.make()
    pool = ProgramPool()
    try:
        for seed in range(3):
            state = State.deal(rules, seed)
            bots = [ExternalBot(s, rules, random.Random(s), NODE_BOT, 10, pool) for s in range(rules.players)]
            while not state.over:
                open_claims = [(s, state.claims(s)) for s in state.claim_order() if state.claims(s)]
                if open_claims:
                    seat, claims = open_claims[0]
                    choice = bots[seat].claim(state.view(seat), claims)
                    assert choice == claims[0]  # the example bot claims whatever it is offered
                    state.apply(choice)
                    continue
                seat = state.to_move
                assert seat is not None
                legal = state.turn_actions()
                action = bots[seat].act(state.view(seat), legal)
                size = [len(a.play) + len(a.take) if hasattr(a, "take") else 0 for a in legal]
                assert action == legal[size.index(max(size))]
                state.apply(action)
            for s, bot in enumerate(bots):
                assert bot.fallback is None
                bot.finish(state.view(s))
        assert pool.started == rules.players  # the programs were reused deal after deal
    finally:
        pool.close()


def _shell(script: str) -> str:
    return f"sh -c '{script}'"


FAILING = {
    Failure.TIMEOUT: (_shell("while read line; do sleep 5; done"), "did not answer in time"),
    Failure.CRASH: (_shell("read line; echo boom >&2; exit 3"), "exited with status 3: 'boom'"),
    Failure.ILLEGAL: (_shell("while read line; do echo 99; done"), "answered index 99"),
}


@pytest.mark.parametrize("kind", list(FAILING))
def test_failing_program_falls_back_to_random_for_the_deal(kind: Failure) -> None:
    command, message = FAILING[kind]
    rules = Rules.make()
    pool = ProgramPool()
    try:
        for deal in range(2):
            bots = [RandomBot(s, rules, random.Random(s)) for s in range(rules.players)]
            external = ExternalBot(1, rules, random.Random(9), command, timeout=0.3, pool=pool)
            bots[1] = external
            state = play_deal(State.deal(rules, deal), bots)
            assert state.over and sum(state.result.won) == 52 if state.result else False
            assert external.fallback is not None
            assert external.fallback.kind is kind
            assert message in external.fallback.message
            assert external.program is None  # the failed program was stopped
            external.finish(state.view(1))
        assert pool.started == 2  # a fresh program for the second deal
        assert pool.idle.get(command, []) == []
    finally:
        pool.close()


def test_a_program_that_cannot_start_is_a_crash() -> None:
    rules = Rules.make()
    bot = ExternalBot(0, rules, random.Random(1), "no-such-program-lald", pool=ProgramPool())
    state = State.deal(rules, 1)
    bots = [bot, *(RandomBot(s, rules, random.Random(s)) for s in range(1, 5))]
    play_deal(state, bots)
    assert bot.fallback is not None and bot.fallback.kind is Failure.CRASH
    assert "not found" in bot.fallback.message


def test_program_receives_deal_act_and_end_messages(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    script = tmp_path / "bot.py"
    script.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    msg = json.loads(line)\n"
        "    if msg['type'] == 'act': print(len(msg['legal']) - 1, flush=True)\n"
        "    elif msg['type'] == 'claim': print('null', flush=True)\n")
    rules = Rules.make(players=3)
    pool = ProgramPool()
    try:
        bot = ExternalBot(2, rules, random.Random(1), f"{sys.executable} {script}", pool=pool)
        bots = [RandomBot(0, rules, random.Random(0)), RandomBot(1, rules, random.Random(1)), bot]
        state = play_deal(State.deal(rules, 11, dealer=1), bots)
        bot.finish(state.view(2))
        assert bot.fallback is None
        assert list(pool.idle) == [f"{sys.executable} {script}"]
    finally:
        pool.close()
    msgs = [json.loads(line) for line in log.read_text().splitlines()]
    assert msgs[0]["type"] == "deal" and msgs[0]["seat"] == 2 and msgs[0]["protocol"] == "lald-bot/2"
    assert msgs[0]["rules"]["players"] == 3 and msgs[0]["rules"]["resolved"]["prize"] == 5
    assert "seed" not in json.dumps(msgs[0])
    assert msgs[-1]["type"] == "end" and msgs[-1]["view"]["result"]["chips"] == list(state.result.chips)
    acts = [m for m in msgs if m["type"] == "act"]
    assert acts and all(m["seat"] == 2 and m["view"]["to_move"] == 2 for m in acts)
    # the program's choice (the last legal action) is what was played
    seat2 = [a for a in state.actions if a.seat == 2 and not isinstance(a, Claim)]
    assert [a.to_json() for a in seat2] == [m["legal"][-1] for m in acts]
    assert end_message(state.view(2))["view"]["over"] is True


def test_documented_exchange_has_the_protocol_shape() -> None:
    """docs/bot-protocol.md shows a real exchange: its messages must keep the shape the
    engine writes, and its example bot must be examples/bot.js."""
    doc = (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)\n```", doc, flags=re.S)]
    assert [b["type"] for b in blocks][:2] == ["deal", "act"] and blocks[-1]["type"] == "end"
    rules = Rules.make()
    state = State.deal(rules, 3)
    shape = view_to_json(state.view(1))
    ops: dict[str, set[str]] = {}
    played = play_deal(State.deal(rules, 5), [RandomBot(s, rules, random.Random(s)) for s in range(5)])
    for op in played.history:
        obj = operation_to_json(op)
        ops[obj["op"]] = set(obj)
    assert set(blocks[0]["rules"]) == set(rules_to_json(rules))
    assert blocks[0]["rules"]["resolved"] == rules_to_json(rules)["resolved"]
    for msg in blocks[1:]:
        assert set(msg["view"]) == set(shape)
        for op in msg["view"]["history"]:
            assert op["op"] not in ops or set(op) == ops[op["op"]]
        for obj in msg.get("legal", []):
            assert obj["seat"] == msg["seat"]
            action_from_json(obj)
        if msg["type"] == "claim":
            assert len(msg["legal_from"]) == len(msg["legal"])
    first_line = doc.split("```\n{")[1].split("\n")[0]
    assert json.loads("{" + first_line) == blocks[0]  # the wire form of the first message
    assert (ROOT / "examples" / "bot.js").read_text() in doc


#: The keys of a version 1 view: version 2 keeps every one of them, with its meaning.
V1_VIEW = {"seat", "dealer", "eldest", "to_move", "foreplay", "over", "hand", "table", "hand_sizes",
           "won_sizes", "won_seen", "statuses", "last_capture", "pot", "balances", "history", "result"}
V2_VIEW = {"claim_order", "turn", "quota", "pot_before"}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_version_2_views_carry_what_a_program_would_rebuild(players: int) -> None:
    # 4-player last-capture carries a pot from deal to deal (prize 5 against antes of 9)
    rules = Rules.make("last-capture", players, variants=["modern-laugh"])
    session = Session(rules, seed=4)
    carried = []
    for _ in range(3):
        state = session.start_deal()
        pot_in = session.pot
        carried.append(pot_in)
        rng = random.Random(len(carried))
        turns = 1
        while True:
            for seat in range(players):
                view = state.view(seat)
                msg = view_to_json(view)
                assert set(msg) == V1_VIEW | V2_VIEW  # only additions
                assert msg["claim_order"] == state.claim_order()
                assert msg["turn"] == turns
                assert msg["quota"] == {3: 13, 4: 10, 5: 8}[players] == rules.hand_size
                assert msg["pot_before"] == pot_in
            if state.over:
                break
            claims = state.open_claims()
            if claims and rng.random() < 0.5:
                state.apply(rng.choice(claims))
            else:
                state.apply(rng.choice(state.turn_actions()))
                turns += 1
        assert state.result is not None and state.result.pot_before == pot_in
        session.end_deal(state)
    if players != 5:  # these pots cannot balance: a deal begins with a pot carried in
        assert any(carried)


def test_every_trail_carries_the_ranks_then_on_the_table() -> None:
    rules = Rules.make("survivor", variants=["modern-laugh"])
    trails = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = State.deal(rules, seed)
        tables: list[str] = []
        while not state.over:
            legal = state.turn_actions()
            claims = state.open_claims()
            if claims and rng.random() < 0.3:
                state.apply(rng.choice(claims))
                continue
            action = rng.choice(legal)
            if isinstance(action, Trail):
                ranks = sorted({c >> 2 for c in state.table})
                tables.append("".join(RANK_SYMBOLS[r] for r in ranks))
                hand_ranks = {c >> 2 for c in state.hand(action.seat)}
                assert not hand_ranks & set(ranks)  # why it tells: the seat held none of them
            state.apply(action)
        for seat in range(rules.players):
            history = view_to_json(state.view(seat))["history"]
            got = ["".join(op["table_ranks"]) for op in history if op["op"] == "trail"]
            assert got == tables
            assert all("table_ranks" not in op for op in history if op["op"] != "trail")
        trails += len(tables)
    assert trails > 10


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_claim_messages_say_where_each_claims_cards_are(preset: str) -> None:
    rules = Rules.make(preset)
    sources: set[str] = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = State.deal(rules, seed)
        while not state.over:
            for seat in range(rules.players):
                claims = state.claims(seat)
                if claims:
                    msg = claim_message(state.view(seat), claims)
                    assert len(msg["legal_from"]) == len(msg["legal"])
                    for claim, source in zip(claims, msg["legal_from"], strict=True):
                        where = state.hand(seat) if source == "hand" else state.table
                        assert set(claim.cards) <= set(where)
                        sources.add(source)
            options = state.open_claims()
            if options and rng.random() < 0.3:
                state.apply(rng.choice(options))
            else:
                state.apply(rng.choice(state.turn_actions()))
    assert sources == ({"hand", "table"} if rules.spotter_claims else {"hand"})

