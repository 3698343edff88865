"""The command line, as a user runs it: exit codes, JSON output, standard input, conversions, schema."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES, ROOT
from jojotte_records.notation.schema import stale_schemas

runner = CliRunner()


def test_validate_examples_exit_0_and_summary():
    result = runner.invoke(app, ["validate", str(EXAMPLES / "spec-rubber.jjt"), str(EXAMPLES / "doubles.jjt")])
    assert result.exit_code == 0, result.output
    assert "Alice 1420" in result.output and "Bob 295" in result.output  # Example 9 of the spec
    assert "7 hand(s): 7 without errors, 0 with errors" in result.output


def test_validate_json_document():
    result = runner.invoke(app, ["validate", str(EXAMPLES / "spec-rubber.jjt"), "--json"])
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert doc["ok"] is True and doc["exit_code"] == 0
    session = doc["files"][0]["sessions"][0]
    assert session["players"] == {"A": "Alice", "B": "Bob"}
    hand1 = session["hands"][0]
    a = hand1["score"]["A"]
    # spec Example 1: A's cards 90 + the Jo-Jotte 20 = trick score 110 below, the KH-JH sequence 20 above
    assert {k: a[k] for k in ("trick_points", "meld_points", "total", "below", "above", "card_points", "points")} == \
        {"trick_points": 110, "meld_points": 20, "total": 130, "below": 110, "above": 20, "card_points": 90, "points": 130}
    assert [(c["line"], c["amount"], c["rule"]) for c in a["credits"]] == [("above", 20, "JJ-MELD-12"), ("below", 110, "JJ-SCORE-3")]
    assert hand1["score"]["B"]["above"] == 40
    assert session["hands"][2]["held_aside"] == 150
    assert session["sheet"]["A"] == {"below": 280, "above": 1140, "games": 2, "rubbers": 1, "total": 1420}
    assert session["winner"] == "A"


def test_validate_wrong_score_exits_1_and_names_the_figure(tmp_path):
    text = (EXAMPLES / "doubles.jjt").read_text(encoding="utf-8").replace("score A below 300 above 20", "score A below 150 above 20")
    path = tmp_path / "bad.jjt"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert "Eve's score below the line is written 150, but is 300" in result.output
    assert "(JJ-SCORE-5)" in result.output


def test_validate_unreadable_input_exits_2(tmp_path):
    missing = tmp_path / "nope.jjt"
    result = runner.invoke(app, ["validate", str(missing)])
    assert result.exit_code == 2
    bad = tmp_path / "bad.jjt"
    bad.write_text('[Game "jojotte"]\n\nhand 1 dealer A\nauction B pass, A bogus\n', encoding="utf-8")
    result = runner.invoke(app, ["validate", str(bad)])
    assert result.exit_code == 2
    assert "bad.jjt:4:19" in result.output and "unknown call 'bogus'" in result.output


def test_validate_reads_standard_input_and_folders():
    text = (EXAMPLES / "doubles.jjt").read_text(encoding="utf-8")
    result = runner.invoke(app, ["validate", "-"], input=text)
    assert result.exit_code == 0, result.output
    assert "<stdin>" in result.output
    # a folder is read recursively: every dispute file holds exactly one faulty hand, the other examples none
    result = runner.invoke(app, ["validate", str(EXAMPLES), "-q"])
    disputes = len(list((EXAMPLES / "disputes").glob("*.jjt")))
    files = len(list(EXAMPLES.rglob("*.jjt")))
    assert result.exit_code == 1
    assert f"{files} file(s), {files} session(s)" in result.output
    assert f", {disputes} with errors" in result.output and "unreadable" not in result.output


def test_simulate_is_deterministic_and_validates():
    a = runner.invoke(app, ["simulate", "--hands", "40", "--seed", "3"])
    b = runner.invoke(app, ["simulate", "--hands", "40", "--seed", "3"])
    c = runner.invoke(app, ["simulate", "--hands", "40", "--seed", "4"])
    assert a.exit_code == 0 and a.output == b.output and a.output != c.output
    assert a.output.count("\nhand ") == 40
    result = runner.invoke(app, ["validate", "-"], input=a.output)
    assert result.exit_code == 0, result.output


def test_convert_text_json_text_is_lossless(tmp_path):
    src = EXAMPLES / "nullo-slam-void.jjt"
    as_json = runner.invoke(app, ["convert", str(src), "--to", "json"])
    assert as_json.exit_code == 0
    jpath = tmp_path / "s.json"
    jpath.write_text(as_json.output, encoding="utf-8")
    back = runner.invoke(app, ["convert", str(jpath), "--to", "text"])
    canonical = runner.invoke(app, ["convert", str(src), "--to", "text"])
    assert back.output == canonical.output
    # the JSON form validates to the same verdict
    result = runner.invoke(app, ["validate", str(jpath), "--json"])
    assert json.loads(result.output)["files"][0]["sessions"][0]["sheet"]["B"]["total"] == 640


def test_committed_schema_is_up_to_date():
    stale = stale_schemas(ROOT / "schemas")
    assert stale == [], f"run `jojotte schema --out schemas`: {stale} stale"


def test_installed_command_works_from_outside_the_repository(tmp_path):
    # the console script of this interpreter's environment, not whichever `jojotte` comes first on PATH
    exe = Path(sys.executable).parent / "jojotte"
    assert exe.is_file(), "the console script is installed by pip install"
    env = dict(os.environ, PYTHONPATH="")
    out = subprocess.run([exe, "demo"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "session(s)" in out.stdout
    # the library never imports the CLI
    code = "import sys, jojotte_records.replay.files, jojotte_records.replay.jojotte; print(any(m.startswith('jojotte_records.cli') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "False"
