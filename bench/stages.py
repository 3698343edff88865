"""Where a two-player Jo-Jotte hand's validation time goes: reading, the fast replay, scoring and the sheet.

    python bench/stages.py                # 10,000 simulated hands, median of 3
    python bench/stages.py --hands 20000 --runs 5

Each stage is timed alone over the same simulated session, in CPU time (``time.process_time``, beside wall
time): reading the text into records (`notation.text.iter_records`), the fast replay of every hand
(`replay.fast_jojotte`, its memos empty at the start of each run as in a session's validation, the hands it does
not vouch for counted), the hand score and the sheet
(`Rules.hand_score`, `Rules.add_score`), and the whole `SessionValidator.check_hand` (replay, scoring, the sheet
and the written figures compared). Figures are microseconds a hand.
"""

from __future__ import annotations

import argparse
import gc
import io
import statistics
import time


def timed(fn, runs: int):
    """``fn()`` ``runs`` times: the median CPU and wall seconds, and the last result."""
    cpu, wall = [], []
    out = None
    for _ in range(runs):
        c, t = time.process_time(), time.perf_counter()
        out = fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
    return statistics.median(cpu), statistics.median(wall), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    from jojotte_records.notation.model import SessionHeader
    from jojotte_records.notation.text import iter_records, write_stream
    from jojotte_records.play.simulate import simulate_items
    from jojotte_records.replay.jojotte import SessionValidator

    out = io.StringIO()
    write_stream(simulate_items("jojotte", args.hands, args.seed, ""), out)
    text = out.getvalue()
    rows = []
    cpu, wall, _ = timed(lambda: sum(1 for _ in iter_records(text, "bench.jjt")), args.runs)  # streamed, as validate reads
    rows.append(("reading", cpu, wall))
    # the records kept for the other stages, out of the garbage collector's way (it would walk them at every pass)
    items = list(iter_records(text, "bench.jjt"))
    gc.collect()
    gc.freeze()
    header = items[0]
    hands = [h for h in items if not isinstance(h, SessionHeader)]
    n = len(hands)
    rules = SessionValidator(header).rules

    def replay():  # a new codec each run: its memos start empty, as in `check_hand`'s run of a session
        codec = SessionValidator(header).codec
        return [codec.fast(h, None, h.dealer, None) for h in hands]

    cpu, wall, states = timed(replay, args.runs)
    rows.append(("fast replay", cpu, wall))
    vouched = [s for s in states if s is not None]

    def scoring():
        sheet = rules.new_sheet()
        for s in vouched:
            sheet, _ = rules.add_score(sheet, rules.hand_score(s, sheet))

    cpu, wall, _ = timed(scoring, len(vouched) and args.runs)
    rows.append(("score + sheet", cpu, wall))

    def check():
        v = SessionValidator(header)
        for h in hands:
            v.check_hand(h)

    cpu, wall, _ = timed(check, args.runs)
    rows.append(("check_hand", cpu, wall))
    print(f"{n:,} hands; the fast replay vouched for {len(vouched):,}, {n - len(vouched):,} left to the explaining path")
    for label, cpu, wall in rows:
        print(f"{label:>14}: {cpu / n * 1e6:7.1f} µs a hand cpu ({wall / n * 1e6:.1f} wall)")
    read, check = rows[0][1], rows[3][1]
    print(f"{'read + check':>14}: {(read + check) / n * 1e6:7.1f} µs a hand cpu = {n / (read + check):,.0f} hands/s")


if __name__ == "__main__":
    main()
