"""The CLI at a terminal: stderr is a tty (progress bars shown), stdout a pipe or a file (issue 16 item 1).

A progress display that redirects stdout sends the records to the screen; these tests see the bar drawn
on the pty and check that stdout still holds every record.
"""

from __future__ import annotations

import re

from tty_helpers import run_at_terminal, run_with_tty_stderr

from conftest import EXAMPLES
from jojotte_records.notation.text import iter_records
from jojotte_records.replay.jojotte import validate_stream


def test_simulate_writes_its_records_to_stdout_when_stderr_is_a_terminal():
    code, out, screen = run_with_tty_stderr(["simulate", "--hands", "3000", "--seed", "1"])
    assert code == 0
    hands = 0
    for summary, _ in validate_stream(iter_records(out, "stdout")):
        assert summary.bad_hands == 0
        hands += summary.hands
    assert hands == 3000  # the number asked for
    assert "hand 1 dealer" not in screen  # nothing of the record reached the terminal


def test_simulate_piped_into_validate_at_a_terminal(tmp_path):
    # the README's pipeline, both ends with stderr on a terminal
    code, sim, _ = run_with_tty_stderr(["simulate", "--hands", "500", "--seed", "2"])
    assert code == 0
    code, out, screen = run_with_tty_stderr(["validate", "-"], stdin=sim.encode())
    assert code == 0, out + screen
    assert "500 hand(s): 500 without errors, 0 with errors" in out
    assert "no session found" not in out + screen


def test_validate_findings_go_to_stdout_when_stderr_is_a_terminal():
    path = EXAMPLES / "disputes" / "04-void-did-not-trump.jjt"
    code, out, screen = run_with_tty_stderr(["validate", str(path)])
    assert code != 0
    assert "(JJ-PLAY-5)" in out
    assert "1 file(s), 1 session(s)" in out


def test_import_summary_goes_to_stdout_when_stderr_is_a_terminal(tmp_path):
    db = tmp_path / "a.duckdb"
    code, out, screen = run_with_tty_stderr(["import", str(EXAMPLES / "spec-rubber.jjt"), "--db", str(db)])
    assert code == 0, out + screen
    assert re.search(r"1 file\(s\): 1 new session\(s\)", out)


def test_analyze_lines_and_annotated_file_when_stderr_is_a_terminal(tmp_path):
    dst = tmp_path / "annotated.jjt"
    code, out, screen = run_with_tty_stderr(["analyze", str(EXAMPLES / "spec-rubber.jjt"), "--out", str(dst)])
    assert code == 0, out + screen
    assert "spec-rubber.jjt: hand 1" in out  # one line per hand, printed while the bar is shown
    assert "1 file(s), 4 hand(s)" in out
    assert dst.read_text().count("[%dd") > 0


def test_simulate_redirected_to_a_file_at_a_terminal(tmp_path):
    # `jojotte simulate --game pitch ... > file`: stdout a file, stderr the terminal
    dst = tmp_path / "big.jjt"
    with open(dst, "wb") as f:
        code, _, _ = run_with_tty_stderr(["simulate", "--hands", "200", "--seed", "3", "--game", "pitch"], stdout_file=f)
    assert code == 0
    hands = 0
    for summary, _ in validate_stream(iter_records(dst.read_text(), "big.jjt")):
        assert summary.bad_hands == 0
        hands += summary.hands
    assert hands >= 200  # Pitch plays whole games: at least the hands asked for


def test_a_finding_is_never_printed_on_the_progress_bar_line():
    # stdout and stderr on the same terminal, as at a user's prompt: the bar must be taken off its line before a
    # finding is printed (issue 16 item 11); before, the first finding followed the bar's text on the same line
    code, text = run_at_terminal(["validate", str(EXAMPLES / "disputes")])
    first = text.find(str(EXAMPLES / "disputes" / "01-revoke-follow-suit.jjt"))
    assert first > 0, text[:500]
    before = text[:first]
    # what precedes the finding on its line: nothing, or only cursor and erase sequences (no bar text)
    line_start = max(before.rfind("\n"), before.rfind("\r"))
    rest_of_line = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", before[line_start + 1:])
    assert rest_of_line == "", repr(before[-200:])
