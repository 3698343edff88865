"""Benchmark: parse, validate and score simulated two-player hands; print hands/s and peak memory.

    python bench/validate.py            # 20,000 and 200,000 hands
    python bench/validate.py --hands 5000 --repeat 4
    python bench/validate.py --form-hands 2000   # and 2,000 hands of each three- and four-player form

Each measurement runs in a fresh process (so peak RSS is its own): it streams
the file through `jojotte_records.validation.check_file` with no hands kept,
exactly as `jojotte validate` does. The 200,000-hand file is the 20,000-hand
session written ten times over (ten sessions), which is what a streaming
reader sees as a big archive.
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Peak memory is the child's own VmHWM: getrusage's ru_maxrss would carry the parent's high-water mark over exec.
CHILD = r"""
import json, sys, time
from jojotte_records.validation import check_file
t = time.perf_counter()
r = check_file(sys.argv[1], keep_hands=False)
dt = time.perf_counter() - t
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"hands": r.hands, "bad": r.bad_hands, "seconds": dt, "peak_rss_mb": hwm / 1024}))
"""


def measure(path: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(path)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=10, help="the big file holds the session this many times")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--form-hands", type=int, default=5_000, help="hands of each three- and four-player form (0: none)")
    args = ap.parse_args()

    from jojotte_records.notation import write_stream
    from jojotte_records.simulate import simulate_session

    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "small.jjt"
        big = Path(tmp) / "big.jjt"
        t = time.perf_counter()
        header, hands = simulate_session("jojotte", args.hands, args.seed)
        with open(small, "w", encoding="utf-8") as f:
            write_stream(itertools.chain([header], hands), f)
        sim = time.perf_counter() - t
        text = small.read_text(encoding="utf-8")
        with open(big, "w", encoding="utf-8") as f:
            for i in range(args.repeat):
                if i:
                    f.write("\n")
                f.write(text)
        print(f"simulated {args.hands:,} hands in {sim:.1f} s ({args.hands / sim:,.0f} hands/s); "
              f"file {small.stat().st_size / 1e6:.1f} MB, big file {big.stat().st_size / 1e6:.1f} MB")
        for label, path in (("small", small), ("big", big)):
            m = measure(path)
            assert m["bad"] == 0, f"simulated hands failed validation: {m}"
            print(f"{label:>5}: {m['hands']:>9,} hands  {m['seconds']:7.2f} s  {m['hands'] / m['seconds']:>9,.0f} hands/s"
                  f"  peak RSS {m['peak_rss_mb']:.0f} MB")
        # the other forms of the game (rules spec §18–20), one file each
        for game in ("jojotte-3", "jojotte-3box", "jojotte-4p", "jojotte-4s") if args.form_hands else ():
            path = Path(tmp) / f"{game}.jjt"
            header, hands = simulate_session(game, args.form_hands, args.seed)
            with open(path, "w", encoding="utf-8") as f:
                write_stream(itertools.chain([header], hands), f)
            m = measure(path)
            assert m["bad"] == 0, f"simulated {game} hands failed validation: {m}"
            print(f"{game:>12}: {m['hands']:>7,} hands  {m['seconds']:7.2f} s  {m['hands'] / m['seconds']:>9,.0f} hands/s"
                  f"  peak RSS {m['peak_rss_mb']:.0f} MB")


if __name__ == "__main__":
    main()
