"""Smaller things users saw (issue 16 item 11): the grammar of a side's win, the rule of a missing file, an unclosed
comment, error messages cut at 80 columns in a pipe."""

from __future__ import annotations

import re
import subprocess
import sys

from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES
from jojotte_records.notation.text import read_sessions

runner = CliRunner()


def test_a_side_named_by_two_players_win(tmp_path):
    # four-partners.jjt: the sides are "Nora and Sam" and "Eli and Wyn" (JJ4P-SCORE-1: the sheet has a column per side)
    result = runner.invoke(app, ["report", str(EXAMPLES / "four-partners.jjt"), "--out", str(tmp_path / "site"), "-q"])
    assert result.exit_code == 0, result.output
    pages = " ".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html"))
    text = re.sub(r"<[^>]+>", "", pages)
    assert not re.search(r"\b\w+ and \w+ wins\b", text)
    assert re.search(r"\b\w+ and \w+ win\b", text)


def test_analyze_says_a_side_named_by_two_players_win():
    """Issue 16 item 11 (audit): ``analyze`` printed "(Nora and Sam wins the hand)", in the what-if and the outcome."""
    from jojotte_records.analyze.jojotte import Outcome

    result = runner.invoke(app, ["analyze", str(EXAMPLES / "four-partners.jjt"), "--hand", "1", "--at", "8.4", "--play", "8D"])
    assert result.exit_code == 0, result.output
    assert result.output.count("Nora and Sam win the hand") == 2 and "wins" not in result.output
    assert Outcome(1, None, None).text(("Nora and Sam", "Eli and Wyn")) == "Eli and Wyn win the hand"
    assert Outcome(0, None, None).text(("Eve", "Bob")) == "Eve wins the hand"


def test_a_rubber_won_by_a_side_named_by_two_players_says_win(tmp_path):
    """Issue 16 item 11 (audit): the session page's score sheet captioned "Rubber 1: <strong>Nora and Sam</strong> wins".
    Twelve simulated partnership hands finish three rubbers, each won by a side named by its two players."""
    record = tmp_path / "p4.jjt"
    simulated = runner.invoke(app, ["simulate", "--game", "jojotte-4p", "--hands", "12", "--seed", "1", "--out", str(record)])
    assert simulated.exit_code == 0, simulated.output
    result = runner.invoke(app, ["report", str(record), "--out", str(tmp_path / "site"), "-q"])
    assert result.exit_code == 0, result.output
    pages = " ".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html"))
    captions = re.findall(r"<caption>Rubber \d+: <strong>([^<]+)</strong> (\w+)", pages)
    assert captions and all(" and " in who and verb == "win" for who, verb in captions), captions


def test_a_missing_file_is_not_a_notation_finding(tmp_path):
    result = runner.invoke(app, ["validate", str(tmp_path / "missing.jjt")])
    assert result.exit_code == 2
    assert "No such file or directory (FILE)" in result.output and "(NOTATION)" not in result.output


def test_an_unclosed_comment_says_so_at_its_opening_brace():
    (session,) = read_sessions('[Game "jojotte"]\n\nhand 1 dealer B\n-\n  {{{ never\nclosed\n', "t.jjt")
    issues = [i for h in session.hands for i in h.issues if "never closed" in i.message]
    assert [(i.loc.line, i.loc.column, i.kind) for i in issues] == [(5, 3, "syntax")]
    (only,) = read_sessions("{{{ no session, only an open comment\n", "t.jjt")
    assert [(i.loc.line, i.loc.column) for i in only.header.issues if "never closed" in i.message] == [(1, 1)]


def test_error_messages_are_not_cut_at_80_columns_in_a_pipe(tmp_path):
    long_dir = tmp_path / ("a-folder-with-a-rather-long-name-" * 3)
    out = subprocess.run([sys.executable, "-m", "jojotte_records", "sql", "SELECT 1", "--db", str(long_dir / "x.duckdb")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    lines = [line for line in out.stderr.splitlines() if line]
    assert len(lines) == 1 and len(lines[0]) > 100, out.stderr


def test_report_refuses_a_folder_of_other_files_without_force(tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("my own page", encoding="utf-8")
    result = runner.invoke(app, ["report", str(EXAMPLES / "doubles.jjt"), "--out", str(out)])
    assert result.exit_code == 2 and "--force" in result.output, result.output
    assert (out / "index.html").read_text(encoding="utf-8") == "my own page"
    forced = runner.invoke(app, ["report", str(EXAMPLES / "doubles.jjt"), "--out", str(out), "--force"])
    assert forced.exit_code == 0, forced.output
    assert "my own page" not in (out / "index.html").read_text(encoding="utf-8")


def test_report_says_what_of_an_earlier_report_it_removes(tmp_path):
    out = tmp_path / "report"
    full = runner.invoke(app, ["report", str(EXAMPLES / "doubles.jjt"), str(EXAMPLES / "spec-rubber.jjt"), "--out", str(out)])
    assert full.exit_code == 0, full.output
    one = runner.invoke(app, ["report", str(EXAMPLES / "doubles.jjt"), "--out", str(out)])
    assert one.exit_code == 0, one.output
    assert re.search(r"[1-9]\d* file\(s\) of the earlier report in .* removed", one.output), one.output


def test_a_usage_error_is_not_cut_at_80_columns_in_a_pipe():
    """Issue 16 item 11 (audit): typer's usage-error box was cut at 80 columns when standard error is a pipe
    ("...unable   │ / │ to parse string..."); there it is click's plain lines, each message on one line."""
    value = "a" * 72
    out = subprocess.run([sys.executable, "-m", "jojotte_records", "validate", "--jobs", value, "x.jjt"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    assert "╭" not in out.stderr and "│" not in out.stderr, out.stderr
    (error,) = [line for line in out.stderr.splitlines() if "Invalid value for '--jobs'" in line]
    assert error.startswith("Error: ") and error.endswith("unable to parse string as an integer"), out.stderr
    assert "Usage: python -m jojotte_records validate [OPTIONS] PATHS..." in out.stderr
