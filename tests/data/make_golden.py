"""Regenerate the golden records (run by hand, never by the tests):

    .venv/bin/python tests/data/make_golden.py

Each file is a JSON record of a seeded deal played by seeded random bots, with the
outcome ``lald replay --json`` printed for it when it was made under ``"expected"``
in a sibling ``.expected.json`` file. CI replays them all: any change of behaviour shows
as a diff.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from lald.core import Rules, State
from lald.record import Record, replay_summary

HERE = Path(__file__).parent / "golden"

CASES = [
    ("survivor", 5, [], {}),
    ("survivor", 4, [], {}),
    ("survivor", 3, [], {}),
    ("last-capture", 5, [], {}),
    ("last-capture", 4, [], {}),
    ("last-capture", 3, [], {}),
    ("survivor", 5, ["modern-laugh"], {}),
    ("survivor", 5, ["low-stakes", "silent"], {}),
    ("last-capture", 5, ["modern-laugh", "low-stakes"], {}),
    ("survivor", 5, [], {"single_takes_three": "forced", "dead_claims": "own_turn"}),
    ("survivor", 4, [], {"rounding": "floor", "hand_sets_face_down": True}),
    ("last-capture", 3, [], {"spotter_claims": True, "prize": 2}),
]


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for i, (preset, players, variants, options) in enumerate(CASES):
        rules = Rules.make(preset, players, variants, options)
        for seed in (i * 10 + 1, i * 10 + 2):
            rng = random.Random(seed)
            state = State.deal(rules, seed, dealer=seed % players, pot=seed % 7 - 3)
            while not state.over:
                claims = state.open_claims()
                if claims and rng.random() < 0.6:
                    state.apply(rng.choice(claims))
                else:
                    state.apply(rng.choice(state.turn_actions()))
            name = f"{preset}-{players}-{'-'.join(variants) or 'plain'}-{i:02d}-{seed}"
            layout = seed % 2 == 0
            record = Record.from_state(state, layout=layout)
            (HERE / f"{name}.json").write_text(record.dumps(), encoding="utf-8")
            (HERE / f"{name}.expected.json").write_text(
                json.dumps(replay_summary(state)) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
