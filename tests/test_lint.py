"""The linter is part of the test command (issue 16, item 13): ruff with pyflakes and import order
(``[tool.ruff]`` in pyproject.toml) over the library, the command, the tests, the benchmarks and the tools."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "jojotte_records", "cli", "tests", "bench", "tools"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
