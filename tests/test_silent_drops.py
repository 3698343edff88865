"""Nothing in a record is dropped without a word (issue 16 item 8).

A `[Players]` tag with the wrong number of names was ignored (the sheet showed A and B); a name with `=` was
cut (`Jean=Paul` -> `Paul`); a subfolder that cannot be listed was skipped and the run exited 0.
"""

from __future__ import annotations

import os
import shutil

import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES, validate_text
from jojotte_records.notation.text import iter_records
from jojotte_records.replay.jojotte import player_names

runner = CliRunner()


def _spec_rubber(players: str) -> str:
    return (EXAMPLES / "spec-rubber.jjt").read_text(encoding="utf-8").replace('[Players "Alice; Bob"]', f'[Players "{players}"]')


def _header(players: str):
    return next(iter_records(f'[Game "jojotte"]\n[Players "{players}"]\n\nhand 1 dealer B\n-\n', "t.jjt"))


@pytest.mark.parametrize("players", ["Alice; Bob; Carol", "Alice", "Alice; ", "A=Alice; a=Bob"])
def test_a_players_tag_that_does_not_fit_the_seats_is_a_located_issue(players):
    summaries, _ = validate_text(_spec_rubber(players))
    (summary,) = summaries
    found = [i for i in summary.issues if "[Players]" in i.message]
    assert len(found) == 1, summary.issues
    # [Players] is line 6 of spec-rubber.jjt (a comment, Event, Site, Date, Game, then Players)
    assert (found[0].rule, found[0].kind, found[0].loc.line) == ("NOTATION", "syntax", 6)
    assert summary.names == ("A", "B")  # the sheet shows the seats, and now says why


def test_validate_exits_2_on_a_players_tag_with_three_names(tmp_path):
    path = tmp_path / "p.jjt"
    path.write_text(_spec_rubber("Alice; Bob; Carol"), encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2, result.output
    assert f"{path}:6:1:" in result.output and "3 name(s)" in result.output


def test_an_equals_sign_is_part_of_a_name_unless_it_follows_a_seat_label():
    labels = ("A", "B")
    assert player_names(_header("Jean=Paul; Bob"), labels) == ("Jean=Paul", "Bob")
    assert player_names(_header("A=Alice; B=Bob"), labels) == ("Alice", "Bob")
    assert player_names(_header("B=Bob; A=Alice"), labels) == ("Alice", "Bob")  # each name at its seat
    assert player_names(_header("b = Bob; Jean=Paul"), labels) == ("Jean=Paul", "Bob")
    summaries, _ = validate_text(_spec_rubber("Jean=Paul; Bob"))
    assert summaries[0].names == ("Jean=Paul", "Bob") and not summaries[0].issues


def test_an_unreadable_subfolder_is_reported_and_the_run_exits_2(tmp_path, monkeypatch):
    top = tmp_path / "records"
    (top / "locked").mkdir(parents=True)
    shutil.copy(EXAMPLES / "spec-rubber.jjt", top / "a.jjt")
    shutil.copy(EXAMPLES / "doubles.jjt", top / "locked" / "b.jjt")
    locked = str(top / "locked")
    # the tests may run as root, whom chmod does not stop: the folder refuses to be listed instead
    real_scandir = os.scandir

    def scandir(path="."):
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    result = runner.invoke(app, ["validate", str(top)])
    assert result.exit_code == 2, result.output
    assert f"{locked}: cannot read the folder: Permission denied" in result.output
    assert "Rules spec worked examples: 4 hand(s), ok" in result.output  # the readable file is still checked
    imported = runner.invoke(app, ["import", str(top), "--db", str(tmp_path / "a.duckdb")])
    assert imported.exit_code == 2, imported.output
    assert locked in imported.output and "Permission denied" in imported.output, imported.output
