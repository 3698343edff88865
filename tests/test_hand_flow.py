"""The course of a hand: the deal (JJ-DEAL), the draw (JJ-DRAW), the calls after the draw (JJ-POST,
JJ-NULLO-2…4, JJ-SLAM-1/2, JJ-DBL-6), the dix exchange (JJ-DIX), trick sequence (JJ-PLAY-1/10/11),
Jo-Jotte announcements (JJ-JOJOTTE) and the replay invariants (JJ-INV-1…3)."""

from __future__ import annotations

import pytest
from jj_helpers import (
    EXAMPLES,
    S,
    action,
    check_deal,
    draw,
    example_hand,
    full_hand,
    mask,
    play,
    rules_with,
    run,
    run_plays,
    start,
)

from conftest import session, validate_text
from jojotte_records.cards import mask_of, parse_card
from jojotte_records.rules.base import CHANCE, Action
from jojotte_records.rules.jojotte import JojotteRules, deal_cards
from jojotte_records.rules.jojotte_cards import NO_TRUMP

A, B = 0, 1

EX1 = dict(a9="JH KH QH 7H AS TS 8S KD QD", b9="AH TH 8H AC TC KC 9D 8D 7D", turned="9H", info="8C", dealer="B")
EX2 = dict(a9="AS TS 9S 8S AH TH 9H AD TC", b9="KS KH KD KC QD JD TD AC 7D", turned="7C", info="JH", dealer="A")
EX6 = dict(a9="TS KS QS JS 7C 8C 7D 8D AH", b9="7S 8S 9S AC AD 7H 8H 9H KH", turned="QC", info="9C", dealer="A")
EX1_AUCTION = "A accept, B pass"
EX2_AUCTION = "B pass, A pass, B name D, A nt, B pass"
EX6_AUCTION = "B pass, A pass, B pass, A name S, B pass"

EX1_PLAY = ("B AC, A KH jo, A QH jotte, B TH, B TC, A 9H, A JH, B 8H, A AS, B AH, B KC, A 8S, B 9D, A KD, "
            "A TS, B 7D, A QD, B 8D")


def first_issue(text: str, **kw):
    _, verdicts = validate_text(session(text, **kw))
    v = verdicts[-1]
    return v.issues[0] if v.issues else None


# --- the deal (JJ-DEAL) -------------------------------------------------------------------------------

def test_jj_deal_3_4_and_jj_draw_1_2_dealing_order():
    """JJ-DEAL-3, JJ-DEAL-4, JJ-DRAW-1, JJ-DRAW-2."""
    # packets of three: non-dealer, dealer, non-dealer, dealer; the 13th card turned; the draw non-dealer
    # first; the information card is the bottom card of the stock
    rules = JojotteRules()
    order = list(rules.pack.cards)
    hands, turned, draws, info = deal_cards(rules, order, dealer=B)
    assert hands[A] == mask_of(order[0:3] + order[6:9])
    assert hands[B] == mask_of(order[3:6] + order[9:12])
    assert turned == order[12]
    assert draws[A] == mask_of(order[13:16]) and draws[B] == mask_of(order[16:19])
    assert info == order[-1]


def test_jj_deal_1_recorded_first_dealer_is_accepted_and_checked():
    # the cut itself is not recorded: the validator accepts [FirstDealer] and checks hand 1 against it
    void_a = "hand 1 dealer A\nturned KD\nauction B pass, A pass, B pass, A pass\n"
    assert first_issue(void_a, first_dealer="A") is None
    issue = first_issue(void_a, first_dealer="B")
    assert issue is not None and issue.rule == "JJ-DEAL-1"
    no_tag = '[Game "jojotte"]\n\n' + void_a
    _, verdicts = validate_text(no_tag)
    assert verdicts[0].ok


def test_jj_deal_2_alternation():
    hand1 = "hand 1 dealer B\nturned KD\nauction A pass, B pass, A pass, B pass\n"
    good = hand1 + "\nhand 2 dealer A\nturned KH\nauction B pass, A pass, B pass, A pass\n"
    bad = hand1 + "\nhand 2 dealer B\nturned KH\nauction A pass, B pass, A pass, B pass\n"
    assert first_issue(good) is None
    issue = first_issue(bad)
    assert issue is not None and issue.rule == "JJ-DEAL-2"


@pytest.mark.parametrize("variant, ok", [("", False), ("recut_each_rubber", True)])
def test_jj_deal_2_alternation_continues_across_rubbers(variant, ok):
    # doubles.jjt: B, A, B deal and the rubber ends in hand 3; hand 4 dealt by B again
    text = (EXAMPLES / "doubles.jjt").read_text(encoding="utf-8")
    if variant:
        text = text.replace('[Rubbers "1"]', f'[Variant "{variant}"]')
    else:
        text = text.replace('[Rubbers "1"]', "")
    text += "\nhand 4 dealer B\nturned KD\nauction A pass, B pass, A pass, B pass\n"
    _, verdicts = validate_text(text)
    rules_found = [i.rule for i in verdicts[3].issues]
    assert ("JJ-DEAL-2" not in rules_found) == ok


@pytest.mark.parametrize("a, b, turned, rule", [
    ("AS KS QS JS TS 9S", "AH KH QH JH TH 9S", "7C", "JJ-DEAL-5"),  # 9S dealt twice
    ("AS KS QS JS TS 9S", "AH KH QH JH TH 9H", "AS", "JJ-DEAL-5"),  # turned card in a hand
    ("AS KS QS JS TS 9S 8S", "AH KH QH JH TH 9H", "7C", "JJ-DEAL-3"),  # seven cards dealt
    ("AS KS QS JS TS 6S", "AH KH QH JH TH 9H", "7C", "JJ-DECK-1"),
])
def test_jj_deal_5_thirteen_distinct_cards(a, b, turned, rule):
    rules = JojotteRules()
    v = check_deal(rules, (mask(a), mask(b)), parse_card(turned))
    assert v is not None and v.rule == rule


def test_jj_deal_5_good_deal():
    rules = JojotteRules()
    assert check_deal(rules, (mask("AS KS QS JS TS 9S"), mask("AH KH QH JH TH 9H")), parse_card("7C")) is None


def test_jj_deal_5_in_a_record():
    text = "hand 1 dealer B\ndeal A: AS KS QS JS TS 9S; B: AH KH QH JH TH 9S\nturned 7C\nauction A pass, B pass, A pass, B pass\n"
    issue = first_issue(text)
    assert issue is not None and issue.rule == "JJ-DEAL-5"


def test_jj_inv_1_stock_card_also_dealt():
    text, dealer = example_hand("1")
    text = text.replace("info 8C", "info 8C\nstock 7S 9S JS QS KS 7C 9C JC QC 9D JD AS")
    issue = first_issue(text, first_dealer=dealer)
    assert issue is not None and issue.rule == "JJ-INV-1"


def test_jj_inv_1_stock_of_free_cards_is_accepted():
    text, dealer = example_hand("1")
    text = text.replace("info 8C", "info 8C\nstock 7S 9S JS QS KS 7C 9C JC QC TD JD AD")
    assert first_issue(text, first_dealer=dealer) is None


# --- the draw (JJ-DRAW) ---------------------------------------------------------------------------------

def test_jj_draw_1_draw_follows_the_contract():
    rules = JojotteRules()
    s = run(rules, start(rules, "9H", "B", "JH KH QH 7H AS TS", "AH TH 8H AC TC KC"), EX1_AUCTION)
    assert s.phase == "draw"
    v = rules.check(s, action("B pass"))  # no call before the draw
    assert v is not None and v.rule == "JJ-DRAW-1"
    too_many = Action(CHANCE, "draw", cards=(mask("8S KD QD 7S"), mask("9D 8D 7D")), info=parse_card("8C"))
    v = rules.check(s, too_many)
    assert v is not None and v.rule == "JJ-DRAW-1"
    s = draw(rules, s, "8S KD QD", "9D 8D 7D", "8C")
    assert [h.bit_count() for h in s.hands] == [9, 9]
    assert s.info == parse_card("8C")


@pytest.mark.parametrize("a3, b3, info", [
    ("8S KD QD", "9D 8D JH", "8C"),  # JH is already in A's hand
    ("8S KD 9H", "9D 8D 7D", "8C"),  # 9H is the turned card
    ("8S KD QD", "9D 8D 7D", "AS"),  # the information card is in A's hand
    ("8S KD QD", "9D 8D 7D", "8D"),  # the information card was drawn by B
    ("8S KD QD", "9D 8D QD", "8C"),  # drawn twice
])
def test_jj_draw_4_twenty_distinct_cards(a3, b3, info):
    rules = JojotteRules()
    s = run(rules, start(rules, "9H", "B", "JH KH QH 7H AS TS", "AH TH 8H AC TC KC"), EX1_AUCTION)
    v = rules.check(s, Action(CHANCE, "draw", cards=(mask(a3), mask(b3)), info=parse_card(info)))
    assert v is not None and v.rule == "JJ-DRAW-4"


@pytest.mark.parametrize("card", ["8C", "9H"])
def test_jj_draw_3_information_and_turned_card_never_played(card):
    # the information card (8C) and the turned card (9H, no dix) take no part in play
    rules = JojotteRules()
    s = full_hand(rules, **EX1, auction=EX1_AUCTION, after="B pass, A pass, A pass")
    v = rules.check(s, Action(B, "play", card=parse_card(card)))
    assert v is not None and v.rule in {"JJ-INV-2", "JJ-DRAW-3"}


# --- after the draw (JJ-POST, JJ-NULLO-2…4, JJ-SLAM-1/2, JJ-DBL-6) ------------------------------------

def after_ex1(rules=None, auction=EX1_AUCTION):
    rules = rules or JojotteRules()
    return rules, full_hand(rules, **EX1, auction=auction)


def test_jj_post_1_defender_calls_first_one_of_nullo_melds_pass():
    rules, s = after_ex1()
    assert rules.current_player(s) == B
    kinds = {a.kind for a in rules.legal_actions(s) if a.seat == B}
    assert {"nullo", "melds", "pass"} <= kinds and "slam" not in kinds
    v = rules.check(s, action("A pass"))  # the declarer cannot call first
    assert v is not None and v.rule == "JJ-POST-1"


def test_jj_post_1_op_01_nullo_bidder_declares_no_melds_by_default():
    rules, s = after_ex1()
    s = run(rules, s, "B nullo")
    assert rules.current_player(s) == A  # next: the declarer's Slam call (JJ-POST-3)
    v = rules.check(s, action("B melds 9D-7D"))
    assert v is not None
    rules = rules_with("nullo_bidder_may_meld")
    _, s = after_ex1(rules)
    s = run(rules, s, "B nullo, B melds 9D-7D, A pass")
    assert len(s.melds[B]) == 1 and s.nullo_bidder == B


def test_op_01_no_defender_melds_after_a_nullo_voided_by_slam():
    rules, s = after_ex1()
    s = run(rules, s, "B nullo, A slam")
    assert rules.current_player(s) == A
    assert rules.check(s, action("B melds 9D-7D")) is not None
    s = run(rules, s, "A melds KH-JH")
    assert s.melds[B] == () and s.phase == "play"


@pytest.mark.parametrize("auction, legal", [
    (EX1_AUCTION, True),  # over a suit
    ("A accept, B double, A pass", False),  # JJ-DBL-6: he doubled
    ("A accept, B double, A redouble", False),
])
def test_jj_post_2_and_jj_dbl_6_nullo_only_if_the_defender_did_not_double(auction, legal):
    rules, s = after_ex1(auction=auction)
    v = rules.check(s, action("B nullo"))
    if legal:
        assert v is None
    else:
        assert v is not None and v.rule in {"JJ-DBL-6", "JJ-NULLO-2", "JJ-POST-2"}


def test_jj_post_2_nullo_over_a_nt_contract():
    rules = JojotteRules()
    s = full_hand(rules, **EX2, auction=EX2_AUCTION)
    assert rules.check(s, action("B nullo")) is None


def test_op_03_nullo_after_double():
    rules = rules_with("nullo_after_double")
    _, s = after_ex1(rules, "A accept, B double, A pass")
    assert rules.check(s, action("B nullo")) is None
    s = run(rules, s, "B nullo, A pass, A pass")
    assert s.denomination == "nullo" and s.mult == 1  # JJ-NULLO-4: the Nullo is undoubled


@pytest.mark.parametrize("step1", ["B pass", "B melds 9D-7D", "B nullo"])
def test_jj_post_3_declarer_calls_slam_or_pass_whatever_the_defender_did(step1):
    rules, s = after_ex1()
    s = run(rules, s, step1)
    assert rules.current_player(s) == A
    assert rules.check(s, action("A slam")) is None
    assert rules.check(s, action("A pass")) is None
    v = rules.check(s, action("A melds KH-JH"))  # melds only after the Slam call
    assert v is not None and v.rule == "JJ-POST-3"


def test_jj_slam_1_only_the_declarer_bids_slam():
    rules, s = after_ex1()
    v = rules.check(s, action("B slam"))
    assert v is not None and v.rule == "JJ-SLAM-1"


def test_jj_slam_1_slam_keeps_the_multiplier():
    rules, s = after_ex1(auction="A accept, B double, A pass")
    s = run(rules, s, "B pass, A slam")
    assert s.slam and s.mult == 2


@pytest.mark.parametrize("who, call", [("A", "A nullo"), ("B-late", "B nullo")])
def test_jj_nullo_2_only_the_defender_only_at_step_1(who, call):
    rules, s = after_ex1()
    if who == "B-late":
        s = run(rules, s, "B pass")  # step 1 is over
    else:
        s = run(rules, s, "B pass, A pass")  # the declarer at his meld step
    v = rules.check(s, action(call))
    assert v is not None and v.rule in {"JJ-NULLO-2", "JJ-POST-1", "JJ-POST-3", "JJ-POST-6"}


def test_jj_post_4_and_jj_nullo_3_and_jj_slam_2_slam_voids_nullo():
    """JJ-POST-4, JJ-NULLO-3, JJ-SLAM-2."""
    rules = JojotteRules()
    s = full_hand(rules, **EX6, auction=EX6_AUCTION, after="B nullo, A slam, A melds KS-TS")
    assert s.phase == "play"
    assert (s.denomination, s.trump, s.bidder, s.slam, s.nullo_bidder) == ("suit", S, A, True, -1)
    assert rules.current_player(s) == B  # roles as bid: the defender leads (JJ-PLAY-1)


def test_jj_post_5_and_jj_nullo_4_nullo_stands():
    """JJ-POST-5, JJ-NULLO-4 and JJ-NULLO-1 (played without a trump suit)."""
    rules = JojotteRules()
    s = full_hand(rules, **EX6, auction=EX6_AUCTION, after="B nullo, A pass, A melds KS-TS")
    assert (s.denomination, s.trump, s.mult, s.nullo_bidder) == ("nullo", NO_TRUMP, 1, B)
    assert rules.current_player(s) == A  # the Nullo bidder's opponent leads (JJ-PLAY-1)
    v = rules.check(s, Action(B, "play", card=parse_card("7S")))
    assert v is not None and v.rule == "JJ-PLAY-1"


@pytest.mark.parametrize("variant, leader", [("", A), ("nullo_bidder_leads", B)])
def test_op_04_nullo_first_lead(variant, leader):
    rules = rules_with(variant)
    s = full_hand(rules, **EX6, auction=EX6_AUCTION, after="B nullo, A pass, A pass")
    assert rules.current_player(s) == leader


def test_jj_post_6_declarer_meld_step_also_in_a_nullo_hand():
    rules = JojotteRules()
    s = full_hand(rules, **EX6, auction=EX6_AUCTION, after="B nullo, A pass")
    assert s.phase == "after" and rules.current_player(s) == A
    assert rules.check(s, action("A melds KS-TS")) is None


def test_jj_post_7_comparison_after_step_4_example_1():
    rules = JojotteRules()
    s = full_hand(rules, **EX1, auction=EX1_AUCTION, after="B melds 9D-7D, A pass, A melds KH-JH")
    assert s.phase == "play"
    r = rules.compare_melds(s)
    assert (r.class_a, r.class_b, r.points) == (-1, A, (20, 0))


@pytest.mark.parametrize("after", [
    "A dix, B melds 9D-7D, A pass, A melds KH-JH",
    "B melds 9D-7D, A dix, A pass, A melds KH-JH",
    "B melds 9D-7D, A pass, A dix, A melds KH-JH",
    "B melds 9D-7D, A pass, A melds KH-JH, A dix",
])
def test_jj_post_8_dix_anywhere_among_the_steps(after):
    rules = JojotteRules()
    s = full_hand(rules, **EX1, auction=EX1_AUCTION, after=after)
    assert s.dix == A
    s = run_plays(rules, s, EX1_PLAY)
    assert s.phase == "done" and s.card_pts == (90, 40)


def test_jj_post_9_play_starts_after_step_4():
    text = ("hand 1 dealer B\ndeal A: JH KH QH 7H AS TS 8S KD QD; B: AH TH 8H AC TC KC 9D 8D 7D\nturned 9H\ninfo 8C\n"
            "auction A accept, B pass\nafter B pass, A pass\ntrick 1: B AC, A KH\n")
    issue = first_issue(text)
    assert issue is not None and issue.rule == "JJ-POST-9"


# --- the dix exchange (JJ-DIX) ------------------------------------------------------------------------

def test_jj_dix_2_exchange_moves_the_turned_card_into_the_hand():
    rules, s = after_ex1()
    s = run(rules, s, "A dix")
    assert s.hands[A] & mask("9H") and not s.hands[A] & mask("7H")
    assert s.dix == A


def test_jj_dix_2_only_the_holder_of_the_seven():
    rules, s = after_ex1()
    v = rules.check(s, action("B dix"))
    assert v is not None and v.rule == "JJ-DIX-2"


def test_jj_dix_2_the_defender_may_exchange():
    # hearts accepted by the dealer B in round 1; A (the defender) holds 7H
    rules = JojotteRules()
    s = full_hand(rules, **EX1, auction="A pass, B accept, A pass")
    assert rules.check(s, action("A dix")) is None
    assert s.bidder == B


@pytest.mark.parametrize("auction, after", [
    ("A pass, B pass, A name S, B pass", ""),  # a suit named in round 2: the turned suit is not trump
    ("A pass, B pass, A nt, B pass", ""),  # NT
    (EX1_AUCTION, "B nullo, A pass"),  # Nullo
])
def test_jj_dix_1_only_when_the_turned_suit_is_trump(auction, after):
    rules = JojotteRules()
    s = full_hand(rules, **EX1, auction=auction, after=after)
    v = rules.check(s, action("A dix"))
    assert v is not None and v.rule == "JJ-DIX-1"


def test_jj_dix_1_slam_contract_allows_the_exchange():
    rules, s = after_ex1()
    s = run(rules, s, "B pass, A slam")
    assert rules.check(s, action("A dix")) is None


# JJ-DIX-1: "final" is meant literally; the exchange is judged on the contract that is played.
# EX1: A accepted hearts (the turned 9H) and holds 7H; B is the defender and may call Nullo.

def test_jj_dix_1_an_exchange_followed_by_a_nullo_that_stands_is_refused():
    rules, s = after_ex1()
    s = run(rules, s, "A dix, B nullo")  # the Nullo may still be voided by a Slam: nothing to judge yet
    v = rules.check(s, action("A pass"))  # A passes: the Nullo stands, the final contract is Nullo
    assert v is not None and v.rule == "JJ-DIX-1"
    assert v.at == ("dix", A)  # the error belongs to the exchange, not to the pass
    assert {a.kind for a in rules.legal_actions(s) if a.seat == A and a.kind != "dix"} == {"slam"}
    assert rules.check(s, action("A slam")) is None  # a Slam voids the Nullo (JJ-SLAM-2): hearts are played


def test_jj_dix_1_an_exchange_after_a_nullo_call_that_a_slam_voids_is_legal():
    rules, s = after_ex1()
    s = run(rules, s, "B nullo")
    assert rules.check(s, action("A dix")) is None
    assert any(a.kind == "dix" for a in rules.legal_actions(s))
    s = run(rules, s, "A dix, A slam, A pass")
    assert s.phase == "play" and s.denomination == "suit" and s.slam and s.dix == A
    assert s.hands[A] >> parse_card("9H") & 1 and not s.hands[A] >> parse_card("7H") & 1


def test_jj_dix_1_validator_puts_the_error_on_the_exchange_line_and_column():
    text = ("hand 1 dealer B\n"
            "deal A: JH KH QH 7H AS TS 8S KD QD; B: AH TH 8H AC TC KC 9D 8D 7D\n"
            "turned 9H\ninfo 8C\nauction A accept, B pass\n"
            "after A dix, B nullo, A pass, A pass\n")
    issue = first_issue(text)
    assert issue is not None and issue.rule == "JJ-DIX-1" and issue.kind == "illegal"
    # line 10 of the session (3 tag lines, a blank line, then the hand's sixth line); "A dix" is its first item
    assert (issue.loc.line, issue.loc.column, issue.loc.step) == (10, 7, 1)
    assert "Nullo" in issue.message
    # the Nullo voided by a Slam: the exchange stands and nothing is wrong with the calls
    ok = text.replace("after A dix, B nullo, A pass, A pass", "after B nullo, A dix, A slam, A pass")
    assert first_issue(ok) is None


def test_jj_meld_13_nullo_bidders_melds_judged_on_the_final_contract():
    # variant nullo_bidder_may_meld (OP-01): the Nullo bidder declares four nines with his Nullo; four 9s are a
    # meld in a suit contract only (JJ-MELD-2). A Slam voids the Nullo: they stand; a pass: the Nullo stands.
    rules = rules_with("nullo_bidder_may_meld")
    s = full_hand(rules, a9="JH KH QH 7H AS TS 8S KD QD", b9="9S 9H 9D 9C TC KC AD 8D 7D", turned="8H",
                  info="8C", dealer="B", auction="A accept, B pass")
    s = run(rules, s, "B nullo, B melds 49")
    v = rules.check(s, action("A pass"))
    assert v is not None and v.rule == "JJ-MELD-2" and v.at == ("melds", B)
    assert rules.check(s, action("A slam")) is None


def test_jj_dix_3_not_after_the_first_card():
    rules = JojotteRules()
    s = full_hand(rules, **EX1, auction=EX1_AUCTION, after="B pass, A pass, A pass")
    s = run_plays(rules, s, "B AC")
    v = rules.check(s, action("A dix"))
    assert v is not None and v.rule == "JJ-DIX-3"


def test_op_19_dix_until_own_first_card():
    rules = rules_with("dix_until_own_first_card")
    s = full_hand(rules, **EX1, auction=EX1_AUCTION, after="B pass, A pass, A pass")
    s = run_plays(rules, s, "B AC")
    assert rules.check(s, action("A dix")) is None


def test_jj_dix_4_seven_in_a_declared_meld():
    # A declares 9H-7H (hearts trump, with 8H); the seven may then not be exchanged
    rules = JojotteRules()
    s = full_hand(rules, a9="9H 8H 7H AS TS 8S KD QD JC", b9="AH TH KH AC TC KC 9D 8D 7D", turned="QH", info="8C",
                  dealer="B", auction=EX1_AUCTION, after="B pass, A pass, A melds 9H-7H")
    v = rules.check(s, action("A dix"))
    assert v is not None and v.rule == "JJ-DIX-4"


# A holds 9H 8H 7H (hearts accepted, QH turned); B either passes or shows a longer diamond run
OP20_A = "9H 8H 7H AS TS 8S KD QD JC"
OP20_B = "AH TH KH TD 9D 8D 7D AC TC"


@pytest.mark.parametrize("variant, b_call, a_scores, allowed", [
    ("", "B pass", True, False),  # JJ-DIX-4 default: declared blocks, scored or not
    ("", "B melds TD-7D", False, False),
    ("dix_blocked_only_if_scored", "B pass", True, False),  # OP-20: A's 9H-7H scored, still blocked
    ("dix_blocked_only_if_scored", "B melds TD-7D", False, True),  # A's meld lost class B: allowed
])
def test_op_20_dix_blocked_only_if_scored(variant, b_call, a_scores, allowed):
    rules = rules_with(variant)
    s = full_hand(rules, a9=OP20_A, b9=OP20_B, turned="QH", info="8C", dealer="B", auction=EX1_AUCTION,
                  after=f"{b_call}, A pass, A melds 9H-7H")
    assert (rules.compare_melds(s).class_b == A) == a_scores
    v = rules.check(s, action("A dix"))
    if allowed:
        assert v is None
    else:
        assert v is not None and v.rule == "JJ-DIX-4"


def test_jj_dix_5_at_most_once():
    rules, s = after_ex1()
    s = run(rules, s, "A dix")
    v = rules.check(s, action("A dix"))
    assert v is not None and v.rule == "JJ-DIX-5"


def test_jj_dix_6_turned_seven_of_trumps():
    rules = JojotteRules()
    s = full_hand(rules, a9="JH KH QH 9H AS TS 8S KD QD", b9="AH TH 8H AC TC KC 9D 8D 7D", turned="7H", info="8C",
                  dealer="B", auction=EX1_AUCTION)
    v = rules.check(s, action("A dix"))
    assert v is not None and v.rule in {"JJ-DIX-6", "JJ-DIX-2"}
    assert not any(a.kind == "dix" for a in rules.legal_actions(s))


# --- trick sequence (JJ-PLAY-1, -10, -11) and JJ-INV-2/3 -------------------------------------------------

def ex1_in_play(after="B melds 9D-7D, A pass, A melds KH-JH, A dix"):
    rules = JojotteRules()
    return rules, full_hand(rules, **EX1, auction=EX1_AUCTION, after=after)


def test_jj_play_1_defender_leads_to_trick_1():
    rules, s = ex1_in_play()
    assert rules.current_player(s) == B
    v = rules.check(s, play("A AS"))
    assert v is not None and v.rule == "JJ-PLAY-1"


def test_jj_play_11_winner_leads_next():
    rules, s = ex1_in_play()
    s = run_plays(rules, s, "B AC, A KH jo")  # A wins trick 1
    v = rules.check(s, play("B TC"))
    assert v is not None and v.rule == "JJ-PLAY-11"
    assert rules.check(s, play("A QH jotte")) is None


def test_jj_inv_2_cards_from_the_hand_in_turn_and_hands_empty_at_the_end():
    rules, s = ex1_in_play()
    v = rules.check(s, play("B AS"))  # A holds AS
    assert v is not None and v.rule == "JJ-INV-2"
    s1 = run_plays(rules, s, "B AC")
    v = rules.check(s1, play("B TC"))  # B plays twice in one trick
    assert v is not None and v.rule == "JJ-INV-2"
    done = run_plays(rules, s, EX1_PLAY)
    assert done.phase == "done" and done.hands == (0, 0)
    v = rules.check(done, play("A QD"))
    assert v is not None and v.rule == "JJ-INV-2"
    v = rules.check(run_plays(rules, s, "B AC, A KH jo"), play("A KH"))  # played earlier
    assert v is not None and v.rule == "JJ-INV-2"


@pytest.mark.parametrize("key", ["1", "2", "4", "5", "6", "7a", "7b"])
def test_jj_inv_3_nine_tricks(key):
    text, dealer = example_hand(key)
    _, verdicts = validate_text(session(text, first_dealer=dealer))
    s = verdicts[0].state
    assert sum(s.won) == 9 and s.tricks_done == 9 and len(s.history) == 9


def test_jj_play_10_all_tricks_played_after_a_failed_nullo():
    # Example 6: B's Nullo fails at trick 1, the hand is still played out; a record stopping early is flagged
    text, dealer = example_hand("6")
    lines = [x for x in text.splitlines() if not x.startswith(("trick 5", "trick 6", "trick 7", "trick 8", "trick 9"))]
    _, verdicts = validate_text(session("\n".join(lines) + "\n", first_dealer=dealer))
    # §0.3: a missing trick cites JJ-PLAY-10 at the first trick that is missing (trick 5), JJ-INV-3 as "see also"
    assert [i.rule for i in verdicts[0].issues] == ["JJ-PLAY-10"]
    issue = verdicts[0].issues[0]
    assert issue.loc.trick == 5 and issue.kind == "illegal" and issue.see_also == ("JJ-INV-3",)
    assert "see also JJ-INV-3" in issue.message and issue.to_json()["see_also"] == ["JJ-INV-3"]
    assert not any(i.rule == "JJ-INV-3" for i in verdicts[0].issues)
    assert verdicts[0].score is None


# --- Jo-Jotte (JJ-JOJOTTE) ------------------------------------------------------------------------------

def test_jj_jojotte_3_4_scored_by_the_announcer():
    """JJ-JOJOTTE-3, JJ-JOJOTTE-4: King with "Jo", later Queen with "Jotte"."""
    rules, s = ex1_in_play()
    s = run_plays(rules, s, EX1_PLAY)
    assert s.jo == (2, 0)
    assert rules.score_hand(s).trick_points == (110, 40)


@pytest.mark.parametrize("plays, jo, a_trick", [
    (EX1_PLAY.replace("A KH jo", "A KH").replace("A QH jotte", "A QH"), (0, 0), 90),  # no announcement
    (EX1_PLAY.replace("A QH jotte", "A QH"), (1, 0), 90),  # "Jotte" missing
])
def test_jj_jojotte_5_no_points_without_both_announcements(plays, jo, a_trick):
    rules, s = ex1_in_play()
    s = run_plays(rules, s, plays)
    assert s.jo == jo
    assert rules.score_hand(s).trick_points == (a_trick, 40)


def test_jj_jojotte_5_jotte_without_jo():
    rules, s = ex1_in_play()
    s = run_plays(rules, s, "B AC, A KH")
    v = rules.check(s, play("A QH jotte"))
    assert v is not None and v.rule in {"JJ-JOJOTTE-5", "JJ-JOJOTTE-8"}


def test_jj_jojotte_5_queen_before_king():
    rules, s = ex1_in_play()
    s = run_plays(rules, s, "B AC, A QH")  # A ruffs with the queen first, saying nothing; A wins the trick
    v = rules.check(s, play("A KH jo"))  # then the king: A no longer holds the queen
    assert v is not None and v.rule in {"JJ-JOJOTTE-2", "JJ-JOJOTTE-8"}
    s = run_plays(rules, s, "A KH, B TH")
    assert s.jo == (0, 0)


def test_jj_jojotte_2_jo_needs_the_queen_in_the_same_hand():
    # B deals, A accepts hearts; A holds KH but B holds QH
    rules = JojotteRules()
    s = full_hand(rules, a9="JH KH 8H 7H AS TS 8S KD QD", b9="AH TH QH AC TC KC 9D 8D 7D", turned="9H", info="8C",
                  dealer="B", auction=EX1_AUCTION, after="B pass, A pass, A pass")
    s = run_plays(rules, s, "B AC")
    v = rules.check(s, play("A KH jo"))
    assert v is not None and v.rule in {"JJ-JOJOTTE-2", "JJ-JOJOTTE-8"}


def test_jj_jojotte_2_queen_from_the_dix_exchange():
    # turned QH; A holds 7H and KH: after the exchange he holds both and may say "Jo"
    rules = JojotteRules()
    s = full_hand(rules, a9="JH KH 8H 7H AS TS 8S KD QD", b9="AH TH 9H AC TC KC 9D 8D 7D", turned="QH", info="8C",
                  dealer="B", auction=EX1_AUCTION, after="B pass, A pass, A pass")
    s2 = run_plays(rules, s, "B AC")
    v = rules.check(s2, play("A KH jo"))
    assert v is not None and v.rule in {"JJ-JOJOTTE-2", "JJ-JOJOTTE-8"}
    s = run(rules, s, "A dix")
    s = run_plays(rules, s, "B AC")
    assert rules.check(s, play("A KH jo")) is None


@pytest.mark.parametrize("auction, after", [
    ("A pass, B pass, A nt, B pass", "B pass, A pass, A pass"),  # NT
    (EX1_AUCTION, "B nullo, A pass, A pass"),  # Nullo
])
def test_jj_jojotte_1_no_jo_jotte_in_nt_or_nullo(auction, after):
    rules = JojotteRules()
    s = full_hand(rules, **EX1, auction=auction, after=after)
    leader = rules.current_player(s)
    if leader == B:
        s = run_plays(rules, s, "B AC")
        v = rules.check(s, play("A KH jo"))
    else:
        v = rules.check(s, play("A KH jo"))
    assert v is not None and v.rule in {"JJ-JOJOTTE-1", "JJ-JOJOTTE-8"}


@pytest.mark.parametrize("plays, bad, rules_ok", [
    ("B AC", "A 9H jo", {"JJ-JOJOTTE-8"}),  # "Jo" with another card
    ("B AC, A KH jo", "A JH jotte", {"JJ-JOJOTTE-8"}),  # "Jotte" with another card
    ("B AC", "A KH belote", {"JJ-JOJOTTE-8"}),  # not an announcement
    ("B AC, A KH jo, A QH", "B TH jo", {"JJ-JOJOTTE-8"}),  # "Jo" with a non-king
])
def test_jj_jojotte_8_announcement_checks(plays, bad, rules_ok):
    rules, s = ex1_in_play()
    s = run_plays(rules, s, plays)
    v = rules.check(s, play(bad))
    assert v is not None and v.rule in rules_ok


def test_jj_jojotte_8_jotte_only_by_the_player_who_said_jo():
    # B holds the trump queen but never said "Jo": his "Jotte" is an error
    rules = JojotteRules()
    s = full_hand(rules, a9="JH KH QC 7H AS TS 8S KD QD", b9="AH TH QH AC TC KC 9D 8D 7D", turned="9H", info="8C",
                  dealer="B", auction=EX1_AUCTION, after="B pass, A pass, A pass")
    v = rules.check(s, play("B QH jotte"))
    assert v is not None and v.rule in {"JJ-JOJOTTE-8", "JJ-JOJOTTE-5"}
    assert rules.check(s, play("B QH")) is None


def test_jj_jojotte_6_7_one_jo_jotte_multiplied_not_a_meld():
    """JJ-JOJOTTE-6, JJ-JOJOTTE-7."""
    # Example 3 (doubled Example 1): the Jo-Jotte 20 is in the doubled trick score, not in the melds
    text, dealer = example_hand("3-1x")
    _, verdicts = validate_text(session(text, first_dealer=dealer))
    score = verdicts[0].score
    assert score.trick_points == (110, 40)
    assert score.below(A) == 2 * (110 + 40)
    assert score.meld_points == (20, 0)
    state = verdicts[0].state
    assert state.jo.count(2) == 1  # at most one Jo-Jotte in a hand


def test_jj_play_8_written_trick_winner_is_checked():
    # Example 1, trick 2 is won by B (TH beats QH); a record writing "-> A" is inconsistent
    text, dealer = example_hand("1", replace=(("trick 2: A QH jotte, B TH -> B", "trick 2: A QH jotte, B TH -> A"),))
    issue = first_issue(text, first_dealer=dealer)
    assert issue is not None and issue.rule == "JJ-PLAY-8"
