"""A short chaos run (issue 31; the long one is ``bench/chaos.py --minutes 30``): a site of
two workers behind nginx under bots' load while a worker is killed, PostgreSQL restarted
and a worker paused past its leases' life. Every action a page was shown is stored and
replays, no page sees a version go back, every table plays again within 5 s of each
fault's end (p99), and ``/readyz`` tells the truth throughout."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lald.cli.host.site import nginx_binary

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the site runs on Linux")


def test_a_short_chaos_run_loses_nothing_and_plays_on(tmp_path: Path) -> None:
    assert nginx_binary(), "the chaos run needs Debian's nginx: apt-get install nginx-core"
    assert shutil.which("pg_ctl") or list(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")), \
        "the chaos run needs PostgreSQL: apt-get install postgresql"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "chaos.py"), "--minutes", "1.5", "--tables", "12",
         "--seed", "2", "--ttl", "4", "--faults", "kill,postgres,pause,nginx-restart",
         "--logs", str(tmp_path)],
        capture_output=True, text=True, timeout=400, cwd=ROOT)
    report = done.stdout + done.stderr
    assert "faults: 0 " not in report, report
    assert done.returncode == 0, report
    assert "verdict: held" in report, report
