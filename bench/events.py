"""Benchmark: parse, validate and score simulated Pitch (and Baloot) hands; print hands/s and peak memory.

    python bench/events.py                       # 20,000 hands of Pitch, of five-handed 16-point Pitch, and of Baloot
    python bench/events.py --hands 5000 --game pitch --variant "points=16"
    python bench/events.py --hands 3000 --stages   # and where the time goes: reading, replay, the rest
    python bench/events.py --hands 3000 --game baloot --profile 25   # and the 25 functions with the most own time
    python bench/events.py --against /tmp/base --rounds 3   # and another version's tree, alternating, in the same run

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

# ``--stages``: where the CPU time of one validation goes, in a child of its own: reading the text alone
# (`open_records`), the replay (the codec's fast path, or the explaining loop for the hands it does not vouch for),
# and the rest (scoring, the sheet, the written score compared, the verdicts); medians of ``runs``
STAGES = r"""
import json, statistics, sys, time
from jojotte_records.replay import jojotte as validator
from jojotte_records.replay.files import check_file, open_records
path, runs = sys.argv[1], int(sys.argv[2])
spent = [0.0]
replay_hand = validator.replay_hand  # the engine's: the fast path, or the explaining loop with its checks


def timed(*a):
    c = time.process_time()
    try:
        return replay_hand(*a)
    finally:
        spent[0] += time.process_time() - c


validator.replay_hand = timed
read, total, replay = [], [], []
for _ in range(runs):
    c = time.process_time()
    for _ in open_records(path):
        pass
    read.append(time.process_time() - c)
    spent[0] = 0.0
    c = time.process_time()
    check_file(path, keep_hands=False)
    total.append(time.process_time() - c)
    replay.append(spent[0])
m = statistics.median
print(json.dumps({"read": m(read), "replay": m(replay), "total": m(total)}))
"""


# ``--profile N``: one validation of the file under cProfile, in a child of its own: the N functions that spend the
# most time of their own (profiled time is inflated; the shares are what to read)
PROFILE = r"""
import cProfile, pstats, sys
from jojotte_records.replay.files import check_file
path, top = sys.argv[1], int(sys.argv[2])
check_file(path, keep_hands=False)  # the memos warm, as in a long file
p = cProfile.Profile()
p.runcall(check_file, path, keep_hands=False)
pstats.Stats(p).sort_stats("tottime").print_stats(top)
"""


def profile(path: Path, top: int) -> str:
    import subprocess

    out = subprocess.run([sys.executable, "-c", PROFILE, str(path), str(top)], check=True, capture_output=True, text=True)
    return out.stdout


def stages(path: Path, runs: int) -> str:
    import json
    import subprocess

    out = subprocess.run([sys.executable, "-c", STAGES, str(path), str(runs)], check=True, capture_output=True, text=True)
    st = json.loads(out.stdout)
    rest = st["total"] - st["read"] - st["replay"]
    return (f"{'':>12}  stages (cpu, instrumented): reading {st['read']:.2f} s ({st['read'] / st['total']:.0%}),"
            f" replay {st['replay']:.2f} s ({st['replay'] / st['total']:.0%}), scoring, sheet and written score"
            f" {rest:.2f} s ({rest / st['total']:.0%})")

DEFAULT_RUNS = (("pitch", ""), ("pitch", "points=16; players=5"), ("baloot", ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", help="one game (default: Pitch, five-handed 16-point Pitch and Baloot)")
    ap.add_argument("--variant", default="")
    ap.add_argument("--runs", type=int, default=3, help="runs of each file; the median is printed")
    ap.add_argument("--stages", action="store_true", help="also split each file's CPU time into reading, replay and the rest")
    ap.add_argument("--against", metavar="TREE", help="also measure the jojotte_records of this source tree (another"
                    " version, e.g. a `git archive` of the base), alternating with this one in the same run")
    ap.add_argument("--rounds", type=int, default=3, help="with --against: the alternations; each tree's median is printed")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="also print the N functions with the most own time in one profiled validation of each file")
    args = ap.parse_args()

    from jojotte_records.notation.text import write_stream
    from jojotte_records.play.simulate import simulate_items
    from jojotte_records.rules import VARIANTS

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
            label = game + (f" [{variant}]" if variant else "")
            # with --against, this tree and the other alternate (``--rounds`` times each) so that both see the same
            # load; each tree's median run is printed, and the ratio of their CPU times
            trees = [None, args.against] * args.rounds if args.against else [None]
            results: dict = {}
            for tree in trees:
                m = measure(path, args.runs, tree=tree)
                assert m["bad"] == 0, f"simulated {game} hands failed validation: {m}"
                results.setdefault(tree, []).append(m)
            medians = {tree: sorted(ms, key=lambda r: r["cpu"])[(len(ms) - 1) // 2] for tree, ms in results.items()}
            print(line(label, medians[None]) + f"  (simulated at {args.hands / sim:,.0f} hands/s, file"
                  f" {path.stat().st_size / 1e6:.1f} MB)")
            if args.against:
                other = medians[args.against]
                print(line(label + " (other)", other) + f"  (the replay engine of {other['tree']})")
                print(f"{'':>14}  cpu this tree / other: {medians[None]['cpu'] / other['cpu']:.2f}"
                      f" (speed-up x{other['cpu'] / medians[None]['cpu']:.2f}; {args.rounds} alternations,"
                      f" medians of {args.runs} runs each)")
            if args.stages:
                print(stages(path, args.runs))
            if args.profile:
                print(profile(path, args.profile))


if __name__ == "__main__":
    main()
