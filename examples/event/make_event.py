"""Writes the example event of this folder: three rounds, four tables, the same eight deals at every
table of a round (duplicate), random legal play (seeded), so the session files validate.

    python examples/event/make_event.py
"""

from __future__ import annotations

import random
from pathlib import Path

from jojotte_records.notation.text import write_hand, write_header
from jojotte_records.notation.model import SessionHeader, WrittenScore
from jojotte_records.rules.jojotte import JojotteRules
from jojotte_records.rules.jojotte_sheet import ScoreSheet
from jojotte_records.play.simulate import _one_hand

HERE = Path(__file__).resolve().parent
HANDS = 8
# round -> tables (player A, player B)
SCHEDULE = {
    1: [("Alice", "Bob"), ("Carol", "Dan"), ("Eve", "Frank"), ("Grace", "Heidi")],
    2: [("Alice", "Carol"), ("Bob", "Dan"), ("Eve", "Grace"), ("Frank", "Heidi")],
    3: [("Alice", "Eve"), ("Bob", "Frank"), ("Carol", "Grace"), ("Dan", "Heidi")],
}


def main(out: Path = HERE) -> None:
    rules = JojotteRules()
    for rnd, tables in SCHEDULE.items():
        deck = random.Random(1000 + rnd)
        packs = []
        for _ in range(HANDS):
            pack = sorted(rules.pack.cards)
            deck.shuffle(pack)
            packs.append(pack)
        for tno, (a, b) in enumerate(tables, 1):
            rng = random.Random(100 * rnd + tno)
            header = SessionHeader((("Event", "Autumn Cup 2026"), ("Site", "Club house"), ("Date", "2026.11.28"),
                                    ("Round", str(rnd)), ("Table", str(tno)), ("Game", "jojotte"),
                                    ("Players", f"{a}; {b}"), ("FirstDealer", "A")))
            text = [write_header(header)]
            sheet = ScoreSheet.empty(2)
            dealer = 0
            for n, pack in enumerate(packs, 1):
                rec, state = _one_hand(rules, n, dealer, list(pack), rng)
                sheet, entry = sheet.add(rules.score_hand(state), rules.options)
                rec = rec._replace(score=WrittenScore((entry.below(0), entry.below(1)), (entry.above(0), entry.above(1)),
                                                      entry.held_aside))
                text.append("\n" + write_hand(rec, rules.seat_labels))
                dealer = rules.next_dealer(dealer)
            (Path(out) / f"r{rnd}t{tno}.jjt").write_text("".join(text), encoding="utf-8")


if __name__ == "__main__":
    main()
