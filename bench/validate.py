"""Benchmark: parse, validate and score simulated two-player hands; print hands/s and peak memory.

    python bench/validate.py            # 20,000 and 200,000 hands
    python bench/validate.py --hands 5000 --repeat 4
    python bench/validate.py --form-hands 2000   # and 2,000 hands of each three- and four-player form
    python bench/validate.py --no-fast  # the explaining path only (engine.FAST off)
    python bench/validate.py --against /tmp/base   # and another version's tree, alternating, in the same run

Each measurement runs in a fresh process (so peak RSS is its own): it streams
the file through `jojotte_records.replay.files.check_file` with no hands kept,
exactly as `jojotte validate` does, ``--runs`` times (median of 3 by default;
the big file once). The fast paths' memos (lines read, calls, legal plays,
score outcomes) live for the process: a small file's later runs find them
filled by its first, whose figure is printed too ("first run"), while the big
file is read once, its first session filling them; so the big file's hands/s
sits between the first run's and the median's. Figures are the child's CPU time (``time.process_time``)
beside its wall time; hands/s is on CPU time, which other load on the machine
moves less. The child also says how many hands took the fast path and how many
the explaining path (`engine.COUNTS`). The 200,000-hand file is the 20,000-hand
session written ten times over (ten sessions), which is what a streaming
reader sees as a big archive.

For scale, the same child process then replays recorded chess games with
python-chess (the ``test`` extra), each move checked for legality
(``move in board.legal_moves``, then ``board.push``), and the benchmark prints
card plays checked per CPU second (the whole validation of two-player hands,
reading and scoring included, over its card plays) divided by chess plies
checked per CPU second.
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
import json, statistics, sys, time
if len(sys.argv) > 5:
    sys.path.insert(0, sys.argv[5])  # another version's tree, before the current directory and the installed one
from jojotte_records.replay import engine
from jojotte_records.replay.files import check_file
path, runs, fast, chess_games = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4])
engine.FAST = fast
times = []
for _ in range(runs):
    engine.COUNTS.update(fast=0, explained=0)
    t, c = time.perf_counter(), time.process_time()
    r = check_file(path, keep_hands=False)
    times.append((time.process_time() - c, time.perf_counter() - t))
first_cpu = times[0][0]  # the first run fills the memos of lines, calls and outcomes the later runs find
times.sort()
cpu, wall = times[len(times) // 2]
out = {"hands": r.hands, "bad": r.bad_hands, "cpu": cpu, "seconds": wall, "first_cpu": first_cpu, **engine.COUNTS,
       "tree": engine.__file__}
if chess_games:
    import random
    import chess
    rng = random.Random(1)
    games = []
    for _ in range(chess_games):  # random legal games, fixed seed: the record to replay (not timed)
        board = chess.Board()
        moves = []
        while not board.is_game_over() and len(moves) < 200:
            m = rng.choice(list(board.legal_moves))
            moves.append(m)
            board.push(m)
        games.append(moves)
    plies = sum(map(len, games))
    ctimes = []
    for _ in range(runs):
        c = time.process_time()
        for moves in games:
            board = chess.Board()
            for m in moves:
                if m not in board.legal_moves:
                    raise SystemExit(f"illegal move {m}")
                board.push(m)
        ctimes.append(time.process_time() - c)
    out.update(chess_plies=plies, chess_cpu=statistics.median(ctimes))
out["peak_rss_mb"] = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")) / 1024
print(json.dumps(out))
"""


def measure(path: Path, runs: int = 3, fast: bool = True, chess_games: int = 0, tree: str | None = None) -> dict:
    """One child process validating ``path`` ``runs`` times: the median run's CPU and wall seconds, the hands on each
    path, peak RSS; with ``chess_games``, the CPU seconds of replaying that many random chess games (median).
    ``tree``: the source tree whose ``jojotte_records`` the child imports (another version, to compare)."""
    argv = [sys.executable, "-c", CHILD, str(path), str(runs), "1" if fast else "0", str(chess_games)]
    out = subprocess.run(argv + ([str(Path(tree).resolve())] if tree else []), check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def chess_line(plays: int, m: dict, games: int) -> str:
    """Card plays checked per CPU second (the whole validation over its card plays) beside python-chess's plies."""
    card_rate = plays / m["cpu"]
    chess_rate = m["chess_plies"] / m["chess_cpu"]
    return (f"{'':>14}  card plays checked: {plays:,} in {m['cpu']:.2f} s cpu = {card_rate:,.0f}/s (reading and scoring"
            f" included); python-chess: {m['chess_plies']:,} plies of {games} games checked in"
            f" {m['chess_cpu']:.2f} s cpu = {chess_rate:,.0f}/s; ratio {card_rate / chess_rate:.2f}")


def line(label: str, m: dict) -> str:
    """A result line: hands, CPU and wall seconds, hands/s on CPU time, the paths taken, peak RSS."""
    first = f"; first run {m['hands'] / m['first_cpu']:,.0f}" if m["first_cpu"] != m["cpu"] else ""
    return (f"{label:>14}: {m['hands']:>9,} hands  cpu {m['cpu']:7.2f} s  wall {m['seconds']:7.2f} s"
            f"  {m['hands'] / m['cpu']:>8,.0f} hands/s cpu ({m['hands'] / m['seconds']:,.0f} wall{first})"
            f"  fast {m['fast']:,} / explained {m['explained']:,}  peak RSS {m['peak_rss_mb']:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=10, help="the big file holds the session this many times")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--form-hands", type=int, default=5_000, help="hands of each three- and four-player form (0: none)")
    ap.add_argument("--runs", type=int, default=3, help="runs of each small file; the median is printed")
    ap.add_argument("--chess-games", type=int, default=300, help="random chess games replayed by python-chess (0: none)")
    ap.add_argument("--no-fast", action="store_true", help="the explaining path only")
    ap.add_argument("--against", metavar="TREE", help="also measure the jojotte_records of this source tree (another"
                    " version, e.g. a `git archive` of the base), alternating with this one in the same run")
    args = ap.parse_args()

    from jojotte_records.notation.text import write_stream
    from jojotte_records.play.simulate import simulate_session

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
        fast = not args.no_fast
        plays = sum(2 for ln in text.splitlines() if ln.startswith("trick "))  # two cards a trick
        # with --against, each measurement alternates between this tree and the other, twice, so that both see
        # the same load; the figures are each tree's median of its runs
        trees = [(None, "small"), (args.against, "small (other)")] * 2 if args.against else [(None, "small")]
        results: dict[str, list] = {}
        for tree, label in trees:
            m = measure(small, args.runs, fast, args.chess_games, tree)
            assert m["bad"] == 0, f"simulated hands failed validation: {m}"
            results.setdefault(label, []).append(m)
        for label, ms in results.items():
            m = sorted(ms, key=lambda r: r["cpu"])[(len(ms) - 1) // 2]
            print(line(label, m))
            if args.against:
                print(f"{'':>14}  (the replay engine of {m['tree']})")
            if args.chess_games:
                print(chess_line(plays, m, args.chess_games))
        for tree, label in [(None, "big"), (args.against, "big (other)")] if args.against else [(None, "big")]:
            m = measure(big, 1, fast, 0, tree)
            assert m["bad"] == 0, f"simulated hands failed validation: {m}"
            print(line(label, m))
        # the other forms of the game (rules spec §18–20), one file each
        for game in ("jojotte-3", "jojotte-3box", "jojotte-4p", "jojotte-4s") if args.form_hands else ():
            path = Path(tmp) / f"{game}.jjt"
            header, hands = simulate_session(game, args.form_hands, args.seed)
            with open(path, "w", encoding="utf-8") as f:
                write_stream(itertools.chain([header], hands), f)
            m = measure(path, args.runs, fast)
            assert m["bad"] == 0, f"simulated {game} hands failed validation: {m}"
            print(line(game, m))


if __name__ == "__main__":
    main()
