"""What the browser laboratory computes, in a worker process: two readings compared on the
same deals by :mod:`lald.lab` (its measuring loop, its summary, its report and plots).

A request is checked here (:func:`parse_request`, every refusal one line), named by a digest
of its canonical form (:attr:`Request.id`: the same request is the same comparison, dealt
from its seed) and played in stages, a quarter, a half, then all of its deals, each stage
resuming the last (:func:`lald.lab.experiment.run` keeps its batches in a directory), so
that the page sees the figures fill in: after each stage the main figures with their
intervals (:func:`brief`), at the end the whole report, as the command writes it
(:func:`lald.lab.report.build`, plots drawn by matplotlib on the server), as blocks the
page draws (:func:`report_blocks`).

:func:`child` is the worker process's entry: it sends ``("progress", done, total)``,
``("partial", brief)``, then ``("done", result)`` or ``("failed", reason)`` down its pipe.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
from collections.abc import Sequence
from typing import Any

__all__ = ["LEVELS", "MAX_DEALS", "Request", "brief", "child", "compute", "parse_request"]

#: Who may play, and the most deals one request may ask of each (a search bot is slow).
MAX_DEALS: dict[str, int] = {"random": 4000, "heuristic": 2000, "expert": 200}
LEVELS = tuple(MAX_DEALS)

#: The figures the page fills in while a comparison plays: (kind, key).
BRIEF: tuple[tuple[str, str], ...] = (
    ("measures", "turns"), ("measures", "lie_downs"), ("measures", "survivor_last"),
    ("measures", "residue"), ("measures", "sweep"), ("measures", "hand_set"),
    ("chips", "dealer"), ("fairness", "balance"))


@dataclasses.dataclass(frozen=True, slots=True)
class Request:
    """A comparison asked for: two readings (canonical texts), who plays, how many deals,
    and the seed that names the deals."""

    a: str
    b: str
    players: str
    deals: int
    seed: int = 1

    @property
    def id(self) -> str:
        """The comparison's name: a digest of the request (the same request, the same id)."""
        text = json.dumps(dataclasses.asdict(self), sort_keys=True)
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()

    def to_json(self) -> dict[str, Any]:
        """Plain data, with each reading's rules as the table form takes them."""
        from ...lab.reading import parse_reading

        return {**dataclasses.asdict(self), "id": self.id,
                "rules": [parse_reading(r).rules.spec() for r in (self.a, self.b)]}


def parse_request(obj: Any) -> Request:
    """A request from its JSON object; raise ValueError with one line a person can read."""
    from ...lab.reading import parse_readings

    if not isinstance(obj, dict):
        raise ValueError("send a JSON object with the two readings, the players and the deals")
    unknown = sorted(set(obj) - {"a", "b", "players", "deals", "seed"})
    if unknown:
        raise ValueError(f"unknown field {json.dumps(unknown[0])[:40]}: give a, b, players, deals and seed")
    a, b = obj.get("a"), obj.get("b")
    if not isinstance(a, str) or not isinstance(b, str) or not a.strip() or not b.strip():
        raise ValueError("give two readings, a and b, e.g. survivor and last-capture/4")
    if len(a) > 300 or len(b) > 300:
        raise ValueError("a reading is at most 300 characters")
    if "," in a or "," in b:
        raise ValueError("give one reading in a and one in b")
    first, second = parse_readings([a, b])
    players = obj.get("players", "heuristic")
    if players not in MAX_DEALS:
        raise ValueError(f"players: choose {', '.join(LEVELS)}")
    deals = obj.get("deals")
    cap = MAX_DEALS[players]
    if isinstance(deals, bool) or not isinstance(deals, int) or not 1 <= deals <= cap:
        raise ValueError(f"deals: give a whole number from 1 to {cap:,} (with {players} players)")
    seed = obj.get("seed", 1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise ValueError("seed: give a whole number from 0 to 2**63 - 1")
    return Request(first.text, second.text, players, deals, seed)


def stages(deals: int) -> list[int]:
    """The deals played by the end of each stage: a quarter, a half, all."""
    return sorted({max(1, deals // 4), max(1, deals // 2), deals})


def brief(summary: dict[str, Any]) -> dict[str, Any]:
    """The figures the page fills in: for each reading its deals and :data:`BRIEF`, and the
    differences between the two readings in the same measures (the second minus the first)."""
    table = summary["tables"][0]
    readings = []
    for entry in table["readings"]:
        if "measures" not in entry:
            continue
        figures = {}
        for kind, key in BRIEF:
            if kind == "measures":
                figures[key] = entry["measures"].get(key)
            elif kind == "chips":
                figures["dealer_chips"] = entry["by_position"]["chips"][0]
            else:
                figures[key] = entry["fairness"].get(key)
        readings.append({"reading": entry["reading"], "deals": entry["deals"], "figures": figures})
    keys = {key for _kind, key in BRIEF} | {"chips_0"}
    differences = [{k: d[k] for k in ("a", "b", "mean", "low", "high", "real", "paired")}
                   | {"measure": "dealer_chips" if d["measure"] == "chips_0" else d["measure"]}
                   for d in table.get("differences", []) if d["measure"] in keys]
    return {"readings": readings, "differences": differences}


def compute(request: Request, send: Any) -> dict[str, Any]:
    """Play the comparison stage by stage, telling ``send`` of the progress and of each
    stage's figures; the result: the last figures, the summary and the report's page."""
    import tempfile
    import time

    from ...lab.experiment import run
    from ...lab.report import build, machine

    total = 2 * request.deals
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lald-lab-") as out:
        results = None
        for deals in stages(request.deals):
            results = run([request.a, request.b], bots=[request.players], deals=deals, seed=request.seed,
                          out=out, progress=lambda done, _total: send(("progress", done, total)))
            send(("partial", brief(results.summary)))
        assert results is not None
    command = (f"lald readings {request.a} {request.b} --bots {request.players} --deals {request.deals} "
               f"--seed {request.seed} --report (the browser laboratory)")
    info = {"command": command, "seconds": time.perf_counter() - started, "cpu": results.cpu_total,
            "jobs": 1, "machine": machine()}
    return {"brief": brief(results.summary), "report": report_blocks(build(results.summary, info))}


def report_blocks(blocks: Sequence[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """The report's blocks (:func:`lald.lab.report.build`) as the page draws them: headings,
    paragraphs, lists and tables as text, each plot as a PNG ``data:`` address with its
    caption."""
    out: list[dict[str, Any]] = []
    for block in blocks:
        kind = block[0]
        if kind == "h":
            out.append({"kind": "h", "level": block[1], "text": block[2]})
        elif kind == "p":
            out.append({"kind": "p", "text": block[1]})
        elif kind == "list":
            out.append({"kind": "list", "items": list(block[1])})
        elif kind == "table":
            out.append({"kind": "table", "head": list(block[1]),
                        "rows": [[str(c) for c in row] for row in block[2]]})
        elif kind == "img":
            data = base64.b64encode(block[2]).decode()
            out.append({"kind": "img", "name": block[1], "src": f"data:image/png;base64,{data}",
                        "caption": block[3]})
    return out


def child(request: dict[str, Any], conn: Any) -> None:
    """The worker process: compute ``request`` (its JSON form), sending what it does down
    ``conn``; a failure is sent as one line, never raised."""
    try:
        req = parse_request({k: request[k] for k in ("a", "b", "players", "deals", "seed")})
        conn.send(("done", compute(req, conn.send)))
    except Exception as e:  # a defect: say it in one line to the server
        conn.send(("failed", f"the comparison failed ({type(e).__name__}: {' '.join(str(e).split())[:200]})"))
    finally:
        conn.close()
