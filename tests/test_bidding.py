"""The auction (JJ-BID-1…12), doubling (JJ-DBL-1…3) and the NT options of OP-05.

The state table of §4 is walked completely: in every state every call (PASS, ACCEPT, NAME of
each suit, NT, DOUBLE, REDOUBLE) by the player whose turn it is, plus a call out of turn, is
checked by rules.check: a legal call gives the next state of the table, an illegal call gives a
violation citing the rule it breaks.

Throughout: B deals, so A is the non-dealer (N) and B the dealer (D); the turned card is 9H.
"""

from __future__ import annotations

import pytest
from jj_helpers import C, D, H, S, example_hand, rules_with, run, start

from conftest import session, validate_text
from jojotte_records.rules.base import Action
from jojotte_records.rules.jojotte import JojotteRules

A, B = 0, 1
CALLS = ["pass", "accept", "name S", "name H", "name D", "name C", "nt", "double", "redouble"]

# States of the JJ-BID table, reached from the deal by these calls; the seat whose turn it is.
STATES = {
    "R1a": ("", A),
    "R1b": ("A pass", B),
    "R2a": ("A pass, B pass", A),
    "R2b": ("A pass, B pass, A pass", B),
    "Suit(N) accepted": ("A accept", B),
    "Suit(D) accepted": ("A pass, B accept", A),
    "Suit(N) named": ("A pass, B pass, A name S", B),
    "Suit(D) named": ("A pass, B pass, A pass, B name C", A),
    "NT(N)": ("A pass, B pass, A nt", B),
    "NT(D)": ("A pass, B pass, A pass, B nt", A),
    "NT(O) overcall": ("A accept, B nt", A),
    "X(P) suit": ("A accept, B double", A),
    "X(P) NT": ("A pass, B pass, A nt, B double", A),
    "X(P) NT overcall": ("A accept, B nt, A double", B),
}


def ok(node, bidder=-1, denom="", trump=-1, mult=1, phase="auction"):
    return ("ok", node, bidder, denom, trump, mult, phase)


END = "end"

# For each state: call -> the next state (ok(...)) or the set of rule IDs an illegal call may cite.
# Where a call breaks two statements of the spec at once, either ID is accepted.
TABLE = {
    "R1a": {  # JJ-BID-1: N calls ACCEPT or PASS; JJ-BID-3: nothing else
        "pass": ok("R1b"),
        "accept": ok("Suit", A, "suit", H),
        "name S": {"JJ-BID-3"}, "name H": {"JJ-BID-3"}, "name D": {"JJ-BID-3"}, "name C": {"JJ-BID-3"},
        "nt": {"JJ-BID-3"},
        "double": {"JJ-BID-3", "JJ-DBL-1"},
        "redouble": {"JJ-BID-3", "JJ-DBL-2"},
    },
    "R1b": {  # JJ-BID-2: D calls ACCEPT or PASS
        "pass": ok("R2a"),
        "accept": ok("Suit", B, "suit", H),
        "name S": {"JJ-BID-3"}, "name H": {"JJ-BID-3"}, "name D": {"JJ-BID-3"}, "name C": {"JJ-BID-3"},
        "nt": {"JJ-BID-3"},
        "double": {"JJ-BID-3", "JJ-DBL-1"},
        "redouble": {"JJ-BID-3", "JJ-DBL-2"},
    },
    "R2a": {  # JJ-BID-4: N names a suit, bids NT or passes; JJ-BID-5: not the turned suit
        "pass": ok("R2b"),
        "accept": {"JJ-BID-4"},
        "name S": ok("Suit", A, "suit", S), "name H": {"JJ-BID-5"},
        "name D": ok("Suit", A, "suit", D), "name C": ok("Suit", A, "suit", C),
        "nt": ok("NT", A, "nt", -1),
        "double": {"JJ-BID-4", "JJ-DBL-1"},
        "redouble": {"JJ-BID-4", "JJ-DBL-2"},
    },
    "R2b": {  # JJ-BID-4: D has the same options; JJ-BID-12: a fourth pass voids the hand
        "pass": ok("void", phase="void"),
        "accept": {"JJ-BID-4"},
        "name S": ok("Suit", B, "suit", S), "name H": {"JJ-BID-5"},
        "name D": ok("Suit", B, "suit", D), "name C": ok("Suit", B, "suit", C),
        "nt": ok("NT", B, "nt", -1),
        "double": {"JJ-BID-4", "JJ-DBL-1"},
        "redouble": {"JJ-BID-4", "JJ-DBL-2"},
    },
}


def suit_answers(bidder, trump):
    """JJ-BID-6: the opponent answers a suit contract with PASS, DOUBLE or NT; JJ-BID-7/10: no suit."""
    opp = 1 - bidder
    return {
        "pass": ok(END, bidder, "suit", trump, 1, "draw"),
        "double": ok("X", bidder, "suit", trump, 2),
        "nt": ok("NT", opp, "nt", -1),
        "accept": {"JJ-BID-10", "JJ-BID-7", "JJ-BID-6"},
        "name S": {"JJ-BID-7", "JJ-BID-10"}, "name H": {"JJ-BID-7", "JJ-BID-10"},
        "name D": {"JJ-BID-7", "JJ-BID-10"}, "name C": {"JJ-BID-7", "JJ-BID-10"},
        "redouble": {"JJ-DBL-2", "JJ-BID-6"},
    }


def nt_answers(bidder):
    """JJ-BID-8: the opponent answers a NT contract with PASS or DOUBLE; JJ-BID-7: no overcall."""
    return {
        "pass": ok(END, bidder, "nt", -1, 1, "draw"),
        "double": ok("X", bidder, "nt", -1, 2),
        "nt": {"JJ-BID-7"},
        "accept": {"JJ-BID-10", "JJ-BID-8"},
        "name S": {"JJ-BID-10", "JJ-BID-8", "JJ-BID-7"}, "name H": {"JJ-BID-10", "JJ-BID-8", "JJ-BID-7"},
        "name D": {"JJ-BID-10", "JJ-BID-8", "JJ-BID-7"}, "name C": {"JJ-BID-10", "JJ-BID-8", "JJ-BID-7"},
        "redouble": {"JJ-DBL-2", "JJ-BID-8"},
    }


def doubled_answers(bidder, denom, trump):
    """JJ-BID-9: the doubled bidder redoubles or passes; then the bidding ends (JJ-DBL-1: one double)."""
    return {
        "pass": ok(END, bidder, denom, trump, 2, "draw"),
        "redouble": ok(END, bidder, denom, trump, 4, "draw"),
        "double": {"JJ-DBL-1", "JJ-BID-9"},
        "nt": {"JJ-BID-9", "JJ-BID-7"},
        "accept": {"JJ-BID-9", "JJ-BID-10"},
        "name S": {"JJ-BID-9", "JJ-BID-10"}, "name H": {"JJ-BID-9", "JJ-BID-10"},
        "name D": {"JJ-BID-9", "JJ-BID-10"}, "name C": {"JJ-BID-9", "JJ-BID-10"},
    }


TABLE["Suit(N) accepted"] = suit_answers(A, H)
TABLE["Suit(D) accepted"] = suit_answers(B, H)
TABLE["Suit(N) named"] = suit_answers(A, S)
TABLE["Suit(D) named"] = suit_answers(B, C)
TABLE["NT(N)"] = nt_answers(A)
TABLE["NT(D)"] = nt_answers(B)
TABLE["NT(O) overcall"] = nt_answers(B)
TABLE["X(P) suit"] = doubled_answers(A, "suit", H)
TABLE["X(P) NT"] = doubled_answers(A, "nt", -1)
TABLE["X(P) NT overcall"] = doubled_answers(B, "nt", -1)

# A call by the player whose turn it is not: the rule that gives the turn in that state.
OUT_OF_TURN = {
    "R1a": {"JJ-BID-1"},
    "R1b": {"JJ-BID-2", "JJ-BID-1"},
    "R2a": {"JJ-BID-4"},
    "R2b": {"JJ-BID-4"},
    "Suit(N) accepted": {"JJ-BID-6"},
    "Suit(D) accepted": {"JJ-BID-6"},
    "Suit(N) named": {"JJ-BID-6"},
    "Suit(D) named": {"JJ-BID-6"},
    "NT(N)": {"JJ-BID-8"},
    "NT(D)": {"JJ-BID-8"},
    "NT(O) overcall": {"JJ-BID-8"},
    "X(P) suit": {"JJ-BID-9", "JJ-BID-6"},  # the defender already used his one answer (JJ-BID-6)
    "X(P) NT": {"JJ-BID-9", "JJ-BID-8"},  # no suit contract here: JJ-BID-6 does not apply
    "X(P) NT overcall": {"JJ-BID-9", "JJ-BID-8"},
}


def state_at(rules, name):
    script, caller = STATES[name]
    s = run(rules, start(rules, "9H", "B"), script)
    assert rules.current_player(s) == caller
    return s, caller


def make_call(seat, call):
    kind, _, suit = call.partition(" ")
    return Action(seat, kind, suit={"S": S, "H": H, "D": D, "C": C}[suit] if suit else -1)


CASES = [(st, call) for st in TABLE for call in CALLS]


@pytest.mark.parametrize("state_name, call", CASES, ids=[f"{st} {c}" for st, c in CASES])
def test_jj_bid_state_table(state_name, call):
    """JJ-BID-1…10 (and JJ-DBL-1/2): every call in every state of the §4 table."""
    rules = JojotteRules()
    s, caller = state_at(rules, state_name)
    expected = TABLE[state_name][call]
    a = make_call(caller, call)
    v = rules.check(s, a)
    if isinstance(expected, set):
        assert v is not None, f"{call} should be illegal in {state_name}"
        assert v.rule in expected, f"{call} in {state_name}: cited {v.rule}: {v.text}"
        return
    assert v is None, f"{call} should be legal in {state_name}: {v}"
    _, node, bidder, denom, trump, mult, phase = expected
    n = rules.apply(s, a)
    assert (n.node, n.phase) == (node, phase)
    if bidder >= 0:
        assert (n.bidder, n.denomination, n.trump, n.mult) == (bidder, denom, trump, mult)


@pytest.mark.parametrize("state_name", list(STATES))
def test_jj_bid_legal_actions_match_the_table(state_name):
    rules = JojotteRules()
    s, caller = state_at(rules, state_name)
    legal = {(a.kind, a.suit) for a in rules.legal_actions(s)}
    expected = {(make_call(caller, c).kind, make_call(caller, c).suit) for c, e in TABLE[state_name].items()
                if not isinstance(e, set)}
    assert legal == expected
    assert all(a.seat == caller for a in rules.legal_actions(s))


@pytest.mark.parametrize("state_name", list(STATES))
def test_jj_bid_call_out_of_turn(state_name):
    """A PASS by the player whose turn it is not cites the rule giving the turn (JJ-BID-1/2/4/6/8/9)."""
    rules = JojotteRules()
    s, caller = state_at(rules, state_name)
    v = rules.check(s, make_call(1 - caller, "pass"))
    assert v is not None
    assert v.rule in OUT_OF_TURN[state_name], f"{state_name}: {v.rule}: {v.text}"


@pytest.mark.parametrize("state_name", ["X(P) suit", "X(P) NT"])
def test_jj_dbl_2_the_defender_cannot_redouble(state_name):
    rules = JojotteRules()
    s, caller = state_at(rules, state_name)
    v = rules.check(s, make_call(1 - caller, "redouble"))
    assert v is not None and v.rule in {"JJ-DBL-2", "JJ-BID-9"}, f"{v.rule}: {v.text}"


# --- declarer (JJ-BID-11) and the multiplier (JJ-DBL-3) ------------------------------------

@pytest.mark.parametrize("script, declarer, denom, trump, mult", [
    ("A accept, B pass", A, "suit", H, 1),
    ("A pass, B accept, A pass", B, "suit", H, 1),
    ("A accept, B nt, A pass", B, "nt", -1, 1),  # the NT overcaller becomes declarer
    ("A pass, B pass, A name D, B nt, A double, B pass", B, "nt", -1, 2),
    ("A pass, B pass, A pass, B name S, A double, B redouble", B, "suit", S, 4),
    ("A pass, B pass, A nt, B pass", A, "nt", -1, 1),
    ("A accept, B double, A pass", A, "suit", H, 2),
    ("A accept, B double, A redouble", A, "suit", H, 4),
])
def test_jj_bid_11_declarer_and_jj_dbl_3_multiplier(script, declarer, denom, trump, mult):
    rules = JojotteRules()
    s = run(rules, start(rules, "9H", "B"), script)
    assert s.phase == "draw"  # the bidding is over: the draw comes next (JJ-DRAW-1)
    assert s.declarer == declarer and s.defender == 1 - declarer
    assert (s.denomination, s.trump, s.mult) == (denom, trump, mult)


def test_jj_dbl_1_only_the_defender_doubles_and_only_once():
    rules = JojotteRules()
    s = run(rules, start(rules, "9H", "B"), "A accept")
    v = rules.check(s, Action(A, "double"))  # the bidder cannot double his own contract
    assert v is not None and v.rule in {"JJ-BID-6", "JJ-DBL-1"}
    s = run(rules, s, "B double")
    assert s.doubler == B
    v = rules.check(s, Action(B, "double"))  # a second double (B's one answer is used up, JJ-BID-6)
    assert v is not None and v.rule in {"JJ-DBL-1", "JJ-BID-9", "JJ-BID-6"}


def test_jj_dbl_2_redouble_only_right_after_the_double():
    rules = JojotteRules()
    s = run(rules, start(rules, "9H", "B"), "A accept")
    v = rules.check(s, Action(B, "redouble"))  # no double yet
    assert v is not None and v.rule in {"JJ-DBL-2", "JJ-BID-6"}
    s = run(rules, s, "B pass")  # the bidding ended undoubled
    assert s.mult == 1 and s.phase == "draw"


# --- calls after the end of the bidding, and the void hand (JJ-BID-10, JJ-BID-12) -------------

@pytest.mark.parametrize("auction, rule", [
    ("A accept, B pass, A name S", "JJ-BID-10"),  # no NAME once a contract stands
    ("A accept, B double, A redouble, B double", "JJ-DBL-1"),  # nothing after the redouble; a second double is JJ-DBL-1
    ("A pass, B pass, A nt, B pass, B accept", "JJ-BID-10"),
])
def test_jj_bid_10_no_call_after_the_bidding(auction, rule):
    text = f"hand 1 dealer B\nturned 9H\nauction {auction}\n"
    _, verdicts = validate_text(session(text))
    first = verdicts[0].first_illegal
    assert first is not None and first.rule == rule


def test_jj_bid_12_four_passes_void_the_hand():
    rules = JojotteRules()
    s = run(rules, start(rules, "9H", "B"), "A pass, B pass, A pass, B pass")
    assert s.phase == "void" and rules.is_terminal(s)
    assert s.bidder == -1
    score = rules.score_hand(s)
    assert score.void and score.credits == () and score.held_aside == 0 and score.winner == -1
    v = rules.check(s, Action(A, "accept"))  # nothing more happens in a void hand
    assert v is not None and v.rule == "JJ-BID-12"


def test_jj_bid_12_void_hand_keeps_the_pool_and_passes_the_deal():
    # Example 4 (150 held aside), a void hand dealt by A, then the next deal is B's (JJ-DEAL-2)
    ex4, _ = example_hand("4", 1)
    void = "hand 2 dealer A\ndeal A: AS KS 9H 8D 7C 8C; B: JD QS 7S TH 9C QC\nturned KD\nauction B pass, A pass, B pass, A pass\n"
    ex1, _ = example_hand("1", 3)  # dealt by B: A wins it
    _, verdicts = validate_text(session(ex4 + "\n" + void + "\n" + ex1))
    assert all(v.ok for v in verdicts), [v.issues for v in verdicts]
    assert verdicts[1].score.void
    assert verdicts[1].entry.credits == ()
    assert verdicts[1].sheet.pool == 150  # unchanged by the void hand
    assert verdicts[2].entry.above(A) == 20 + 150  # the next hand with a winner takes the pool


def test_jj_bid_12_void_hand_does_not_restart_the_deal():
    void = "hand 1 dealer B\nturned KD\nauction A pass, B pass, A pass, B pass\n"
    again = "hand 2 dealer B\nturned KH\nauction A pass, B pass, A pass, B pass\n"
    _, verdicts = validate_text(session(void + "\n" + again))
    assert verdicts[0].ok
    assert any(i.rule == "JJ-DEAL-2" for i in verdicts[1].issues)


def test_jj_bid_12_void_hand_has_no_melds_or_play():
    text = ("hand 1 dealer B\nturned KD\nauction A pass, B pass, A pass, B pass\n"
            "after B melds 4K\n")
    _, verdicts = validate_text(session(text))
    assert verdicts[0].first_illegal is not None and verdicts[0].first_illegal.rule == "JJ-BID-12"


# --- OP-05: NT options -----------------------------------------------------------------------

@pytest.mark.parametrize("variant, script, legal, rule", [
    ("", "", False, "JJ-BID-3"),
    ("", "A pass", False, "JJ-BID-3"),
    ("nt_direct_in_round1", "", True, None),
    ("nt_direct_in_round1", "A pass", True, None),
    ("variant.nt_direct_in_round1 = true", "A pass", True, None),
])
def test_op_05_nt_in_round_1(variant, script, legal, rule):
    rules = rules_with(variant)
    s = run(rules, start(rules, "9H", "B"), script)
    caller = rules.current_player(s)
    v = rules.check(s, Action(caller, "nt"))
    if not legal:
        assert v is not None and v.rule == rule
        return
    assert v is None
    n = rules.apply(s, Action(caller, "nt"))
    assert (n.node, n.bidder, n.denomination) == ("NT", caller, "nt")
    # JJ-BID-8 still applies: the opponent passes or doubles, no overcall
    assert {a.kind for a in rules.legal_actions(n)} == {"pass", "double"}


@pytest.mark.parametrize("variant, script, nt_legal", [
    ("", "A accept", True),  # default: NT overcalls a suit accepted in round 1 …
    ("", "A pass, B pass, A name S", True),  # … and a suit named in round 2
    ("nt_overcall_round2_only", "A accept", False),
    ("nt_overcall_round2_only", "A pass, B accept", False),
    ("nt_overcall_round2_only", "A pass, B pass, A name S", True),
    ("nt_overcall_round2_only", "A pass, B pass, A pass, B name D", True),
])
def test_op_05_nt_overcall(variant, script, nt_legal):
    rules = rules_with(variant)
    s = run(rules, start(rules, "9H", "B"), script)
    caller = rules.current_player(s)
    v = rules.check(s, Action(caller, "nt"))
    if nt_legal:
        assert v is None
        assert rules.apply(s, Action(caller, "nt")).bidder == caller
    else:
        assert v is not None and v.rule == "JJ-BID-6"
        # pass and double stay legal
        assert rules.check(s, Action(caller, "double")) is None


def test_jj_bid_6_nt_overcall_only_in_the_immediate_answer():
    # the opponent's one answering call is used up by a double: no NT afterwards (JJ-BID-9)
    rules = JojotteRules()
    s = run(rules, start(rules, "9H", "B"), "A accept, B double")
    v = rules.check(s, Action(B, "nt"))
    assert v is not None and v.rule in {"JJ-BID-9", "JJ-BID-6"}
