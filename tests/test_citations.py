"""Which rule an error cites (the spec's §0.3, "Which rule to cite"): the rule that states the check the act
fails, not one that only says what the act scores; where a section gathers its checks in one rule
(JJ-JOJOTTE-8) every error of that kind cites it; where two sections forbid the act, the act's own section
is cited and the other rules are named as "see also".

One table per game: act -> expected rule (and the "see also" rules where the act breaks several). The
expected rules are read off the spec: each row says which statement of the spec the act breaks.
"""

from __future__ import annotations

import pytest
from jj_helpers import action, check_deal, deal_state, draw, mask, rules_with, run, run_plays, start

from conftest import session, validate_text
from jojotte_records.cards import parse_card
from jojotte_records.rules.base import CHANCE, Action
from jojotte_records.rules.jojotte import JojotteRules

# Example 1 of §21: B deals, A (the non-dealer) calls first; hearts are turned (9H); A holds 7H, KH, QH, JH
A9, B9 = "JH KH QH 7H AS TS 8S KD QD", "AH TH 8H AC TC KC 9D 8D 7D"
SUITED = "A accept, B pass"  # A declares hearts
NT = "A pass, B pass, A nt, B pass"  # A declares NT in round 2
CALLS = "B pass, A pass, A pass"  # the calls after the draw, nothing declared


def jj_state(variant: str = "", auction: str | None = None, after: str | None = None, plays: str = "",
             a9: str = A9, b9: str = B9, turned: str = "9H"):
    """The state after ``auction`` (None: just dealt), the draw and ``after`` (None: not drawn) and ``plays``."""
    rules = rules_with(variant)
    ca, cb = a9.split(), b9.split()
    s = start(rules, turned, "B", " ".join(ca[:6]), " ".join(cb[:6]))
    if auction is None:
        return rules, s
    s = run(rules, s, auction)
    if after is None:
        return rules, s
    s = draw(rules, s, " ".join(ca[6:]), " ".join(cb[6:]), "8C")
    s = run(rules, s, after)
    return rules, run_plays(rules, s, plays)


def melds_action(seat: int):
    return Action(seat, "melds", melds=())


# (what the act is, variant, auction, after, plays, the act, expected rule, see also)
JJ_TABLE = [
    # the auction (JJ-BID state table, JJ-DBL)
    ("dealer calls first in round 1", "", "", None, "", "B pass", "JJ-BID-1", ()),
    ("non-dealer calls twice in round 1", "", "A pass", None, "", "A pass", "JJ-BID-2", ()),
    ("dealer calls first in round 2", "", "A pass, B pass", None, "", "B pass", "JJ-BID-4", ()),
    ("declarer answers his own suit", "", "A accept", None, "", "A pass", "JJ-BID-6", ()),
    ("declarer answers his own NT", "", "A pass, B pass, A nt", None, "", "A pass", "JJ-BID-8", ()),
    ("doubler redoubles", "", "A accept, B double", None, "", "B redouble", "JJ-DBL-2", ()),
    ("doubler calls after his double", "", "A accept, B double", None, "", "B pass", "JJ-BID-9", ()),
    ("redouble without a double", "", "", None, "", "A redouble", "JJ-DBL-2", ()),
    ("double in round 1", "", "", None, "", "A double", "JJ-DBL-1", ()),
    ("a suit named in round 1", "", "", None, "", "A name S", "JJ-BID-3", ()),
    ("the turned suit named in round 2", "", "A pass, B pass", None, "", "A name H", "JJ-BID-5", ()),
    ("double in round 2", "", "A pass, B pass", None, "", "A double", "JJ-DBL-1", ()),
    ("accept in round 2", "", "A pass, B pass", None, "", "A accept", "JJ-BID-4", ()),
    ("a suit over a suit", "", "A accept", None, "", "B name S", "JJ-BID-7", ()),
    ("NT over the turned suit (nt_overcall_round2_only)", "nt_overcall_round2_only", "A accept", None, "", "B nt",
     "JJ-BID-6", ()),
    ("NT over NT", "", "A pass, B pass, A nt", None, "", "B nt", "JJ-BID-7", ()),
    ("accept over NT", "", "A pass, B pass, A nt", None, "", "B accept", "JJ-BID-8", ()),
    ("a second double", "", "A accept, B double", None, "", "A double", "JJ-DBL-1", ()),
    ("NT after a double", "", "A accept, B double", None, "", "A nt", "JJ-BID-9", ()),
    ("a call after four passes", "", "A pass, B pass, A pass, B pass", None, "", "A accept", "JJ-BID-12", ()),
    ("a call before the draw", "", SUITED, None, "", "A slam", "JJ-DRAW-1", ()),
    # after the draw (JJ-POST, JJ-NULLO, JJ-SLAM, JJ-MELD)
    ("declarer calls before the defender", "", SUITED, "", "", "A pass", "JJ-POST-1", ()),
    ("defender calls at the declarer's Slam turn", "", SUITED, "B pass", "", "B pass", "JJ-POST-3", ()),
    ("defender calls at the declarer's meld turn", "", SUITED, "B pass, A pass", "", "B pass", "JJ-POST-6", ()),
    # §0.3: a Nullo call by a doubler cites the Nullo section, the doubling rule that refers to it is "see also"
    ("Nullo by the doubler", "", "A accept, B double, A pass", "", "", "B nullo", "JJ-NULLO-2", ("JJ-DBL-6", "JJ-POST-2")),
    ("Nullo by the declarer", "", SUITED, "B pass", "", "A nullo", "JJ-NULLO-2", ()),
    ("Slam by the defender", "", SUITED, "", "", "B slam", "JJ-SLAM-1", ()),
    ("melds before SLAM or PASS", "", SUITED, "B pass", "", "A melds KH-JH", "JJ-POST-3", ()),
    ("a double after the draw", "", SUITED, "", "", "B double", "JJ-POST-1", ()),
    ("melds naming none", "", SUITED, "", "", melds_action(1), "JJ-MELD-1", ()),
    ("four eights", "", SUITED, "", "", "B melds 48", "JJ-MELD-2", ()),
    ("a meld not held", "", SUITED, "", "", "B melds KH-JH", "JJ-MELD-4", ()),
    ("a sequence declared twice", "", SUITED, "", "", "B melds 9D-7D 9D-7D", "JJ-MELD-15", ()),
    # the dix exchange (JJ-DIX)
    ("dix without the seven", "", SUITED, "", "", "B dix", "JJ-DIX-2", ()),
    ("a second dix", "", SUITED, "A dix", "", "A dix", "JJ-DIX-5", ()),
    ("dix in NT", "", NT, "", "", "A dix", "JJ-DIX-1", ()),
    ("dix after the first card", "", SUITED, CALLS, "B AC", "A dix", "JJ-DIX-3", ()),
    # trick play (JJ-PLAY, JJ-INV)
    ("the declarer leads trick 1", "", SUITED, CALLS, "", "A play AS", "JJ-PLAY-1", ()),
    ("the leader plays twice", "", SUITED, CALLS, "B AC", "B play TC", "JJ-INV-2", ()),
    ("a card of the other hand", "", SUITED, CALLS, "", "B play AS", "JJ-INV-2", ()),
    ("not following diamonds", "", SUITED, CALLS, "B 9D", "A play AS", "JJ-PLAY-3", ()),
    ("not beating the trump led", "", SUITED, CALLS, "B 8H", "A play 7H", "JJ-PLAY-4", ()),
    ("not trumping when void", "", SUITED, CALLS, "B AC", "A play AS", "JJ-PLAY-5", ()),
    ("a declaration during play", "", SUITED, CALLS, "B AC", "A melds KH-JH", "JJ-MELD-1", ()),
    ("a call during play", "", SUITED, CALLS, "B AC", "A slam", "JJ-POST-9", ()),
    # Jo-Jotte: every announcement error cites JJ-JOJOTTE-8 (§0.3), the rule it rests on is "see also"
    ("Jo in NT", "", NT, CALLS, "B AC", "A play KH jo", "JJ-JOJOTTE-8", ("JJ-JOJOTTE-1",)),
    ("Jo with the jack", "", SUITED, CALLS, "B AC", "A play JH jo", "JJ-JOJOTTE-8", ("JJ-JOJOTTE-3",)),
    ("Jo without the queen", "", SUITED, CALLS, "B AC, A QH", "A play KH jo", "JJ-JOJOTTE-8", ("JJ-JOJOTTE-2",)),
    ("Jotte with the jack", "", SUITED, CALLS, "B AC", "A play JH jotte", "JJ-JOJOTTE-8", ("JJ-JOJOTTE-3",)),
    ("Jotte without Jo", "", SUITED, CALLS, "B AC, A KH", "A play QH jotte", "JJ-JOJOTTE-8", ("JJ-JOJOTTE-3",)),
    ("the queen announced first", "", SUITED, CALLS, "B AC", "A play QH jotte", "JJ-JOJOTTE-8", ("JJ-JOJOTTE-3",)),
    ("another word", "", SUITED, CALLS, "B AC", "A play KH belote", "JJ-JOJOTTE-8", ()),
]


@pytest.mark.parametrize("what, variant, auction, after, plays, act, rule, see_also", JJ_TABLE,
                         ids=[row[0] for row in JJ_TABLE])
def test_jojotte_cites_the_rule_of_the_check(what, variant, auction, after, plays, act, rule, see_also):
    rules, s = jj_state(variant, auction, after, plays)
    a = action(act) if isinstance(act, str) else act
    v = rules.check(s, a)
    assert v is not None, f"{what}: accepted"
    assert (v.rule, v.see_also) == (rule, see_also), f"{what}: {v}"


def test_jojotte_deal_and_draw_citations():
    rules = JojotteRules()
    # JJ-DECK-1: a card outside the 32-card pack; JJ-DEAL-5: a card dealt twice; JJ-DEAL-3: seven cards dealt
    assert check_deal(rules, (mask("6S KH"), mask("AS")), parse_card("9H")).rule == "JJ-DECK-1"
    assert check_deal(rules, (mask("KH"), mask("KH")), parse_card("9H")).rule == "JJ-DEAL-5"
    assert check_deal(rules, (mask("7S 8S 9S TS JS QS KS"), 0), parse_card("9H")).rule == "JJ-DEAL-3"
    _, s = jj_state(auction=SUITED)
    a6, b6 = " ".join(A9.split()[:6]), " ".join(B9.split()[:6])
    s = deal_state(rules, 1, (mask(a6), mask(b6)), parse_card("9H"))
    s = run(rules, s, SUITED)
    # JJ-DRAW-4: a drawn card already in play (A's KH)
    assert rules.check(s, Action(CHANCE, "draw", cards=(mask("KH KD QD"), mask("9D 8D 7D")))).rule == "JJ-DRAW-4"
    # JJ-DRAW-1: more than nine cards after the draw
    assert rules.check(s, Action(CHANCE, "draw", cards=(mask("8S KD QD JD"), mask("9D 8D 7D")))).rule == "JJ-DRAW-1"
    # after the bidding, a double or a redouble cites the doubling rules, anything else JJ-BID-10
    assert rules.call_after_end(s, 1, "double").rule == "JJ-DBL-1"
    assert rules.call_after_end(s, 0, "redouble").rule == "JJ-DBL-2"
    assert rules.call_after_end(s, 0, "nt").rule == "JJ-BID-10"


def test_see_also_is_in_the_message_and_in_the_json():
    # Nullo by the doubler, through the validator: JJ-NULLO-2, "see also JJ-DBL-6, JJ-POST-2"
    text = ("hand 1 dealer B\n"
            f"deal A: {A9}; B: {B9}\n"
            "turned 9H\ninfo 8C\nauction A accept, B double, A pass\n"
            "after B nullo\n")
    _, verdicts = validate_text(session(text))
    [issue] = [i for i in verdicts[0].issues if i.kind == "illegal"]
    assert issue.rule == "JJ-NULLO-2" and issue.see_also == ("JJ-DBL-6", "JJ-POST-2")
    assert issue.message.endswith("(see also JJ-DBL-6, JJ-POST-2)")
    doc = issue.to_json()
    assert doc["rule"] == "JJ-NULLO-2" and doc["see_also"] == ["JJ-DBL-6", "JJ-POST-2"]
    # the keys the JSON had before are all still there
    assert {"rule", "kind", "hand", "trick", "card", "step", "phase", "line", "column", "message"} <= set(doc)


# --- what the validator cites for a whole hand: the play rule of a card, the score and the record ------------

def test_the_play_rule_of_a_card_names_its_rule():
    from jojotte_records.rules.jojotte_cards import legal_play_mask
    # JJ-PLAY-2: the leader may lead any card; JJ-PLAY-7: neither following nor trumping, any card
    assert legal_play_mask(mask("AS KH 7D"), (), 1).rule == "JJ-PLAY-2"
    assert legal_play_mask(mask("AD 7C"), (parse_card("AS"),), 1).rule == "JJ-PLAY-7"


def _one(key: str, replace=(), keep_score=False, variant="", extra=""):
    from jj_helpers import example_hand
    text, dealer = example_hand(key, replace=replace, keep_score=keep_score)
    _, [v] = validate_text(session(text + extra, first_dealer=dealer, variant=variant))
    return v


def test_record_and_score_citations():
    # JJ-PTS-4: Example 1's result line gives A 100 points, but his tricks, last trick and Jo-Jotte make 110
    v = _one("1", extra="result A 6 tricks 100 points, B 3 tricks 40 points\n")
    assert [(i.rule, i.kind) for i in v.issues] == [("JJ-PTS-4", "consistency")]
    # JJ-PRIS-1: Example 4 (equal totals) holds 150 aside; written as 100
    v = _one("4", replace=(("aside 150", "aside 100"),), keep_score=True)
    assert [(i.rule, i.kind) for i in v.issues] == [("JJ-PRIS-1", "score")]
    # JJ-NULLO-6: Example 5, B's Nullo made: 200 above for him
    v = _one("5")
    assert ("JJ-NULLO-6", 1, 200) in [(c.rule, c.seat, c.amount) for c in v.score.credits]
    # JJ-PTS-3 with OP-08 (jojotte_above_line): A's Jo-Jotte 20 is credited above the line by its own rule
    v = _one("1", variant="jojotte_above_line")
    assert ("JJ-PTS-3", 0, "above", 20) in [(c.rule, c.seat, c.line, c.amount) for c in v.score.credits]
    # JJ-SCORE-1: an illegal hand is not scored from its events (§0.1); the validator says it used the written score
    v = _one("1", replace=(("trick 1: B AC, A KH jo", "trick 1: B AC, A AS"),), keep_score=True)
    assert "JJ-SCORE-1" in [i.rule for i in v.unchecked]


# --- Baloot -------------------------------------------------------------------------------------------------

def _baloot(contract: str = "hokum", script: str = ""):
    from test_baloot import BalootRules, ex10_state, replay
    r = BalootRules()
    s = ex10_state(r, contract)  # §14 example 10: W declares, W leads trick 1
    if script:
        s = replay(r, s, script)
    return r, s


def _bal_act(seat: str, kind: str, card: str = "", announce: str = "", melds: str = ""):
    from test_baloot_helpers import C, E, M, N, S, W
    who = {"N": N, "S": S, "W": W, "E": E}[seat]
    return Action(who, kind, card=C(card) if card else -1, announce=announce, melds=(M(melds),) if melds else ())


# (what, contract, trick script before, the act, expected rule, see also). EX10: W AH KH QH 9H 8C 9C JC (+ 7C up),
# S AS KS QS JS 7H 8D 9D QC, E AD KD QD 8H 7D 8S 9S KC, N TS TH TD TC JH JD 7S AC; clubs are trump in Hokum.
TRICK1 = "trick 1: W 9H, S 7H, E 8H, N JH"  # N's JH is the highest heart: N leads trick 2
BAL_TABLE = [
    ("a lead out of turn in trick 1", "hokum", "", ("S", "play", "AS"), "BAL-PLAY-2", ()),
    ("a lead out of turn after trick 1", "hokum", TRICK1, ("W", "play", "AH"), "BAL-PLAY-3", ()),
    ("a card out of turn inside a trick", "hokum", "trick 1: W 9H", ("E", "play", "8H"), "BAL-PLAY-1", ()),
    ("a card the player does not hold", "hokum", "", ("W", "play", "AS"), "BAL-PLAY-1", ()),
    # §0.3: the act is a play (BAL-PLAY-1, a card from his hand); that a card occurs once (BAL-DECK-1) is "see also"
    ("a card already played", "hokum", TRICK1, ("N", "play", "JH"), "BAL-PLAY-1", ("BAL-DECK-1",)),
    ("not following suit", "hokum", "trick 1: W 9H", ("S", "play", "AS"), "BAL-PLAY-5", ()),
    ("a project out of turn", "hokum", "", ("S", "declare", "", "sira"), "BAL-PROJ-7", ()),
    ("a project not held", "hokum", "", ("W", "declare", "", "fifty"), "BAL-PROJ-6", ()),
    ("four hundred in Hokum", "hokum", "", ("W", "declare", "", "fourhundred"), "BAL-PROJ-1", ()),
    ("a show in trick 1", "hokum", "", ("W", "show", "", "", "AH KH QH"), "BAL-PROJ-11", ()),
    ("a Baloot in Sun", "sun", "", ("W", "play", "KH", "baloot"), "BAL-BALOOT-1", ()),
    ("Ekka in Sun", "sun", "", ("W", "play", "AH", "ekka"), "BAL-EKKA-1", ()),
    ("a bid after the auction", "hokum", "", ("W", "sun"), "BAL-BID-11", ()),
    ("a double after the first card", "hokum", "trick 1: W 9H", ("S", "double"), "BAL-DBL-1", ()),
]


@pytest.mark.parametrize("what, contract, script, act, rule, see_also", BAL_TABLE, ids=[row[0] for row in BAL_TABLE])
def test_baloot_cites_the_rule_of_the_check(what, contract, script, act, rule, see_also):
    r, s = _baloot(contract, script)
    v = r.check(s, _bal_act(*act))
    assert v is not None, f"{what}: accepted"
    assert (v.rule, v.see_also) == (rule, see_also), f"{what}: {v}"


# --- Pitch --------------------------------------------------------------------------------------------------

def _pitch(phase: str):
    from test_pitch import HEARTS, S, auction, fill_deal, play_state, rules, to_discard
    r = rules()
    if phase == "auction":
        return r, auction(r)
    if phase == "trump":
        s = auction(r)
        for seat in (0, 1, 2, 3):  # N E S W: S bids 6, the others pass
            s = r.apply(s, Action(seat, "bid", info=6) if seat == S else Action(seat, "pass"))
        return r, s
    if phase == "discard":
        return r, to_discard(r, fill_deal(r, {}))
    # play: S bid hearts and holds AH 2H, N holds KH, E and W 3H and 4H; S leads
    return r, play_state(r, {0: "KH", 1: "3H", 2: "AH 2H", 3: "4H"}, HEARTS, S)


# (what, phase, the act, expected rule). Seats: N 0, E 1, S 2, W 3; W deals, N speaks first.
PIT_TABLE = [
    ("a bid out of turn", "auction", Action(1, "bid", info=5), "PIT-BID-1"),
    ("a bid below the minimum", "auction", Action(0, "bid", info=3), "PIT-BID-2"),
    ("trump named by another player", "trump", Action(0, "name", suit=1), "PIT-BID-6"),
    ("a discard out of turn", "discard", Action(2, "discard", cards=(0,)), "PIT-DRAW-1"),
    ("the first lead by another player", "play", Action(0, "play", card=parse_card("KH")), "PIT-PLAY-2"),
    ("a card that is not live", "play", Action(2, "play", card=parse_card("AS")), "PIT-PLAY-1"),
    ("a remainder to an opponent after play started", "play", Action(2, "remainder", info=1), "PIT-DRAW-5"),
]


@pytest.mark.parametrize("what, phase, act, rule", PIT_TABLE, ids=[row[0] for row in PIT_TABLE])
def test_pitch_cites_the_rule_of_the_check(what, phase, act, rule):
    r, s = _pitch(phase)
    v = r.check(s, act)
    assert v is not None, f"{what}: accepted"
    assert v.rule == rule, f"{what}: {v}"
