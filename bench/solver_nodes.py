"""Benchmark: what one position of the one solver (`analyze.solver`) costs, four-player Jo-Jotte and Baloot.

    python bench/solver_nodes.py                       # 5 deals per game (seed 1), the deals of bench/analyze.py
    python bench/solver_nodes.py --deals 3 --games baloot

For each deal: the solve from the first card (a fresh solver), its positions searched, CPU per position (µs) and
positions per second. Then, over the positions of those solves (the first 20,000 moves and transitions each deal
made), the cost of the rules' two calls per position through the protocol: the legal cards (``legal_actions``
filtered to cards, against ``card_plays``, with its memo fresh and asked in the solve's order) and the transition
(``advance`` against ``play_card``). CPU time (``time.process_time``) beside wall time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from analyze import deals  # noqa: E402 - the same deals as bench/analyze.py

SAMPLE = 20_000


def per_call(fn, items) -> float:
    """CPU µs per item of ``fn(items)``, the best of three runs."""
    best = float("inf")
    for _ in range(3):
        c = time.process_time()
        fn(items)
        best = min(best, time.process_time() - c)
    return best / max(len(items), 1) * 1e6


def main() -> None:
    from jojotte_records.analyze.solver import Solver, view_for

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default="jojotte-4p,baloot")
    args = ap.parse_args()

    class Sampled(Solver):
        """The solver, keeping the positions whose moves it makes and the transitions it takes."""

        def __init__(self, view):
            super().__init__(view)
            self.moved, self.taken = [], []

        def _gen(self, s):
            if len(self.moved) < SAMPLE:
                self.moved.append(s)
            return super()._gen(s)

        def _expand(self, s, kid):
            if len(self.taken) < SAMPLE:
                self.taken.append((s, kid[0]))
            return super()._expand(s, kid)

    for game in args.games.split(","):
        cpu, nodes, moved, taken, rules_of = [], [], [], [], None
        for i, (rules, _v, s, script) in enumerate(deals(game, args.deals, args.seed), 1):
            solver = Sampled(view_for(rules, s, script))
            c, w = time.process_time(), time.perf_counter()
            solver.value(s)
            c, w = time.process_time() - c, time.perf_counter() - w
            cpu.append(c)
            nodes.append(solver.nodes)
            moved += solver.moved
            taken += solver.taken
            rules_of = rules_of or type(rules)(rules.options)
            print(f"  {game} deal {i}: solve CPU {c * 1000:.0f} ms (wall {w * 1000:.0f} ms), {solver.nodes:,} positions, "
                  f"{c / solver.nodes * 1e6:.1f} µs a position, {solver.nodes / c:,.0f} positions/s", flush=True)
        if not cpu:
            print(f"{game}: no deal")
            continue
        r = rules_of

        def listed(xs):
            for x in xs:
                [a for a in r.legal_actions(x) if a.kind == "play"]

        def memoised(xs):
            fresh = type(r)(r.options)
            for x in xs:
                fresh.card_plays(x)

        def advanced(xs):
            for x, a in xs:
                r.advance(x, a)

        def played(xs):
            for x, a in xs:
                r.play_card(x, a)

        print(f"{game}: {len(cpu)} deals; solve CPU median {statistics.median(cpu):.2f} s, worst {max(cpu):.2f} s; "
              f"{sum(cpu) / sum(nodes) * 1e6:.1f} µs a position ({sum(nodes) / sum(cpu):,.0f} positions/s)")
        print(f"{'':{len(game) + 1}} legal cards: legal_actions filtered {per_call(listed, moved):.2f} µs, card_plays "
              f"{per_call(memoised, moved):.2f} µs; transition: advance {per_call(advanced, taken):.2f} µs, play_card "
              f"{per_call(played, taken):.2f} µs ({len(moved):,} and {len(taken):,} calls)")


if __name__ == "__main__":
    main()
