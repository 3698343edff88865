"""Benchmark: the double-dummy analyzer on a fixed seeded set of simulated deals of every game.

    python bench/analyze.py                    # 20 deals per game (seed 1)
    python bench/analyze.py --deals 5 --seed 3 --games jojotte-4p,baloot
    python bench/analyze.py --games baloot --solve-only --each   # one game, each deal's figures, no hand analysis

For each game (two players, three players, four in partnerships, Baloot, Pitch) it takes the first ``--deals``
simulated hands that reach the card play with every card known, and measures on one core:

* **solve**: the exact value from the first card, a fresh solver with empty tables (two and three players: the
  two-player solver of `analyze.jojotte`; four players, Baloot, Pitch: the one solver `analyze.solver`);
* **outcome** (two and three players): who wins the hand from the first card by the outcome search of its own
  (`Solver.outcome_search`, a fresh solver; `analyze` asks it only where ``score_hand`` has no threshold shape);
* **hand**: ``jojotte analyze`` of the hand (`analyze_verdict`: every card judged, the values of every legal card,
  the annotations), as far as the analyzer goes (four players and Baloot: from the point where ``ENDGAME_CARDS``
  cards remain, 24, or ``--cards N``: 32 is from the first card; Pitch: not analysed card by card, so no figure).

It prints the median and worst per deal of each, CPU time (``time.process_time``) beside wall time, and the
targets of issue 17.
"""

from __future__ import annotations

import argparse
import statistics
import time

GAMES = ("jojotte", "jojotte-3", "jojotte-4p", "baloot", "pitch")
TARGETS = {
    "jojotte": "solve <= 20 ms median; hand <= 50 ms median",
    "jojotte-4p": "solve <= 1 s median, <= 10 s worst; every card of a hand <= 5 s median",
    "baloot": "solve <= 1 s median, <= 10 s worst; every card of a hand <= 5 s median",
    "pitch": "solve <= 200 ms median",
}


def deals(game: str, n: int, seed: int):
    """(rules, verdict, start state, script) of the first ``n`` simulated hands of ``game`` with a card play."""
    from jojotte_records.analyze.jojotte import _partnership_start, play_start, rules_for, two_player_form
    from jojotte_records.analyze.solver import script_of
    from jojotte_records.play.simulate import simulate_items
    from jojotte_records.replay.jojotte import validate_stream

    found = 0
    for summary, vs in validate_stream(simulate_items(game, n * 3, seed)):
        rules = getattr(summary, "rules", None) or rules_for(summary.header)
        for v in vs:
            if found >= n or v.state is None or v.state.phase != "done" or v.issues:
                continue
            try:
                if game in ("jojotte", "jojotte-3"):
                    core, view, _ = two_player_form(rules, v)
                    s, script = (core, play_start(core, view.state)), None
                elif game == "jojotte-4p":
                    s, script = _partnership_start(rules, v.state), None
                else:
                    acts = list(v.actions)
                    if not any(a.kind == "play" for a in acts) or (game == "baloot" and v.state.declarer < 0):
                        continue
                    s, k = rules.initial_state(v.record.dealer, None), 0
                    while not (s.phase == "play" and acts[k].kind == "play"):
                        s, k = rules.advance(s, acts[k]), k + 1
                    script = script_of(acts[k:]) if game == "baloot" else None
            except Exception:  # noqa: BLE001 - a hand the analyzer cannot see whole (a claim): not in the set
                continue
            found += 1
            yield rules, v, s, script


def solve(game: str, rules, s, script) -> int:
    if game in ("jojotte", "jojotte-3"):
        from jojotte_records.analyze.jojotte import Solver

        core, start = s
        solver = Solver(core, start)
        solver.diff(start, guess=0)
        return solver.nodes
    from jojotte_records.analyze.solver import Solver, view_for

    solver = Solver(view_for(rules, s, script))
    solver.value(s)
    return solver.nodes


def outcome(s) -> int:
    from jojotte_records.analyze.jojotte import Solver

    core, start = s
    solver = Solver(core, start)
    solver.outcome_search(start)
    return solver.nodes


def ms(xs: list[float]) -> str:
    return f"median {statistics.median(xs) * 1000:8.1f} ms, worst {max(xs) * 1000:8.1f} ms"


def timed(fn):
    c, w = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c, time.perf_counter() - w


def main() -> None:
    from jojotte_records.analyze.jojotte import analyze_verdict

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=20, help="deals per game (default 20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--solve-only", action="store_true", help="only the solve from the first card, no hand analysis")
    ap.add_argument("--each", action="store_true", help="print each deal's CPU time and positions")
    ap.add_argument("--cards", type=int, default=0,
                    help="four players and Baloot: analyse each hand from the point where N cards remain (32: the first "
                         "card; default: the analyzer's ENDGAME_CARDS)")
    args = ap.parse_args()
    from jojotte_records.analyze.endings import ENDGAME_CARDS

    cards = args.cards or ENDGAME_CARDS
    run_c, run_w = time.process_time(), time.perf_counter()
    for game in args.games.split(","):
        cpu, wall, nodes, hand_cpu, hand_wall, oc_cpu, oc_wall = [], [], [], [], [], [], []
        for rules, v, s, script in deals(game, args.deals, args.seed):
            n, c, w = timed(lambda: solve(game, rules, s, script))
            cpu.append(c)
            wall.append(w)
            nodes.append(n)
            if args.each:
                print(f"  {game} deal {len(cpu)}: solve CPU {c * 1000:.0f} ms, {n:,} positions", flush=True)
            if game in ("jojotte", "jojotte-3"):
                _, c, w = timed(lambda: outcome(s))
                oc_cpu.append(c)
                oc_wall.append(w)
            if game != "pitch" and not args.solve_only:
                h, c, w = timed(lambda: analyze_verdict(v, rules, cards))
                assert h.reason is None, h.reason
                hand_cpu.append(c)
                hand_wall.append(w)
                if args.each:
                    print(f"  {game} deal {len(cpu)}: hand CPU {c * 1000:.0f} ms", flush=True)
        if not cpu:
            print(f"{game}: no deal with a card play")
            continue
        print(f"{game}: {len(cpu)} deals (seed {args.seed}); solve from the first card: CPU {ms(cpu)}; wall {ms(wall)}; "
              f"median {statistics.median(nodes):,.0f} positions")
        if oc_cpu:
            print(f"{'':{len(game) + 1}} outcome search from the first card: CPU {ms(oc_cpu)}; wall {ms(oc_wall)}")
        if hand_cpu:
            what = f"the last {cards} cards" if game in ("jojotte-4p", "baloot") else "every card"
            print(f"{'':{len(game) + 1}} analyse a hand ({what}): CPU {ms(hand_cpu)}; wall {ms(hand_wall)}")
        if game in TARGETS:
            print(f"{'':{len(game) + 1}} target (issue 17): {TARGETS[game]}")
    print(f"the whole run: CPU {time.process_time() - run_c:.1f} s, wall {time.perf_counter() - run_w:.1f} s")


if __name__ == "__main__":
    main()
