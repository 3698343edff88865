"""The recorder offers as the dealer only the seats it would take (issue 16, item 11: it offered ``legal: A, B``
for the dealer of hand 2, then refused B)."""

from __future__ import annotations

from test_recorder import README_HAND, enter, new

from jojotte_records.table.recorder import Recorder, Refusal


def test_second_hand_offers_only_the_next_dealer(tmp_path):
    rec = new(tmp_path)
    enter(rec, README_HAND)  # hand 1 dealt by B
    q = rec.question()
    assert q.key == "dealer"
    # JJ-DEAL-2: the deal alternates, so B's hand 1 makes A the dealer of hand 2 and B is not legal
    assert q.choices == ("A",)
    assert q.default == "A"
    out = rec.answer("B")
    assert isinstance(out, Refusal) and out.rule == "JJ-DEAL-2" and out.legal == ("A",)


def test_every_offered_dealer_is_taken(tmp_path):
    # whatever the recorder offers at the dealer's prompt it takes (a fresh recorder per choice)
    for name, game, players, first in (("j.jjt", None, ["Alice", "Bob"], None), ("p.jjt", "pitch", None, None),
                                       ("f.jjt", None, ["Alice", "Bob"], "B")):
        tags = {"FirstDealer": first} if first else {}
        rec = Recorder(tmp_path / name, game=game, players=players, tags=tags)
        for choice in rec.question().choices:
            fresh = Recorder(tmp_path / name, game=game, players=players, tags=tags)
            assert not isinstance(fresh.answer(choice), Refusal), (name, choice)
        if first:  # JJ-DEAL-1: the [FirstDealer] deals the first hand, and only B is offered
            assert rec.question().choices == ("B",)
