"""``jojotte record``: guided entry of a session at the table (the engine is `jojotte_records.table.recorder`)."""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from jojotte_records.errors import printable

from .common import fail

if TYPE_CHECKING:
    from jojotte_records.table.recorder import Recorder


def _print(text: object = "", flush: bool = True) -> None:
    """What the recorder shows, names and comments read from the file included: terminal controls escaped."""
    print(printable(str(text)), flush=flush)


HELP = """Log a session while it is played: the recorder asks for each event in order, offers the legal choices (Tab completes card names and calls) and refuses an illegal entry with its rule.

Each completed hand is appended to FILE and flushed to disk at once; an interruption (Ctrl-C, a crash, a closed terminal) loses at most the hand being entered. Run the same command again to resume.

Pitch and Baloot (`--game pitch`, `--game baloot`; five-handed Pitch with `--variant players=5`) are asked event by event: each seat's cards at a deal, refill or completion (or several on one line: `N: 6S JH …; E: …`), then each player's action, typed as its words in the notation (`6`, `pass`, `hearts`, `AH`, `W double`); the legal actions are listed, and Enter takes the only legal one.

At any prompt: `undo` takes back the last entry (back into the last saved hand, which the file keeps until it is saved again), `sheet` shows the score sheet, `help` the commands, `quit` stops (the hand being entered is not saved). Cards are typed as in the notation (`KH`, `10h`, `K♥`); `?` for cards nobody recorded. At the first card of a hand, `result` enters the hand as a summary (tricks and trick points per player); `claim` concedes the remaining tricks to the player to play (or `claim B`). See docs/tournament.md.

Examples:

  jojotte record table1.jjt --players "Alice,Bob" --event "Club night" --round 1 --table 1

  jojotte record table1.jjt          # resume where it stopped

  jojotte record --event-file event.toml --round 2 --table 3   # the table's file and players from the event
"""

COMMANDS = """commands: undo (take back the last entry), sheet (the score sheet), quit (stop; the hand being
entered is lost, saved hands are kept), help. Tab completes cards and calls."""


def register(app: typer.Typer) -> None:
    app.command("record", help=HELP)(record)


def _setup_completion(words_ref: list[tuple[str, ...]]) -> None:
    try:
        import readline
    except ImportError:  # pragma: no cover - no readline on this platform
        return

    def complete(text: str, state: int):
        pool = list(words_ref[0]) + ["undo", "sheet", "quit", "help"]
        up = text.upper()
        matches = [w for w in pool if w.upper().startswith(up)]
        return matches[state] if state < len(matches) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" ,;")
    if "libedit" in (readline.__doc__ or ""):  # pragma: no cover - macOS
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")


def _sheet(rec: "Recorder") -> str:
    """The running score sheet as a rich table, as the other tables of the command line are drawn."""
    import io

    from rich.console import Console
    from rich.table import Table

    from .common import cell

    table = Table(title=f"score sheet after {len(rec.hands)} hand(s)", title_justify="left")
    table.add_column("")
    if rec.events:  # Pitch, Baloot: one score per column (team or player)
        table.add_column("score", justify="right")
    else:
        for name in ("below", "above", "games", "rubbers", "total"):
            table.add_column(name, justify="right")
    for name, *figures in rec.sheet_rows():
        table.add_row(cell(name), *(str(f) for f in figures))
    out = io.StringIO()
    Console(file=out, width=200, no_color=True, highlight=False).print(table)
    lines = [line.rstrip() for line in out.getvalue().rstrip("\n").splitlines()]
    if rec.events and rec.over:
        lines.append(f"the game is over: {rec.winners_text()} won")
    if not rec.events and rec.sheet.pool:
        lines.append(f"held aside: {rec.sheet.pool}")
    return "\n".join(lines)


def _finished(rec: "Recorder", hands: int | None) -> str | None:
    """Why the session is over (the hands to play are played, or the rubbers agreed), or None."""
    if hands and len(rec.hands) >= hands:
        return f"all {hands} hands are recorded"
    if rec.events:
        return f"the game is over ({rec.winners_text()} won)" if rec.over else None
    agreed = rec.validator.session_length  # the [Rubbers] agreed
    if agreed and sum(rec.sheet.rubbers) >= agreed:
        return f"the {agreed} rubber(s) agreed are finished"
    return None


def record(
    file: Annotated[Path | None, typer.Argument(help="The session file (.jjt): created, or resumed when it exists.")] = None,
    event_file: Annotated[Path | None, typer.Option("--event-file", help="An event file (TOML): the table's file, players, game and tags come from it (with --round and --table).")] = None,
    game: Annotated[str | None, typer.Option("--game", "-g", help="Game of a new session (default jojotte; also pitch, baloot).")] = None,
    players: Annotated[str | None, typer.Option("--players", "-p", help="Players in seat order, comma-separated.")] = None,
    event: Annotated[str | None, typer.Option("--event", help="[Event] tag of a new session.")] = None,
    round_: Annotated[str | None, typer.Option("--round", help="[Round] tag of a new session.")] = None,
    table: Annotated[str | None, typer.Option("--table", help="[Table] tag of a new session.")] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="[Variant] options of a new session.")] = None,
    rubbers: Annotated[int | None, typer.Option("--rubbers", min=1, help="[Rubbers] agreed for a new session: the recorder stops when they are played.")] = None,
    hands: Annotated[int | None, typer.Option("--hands", min=1, help="Hands to play (default: the event file's hands): the recorder stops after them.")] = None,
) -> None:
    from jojotte_records.rules.base import find_variant
    from jojotte_records.table.recorder import Recorder, RecorderError

    if event_file is not None:
        from jojotte_records.table.tournament import EventError, load_event

        try:
            ev = load_event(event_file)
        except EventError as e:
            fail(str(e))
            return
        entry = next((t for t in ev.tables if str(t.round) == str(round_) and str(t.table) == str(table)), None)
        if entry is None:
            fail(f"{event_file} has no round {round_} table {table} (give --round and --table)")
            return
        if file is not None and file.resolve() != entry.path.resolve():
            fail(f"the event seats round {round_} table {table} in {entry.path}, not {file}")
            return
        file, game, players = entry.path, ev.game, ",".join(entry.players)
        event = event or ev.name
        variant = variant or getattr(ev, "variant", "") or None
        hands = hands or ev.hands
    if file is None:
        fail("give the session FILE (or --event-file with --round and --table)")
        return
    tags = {k: v for k, v in (("Event", event), ("Round", round_), ("Table", table), ("Variant", variant),
                              ("Rubbers", str(rubbers) if rubbers else None)) if v}
    if event_file is not None:
        tags.update({k: v for k, v in (("Site", ev.site), ("Date", ev.date)) if v})
    names = [n.strip() for n in players.replace(";", ",").split(",")] if players else None
    if names is None and not (file.exists() and file.read_text(encoding="utf-8").strip()):
        try:
            cls = find_variant(game or "jojotte")
            labels = (cls(cls.options_class.parse(variant)) if variant else cls()).seat_labels
            raw = input(f"players, in seat order {' '.join(labels)} (comma-separated): ")
        except ValueError as e:
            fail(str(e))
            return
        except (EOFError, KeyboardInterrupt):
            raise typer.Exit(130)
        names = [n.strip() for n in raw.replace(";", ",").split(",") if n.strip()] or None
    try:
        rec = Recorder(file, game=game, players=names, tags=tags, lock=True)
    except (RecorderError, ValueError, OSError) as e:
        fail(str(e))
        return
    try:
        _session(rec, file, hands)
    finally:
        rec.unlock()


def _session(rec: "Recorder", file: Path, hands: int | None) -> None:
    from jojotte_records.table.recorder import Accepted, Refusal

    _print(f"recording {rec.cls.title} into {file}: " + ", ".join(f"{l} = {n}" for l, n in zip(rec.labels, rec.names)), flush=True)
    if rec.torn:
        _print(f"the last hand in the file was cut short; it was moved to {file}.torn and is entered again", flush=True)
    if rec.hands:
        bad = sum(1 for v in rec.verdicts if v.issues)
        _print(f"resuming: {len(rec.hands)} hand(s) already recorded" + (f", {bad} with errors" if bad else ""), flush=True)
        _print(_sheet(rec), flush=True)
    _print(COMMANDS, flush=True)
    words: list[tuple[str, ...]] = [()]
    _setup_completion(words)
    try:
        while True:
            done = None if rec.in_hand() else _finished(rec, hands)
            if done:
                _print(f"{done}: the session is complete. Type undo to take the last hand back, or quit.", flush=True)
                try:
                    line = input("> ")
                except EOFError:
                    _print(flush=True)
                    break
                if line.strip().lower() == "undo":
                    _print(rec.undo() or "nothing to undo", flush=True)
                    continue
                if line.strip().lower() == "sheet":
                    _print(_sheet(rec), flush=True)
                    continue
                break
            q = rec.question()
            words[0] = q.words
            _print(q.text + (f" [{q.default}]" if q.default else ""), flush=True)
            if q.choices:
                _print("  legal: " + ", ".join(q.choices), flush=True)
            try:
                line = input("> ")
            except EOFError:
                _print(flush=True)
                break
            cmd = line.strip().lower()
            if cmd in ("quit", "exit", "q"):
                break
            if cmd == "help":
                _print(COMMANDS, flush=True)
                continue
            if cmd == "sheet":
                _print(_sheet(rec), flush=True)
                continue
            out = rec.answer(line)
            if isinstance(out, Refusal):
                _print(str(out), flush=True)
                continue
            assert isinstance(out, Accepted)
            if out.verdict is None:
                if cmd == "undo":
                    _print(out.text, flush=True)
                continue
            v = out.verdict
            _print(f"hand {v.number} saved: score {rec.score_text(v)}", flush=True)
            for issue in v.issues:
                _print(f"  note: {issue.message} ({issue.rule})", flush=True)
            _print(_sheet(rec), flush=True)
    except KeyboardInterrupt:
        _print(flush=True)
        lost = (f"the corrections to hand {rec.hand_number} are not saved (the file keeps it as it was); " if rec.reopened
                else f"hand {rec.hand_number} was not finished and is not saved; " if rec.in_hand() else "")
        _print(f"interrupted: {lost}{len(rec.hands) + rec.reopened} hand(s) are saved in {file}. "
              "Run the same command again to resume.", flush=True)
        raise typer.Exit(130)
    if rec.reopened:
        _print(f"stopped: the corrections to hand {rec.hand_number} are not saved; the file keeps it as it was.", flush=True)
    elif rec.in_hand():
        _print(f"stopped: hand {rec.hand_number} was not finished and is not saved.", flush=True)
    _print(f"{len(rec.hands) + rec.reopened} hand(s) saved in {file}.", flush=True)
    sys.stdout.flush()
