"""``jojotte analyze``: double-dummy analysis of the hands of every game, and the what-if of a dispute."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from .common import echo, fail, progress

HELP = """Give every card of two-player hands its double-dummy cost: the points it gives away against
best play by both players, with the best card(s) and marks (inaccuracy: costs points; mistake:
20 points or more; blunder: changes who wins the hand, or a Slam or Nullo). Three-player forms
(jojotte-3, jojotte-4s, the box) are analysed for the two who play: the declarer (the Nullo
bidder) and the active defender; their comments say whose value eval is (vs=A-C). Four players
in partnerships (jojotte-4p) are analysed exactly from trick 3 (24 cards left), for the sides
(vs=N+S-E+W), and the output says where the analysis starts. Baloot hands are analysed exactly
over their last six tricks (24 cards): eval is the card points the declaring team can force from
that card on (vs=N+S or vs=W+E); a mistake costs 10 card points or more. --from-trick 1 analyses
both from the first card (exact as well, slower: a few seconds a hand, up to about a minute
for the hardest Baloot deal of bench/analyze.py's first six). Four-handed
Pitch hands are analysed from the first lead: eval is the points of the bidding side from that card
on; every point given away is a mistake.

After each card, alts= gives the value (on the scale of eval) of every legal card the player had.
--jobs N analyses the hands in N worker processes (0: every core), with the same output as one.

--out writes the records annotated with {[%dd eval=… cost=… best=… mark=…]} after each card
(eval: the forced value of the whole hand after the card, A minus B: the trick-score difference,
in a Nullo the Nullo's score). Hands of other forms, without card play, with unrecorded cards
or ending in a claim are listed as not analysed.

What-if: --hand N --at TRICK.CARD --play CARD replays hand N of one file with CARD at that
point (the record's cards before it), best play by both afterwards, and prints the score; in every
game (Baloot, Pitch and four players in partnerships: solved from that card on).

Examples:

  jojotte analyze examples/spec-rubber.jjt

  jojotte analyze records/ --json > analysis.json

  jojotte analyze session.jjt --out annotated.jjt

  jojotte analyze baloot-night.jjt --from-trick 1 --jobs 0

  jojotte analyze session.jjt --hand 2 --at 3.2 --play KS
"""


def register(app: typer.Typer) -> None:
    app.command("analyze", help=HELP)(analyze)


def analyze(
    paths: Annotated[list[str], typer.Argument(help="Record files or folders; - for standard input.")],
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the annotated records here (canonical notation).")] = None,
    hand: Annotated[int | None, typer.Option("--hand", help="What-if: the hand number.")] = None,
    at: Annotated[str | None, typer.Option("--at", help="What-if: TRICK.CARD, e.g. 3.2.")] = None,
    play: Annotated[str | None, typer.Option("--play", help="What-if: the card to play there (\"KH jo\" with a word).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes for the hands (0: every core); "
                                      "the same output as one.")] = 1,
    from_trick: Annotated[int | None, typer.Option("--from-trick", help="Four players in partnerships and Baloot: "
                                                   "analyse from this trick on (1: the first card; default 3).")] = None,
) -> None:
    from jojotte_records.analyze.jojotte import analysis_json, analyze_paths, write_annotated
    from jojotte_records.games import unreadable_tags
    from jojotte_records.replay.files import dump_json

    if hand is not None or at is not None or play is not None:
        if hand is None or at is None or play is None or len(paths) != 1:
            fail("the what-if needs one FILE, --hand, --at and --play")
        _what_if(paths[0], hand, at, play, json_out)
        return
    if jobs < 0:
        fail("--jobs must be 0 (every core) or a positive number")
    if from_trick is not None and not 1 <= from_trick <= 8:
        fail("--from-trick must be a trick from 1 to 8")
    results = []
    with progress("analysing hands") as advance:
        for r in analyze_paths(paths, on_hand=lambda h: advance(1), jobs=jobs, from_trick=from_trick):
            results.append(r)
            if not json_out:
                _print_file(r)
    if out is not None:
        tmp = out.with_name(out.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            write_annotated(results, f)
        tmp.replace(out)
    if json_out:
        dump_json(analysis_json(results), sys.stdout)
    else:
        doc = analysis_json(results)["summary"]
        echo(f"{doc['files']} file(s), {doc['hands']} hand(s), {doc['analysed']} analysed, {doc['cards']} card(s)")
    unreadable = [i for r in results for s in r.sessions for i in unreadable_tags(s.header)]
    for issue in unreadable:  # an unknown game or option: analysed as the default, and input not read (2)
        echo(str(issue), err=True)
    raise typer.Exit(2 if any(r.read_error for r in results) or unreadable else 0)


def _print_file(r) -> None:
    from jojotte_records.cards import card_name

    if r.read_error is not None:
        echo(str(r.read_error))
        return
    for s in r.sessions:
        for h in s.hands:
            where = f"{r.source}: hand {h.number}"
            if h.reason is not None:
                echo(f"{where}: not analysed: {h.reason}")
                continue
            if h.ending is not None:  # Baloot: the last tricks
                e = h.ending
                team = e.label.replace("+", "-") or ("N-S", "W-E")[e.team]
                who = "declarers" if e.unit == "card points" else "bidders"
                if len(s.labels) == 5:  # five-handed Pitch: the bidding side the call made (PIT-FIVE-4), the others
                    ours = {s.labels.index(x) for x in e.label.split("+")}
                    side = {seat: 0 if seat in ours else 1 for seat in range(5)}
                    names = [team, "-".join(x for i, x in enumerate(s.labels) if i not in ours)]
                else:
                    side = {seat: seat % 2 for seat in range(4)}
                    names = [("N-S", "W-E")[t] if e.unit == "card points" else ("N-S", "E-W")[t] for t in (0, 1)]
                costs = {t: sum(c.cost for c in e.cards if side[c.seat] == t) for t in (0, 1)}
                echo(f"{where}: analysed {h.note}: with best play the {who} ({team}) take {e.value} {e.unit} "
                           f"from there; cost {names[0]} {costs[0]}, {names[1]} {costs[1]}")
                for c in e.cards:
                    if c.marks:
                        echo(f"  trick {c.trick}, card {c.index}: {s.names[c.seat]} played {card_name(c.card)}: costs "
                                   f"{c.cost} {e.unit[:-1] if c.cost == 1 else e.unit} ({c.marks[0]}); best {' or '.join(card_name(b) for b in c.best)}")
                continue
            v = h.start
            names = h.labels(s.names)  # the two players (declarer and active defender in three-player forms), or sides
            parts = [f"{names[i]} cost {h.cost(i)}" + _marks(h, i) for i in (0, 1)]
            if v is None:  # four players in partnerships: the last tricks
                first = h.cards[0]
                echo(f"{where}: analysed {h.note}: best play from there {names[0]} minus {names[1]} "
                           f"{first.before} ({first.outcome_before.text(names)}); " + ", ".join(parts))
            else:
                echo(f"{where}: best play from the first lead: {names[0]} {v.points[0]}, {names[1]} {v.points[1]}"
                           f" ({v.outcome.text(names)}); " + ", ".join(parts))
            for c in h.cards:
                if c.marks:
                    best = " or ".join(card_name(b) + (f" {w}" if w else "") for b, w in c.best)
                    who = s.names[c.seat] if h.sides else names[c.seat]
                    echo(f"  trick {c.trick}, card {c.card_index}: {who} played {card_name(c.card)}"
                               f"{' ' + c.announce if c.announce else ''}: costs {c.cost} ({c.mark}); best {best}")


def _marks(h, seat: int) -> str:
    found = [f"{n} {_plural(m) if n > 1 else m}" for m in ("blunder", "mistake", "inaccuracy") if (n := h.count(seat, m))]
    return f" ({', '.join(found)})" if found else ""


def _what_if(path: str, hand: int, at: str, play: str, json_out: bool) -> None:
    from jojotte_records.analyze.jojotte import AnalysisError, IllegalPlayError, what_if_file
    from jojotte_records.games import unreadable_tags
    from jojotte_records.notation.model import SessionHeader
    from jojotte_records.replay.files import dump_json, open_records, read_error

    # what cannot be read is 2, as in every command (README, "Exit codes"), not the finding 1 of an illegal card:
    # a first, reading-only pass (standard input is read again from its spool)
    unreadable, sessions = [], 0
    try:
        for item in open_records(path):
            if isinstance(item, SessionHeader):
                sessions += 1
                unreadable.extend(unreadable_tags(item))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        fail(str(read_error(path, e)), 2)
    if not sessions:
        fail(f"{'<stdin>' if path == '-' else path}: no session found (a session starts with [Tag \"value\"] lines "
             "or a 'hand' line)", 2)
    try:
        result, names = what_if_file(path, hand, at, play)
    except IllegalPlayError as e:  # the card is not legal there: a finding
        fail(str(e), 1)
    except (AnalysisError, ValueError) as e:  # no such hand, trick or card, or --at / --play cannot be read: usage
        fail(str(e), 2)
    if json_out:
        dump_json(result.document(hand, at, play, names), sys.stdout)
    else:
        for line in result.text(hand, at, play, names):
            echo(line)
    for issue in unreadable:  # an unknown game or option: analysed as the default, and input not read (2)
        echo(str(issue), err=True)
    if unreadable:
        raise typer.Exit(2)


def _plural(mark: str) -> str:
    return "inaccuracies" if mark == "inaccuracy" else mark + "s"
