"""Benchmark: parse, validate and score simulated Pitch (and Baloot) hands; print hands/s and peak memory.

    python bench/events.py                       # 20,000 hands of Pitch, of five-handed 16-point Pitch, and of Baloot
    python bench/events.py --hands 5000 --game pitch --variant "points=16"

Each measurement runs in a fresh process (median of ``--runs``, CPU time beside wall time, hands/s on
CPU time, the hands on the fast and the explaining path), streaming the file through
`jojotte_records.replay.files.check_file` with no hands kept, exactly as
``jojotte validate`` does (the whole path: reading the text, turning each
item into an action, checking and applying it, scoring, the sheet).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from validate import line, measure  # noqa: E402  (the same child process as bench/validate.py)

DEFAULT_RUNS = (("pitch", ""), ("pitch", "points=16; players=5"), ("baloot", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", help="one game (default: Pitch, five-handed 16-point Pitch and Baloot)")
    ap.add_argument("--variant", default="")
    ap.add_argument("--runs", type=int, default=3, help="runs of each file; the median is printed")
    args = ap.parse_args()

    from jojotte_records.notation.text import write_stream
    from jojotte_records.play.simulate import simulate_items
    from jojotte_records.rules.base import VARIANTS

    runs = ((args.game, args.variant),) if args.game else DEFAULT_RUNS
    with tempfile.TemporaryDirectory() as tmp:
        for game, variant in runs:
            if game not in VARIANTS:
                print(f"{game}: not in this version's rules core, skipped")
                continue
            path = Path(tmp) / f"{game}.jjt"
            t = time.perf_counter()
            with open(path, "w", encoding="utf-8") as f:
                write_stream(simulate_items(game, args.hands, args.seed, variant), f)
            sim = time.perf_counter() - t
            m = measure(path, args.runs)
            assert m["bad"] == 0, f"simulated {game} hands failed validation: {m}"
            label = game + (f" [{variant}]" if variant else "")
            print(line(label, m) + f"  (simulated at {args.hands / sim:,.0f} hands/s, file {path.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
