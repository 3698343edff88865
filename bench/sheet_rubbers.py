"""Benchmark: a Jo-Jotte score sheet over a long session; print the CPU time of `ScoreSheet.add` per rubber.

    python bench/sheet_rubbers.py                  # 20,000 rubbers (40,000 hands, each a game: JJ-GAME-1, JJ-RUBBER-1)
    python bench/sheet_rubbers.py --rubbers 5000

Each hand credits one seat the game target below the line, so every second hand ends a rubber; the seats take
turns by rubber. A second figure: `ScoreSheet.rebase` of the whole session onto a sheet of the same length (what a
--jobs chunk's sheet goes through), then the `len`, ``[-1]`` and a full iteration of ``rubber_results``.
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rubbers", type=int, default=20_000)
    args = ap.parse_args()
    from jojotte_records.rules.jojotte import HandScore, JojotteRules
    from jojotte_records.rules.jojotte_sheet import Credit

    rules = JojotteRules()
    sheet = start = rules.new_sheet()
    target = sheet.options.game_target
    hands = [HandScore((0, 0), (0, 0), (0, 0), (0, 0), (Credit(seat, "below", target, "JJ-SCORE-1", "bench"),), 0, seat,
                       (0, 0)) for seat in (0, 1)]
    c = time.process_time()
    for r in range(args.rubbers):
        for _ in range(2):
            sheet, _entry = sheet.add(hands[r % 2])
    add = time.process_time() - c
    assert len(sheet.rubber_results) == args.rubbers, len(sheet.rubber_results)
    c = time.process_time()
    moved = sheet.rebase(start, sheet)
    n = len(moved.rubber_results)
    last = moved.rubber_results[-1]
    wins = sum(1 for w, _ in moved.rubber_results if w == 0)
    rest = time.process_time() - c
    assert n == 2 * args.rubbers and wins == args.rubbers and last[0] == 1
    print(f"{args.rubbers:,} rubbers ({2 * args.rubbers:,} hands): add cpu {add:.2f} s = {add / args.rubbers * 1e6:.1f} us"
          f" per rubber; rebase + len + [-1] + iteration cpu {rest * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
