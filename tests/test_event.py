"""Events: the event file, `event check`, standings against figures computed by hand, duplicate deals, the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jojotte_records.cli.main import app
from test_recorder import README_TEXT
from typer.testing import CliRunner

from conftest import EXAMPLES
from jojotte_records.notation.text import read_sessions
from jojotte_records.table.tournament import (
    Event,
    EventError,
    build_event_site,
    check_event,
    deal_hash,
    duplicate_boards,
    load_event,
    standings,
)

runner = CliRunner()


def summary_hand(number: int, declarer_points: int, defender_points: int) -> str:
    """A hand recorded as a summary: B deals, A accepts the turned suit, nobody melds; A and B's trick points.

    Worked by hand (JJ-SCORE-3/4): when A's trick score is higher, A writes it below and B his above;
    when B's is higher, B writes both below (162 in all)."""
    assert declarer_points + defender_points == 162
    dealer, decl, dfd = ("B", "A", "B") if number % 2 else ("A", "B", "A")
    return (f"hand {number} dealer {dealer}\nturned 9H\nauction {decl} accept, {dealer} pass\n"
            f"after {dfd} pass, {decl} pass, {decl} pass\n"
            f"result {decl} 5 tricks {declarer_points} points, {dfd} 4 tricks {defender_points} points\n")


def session(players: tuple[str, str], hands: list[str], rnd: int | None = None, table: int | None = None) -> str:
    tags = '[Event "Test cup"]\n'
    if rnd is not None:
        tags += f'[Round "{rnd}"]\n[Table "{table}"]\n'
    tags += f'[Game "jojotte"]\n[Players "{players[0]}; {players[1]}"]\n[FirstDealer "B"]\n'
    return tags + "".join("\n" + h for h in hands)


def write_event(folder: Path, rounds: dict, extra: str = "", files: dict | None = None) -> Path:
    """rounds: {round: [(players, hands), …]}; writes the sessions and the event file."""
    lines = ['[event]', 'name = "Test cup"', 'game = "jojotte"', extra, '']
    for rnd, tables in rounds.items():
        lines += ["[[round]]", f"number = {rnd}"]
        for t, (players, hands) in enumerate(tables, 1):
            name = f"r{rnd}t{t}.jjt"
            if hands is not None:
                (folder / name).write_text(session(players, hands, rnd, t), encoding="utf-8")
            lines += ["[[round.table]]", f"table = {t}", f'players = ["{players[0]}", "{players[1]}"]', f'file = "{name}"']
    path = folder / "event.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# Two rounds, four players, one hand a table (A declares in every hand and B deals):
#   round 1: Alice 100 v Bob 62 (Alice wins)        Carol 100 v Dan 62 (Carol wins)
#   round 2: Dan 110 v Alice 52 (Dan wins)          Bob 90 v Carol 72 (Bob wins)
# Everybody won one match. Points: Carol 100+72 = 172, Dan 62+110 = 172, Alice 100+52 = 152, Bob 62+90 = 152.
# Head to head: Carol beat Dan, Alice beat Bob. So: 1 Carol, 2 Dan, 3 Alice, 4 Bob.
TIED = {
    1: [(("Alice", "Bob"), [summary_hand(1, 100, 62)]), (("Carol", "Dan"), [summary_hand(1, 100, 62)])],
    2: [(("Dan", "Alice"), [summary_hand(1, 110, 52)]), (("Bob", "Carol"), [summary_hand(1, 90, 72)])],
}


def test_standings_break_ties_by_points_then_head_to_head(tmp_path):
    ev = load_event(write_event(tmp_path, TIED))
    check = check_event(ev)
    assert check.ok, check.problems
    rows = [(s.rank, s.name, s.won, s.points, s.head_to_head) for s in standings(ev, check.tables)]
    assert rows == [(1, "Carol", 1, 172, 1.0), (2, "Dan", 1, 172, 0.0), (3, "Alice", 1, 152, 1.0), (4, "Bob", 1, 152, 0.0)]
    # after round 1: Alice and Carol won with 100; Bob and Dan lost with 62, and they have not met: they share the rank
    after1 = [(s.rank, s.name, s.match_points, s.points, s.head_to_head) for s in standings(ev, check.tables, 1)]
    assert after1 == [(1, "Alice", 1.0, 100, 0.0), (1, "Carol", 1.0, 100, 0.0), (3, "Bob", 0.0, 62, 0.0), (3, "Dan", 0.0, 62, 0.0)]


def test_points_decide_before_head_to_head(tmp_path):
    # round 1: Alice 100 v Bob 62, Carol 90 v Dan 72; round 2: Alice 0 v Carol 162 (Carol's defence wins the combined
    # score below the line, JJ-SCORE-4), Bob 100 v Dan 62.
    # Carol 2 wins 252; Bob 1 win 162; Alice 1 win 100; Dan 0 wins 134.
    rounds = {
        1: [(("Alice", "Bob"), [summary_hand(1, 100, 62)]), (("Carol", "Dan"), [summary_hand(1, 90, 72)])],
        2: [(("Alice", "Carol"), [summary_hand(1, 62, 100)]), (("Bob", "Dan"), [summary_hand(1, 100, 62)])],
    }
    ev = load_event(write_event(tmp_path, rounds))
    rows = [(s.rank, s.name, s.won, s.lost, s.points) for s in standings(ev, check_event(ev).tables)]
    assert rows == [(1, "Carol", 2, 0, 252), (2, "Bob", 1, 1, 162), (3, "Alice", 1, 1, 100), (4, "Dan", 0, 2, 134)]


def test_rank_by_rubbers(tmp_path):
    # Alice v Bob, two hands. Hand 1: Alice declares, 110 v 52: Alice 110 below (a game, 80), Bob 52 above.
    # Hand 2: A deals, Bob declares, 72 v Alice's 90: the defender's is higher, so Alice writes the combined
    # 162 below (JJ-SCORE-4): her second game, the rubber and its bonus of 300. Alice 110 + 162 + 300 = 572, Bob 52.
    # Carol v Dan, one hand: Carol 100, Dan 62. Rubbers first: Alice 1; then points: Carol 100, Dan 62, Bob 52.
    rounds = {1: [(("Alice", "Bob"), [summary_hand(1, 110, 52), summary_hand(2, 72, 90)]),
                  (("Carol", "Dan"), [summary_hand(1, 100, 62)])]}
    ev = load_event(write_event(tmp_path, rounds, 'rank_by = "rubbers"'))
    check = check_event(ev)
    assert check.ok, check.problems
    rows = [(s.rank, s.name, s.rubbers, s.points) for s in standings(ev, check.tables)]
    assert rows == [(1, "Alice", 1, 572), (2, "Carol", 0, 100), (3, "Dan", 0, 62), (4, "Bob", 0, 52)]


def test_check_lists_what_is_missing_or_disputed(tmp_path):
    wrong = summary_hand(1, 100, 62) + "score A below 110, B above 62\n"  # 100 is right (JJ-SCORE-3)
    rounds = {1: [(("Alice", "Bob"), [wrong]), (("Carol", "Dan"), None)],
              2: [(("Alice", "Carol"), [summary_hand(1, 100, 62)]), (("Bob", "Dan"), [summary_hand(1, 100, 62)])]}
    path = write_event(tmp_path, rounds, "hands = 1")
    (tmp_path / "r2t2.jjt").write_text(session(("Bob", "Eve"), [summary_hand(1, 100, 62)], 2, 2), encoding="utf-8")
    ev = load_event(path)
    check = check_event(ev)
    kinds = sorted((p.round, p.table, p.kind, p.rule) for p in check.problems)
    assert kinds == [(1, 1, "disputed", "JJ-SCORE-3"), (1, 2, "missing", ""), (2, 2, "players", "")]
    result = runner.invoke(app, ["event", "check", str(path)])
    assert result.exit_code == 1
    assert "round 1 table 2: no session file r1t2.jjt" in result.output
    assert "written 110, but is 100" in result.output
    assert "1 of 4 table(s) ok, 1 disputed, 1 missing, 1 players" in result.output
    doc = json.loads(runner.invoke(app, ["event", "check", str(path), "--json"]).output)
    assert doc["ok"] is False and len(doc["problems"]) == 3


def test_check_counts_hands_against_the_event(tmp_path):
    rounds = {1: [(("Alice", "Bob"), [summary_hand(1, 100, 62)])]}
    ev = load_event(write_event(tmp_path, rounds, "hands = 2"))
    [p] = check_event(ev).problems
    assert (p.kind, p.message) == ("incomplete", "1 of 2 hands recorded")


@pytest.mark.parametrize("body, message", [
    ("", "the [event] table with a name is missing"),
    ('[event]\nname = "x"\ngame = "bridge"\n', "unknown game 'bridge'"),
    ('[event]\nname = "x"\n', "no [[round]] is given"),
    ('[event]\nname = "x"\n[[round]]\n[[round.table]]\nplayers = ["A"]\nfile = "f.jjt"\n', "players is a list of the 2 players"),
    ('[event]\nname = "x"\n[[round]]\n[[round.table]]\nplayers = ["A", "B"]\nfile = "f.jjt"\n[[round.table]]\nplayers = ["A", "C"]\nfile = "g.jjt"\n',
     "'A' plays at two tables in round 1"),
    ("not toml [", "not a TOML event file"),
])
def test_a_bad_event_file_is_an_error_that_says_why(tmp_path, body, message):
    path = tmp_path / "event.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(EventError, match=message.replace("[", r"\[").replace("(", r"\(")):
        load_event(path)
    result = runner.invoke(app, ["event", "check", str(path)])
    assert result.exit_code == 2


def test_standings_command_text_and_json(tmp_path):
    path = write_event(tmp_path, TIED)
    result = runner.invoke(app, ["event", "standings", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.index("Carol") < result.output.index("Dan") < result.output.index("Alice") < result.output.index("Bob")
    assert "then total points, then head to head" in result.output
    doc = json.loads(runner.invoke(app, ["event", "standings", str(path), "--json"]).output)
    assert [s["name"] for s in doc["standings"]] == ["Carol", "Dan", "Alice", "Bob"]
    assert [r["round"] for r in doc["rounds"]] == [1, 2]
    assert doc["rounds"][0]["tables"][0] == {"table": 1, "file": "r1t1.jjt", "players": ["Alice", "Bob"], "sides": ["Alice", "Bob"],
                                             "hands": 1, "points": [100, 62], "rubbers": [0, 0], "winner": "Alice", "winners": ["Alice"],
                                             "status": "ok"}


# --- duplicate deals ------------------------------------------------------------------------------------

README_SESSION_HEAD = '[Event "Test cup"]\n[Game "jojotte"]\n[Players "{a}; {b}"]\n[FirstDealer "B"]\n\n'
# the README's deal, thrown in at the other table (all pass): the same board, another result
VOID_HAND = """hand 1 dealer B
deal A: AS TS KH QH JH 7H; B: AH TH 8H AC KC TC
turned 9H
auction A pass, B pass, A pass, B pass
score none
"""


def test_the_same_deal_is_recognised_across_tables_and_compared(tmp_path):
    (tmp_path / "r1t1.jjt").write_text(README_SESSION_HEAD.format(a="Alice", b="Bob") + README_TEXT, encoding="utf-8")
    (tmp_path / "r1t2.jjt").write_text(README_SESSION_HEAD.format(a="Carol", b="Dan") + VOID_HAND, encoding="utf-8")
    event = tmp_path / "event.toml"
    event.write_text('[event]\nname = "Test cup"\nduplicate = true\n[[round]]\n'
                     'table = [{table = 1, players = ["Alice", "Bob"], file = "r1t1.jjt"},\n'
                     '         {table = 2, players = ["Carol", "Dan"], file = "r1t2.jjt"}]\n', encoding="utf-8")
    ev = load_event(event)
    check = check_event(ev)
    assert check.ok, check.problems
    h1 = deal_hash(read_sessions(README_TEXT)[0].hands[0])
    h2 = deal_hash(read_sessions(VOID_HAND)[0].hands[0])
    assert h1 == h2 and h1 is not None
    [board] = duplicate_boards(ev, check.tables)
    assert (board.round, board.hand, board.dealer) == (1, 1, "B")
    got = [(r.table, r.players, r.contract, r.tricks, r.below, r.above, r.net) for r in board.results]
    assert got == [(1, ("Alice", "Bob"), "A H", (6, 3), (110, 0), (20, 40), 90),
                   (2, ("Carol", "Dan"), "all pass", (), (0, 0), (0, 0), 0)]
    # the report: an event page linking every session, and the comparison page
    site = build_event_site(ev, tmp_path / "site")
    page = site.event_page.read_text(encoding="utf-8")
    assert 'href="sessions/round-1-table-1/index.html"' in page and 'href="sessions/round-1-table-2/index.html"' in page
    assert "Standings after round 1" in page and 'href="duplicates.html"' in page
    dup = site.duplicates_page.read_text(encoding="utf-8")
    assert "all pass" in dup and 'href="sessions/round-1-table-1/hands-0001.html#hand-1"' in dup


def test_a_duplicate_event_says_when_a_table_played_another_deal(tmp_path):
    other = VOID_HAND.replace("turned 9H", "turned 9D")
    (tmp_path / "a.jjt").write_text(README_SESSION_HEAD.format(a="Alice", b="Bob") + README_TEXT, encoding="utf-8")
    (tmp_path / "b.jjt").write_text(README_SESSION_HEAD.format(a="Carol", b="Dan") + other, encoding="utf-8")
    event = tmp_path / "event.toml"
    event.write_text('[event]\nname = "Test cup"\nduplicate = true\n[[round]]\n'
                     'table = [{table = 1, players = ["Alice", "Bob"], file = "a.jjt"},\n'
                     '         {table = 2, players = ["Carol", "Dan"], file = "b.jjt"}]\n', encoding="utf-8")
    [p] = check_event(load_event(event)).problems
    assert (p.round, p.table, p.kind) == (1, 2, "duplicate")
    assert "hand 1 is not the deal played at table 1" in p.message


def test_deal_hash_needs_the_whole_deal():
    hand = read_sessions(README_TEXT)[0].hands[0]
    assert deal_hash(hand._replace(dealt=(hand.dealt[0], None))) is None
    assert deal_hash(hand._replace(turned=None)) is None
    assert deal_hash(hand._replace(dealer=0)) != deal_hash(hand)


# --- the example event -----------------------------------------------------------------------------------

def test_the_example_event_checks_ranks_and_reports(tmp_path):
    path = EXAMPLES / "event" / "event.toml"
    ev = load_event(path)
    assert (len(ev.rounds), len(ev.tables)) == (3, 12)
    check = check_event(ev)
    assert check.ok, [p.text() for p in check.problems]
    rows = standings(ev, check.tables)
    assert len(rows) == 8 and rows[0].played == 3
    assert sum(s.won for s in rows) + sum(s.drawn for s in rows) / 2 == 12
    boards = duplicate_boards(ev, check.tables)
    assert len(boards) == 24 and all(len(b.results) == 4 for b in boards)
    result = runner.invoke(app, ["event", "report", str(path), "--out", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "site" / "event.html").is_file() and (tmp_path / "site" / "duplicates.html").is_file()


def test_the_archive_recognises_a_deal_across_tables(tmp_path):
    from jojotte_records.archive.store import import_paths, run_sql

    (tmp_path / "t1.jjt").write_text('[Round "1"]\n[Table "1"]\n' + README_SESSION_HEAD.format(a="Alice", b="Bob")
                                     + README_TEXT, encoding="utf-8")
    (tmp_path / "t2.jjt").write_text('[Round "1"]\n[Table "2"]\n' + README_SESSION_HEAD.format(a="Carol", b="Dan")
                                     + VOID_HAND, encoding="utf-8")
    db = tmp_path / "a.duckdb"
    assert all(f.status != "error" for f in import_paths(db, [str(tmp_path / "t1.jjt"), str(tmp_path / "t2.jjt")]))
    rows = run_sql(db, "SELECT deal_hash, table_label, contract FROM v_duplicate_deals ORDER BY table_label").rows
    h = deal_hash(read_sessions(README_TEXT)[0].hands[0])
    assert rows == [(h, "1", "turned_suit"), (h, "2", "void")]


def test_record_a_table_of_an_event(tmp_path):
    event = tmp_path / "event.toml"
    event.write_text('[event]\nname = "Mini"\ndate = "2026.12.01"\nhands = 1\n[[round]]\n'
                     'table = [{table = 1, players = ["Alice", "Bob"], file = "r1t1.jjt"}]\n', encoding="utf-8")
    answers = "B\nJH KH QH 7H AS TS\nAH TH 8H AC TC KC\n9H\npass\npass\npass\npass\nquit\n"
    result = runner.invoke(app, ["record", "--event-file", str(event), "--round", "1", "--table", "1"], input=answers)
    assert result.exit_code == 0, result.output
    assert "hand 1 saved: score none" in result.output
    assert "all 1 hands are recorded: the session is complete" in result.output
    text = (tmp_path / "r1t1.jjt").read_text(encoding="utf-8")
    assert '[Event "Mini"]' in text and '[Round "1"]' in text and '[Players "Alice; Bob"]' in text
    assert check_event(load_event(event)).ok
    result = runner.invoke(app, ["record", "--event-file", str(event), "--round", "2", "--table", "1"], input="")
    assert result.exit_code == 2 and "no round 2 table 1" in result.output


def test_teams_in_a_partnership_event(tmp_path):
    from jojotte_records.notation.text import write_hand, write_header
    from jojotte_records.play.simulate import simulate_session

    players = {1: ["Ann", "Bea", "Cid", "Dot"], 2: ["Ann", "Dot", "Cid", "Bea"]}  # N E S W
    for rnd, seat_names in players.items():
        header, hands = simulate_session("jojotte-4p", 4, rnd, policy="uniform")
        tags = tuple((k, "; ".join(seat_names) if k == "Players" else v) for k, v in header.tags)
        labels = ("N", "E", "S", "W")
        text = write_header(header._replace(tags=tags)) + "".join("\n" + write_hand(h, labels, ("NS", "EW")) for h in hands)
        (tmp_path / f"r{rnd}.jjt").write_text(text, encoding="utf-8")
    event = tmp_path / "event.toml"
    event.write_text('[event]\nname = "Pairs"\ngame = "jojotte-4p"\n[teams]\n"Owls" = ["Ann", "Cid"]\n"Larks" = ["Bea", "Dot"]\n'
                     '[[round]]\ntable = [{table = 1, players = ["Ann", "Bea", "Cid", "Dot"], file = "r1.jjt"}]\n'
                     '[[round]]\ntable = [{table = 1, players = ["Ann", "Dot", "Cid", "Bea"], file = "r2.jjt"}]\n', encoding="utf-8")
    ev = load_event(event)
    check = check_event(ev)
    assert check.ok, check.problems
    assert [t.units for t in check.tables] == [("Owls", "Larks"), ("Owls", "Larks")]
    rows = standings(ev, check.tables)
    assert {s.name for s in rows} == {"Owls", "Larks"} and all(s.played == 2 for s in rows)
    assert sum(s.points for s in rows) == sum(sum(t.summary.sheet.total) for t in check.tables)


@pytest.mark.parametrize("cls_name, template", [("EventContext", "event.html"), ("DuplicateContext", "duplicates.html")])
def test_event_page_contexts_are_frozen_documented_and_used(cls_name, template):
    import dataclasses
    import re

    from conftest import ROOT
    from jojotte_records.table import tournament

    cls = getattr(tournament, cls_name)
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
    doc = (ROOT / "docs" / "tournament.md").read_text(encoding="utf-8").split(f"### `{cls_name}`", 1)[1].split("\n### ", 1)[0]
    text = (ROOT / "templates" / template).read_text(encoding="utf-8") + (ROOT / "templates" / "base.html").read_text(encoding="utf-8")
    for f in dataclasses.fields(cls):
        assert f"`{f.name}`" in doc, f"{cls_name}.{f.name} is not documented"
        assert re.search(rf"\b{f.name}\b", text), f"{template} does not show {f.name}"


def test_make_event_writes_sessions_that_validate(tmp_path):
    import importlib.util

    from jojotte_records.notation.text import iter_records
    from jojotte_records.replay.jojotte import validate_stream

    spec = importlib.util.spec_from_file_location("make_event", EXAMPLES / "event" / "make_event.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path)
    written = sorted(p.name for p in tmp_path.glob("*.jjt"))
    assert written == sorted(p.name for p in (EXAMPLES / "event").glob("*.jjt")) and len(written) == 12
    for name in written:
        [(summary, _)] = list(validate_stream(iter_records((tmp_path / name).read_text(encoding="utf-8"), name)))
        assert summary.hands == 8 and summary.bad_hands == 0, name


# --- Pitch and Baloot: a session is a game (match); games won, then total points, then head to head ----------

PITCH_GAME = (EXAMPLES / "pitch-game.jjt").read_text(encoding="utf-8")  # E-W win 52 to 20 (the written score lines)


def pitch_session(players: list[str], rnd: int, table: int, hands: int | None = None, text: str = PITCH_GAME) -> str:
    import re

    body = re.sub(r'\[Players "[^"]*"\]', f'[Players "{"; ".join(players)}"]', text)
    body = body.replace('[Game "pitch"]', f'[Round "{rnd}"]\n[Table "{table}"]\n[Game "pitch"]')
    if hands is not None:  # the game cut short after its first hands
        body = body.split(f"\nhand {hands + 1} dealer")[0].rstrip("\n") + "\n"
    return body


def write_pitch_event(folder: Path, rounds: dict, extra: str = "") -> Path:
    """rounds: {round: [(players N E S W, hands or None), …]}; teams: Owls, Crows, Larks, Wrens."""
    lines = ['[event]', 'name = "Pitch night"', 'game = "pitch"', extra, '', '[teams]', '"Owls" = ["Nell", "Sue"]',
             '"Crows" = ["Ed", "Walt"]', '"Larks" = ["Ann", "Cy"]', '"Wrens" = ["Bo", "Di"]', '']
    for rnd, tables in rounds.items():
        lines += ["[[round]]", f"number = {rnd}"]
        for t, (players, hands) in enumerate(tables, 1):
            name = f"r{rnd}t{t}.jjt"
            (folder / name).write_text(pitch_session(players, rnd, t, hands), encoding="utf-8")
            lines += ["[[round.table]]", f"table = {t}", "players = [" + ", ".join(f'"{p}"' for p in players) + "]",
                      f'file = "{name}"']
    path = folder / "event.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# Every table plays the example game, where E-W win 52 to 20 (NS 6-5+3+6+4+1+5+0, EW 1+7+6+4-7+6+4+31):
#   round 1: Owls (N-S) 20 v Crows (E-W) 52: Crows win      Larks 20 v Wrens 52: Wrens win
#   round 2: Larks 20 v Owls 52: Owls win                   Crows 20 v Wrens 52: Wrens win
# Wrens 2 games, 104 points. Owls and Crows 1 game and 72 points each; head to head the Crows beat the Owls.
# Larks 0 games, 40 points.
PITCH_ROUNDS = {1: [(["Nell", "Ed", "Sue", "Walt"], None), (["Ann", "Bo", "Cy", "Di"], None)],
                2: [(["Ann", "Nell", "Cy", "Sue"], None), (["Ed", "Bo", "Walt", "Di"], None)]}


def test_pitch_event_standings_computed_by_hand(tmp_path):
    ev = load_event(write_pitch_event(tmp_path, PITCH_ROUNDS))
    check = check_event(ev)
    assert check.ok, check.problems
    assert [(t.units, t.winners) for t in check.tables] == [
        (("Owls", "Crows"), ("Crows",)), (("Larks", "Wrens"), ("Wrens",)),
        (("Larks", "Owls"), ("Owls",)), (("Crows", "Wrens"), ("Wrens",))]
    rows = [(s.rank, s.name, s.played, s.won, s.lost, s.match_points, s.points, s.head_to_head) for s in standings(ev, check.tables)]
    assert rows == [(1, "Wrens", 2, 2, 0, 2, 104, None), (2, "Crows", 2, 1, 1, 1, 72, 1), (3, "Owls", 2, 1, 1, 1, 72, 0),
                    (4, "Larks", 2, 0, 2, 0, 40, None)]
    after1 = [(s.rank, s.name, s.points) for s in standings(ev, check.tables, 1)]
    assert after1 == [(1, "Crows", 52), (1, "Wrens", 52), (3, "Larks", 20), (3, "Owls", 20)]
    result = runner.invoke(app, ["event", "standings", str(ev.source)])
    assert result.exit_code == 0, result.output
    assert result.output.index("Wrens") < result.output.index("Crows") < result.output.index("Owls") < result.output.index("Larks")
    assert "ranked by games won (a tied game half), then total points, then head to head" in result.output
    assert "Rubbers" not in result.output
    doc = json.loads(runner.invoke(app, ["event", "standings", str(ev.source), "--json"]).output)
    assert doc["tie_breaks"][0] == "games won (a tied game half)"
    assert doc["rounds"][0]["tables"][0]["points"] == [20, 52] and doc["rounds"][0]["tables"][0]["rubbers"] is None


def test_a_pitch_game_cut_short_is_incomplete_and_led_on_points(tmp_path):
    # after 3 hands: NS 6-5+3 = 4, EW 1+7+6 = 14
    ev = load_event(write_pitch_event(tmp_path, {1: [(["Nell", "Ed", "Sue", "Walt"], 3)]}))
    check = check_event(ev)
    [t] = check.tables
    assert [p.kind for p in check.problems] == ["incomplete"] and "the game is not finished (Owls 4, Crows 14)" in check.problems[0].message
    assert t.winners == ("Crows",)
    # with the event's hands, three hands make a complete table
    ev = load_event(write_pitch_event(tmp_path, {1: [(["Nell", "Ed", "Sue", "Walt"], 3)]}, "hands = 3"))
    assert check_event(ev).ok
    result = runner.invoke(app, ["event", "check", str(ev.source)])
    assert result.exit_code == 0 and "winner Crows" in result.output


def test_a_disputed_pitch_hand_and_a_wrong_variant_are_listed(tmp_path):
    path = write_pitch_event(tmp_path, {1: [(["Nell", "Ed", "Sue", "Walt"], 2)]}, "hands = 2")
    f = tmp_path / "r1t1.jjt"
    f.write_text(f.read_text().replace("trick 1: N JD, E AH", "trick 1: N JD, E 4C"), encoding="utf-8")
    check = check_event(load_event(path))
    assert [(p.kind, p.rule) for p in check.problems] == [("disputed", "PIT-PLAY-1")]
    f.write_text(f.read_text().replace('[Game "pitch"]', '[Game "pitch"]\n[Variant "players=5"]'), encoding="utf-8")
    assert "game" in {p.kind for p in check_event(load_event(path)).problems}


def test_five_handed_pitch_event_two_partners_both_win(tmp_path):
    import re

    text = (EXAMPLES / "pitch-five-handed.jjt").read_text(encoding="utf-8")
    (tmp_path / "t.jjt").write_text(text, encoding="utf-8")
    players = re.search(r'\[Players "([^"]*)"\]', text).group(1).split("; ")
    (tmp_path / "event.toml").write_text('[event]\nname = "Five"\ngame = "pitch"\nvariant = "players=5"\n[[round]]\n'
                                         'table = [{table = 1, players = [' + ", ".join(f'"{p}"' for p in players)
                                         + '], file = "t.jjt"}]\n', encoding="utf-8")
    ev = load_event(tmp_path / "event.toml")
    check = check_event(ev)
    assert check.ok, check.problems
    # Bo's moon with Di as his partner: both reach 52 and both win (PIT-FIVE-8); A -9, C 34, E -19
    rows = [(s.rank, s.name, s.won, s.lost, s.points) for s in standings(ev, check.tables)]
    assert rows == [(1, "Bo", 1, 0, 52), (1, "Di", 1, 0, 52), (3, "Cy", 0, 1, 34), (4, "Ann", 0, 1, -9), (5, "Em", 0, 1, -19)]
    with pytest.raises(EventError, match="players is a list of the 5 players"):
        (tmp_path / "bad.toml").write_text((tmp_path / "event.toml").read_text().replace('"Em"', ""), encoding="utf-8")
        load_event(tmp_path / "bad.toml")


def test_a_baloot_event_and_its_rules(tmp_path):
    (tmp_path / "m.jjt").write_text((EXAMPLES / "baloot-match.jjt").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "event.toml").write_text('[event]\nname = "Diwaniya cup"\ngame = "baloot"\n[[round]]\n'
                                         'table = [{table = 1, players = ["Nura", "Waleed", "Sami", "Eman"], file = "m.jjt"}]\n',
                                         encoding="utf-8")
    ev = load_event(tmp_path / "event.toml")
    check = check_event(ev)
    assert check.ok, check.problems
    [t] = check.tables
    assert t.units == ("Nura & Sami", "Waleed & Eman") and t.winners == ("Waleed & Eman",)
    assert [(s.name, s.won, s.points) for s in standings(ev, check.tables)] == [("Waleed & Eman", 1, 152), ("Nura & Sami", 0, 14)]
    (tmp_path / "r.toml").write_text((tmp_path / "event.toml").read_text().replace('game = "baloot"', 'game = "baloot"\nrank_by = "rubbers"'))
    with pytest.raises(EventError, match="no rubbers"):
        load_event(tmp_path / "r.toml")


def test_pitch_duplicate_deals_and_the_event_report(tmp_path):
    ev = load_event(write_pitch_event(tmp_path, PITCH_ROUNDS, "duplicate = true"))
    check = check_event(ev)
    assert check.ok, check.problems
    hands = read_sessions(PITCH_GAME)[0].hands
    assert deal_hash(hands[0], "pitch") and deal_hash(hands[0], "pitch") != deal_hash(hands[1], "pitch")
    boards = duplicate_boards(ev, check.tables)
    assert len(boards) == 8 and all(len(b.results) == 4 for b in boards)  # every table played the same eight deals
    first = boards[0].results[0]
    assert (first.contract, first.below, first.net) == ("S bids 6, hearts", (6, 1), 5)
    site = build_event_site(ev, tmp_path / "site")
    page = site.event_page.read_text(encoding="utf-8")
    assert "Wrens" in page and "games won" in page


def test_record_a_table_of_a_pitch_event(tmp_path):
    from test_recorder_events import PITCH_HAND, PITCH_TEXT

    event = tmp_path / "event.toml"
    event.write_text('[event]\nname = "Mini pitch"\ngame = "pitch"\nhands = 1\n[[round]]\n'
                     'table = [{table = 1, players = ["Nell", "Ed", "Sue", "Walt"], file = "r1t1.jjt"}]\n', encoding="utf-8")
    answers = "\n".join(PITCH_HAND) + "\nquit\n"
    result = runner.invoke(app, ["record", "--event-file", str(event), "--round", "1", "--table", "1"], input=answers)
    assert result.exit_code == 0, result.output
    assert "hand 1 saved: score NS 6, EW 1" in result.output and "all 1 hands are recorded" in result.output
    text = (tmp_path / "r1t1.jjt").read_text(encoding="utf-8")
    assert text.endswith("\n" + PITCH_TEXT) and '[Event "Mini pitch"]' in text and '[Round "1"]' in text
    check = check_event(load_event(event))
    assert check.ok, check.problems
    assert check.tables[0].winners == ("Nell & Sue",)  # a game cut short by the event's hands: the most points


def test_the_pitch_example_event_checks_ranks_and_is_reproducible(tmp_path):
    import importlib.util

    folder = EXAMPLES / "event-pitch"
    ev = load_event(folder / "event.toml")
    check = check_event(ev)
    assert check.ok, check.problems
    rows = standings(ev, check.tables)
    assert [s.name for s in rows] == ["Wrens", "Larks", "Owls", "Crows"] and [s.won for s in rows] == [2, 2, 2, 0]
    assert all(s.played == 3 for s in rows)
    spec = importlib.util.spec_from_file_location("make_pitch_event", folder / "make_event.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path)
    for path in sorted(folder.glob("*.jjt")):
        assert (tmp_path / path.name).read_text(encoding="utf-8") == path.read_text(encoding="utf-8"), path.name


class _Table:
    """A table as `standings` reads it: who sat at each column, who won (none: a tie), each column's total."""

    def __init__(self, units, winners, totals):
        self.units, self.winners, self._totals = tuple(units), tuple(winners), tuple(totals)
        self.played = True
        self.entry = type("Entry", (), {"round": 1})()

    def total(self, col):
        return self._totals[col]

    def rubbers(self, col):
        return 0


def test_head_to_head_counts_a_drawn_session_half():
    # A, B and C tie on matches (1.5 each: a tied session counts half) and on points (300 each). Among the three,
    # A drew B, B drew C and C beat A: head to head C 0.5 + 1 = 1.5, B 0.5 + 0.5 = 1, A 0.5 + 0 = 0.5,
    # so C, B, A in that order. Were a draw worth 0 head to head, A and B would tie for second.
    tables = [_Table("AB", "", (100, 100)), _Table("BC", "", (100, 100)), _Table("CA", "C", (200, 100)),
              _Table("AD", "A", (100, 100)), _Table("BD", "", (100, 100))]
    ev = Event("Draws", "jojotte", Path("draws.toml"), ("A", "B", "C", "D"), {}, (1,), ())
    rows = [(s.rank, s.name, s.match_points, s.points, s.head_to_head) for s in standings(ev, tables)]
    assert rows == [(1, "C", 1.5, 300, 1.5), (2, "B", 1.5, 300, 1.0), (3, "A", 1.5, 300, 0.5), (4, "D", 0.5, 200, None)]


def test_a_rubbers_tag_written_with_a_superscript_digit_is_disputed_not_a_crash(tmp_path):
    # '²'.isdigit() is true but int('²') raises: the table's [Rubbers] is no number, which validate says (NOTATION)
    path = write_event(tmp_path, {1: [(("Alice", "Bob"), [summary_hand(1, 100, 62)])]})
    table = tmp_path / "r1t1.jjt"
    table.write_text(table.read_text(encoding="utf-8").replace('[Game "jojotte"]', '[Game "jojotte"]\n[Rubbers "²"]'),
                     encoding="utf-8")
    check = check_event(load_event(path))
    disputed = [p for p in check.problems if p.kind == "disputed"]
    assert [p.rule for p in disputed] == ["NOTATION"] and "[Rubbers \"²\"]" in disputed[0].message, check.problems
