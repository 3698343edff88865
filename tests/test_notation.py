"""The text notation: forgiving reading, canonical writing, locations of what cannot be read."""

from __future__ import annotations

import pytest

from conftest import EXAMPLES
from jojotte_records.cards import parse_card
from jojotte_records.notation.model import UNKNOWN_CARD, HandRecord, SessionHeader
from jojotte_records.notation.text import iter_records, read_session, read_sessions, write_session, write_sessions

SLOPPY = """\ufeff[event   "Typed at the table"]
[Game "jojotte"]
[Players "Alice; Bob"]
[FirstDealer "b"]
hand 1   dealer b
deal a: j♥ K♥ q♥ 7h A♠ 10s 8s kd qd ;  b: ah th 8h ac tc kc 9d 8d 7d
turned 9♥ info 8c
auction a ACCEPT, b p
after b meld 9d-8d-7d, a pass, a melds kh-qh-jh, a dix
trick 1: b AC, a KH Jo
"""


def test_sloppy_input_is_read_and_written_canonically():
    s = read_session(SLOPPY)
    assert s.header.get("Event") == "Typed at the table"
    hand = s.hands[0]
    assert not hand.issues
    assert hand.dealer == 1
    assert parse_card("JH") in hand.dealt[0] and parse_card("TS") in hand.dealt[0]
    assert hand.turned == parse_card("9H") and hand.info == parse_card("8C")
    assert [c.kind for c in hand.auction] == ["accept", "pass"]
    assert hand.after[0].melds[0].text() == "9D-7D"
    assert hand.tricks[0].plays[1].announce == "jo"
    text = write_session(s)
    assert "deal A: AS TS 8S KH QH JH 7H KD QD; B: AH TH 8H 9D 8D 7D AC KC TC" in text
    assert "after B melds 9D-7D, A pass, A melds KH-JH, A dix" in text
    assert "trick 1: B AC, A KH jo" in text
    assert text.startswith('[Format "1"]\n[Event "Typed at the table"]')


def test_canonical_text_round_trips_for_every_example():
    for path in sorted(EXAMPLES.glob("*.jjt")):
        once = write_sessions(read_sessions(path.read_text(encoding="utf-8")))
        twice = write_sessions(read_sessions(once))
        assert once == twice, path.name


def test_comments_survive_a_round_trip():
    text = (EXAMPLES / "spec-rubber.jjt").read_text(encoding="utf-8")
    out = write_sessions(read_sessions(text))
    assert "{K against 9: A wins class B}" in out
    assert "{void in clubs, must trump}" in out
    assert "{Example 9 of the rules spec (section 21): one rubber made of Examples 1, 2, 4 and 7a.}" in out


def test_multiline_comment_and_machine_data_are_kept():
    text = '[Game "jojotte"]\n\nhand 1 dealer A\nauction B pass {long\ncomment [%dd 12]}, A pass, B pass, A pass\n'
    s = read_session(text)
    call = s.hands[0].auction[0]
    assert call.comments == ("long\ncomment [%dd 12]",)
    assert write_session(read_session(write_session(s))) == write_session(s)


def test_unknown_cards_and_unknown_hands():
    text = '[Game "jojotte"]\n\nhand 1 dealer A\ndeal A: AS KS ? ? ? ?; B: -\nauction B pass, A pass, B pass, A pass\n'
    hand = read_session(text).hands[0]
    assert hand.dealt[0].count(UNKNOWN_CARD) == 4
    assert hand.dealt[1] is None
    assert "deal A: AS KS ? ? ? ?; B: -" in write_session(read_session(text))


def test_bad_card_is_reported_with_line_and_column_and_other_hands_are_read():
    text = ('[Game "jojotte"]\n\nhand 1 dealer A\nauction B pass, A pass, B pass, A pass\n'
            'hand 2 dealer B\ntrick 1: A Q*, B KS\n'
            'hand 3 dealer A\nauction B pass, A pass, B pass, A pass\n')
    hands = read_session(text).hands
    assert len(hands) == 3
    assert not hands[0].issues and not hands[2].issues
    (issue,) = hands[1].issues
    assert issue.kind == "syntax"
    assert (issue.loc.line, issue.loc.column, issue.loc.hand) == (6, 12, 2)
    assert "Q*" in issue.message


def test_unknown_line_is_kept_and_reported():
    text = '[Game "jojotte"]\n\nhand 1 dealer A\nauction B pass, A pass, B pass, A pass\nclock 12:30\n'
    hand = read_session(text).hands[0]
    assert hand.extra == (("clock", "12:30"),)
    assert hand.issues[0].loc.line == 5


def test_several_sessions_in_one_file_stream_one_hand_at_a_time():
    one = (EXAMPLES / "doubles.jjt").read_text(encoding="utf-8")
    items = list(iter_records(one + "\n" + one))
    kinds = [type(i).__name__ for i in items]
    assert kinds == ["SessionHeader", "HandRecord", "HandRecord", "HandRecord"] * 2
    assert isinstance(items[0], SessionHeader) and isinstance(items[1], HandRecord)


def test_tag_values_with_quotes_are_escaped():
    text = '[Event "The \\"big\\" night"]\n[Game "jojotte"]\n\nhand 1 dealer A\nauction B pass, A pass, B pass, A pass\n'
    s = read_session(text)
    assert s.header.get("Event") == 'The "big" night'
    assert '[Event "The \\"big\\" night"]' in write_session(s)


@pytest.mark.parametrize("players, says", [("Ann; Bob", "gives 2 name(s)"), ("N=Ann; N=Bob; Cy; Di", "names seat N twice"),
                                           ("Ann; ; Cy; Di", "gives 4 name(s)")])
def test_a_players_tag_that_cannot_be_read_is_found_at_its_line(players, says):
    # the place of the [Players] finding is looked up only when there is one (`games._players_at`): the tag's own line
    from jojotte_records.games import rules_for
    from jojotte_records.notation.text import iter_records

    text = f'[Event "x"]\n[Game "pitch"]\n\n[Players "{players}"]\n[FirstDealer "N"]\n\nhand 1 dealer N\n'
    header = next(iter_records(text, "p.jjt"))
    _, issues = rules_for(header)
    assert [(i.loc.source, i.loc.line, i.loc.column) for i in issues if says in i.message] == [("p.jjt", 4, 1)]


def test_a_comment_over_several_lines_keeps_the_places_of_the_cards_after_it():
    # the reader joins the physical lines of an open comment into one logical line: each card after it is placed on
    # its own physical line and column, and the plain lines after it keep their numbers
    text = ("[Game \"jojotte\"]\n\nhand 1 dealer B\n"
            "trick 1: B AC, {said\n"       # line 4
            "nothing at all\n"             # line 5
            "here} A KH\n"                 # line 6: A at column 7, KH at column 9
            "trick 2: A QH, B TH\n")       # line 7
    hand = next(r for r in iter_records(text) if isinstance(r, HandRecord))
    first, second = hand.tricks
    assert [(p.line, p.column) for p in first.plays] == [(4, 12), (6, 9)]
    assert (second.line, second.plays[0].line, second.plays[0].column) == (7, 7, 12)
