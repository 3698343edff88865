"""Benchmark: the double-dummy solvers on simulated deals of every game; print positions/s and ms per deal and per hand.

    python bench/analyze.py                 # 200 deals (seed 1)
    python bench/analyze.py --deals 50 --seed 3

For each simulated hand that reaches the card play it measures, on one core:

* **solve**: the exact points value from the first lead (a fresh `Solver`, empty tables);
* **analyse**: `analyze_hand`, every card of the hand (value before and after each card, the
  best cards, the forced outcome), as ``jojotte analyze`` does.

It prints the median and worst time of each, and the positions searched per second. Times are
CPU time of this process (``time.process_time``), so that other load on the machine counts less.
Then the one solver of issue 17 (`jojotte_records.analyze.solver`) from the first card: Pitch (``--deals``
deals), four-player Jo-Jotte and Baloot (``--four-deals``), CPU beside wall time.
"""

from __future__ import annotations

import argparse
import statistics
import time

from jojotte_records.analyze.jojotte import Solver, analyze_hand, play_start
from jojotte_records.play.simulate import simulate_session
from jojotte_records.replay.jojotte import validate_stream
from jojotte_records.rules.jojotte import JojotteRules


def main() -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--four-deals", type=int, default=5, help="deals of Baloot and four-player Jo-Jotte solved from the first card")
    args = ap.parse_args()
    rules = JojotteRules()
    header, hands = simulate_session(hands=args.deals, seed=args.seed)
    verdicts = [v for _, vs in validate_stream([header, *hands]) for v in vs
                if v.state is not None and v.state.phase == "done"]
    solve_t, solve_nodes, hand_t = [], [], []
    clock = time.process_time
    for v in verdicts:
        start = play_start(rules, v.state)
        t = clock()
        solver = Solver(rules, start)
        solver.diff(start, guess=0)
        solve_t.append(clock() - t)
        solve_nodes.append(solver.nodes)
        t = clock()
        analyze_hand(v, rules)
        hand_t.append(clock() - t)
    n = len(verdicts)

    def ms(xs: list[float]) -> str:
        return f"median {statistics.median(xs) * 1000:6.1f} ms, worst {max(xs) * 1000:6.1f} ms"

    print(f"{n} deals played out of {args.deals} simulated (seed {args.seed}), two-player Jo-Jotte")
    print(f"solve from the first lead:  {ms(solve_t)};  {sum(solve_nodes) / sum(solve_t):,.0f} positions/s, "
          f"median {statistics.median(solve_nodes):,.0f} positions per deal")
    print(f"analyse every card of hand: {ms(hand_t)};  {n / sum(hand_t):.1f} hands/s")
    print("targets (issue 8): solve under 20 ms median and 200 ms worst; analyse a hand under 50 ms median")
    # the other forms: three players (the declarer and the active defender), four in partnerships (from 16 cards)
    from jojotte_records.analyze.jojotte import analyze_verdict, rules_for

    for game, what in (("jojotte-3", "three players, every card"), ("jojotte-4p", "four players, the last 16 cards")):
        header, hands = simulate_session(game=game, hands=max(args.deals // 5, 1), seed=args.seed)
        form = rules_for(header)
        times = []
        for v in (v for _, vs in validate_stream([header, *hands]) for v in vs):
            if v.state is not None and v.state.phase == "done":
                t = clock()
                analyze_verdict(v, form)
                times.append(clock() - t)
        print(f"{game} ({what}): {len(times)} hands, {ms(times)} per hand (jojotte analyze, annotations included)")
    # Baloot: the last four tricks, exactly (analyze_events)
    from jojotte_records.play.simulate import simulate_items

    items = list(simulate_items("baloot", max(args.deals // 5, 1), args.seed))
    times = []
    for summary, vs in validate_stream(items):
        for v in vs:
            if v.state is not None and v.state.phase == "done" and v.state.declarer >= 0:
                t = clock()
                analyze_verdict(v, summary.rules)
                times.append(clock() - t)
    print(f"baloot (the last 16 cards): {len(times)} hands, {ms(times)} per hand (jojotte analyze, annotations included)")
    first_card(args)
    print(f"the whole run: cpu {time.process_time() - cpu:.1f} s, wall {time.perf_counter() - wall:.1f} s")


def first_card(args) -> None:
    """The one solver (`solver`, issue 17) from the first card: Baloot, four-player Jo-Jotte, Pitch."""
    from jojotte_records.analyze.jojotte import _partnership_start, rules_for
    from jojotte_records.analyze.solver import Solver, script_of, view_for
    from jojotte_records.play.simulate import simulate_items

    def positions(game: str, deals: int):
        items = list(simulate_items(game, deals * 3, args.seed))
        found = 0
        for summary, vs in validate_stream(items):
            rules = getattr(summary, "rules", None) or rules_for(summary.header)
            for v in vs:
                if found >= deals or v.state is None or v.state.phase != "done":
                    continue
                if game == "jojotte-4p":
                    s, script = _partnership_start(rules, v.state), None
                else:
                    acts = list(v.actions)
                    if not any(a.kind == "play" for a in acts) or (game == "baloot" and v.state.declarer < 0):
                        continue
                    s, k = rules.initial_state(v.record.dealer, None), 0
                    while not (s.phase == "play" and acts[k].kind == "play"):
                        s, k = rules.advance(s, acts[k]), k + 1
                    script = script_of(acts[k:]) if game == "baloot" else None
                found += 1
                yield rules, s, script

    for game, deals in (("pitch", args.deals), ("jojotte-4p", args.four_deals), ("baloot", args.four_deals)):
        cpu, wall, nodes = [], [], []
        for rules, s, script in positions(game, deals):
            solver = Solver(view_for(rules, s, script))
            t, w = time.process_time(), time.perf_counter()
            solver.value(s)
            cpu.append(time.process_time() - t)
            wall.append(time.perf_counter() - w)
            nodes.append(solver.nodes)
        if not cpu:
            continue
        print(f"{game} from the first card (solver.Solver): {len(cpu)} deals; CPU {ms(cpu)}; wall {ms(wall)}; "
              f"median {statistics.median(nodes):,.0f} positions, {sum(nodes) / sum(cpu):,.0f} positions/s")
    print("targets (issue 17): Baloot and four-player Jo-Jotte solve ≤ 1 s median, ≤ 10 s worst; Pitch ≤ 200 ms median")


def ms(xs: list[float]) -> str:
    return f"median {statistics.median(xs) * 1000:6.1f} ms, worst {max(xs) * 1000:6.1f} ms"


if __name__ == "__main__":
    main()
