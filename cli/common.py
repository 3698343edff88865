"""Small helpers shared by the commands: progress bars on standard error, error exits."""

from __future__ import annotations

import os
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import typer
from typer._coercion import RuntimeParam, build_runtime_param
from typer.core import TyperArgument, TyperGroup, TyperOption

from jojotte_records.errors import printable, printable_json

if TYPE_CHECKING:
    from rich.text import Text

# The exit codes of every command (README, "Exit codes"):
EXIT_OK = 0  # done: every input read (validate: every hand legal and every written score right)
EXIT_FINDINGS = 1  # findings: an illegal event or a wrong score (validate), a table missing or disputed (event check), a stale schema
EXIT_INPUT = 2  # input that cannot be read (missing, unreadable, empty, not UTF-8, not the notation) or a usage error

_CONSOLE: list = []  # rich's console on standard error, made on first use (rich is not imported at start-up)


def stderr_console():
    """The one rich console on standard error (errors, progress bars)."""
    if not _CONSOLE:
        from rich.console import Console

        _CONSOLE.append(Console(stderr=True))
    return _CONSOLE[0]


def bar_options() -> dict:
    """Every progress display of the commands: on standard error, cleared when done, and never redirecting
    sys.stdout / sys.stderr (rich does by default), so that what a command writes goes where the user sent it."""
    return dict(console=stderr_console(), transient=True, redirect_stdout=False, redirect_stderr=False)


def __getattr__(name: str):
    # the names of the console and the bar's options as they were before start-up became lazy
    if name == "err_console":
        return stderr_console()
    if name == "BAR_OPTIONS":
        return bar_options()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


LIVE: list = []  # the consoles of the progress displays being shown (echo prints through the last)


def _same_terminal() -> bool:
    try:
        return os.path.samestat(os.fstat(sys.stdout.fileno()), os.fstat(sys.stderr.fileno()))
    except (OSError, ValueError, AttributeError):
        return False


def echo(message: object = "", err: bool = False, nl: bool = True) -> None:
    """Print a line that may quote the input: every command's output boundary (`printable`, issue 16).

    While a progress bar is shown on the terminal the line goes to, it is printed through the bar's console,
    which takes the bar off the line first and draws it again below (issue 16: findings were printed after the bar).
    """
    text = printable(str(message))
    if LIVE and (err or _same_terminal()):
        from rich.text import Text

        LIVE[-1].print(Text(text), soft_wrap=True, highlight=False, end="\n" if nl else "")
        return
    typer.echo(text, err=err, nl=nl)


def echo_json(text: str) -> None:
    """Print a JSON text, its strings' terminal controls escaped (`printable_json`)."""
    typer.echo(printable_json(text))


def cell(value: object) -> Text:
    """A table cell from the input: terminal controls escaped, and never read as rich markup."""
    from rich.text import Text

    return Text("" if value is None else printable(str(value)))


def fail(message: str, code: int = 2) -> None:
    from rich.markup import escape

    # soft_wrap: rich does not cut the line at the console's width (a pipe or a file is not 80 columns wide)
    stderr_console().print(f"[red]error:[/red] {escape(printable(message))}", markup=True, highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def progress(description: str, total: int | None = None, enabled: bool | None = None):
    """A rich progress bar on standard error, shown only when it is a terminal. Yields ``advance(n)``.

    The bar never redirects stdout or stderr: commands write their records to stdout while it is shown,
    and a redirected stdout would send them to the screen instead of the pipe or file (issue 16).
    """
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield lambda n=1: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), **bar_options()) as bar:
        task = bar.add_task(description, total=total, rate="")
        LIVE.append(bar.console)
        import time

        start = time.perf_counter()
        done = 0

        def advance(n: int = 1) -> None:
            nonlocal done
            done += n
            elapsed = time.perf_counter() - start
            bar.update(task, advance=n, rate=f"{done / elapsed:,.0f}/s" if elapsed > 0 else "")

        try:
            yield advance
        finally:
            LIVE.pop()


def unreadable_headers(paths) -> list:
    """The unknown games and options in the tags of the record files ``paths`` (`games.unreadable_tags`), for the
    commands that draw or analyse such a session anyway (report, analyze) and exit 2 for it, as validate does.

    A second, reading-only pass over the files; standard input is read again from its spool (`open_stdin`).
    """
    from jojotte_records.games import unreadable_tags
    from jojotte_records.notation.model import SessionHeader
    from jojotte_records.replay.files import iter_record_files, open_records

    found = []
    for path in iter_record_files(paths):
        try:
            for item in open_records(path):
                if isinstance(item, SessionHeader):
                    found.extend(unreadable_tags(item))
        except (OSError, UnicodeDecodeError, ValueError):  # what cannot be read at all: the command reports it
            continue
    return found


# --- usage and help that read naturally (issue 16: typer wrote `{paths}...` and `<bool>`) ---------------------

_CONVERT = object()  # `_as_given`: the value needs typer's conversion


def _as_given(value, param):
    """What typer's conversion of ``param`` gives for ``value`` where that is the value itself: a string of a plain
    ``str`` parameter, strings of a ``list[str]`` one (as a list), the declared default of an ``int``, ``float`` or
    ``str`` one (tests/test_startup.py holds these equal to typer's own conversion); else `_CONVERT`."""
    desc = param.type_descriptor
    if desc.parameter_info.parser is not None:
        return _CONVERT
    kind = desc.annotation
    if kind is str and type(value) is str:
        return value
    if kind == list[str] and isinstance(value, (list, tuple)) and all(type(v) is str for v in value):
        return list(value)
    if value is param.default and type(value) is kind and kind in (int, float, str):
        return value
    return _CONVERT


@dataclass(frozen=True)
class _DeferredConversion(RuntimeParam):
    """typer's conversion of a parameter's value, its pydantic TypeAdapter made only for a value that needs one.

    Typer 0.29 makes a TypeAdapter for every parameter it is given a value for, left-out flags (None) included,
    which imports pydantic (about 0.2 s of start-up, issue 14). `RuntimeParam.coerce` (typer's) still handles None
    and the kind of value; `_as_given` answers the plain cases; anything else goes to typer's conversion, made once.
    """

    made: list = field(default_factory=list)

    def _coerce_value(self, value, param, ctx):
        given = _as_given(value, param)
        if given is not _CONVERT:
            return given
        if not self.made:
            self.made.append(build_runtime_param(param.type_descriptor))
        return self.made[0]._coerce_value(value, param=param, ctx=ctx)


def _deferred_runtime_param(param) -> RuntimeParam:
    """`_Argument.get_runtime_param` and `_Option.get_runtime_param`: typer's, with `_DeferredConversion`."""
    if param._runtime_param is None:
        desc = param.type_descriptor
        param._runtime_param = _DeferredConversion(annotation=desc.annotation, parameter_info=desc.parameter_info)
    return param._runtime_param


class _Argument(TyperArgument):
    """An argument named in capitals, as click writes it: ``PATHS...``, ``[PATHS]...`` when it may be left out."""

    get_runtime_param = _deferred_runtime_param

    def _usage_display_name(self) -> str:
        name = self.metavar or self.name.upper()
        if self.required:
            return name
        return f"[{name[:-3]}]..." if name.endswith("...") else f"[{name}]"

    def display_type_rich(self, ctx) -> str | None:
        return None  # its name says what it is; the help says the rest


class _Option(TyperOption):
    """A flag shows no type (it takes no value); a repeated option shows its item's type, not ``<list[str]>``."""

    get_runtime_param = _deferred_runtime_param

    def display_type_rich(self, ctx) -> str | None:
        if self.is_flag or self.count:
            return None
        shown = super().display_type_rich(ctx)
        if shown and shown.startswith("<list[") and shown.endswith("]>"):
            return f"<{shown[6:-2]}>"
        return shown


def reflowed(text: str | None) -> str | None:
    """``text`` with each paragraph of prose on one line, for rich to wrap at the terminal's width.

    The help texts are written in the source at about 110 columns; rich keeps their single line breaks, so at 80
    columns each source line ended in a stray short line. A paragraph starting with ``\\b``, or with an indented
    line that is not a list item's continuation (examples), keeps its lines; in a list (lines starting ``- ``,
    ``* `` or ``1. ``) each item becomes one line."""
    if not text:
        return text
    import inspect

    paragraphs = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        lines = paragraph.split("\n")
        examples = not _LIST_ITEM.match(lines[0]) and any(line[:1].isspace() for line in lines)
        if paragraph.startswith("\b") or examples:
            paragraphs.append(paragraph)
            continue
        items: list[str] = []
        for line in lines:
            if items and not _LIST_ITEM.match(line):
                items[-1] += " " + line.strip()
            else:
                items.append(line.strip())
        paragraphs.append("\n".join(items))
    return "\n\n".join(paragraphs)


_LIST_ITEM = re.compile(r"(?:[-*]|\d+\.) ")


def natural_names(command) -> None:
    """Give every parameter of ``command`` and of its subcommands the names above, and reflow its help (once, when
    the app is built)."""
    command.help = reflowed(command.help)
    _natural_params(command)
    made = command.get_help_option  # --help is made when a context asks for it

    def help_option(ctx):
        option = made(ctx)
        if type(option) is TyperOption:
            option.__class__ = _Option
        return option
    command.get_help_option = help_option
    for sub in getattr(command, "commands", {}).values():
        natural_names(sub)


def _natural_params(command) -> None:
    for param in command.params:
        if type(param) is TyperArgument:
            if param.metavar is None:
                param.metavar = param.name.upper() + ("..." if param.nargs != 1 else "")
            param.__class__ = _Argument
        elif type(param) is TyperOption:
            param.__class__ = _Option


class NaturalGroup(TyperGroup):
    """The root group of the app: its commands' usage and help with `natural_names`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        natural_names(self)

    def get_params(self, ctx):
        # typer adds --install-completion and --show-completion to the group after making it (they showed <bool>)
        _natural_params(self)
        return super().get_params(ctx)

    def main(self, args=None, prog_name=None, **kwargs):
        """Typer's `main`; a usage error on a pipe or a file is printed as click's plain lines, not in rich's box,
        which is cut at 80 columns where there is no terminal (issue 16: a long option value was cut mid-word)."""
        from typer.core import _main

        kwargs["rich_markup_mode"] = self.rich_markup_mode if sys.stderr.isatty() else None
        return _main(self, args=args, prog_name=prog_name, **kwargs)
