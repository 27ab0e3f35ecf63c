"""The suite tells the truth: under ``LALD_REQUIRE_COMPILED=1`` (``make test``, and so CI)
a compiled twin's test that would skip, its extension missing or not loading, fails."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TWIN = "tests/core/compiled/test_kernel.py::test_pure_path_in_one_thread_leaves_the_kernel_to_the_others"


def run(**env: str) -> subprocess.CompletedProcess[str]:
    """That twin's test with the kernel switched off (``LALD_KERNEL=python``)."""
    clean = {k: v for k, v in os.environ.items() if k != "LALD_REQUIRE_COMPILED"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", TWIN],
                          cwd=ROOT, env=clean | {"LALD_KERNEL": "python"} | env, capture_output=True,
                          text=True, timeout=300)


def test_a_compiled_twin_that_would_skip_fails_when_compiled_is_required() -> None:
    skipped = run()
    assert skipped.returncode == 0 and "1 skipped" in skipped.stdout, skipped.stdout
    required = run(LALD_REQUIRE_COMPILED="1")
    assert required.returncode == 1 and "1 failed" in required.stdout, required.stdout
    assert "LALD_REQUIRE_COMPILED=1, but a compiled twin's test would skip" in required.stdout
