"""What the commands print from a record never reaches the terminal as a control sequence (issue 16 item 7).

`[Event "Club\\x1b]0;PWNED\\x07\\x1b[2J"]` retitled the terminal and cleared the screen under `jojotte validate`.
Every control character (C0 but tab and newline, DEL, C1) and every bidirectional override or isolate
(U+202A–U+202E, U+2066–U+2069) that comes from the input is shown as its escape: ``\\x1b``, ``\\u202e``.
"""

from __future__ import annotations

import json
import re

from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES
from jojotte_records.errors import printable

runner = CliRunner()

EVENT = "Club\x1b]0;PWNED\x07\x1b[2J\u202eko\x9b"
NAME = "Al\x1b[1Aice\u2066"
# what may reach a terminal: any character in these classes means the output is unsafe
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _hostile_record(tmp_path, bad_card: bool = False):
    text = (EXAMPLES / "spec-rubber.jjt").read_text(encoding="utf-8")
    text = text.replace('[Event "Rules spec worked examples"]', f'[Event "{EVENT}"]')
    text = text.replace('[Players "Alice; Bob"]', f'[Players "{NAME}; Bob"]')
    if bad_card:
        text = text.replace("trick 1: B AC, A KH jo", "trick 1: B A\x1b[2JC, A KH jo", 1)
        assert "\x1b[2JC" in text
    path = tmp_path / "hostile.jjt"
    path.write_text(text, encoding="utf-8")
    return path


def test_printable_escapes_every_class_and_keeps_layout_and_letters():
    assert printable("a\tb\nc") == "a\tb\nc"
    assert printable("Zoë ♠ 東") == "Zoë ♠ 東"
    assert printable("\x1b\x07\x7f\x85\u202a\u202e\u2066\u2069\r") == r"\x1b\x07\x7f\x85\u202a\u202e\u2066\u2069\x0d"


def test_validate_prints_the_event_and_names_escaped(tmp_path):
    path = _hostile_record(tmp_path, bad_card=True)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2, result.output  # the bad card is a syntax error
    assert not UNSAFE.search(result.output), repr(result.output)
    assert r"Club\x1b]0;PWNED\x07\x1b[2J\u202eko\x9b" in result.output
    assert r"Al\x1b[1Aice\u2066" in result.output
    assert r"A\x1b[2JC" in result.output  # the card the message quotes


def test_validate_json_escapes_c1_and_bidi_and_stays_the_same_json(tmp_path):
    path = _hostile_record(tmp_path)
    result = runner.invoke(app, ["validate", str(path), "--json"])
    assert not UNSAFE.search(result.output), repr(result.output)
    doc = json.loads(result.output)
    session = doc["files"][0]["sessions"][0]
    assert session["event"] == EVENT and session["players"]["A"] == NAME


def test_import_summary_stats_and_sql_tables_are_escaped(tmp_path):
    path = _hostile_record(tmp_path, bad_card=True)
    db = str(tmp_path / "a.duckdb")
    imported = runner.invoke(app, ["import", str(path), "--db", db])
    assert not UNSAFE.search(imported.output), repr(imported.output)
    assert str(path) in imported.output
    good = _hostile_record(tmp_path)
    runner.invoke(app, ["import", str(good), "--db", db])
    stats = runner.invoke(app, ["stats", "standings", "--db", db])
    assert stats.exit_code == 0, stats.output
    assert not UNSAFE.search(stats.output), repr(stats.output)
    assert r"\x1b[1A" in stats.output
    sql = runner.invoke(app, ["sql", "SELECT event FROM sessions", "--db", db])
    assert sql.exit_code == 0, sql.output
    assert not UNSAFE.search(sql.output), repr(sql.output)
    assert r"PWNED\x07" in sql.output
    sql_json = runner.invoke(app, ["sql", "SELECT event FROM sessions", "--db", db, "--json"])
    assert not UNSAFE.search(sql_json.output), repr(sql_json.output)
    assert json.loads(sql_json.output)[0]["event"] == EVENT


def test_sql_csv_is_escaped(tmp_path):
    """Issue 16 item 7 (audit): ``sql --csv`` wrote the [Event]'s ESC and BEL as they are, a plain csv.writer."""
    db = str(tmp_path / "a.duckdb")
    runner.invoke(app, ["import", str(_hostile_record(tmp_path)), "--db", db])
    result = runner.invoke(app, ["sql", "SELECT event, 'a\x1bb' AS \"c\x07\", 7 AS n FROM sessions", "--db", db, "--csv"])
    assert result.exit_code == 0, result.output
    assert not UNSAFE.search(result.output), repr(result.output)
    assert result.output.splitlines() == [r"event,c\x07,n", r"Club\x1b]0;PWNED\x07\x1b[2J\u202eko\x9b,a\x1bb,7"]


def test_a_name_with_rich_markup_is_printed_as_written(tmp_path):
    text = (EXAMPLES / "spec-rubber.jjt").read_text(encoding="utf-8").replace("Alice; Bob", "[bold]Al[/]; Bob")
    (tmp_path / "m.jjt").write_text(text, encoding="utf-8")
    db = str(tmp_path / "a.duckdb")
    runner.invoke(app, ["import", str(tmp_path / "m.jjt"), "--db", db])
    stats = runner.invoke(app, ["stats", "standings", "--db", db])
    assert stats.exit_code == 0, stats.output
    assert "[bold]Al[/]" in stats.output


def test_convert_errors_and_json_are_escaped(tmp_path):
    path = _hostile_record(tmp_path, bad_card=True)
    result = runner.invoke(app, ["convert", str(path), "--to", "json"])
    assert result.exit_code == 2
    assert not UNSAFE.search(result.output), repr(result.output)
    assert r"A\x1b[2JC" in result.output
    good = _hostile_record(tmp_path)
    result = runner.invoke(app, ["convert", str(good), "--to", "json"])
    assert result.exit_code == 0, result.output
    assert not UNSAFE.search(result.output), repr(result.output)
    assert ["Event", EVENT] in json.loads(result.output)["sessions"][0]["tags"]  # the same JSON value


def test_convert_to_text_keeps_the_record_in_a_pipe_and_escapes_it_at_a_terminal(tmp_path):
    """Issue 16 item 7 (audit): ``convert --to text`` wrote the record's control characters to the terminal. The notation
    has no escape for them: a pipe or a file gets the record as it is (lossless), a terminal sees it escaped."""
    from tty_helpers import run_at_terminal

    path = _hostile_record(tmp_path)
    piped = runner.invoke(app, ["convert", str(path), "--to", "text"])
    assert piped.exit_code == 0, piped.output
    assert f'[Event "{EVENT}"]' in piped.output  # as written: read back, the same record
    code, screen = run_at_terminal(["convert", str(path), "--to", "text"])
    assert code == 0, screen
    screen = screen.replace("\r\n", "\n")  # the terminal's line ends
    assert not UNSAFE.search(screen), repr(screen)
    assert r'[Event "Club\x1b]0;PWNED\x07\x1b[2J\u202eko\x9b"]' in screen
