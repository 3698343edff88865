"""Irregularities of Pitch and Baloot as data (issue 15): every irregularity the specs name can be written in a
record, reads, round-trips canonically, and is ruled on with its rule ID and location, never as a syntax error.

Each case takes one legal hand of an example session (its header, the hand renumbered 1 and the first dealer
set to its dealer), writes one irregularity into it, and states by hand, from the spec, the rule that the act
breaks, the kind of finding, and the token the finding points at. The table of `docs/irregularities.md` is
this table in words.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from jojotte_records.notation.json_form import RecordFile, to_record_file, to_session
from jojotte_records.notation.text import iter_records, read_sessions, write_session
from jojotte_records.replay.jojotte import validate_stream

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def one_hand(name: str, k: int) -> str:
    """The header of ``examples/name`` and its hand ``k`` alone, numbered 1, the first dealer its dealer."""
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    head, _, rest = text.partition("\nhand 1 ")
    blocks = ("hand 1 " + rest).split("\n\n")
    hand = blocks[k - 1].strip()
    dealer = re.match(r"hand \d+ dealer (\w)", hand).group(1)
    hand = re.sub(r"^hand \d+", "hand 1", hand)
    head = re.sub(r'\[FirstDealer "\w"\]', f'[FirstDealer "{dealer}"]', head)
    return head + "\n" + hand + "\n"


PITCH = one_hand("pitch-game.jjt", 1)  # dealer W; S bids 6 in hearts (the spec's worked example 1)
PITCH_BURN = one_hand("pitch-game.jjt", 4)  # dealer S; S gives the remainder to N, who burns 6H and 4H
PITCH5 = one_hand("pitch-five-handed.jjt", 1)  # dealer A; A bids 10 in hearts and calls QS
BALOOT_SUN = one_hand("baloot-match.jjt", 1)  # dealer W; E's Sun, N and S each show a sira
BALOOT = one_hand("baloot-match.jjt", 2)  # dealer S (p1 E, p2 N, p3 W, p4 S); W's Hokum in diamonds, S doubles
BALOOT_LOCKED = one_hand("baloot-match.jjt", 3)  # dealer E; S's Hokum in hearts, E doubles locked; W's fifty


def findings(text: str) -> list:
    """Every finding that is an error (not the 'unchecked' notes) of every session of ``text``."""
    return [i for s, hs in validate_stream(iter_records(text, "t.jjt"))
            for i in (*s.issues, *(x for h in hs for x in h.issues)) if i.is_error]


def canonical(text: str) -> str:
    [session] = read_sessions(text)
    return write_session(session)


# (name, base, [(old, new)], rule, kind, trick, token at the finding's line and column)
# trick: the trick number the finding names (None for a call, a discard, a burn, a deal).
CASES = [
    # --- Pitch (rules spec pitch.md) -------------------------------------------------------------
    ("pitch deal: a player dealt eight cards", PITCH, [("deal N: 6S JH", "deal N: JH")],
     "PIT-DEAL-4", "illegal", None, "deal"),  # nine cards to each (PIT-DEAL-4)
    ("pitch deal: a card dealt twice", PITCH, [("deal N: 6S JH", "deal N: 4S JH")],
     "PIT-DEAL-4", "illegal", None, "deal"),  # 4S is also S's
    ("pitch bid out of turn", PITCH, [("bids N 5, E pass", "bids E pass, N 5")],
     "PIT-BID-1", "illegal", None, "E pass"),  # dealer W: N speaks first (PIT-BID-1)
    ("pitch bid below the minimum", PITCH, [("bids N 5,", "bids N 3,")],
     "PIT-BID-2", "illegal", None, "N 3"),  # bids run from 4 (PIT-BID-2)
    ("pitch bid above the top", PITCH, [("bids N 5,", "bids N 11,")],
     "PIT-BID-2", "illegal", None, "N 11"),  # ... up to N = 10, then MOON
    ("pitch insufficient bid", PITCH, [("S 6, W pass", "S 5, W pass")],
     "PIT-BID-3", "illegal", None, "S 5"),  # 5 is not higher than N's 5 (PIT-BID-3)
    ("pitch a second call by one player", PITCH, [("S 6, W pass", "S 6, W pass, N 7")],
     "PIT-BID-1", "illegal", None, "N 7"),  # each player speaks exactly once, the dealer last (PIT-BID-1)
    ("pitch trump named before the auction is over", PITCH, [("S 6, W pass", "S 6")],
     "PIT-BID-1", "illegal", None, "S hearts"),  # W, the dealer, has not spoken
    ("pitch trump named by the bidder's partner", PITCH, [("trump S hearts", "trump N hearts")],
     "PIT-BID-6", "illegal", None, "N hearts"),
    ("pitch trump named twice", PITCH, [("trump S hearts\n", "trump S hearts\ntrump S spades\n")],
     "PIT-BID-6", "illegal", None, "S spades"),  # the bidder names one suit (PIT-BID-6)
    ("pitch trump not named", PITCH, [("trump S hearts\n", "")],
     "PIT-BID-6", "illegal", None, "N:"),
    ("pitch discard out of turn", PITCH, [("discard N: 6S 8D AC KC 4C 3C; E: QS JS 9D JC;",
                                           "discard E: QS JS 9D JC; N: 6S 8D AC KC 4C 3C;")],
     "PIT-DRAW-1", "illegal", None, "E:"),  # in turn from the dealer's left: N first
    ("pitch non-trump kept", PITCH, [("discard N: 6S 8D AC KC 4C 3C;", "discard N: 6S 8D AC KC 4C;")],
     "PIT-DRAW-1", "illegal", None, "N:"),  # N keeps 3C
    ("pitch trump discarded", PITCH, [("discard N: 6S 8D AC KC 4C 3C;", "discard N: 6S 8D AC KC 4C 3C 7H;")],
     "PIT-DRAW-2", "illegal", None, "N:"),
    ("pitch refill of the wrong count", PITCH, [("E: 6D; W:", "E: 6D 5D; W:")],
     "PIT-DRAW-3", "illegal", None, "refill"),  # E holds five live cards: he draws one (PIT-DRAW-3)
    ("pitch refill missing", PITCH, [("refill N: 7D 7C 2C; E: 6D; W: AS KS 9S 9C\n", "")],
     "PIT-DRAW-3", "illegal", None, "S keep"),
    ("pitch remainder to an opponent", PITCH, [("remainder S keep", "remainder S to E")],
     "PIT-DRAW-5", "illegal", None, "S to E"),
    ("pitch remainder not named", PITCH, [("remainder S keep\n", "")],
     "PIT-DRAW-5", "illegal", 1, "S AH"),  # the record must name the recipient (PIT-DRAW-5)
    ("pitch burn not made", PITCH_BURN, [("burn N 6H, N 4H\n", "")],
     "PIT-DRAW-8", "illegal", 1, "S KH"),  # N holds eight live cards when play starts
    ("pitch burn one card short", PITCH_BURN, [("burn N 6H, N 4H", "burn N 6H")],
     "PIT-DRAW-8", "illegal", 1, "S KH"),
    ("pitch burn of one card too many", PITCH_BURN, [("burn N 6H, N 4H", "burn N 6H, N 4H, N 8H")],
     "PIT-DRAW-7", "illegal", None, "N 8H"),  # exactly the surplus, ending with six (PIT-DRAW-7)
    ("pitch burn by a player with six cards or fewer", PITCH_BURN, [("burn N 6H, N 4H", "burn S KH, N 6H, N 4H")],
     "PIT-DRAW-7", "illegal", None, "S KH"),
    ("pitch burn of a card not held", PITCH_BURN, [("burn N 6H, N 4H", "burn N 6H, N 9S")],
     "PIT-DRAW-7", "illegal", None, "N 9S"),  # 9S is dead (drawn non-trump)
    ("pitch first lead by the wrong player", PITCH, [("trick 1: S AH, W QH, N 7H, E 4H", "trick 1: W QH, N 7H, E 4H, S AH")],
     "PIT-PLAY-2", "illegal", 1, "W QH"),  # the bidder S leads (PIT-PLAY-2)
    ("pitch card played out of turn", PITCH, [("trick 1: S AH, W QH, N 7H, E 4H", "trick 1: S AH, N 7H, W QH, E 4H")],
     "PIT-PLAY-3", "illegal", 1, "N 7H"),  # clockwise: W after S
    ("pitch card played by the wrong player", PITCH, [("trick 1: S AH, W QH, N 7H, E 4H", "trick 1: S AH, W 7H, N QH, E 4H")],
     "PIT-PLAY-1", "illegal", 1, "W 7H"),  # 7H is N's
    ("pitch a player who is out plays", PITCH, [("trick 3: S JD, N JH, E 9H", "trick 3: S JD, W AS, N JH, E 9H")],
     "PIT-PLAY-3", "illegal", 3, "W AS"),  # W has no live card after trick 2
    ("pitch dead card played", PITCH, [("trick 2: S KH, W 2H, N X1, E X2", "trick 2: S KH, W 2H, N X1, E 9D")],
     "PIT-PLAY-1", "illegal", 2, "E 9D"),
    ("pitch card played twice", PITCH, [("trick 2: S KH,", "trick 2: S AH,")],
     "PIT-PLAY-1", "illegal", 2, "S AH"),
    ("pitch wrong leader after a trick", PITCH, [("trick 4: E 8H, S 3H", "trick 4: S 3H, E 8H")],
     "PIT-PLAY-6", "illegal", 4, "S 3H"),  # N won trick 3 and is out: E leads (PIT-PLAY-6)
    ("pitch a trick line missing a card", PITCH, [("trick 1: S AH, W QH, N 7H, E 4H", "trick 1: S AH, W QH, N 7H")],
     "PIT-PLAY-3", "illegal", 2, "S KH"),  # E has not played to trick 1
    ("pitch a trick line holding the next trick's card", PITCH, [("trick 5: E 6H, S TH\ntrick 6: S 5H\n",
                                                                  "trick 5: E 6H, S TH, S 5H\n")],
     "PIT-PLAY-3", "consistency", 5, "S 5H"),  # S 5H is trick 6: E is out after trick 5
    ("pitch a trick written with the wrong number", PITCH, [("trick 6: S 5H", "trick 7: S 5H")],
     "PIT-PLAY-3", "consistency", 7, "S 5H"),
    ("pitch trick written as won by the wrong player", PITCH, [("trick 1: S AH, W QH, N 7H, E 4H",
                                                               "trick 1: S AH, W QH, N 7H, E 4H -> W")],
     "PIT-PLAY-5", "consistency", 1, "trick"),  # AH wins (PIT-PLAY-5)
    ("pitch card after the end of the hand", PITCH, [("trick 6: S 5H\n", "trick 6: S 5H\ntrick 7: N 7D\n")],
     "PIT-PLAY-7", "illegal", 7, "N 7D"),
    ("pitch five-handed: a called card in the bidder's own hand", PITCH5, [("call A QS", "call A AC")],
     "PIT-FIVE-4", "illegal", None, "A AC"),
    ("pitch five-handed: a card called by another player", PITCH5, [("call A QS", "call B QS")],
     "PIT-FIVE-4", "illegal", None, "B QS"),
    ("pitch five-handed: a refill", PITCH5, [("trick 1:", "refill A: -; B: -; C: -; D: -; E: -\ntrick 1:")],
     "PIT-FIVE-6", "illegal", None, "refill"),
    # --- Baloot (rules spec baloot.md) ------------------------------------------------------------
    ("baloot deal: a player dealt four cards", BALOOT, [("deal E: JH 8H QD JC 8C;", "deal E: JH 8H QD JC;")],
     "BAL-DEAL-5", "illegal", None, "deal"),
    ("baloot deal: no face-up card", BALOOT, [("; up: TD", "")],
     "BAL-DEAL-6", "illegal", None, "deal"),
    ("baloot deal: a card dealt twice", BALOOT, [("deal E: JH 8H QD JC 8C;", "deal E: JH 8H QD JC 7C;")],
     "BAL-DECK-1", "illegal", None, "deal"),  # 7C is also N's
    ("baloot completion of the wrong count", BALOOT, [("complete E: AH 7H KD;", "complete E: AH 7H;")],
     "BAL-DEAL-8", "illegal", None, "complete"),  # three cards to each but the declarer
    ("baloot completion missing", BALOOT, [("complete E: AH 7H KD; N: QH TC 9C; W: JD KC; S: JS TS AC\n", "")],
     "BAL-DEAL-8", "illegal", 1, "E KD"),
    ("baloot call out of turn", BALOOT, [("bids 1: E pass, N pass", "bids 1: N pass, E pass")],
     "BAL-BID-2", "illegal", None, "N pass"),  # dealer S: p1 is E
    ("baloot a second pass to one standing bid", BALOOT, [("S pass, E pass, N pass, W pass", "S pass, E pass, N pass, N pass, W pass")],
     "BAL-BID-10", "illegal", None, "N pass"),
    ("baloot round 1 ended before closure", BALOOT, [("S pass, E pass, N pass, W pass\n", "S pass, E pass, N pass\n")],
     "BAL-BID-11", "illegal", None, "complete"),  # W may still switch to Sun (BAL-BID-9, -11)
    ("baloot call after the auction closed", BALOOT, [("N pass, W pass\n", "N pass, W pass, S sun\n")],
     "BAL-BID-11", "illegal", None, "S sun"),  # no round-1 call after closure (BAL-BID-11)
    ("baloot call written in the wrong round", BALOOT, [("bids 1: E pass", "bids 2: E pass")],
     "BAL-BID-13", "consistency", None, "E pass"),  # round 2 follows only four passes (BAL-BID-13)
    ("baloot ashkal by p1", BALOOT, [("bids 1: E pass", "bids 1: E ashkal")],
     "BAL-BID-4", "illegal", None, "E ashkal"),  # only p3 or p4 (BAL-BID-4)
    ("baloot double by the declarer's partner", BALOOT, [("doubling S double open", "doubling E double open")],
     "BAL-DBL-2", "illegal", None, "E double"),
    ("baloot triple by a defender", BALOOT, [("doubling S double open", "doubling S double open, N triple")],
     "BAL-DBL-3", "illegal", None, "N triple"),
    ("baloot double after the first card", BALOOT, [("doubling S double open\n", ""),
                                                     ("trick 2: S JS", "doubling S double open\ntrick 2: S JS")],
     "BAL-DBL-1", "illegal", None, "S double"),
    ("baloot double said during trick 1", BALOOT, [("doubling S double open\n", ""),
                                                    ("trick 1: E KD, N 8D,", "trick 1: E KD, S double, N 8D,")],
     "BAL-DBL-1", "illegal", 1, "S double"),  # none is legal after the first card (BAL-DBL-1)
    ("baloot Sun doubled below 100", BALOOT_SUN, [("W: QS 8D 9C\n", "W: QS 8D 9C\ndoubling N double\n")],
     "BAL-DBL-8", "illegal", None, "N double"),  # 0-0: neither team above 100 (BAL-DBL-8)
    ("baloot first lead by the wrong player", BALOOT, [("trick 1: E KD, N 8D, W sira, W TD, S sira, S 9D",
                                                         "trick 1: N 8D, W sira, W TD, S sira, S 9D, E KD")],
     "BAL-PLAY-2", "illegal", 1, "N 8D"),
    ("baloot card played out of turn", BALOOT, [("trick 3: E JH, N 9H, W AD, S TH", "trick 3: E JH, W AD, N 9H, S TH")],
     "BAL-PLAY-1", "illegal", 3, "W AD"),
    ("baloot lead by the trick's loser", BALOOT, [("trick 4: W KC, S AC, E 8C, N 7C", "trick 4: S AC, E 8C, N 7C, W KC")],
     "BAL-PLAY-3", "illegal", 4, "S AC"),
    ("baloot card played by the wrong player", BALOOT, [("trick 3: E JH, N 9H, W AD, S TH", "trick 3: E JH, N AD, W 9H, S TH")],
     "BAL-PLAY-1", "illegal", 3, "N AD"),
    ("baloot card played twice", BALOOT, [("trick 3: E JH,", "trick 3: E KD,")],
     "BAL-PLAY-1", "illegal", 3, "E KD"),
    ("baloot revoke", BALOOT, [("trick 3: E JH, N 9H, W AD, S TH", "trick 3: E JH, N 7C, W AD, S TH")],
     "BAL-PLAY-5", "illegal", 3, "N 7C"),  # N holds KH QH 9H
    ("baloot a trick line missing a card", BALOOT, [("trick 3: E JH, N 9H, W AD, S TH", "trick 3: E JH, N 9H, W AD")],
     "BAL-PLAY-1", "illegal", 4, "W KC"),  # S has not played to trick 3
    ("baloot a trick line holding the next trick's card", BALOOT,
     [("trick 7: W QC, S 9S, E AH, N KH\ntrick 8: W QS ekka, S 8S",
       "trick 7: W QC, S 9S, E AH, N KH, W QS ekka\ntrick 8: S 8S")],
     "BAL-PLAY-1", "consistency", 7, "W QS"),  # W won trick 7 and leads trick 8
    ("baloot a trick written with the wrong number", BALOOT, [("trick 8: W QS", "trick 9: W QS")],
     "BAL-PLAY-1", "consistency", 9, "W QS"),
    ("baloot card after the end of the hand", BALOOT, [("N QH\n", "N QH\ntrick 9: N 7H\n")],
     "BAL-PLAY-1", "illegal", 9, "N 7H"),
    ("baloot project declared out of turn", BALOOT, [("trick 1: E KD, N 8D, W sira", "trick 1: E KD, W sira, N 8D")],
     "BAL-PROJ-7", "illegal", 1, "W sira"),  # at his own turn to play (BAL-PROJ-7)
    ("baloot project declared after trick 1", BALOOT, [("S sira, S 9D", "S 9D"), ("trick 2: S JS,", "trick 2: S sira, S JS,")],
     "BAL-PROJ-7", "illegal", 2, "S sira"),
    ("baloot a second project declared", BALOOT, [("W sira, W TD", "W sira, W sira, W TD")],
     "BAL-PROJ-7", "illegal", 1, "W sira, W TD"),
    ("baloot project lower than one declared", BALOOT_LOCKED, [("S QC, E JC", "S QC, E sira, E JC")],
     "BAL-PROJ-8", "illegal", 1, "E sira"),  # after W's fifty (BAL-PROJ-8)
    ("baloot project declared but not held", BALOOT, [("W sira, W TD", "W fifty, W TD")],
     "BAL-PROJ-6", "illegal", 1, "W fifty"),
    ("baloot four hundred in Hokum", BALOOT, [("W sira, W TD", "W fourhundred, W TD")],
     "BAL-PROJ-1", "illegal", 1, "W fourhundred"),
    ("baloot best project not shown", BALOOT, [("W show AS KS QS, W KS", "W KS")],
     "BAL-PROJ-11", "illegal", 2, "W KS"),  # the owner of the best project must show it in trick 2
    ("baloot project shown by the other team", BALOOT, [("N 7S, W show", "N show 7S 8S 9S, N 7S, W show")],
     "BAL-PROJ-11", "illegal", 2, "N show"),
    ("baloot shown cards that are no sequence", BALOOT, [("W show AS KS QS", "W show AS KS JS")],
     "BAL-PROJ-2", "illegal", 2, "W show"),
    ("baloot four nines shown", BALOOT, [("W show AS KS QS", "W show 9S 9H 9D 9C")],
     "BAL-PROJ-3", "illegal", 2, "W show"),  # four nines are not a project (BAL-PROJ-3)
    ("baloot shown project not held", BALOOT, [("W show AS KS QS", "W show KS QS JS")],
     "BAL-PROJ-6", "illegal", 2, "W show"),
    ("baloot Baloot declared with the first card", BALOOT, [("trick 1: E KD,", "trick 1: E KD baloot,"), ("E QD baloot", "E QD")],
     "BAL-BALOOT-3", "illegal", 1, "E KD"),
    ("baloot Baloot without the K and Q", BALOOT, [("N 7S, W show", "N 7S baloot, W show")],
     "BAL-BALOOT-1", "illegal", 2, "N 7S"),
    ("baloot Baloot in Sun", BALOOT_SUN, [("trick 3: E TH, N KH", "trick 3: E TH, N KH baloot")],
     "BAL-BALOOT-1", "illegal", 3, "N KH"),
    ("baloot Ekka with a higher card out", BALOOT, [("trick 3: E JH,", "trick 3: E JH ekka,")],
     "BAL-EKKA-2", "illegal", 3, "E JH"),
    ("baloot Ekka in Sun", BALOOT_SUN, [("trick 3: E TH,", "trick 3: E TH ekka,")],
     "BAL-EKKA-1", "illegal", 3, "E TH"),
    ("baloot trump led in a locked hand", BALOOT_LOCKED, [("trick 3: E TS ekka, N 9H, W 8S, S 7D",
                                                            "trick 3: E JH, N 9H, W 8S, S 7D")],
     "BAL-PLAY-7", "illegal", 3, "E JH"),
]


def mutated(base: str, subs: list[tuple[str, str]]) -> str:
    text = base
    for old, new in subs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


@pytest.mark.parametrize("base", [PITCH, PITCH_BURN, PITCH5, BALOOT_SUN, BALOOT, BALOOT_LOCKED])
def test_the_base_hands_are_legal(base):
    assert findings(base) == []


@pytest.mark.parametrize("name, base, subs, rule, kind, trick, token", CASES, ids=[c[0] for c in CASES])
def test_an_irregularity_is_ruled_on_with_its_rule_and_location(name, base, subs, rule, kind, trick, token):
    text = mutated(base, subs)
    found = findings(text)
    assert found, "no finding"
    first = found[0]
    assert (first.rule, first.kind) == (rule, kind), str(first)
    assert first.loc.hand == 1 and first.loc.trick == trick, str(first)
    line = text.splitlines()[first.loc.line - 1]
    assert line[first.loc.column - 1:].startswith(token), (line, first.loc.column)
    assert not any(i.rule == "NOTATION" for i in found), "an irregularity is never a syntax error"


@pytest.mark.parametrize("name, base, subs, rule, kind, trick, token", CASES, ids=[c[0] for c in CASES])
def test_an_irregular_record_round_trips_canonically(name, base, subs, rule, kind, trick, token):
    text = mutated(base, subs)
    once = canonical(text)
    assert canonical(once) == once
    doc = to_record_file(read_sessions(text)).model_dump_json()  # and through the JSON form
    assert write_session(to_session(RecordFile.model_validate_json(doc).sessions[0])) == once
    assert [(i.rule, i.kind, i.loc.trick) for i in findings(once)][:1] == [(rule, kind, trick)]


def test_burn_not_made_names_the_burn_rule_as_see_also():
    # the play fails PIT-DRAW-8 (every player holds 0-6 live cards before play) because the burn of PIT-DRAW-7 was
    # not made: the message sends the reader to both
    first = findings(mutated(PITCH_BURN, [("burn N 6H, N 4H\n", "")]))[0]
    assert first.rule == "PIT-DRAW-8" and "PIT-DRAW-7" in first.see_also
    assert "Nell" in first.message and "8 live cards" in first.message  # N: 5 live + QH 5H... eight before burning two


def test_a_missing_call_says_who_has_still_to_speak():
    first = findings(mutated(PITCH, [("S 6, W pass", "S 6")]))[0]
    assert first.rule == "PIT-BID-1" and "Walt" in first.message and "still to speak" in first.message


def test_a_bare_unknown_line_is_reported_at_its_keyword():
    # a line of one unknown word has no items; it is still reported, with the game's own line keywords
    for base, game in ((PITCH, "Pitch"), (BALOOT, "Baloot")):
        text = base.replace("trick 1:", "shuffled\ntrick 1:", 1)
        found = findings(text)
        assert found and found[0].rule == "NOTATION" and found[0].message.startswith("unknown line 'shuffled'")
        assert f"({game} lines: " in found[0].message
        assert text.splitlines()[found[0].loc.line - 1] == "shuffled" and found[0].loc.column == 1


def test_an_unknown_line_is_located_at_its_keyword():
    text = PITCH.replace("trump S hearts", "trumps S hearts")
    first = findings(text)[0]
    assert first.rule == "NOTATION" and first.loc.column == 1
    assert text.splitlines()[first.loc.line - 1].startswith("trumps")


def test_every_rule_of_the_table_is_a_rule_of_its_spec():
    # the rule texts shipped with the package are generated from the specs (their staleness is tested elsewhere)
    data = ROOT / "jojotte_records" / "data"
    known = {**json.loads((data / "rules_pitch.json").read_text(encoding="utf-8"))["rules"],
             **json.loads((data / "rules_baloot.json").read_text(encoding="utf-8"))["rules"]}
    for case in CASES:
        assert case[3] in known, case[0]


def test_the_documented_table_has_a_row_per_case():
    doc = (ROOT / "docs" / "irregularities.md").read_text(encoding="utf-8")
    rows = [line for line in doc.splitlines() if line.startswith("| Pitch") or line.startswith("| Baloot")]
    cited = [re.search(r"(PIT|BAL)-[A-Z]+-\d+", r).group(0) for r in rows]
    assert len(rows) >= len(CASES)
    for case in CASES:
        assert case[3] in cited, case[0]


# --- a failed moon says why (issue 16, item 11) ---------------------------------------------------

def test_a_failed_moon_says_which_points_the_bidders_did_not_take():
    # the spec's worked example 1 with S shooting the moon: N-S take 9 points; the 2H, automatic (PIT-PTS-3), is
    # credited to W who played it in trick 2, so the moon fails (PIT-MOON-2) and N-S lose the game (PIT-MOON-4)
    text = mutated(PITCH, [("S 6, W pass", "S moon, W pass"), ("score NS 6, EW 1", "score NS 0, EW 0")])
    [(summary, [verdict])] = list(validate_stream(iter_records(text, "t.jjt")))
    assert verdict.ok
    [moon] = [c for c in verdict.score.credits if c.rule == "PIT-MOON-4" and c.column == 0]  # N-S
    assert "9 of 10" in moon.why and "2H (1 point) went to W" in moon.why and "the game is lost" in moon.why


def test_every_failed_moon_lists_exactly_the_points_the_bidders_missed():
    # an independent sum: the points named in the reason are the N points of the variant less the bidders' T_b
    import random

    from jojotte_records.rules.pitch import PitchOptions, PitchRules, play_random_hand

    def moon_first(actions, rng):
        return next((a for a in actions if a.kind == "moon"), None) or rng.choice(actions)

    for variant in ("", "points=16", "trump_discard=allowed_dead"):
        r = PitchRules(PitchOptions.parse(variant) if variant else None)
        rng = random.Random(15)
        failed = 0
        for _ in range(40):
            s, _ = play_random_hand(r, 0, rng, moon_first)
            h = r.score_hand(s, (10, 10))
            if not h.moon_failed:
                continue
            failed += 1
            [moon] = [c for c in h.credits if c.rule == "PIT-MOON-4" and c.column in h.bidding_columns]
            named = sum(int(n) for n in re.findall(r"\((\d+) points?\)", moon.why))
            assert named == r.total - h.bidding_points, moon.why
        assert failed > 10


def test_a_failed_moon_says_why_the_other_side_scores_nothing():
    # PIT-SCORE-4 scores the points won only in non-MOON hands; the failed moon wins E-W the game (PIT-MOON-4)
    text = mutated(PITCH, [("S 6, W pass", "S moon, W pass")])  # the written score NS 6, EW 1 is now wrong
    found = [i for i in findings(text) if i.kind == "score"]
    assert [i.rule for i in found] == ["PIT-MOON-4", "PIT-MOON-4"]
    assert "Ed & Walt's score is written 1, but is 0" in found[1].message and "moon hand" in found[1].message
