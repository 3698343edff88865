"""Lazy start-up (issue 14, item 2): a command imports only what it uses.

Not timed (timed tests are forbidden; `bench/startup.py` prints the figures): these tests hold the import graph.
Each runs the command in a fresh interpreter, through the Typer app as the `jojotte` script does, and lists
the modules loaded. What validate truly needs: the notation's text reader, the rules, the replay engine and
the file checks (`replay.files`); not the JSON form's pydantic models (`notation.json_form`, only for *.json
records), the archive (duckdb, pyarrow), the report (jinja2), the analyzer (only for --restore), the
recorder and events (`table`), the simulator (`play`), nor rich (only for a progress bar on a terminal).
Nor pydantic: typer 0.29 converts every parameter's value with a pydantic TypeAdapter; `cli.common` makes one only
for a value that needs converting (`_DeferredConversion`), and the plain cases give exactly what typer's gives.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import pytest
import typer.main
from jojotte_records.cli.common import NaturalGroup, _DeferredConversion
from jojotte_records.cli.main import app
from typer._click import Context
from typer._click.exceptions import BadParameter
from typer._coercion import build_runtime_param

from jojotte_records.rules.base import GAMES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

CHILD = r"""
import json, sys
before = set(sys.modules)
from jojotte_records.cli.main import app
imported = sorted(set(sys.modules) - before)
code = None
if sys.argv[1:]:
    try:
        app(sys.argv[1:])
    except SystemExit as e:
        code = e.code
sys.stdout.flush()
print("\n@@" + json.dumps({"imported": imported, "modules": sorted(sys.modules), "code": code}))
"""

# pydantic, and typer's module of TypeAdapters that imports it
PYDANTIC = ("pydantic", "pydantic_core", "typer._adapters")
# Nothing of these on the validate path (a prefix names the package and every module under it).
NOT_FOR_VALIDATE = PYDANTIC + (
    "duckdb", "pyarrow", "jinja2", "markupsafe", "rich",
    "jojotte_records.analyze", "jojotte_records.archive", "jojotte_records.table", "jojotte_records.play",
    "jojotte_records.report.site", "jojotte_records.report.views", "jojotte_records.report.event_pages",
    "jojotte_records.notation.json_form", "jojotte_records.notation.schema", "jojotte_records.spark",
)
# ... nor, for the bare import of the application, the rules or the replay (the commands' bodies).
NOT_AT_IMPORT = NOT_FOR_VALIDATE + ("jojotte_records.rules", "jojotte_records.replay", "jojotte_records.notation")


def run_child(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True, cwd=ROOT,
                          stdin=subprocess.DEVNULL, timeout=300)
    out, _, doc = done.stdout.rpartition("\n@@")
    assert doc, done.stderr
    result = json.loads(doc)
    result["stdout"] = out
    return result


def loaded(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def test_importing_the_application_loads_no_command_body():
    r = run_child()
    assert loaded(r["imported"], NOT_AT_IMPORT) == []
    # every command module is imported (Typer needs their signatures and help), and they are light
    assert "jojotte_records.cli.archive" in r["imported"] and "jojotte_records.cli.report" in r["imported"]


@pytest.mark.parametrize("args", [
    ["validate", str(EXAMPLES / "disputes" / "01-revoke-follow-suit.jjt")],
    ["validate", str(EXAMPLES), "-v"],
    ["validate", str(EXAMPLES), "--json"],
    ["validate", "--quiet", str(EXAMPLES / "pitch-game.jjt"), str(EXAMPLES / "baloot-match.jjt")],
], ids=["one-hand", "examples-v", "examples-json", "events"])
def test_validate_loads_only_what_it_uses(args):
    r = run_child(*args)
    assert r["code"] in (0, 1)  # the command ran: its verdicts (1: the disputes' findings)
    assert "hand(s)" in r["stdout"] or '"summary"' in r["stdout"]
    assert "jojotte_records.replay.files" in r["modules"] and "jojotte_records.rules.jojotte" in r["modules"]
    assert loaded(r["modules"], NOT_FOR_VALIDATE) == []
    if args[1].endswith("01-revoke-follow-suit.jjt"):  # two-player Jo-Jotte: no other game's rules
        others = tuple(f"jojotte_records.rules.{m}" for m in GAMES if m != "jojotte") + ("jojotte_records.replay.fast_events",)
        assert loaded(r["modules"], others) == []


@pytest.mark.parametrize("args", [["--help"], ["validate", "--help"], ["--version"]])
def test_help_and_version_load_no_library_floor(args):
    r = run_child(*args)
    assert r["code"] == 0 and r["stdout"].strip()
    # Typer draws the help with rich
    floors = tuple(n for n in NOT_AT_IMPORT if n != "rich")
    assert loaded(r["modules"], floors) == []


def test_validate_of_a_json_record_loads_the_json_form_only(tmp_path):
    text = subprocess.run([sys.executable, "-m", "jojotte_records", "convert", str(EXAMPLES / "spec-rubber.jjt"),
                           "--to", "json"], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    path = tmp_path / "spec-rubber.json"
    path.write_text(text, encoding="utf-8")
    r = run_child("validate", str(path))
    assert r["code"] == 0 and "4 hand(s)" in r["stdout"]
    assert "jojotte_records.notation.json_form" in r["modules"]  # pydantic models
    unused = tuple(n for n in NOT_FOR_VALIDATE if n not in ("jojotte_records.notation.json_form", "pydantic", "pydantic_core"))
    assert loaded(r["modules"], unused) == []


def _commands(command, path=("jojotte",)):
    yield " ".join(path), command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, (*path, name))


# values as they reach a parameter's conversion: left out, from the command line, from a program (CliRunner)
SAMPLES = (None, "", "-", "0", "12", "-1", "2.5", "x y", "é ✓", "KH QH", "report", "text",
           0, 1, -1, 2.5, True, (), ("a",), ("-", "é", ""), ["a", "b"], ("a", 1))


def _outcome(conversion, value, param, ctx):
    try:
        got = conversion.coerce(value, param=param, ctx=ctx)
    except BadParameter as e:
        return "BadParameter", e.format_message()
    return type(got), got


@pytest.mark.parametrize("command", [pytest.param(c, id=name) for name, c in _commands(typer.main.get_command(app))])
def test_deferred_conversion_gives_what_typers_gives(command):
    # every parameter of every command (--help and the group's completion options included, as a run sees them)
    # converts every sample and its declared default as typer's own conversion does (its pydantic TypeAdapter),
    # the plain cases answered without one included
    ctx = Context(command)
    for param in command.get_params(ctx):
        ours = param.get_runtime_param()
        assert isinstance(ours, _DeferredConversion), param.name
        typers = build_runtime_param(param.type_descriptor)
        for value in (*SAMPLES, param.default):
            assert _outcome(ours, value, param, ctx) == _outcome(typers, value, param, ctx), (param.name, value)


def test_deferred_conversion_leaves_a_parser_to_typer():
    # no command of the app has a parser=; one given one gets it for an argument, a default and a repeated option
    demo = typer.Typer(cls=NaturalGroup)

    @demo.command()
    def shout(word: Annotated[str, typer.Argument(parser=str.upper)],
              also: Annotated[list[str], typer.Option(parser=str.upper)] = ["b"],
              end: Annotated[str, typer.Option(parser=str.upper)] = "c") -> None:
        print(word, *also, end)

    @demo.command()
    def other() -> None:
        pass

    from typer.testing import CliRunner

    result = CliRunner().invoke(demo, ["shout", "a", "--also", "x", "--also", "y"])
    assert result.exit_code == 0 and result.output == "A X Y C\n"
    assert CliRunner().invoke(demo, ["shout", "a"]).output == "A B C\n"


def test_command_signatures_are_not_deferred():
    # typer reads a command's signature four times on every start (inspect.signature with eval_str and
    # get_type_hints, for the command and its callback): annotations kept as strings (`from __future__ import
    # annotations` in a command module) were evaluated each time; the command modules evaluate them once
    def callbacks(typer_app):
        for info in typer_app.registered_commands:
            yield info.callback
        for group in typer_app.registered_groups:
            yield from callbacks(group.typer_instance)
        if typer_app.registered_callback:
            yield typer_app.registered_callback.callback

    import inspect

    found = list(callbacks(app))
    assert len(found) > 15
    deferred = [f"{cb.__module__}.{cb.__name__}" for cb in found
                if any(isinstance(p.annotation, str) for p in inspect.signature(cb).parameters.values())]
    assert deferred == []


def _every_game():
    """Every game's class by each of its names, every game's module imported (as the whole package was)."""
    import importlib

    from jojotte_records.rules.base import Rules

    classes = set()
    for m in GAMES:
        module = importlib.import_module(f"jojotte_records.rules.{m}")
        classes |= {c for c in vars(module).values()
                    if isinstance(c, type) and issubclass(c, Rules) and c.__module__ == module.__name__ and "name" in vars(c)}
    return {key: f"{c.__module__}.{c.__qualname__}" for c in classes for key in (c.name, *c.aliases)}, classes


def test_every_game_name_is_found_from_a_fresh_interpreter():
    # find_variant imports the games' modules as far as the name asked for; the package's VARIANTS holds them all
    names, classes = _every_game()
    assert sum(1 + len(c.aliases) for c in classes) == len(names)  # no name of two games: the order looked in is moot
    assert {c.name for c in classes} >= {"jojotte", "jojotte-3", "jojotte-3box", "jojotte-4p", "jojotte-4s", "pitch", "baloot"}
    code = ("import json, sys; from jojotte_records.rules.base import find_variant; c = find_variant(sys.argv[1]); "
            "print(c.__module__ + '.' + c.__qualname__)")
    for name in sorted({c.name for c in classes}):
        for asked in (name, name.upper() + " "):
            done = subprocess.run([sys.executable, "-c", code, asked], capture_output=True, text=True, cwd=ROOT, timeout=60)
            assert done.stdout.strip() == names[name], done.stderr
    code = ("import json, jojotte_records as jr; "
            "print(json.dumps({k: c.__module__ + '.' + c.__qualname__ for k, c in jr.VARIANTS.items()}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert json.loads(done.stdout) == names, done.stderr
