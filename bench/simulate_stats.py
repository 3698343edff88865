"""The figures of docs/simulate.md: statistics of simulated hands per game, replayed from their record.

    python bench/simulate_stats.py --hands 10000 --seed 1               # the default (plausible) policy
    python bench/simulate_stats.py --hands 10000 --seed 1 --policy uniform

Prints one Markdown table per game family, then the CPU and wall time it took.
"""

from __future__ import annotations

import argparse
import time

from jojotte_records.play.stats import hand_stats

JOJOTTE = [("jojotte", ""), ("jojotte-3", ""), ("jojotte-3box", ""), ("jojotte-4p", ""), ("jojotte-4s", "")]
PITCH = [("pitch", ""), ("pitch", "players=5"), ("pitch", "points=16")]


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "–"


def jojotte_table(rows) -> list[str]:
    out = ["| game | hands | void | suit | NT | Nullo (made) | Slam bids (made) | declarer wins | doubled | redoubled / doubled | unbid Slam |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, st in rows:
        k = st.get("contracts", 0)
        plain = k - st.get("slam", 0) - st.get("nullo", 0)
        out.append(f"| `{name}` | {st['hands']} | {pct(st.get('void', 0), st['hands'])} | {pct(st.get('suit', 0), k)} | "
                   f"{pct(st.get('nt', 0), k)} | {pct(st.get('nullo', 0), k)} ({st.get('nullo_made', 0)}) | "
                   f"{st.get('slam', 0)} ({st.get('slam_made', 0)}) | {pct(st.get('made', 0), plain)} | "
                   f"{pct(st.get('doubled', 0), k)} | {pct(st.get('redoubled', 0), st.get('doubled', 0))} | "
                   f"{pct(st.get('unbid_slam', 0), k)} |")
    return out


def baloot_table(st) -> list[str]:
    k = st["contracts"]
    levels = " / ".join(pct(st.get(f"level_{n}", 0), k) for n in (1, 2, 3, 4, 5))
    return ["| hands | all passed | Kawesh | Hokum | Sun | Ashkal | made | doubled | level 1 / 2 / 3 / 4 / gahwa | Al-kaboot |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|",
            f"| {st['hands']} | {pct(st.get('annulled_pass', 0), st['hands'])} | {pct(st.get('annulled_kawesh', 0), st['hands'])} | "
            f"{pct(st.get('hokum', 0), k)} | {pct(st.get('sun', 0), k)} | {pct(st.get('ashkal', 0), k)} | {pct(st.get('made', 0), k)} | "
            f"{pct(st.get('doubled', 0), k)} | {levels} | {pct(st.get('kaboot', 0), k)} |"]


def pitch_table(rows) -> list[str]:
    out = ["| variant | hands | bids 4 / 5 / 6 / 7 / 8 / 9 / 10+ | mean bid | dealer stuck at 4 | made | mean points taken | moon bid (made) |",
           "|---|---:|---|---:|---:|---:|---:|---:|"]
    for name, st in rows:
        k = st["contracts"]
        numeric = k - st.get("moon", 0)
        high = sum(v for key, v in st.items() if key.startswith("bid_") and key != "bid_sum" and int(key[4:]) >= 10)
        bids = " / ".join(pct(st.get(f"bid_{n}", 0), k) for n in range(4, 10)) + f" / {pct(high, k)}"
        out.append(f"| `{name or 'pitch'}` | {st['hands']} | {bids} | {st['bid_sum'] / numeric:.2f} | "
                   f"{pct(st.get('dealer_stuck', 0), k)} | {pct(st.get('made', 0), numeric)} | "
                   f"{st['points_sum'] / numeric:.2f} | {pct(st.get('moon', 0), k)} ({st.get('moon_made', 0)}) |")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="plausible")
    ap.add_argument("--only", choices=("jojotte", "baloot", "pitch"), help="one game family")
    args = ap.parse_args()
    cpu, wall = time.process_time(), time.perf_counter()
    if args.only in (None, "jojotte"):
        jj = [(g, hand_stats(g, args.hands, args.seed, v, args.policy)) for g, v in JOJOTTE]
        print(f"Jo-Jotte, {args.hands} hands per form, seed {args.seed}, policy {args.policy}:\n")
        print("\n".join(jojotte_table(jj)), flush=True)
    if args.only in (None, "baloot"):
        print(f"\nBaloot, {args.hands} hands:\n")
        print("\n".join(baloot_table(hand_stats("baloot", args.hands, args.seed, "", args.policy))), flush=True)
    if args.only in (None, "pitch"):
        print(f"\nPitch, {args.hands} hands per variant:\n")
        print("\n".join(pitch_table([(v, hand_stats(g, args.hands, args.seed, v, args.policy)) for g, v in PITCH])))
    print(f"\n{time.process_time() - cpu:.1f} s CPU, {time.perf_counter() - wall:.1f} s wall")


if __name__ == "__main__":
    main()
