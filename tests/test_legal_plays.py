"""Which cards may be played (JJ-PLAY-2…7, JJ-PLAY-9; §21 Example 10.3 with OP-06's values).

Each row: the hand, the cards already in the trick (leader first), the trump suit (-1 = NT/Nullo),
the legal cards and the rule that limits them."""

from __future__ import annotations

import pytest
from jj_helpers import H, S, cards, full_hand, mask, names, play, rules_with, run_plays

from conftest import session, validate_text
from jojotte_records.rules.jojotte import JojotteRules
from jojotte_records.rules.jojotte_cards import NO_TRUMP, legal_play_mask

TWO_PLAYER = [
    # id, hand, trick, trump, legal, rule
    ("JJ-PLAY-2 leader plays anything", "AS 7D JH 8C", "", H, "AS 7D JH 8C", "JJ-PLAY-2"),
    ("JJ-PLAY-2 leader in NT", "AS 7D", "", NO_TRUMP, "AS 7D", "JJ-PLAY-2"),
    ("JJ-PLAY-3 follow suit rather than trump", "KS 7S JH AD", "AS", H, "KS 7S", "JJ-PLAY-3"),
    ("JJ-PLAY-3 follow even when it cannot win", "7S JH AD", "AS", H, "7S", "JJ-PLAY-3"),
    ("JJ-PLAY-3 any card of the suit, no need to win", "AS 7S", "KS", H, "AS 7S", "JJ-PLAY-3"),
    ("JJ-PLAY-4 must beat the trump led", "JH 8H AS", "9H", H, "JH", "JJ-PLAY-4"),
    ("JJ-PLAY-4 any trump that beats", "JH 9H 7H AS", "AH", H, "JH 9H", "JJ-PLAY-4"),
    ("JJ-PLAY-4 A beats K in trumps", "AH 8H", "KH", H, "AH", "JJ-PLAY-4"),
    ("JJ-PLAY-4 cannot beat 9 with A T: follow", "AH TH QS", "9H", H, "AH TH", "JJ-PLAY-4"),
    ("JJ-PLAY-4 cannot beat A with T: follow", "TH 8H KS", "AH", H, "TH 8H", "JJ-PLAY-4"),
    ("JJ-PLAY-4 cannot beat Q: follow", "8H 7H AS", "QH", H, "8H 7H", "JJ-PLAY-4"),
    ("JJ-PLAY-4 nothing beats J: follow", "9H 7H AS", "JH", H, "9H 7H", "JJ-PLAY-4"),
    ("JJ-PLAY-7 trump led, no trump held", "AS KD", "JH", H, "AS KD", "JJ-PLAY-7"),
    ("JJ-PLAY-5 void must trump", "7H QD", "AS", H, "7H", "JJ-PLAY-5"),
    ("JJ-PLAY-5 void, any trump", "7H JH QD KC", "AS", H, "7H JH", "JJ-PLAY-5"),
    ("JJ-PLAY-5 spades trump, void in clubs", "7S AH", "7C", S, "7S", "JJ-PLAY-5"),
    ("JJ-PLAY-7 neither follow nor trump", "QD KC 9D", "AS", H, "QD KC 9D", "JJ-PLAY-7"),
    ("JJ-PLAY-9 NT: follow, no duty to win", "AS 7S KH", "TS", NO_TRUMP, "AS 7S", "JJ-PLAY-3"),
    ("JJ-PLAY-9 NT: void, any card", "KH QD 9C", "TS", NO_TRUMP, "KH QD 9C", "JJ-PLAY-7"),
    ("JJ-PLAY-9 Nullo: no trump, hearts may be kept", "JH 7H QD", "AS", NO_TRUMP, "JH 7H QD", "JJ-PLAY-7"),
    ("JJ-PLAY-9 Nullo: follow hearts without beating", "AH 7H", "9H", NO_TRUMP, "AH 7H", "JJ-PLAY-3"),
]


@pytest.mark.parametrize("hand, trick, trump, legal, rule", [r[1:] for r in TWO_PLAYER], ids=[r[0] for r in TWO_PLAYER])
def test_legal_plays_two_player(hand, trick, trump, legal, rule):
    got = legal_play_mask(mask(hand), tuple(cards(trick)), trump)
    assert names(got.mask) == set(legal.split())
    assert got.rule == rule


# §21 Example 10.3 (four players, hearts trump; N-S against E-W, play order N E S W).
# ruff_must_beat: for each earlier card, is its player an opponent of the player to play.
FOUR_PLAYER = [
    # id, hand, trick, overtrump_on_ruff, ruff_must_beat, legal, rule
    ("E ruffs the AS lead: 8H or QH", "8H QH", "AS", "never", (True,), "8H QH", "JJ-PLAY-5"),
    ("JJ-PLAY-6 default: S need not overtrump", "JH 7H KC", "AS 8H", "never", (False, True), "JH 7H", "JJ-PLAY-5"),
    ("JJ-PLAY-6 always: S must overtrump", "JH 7H KC", "AS 8H", "always", (False, True), "JH", "JJ-PLAY-6"),
    ("JJ-PLAY-6 over_opponent_only: E is an opponent", "JH 7H KC", "AS 8H", "over_opponent_only", (False, True),
     "JH", "JJ-PLAY-6"),
    ("JJ-PLAY-6 always, cannot overtrump: still trump", "7H KC", "AS 8H", "always", (False, True), "7H", "JJ-PLAY-5"),
    ("JJ-PLAY-6 over_opponent_only, partner's trump only", "JH 7H", "AS 9H 7S", "over_opponent_only",
     (True, False, True), "JH 7H", "JJ-PLAY-5"),
    ("JJ-PLAY-6 always, partner's trump too", "JH 7H", "AS 9H 7S", "always", (True, False, True), "JH", "JJ-PLAY-6"),
    ("JJ-PLAY-7 W void in spades and trumps (never)", "KD QC 9D", "AS 8H 7H", "never", (False, True, False),
     "KD QC 9D", "JJ-PLAY-7"),
    ("JJ-PLAY-7 W void in spades and trumps (always)", "KD QC 9D", "AS 8H 7H", "always", (False, True, False),
     "KD QC 9D", "JJ-PLAY-7"),
    ("JJ-PLAY-3 S must follow spades even when E ruffed", "7S JH", "AS 8H", "always", (False, True), "7S",
     "JJ-PLAY-3"),
    # trump lead: N KH; everyone must beat the highest trump so far if he can (JJ-PLAY-4)
    ("JJ-PLAY-4 E must play 9H over KH", "9H QH 7D", "KH", "never", (True,), "9H", "JJ-PLAY-4"),
    ("JJ-PLAY-4 S must play JH over E's 9H", "JH 7H AC", "KH 9H", "never", (False, True), "JH", "JJ-PLAY-4"),
    ("JJ-PLAY-4 W cannot beat JH: AH or 8H", "AH 8H TD", "KH 9H JH", "never", (False, True, False), "AH 8H",
     "JJ-PLAY-4"),
    ("JJ-PLAY-4 beat the highest trump even if partner's", "AH 8H", "7H KH QH", "never", (True, False, True), "AH",
     "JJ-PLAY-4"),
]


@pytest.mark.parametrize("hand, trick, option, must_beat, legal, rule", [r[1:] for r in FOUR_PLAYER],
                         ids=[r[0] for r in FOUR_PLAYER])
def test_legal_plays_four_player_example_10_3(hand, trick, option, must_beat, legal, rule):
    got = legal_play_mask(mask(hand), tuple(cards(trick)), H, option, must_beat)
    assert names(got.mask) == set(legal.split())
    assert got.rule == rule


@pytest.mark.parametrize("option", ["never", "always", "over_opponent_only"])
def test_overtrump_on_ruff_is_a_known_option(option):
    # OP-06: the three values parse; anything else is refused
    assert rules_with(f"overtrump_on_ruff={option}").options.overtrump_on_ruff == option


def test_overtrump_on_ruff_rejects_unknown_value():
    with pytest.raises(ValueError):
        rules_with("overtrump_on_ruff=sometimes")


# --- the same duties enforced by rules.check during a hand -----------------------------------

EX1 = dict(a9="JH KH QH 7H AS TS 8S KD QD", b9="AH TH 8H AC TC KC 9D 8D 7D", turned="9H", info="8C",
           dealer="B", auction="A accept, B pass", after="B melds 9D-7D, A pass, A melds KH-JH, A dix")


def test_jj_play_5_check_void_player_must_trump_example_1():
    rules = JojotteRules()
    s = run_plays(rules, full_hand(rules, **EX1), "B AC")
    v = rules.check(s, play("A 8S"))
    assert v is not None and v.rule == "JJ-PLAY-5"
    legal = {a.card for a in rules.legal_actions(s) if a.kind == "play"}
    assert legal == set(cards("JH 9H KH QH"))


def test_jj_play_4_check_must_beat_the_trump_queen_example_1():
    # §21 Example 1 trick 2: A leads QH "Jotte"; B holds AH TH 8H and must beat the queen
    rules = JojotteRules()
    s = run_plays(rules, full_hand(rules, **EX1), "B AC, A KH jo, A QH jotte")
    v = rules.check(s, play("B 8H"))
    assert v is not None and v.rule == "JJ-PLAY-4"
    assert rules.check(s, play("B TH")) is None
    assert rules.check(s, play("B AH")) is None


def test_jj_play_4_check_follow_with_a_trump_that_cannot_beat_example_1():
    # trick 4: A leads JH; B cannot beat it but must follow with 8H, his last trump
    rules = JojotteRules()
    s = run_plays(rules, full_hand(rules, **EX1), "B AC, A KH jo, A QH jotte, B TH, B TC, A 9H, A JH")
    v = rules.check(s, play("B 7D"))
    assert v is not None and v.rule == "JJ-PLAY-4"
    assert rules.check(s, play("B 8H")) is None


@pytest.mark.parametrize("trick, bad, rule", [
    ("trick 1: B AC, A 8S", "A", "JJ-PLAY-5"),  # void in clubs, holds trumps
    ("trick 1: B 7D, A JH", "A", "JJ-PLAY-3"),  # holds KD QD, must follow diamonds
])
def test_validator_reports_play_duty_in_text(trick, bad, rule):
    text = f"""hand 1 dealer B
deal A: JH KH QH 7H AS TS 8S KD QD; B: AH TH 8H AC TC KC 9D 8D 7D
turned 9H
info 8C
auction A accept, B pass
after B pass, A pass, A pass
{trick}
"""
    _, verdicts = validate_text(session(text))
    first = verdicts[0].first_illegal
    assert first is not None and first.rule == rule


def test_jj_play_9_nullo_void_player_may_discard_instead_of_trumping():
    # §21 Example 6, trick 4: hearts led, A void in hearts plays 8C although spades were the bid trump
    rules = JojotteRules()
    s = full_hand(rules, a9="TS KS QS JS 7C 8C 7D 8D AH", b9="7S 8S 9S AC AD 7H 8H 9H KH", turned="QC", info="9C",
                  dealer="A", auction="B pass, A pass, B pass, A name S, B pass", after="B nullo, A pass, A melds KS-TS")
    s = run_plays(rules, s, "A 7C, B AC, B 7H, A AH, A 7D, B AD, B 8H")
    assert rules.check(s, play("A 8C")) is None
    assert rules.check(s, play("A JS")) is None
    assert s.trump == NO_TRUMP
