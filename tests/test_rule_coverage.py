"""Every program-checkable rule ID of §1–20 of the rules spec is asserted by at least one test to be cited.

The IDs are read from the spec itself (``ROOT.parent / "shared" / "rules" / "jojotte.md"``): every
``**JJ-…-n**`` defined between the heading of section 1 and the heading of section 18 (and the
``JJ3-…``, ``JJ4P-…``, ``JJ4S-…`` of §18–20). A rule counts as cited only where a test asserts that
it was cited: its exact ID (``JJ-PLAY-1`` is not ``JJ-PLAY-10``) in a string of the condition of an
``assert`` statement (not its message), or a whole string of a ``pytest.mark.parametrize`` table
(inline, or the module-level table the decorator names), or a ``rule`` that
``examples/disputes/expected.json`` expects (``test_disputes`` asserts each). The tests are parsed with
``ast``: a comment, a docstring, a test's name or an assert's message does not count.

A rule that only describes the game or says what an act scores is often tested by value, not by
citation; such rules are listed in ``KNOWN_GAP`` with the reason, and the list is held exact: an ID
that becomes asserted must leave it.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT.parent / "shared" / "rules" / "jojotte.md"
TESTS = Path(__file__).resolve().parent

FAMILIES = ("DECK", "PTS", "DEAL", "BID", "DBL", "DRAW", "POST", "MELD", "DIX", "PLAY", "JOJOTTE", "SCORE", "PRIS",
            "NULLO", "SLAM", "GAME", "RUBBER", "SESSION", "INV")

# Rule IDs of §1–17 that no program can check from a record. Keep this list as short as honest.
# It is empty: every rule has a checkable part. In particular JJ-DEAL-1 (the physical cut) is not
# listed because its checkable part, "a validator that does not receive the cut accepts the recorded
# first dealer", is tested (hand 1 must be dealt by [FirstDealer]); the cut itself is never recorded.
NOT_CHECKABLE: dict[str, str] = {}

_VALUE = "tested by value (the figures or the state it gives), not by a citation"
_ORDER = "card order or points: the core never cites it; " + _VALUE
_SCORE = "a scoring rule the core credits under another rule's ID (or not at all); " + _VALUE
_FLOW = "the course of the hand: it moves the state and is never an error of its own; " + _VALUE
_MELD = "the meld comparison: it decides who scores, the core cites JJ-MELD-12 for the points; " + _VALUE
# Rules that are checked but never asserted to be cited (see the module documentation): 69 when this list was
# made (59 of §1–17 and 10 of §18–20); the list is held exact in both directions.
KNOWN_GAP: dict[str, str] = {
    **{i: _ORDER for i in ("JJ-DECK-2", "JJ-DECK-3", "JJ-DECK-4", "JJ-DECK-5", "JJ-PTS-1", "JJ-PTS-2", "JJ-PTS-5",
                           "JJ-PTS-6")},
    **{i: _FLOW for i in ("JJ-DEAL-4", "JJ-BID-11", "JJ-DRAW-2", "JJ-POST-4", "JJ-POST-5", "JJ-POST-7", "JJ-POST-8",
                          "JJ-PLAY-9", "JJ-NULLO-1", "JJ-NULLO-3", "JJ-NULLO-4", "JJ-SLAM-2", "JJ-JOJOTTE-6",
                          "JJ3-DEAL-1", "JJ4P-SEAT-1", "JJ4P-DEAL-1", "JJ4S-4")},
    **{i: _MELD for i in ("JJ-MELD-6", "JJ-MELD-7", "JJ-MELD-8", "JJ-MELD-9", "JJ-MELD-10",
                          "JJ-MELD-13", "JJ-MELD-14")},
    **{i: _SCORE for i in ("JJ-DBL-3", "JJ-DBL-4", "JJ-DBL-5", "JJ-JOJOTTE-4", "JJ-JOJOTTE-7", "JJ-SCORE-2",
                           "JJ-SCORE-6", "JJ-SCORE-7", "JJ-SCORE-8", "JJ-SCORE-9", "JJ-SCORE-10", "JJ-PRIS-2",
                           "JJ-PRIS-4", "JJ-PRIS-5", "JJ-PRIS-6", "JJ-NULLO-5", "JJ-NULLO-8", "JJ-NULLO-9",
                           "JJ-NULLO-10", "JJ-NULLO-11", "JJ-NULLO-12", "JJ-SLAM-6", "JJ-GAME-1", "JJ-GAME-2",
                           "JJ-GAME-3", "JJ-RUBBER-2", "JJ3-SCORE-4", "JJ3-SCORE-5", "JJ3-SCORE-7", "JJ3-GAME-1",
                           "JJ4P-SCORE-1", "JJ4P-GAME-1")},
    **{i: "an invariant of the sheet or the sheet's columns; " + _VALUE for i in ("JJ-INV-5", "JJ-INV-6", "JJ-INV-7",
                                                                                  "JJ-INV-8")},
}



def _spec_ids(first: int, after: int, pattern: str) -> list[str]:
    """The rule IDs (``pattern``) defined in the spec's sections ``first`` up to ``after`` (excluded), in order."""
    if not SPEC.is_file():
        pytest.skip(f"the rules spec is not at {SPEC} (shared/ beside the repository); cannot list its rule IDs")
    text = SPEC.read_text(encoding="utf-8")
    start = re.search(rf"^## {first}\. ", text, re.M)
    end = re.search(rf"^## {after}\. ", text, re.M)
    assert start and end, f"the spec's section headings for §{first} and §{after} were not found"
    ids = re.findall(rf"\*\*({pattern})\*\*", text[start.start():end.start()])
    assert ids, f"no rule IDs found in §{first}–{after - 1}"
    return list(dict.fromkeys(ids))


def spec_rule_ids() -> list[str]:
    return _spec_ids(1, 18, r"JJ-[A-Z]+-\d+")


_ANY_ID = re.compile(r"JJ(?:3|4P|4S)?-(?:[A-Z]+-)?\d+(?!\d)")
DISPUTES = ROOT / "examples" / "disputes" / "expected.json"


def _strings(node: ast.AST):
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            yield n.value


def asserted_ids_of(source: str) -> set[str]:
    """The rule IDs a test module asserts to be cited (see the module documentation)."""
    tree = ast.parse(source)
    found: set[str] = set()
    tables: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Assert):
            for s in _strings(n.test):
                found.update(_ANY_ID.findall(s))
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in n.decorator_list:
                if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "parametrize":
                    for arg in d.args[1:]:
                        if isinstance(arg, ast.Name):
                            tables.add(arg.id)
                        else:
                            found.update(s for s in _strings(arg) if _ANY_ID.fullmatch(s))
    for n in tree.body:
        if isinstance(n, (ast.Assign, ast.AnnAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if n.value is not None and any(isinstance(x, ast.Name) and x.id in tables for x in targets):
                found.update(s for s in _strings(n.value) if _ANY_ID.fullmatch(s))
    return found


def _asserted_ids() -> set[str]:
    found: set[str] = set()
    for path in TESTS.glob("*.py"):
        if path.resolve() != Path(__file__).resolve():
            found |= asserted_ids_of(path.read_text(encoding="utf-8"))
    if DISPUTES.is_file():
        found |= {e["rule"] for e in json.loads(DISPUTES.read_text(encoding="utf-8")).values()}
    return found


def cited_ids() -> set[str]:
    return _asserted_ids()


def test_spec_defines_every_rule_family():
    ids = spec_rule_ids()
    families = {i.split("-")[1] for i in ids}
    assert families == set(FAMILIES)
    assert len(ids) == len(set(ids))


def test_every_rule_id_of_sections_1_to_17_is_cited_by_a_test():
    ids = spec_rule_ids()
    cited = cited_ids()
    missing = [i for i in ids if i not in cited and i not in NOT_CHECKABLE and i not in KNOWN_GAP]
    assert not missing, f"rule IDs of §1–17 no test asserts to be cited: {', '.join(missing)}"


def test_known_gap_is_exact():
    ids = set(spec_rule_ids()) | set(spec_rule_ids_18_to_20())
    assert set(KNOWN_GAP) <= ids, f"KNOWN_GAP names IDs the spec does not define: {sorted(set(KNOWN_GAP) - ids)}"
    stale = sorted(set(KNOWN_GAP) & cited_ids())
    assert not stale, f"these IDs are now asserted to be cited, so remove them from KNOWN_GAP: {stale}"


def test_only_assertions_count_as_citations():
    source = '''
"""JJ-PLAY-1 in a docstring"""
import pytest
TABLE = [("a lead", "JJ-PLAY-2"), ("text naming JJ-PLAY-3", None)]
# JJ-PLAY-4 in a comment
def helper():
    return "JJ-PLAY-5"
def test_jj_play_6_by_name():
    assert check() == "JJ-PLAY-7", "JJ-PLAY-8 in the message"
@pytest.mark.parametrize("act, rule", TABLE)
def test_table(act, rule):
    pass
@pytest.mark.parametrize("rule", ["JJ3-ACT-1"])
def test_inline(rule):
    pass
'''
    assert asserted_ids_of(source) == {"JJ-PLAY-7", "JJ-PLAY-2", "JJ3-ACT-1"}


def test_not_checkable_list_is_honest():
    ids = set(spec_rule_ids())
    assert set(NOT_CHECKABLE) <= ids, "NOT_CHECKABLE names IDs the spec does not define"
    cited = cited_ids()
    stale = sorted(set(NOT_CHECKABLE) & cited)
    assert not stale, f"these IDs are tested, so remove them from NOT_CHECKABLE: {stale}"


# --- §18–20: three players, four in partnerships, four without partners --------------------------------



def spec_rule_ids_18_to_20() -> list[str]:
    return _spec_ids(18, 21, r"JJ(?:3|4P|4S)-(?:[A-Z]+-)?\d+")


def cited_ids_18_to_20() -> set[str]:
    return _asserted_ids()


def test_spec_defines_the_rules_of_the_larger_tables():
    ids = spec_rule_ids_18_to_20()
    assert {i.split("-")[0] for i in ids} == {"JJ3", "JJ4P", "JJ4S"}
    assert len(ids) == len(set(ids))


def test_every_rule_id_of_sections_18_to_20_is_cited_by_a_test():
    cited = cited_ids_18_to_20()
    missing = [i for i in spec_rule_ids_18_to_20() if i not in cited and i not in KNOWN_GAP]
    assert not missing, f"rule IDs of §18–20 cited by no test: {', '.join(missing)}"
