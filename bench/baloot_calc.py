"""Check (and time) that the score calculator and the validator agree on every hand of a simulated match set.

    python bench/baloot_calc.py                 # 5,000 hands, seed 1 (issue 6's done-when)
    python bench/baloot_calc.py --hands 20000 --seed 7 --variant "both_teams_count"

The hands are simulated (`jojotte simulate --game baloot`), written as text, read back and replayed by the
validator (`replay.validate_stream`, as ``jojotte validate`` does). For each scored hand the summary a table
would give the calculator (contract, declaring team, level, card points, projects, Baloot, kaboot) is taken
from the replayed state and scored by `baloot_calc.calculate`; its award must equal the validator's.
Prints the number of hands compared and agreeing, and the time per hand of each side. Exits 1 on any
disagreement.
"""

from __future__ import annotations

import argparse
import io
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="")
    args = ap.parse_args()

    from jojotte_records.notation.text import iter_records, write_stream
    from jojotte_records.play.simulate import simulate_items
    from jojotte_records.replay.jojotte import validate_stream
    from jojotte_records.table.baloot_calc import calculate, summary_args

    text = io.StringIO()
    write_stream(simulate_items("baloot", args.hands, args.seed, args.variant), text)
    t, cpu = time.perf_counter(), time.process_time()
    compared = agree = unscored = bad = 0
    calc_seconds = 0.0
    for summary, verdicts in validate_stream(iter_records(text.getvalue(), "simulated.jjt")):
        rules = summary.rules
        for v in verdicts:
            bad += bool(v.issues)
            h = rules.summary(v.state) if v.state is not None else None
            if h is None or v.score is None:
                unscored += 1
                continue
            c = time.perf_counter()
            calc = calculate(**summary_args(h), variant=rules.options.text())
            calc_seconds += time.perf_counter() - c
            compared += 1
            if calc.delta == tuple(v.score.delta):
                agree += 1
            else:
                print(f"hand {v.number} of {summary.header.get('Event')}: calculator {calc.delta}, validator {v.score.delta}")
    total = time.perf_counter() - t
    cpu = time.process_time() - cpu
    print(f"{compared:,} hands compared, {agree:,} agree, {compared - agree} disagree; {unscored} redealt or unscored; "
          f"{bad} with findings")
    print(f"validator {1e3 * (total - calc_seconds) / max(1, compared + unscored):.2f} ms/hand (reading, replay, scoring); "
          f"calculator {1e3 * calc_seconds / max(1, compared):.3f} ms/hand (wall)")
    print(f"the whole check: cpu {cpu:.2f} s, wall {total:.2f} s; {(compared + unscored) / cpu:,.0f} hands/s cpu")
    return 0 if agree == compared and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
