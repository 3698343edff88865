"""Writes the example Pitch event of this folder: three rounds, two tables, four teams of two (a round robin),
each table a whole game of four-handed Pitch to 52 with random legal play (seeded), so the session files validate.

    python examples/event-pitch/make_event.py
    jojotte event standings examples/event-pitch/event.toml
"""

from __future__ import annotations

import random
from pathlib import Path

from jojotte_records.notation.event_text import write_event_hand
from jojotte_records.replay.event_log import hand_lines, play_hand
from jojotte_records.notation.text import write_header
from jojotte_records.notation.model import EventHand, EventScore, SessionHeader
from jojotte_records.rules.pitch import PitchRules

HERE = Path(__file__).resolve().parent
TEAMS = {"Owls": ("Nell", "Sue"), "Crows": ("Ed", "Walt"), "Larks": ("Ann", "Cy"), "Wrens": ("Bo", "Di")}
# round -> tables (the team N-S, the team E-W)
SCHEDULE = {1: [("Owls", "Crows"), ("Larks", "Wrens")], 2: [("Owls", "Larks"), ("Crows", "Wrens")],
            3: [("Wrens", "Owls"), ("Larks", "Crows")]}


def game_text(rnd: int, table: int, players: tuple[str, ...], rng: random.Random) -> str:
    rules = PitchRules()
    dealer = rng.randrange(4)
    header = SessionHeader((("Event", "Pitch league 2027"), ("Site", "Fire hall"), ("Date", "2027.03.11"),
                            ("Round", str(rnd)), ("Table", str(table)), ("Game", "pitch"), ("Players", "; ".join(players)),
                            ("FirstDealer", rules.seat_labels[dealer])))
    out = [write_header(header)]
    sheet = rules.new_sheet()
    number = 0
    while not sheet.over:
        number += 1
        state, actions = play_hand(rules, dealer, rng)
        score = rules.hand_score(state, sheet)
        sheet = sheet.add(score)
        out.append("\n" + write_event_hand(EventHand(number, dealer, hand_lines(rules, dealer, actions),
                                                     EventScore(tuple(score.delta))), rules))
        dealer = rules.next_dealer(dealer)
    return "".join(out)


def main(out: Path = HERE) -> None:
    for rnd, tables in SCHEDULE.items():
        for tno, (ns, ew) in enumerate(tables, 1):
            players = (TEAMS[ns][0], TEAMS[ew][0], TEAMS[ns][1], TEAMS[ew][1])  # N E S W
            text = game_text(rnd, tno, players, random.Random(10 * rnd + tno))
            (out / f"r{rnd}t{tno}.jjt").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
