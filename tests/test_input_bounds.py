"""A long tag value is read in memory linear in its length and bounded; messages never quote more than a few words.

Issue 16 item 6: the tag regex kept ~170 bytes per character of a tag value (a 5 MB [Event] took 975 MB),
and a 50 MB line was printed back whole in its message.
"""

from __future__ import annotations

import tracemalloc

from jojotte_records.errors import MAX_QUOTE, MAX_TAG_VALUE, shown
from jojotte_records.notation.text import read_sessions

BIG = 5_000_000


def _peak_of(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_five_megabyte_tag_reads_in_bounded_memory_with_a_located_error():
    text = '[Event "' + "x" * BIG + '"]\n[Game "jojotte"]\n\nhand 1 dealer B\n-\n'
    result = {}
    peak = _peak_of(lambda: result.setdefault("s", read_sessions(text, "big.jjt")))
    # The input itself is 5 MB (one byte per ASCII character); a linear reader copies the line a few times at most.
    # 50 MB is ten copies: the regex took ~850 MB here.
    assert peak < 50_000_000, peak
    (session,) = result["s"]
    issues = session.header.issues
    assert len(issues) == 1, issues
    issue = issues[0]
    assert (issue.loc.line, issue.loc.column) == (1, 1)
    assert issue.kind == "syntax"
    assert f"{BIG:,}" in issue.message and f"{MAX_TAG_VALUE:,}" in issue.message
    assert len(str(issue)) < 200
    assert session.header.get("Event") is None  # not kept
    assert session.header.get("Game") == "jojotte"


def test_a_tag_at_the_bound_is_kept_and_escapes_still_read():
    # the bound counts the characters written between the quotes: \" and \\ are two each
    value = "a" * (MAX_TAG_VALUE - 5) + '\\"b\\\\'
    assert len(value) == MAX_TAG_VALUE
    (session,) = read_sessions(f'[Event "{value}"]\n[Game "jojotte"]\n\nhand 1 dealer B\n-\n', "t.jjt")
    assert session.header.issues == ()
    assert session.header.get("Event") == "a" * (MAX_TAG_VALUE - 5) + '"b\\'
    (session,) = read_sessions(f'[Event "a{value}"]\n[Game "jojotte"]\n\nhand 1 dealer B\n-\n', "t.jjt")
    assert [i.loc.line for i in session.header.issues] == [1]


def test_a_tag_with_an_unclosed_quote_is_a_located_error():
    (session,) = read_sessions('[Event "Club]\n[Game "jojotte"]\n\nhand 1 dealer B\n-\n', "t.jjt")
    assert [(i.loc.line, i.kind) for i in session.header.issues] == [(1, "syntax")]


def test_shown_cuts_a_long_token():
    assert shown("KS") == "KS"
    assert shown("x" * MAX_QUOTE) == "x" * MAX_QUOTE
    cut = shown("x" * (MAX_QUOTE + 1))
    assert cut == "x" * (MAX_QUOTE - 1) + "…" and len(cut) == MAX_QUOTE


def test_messages_quote_at_most_a_few_words_of_a_huge_token_in_both_readers():
    huge = "Z" * 1_000_000
    jj = f'[Game "jojotte"]\n[Players "Alice; Bob"]\n\nhand 1 dealer B\ntrick 1: {huge} KS\nfoo{huge}\n'
    pitch = (f'[Game "pitch"]\n[Players "Ann; Ben; Cy; Di"]\n\nhand 1 dealer N\nbids N 5, E pass, S pass, W pass\n'
             f'score {huge} 4, EW 0\nscore NS {huge}\n')
    for text in (jj, pitch):
        (session,) = read_sessions(text, "t.jjt")
        issues = [i for h in session.hands for i in h.issues]
        assert issues, text[:80]
        for issue in issues:
            # the file position, the hand, the message's own words and at most MAX_QUOTE characters of input
            assert len(str(issue)) < 250, str(issue)[:300]
