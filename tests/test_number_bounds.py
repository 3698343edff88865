"""Numbers a record writes are bounded, with a located error, in both readers; import never stops on a file.

Issue 16 item 3: a hand number, a written score or [Rubbers] of 2**31 or more passed `validate` and made
`import` crash (the archive's columns are 32-bit), and the files after it in a folder were never imported.
The bound is `errors.MAX_NUMBER` (999,999,999), the same for Jo-Jotte, Pitch and Baloot.
"""

from __future__ import annotations

import re
import shutil

import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES
from jojotte_records.archive.store import import_paths, table_counts
from jojotte_records.errors import MAX_NUMBER

runner = CliRunner()
BIG = 2**31  # the first number a 32-bit column cannot hold
HUGE = "9" * 5000  # more digits than Python's int() reads from text (4300)


def _edit(example: str, old: str, new: str) -> tuple[str, int]:
    """The example's text with the first line starting with ``old`` changed, and that line's number."""
    lines = (EXAMPLES / example).read_text(encoding="utf-8").split("\n")
    i = next(i for i, line in enumerate(lines) if line.startswith(old))
    lines[i] = new + lines[i][len(old):]
    return "\n".join(lines), i + 1


# (example, start of the line, its replacement, column of the number = len(replacement) - digits + 1, what)
CASES = [
    ("spec-rubber.jjt", "hand 1 dealer", "hand {n} dealer", 6, "hand number"),  # 'hand ' is 5 characters
    ("spec-rubber.jjt", "score A below 110", "score A below {n}", 15, "points below"),  # 'score A below ' is 14
    ("pitch-game.jjt", "hand 1 dealer", "hand {n} dealer", 6, "hand number"),
    ("pitch-game.jjt", "score NS 6,", "score NS {n},", 10, "score"),  # 'score NS ' is 9
    ("pitch-game.jjt", "trick 1: S AH", "trick {n}: S AH", 7, "trick number"),  # 'trick ' is 6
    ("baloot-match.jjt", "hand 1 dealer", "hand {n} dealer", 6, "hand number"),
]


@pytest.mark.parametrize("number", [str(BIG), HUGE])
@pytest.mark.parametrize("example,old,new,column,what", CASES)
def test_a_number_too_large_is_a_located_syntax_error_and_import_stores_the_rest(
        example, old, new, column, what, number, tmp_path):
    text, line = _edit(example, old, new.format(n=number))
    path = tmp_path / example
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2
    shown = number if len(number) <= 24 else re.escape(number[:12]) + r"… \(5000 digits\)"
    expected = rf"{re.escape(str(path))}:{line}:{column}: .*{what} {shown} is too large \(at most 999999999\) \(NOTATION\)"
    assert re.search(expected, result.output), result.output
    imported = runner.invoke(app, ["import", str(path), "--db", str(tmp_path / "a.duckdb")])
    assert imported.exception is None or isinstance(imported.exception, SystemExit), imported.exception
    assert "Traceback" not in imported.output
    assert re.search(r"1 new session\(s\), \d+ hand\(s\) stored \([1-9]\d* with errors", imported.output), imported.output


def test_the_bound_itself_is_accepted_and_one_more_is_not(tmp_path):
    ok, _ = _edit("spec-rubber.jjt", "hand 1 dealer", f"hand {MAX_NUMBER} dealer")
    bad, _ = _edit("spec-rubber.jjt", "hand 1 dealer", f"hand {MAX_NUMBER + 1} dealer")
    (tmp_path / "ok.jjt").write_text(ok)
    (tmp_path / "bad.jjt").write_text(bad)
    assert "too large" not in runner.invoke(app, ["validate", str(tmp_path / "ok.jjt")]).output
    assert "hand number 1000000000 is too large" in runner.invoke(app, ["validate", str(tmp_path / "bad.jjt")]).output
    # the part bad.jjt cannot read makes the run exit 2, as validate (README, "Exit codes"); nothing crashes
    imported = runner.invoke(app, ["import", str(tmp_path), "--db", str(tmp_path / "a.duckdb")])
    assert imported.exit_code == 2 and "1 part(s) could not be read" in imported.output, imported.output


@pytest.mark.parametrize("example", ["spec-rubber.jjt", "pitch-game.jjt"])
def test_rubbers_tag_too_large(example, tmp_path):
    # Jo-Jotte reads [Rubbers] (the rubbers agreed); Pitch does not, but import stored it and crashed too
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    head, sep, tail = text.partition("[Game ")
    lines_before = head.count("\n")
    path = tmp_path / example
    path.write_text(f'{head}[Rubbers "{BIG}"]\n{sep}{tail}', encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    # the tag is on the line where [Game stood, column 1 (the tag's start)
    message = f'{path}:{lines_before + 1}:1: [Rubbers "{BIG}"]: rubbers {BIG} is too large (at most 999999999) (NOTATION)'
    assert (message in result.output) == (example == "spec-rubber.jjt"), result.output
    imported = runner.invoke(app, ["import", str(path), "--db", str(tmp_path / "a.duckdb")])
    assert imported.exception is None or isinstance(imported.exception, SystemExit), imported.exception
    assert "1 new session(s)" in imported.output, imported.output


def test_pitch_bid_with_more_digits_than_int_reads(tmp_path):
    text, line = _edit("pitch-game.jjt", "bids N 5", f"bids N {HUGE}")
    path = tmp_path / "bid.jjt"
    path.write_text(text)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
    assert f"{path}:{line}:" in result.output and "is too large" in result.output


def test_a_bad_file_in_the_middle_of_a_folder_stops_nothing(tmp_path, monkeypatch):
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(EXAMPLES / "spec-rubber.jjt", folder / "a.jjt")
    shutil.copy(EXAMPLES / "pitch-game.jjt", folder / "c.jjt")
    (folder / "b.jjt").write_text((EXAMPLES / "doubles.jjt").read_text())
    # a file whose import fails inside the loader, whatever the reason: the archive's own failure stands in for it
    import jojotte_records.archive.store as archive

    real = archive._Importer._load

    def failing_load(self, path, name, data, result):
        if path.endswith("b.jjt"):
            raise OverflowError("Python int too large to convert to C long")
        return real(self, path, name, data, result)

    monkeypatch.setattr(archive._Importer, "_load", failing_load)
    db = tmp_path / "a.duckdb"
    result = runner.invoke(app, ["import", str(folder), "--db", str(db)])
    assert isinstance(result.exception, SystemExit) or result.exception is None, result.exception
    assert result.exit_code == 2  # a file failed
    out = result.output
    assert re.search(r"b\.jjt: not imported: .*OverflowError", out), out
    assert "a.jjt: 1 new session(s)" in out and "c.jjt: 1 new session(s)" in out
    assert re.search(r"^3 file\(s\): 2 new session\(s\), .*; 1 file\(s\) could not be read", out, re.M), out
    assert table_counts(db)["sessions"] == 2  # a and c, nothing of b


def test_a_folder_with_a_too_large_number_in_the_middle_imports_every_file(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    shutil.copy(EXAMPLES / "spec-rubber.jjt", folder / "a.jjt")
    text, _ = _edit("doubles.jjt", "hand 1 dealer", f"hand {BIG} dealer")
    (folder / "b.jjt").write_text(text)
    shutil.copy(EXAMPLES / "pitch-game.jjt", folder / "c.jjt")
    results = list(import_paths(tmp_path / "a.duckdb", [str(folder)]))
    assert [r.status for r in results] == ["imported"] * 3
    assert results[1].bad_hands >= 1
