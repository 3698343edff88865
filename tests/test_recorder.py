"""The guided-entry engine (`jojotte_records.table.recorder`), driven without a terminal."""

from __future__ import annotations

import pytest

from jojotte_records.notation.text import iter_records, read_sessions
from jojotte_records.replay.jojotte import validate_stream
from jojotte_records.table.recorder import Accepted, Recorder, RecorderError, Refusal

# the hand of the README (rules spec, example 1), in the order it happens
README_HAND = [
    "B",  # dealer
    "JH KH QH 7H AS TS", "AH TH 8H AC TC KC",  # dealt
    "9H",  # turned
    "accept", "pass",  # auction
    "8S KD QD", "9D 8D 7D", "8C",  # drawn, information card
    "melds 9D-7D", "pass", "melds KH-JH", "dix",  # after the draw
    "AC", "KH jo", "QH jotte", "TH", "TC", "9H", "JH", "8H", "AS", "AH", "KC", "8S", "9D", "KD", "TS", "7D", "QD", "8D",
]

README_TEXT = """hand 1 dealer B
deal A: AS TS KH QH JH 7H + 8S KD QD; B: AH TH 8H AC KC TC + 9D 8D 7D
turned 9H
info 8C
auction A accept, B pass
after B melds 9D-7D, A pass, A melds KH-JH, A dix
trick 1: B AC, A KH jo
trick 2: A QH jotte, B TH
trick 3: B TC, A 9H
trick 4: A JH, B 8H
trick 5: A AS, B AH
trick 6: B KC, A 8S
trick 7: B 9D, A KD
trick 8: A TS, B 7D
trick 9: A QD, B 8D
score A below 110 above 20, B above 40
"""


def enter(rec: Recorder, answers: list[str]):
    out = None
    for a in answers:
        out = rec.answer(a)
        assert isinstance(out, Accepted), (a, out)
    return out


def new(tmp_path, name="s.jjt", **kw) -> Recorder:
    kw.setdefault("players", ["Alice", "Bob"])
    kw.setdefault("tags", {"Event": "Test night", "Date": "2026.11.30"})
    return Recorder(tmp_path / name, **kw)


def test_whole_hand_card_by_card_is_saved_in_canonical_notation(tmp_path):
    rec = new(tmp_path)
    assert rec.question().key == "dealer"
    out = enter(rec, README_HAND)
    assert out.verdict is not None and out.verdict.ok
    text = (tmp_path / "s.jjt").read_text()
    assert text.endswith("\n" + README_TEXT)
    assert '[Players "Alice; Bob"]' in text and '[FirstDealer "B"]' in text
    assert rec.sheet_rows() == [("Alice", 110, 20, 1, 0, 130), ("Bob", 0, 40, 0, 0, 40)]
    # the file validates, and the next question is the next hand's dealer, B's turn being over
    [(summary, verdicts)] = list(validate_stream(iter_records(text, "s.jjt")))
    assert summary.bad_hands == 0 and len(verdicts) == 1
    q = rec.question()
    assert (q.key, q.default) == ("dealer", "A")


def test_questions_offer_the_legal_choices(tmp_path):
    rec = new(tmp_path)
    enter(rec, README_HAND[:4])
    q = rec.question()
    assert (q.key, q.seat, q.choices) == ("call", 0, ("pass", "accept"))
    enter(rec, ["accept"])
    assert rec.question().choices == ("pass", "double", "nt")


def test_illegal_entries_are_refused_with_rule_and_alternatives(tmp_path):
    rec = new(tmp_path)
    r = rec.answer("A")  # B deals first only if nobody says so; A may deal the first hand
    assert isinstance(r, Accepted)
    rec.undo()
    enter(rec, ["B", "JH KH QH 7H AS TS"])
    r = rec.answer("AH TH 8H AC TC JH")  # JH twice
    assert isinstance(r, Refusal) and r.rule == "JJ-DEAL-5"
    enter(rec, ["AH TH 8H AC TC KC", "9H"])
    r = rec.answer("name S")  # round 1: only accept or pass
    assert isinstance(r, Refusal) and r.rule == "JJ-BID-3" and r.legal == ("pass", "accept")
    enter(rec, README_HAND[4:13] + ["AC"])
    r = rec.answer("8S")  # Alice holds trumps and must trump the ace of clubs
    assert isinstance(r, Refusal) and r.rule == "JJ-PLAY-5"
    assert "KH" in r.legal and "8S" not in r.legal
    assert "JJ-PLAY-5" in str(r) and "Alice" in str(r)
    r = rec.answer("XX9")
    assert isinstance(r, Refusal) and r.rule == "NOTATION"


def test_the_dealer_alternates(tmp_path):
    rec = new(tmp_path)
    enter(rec, README_HAND)
    r = rec.answer("B")
    assert isinstance(r, Refusal) and r.rule == "JJ-DEAL-2" and r.legal == ("A",)
    assert isinstance(rec.answer(""), Accepted)  # the default: A deals


def test_undo_within_a_hand_and_back_into_the_saved_hand(tmp_path):
    path = tmp_path / "s.jjt"
    rec = new(tmp_path)
    enter(rec, README_HAND[:14])
    assert rec.question().key == "play" and rec.question().seat == 0
    out = rec.answer("undo")
    assert isinstance(out, Accepted) and "B AC" in out.text
    assert rec.question().seat == 1
    enter(rec, README_HAND[13:])
    assert len(read_sessions(path.read_text())[0].hands) == 1
    out = rec.answer("undo")  # nothing entered in hand 2: hand 1 comes back, without its last card
    assert isinstance(out, Accepted) and "hand 1" in out.text and "B 8D" in out.text
    assert len(read_sessions(path.read_text())[0].hands) == 1  # the file keeps it until it is saved again (issue 16)
    q = rec.question()
    assert (q.key, q.seat, q.choices[:1]) == ("play", 1, ("8D",))
    out = enter(rec, ["8D"])
    assert out.verdict.ok
    assert path.read_text().endswith("\n" + README_TEXT)


def test_resume_reads_the_file_and_asks_for_the_next_hand(tmp_path):
    rec = new(tmp_path)
    enter(rec, README_HAND)
    enter(rec, ["A", "7S 8S 9S TS JS QS"])  # half a hand, then the program stops
    again = Recorder(tmp_path / "s.jjt")
    assert again.hand_number == 2 and len(again.hands) == 1
    assert again.names == ("Alice", "Bob")
    assert again.question().key == "dealer" and again.question().default == "A"
    assert again.sheet_rows() == rec.sheet_rows()
    with pytest.raises(RecorderError):
        Recorder(tmp_path / "s.jjt", game="jojotte-3")
    with pytest.raises(RecorderError):
        Recorder(tmp_path / "s.jjt", players=["Carol", "Dan"])


def test_a_hand_cut_short_in_the_file_is_moved_aside(tmp_path):
    path = tmp_path / "s.jjt"
    rec = new(tmp_path)
    enter(rec, README_HAND)
    good = path.read_text()
    with open(path, "a") as f:
        f.write("\nhand 2 dealer A\ndeal A: AS TS KH QH JH 7H; B: AH T")  # a crash in the middle of a write
    again = Recorder(path)
    assert len(again.hands) == 1 and again.torn is not None
    assert path.read_text() == good
    assert "hand 2 dealer A" in (tmp_path / "s.jjt.torn").read_text()
    assert again.question().key == "dealer" and again.hand_number == 2


def test_summary_entry_with_result(tmp_path):
    rec = new(tmp_path)
    out = enter(rec, ["B", "?", "?", "9H", "accept", "pass", "8C", "pass", "pass", "pass", "result", "6 115", "3 47"])
    v = out.verdict
    assert v.ok and v.entry is not None
    text = (tmp_path / "s.jjt").read_text()
    assert "result A 6 tricks 115 points, B 3 tricks 47 points" in text
    assert "score A below 115 above 0".replace(" above 0", "") in text


def test_unrecorded_deal_played_card_by_card(tmp_path):
    rec = new(tmp_path)
    plays = README_HAND[13:]
    out = enter(rec, ["B", "?", "?", "9H", "accept", "pass", "8C", "melds 9D-7D", "pass", "melds KH-JH", "A dix"] + plays)
    assert out.verdict is not None
    text = (tmp_path / "s.jjt").read_text()
    assert "\ndeal " not in text
    assert "score A below 110 above 20, B above 40" in text


def test_all_pass_is_a_void_hand(tmp_path):
    rec = new(tmp_path)
    out = enter(rec, ["B", "JH KH QH 7H AS TS", "AH TH 8H AC TC KC", "9H", "pass", "pass", "pass", "pass"])
    assert out.verdict is not None and out.verdict.ok
    assert "score none" in (tmp_path / "s.jjt").read_text()


def test_claim_scores_the_rest(tmp_path):
    rec = new(tmp_path)
    out = enter(rec, README_HAND[:13] + ["AC", "KH jo", "claim"])
    assert out.verdict is not None and out.verdict.ok
    assert "claim A" in (tmp_path / "s.jjt").read_text()


def test_a_new_file_needs_the_right_number_of_players(tmp_path):
    with pytest.raises(RecorderError):
        Recorder(tmp_path / "x.jjt", players=["Alice", "Bob", "Carol"])
    with pytest.raises(RecorderError):
        Recorder(tmp_path / "x.jjt", game="bridge")


# --- every form: simulated hands entered through the recorder come out as the simulator wrote them ---------

def _answers(hand, rec: Recorder) -> list[str]:
    from jojotte_records.cards import card_name

    labels, rules = rec.labels, rec.rules

    def cards(cs):
        return " ".join(card_name(c) for c in cs)

    def call(c):
        text = f"{labels[c.seat]} {c.kind.replace('_', ' ')}"
        if c.kind == "name":
            text += " " + "SHDC"[c.suit]
        elif c.kind == "melds":
            text += " " + " ".join(m.text() for m in c.melds)
        return text

    out = [labels[hand.dealer]]
    out += [cards(hand.dealt[s]) for s in range(rules.seats) if rules.dealt_to(s, hand.dealer) > 0]
    out.append(card_name(hand.turned))
    out += [call(c) for c in hand.auction]
    if hand.drawn is not None:
        out += [cards(hand.drawn[s]) for s in range(rules.seats)
                if hand.dealt[s] is not None and rules.drawn_to(s, hand.dealer) > 0]
        if rec._has_info:
            out.append(card_name(hand.info) if hand.info is not None else "?")
    out += [call(c) for c in hand.after]
    out += [f"{labels[p.seat]} {card_name(p.card)}" + (f" {p.announce}" if p.announce else "") for t in hand.tricks for p in t.plays]
    return out


@pytest.mark.parametrize("game", ["jojotte", "jojotte-3", "jojotte-3box", "jojotte-4p", "jojotte-4s"])
def test_every_form_is_recorded_as_played(tmp_path, game):
    from jojotte_records.notation.text import sheet_labels, write_hand
    from jojotte_records.play.simulate import simulate_session
    from jojotte_records.rules.base import find_variant

    header, hands = simulate_session(game, 12, 5, policy="uniform")
    cls = find_variant(game)
    rec = Recorder(tmp_path / "s.jjt", game=game, players=[f"P{lab}" for lab in cls.seat_labels])
    columns = sheet_labels(header)
    for hand in hands:
        out = None
        for a in _answers(hand, rec):
            out = rec.answer(a)
            assert isinstance(out, Accepted), (hand.number, rec.question().text, a, out)
        assert out.verdict is not None and out.verdict.ok
        assert write_hand(rec.hands[-1], cls.seat_labels, columns) == write_hand(hand, cls.seat_labels, columns)
    again = Recorder(tmp_path / "s.jjt")
    assert again.sheet_rows() == rec.sheet_rows() and again.hand_number == 13


def test_a_hand_that_cannot_be_scored_asks_for_the_written_score(tmp_path):
    rec = new(tmp_path)
    # nobody recorded the cards, and A claimed after two tricks: the rest cannot be scored
    enter(rec, ["B", "?", "?", "9H", "accept", "pass", "?", "pass", "pass", "pass", "AC", "KH jo", "QH jotte", "TH", "claim A"])
    # the validator counts a claim with unrecorded cards as an incomplete hand (JJ-INV-3): the recorder says so
    q = rec.question()
    assert q.key == "keep" and "JJ-INV-3" in q.text
    assert isinstance(rec.answer("maybe"), Refusal)
    enter(rec, ["keep"])
    q = rec.question()
    assert q.key == "score"
    r = rec.answer("A below lots")
    assert isinstance(r, Refusal) and r.rule == "NOTATION"
    out = rec.answer("A below 110 above 20, B above 40")
    assert isinstance(out, Accepted) and out.verdict is not None
    assert out.verdict.used_written_score
    text = (tmp_path / "s.jjt").read_text()
    assert "claim A" in text and "score A below 110 above 20, B above 40" in text
    assert rec.sheet_rows()[0][1:3] == (110, 20)


def test_summary_tricks_must_add_up(tmp_path):
    rec = new(tmp_path)
    enter(rec, ["B", "?", "?", "9H", "accept", "pass", "?", "pass", "pass", "pass", "result", "6 115"])
    r = rec.answer("4 47")
    assert isinstance(r, Refusal) and r.rule == "JJ-INV-3" and "add up to 10, not 9" in r.message
    r = rec.answer("three 47")
    assert isinstance(r, Refusal) and r.rule == "NOTATION"


def test_undo_into_a_void_hand_and_into_a_hand_typed_by_hand(tmp_path):
    rec = new(tmp_path)
    enter(rec, ["B", "JH KH QH 7H AS TS", "AH TH 8H AC TC KC", "9H", "pass", "pass", "pass", "pass"])
    out = rec.answer("undo")
    assert isinstance(out, Accepted) and "undone: B pass" in out.text
    # a hand typed by an archivist (the cards held after the draw, no score line) cannot be re-entered step by step
    path = tmp_path / "typed.jjt"
    path.write_text('[Game "jojotte"]\n[Players "Alice; Bob"]\n[FirstDealer "B"]\n\n' + README_TEXT.replace(
        "deal A: AS TS KH QH JH 7H + 8S KD QD; B: AH TH 8H AC KC TC + 9D 8D 7D",
        "deal A: AS TS 8S KH QH JH 7H KD QD; B: AH TH 8H AC KC TC 9D 8D 7D"), encoding="utf-8")
    typed = Recorder(path)
    assert len(typed.hands) == 1 and typed.hand_number == 2
    r = typed.answer("undo")
    assert isinstance(r, Refusal) and "edit the file" in r.message
    assert len(read_sessions(path.read_text())[0].hands) == 1


def test_one_recorder_per_file(tmp_path):
    first = Recorder(tmp_path / "s.jjt", players=["Alice", "Bob"], lock=True)
    with pytest.raises(RecorderError, match="another `jojotte record`"):
        Recorder(tmp_path / "s.jjt", lock=True)
    first.unlock()
    assert not (tmp_path / "s.jjt.lock").exists()
    Recorder(tmp_path / "s.jjt", players=["Alice", "Bob"], lock=True).unlock()


def test_a_result_written_with_a_superscript_digit_is_refused_not_a_crash(tmp_path):
    # '²'.isdigit() is true but int('²') raises: the recorder asks again, as for any answer that is not two numbers
    rec = new(tmp_path)
    enter(rec, ["B", "?", "?", "9H", "accept", "pass", "8C", "pass", "pass", "pass", "result"])
    for answer in ("² 115", "6 ¹¹⁵"):
        out = rec.answer(answer)
        assert isinstance(out, Refusal) and out.rule == "NOTATION" and "two numbers" in out.message, (answer, out)
    assert isinstance(rec.answer("6 115"), Accepted)
