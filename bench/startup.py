"""Benchmark: the start-up of the ``jojotte`` command (issue 14: under 0.3 s for --help and a one-hand validate).

    python bench/startup.py            # median of 5 runs of each command
    python bench/startup.py --runs 9

Each command runs in a fresh process, as a user types it (``python -m jojotte_records.cli.main ...`` through
the venv's ``jojotte`` script). Figures: the child's CPU time (user + sys, ``resource.getrusage(RUSAGE_CHILDREN)``)
beside its wall time; CPU time is what other load on the machine moves less.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ONE_HAND = ROOT / "examples" / "disputes" / "01-revoke-follow-suit.jjt"


def jojotte() -> list[str]:
    """The installed ``jojotte`` beside this Python (a venv's), else ``python -m jojotte_records``."""
    exe = Path(sys.executable).with_name("jojotte")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("jojotte")
    return [found] if found else [sys.executable, "-m", "jojotte_records"]


def measure(argv: list[str], runs: int) -> tuple[float, float]:
    """The median CPU seconds (user + sys of the child) and wall seconds of ``runs`` runs of ``argv``.

    One run first, not counted, with bytecode writing on: a user's second run reads compiled modules
    (``__pycache__``), and an environment with PYTHONDONTWRITEBYTECODE would otherwise time the compiler.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    cpus, walls = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
        walls.append(time.perf_counter() - t)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(cpus), statistics.median(walls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cmd = jojotte()
    one_hand = ONE_HAND if ONE_HAND.exists() else next((ROOT / "examples").rglob("*.jjt"))
    cases = [
        ("jojotte --help", ["--help"]),
        ("jojotte --version", ["--version"]),
        (f"jojotte validate {one_hand.relative_to(ROOT)}", ["validate", str(one_hand)]),
        ("jojotte validate --help", ["validate", "--help"]),
        ("python -c 'import jojotte_records.cli.main'", None),
        ("python -c pass  (the interpreter and this machine's site-packages .pth files alone)", "pass"),
    ]
    print(f"median of {args.runs} runs; the target (issue 14) is under 0.3 s")
    for name, extra in cases:
        if extra is None:
            argv = [sys.executable, "-c", "import jojotte_records.cli.main"]
        elif extra == "pass":
            argv = [sys.executable, "-c", "pass"]
        else:
            argv = cmd + extra
        cpu, wall = measure(argv, args.runs)
        print(f"{name:70s} CPU {cpu:6.3f} s   wall {wall:6.3f} s")


if __name__ == "__main__":
    main()
