"""The recorder's `sheet` is a rich table like the other tables of the command line (issue 16 item 12): a
title, one column per figure, a row per sheet column, drawn with box lines."""

from __future__ import annotations

from types import SimpleNamespace

from jojotte_records.cli.record import _sheet


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def test_the_jojotte_sheet_is_a_table_with_its_figures():
    # spec-rubber after hand 1 (README tour): Alice 110 below, 20 above; Bob 40 above
    rec = SimpleNamespace(events=False, hands=[1], sheet=SimpleNamespace(pool=0),
                          sheet_rows=lambda: [("Alice", 110, 20, 0, 0, 130), ("Bob", 0, 40, 0, 0, 40)])
    lines = _lines(_sheet(rec))
    assert lines[0] == "score sheet after 1 hand(s)"
    assert any("┃" in line for line in lines) and any("│" in line for line in lines)  # rich's box lines
    header = next(line for line in lines if "below" in line)
    assert [w for w in header.replace("┃", " ").split()] == ["below", "above", "games", "rubbers", "total"]
    alice = next(line for line in lines if "Alice" in line)
    assert alice.replace("│", " ").split() == ["Alice", "110", "20", "0", "0", "130"]
    assert "held aside" not in "\n".join(lines)


def test_the_event_sheet_is_a_table_and_says_who_won():
    rec = SimpleNamespace(events=True, hands=[1, 2], over=True, winners_text=lambda: "Nura and Sami",
                          sheet_rows=lambda: [("Nura and Sami", 152), ("Waleed and Eman", 87)])
    lines = _lines(_sheet(rec))
    assert lines[0] == "score sheet after 2 hand(s)"
    assert next(line for line in lines if "Waleed" in line).replace("│", " ").split() == ["Waleed", "and", "Eman", "87"]
    assert lines[-1] == "the game is over: Nura and Sami won"


def test_a_name_is_printed_as_written_not_as_markup():
    rec = SimpleNamespace(events=True, hands=[1], over=False, sheet_rows=lambda: [("[bold]Ann[/bold]", 3), ("Bo", 1)])
    assert "[bold]Ann[/bold]" in _sheet(rec)
