"""Guided entry of the games recorded as a log of events (Pitch, Baloot): the engine, driven without a terminal."""

from __future__ import annotations

import random

import pytest

from jojotte_records.notation.event_text import write_event_hand
from jojotte_records.notation.model import EventHand, EventScore
from jojotte_records.notation.text import iter_records, read_sessions
from jojotte_records.replay.event_log import hand_lines, play_hand
from jojotte_records.replay.jojotte import validate_stream
from jojotte_records.rules.base import CHANCE
from jojotte_records.table.recorder import Accepted, EventRecorder, Recorder, RecorderError, Refusal

# hand 1 of examples/pitch-game.jjt (the spec's worked example 1), entered as it happens
PITCH_HAND = [
    "W",  # dealer
    "6S JH 7H 8D AC KC 4C 3C X1", "QS JS 9H 8H 6H 4H 9D JC X2", "4S AH KH TH 5H 3H AD JD TD",
    "TS 8S 2S QH 2H KD 3D 2D QC",  # the deal, N E S W
    "5", "pass", "6", "pass",  # bids from the dealer's left
    "hearts",  # S names trump
    "6S 8D AC KC 4C 3C", "", "4S AD TD", "TS 8S 2S KD 3D 2D QC",  # discards (Enter takes the only legal one)
    "7D 7C 2C", "6D", "AS KS 9S 9C",  # the refill: N, E, W (S draws nothing)
    "keep",  # S keeps the remainder
    "AH", "QH", "7H", "4H", "KH", "2H", "X1", "X2", "JD", "JH", "9H", "8H", "3H", "6H", "TH", "5H",
]

PITCH_TEXT = """hand 1 dealer W
deal N: 6S JH 7H 8D AC KC 4C 3C X1; E: QS JS 9H 8H 6H 4H 9D JC X2; S: 4S AH KH TH 5H 3H AD JD TD; W: TS 8S 2S QH 2H KD 3D 2D QC
bids N 5, E pass, S 6, W pass
trump S hearts
discard N: 6S 8D AC KC 4C 3C; E: QS JS 9D JC; S: 4S AD TD; W: TS 8S 2S KD 3D 2D QC
refill N: 7D 7C 2C; E: 6D; W: AS KS 9S 9C
remainder S keep
trick 1: S AH, W QH, N 7H, E 4H
trick 2: S KH, W 2H, N X1, E X2
trick 3: S JD, N JH, E 9H
trick 4: E 8H, S 3H
trick 5: E 6H, S TH
trick 6: S 5H
score NS 6, EW 1
"""

PITCH_PLAYERS = ["Nell", "Ed", "Sue", "Walt"]


def enter(rec: Recorder, answers: list[str]):
    out = None
    for a in answers:
        out = rec.answer(a)
        assert isinstance(out, Accepted), (a, rec.question(), out)
    return out


def new_pitch(tmp_path, name="p.jjt", **kw) -> Recorder:
    kw.setdefault("players", PITCH_PLAYERS)
    kw.setdefault("tags", {"Event": "Thursday Pitch", "Date": "2027.02.04"})
    return Recorder(tmp_path / name, game="pitch", **kw)


def test_a_pitch_hand_is_saved_in_canonical_notation(tmp_path):
    rec = new_pitch(tmp_path)
    assert isinstance(rec, EventRecorder)
    q = rec.question()
    assert (q.key, q.choices) == ("dealer", ("N", "E", "S", "W"))
    out = enter(rec, PITCH_HAND)
    assert out.verdict is not None and out.verdict.ok
    text = (tmp_path / "p.jjt").read_text()
    assert text.endswith("\n" + PITCH_TEXT)
    assert '[Game "pitch"]' in text and '[Players "Nell; Ed; Sue; Walt"]' in text and '[FirstDealer "W"]' in text
    assert rec.sheet_rows() == [("Nell & Sue", 6), ("Ed & Walt", 1)]
    [(summary, verdicts)] = list(validate_stream(iter_records(text, "p.jjt")))
    assert summary.bad_hands == 0 and len(verdicts) == 1
    assert (rec.question().key, rec.question().default) == ("dealer", "N")


def test_the_next_dealer_is_the_one_on_the_left(tmp_path):
    """PIT-DEAL-3, asked of the validator: after W deals, S may not; N may."""
    rec = new_pitch(tmp_path)
    enter(rec, PITCH_HAND)
    refused = rec.answer("S")
    assert isinstance(refused, Refusal) and refused.rule == "PIT-DEAL-3" and refused.legal == ("N",)
    assert "Sue deals, but it is Nell's deal" in refused.message
    assert isinstance(rec.answer("N"), Accepted)


def test_pitch_questions_offer_the_legal_actions_as_words(tmp_path):
    rec = new_pitch(tmp_path)
    q = enter(rec, PITCH_HAND[:1]) and rec.question()
    assert (q.key, q.seat) == ("chance", 0) and "the 9 card(s)" in q.text and "X1" in q.words
    enter(rec, PITCH_HAND[1:5])
    q = rec.question()
    assert (q.key, q.seat, q.choices) == ("action", 0, ("pass", "4", "5", "6", "7", "8", "9", "10", "moon"))
    enter(rec, PITCH_HAND[5:9])
    assert rec.question().choices == ("spades", "hearts", "diamonds", "clubs")
    enter(rec, PITCH_HAND[9:10])
    q = rec.question()  # the standard game: the discard is forced, Enter takes it
    assert q.choices == ("6S 8D AC KC 4C 3C",) and q.default == "6S 8D AC KC 4C 3C"


def test_illegal_pitch_entries_are_refused_with_rule_and_alternatives(tmp_path):
    rec = new_pitch(tmp_path)
    r = rec.answer("X")
    assert isinstance(r, Refusal) and r.rule == "NOTATION"
    enter(rec, PITCH_HAND[:1])
    r = rec.answer("6S JH 7H 8D AC KC 4C 3C")  # eight cards
    assert isinstance(r, Refusal) and r.rule == "PIT-DEAL-4" and "dealt 8 cards, not 9" in r.message
    assert "Nell" in r.message
    enter(rec, PITCH_HAND[1:2])
    r = rec.answer("QS JS 9H 8H 6H 4H 9D JC X1")  # X1 is Nell's
    assert isinstance(r, Refusal) and r.rule == "PIT-DEAL-4" and "X1 is dealt twice" in r.message
    enter(rec, PITCH_HAND[2:6])
    r = rec.answer("4")  # not higher than Nell's 5
    assert isinstance(r, Refusal) and r.rule == "PIT-BID-3" and "not higher than the standing bid 5" in r.message
    assert r.legal == ("pass", "6", "7", "8", "9", "10", "moon")
    r = rec.answer("S 6")  # Sue speaks after Ed
    assert isinstance(r, Refusal) and r.rule == "PIT-BID-1" and "Sue called out of turn; it is Ed's turn" in r.message
    enter(rec, PITCH_HAND[6:10])
    r = rec.answer("6S 8D AC KC 4C")  # keeps the non-trump 3C
    assert isinstance(r, Refusal) and r.rule == "PIT-DRAW-1" and "kept the non-trump 3C" in r.message
    enter(rec, PITCH_HAND[10:14])
    r = rec.answer("7D 7C")
    assert isinstance(r, Refusal) and r.rule == "PIT-DRAW-3" and "drew 2 cards, not 3" in r.message
    enter(rec, PITCH_HAND[14:18])
    r = rec.answer("4S")  # Sue leads; she discarded 4S (a dead card)
    assert isinstance(r, Refusal) and r.rule == "PIT-PLAY-1" and "Sue played 4S, a dead card" in r.message
    assert r.legal == ("3H", "5H", "TH", "KH", "AH", "JD")  # JD, the off-jack, is a trump in hearts
    assert "(PIT-PLAY-1); legal: " in str(r)


def test_undo_within_a_hand_and_back_into_the_saved_hand(tmp_path):
    rec = new_pitch(tmp_path)
    enter(rec, PITCH_HAND[:7])
    out = rec.answer("undo")
    assert isinstance(out, Accepted) and out.text == "undone: E pass"
    out = rec.answer("undo")
    assert out.text == "undone: N 5"
    out = rec.answer("undo")
    assert out.text == "undone: deal W: TS 8S 2S QH 2H KD 3D 2D QC"
    assert rec.question().key == "chance"
    enter(rec, PITCH_HAND[4:])
    assert len(rec.hands) == 1
    out = rec.answer("undo")  # back into the saved hand, without its last card
    assert isinstance(out, Accepted) and "hand 1 reopened (the file keeps it as saved until it is complete again); undone: S 5H" in out.text
    assert len(read_sessions((tmp_path / "p.jjt").read_text())[0].hands) == 1  # kept until saved again (issue 16)
    assert rec.question().text.startswith("trick 6: S")
    out = enter(rec, ["5H"])
    assert out.verdict is not None and (tmp_path / "p.jjt").read_text().endswith("\n" + PITCH_TEXT)


def test_resume_reads_the_file_and_moves_a_torn_hand_aside(tmp_path):
    rec = new_pitch(tmp_path)
    enter(rec, PITCH_HAND + ["N", "QS JS TS 9S 8S 7S 6S 5S 4S"])  # hand 2 begun, then the recorder is gone
    again = Recorder(tmp_path / "p.jjt")
    assert isinstance(again, EventRecorder) and len(again.hands) == 1 and again.hand_number == 2
    assert again.sheet_rows() == [("Nell & Sue", 6), ("Ed & Walt", 1)] and again.question().default == "N"
    with pytest.raises(RecorderError):
        Recorder(tmp_path / "p.jjt", game="baloot")
    with pytest.raises(RecorderError):
        Recorder(tmp_path / "p.jjt", players=["Ann", "Bo", "Cy", "Di"])
    # a hand cut short while it was written (no score line) is moved to FILE.torn and asked again
    path = tmp_path / "p.jjt"
    path.write_text(path.read_text() + "\n" + PITCH_TEXT.replace("hand 1 dealer W", "hand 2 dealer N").split("trick 4")[0])
    torn = Recorder(path)
    assert torn.torn and "hand 2 dealer N" in torn.torn and (tmp_path / "p.jjt.torn").exists()
    assert len(torn.hands) == 1 and torn.hand_number == 2 and path.read_text().endswith(PITCH_TEXT)


def test_a_new_event_game_needs_the_right_players(tmp_path):
    with pytest.raises(RecorderError, match="has 5 players"):
        Recorder(tmp_path / "x.jjt", game="pitch", players=PITCH_PLAYERS, tags={"Variant": "players=5"})
    with pytest.raises(RecorderError):
        Recorder(tmp_path / "x.jjt", game="pitch", tags={"Variant": "players=7"})


# --- simulated hands entered through the recorder come out as the simulator wrote them -------------------

def _feed(rec: Recorder, hands: int, seed: int) -> int:
    """Enter simulated hands item by item; each saved hand must be the simulator's text. The hands entered."""
    rules = rec.rules
    rng = random.Random(seed)
    dealer = seed % len(rules.seat_labels)
    n = 0
    while n < hands and not rec.over:
        n += 1
        state, actions = play_hand(rules, dealer, rng)
        score = rules.hand_score(state, rec.validator.sheet)
        want = EventHand(rec.hand_number, dealer, hand_lines(rules, dealer, actions), EventScore(tuple(score.delta)))
        answers = [rules.seat_labels[dealer]]
        st = rules.initial_state(dealer)
        for a in actions:
            for _, _, label, words in rules.items_of(st, a):
                answers.append(" ".join(words) if a.seat == CHANCE else " ".join((label, *words)))
            st = rules.advance(st, a)
        out = enter(rec, answers)
        assert out.verdict is not None and out.verdict.ok, out.verdict
        assert rec.hand_text(out.verdict) == write_event_hand(want, rules)
        dealer = rules.next_dealer(dealer)
    return n


@pytest.mark.parametrize("game, variant, seed", [("pitch", "", 1), ("pitch", "players=5", 2), ("baloot", "", 3)])
def test_simulated_hands_are_recorded_as_played(tmp_path, game, variant, seed):
    tags = {"Variant": variant} if variant else {}
    rec = Recorder(tmp_path / "s.jjt", game=game, tags=tags)
    n = _feed(rec, 6, seed)
    assert n >= 2
    again = Recorder(tmp_path / "s.jjt")
    assert isinstance(again, EventRecorder)
    assert again.sheet_rows() == rec.sheet_rows() and again.hand_number == n + 1
    [(summary, verdicts)] = list(validate_stream(iter_records((tmp_path / "s.jjt").read_text(), "s.jjt")))
    assert summary.hands == n and summary.bad_hands == 0
    # undo reopens the last hand without its last item; entering that item again gives the same file
    before = (tmp_path / "s.jjt").read_text()
    last = again.hands[-1].lines[-1].items[-1]
    out = again.answer("undo")
    assert isinstance(out, Accepted) and f"hand {n} reopened (the file keeps it as saved until it is complete again); undone: {last.label} {' '.join(last.words)}" in out.text
    assert again.hand_number == n and again.in_hand()
    out = enter(again, [" ".join((last.label, *last.words))])
    assert out.verdict is not None and (tmp_path / "s.jjt").read_text() == before


def test_a_baloot_hand_refuses_an_illegal_card_with_its_rule(tmp_path):
    rules_rec = Recorder(tmp_path / "b.jjt", game="baloot", players=["Nura", "Waleed", "Sami", "Eman"])
    rules = rules_rec.rules
    rng = random.Random(7)
    # find a hand where a player to follow suit holds another card he may not play
    for _ in range(50):
        state, actions = play_hand(rules, 1, rng)
        st = rules.initial_state(1)
        answers = ["W"]
        for a in actions:
            if a.kind == "play" and st.trick:
                legal = {x.card for x in rules.legal_actions(st) if x.kind == "play" and x.seat == a.seat}
                bad = [c for c in range(64) if st.hands[a.seat] >> c & 1 and c not in legal]
                if bad:
                    enter(rules_rec, answers)
                    from jojotte_records.cards import card_name

                    r = rules_rec.answer(f"{rules.seat_labels[a.seat]} {card_name(bad[0])}")
                    assert isinstance(r, Refusal) and r.rule.startswith("BAL-PLAY"), r
                    assert r.legal and card_name(a.card) in " ".join(r.legal)
                    return
            for _, _, label, words in rules.items_of(st, a):
                answers.append(" ".join(words) if a.seat == CHANCE else " ".join((label, *words)))
            st = rules.advance(st, a)
    pytest.fail("no hand with a card that may not be played")  # pragma: no cover


def test_the_game_over_ends_the_session(tmp_path):
    rec = Recorder(tmp_path / "s.jjt", game="pitch")
    _feed(rec, 40, 0)
    assert rec.over and rec.winners_text()
    r = rec.answer(rec.question().default or "N")
    assert isinstance(r, Refusal) and r.rule == "PIT-GAME-2" and "the game is over" in r.message


def test_a_baloot_double_before_the_completion(tmp_path):
    rec = Recorder(tmp_path / "b.jjt", game="baloot")
    rules = rec.rules
    rng = random.Random(11)
    for _ in range(30):
        _, actions = play_hand(rules, 0, rng)
        st = rules.initial_state(0)
        answers = ["N"]
        for a in actions:
            if a.kind == "complete" and rules.legal_actions(st):
                enter(rec, answers)
                q = rec.question()
                assert q.key == "chance" and "(or a call)" in q.text and q.choices
                call = q.choices[0]  # such as "W double": a call, not the completion's cards
                out = enter(rec, [call])
                assert out.text == call
                q = rec.question()
                assert q.key == "chance" and call not in q.choices
                for _, _, _, words in rules.items_of(st, a):
                    enter(rec, [" ".join(words)])
                assert rec.question().key == "action"
                assert rec.answer("undo").text.startswith("undone: complete")
                return
            for _, _, label, words in rules.items_of(st, a):
                answers.append(" ".join(words) if a.seat == CHANCE else " ".join((label, *words)))
            st = rules.advance(st, a)
    pytest.fail("no hand where a double may come before the completion")  # pragma: no cover


def test_a_chance_event_typed_as_one_line(tmp_path):
    rec = new_pitch(tmp_path)
    enter(rec, ["W"])
    deal = PITCH_TEXT.splitlines()[1]  # "deal N: …; E: …; S: …; W: …", as written
    r = rec.answer(deal.replace("W: TS", "W: 4S"))  # 4S is Sue's too
    assert isinstance(r, Refusal) and r.rule == "PIT-DEAL-4" and "4S is dealt twice" in r.message
    assert rec.question().key == "chance" and rec.question().seat == 0  # nothing of the line was taken
    r = rec.answer("E: QS JS 9H 8H 6H 4H 9D JC X2")  # N comes first
    assert isinstance(r, Refusal) and r.rule == "NOTATION"
    out = enter(rec, [deal])
    assert out.text.startswith("deal N: 6S JH") and rec.question().key == "action"
    assert enter(rec, ["undo"]).text == "undone: deal W: TS 8S 2S QH 2H KD 3D 2D QC"
    out = enter(rec, ["W: TS 8S 2S QH 2H KD 3D 2D QC"] + PITCH_HAND[5:])
    assert (tmp_path / "p.jjt").read_text().endswith("\n" + PITCH_TEXT)


def test_a_game_tag_inside_a_comment_does_not_choose_the_recorder(tmp_path):
    """Issue 16 item 1 (audit): a ``[Game "pitch"]`` line inside a ``{ … }`` comment is no tag for the reader, so the
    file is a Jo-Jotte session; the recorder chose the event recorder by its own regex and crashed on the first deal."""
    path = tmp_path / "c.jjt"
    path.write_text('{ an old note:\n[Game "pitch"]\n}\n[Event "Club"]\n[Players "Ann; Bob"]\n')
    rec = Recorder(path)
    assert not isinstance(rec, EventRecorder) and rec.game == "jojotte"
    assert isinstance(rec.answer("B"), Accepted)
    out = rec.answer("AD")
    assert isinstance(out, Refusal) and out.rule == "JJ-DEAL-3" and "Ann is dealt 6 cards, not 1" in out.message
    (tmp_path / "p.jjt").write_text('{ [Game "jojotte"] }\n[Game "pitch"]\n[Players "Nell; Ed; Sue; Walt"]\n')
    assert isinstance(Recorder(tmp_path / "p.jjt"), EventRecorder)
