"""The fast replay path and the explaining loop give the same verdict (issue 14; style guide §14: one test run
against both implementations, as CPython's json tests run against the C and the Python one).

Every session is validated twice, with `engine.FAST` on and off; the whole result must be equal: every hand's
issues (rule, message, location, kind), unchecked notes, score, sheet entry, final state and sheet, and the
session's summary. The records are simulated sessions of every game, with and without options, and the same
sessions mutated by a seeded mutator (a card replaced, two cards swapped, a call changed, a score figure
changed, a trick winner written, a ``?`` put in, an announcement added, a line dropped). The test also checks
that it tests something: the clean records take the fast path, the mutated ones produce findings.
"""

from __future__ import annotations

import io
import random

import pytest

from jojotte_records.cards import card_name
from jojotte_records.notation.text import CompactHand, iter_records, write_stream
from jojotte_records.play.simulate import simulate_items
from jojotte_records.replay import engine
from jojotte_records.replay.jojotte import COMPACT, validate_stream
from jojotte_records.rules.baloot_cards import BALOOT_PACK
from jojotte_records.rules.jojotte import JojotteRules
from jojotte_records.rules.pitch_cards import pitch_pack

# the cards of every game's pack (Jo-Jotte's, Baloot's, Pitch's with its jokers), and calls of every game
CARDS = sorted({card_name(c) for pack in (JojotteRules.pack, BALOOT_PACK, pitch_pack()) for c in pack.cards})
CALLS = ["pass", "accept", "nt", "double", "redouble", "nullo", "slam", "dix", "name S", "name H", "melds 4J",
         "hokum", "hokum spades", "sun", "ashkal", "kawesh", "triple", "gahwa locked", "5", "7", "moon", "hearts", "keep"]
ANNOUNCES = ("jo", "jotte", "baloot", "ekka", "sira", "fifty")
# the lines a mutation may change: Jo-Jotte's, and the event logs' (Pitch, Baloot)
BODY = ("deal", "turned", "info", "auction", "after", "trick", "score", "bids", "doubling", "trump", "complete", "discard",
        "refill", "remainder")


def _text(game: str, hands: int, seed: int, variant: str = "") -> str:
    out = io.StringIO()
    write_stream(simulate_items(game, hands, seed, variant), out)
    return out.getvalue()


def _verdicts(text: str, fast: bool):
    before = dict(engine.COUNTS)
    engine.FAST = fast
    try:
        result = [(summary, list(hands)) for summary, hands in validate_stream(iter_records(text, "t.jjt"))]
    finally:
        engine.FAST = True
    return result, engine.COUNTS["fast"] - before["fast"]


def _same_both_ways(text: str) -> tuple[list, int]:
    slow, n_slow = _verdicts(text, False)
    fast, n_fast = _verdicts(text, True)
    assert n_slow == 0
    assert len(fast) == len(slow)
    for (fs, fh), (ss, sh) in zip(fast, slow):
        assert len(fh) == len(sh)
        for f, s in zip(fh, sh):
            assert f == s, f"hand {s.number}: the fast path's verdict differs\n{f}\n{s}"
        if hasattr(ss, "rules"):  # an event-log game's summary carries its rules object: compare its options
            assert fs.rules.options == ss.rules.options
            fs, ss = fs._replace(rules=None), ss._replace(rules=None)
        assert fs == ss
    return slow, n_fast


def _mutate_line(line: str, rng: random.Random) -> str:
    """One change to one line of a hand (what a table might write wrongly)."""
    words = line.split(" ")
    key = words[0]
    cards = [i for i, w in enumerate(words) if w.rstrip(",;") in CARDS]
    what = rng.choice(("card", "unknown", "winner", "announce", "call", "score", "drop", "number", "keyword",
                       "swap", "insert", "cut"))
    if what == "cut" and key == "trick" and ", " in line:
        # one item of a trick line left out (a seat with live cards skipped, a trick short of a card): the memoised
        # Pitch trick of the remaining items must not be taken as a whole trick (PIT-PLAY-3)
        head, _, body = line.partition(": ")
        body, arrow, winner = body.partition(" -> ")
        items = body.split(", ")
        del items[rng.randrange(len(items))]
        return head + ": " + ", ".join(items) + arrow + winner
    if what in ("swap", "insert") and key == "trick" and ": " in line:
        # items of a trick line out of order (a show after the card it comes before, a declaration after a card), or
        # one more item in it (a declaration, a show, a doubling call, a card with an announcement): Baloot's
        # kernel hands such items to the rules in the middle of the line
        head, _, body = line.partition(": ")
        body, arrow, winner = body.partition(" -> ")
        items = body.split(", ")
        j = rng.randrange(len(items))
        if what == "swap" and len(items) >= 2:
            k = min(j + 1, len(items) - 1) if j + 1 < len(items) else j - 1
            items[j], items[k] = items[k], items[j]
        else:
            seat = items[j].split(" ")[0]
            extra = rng.choice(("sira", "fifty", "hundred", "show AS KS QS", "show 7H 8H 9H", "double", "double locked",
                                rng.choice(CARDS) + " " + rng.choice(ANNOUNCES)))
            items.insert(rng.randrange(len(items) + 1), f"{seat} {extra}")
        return head + ": " + ", ".join(items) + arrow + winner
    if what == "number" and len(words) > 1 and words[1].rstrip(":").isdigit():
        # a line written under another trick or round than its own (issue 15: a consistency finding)
        words[1] = str(int(words[1].rstrip(":")) + rng.choice((-1, 1))) + (":" if words[1].endswith(":") else "")
        return " ".join(words)
    if what == "keyword":
        return rng.choice(("shuffled", "trickk")) + line[len(key):]
    if what in ("card", "unknown", "announce") and cards:
        i = rng.choice(cards)
        tail = words[i][2:]
        words[i] = {"card": rng.choice(CARDS), "unknown": "?", "announce": words[i][:2] + " " + rng.choice(ANNOUNCES)}[what] + tail
        return " ".join(words)
    if what == "winner" and key == "trick":
        return line.split(" ->")[0] + " -> " + rng.choice(("A", "B", "N", "E", "S", "W"))
    if what == "call" and key in ("auction", "after", "bids", "doubling", "trump", "remainder"):
        head, sep, body = line.partition(": ") if ": " in line else (key, " ", line[len(key) + 1:])
        items = body.split(", ")
        j = rng.randrange(len(items))
        items[j] = items[j].split(" ")[0] + " " + rng.choice(CALLS)
        return head + sep + ", ".join(items)
    if what == "score" and key == "score":
        nums = [i for i, w in enumerate(words) if w.rstrip(",").isdigit()]
        if nums:
            i = rng.choice(nums)
            tail = "," if words[i].endswith(",") else ""
            words[i] = str(int(words[i].rstrip(",")) + rng.choice((-10, -5, 5, 10, 20))) + tail
            return " ".join(words)
    if what == "drop" and key in ("trick", "after", "info", "turned", "bids", "discard", "refill", "doubling", "remainder"):
        return ""
    return line


def mutate(text: str, rng: random.Random, rate: float = 0.3) -> str:
    """The text with about ``rate`` of its hands changed once, and some swapped cards between two tricks."""
    out = []
    hand: list[str] = []

    def flush():
        if hand and rng.random() < rate:
            body = [i for i, ln in enumerate(hand) if ln.split(" ")[0] in BODY]
            if body:
                i = rng.choice(body)
                if rng.random() < 0.2:
                    tricks = [j for j in body if hand[j].startswith("trick")]
                    if len(tricks) >= 2:
                        a, b = rng.sample(tricks, 2)
                        wa, wb = hand[a].split(" "), hand[b].split(" ")
                        ka = [k for k, w in enumerate(wa) if w.rstrip(",") in CARDS]
                        kb = [k for k, w in enumerate(wb) if w.rstrip(",") in CARDS]
                        if ka and kb:
                            ia, ib = rng.choice(ka), rng.choice(kb)
                            ca, cb = wa[ia].rstrip(","), wb[ib].rstrip(",")
                            wa[ia], wb[ib] = wa[ia].replace(ca, cb), wb[ib].replace(cb, ca)
                            hand[a], hand[b] = " ".join(wa), " ".join(wb)
                else:
                    hand[i] = _mutate_line(hand[i], rng)
        out.extend(ln for ln in hand if ln != "")
        hand.clear()

    for line in text.split("\n"):
        if line.startswith("hand ") or not line.strip() or line.startswith("["):
            flush()
            out.append(line)
        else:
            hand.append(line)
    flush()
    return "\n".join(out)


GAMES = [
    ("jojotte", ""),
    ("jojotte", "nullo_bidder_may_meld; nullo_bidder_leads; dix_until_own_first_card; jojotte_above_line"),
    ("jojotte", "nt_direct_in_round1; nullo_after_double; sequence_tie=defender; dix_blocked_only_if_scored"),
    ("jojotte-3", ""),
    ("jojotte-4p", ""),
    ("pitch", ""),
    ("pitch", "points=16; players=5"),
    ("baloot", ""),
    ("baloot", "kawesh; third_round_ace; riyadh_ashkal; hokum_bidder_may_switch=false; sun_overcall_by=opponents_only"),
]
FAST_GAMES = ("jojotte", "pitch", "baloot")  # the games with a fast path (not the three- and four-player forms)


@pytest.mark.parametrize("game,variant", GAMES)
def test_fast_and_explaining_paths_agree_on_simulated_records(game, variant):
    slow, n_fast = _same_both_ways(_text(game, 150, 14, variant))
    hands = sum(len(h) for _, h in slow)
    assert hands >= 150 and all(not v.issues for _, h in slow for v in h)
    if game in FAST_GAMES:
        # the fast path is what ran: every hand recorded in full (a void hand is written without its draw)
        assert n_fast >= hands * 0.8


@pytest.mark.parametrize("game,variant", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_fast_and_explaining_paths_agree_on_mutated_records(game, variant, seed):
    text = mutate(_text(game, 150, seed, variant), random.Random(seed))
    slow, n_fast = _same_both_ways(text)
    findings = sum(bool(v.issues) for _, h in slow for v in h)
    assert findings >= 10  # the mutations are seen (by the explaining path, the reference)
    if game in FAST_GAMES:
        assert n_fast > 0  # and the untouched hands still take the fast path


def test_a_switched_off_fast_path_explains_every_hand():
    before = dict(engine.COUNTS)
    _verdicts(_text("jojotte", 20, 3), False)
    assert engine.COUNTS["fast"] == before["fast"]
    assert engine.COUNTS["explained"] - before["explained"] == 20


@pytest.mark.parametrize("game,variant", [("pitch", ""), ("pitch", "points=16; players=5"), ("baloot", "")])
def test_every_hand_mutated_once_still_agrees_in_the_event_games(game, variant):
    # every hand changed once (a card, a call, an announcement, a figure, a winner, a dropped line): the fast
    # path's kernels (trick lines of plain cards) must refuse each illegal card and leave it to the explaining path
    text = mutate(_text(game, 200, 5, variant), random.Random(5), rate=1.0)
    slow, n_fast = _same_both_ways(text)
    findings = sum(bool(v.issues) for _, h in slow for v in h)
    assert findings >= 50 and n_fast > 0


@pytest.mark.parametrize("where", ["show", "declaration"])
def test_baloot_trick_lines_without_their_projects_agree(where):
    # Baloot's kernel plays the plain cards of a trick line and hands the rest to the rules: with the show of trick 2
    # taken out, the owner of the best project plays his card without showing it first (BAL-PROJ-11, by the rules'
    # check, not the kernel's); with trick 1's declaration taken out, trick 2's show has nothing declared behind it
    # (BAL-PROJ-10). Every such hand is illegal, on either path, at the same place
    text = _text("baloot", 300, 4)
    dropped = ("show",) if where == "show" else ("sira", "fifty", "hundred", "fourhundred")
    out, changed = [], 0
    for ln in text.split("\n"):
        if ln.startswith("trick 2: " if where == "show" else "trick 1: "):
            head, _, body = ln.partition(": ")
            items = body.split(", ")
            keep = [it for it in items if it.split(" ")[1] not in dropped]
            if len(keep) != len(items):
                changed += 1
                ln = head + ": " + ", ".join(keep)
        out.append(ln)
    slow, _ = _same_both_ways("\n".join(out))
    rules = {"show": "BAL-PROJ-11", "declaration": "BAL-PROJ-10"}[where]
    found = sum(any(i.rule == rules for i in v.issues) for _, h in slow for v in h)
    assert changed >= 20 and found >= 10


@pytest.mark.parametrize("game,variant", [("pitch", ""), ("pitch", "points=16; players=5"), ("baloot", ""),
                                          ("baloot", "kawesh; third_round_ace; riyadh_ashkal")])
def test_memoised_auction_lines_agree_when_the_memo_is_warm(game, variant):
    # the fast path memoises whole ``bids`` lines on `auction_key` (what decides them), across sessions: the same
    # records mutated (a call changed, a line dropped or misnumbered, a card replaced…) are validated after the clean
    # ones warmed the memo, so their untouched auctions come from it, and must still agree with the explaining path
    from jojotte_records.replay import fast_events

    fast_events._MEMOS.clear()
    clean = _text(game, 150, 21, variant)
    _same_both_ways(clean)
    memo = next(iter(fast_events._MEMOS.values()))
    if "kawesh" in variant:  # the hands decide a kawesh (BAL-BID-14): in the key, so every line is its own
        assert len(memo) == clean.count("\nbids ")
    else:  # the memo was used, not only filled: fewer lines in it than auction lines replayed
        assert 0 < len(memo) < clean.count("\nbids ")
    slow, n_fast = _same_both_ways(mutate(clean, random.Random(21), rate=0.6))
    assert sum(bool(v.issues) for _, h in slow for v in h) >= 20 and n_fast > 0



@pytest.mark.parametrize("variant", ["", "points=16; players=5"])
def test_a_memoised_trump_line_is_judged_on_its_bidder(variant):
    # the fast path memoises a Pitch ``trump`` line on the bidder (`auction_key`, PIT-BID-6: he alone names trump):
    # with the memo warm from the clean records, the same lines written under another seat than the bidder's are
    # illegal, every one, on either path
    from jojotte_records.replay import fast_events

    fast_events._MEMOS.clear()
    clean = _text("pitch", 150, 23, variant)
    _same_both_ways(clean)
    memo = next(iter(fast_events._MEMOS.values()))
    assert 0 < sum(k[0][0] == "trump" for k in memo) < clean.count("\ntrump ")  # the trump lines memoised, and used
    seats = [it.split(":")[0] for it in next(ln for ln in clean.split("\n") if ln.startswith("deal "))[5:].split("; ")]
    out, changed = [], 0
    for ln in clean.split("\n"):
        if ln.startswith("trump "):
            _, seat, suit = ln.split(" ")
            ln = f"trump {seats[(seats.index(seat) + 1) % len(seats)]} {suit}"
            changed += 1
        out.append(ln)
    slow, _ = _same_both_ways("\n".join(out))
    found = sum(any(i.rule == "PIT-BID-6" for i in v.issues) for _, h in slow for v in h)
    assert changed >= 100 and found == changed

# --- the reader's fast lines read what the tokenizer reads ---------------------------------------------

TRICKY_CALLS = """[Game "jojotte"]
[Players "Alice; Bob"]
[FirstDealer "B"]

hand 1 dealer B
deal A: JH KH QH 7H AS TS 8S KD QD; B: AH TH 8H AC TC KC 9D 8D 7D
turned 9H
info 8C
auction A pass,B pass,  A name H, B pass
after B melds AD-QD 4A AS-KS, A melds KH-JH,B pass, A melds 4X, B dix
trick 1: B AC, A KH jo
trick 2: A QH jotte, B TH -> A
trick 3: B TC, A 9H -> B
trick 5: A JH, B 8H
trick 4: A AS, B AH
trick 5: B KC, A 8s
trick 6: B 9D,A KD
"""


def test_fast_call_and_trick_lines_read_as_the_tokenizer_reads(monkeypatch):
    # melds holding the seats' letters (AD-QD, 4A), no space after a comma, two spaces, a meld that is none (4X);
    # tricks with a winner (right or wrong), out of order, a lowercase card, no space after the comma: every call
    # and card, its column and the reader's findings the same with the fast line readers on and off
    from jojotte_records.notation import text as text_mod

    fast = list(iter_records(TRICKY_CALLS, "t.jjt"))
    monkeypatch.setattr(text_mod.SessionReader, "fast_calls", lambda self, hb, text, line_no, target: False)
    monkeypatch.setattr(text_mod.SessionReader, "fast_trick", lambda self, hb, text, line_no: False)
    full = list(iter_records(TRICKY_CALLS, "t.jjt"))
    assert fast == full
    hand = full[1]
    # by hand: "auction A pass,B pass,  A name H" puts A at column 9, B at 16, the third call's A at 25 (after two spaces), B at 35
    assert [(c.kind, c.column) for c in hand.auction] == [("pass", 9), ("pass", 16), ("name", 25), ("pass", 35)]
    assert [c.kind for c in hand.after] == ["melds", "melds", "pass", "melds", "dix"]
    assert hand.after[0].column == 7 and len(hand.after[0].melds) == 3
    # "trick 2: A QH jotte, B TH -> A": QH at column 12, TH at 24, the winner A (seat 0) as written
    t2 = hand.tricks[1]
    assert [(p.column, p.announce) for p in t2.plays] == [(12, "jotte"), (24, "")] and t2.winner == 0
    assert any("tricks are numbered in order" in i.message for i in hand.issues)


@pytest.mark.parametrize("game,variant", [("baloot", ""), ("pitch", "points=16; players=5")])
def test_fast_event_lines_read_as_the_tokenizer_reads(monkeypatch, game, variant):
    # simulated logs, and lines the fast line reader must leave to the tokenizer (a colon inside a word or twice,
    # a label that is only a colon, two spaces): the same records, to the column, with it on and off
    from jojotte_records.notation import event_text

    text = _text(game, 40, 8, variant)
    lines = text.split("\n")
    odd = ["deal S:: 9S TH", "trick 1: S 8D:, E KD", "trick 2: : 8C", "bids 1: S  pass", "trick 3: S: 9S, E: JS",
           "trick 4: S 9S,E JS", "bids 1: S pass;N pass", "trick 5: S 9S ", "trick 6: S 9S, , E JS"]
    # hand and score lines the fast readers must leave to the tokenizer too: a lowercase seat, two spaces, a
    # number too large, a missing or unknown column, a comma without a space, a second score line, a sign
    heads = ["hand 90 dealer s", "hand 91  dealer S", "hand 99999999999999999999 dealer S", "hand 92 dealer Q",
             "Hand 93 dealer A"]
    scores = ["score NS 4", "score NS 4,EW 2", "score NS 4, EW 2, XX 1", "score NS +4, EW 2", "score NS -4, EW 2",
              "score none", "score A 1, B 2, C 3, D 4, E 5"]
    at = next(i for i, ln in enumerate(lines) if ln.startswith("hand 2 "))
    extra = odd + [ln for h, sc in zip(heads, scores) for ln in (h, "deal S: 9S TH", sc, sc)]
    text = "\n".join(lines[:at] + extra + lines[at:])
    fast = list(iter_records(text, "t.jjt"))
    monkeypatch.setattr(event_text.EventHandBuilder, "fast_line", lambda self, text, line_no: False)
    monkeypatch.setattr(event_text.EventHandBuilder, "fast_start", classmethod(lambda cls, *a: None))
    full = list(iter_records(text, "t.jjt"))
    assert fast == full
    assert sum(1 for h in full if hasattr(h, "lines")) == 40 + len(heads)
    # each odd hand writes its score line twice: the second is the reader's finding, whichever reader read the first
    assert sum(any("second score line" in i.message for i in h.issues) for h in full if hasattr(h, "lines")) == len(heads)


# --- void hands (all four pass, JJ-BID-12): recorded without the draw, vouched for by the fast path ----------

VOID_MUTATIONS = (  # (the change to a void hand's lines, whether the explaining path then finds something)
    (lambda h: h + ["trick 1: A 8S, B QS"], True),  # a card after all passed: JJ-BID-12
    (lambda h: h + ["after A pass"], True),  # a call after all passed: JJ-BID-12
    (lambda h: [ln.replace("pass", "accept", 1) if ln.startswith("auction") else ln for ln in h], True),  # a contract, no draw
    (lambda h: [ln.replace(", B pass", "", 1).replace(", A pass", "", 1) if ln.startswith("auction") else ln for ln in h], True),
    (lambda h: [ln + ", A pass" if ln.startswith("auction") else ln for ln in h], True),  # a fifth call: after the end
    (lambda h: [ln for ln in h if not ln.startswith("turned")], False),  # no turned card
    (lambda h: h[:2] + ["info 7C"] + h[2:], False),  # an information card, which a void hand never turns up
    (lambda h: [_void_deal(ln, "dup") if ln.startswith("deal") else ln for ln in h], True),  # a card dealt twice: JJ-DEAL-5
    (lambda h: [_void_deal(ln, "seventh") if ln.startswith("deal") else ln for ln in h], True),  # seven cards: JJ-DEAL-3
    (lambda h: [_void_deal(ln, "fifth") if ln.startswith("deal") else ln for ln in h], True),  # five cards: JJ-DEAL-3
    (lambda h: [("turned " + h[0].split()[2]) if ln.startswith("turned") else ln for ln in h], True),  # a held card turned
    (lambda h: [_void_deal(ln, "drawn") if ln.startswith("deal") else ln for ln in h], True),  # a draw written
    (lambda h: [_void_deal(ln, "unknown") if ln.startswith("deal") else ln for ln in h], False),  # a ``?`` dealt
    (lambda h: [ln.replace("score none", "score A above 20") if ln.startswith("score") else ln for ln in h], True),
)


def _void_deal(line: str, how: str) -> str:
    """``deal A: c1 … c6; B: d1 … d6`` changed ``how``."""
    head, b = line.split("; B: ")
    a = head[len("deal A: "):].split()
    b = b.split()
    if how == "dup":
        a[0] = b[0]
    elif how == "seventh":
        a.append(next(c for c in ("7C", "7D", "7H", "7S", "8C") if c not in a + b))
    elif how == "fifth":
        a.pop()
    elif how == "drawn":
        a += ["+", "7C", "7D", "7H"]
        b += ["+", "8C", "8D", "8H"]
    elif how == "unknown":
        a[0] = "?"
    return f"deal A: {' '.join(a)}; B: {' '.join(b)}"


def _void_hands(text: str) -> list[tuple[int, int]]:
    """The (first, end) line indexes of each void hand's lines (after its ``hand`` line) in ``text``."""
    lines = text.split("\n")
    out = []
    for i, ln in enumerate(lines):
        if ln.startswith("hand "):
            j = i + 1
            while j < len(lines) and lines[j].strip():
                j += 1
            if any(lines[k].startswith("auction ") and [c.split()[-1] for c in lines[k][8:].split(", ")] == ["pass"] * 4
                   for k in range(i, j)):
                out.append((i + 1, j))
    return out


@pytest.mark.parametrize("variant", ["", "nullo_bidder_may_meld; dix_until_own_first_card"])
def test_void_hands_take_the_fast_path_and_every_wrong_vouch_is_caught(variant):
    # a simulated session holds void hands (all four pass: JJ-BID-12, written as deal, turned, auction, score none);
    # the fast path vouches for them as for any other hand recorded in full
    text = _text("jojotte", 300, 9, variant)
    voids = _void_hands(text)
    assert len(voids) >= 5
    slow, n_fast = _same_both_ways(text)
    assert n_fast == sum(len(h) for _, h in slow)  # every hand, the void ones too
    # each mutation of a void hand, on every void hand in turn: the fast path must not vouch for one the explaining
    # path finds fault with (a trick or call after all passed, a contract with no draw, a bad deal, a wrong figure)
    lines = text.split("\n")
    for k, (mutation, seen) in enumerate(VOID_MUTATIONS):
        out = list(lines)
        for first, end in reversed(voids):
            out[first:end] = mutation(lines[first:end])
        slow, n_fast = _same_both_ways("\n".join(out))
        hands = {v.number: v for _, h in slow for v in h}
        void_numbers = [int(lines[first - 1].split()[1]) for first, _ in voids]
        found = sum(bool(hands[n].issues or hands[n].unchecked) for n in void_numbers)
        # each mutated void hand is seen (so a vouch for it would differ), or stays legal with nothing to note (no
        # turned card, an information card, a ``?``: then the fast path's final state is still held to the loop's)
        assert found == (len(voids) if seen else 0), k


@pytest.mark.parametrize("game,variant", [("baloot", ""), ("pitch", "")])
def test_fast_event_lines_with_other_whitespace_read_as_the_tokenizer_reads(monkeypatch, game, variant):
    # the tokenizer splits on any whitespace (a tab, a form feed, a no-break space), the fast line reader only on
    # single spaces: a canonical-looking line holding another blank must be left to the tokenizer. By hand: "N\tTD"
    # is the seat N and the card TD to the tokenizer, but one label "N\tTD" if split on spaces alone
    from jojotte_records.notation import event_text

    lines = _text(game, 6, 3, variant).split("\n")
    blanks = ("\t", "\x0c", "\u00a0", "\u3000")
    changed = 0
    for i, ln in enumerate(lines):
        if ln.startswith(("trick ", "bids ", "deal ", "score ")) and " " in ln[6:]:
            blank = blanks[changed % len(blanks)]
            at = ln.rindex(" ")  # inside the line's last item (``N TD``), after the line's head
            # the blank after a word (a trailing blank inside an item), or in place of a space
            lines[i] = ln[:at] + blank + ln[at:] if changed % 2 else ln[:at] + blank + ln[at + 1:]
            changed += 1
    text = "\n".join(lines)
    fast = list(iter_records(text, "t.jjt"))
    monkeypatch.setattr(event_text.EventHandBuilder, "fast_line", lambda self, text, line_no: False)
    full = list(iter_records(text, "t.jjt"))
    assert changed >= 20
    assert fast == full
    # and the verdicts: a blank is a separator like a space, so the records stay legal on either reader
    monkeypatch.undo()
    slow, n_fast = _same_both_ways(text)
    assert all(not v.issues for _, h in slow for v in h)


_DECLARATIONS = ("sira", "fifty", "hundred", "fourhundred")  # Baloot's project words (BAL-PROJ)


def _trick_one_changed(text: str, change) -> tuple[str, int]:
    """``text`` with each trick-1 line's items changed in place by ``change`` (True when it changed them), and how
    many lines changed."""
    out, changed = [], 0
    for ln in text.split("\n"):
        if ln.startswith("trick 1: "):
            head, _, body = ln.partition(": ")
            items = body.split(", ")
            if change(items):
                ln = head + ": " + ", ".join(items)
                changed += 1
        out.append(ln)
    return "\n".join(out), changed


def test_baloot_declarations_out_of_turn_agree():
    # a declaration of trick 1 written before the leader's card, by a player who is not the leader: the project is
    # held (the declaration is legal in his turn) but he declares out of his turn (BAL-PROJ-7); the fast path's
    # shortcut for declarations (`BalootRules.announced_legal`) must refuse it as `check` does
    def moved(items):
        leader = items[0].split(" ")[0]
        late = [k for k, it in enumerate(items) if it.split(" ")[1] in _DECLARATIONS and it.split(" ")[0] != leader]
        if late:
            items.insert(0, items.pop(late[0]))
            return True

    text, changed = _trick_one_changed(_text("baloot", 300, 6), moved)
    slow, _ = _same_both_ways(text)
    found = sum(any(i.rule == "BAL-PROJ-7" for i in v.issues) for _, h in slow for v in h)
    assert changed >= 20 and found == changed


def test_baloot_declarations_after_the_declarers_own_card_agree():
    # Baloot's kernel hands a declaration to the rules on the state it built from its local play, rebuilt only when a
    # card was played since the rules last gave it: the leader's declaration of trick 1 moved after his own card
    # (BAL-PROJ-7: at his own turn, before his card) must be judged on the state with that card in the trick, and
    # refused as the explaining path refuses it; every other hand (the later players' declarations after the cards
    # before theirs, the shows of trick 2 after its first cards) is the fast path's
    def moved(items):
        words = [it.split(" ") for it in items]
        if len(words) > 1 and words[0][1] in _DECLARATIONS and words[1][0] == words[0][0]:
            items[0], items[1] = items[1], items[0]
            return True

    text, changed = _trick_one_changed(_text("baloot", 300, 6), moved)
    slow, n_fast = _same_both_ways(text)
    found = sum(bool(v.issues) for _, h in slow for v in h)
    assert changed >= 20 and found == changed and n_fast == sum(len(h) for _, h in slow) - changed

# --- the two-player fast path's shortcuts, each held to the explaining loop on hands built to defeat it ------------
# (the deal and draw by one bitmask test, the auction memoised through the draw, shown melds memoised on the cards
# they read, the second card's legality memoised on the suits led and trumps): a hand the fast path vouched for is
# changed so that only the shortcut's own check can see the fault, with its memos warm from the clean hands


def _full_hands(hands: int, seed: int, variant: str = ""):
    """A simulated session's header, its hands recorded with their draw, and a fast path that vouched for each."""
    from jojotte_records.replay.jojotte import SessionValidator

    items = list(iter_records(_text("jojotte", hands, seed, variant), "t.jjt"))
    header, full = items[0], [h for h in items[1:] if h.drawn is not None]
    fast = SessionValidator(header).codec._fast
    assert all(fast.hand(h) is not None for h in full)  # every clean hand vouched for: the memos are warm
    return header, full, fast


def _explained(header, hand):
    """The explaining loop's verdict on one hand (dealt first in its session: its dealer cannot be out of turn)."""
    from jojotte_records.replay.jojotte import SessionValidator

    engine.FAST = False
    try:
        v = SessionValidator(header._replace(tags=tuple((k, x) for k, x in header.tags if k != "FirstDealer")))
        return v.check_hand(hand)
    finally:
        engine.FAST = True


def _rules_cited(header, fast, hand) -> set[str]:
    """The rules the explaining loop cites on ``hand``, having checked that the fast path vouches for it only with
    the loop's own final state and nothing illegal (a written figure the new state makes wrong is the sheet's)."""
    v = _explained(header, hand)
    state = fast.hand(hand)
    assert state is None or (state == v.state and not any(i.kind in ("illegal", "syntax") for i in v.issues))
    return {i.rule for i in v.issues}


def _rename(h, old: int, new: int, seats=(0, 1)):
    """``h`` with card ``old`` written ``new`` in the holdings of ``seats`` and wherever they play it: the play
    stays as it was, so only the deal, the draw or the calls after it can be at fault."""
    def hold(cards, seat):
        return tuple(new if c == old and seat in seats else c for c in cards)

    tricks = tuple(t._replace(plays=tuple(p._replace(card=new) if p.card == old and p.seat in seats else p
                                          for p in t.plays)) for t in h.tricks)
    return h._replace(dealt=tuple(hold(d, i) for i, d in enumerate(h.dealt)),
                      drawn=tuple(hold(d, i) for i, d in enumerate(h.drawn)), tricks=tricks)


SIX_OF_SPADES = 6  # make_card(SPADES, 6): no card of the 32-card pack (JJ-DECK-1)
DEAL_CHANGES = (  # (a change to a hand's deal or draw, a rule the explaining loop cites for it)
    (lambda h: _rename(h, h.dealt[1][0], h.dealt[0][0], (1,)), "JJ-DEAL-5"),  # dealt to both
    (lambda h: _rename(h, h.dealt[1][0], h.turned, (1,)), "JJ-DEAL-5"),  # the turned card dealt
    (lambda h: _rename(h, h.drawn[0][0], h.dealt[1][0], (0,)), "JJ-DRAW-4"),  # drawn by A, dealt to B
    (lambda h: _rename(h, h.drawn[0][0], h.dealt[0][1], (0,)), "JJ-DRAW-4"),  # drawn by A, dealt to A
    (lambda h: _rename(h, h.drawn[1][0], h.drawn[0][0], (1,)), "JJ-DRAW-4"),  # drawn by both
    (lambda h: _rename(h, h.drawn[1][0], h.turned, (1,)), "JJ-DRAW-4"),  # the turned card drawn
    (lambda h: h._replace(info=h.drawn[1][2]), "JJ-DRAW-4"),  # the information card is a drawn card
    (lambda h: h._replace(info=h.turned), "JJ-DRAW-4"),  # the information card is the turned card
    (lambda h: _rename(h, next((c for c in h.dealt[0] if c >> 4 == 0), h.dealt[0][0]), SIX_OF_SPADES), "JJ-DECK-1"),
    (lambda h: _rename(h, next((c for c in h.drawn[1] if c >> 4 == 0), h.drawn[1][0]), SIX_OF_SPADES), "JJ-DECK-1"),
)


@pytest.mark.parametrize("k", range(len(DEAL_CHANGES)))
def test_the_deal_and_draw_bitmask_test_refuses_what_the_checks_refuse(k):
    # JJ-DEAL-3/5, JJ-DRAW-1/4, JJ-DECK-1: the auction and the play of a clean hand (the memo of the state after the
    # draw hits), a card written twice or not of the pack: the explaining loop cites the rule, the fast path refuses
    change, rule = DEAL_CHANGES[k]
    header, hands, fast = _full_hands(60, 31)
    for h in hands[:40]:
        assert rule in _rules_cited(header, fast, change(h))


def test_the_state_after_the_draw_is_memoised_on_the_whole_auction():
    # JJ-DBL-1/3: a clean hand's contract doubled (the answer PASS made DOUBLE, the declarer then passing): the same
    # dealer, turned card and cards as a hand the memo holds, another auction, so another multiplier (or an illegal
    # Nullo after the double, JJ-NULLO-2): whatever the fast path vouches for is the explaining loop's final state
    from jojotte_records.notation.model import Call

    header, hands, fast = _full_hands(120, 34)
    doubled = 0
    for h in hands:
        calls = list(h.auction)
        at = next((i for i, c in enumerate(calls) if c.kind in ("accept", "name")), None)
        if at is None or at + 1 >= len(calls) or calls[at + 1].kind != "pass":
            continue
        calls[at + 1] = calls[at + 1]._replace(kind="double")
        calls.insert(at + 2, Call(calls[at].seat, "pass"))
        bad = h._replace(auction=tuple(calls))
        _rules_cited(header, fast, bad)
        doubled += fast.hand(bad) is not None and fast.hand(bad).mult == 2
    assert doubled >= 20


def _meld_hands(variant: str):
    """A session whose calls after the draw declare shown melds and make no dix: (header, fast path,
    [(hand, seat, melds, the stock: cards nobody holds or sees)]) for each declaration."""
    header, hands, fast = _full_hands(300, 32, variant)
    out = []
    for h in hands:
        if any(c.kind == "dix" for c in h.after):
            continue
        shown = set(h.dealt[0] + h.dealt[1] + h.drawn[0] + h.drawn[1] + (h.turned, h.info))
        stock = [c for c in JojotteRules.pack.cards if c not in shown]
        for c in h.after:
            if c.kind == "melds" and all(m.shown and not m.cards for m in c.melds):
                out.append((h, c.seat, c.melds, stock))
    return header, fast, out


def test_a_memoised_meld_declaration_is_judged_on_the_cards_of_its_melds():
    # JJ-MELD-4: a card of a declared meld written as a card of the stock of its suit, in the hand and in the play:
    # the same calls from the same state as the clean hand, so only the cards the memo keys on tell them apart
    from jojotte_records.cards import iter_cards

    header, fast, decls = _meld_hands("")
    found = 0
    for h, seat, melds, stock in decls:
        used = 0
        for m in melds:
            used |= m.mask
        card = next(iter_cards(used))
        spare = [c for c in stock if c >> 4 == card >> 4]
        if spare:
            assert "JJ-MELD-4" in _rules_cited(header, fast, _rename(h, card, spare[0], (seat,)))
            found += 1
    assert found >= 30


def test_a_memoised_sequence_is_judged_on_its_neighbours_when_it_must_be_maximal():
    # JJ-MELD-15 (sequence_must_be_maximal, OP-18): a card of the declarer no meld uses written as the stock's card
    # next to a declared sequence, in the hand and the play: the sequence is then part of a longer run
    from jojotte_records.cards import make_card

    header, fast, decls = _meld_hands("sequence_must_be_maximal")
    found = 0
    for h, seat, melds, stock in decls:
        used = 0
        for c in h.after:
            for m in c.melds:
                used |= m.mask
        mine = h.dealt[seat] + h.drawn[seat]
        for m in melds:
            near = [make_card(m.suit, r) for r in (m.rank + 1, m.rank - m.length) if 7 <= r <= 14] if m.kind == "seq" else []
            near = [c for c in near if c in stock]
            spare = [c for c in mine if not used >> c & 1 and c >> 4 == m.suit] or [c for c in mine if not used >> c & 1]
            if near and spare:
                assert "JJ-MELD-15" in _rules_cited(header, fast, _rename(h, spare[0], near[0], (seat,)))
                found += 1
                break
    assert found >= 10
def test_a_memoised_play_check_refuses_a_revoke_and_a_failure_to_trump():
    # JJ-PLAY-3…5: the second card of a trick swapped with the same player's card of a later trick in another suit:
    # the legality memo keys on the cards of the suit led and of trumps, so a hand still holding them is refused
    header, hands, fast = _full_hands(150, 33)
    rules_seen: dict[str, int] = {}
    for h in hands:
        tricks = list(h.tricks)
        for i, t in enumerate(tricks):
            a, b = t.plays
            j = next((j for j in range(i + 1, len(tricks)) for p in tricks[j].plays
                      if p.seat == b.seat and p.card >> 4 != a.card >> 4 and not p.announce), None)
            if j is None or b.card >> 4 != a.card >> 4 or b.announce:
                continue
            k = next(n for n, p in enumerate(tricks[j].plays) if p.seat == b.seat)
            later = tricks[j].plays[k]
            out = list(tricks)
            out[i] = t._replace(plays=(a, b._replace(card=later.card)))
            plays = list(tricks[j].plays)
            plays[k] = later._replace(card=b.card)
            out[j] = tricks[j]._replace(plays=tuple(plays))
            bad = h._replace(tricks=tuple(out))
            found = _rules_cited(header, fast, bad)
            play_rules = {r for r in found if r.startswith("JJ-PLAY-")}
            assert play_rules, found  # the revoke (or a card of the later trick) is illegal
            for r in play_rules:
                rules_seen[r] = rules_seen.get(r, 0) + 1
            break
    assert rules_seen.get("JJ-PLAY-3", 0) >= 20 and rules_seen.get("JJ-PLAY-4", 0) + rules_seen.get("JJ-PLAY-5", 0) >= 5, rules_seen


SCORE_VARIANTS = ("", "jojotte_above_line; multiply_card_points_only; multiply_melds; multiply_slam_bonus",
                  "compare_after_multiplier; multiplier_only_below_line; bonuses_in_total=false; nullo_bidder_may_meld")


def _score_changes(s):
    """``s`` and states that differ from it in one thing the score reads (JJ-SCORE, JJ-DBL-4/5, JJ-NULLO, JJ-SLAM,
    JJ-PTS-2/3, JJ-MELD-12): what a memo keyed on too little would score as ``s``."""
    other = 1 - s.bidder
    yield s
    yield s._replace(mult=2)
    yield s._replace(mult=4, slam=True)
    yield s._replace(slam=True)
    yield s._replace(jo=(2, 0))
    yield s._replace(jo=(0, 2), last_trick=1 - s.last_trick)
    yield s._replace(last_trick=1 - s.last_trick)
    yield s._replace(mult=2, last_trick=-1)  # OP-09: the last trick's 10 is not multiplied
    yield s._replace(card_pts=s.card_pts[::-1])
    yield s._replace(won=s.won[::-1])
    yield s._replace(won=(9, 0), card_pts=(152, 0), last_trick=0)
    yield s._replace(bidder=other)
    yield s._replace(melds=s.melds[::-1])
    yield s._replace(denomination="nullo", nullo_bidder=s.bidder, trump=-1)
    yield s._replace(denomination="nullo", nullo_bidder=other, trump=-1, won=(0, 9))
    # the tricks won, of which the memo's key keeps only the Nullo bidder's number or whether a side took them all
    yield s._replace(won=(8, 1))
    yield s._replace(won=(1, 8), slam=True)
    yield s._replace(won=(9, 0), slam=True, bidder=0)
    yield s._replace(won=(0, 9), slam=True, bidder=0)
    yield s._replace(denomination="nullo", nullo_bidder=0, trump=-1, won=(1, 8))
    yield s._replace(denomination="nullo", nullo_bidder=0, trump=-1, won=(2, 7))
    yield s._replace(denomination="nullo", nullo_bidder=1, trump=-1, won=(2, 7))


def _unmemoised(options):
    """A rules object whose scoring starts from empty memos (a new one shares those of its game and options)."""
    rules = JojotteRules(options)
    rules._outcomes, rules._meld_results, rules._meld_credits = {}, {}, {}
    return rules


@pytest.mark.parametrize("variant", SCORE_VARIANTS)
def test_a_memoised_score_is_the_score_of_a_fresh_rules_object(variant):
    # `JojotteRules.score_hand` memoises what follows the melds' credits: a rules object that has scored every other
    # state first (its memo warm) scores each state as one with empty memos does, for states that differ in one field
    from jojotte_records.rules.jojotte import JojotteOptions

    _, hands, fast = _full_hands(80, 41, variant)
    options = JojotteOptions.parse(variant) if variant else None
    warm = JojotteRules(options)
    states = [x for h in hands for x in _score_changes(fast.hand(h))]
    for x in states:  # every state scored once: the memo holds them all
        warm.score_hand(x)
    differs = 0
    for x in states:
        got = warm.score_hand(x)
        assert got == _unmemoised(options).score_hand(x)
        differs += got != warm.score_hand(states[0])
        ts = tuple(p + 1 for p in x.card_pts)  # and with trick scores given, as a hand recorded without its cards
        assert warm.score_hand(x, x.won, ts) == _unmemoised(options).score_hand(x, x.won, ts)
    assert differs >= len(states) * 0.8  # the changed states score otherwise: the test tells them apart
    # the memo is shared by the rules of the same game and options (a new object starts warm), also with the
    # two-player core of the four-player form, whose hands have eight tricks (JJ4P): eight won are all of them there
    assert JojotteRules(options)._outcomes is warm._outcomes
    eight = JojotteRules(options)
    eight.tricks_per_hand = 8
    cold = _unmemoised(options)
    cold.tricks_per_hand = 8
    for x in states:
        for won in ((8, 0), (0, 8), (9, 0)):
            assert eight.score_hand(x, won) == cold.score_hand(x, won)


def test_melds_declared_after_a_dix_are_judged_on_the_hand_after_the_exchange():
    # JJ-POST-8, JJ-DIX-2, JJ-MELD-4: the dix moved before the other calls after the draw (the same calls, made in
    # another order: each call after it is memoised on the state the dix reached, whose exchange the final state
    # shows); then the exchanger's declaration given a sequence of 9-8-7 of trumps, the 8 and 9 written in his hand:
    # he held the seven before the exchange, not after it
    from jojotte_records.cards import SUIT_MASKS, make_card
    from jojotte_records.rules.jojotte_cards import Meld

    header, hands, fast = _full_hands(800, 43)
    moved = refused = 0
    for h in hands:
        dix = next((c for c in h.after if c.kind == "dix"), None)
        if dix is None:
            continue
        first = h._replace(after=(dix, *(c for c in h.after if c is not dix)))
        _rules_cited(header, fast, first)
        moved += fast.hand(first) is not None
        x, trump = dix.seat, h.turned >> 4
        at = next((i for i, c in enumerate(first.after) if c.seat == x and c.kind == "melds"), None)
        if at is None:
            continue
        used = 0
        for m in first.after[at].melds:
            used |= m.mask
        mine = h.dealt[x] + h.drawn[x]
        shown = set(h.dealt[0] + h.dealt[1] + h.drawn[0] + h.drawn[1] + (h.turned, h.info))
        need = [c for c in (make_card(trump, 8), make_card(trump, 9)) if c not in mine]
        spare = [c for c in mine if c >> 4 != trump and not used >> c & 1]
        if any(c in shown for c in need) or len(spare) < len(need) or used & SUIT_MASKS[trump]:
            continue
        bad = first
        for old, new in zip(spare, need):
            bad = _rename(bad, old, new, (x,))
        calls = list(bad.after)
        calls[at] = calls[at]._replace(melds=calls[at].melds + (Meld("seq", 9, trump, 3),))
        bad = bad._replace(after=tuple(calls))
        assert "JJ-MELD-4" in _rules_cited(header, fast, bad)
        refused += 1
    assert moved >= 20 and refused >= 3


def test_the_two_player_memos_are_shared_by_the_sessions_of_the_same_options_only():
    # one process validates many sessions (a --jobs worker, many chunks): the two-player fast path's memos are kept
    # per options across sessions. A session with the default options warms them; the same hands with a card allowed
    # in one meld only (OP-18: a declaration using a card twice is then illegal, JJ-MELD-5) must not be vouched for
    # from the default options' memo of meld declarations
    from jojotte_records.replay import fast_jojotte

    fast_jojotte._MEMOS.clear()
    text = _text("jojotte", 300, 5)
    _, n_fast = _same_both_ways(text)
    assert n_fast > 0 and len(fast_jojotte._MEMOS) == 1
    memo = next(iter(fast_jojotte._MEMOS.values()))[0]
    size = len(memo)
    once = text.replace("[FirstDealer", '[Variant "card_in_one_meld_only"]\n[FirstDealer', 1)
    slow, n_fast = _same_both_ways(once)
    assert len(fast_jojotte._MEMOS) == 2 and n_fast > 0
    assert sum(any(i.rule == "JJ-MELD-5" for i in v.issues) for _, h in slow for v in h) >= 3
    # the same options again, the hands mutated: the one memo, warm, agrees with the explaining path
    slow, n_fast = _same_both_ways(mutate(text, random.Random(5), rate=0.5))
    assert len(fast_jojotte._MEMOS) == 2 and n_fast > 0 and size <= len(memo) < 2 * size
    assert sum(bool(v.issues) for _, h in slow for v in h) >= 20


def _pitch_line_mutations(line: str, rng: random.Random) -> str:
    """One change to a Pitch deal, discard or refill line aimed at the fast path's shortcuts for them."""
    head, _, body = line.partition(" ")
    items = body.split("; ")
    j = rng.randrange(len(items))
    seat, _, cards = items[j].partition(": ")
    words = cards.split(" ") if cards else []
    what = rng.choice(("twice", "other", "swap", "drop", "add", "split", "case", "seat", "dash", "extra"))
    if what == "twice" and words:  # a card written twice in one item (the reader's count of distinct bits)
        words.append(words[0])
    elif what == "other" and len(items) > 1:  # a card of another item's (a card dealt twice, drawn twice)
        k = (j + 1) % len(items)
        other = items[k].partition(": ")[2].split(" ")
        if other and other[0]:
            words.append(other[0])
    elif what == "swap" and len(items) > 1:  # the items out of turn (a discard before its turn)
        k = (j + 1) % len(items)
        items[j], items[k] = items[k], items[j]
        return head + " " + "; ".join(items)
    elif what == "drop" and words:  # a card left out (a non-trump kept, a deal short of a card)
        del words[rng.randrange(len(words))]
    elif what == "add":  # a card added from the pack (a trump discarded, a card not in the stock)
        words.append(rng.choice(CARDS))
    elif what == "split" and len(items) > 1:  # the line cut in two lines of the same keyword
        if j + 1 == len(items):
            return line
        return head + " " + "; ".join(items[:j + 1]) + "\n" + head + " " + "; ".join(items[j + 1:])
    elif what == "case":
        seat = seat.lower()
    elif what == "seat":  # another seat's label on the item (a seat twice, a seat left out)
        seat = rng.choice(("N", "E", "S", "W", "A", "B", "C", "D"))
    elif what == "dash":
        words = ["-"]
    elif what == "extra":  # one more item than the round has discards left
        items.append(items[j])
        return head + " " + "; ".join(items)
    items[j] = seat + ":" + (" " + " ".join(words) if words else "")
    return head + " " + "; ".join(items)


@pytest.mark.parametrize("variant", ["", "points=16; players=5", "trump_discard=allowed_dead", "points=14; uncounted=remove"])
def test_pitch_deal_discard_and_refill_lines_mutated_agree(variant):
    # the fast path reads a deal or refill line as one merged chance action and plays a discard line on local
    # variables (the discarder's turn and the discard's legality asked of the rules): each line changed to defeat
    # one of those shortcuts (a card twice, a card of another seat's, the items out of turn, a card left out or added,
    # the line split, a seat's label in another case or another seat's, a dash, one item too many)
    rng = random.Random(8)
    out = []
    for ln in _text("pitch", 200, 8, variant).split("\n"):
        if ln.split(" ")[0] in ("deal", "discard", "refill") and rng.random() < 0.5:
            ln = _pitch_line_mutations(ln, rng)
        out.append(ln)
    slow, n_fast = _same_both_ways("\n".join(out))
    found = sum(bool(v.issues) for _, h in slow for v in h)
    assert found >= 40 and n_fast >= 40


def test_pitch_five_handed_bidder_alone_must_lead_the_called_card_on_either_path():
    # PIT-FIVE-5: when the called card lay in the blind the bidder leads it first; the trick kernel leaves the tricks to
    # the rules while `must_lead_called` holds, and takes the rest. Trick 1's lead swapped for another card of the
    # bidder's: illegal on either path, at the same place
    text = _text("pitch", 400, 9, "points=16; players=5")
    out, changed, hand = [], 0, []
    for ln in text.split("\n") + ["hand"]:
        if ln.startswith("hand") or ln.startswith("["):
            call = next((h for h in hand if h.startswith("call ")), None)
            t1 = next((k for k, h in enumerate(hand) if h.startswith("trick 1: ")), None)
            t2 = next((k for k, h in enumerate(hand) if h.startswith("trick 2: ")), None)
            in_blind = call and not any(call.split(" ")[2] in h for h in hand if h.startswith(("deal", "discard")))
            if in_blind and t1 is not None and t2 is not None:
                a, b = hand[t1].split(", ")[0], hand[t2].split(", ")
                bidder = call.split(" ")[1]
                k = next((k for k, it in enumerate(b) if it.split(" ")[-2] == bidder), None)
                if k is not None and a.endswith(call.split(" ")[2]):
                    card_b = b[k].split(" ")[-1]
                    hand[t1] = hand[t1].replace(a, a.rsplit(" ", 1)[0] + " " + card_b, 1)
                    b[k] = b[k].rsplit(" ", 1)[0] + " " + a.rsplit(" ", 1)[1]
                    hand[t2] = ", ".join(b)
                    changed += 1
            out.extend(hand)
            hand = []
            if ln != "hand":
                out.append(ln)
        else:
            hand.append(ln)
    slow, _ = _same_both_ways("\n".join(out))
    found = sum(any(i.rule == "PIT-FIVE-5" for i in v.issues) for _, h in slow for v in h)
    assert changed >= 5 and found >= 5


@pytest.mark.parametrize("variant", ["", "points=16; players=5"])
def test_pitch_fast_discards_are_made_by_the_rules_after_discard(monkeypatch, variant):
    # PIT-DRAW-1: the fast path's discard line moves no card itself: each discard of a hand it vouches for, the
    # round's last (through `advance`) and every other, is made by `PitchRules.after_discard`, once
    from jojotte_records.rules.pitch import PitchRules

    made = [0]
    after_discard = PitchRules.after_discard

    def counted(*args):
        made[0] += 1
        return after_discard(*args)

    text = _text("pitch", 30, 5, variant)
    monkeypatch.setattr(PitchRules, "after_discard", staticmethod(counted))
    seats = 5 if "players=5" in variant else 4
    _, n_fast = _verdicts(text, True)
    assert n_fast == 30 and made[0] == 30 * seats



def _baloot_up_mutations(line: str, rng: random.Random) -> str:
    """One change to a Baloot deal or complete line aimed at the face-up card's item (``up: 8C``), else one of
    `_pitch_line_mutations` (a card twice, of another seat's, left out or added, a seat's label changed…)."""
    head, _, body = line.partition(" ")
    items = body.split("; ")
    up = next((it for it in items if it.startswith("up: ")), None)
    what = rng.choice(("first", "two", "none", "case", "onto", "twice", "other"))
    if up is not None and what == "first":  # the face-up card written before the seats' cards
        return head + " " + "; ".join([up] + [it for it in items if it != up])
    if up is not None and what == "two":  # two face-up cards
        return line.replace(up, up + " " + rng.choice(CARDS))
    if up is not None and what == "none":  # the face-up item without its card
        return line.replace(up, "up:")
    if up is not None and what == "case":
        return line.replace(up, "UP" + up[2:])
    if up is None and what == "onto":  # a face-up card on the completion deal
        return line + "; up: " + rng.choice(CARDS)
    if what == "twice" and up is not None:  # the face-up item written twice
        return line + "; " + up
    return _pitch_line_mutations(line, rng)


def test_baloot_deal_and_complete_lines_mutated_agree(monkeypatch):
    # the fast path reads a Baloot deal line (the seats' cards, then the face-up card) or complete line as the one
    # merged chance action the explaining codec makes of it (BAL-DEAL-5…8, checked by the rules): each line changed
    # to defeat that reading (the face-up card first, twice, with two cards or none, in capitals, on the completion;
    # a card twice or of another seat's, a card left out or added, the line split, a seat's label changed, a dash)
    from jojotte_records.replay import fast_events

    taken = [0]
    chance = fast_events.baloot_chance

    def counted(fast, s, lines, i, acts):
        done = chance(fast, s, lines, i, acts)
        taken[0] += done is not None and done[1] > i
        return done

    monkeypatch.setitem(fast_events.BALOOT_LINES, "deal", counted)
    monkeypatch.setitem(fast_events.BALOOT_LINES, "complete", counted)
    clean = _text("baloot", 200, 8)
    _, n_fast = _same_both_ways(clean)
    assert n_fast == 200 and taken[0] >= 2 * 190  # every clean hand's two lines (all but the hands passed out)
    rng = random.Random(8)
    out = []
    for ln in clean.split("\n"):
        if ln.split(" ")[0] in ("deal", "complete") and rng.random() < 0.5:
            ln = _baloot_up_mutations(ln, rng)
        out.append(ln)
    slow, n_fast = _same_both_ways("\n".join(out))
    found = sum(bool(v.issues) for _, h in slow for v in h)
    assert found >= 60 and n_fast >= 30


def _ekka_moved(line: str, rng: random.Random) -> tuple[str, str]:
    """A Baloot trick line with its lead's Ekka moved (BAL-EKKA-1: to the second card, not a lead), written in
    capitals (read by the rules, legal), or put on a lead without one (BAL-EKKA-2 unless every higher card of its
    suit is gone; BAL-EKKA-1 on a trump); (the line, what was done)."""
    head, _, body = line.partition(": ")
    body, arrow, winner = body.partition(" -> ")
    items = body.split(", ")
    lead = next(k for k, it in enumerate(items) if len(it.split(" ")) == 2 or it.split(" ")[1] in CARDS)
    words = items[lead].split(" ")
    if words[-1] == "ekka":
        what = rng.choice(("second", "capitals"))
        if what == "second" and lead + 1 < len(items) and len(items[lead + 1].split(" ")) == 2:
            items[lead], items[lead + 1] = " ".join(words[:-1]), items[lead + 1] + " ekka"
        elif what == "capitals":
            items[lead] = " ".join(words[:-1]) + " EKKA"
        else:
            return line, ""
    elif len(words) == 2:
        what = "added"
        items[lead] += " ekka"
    else:
        return line, ""
    return head + ": " + ", ".join(items) + arrow + winner, what


def test_baloot_ekka_leads_and_the_best_projects_card_agree(monkeypatch):
    # Baloot's trick kernel plays a lead said with Ekka itself when the rules' `ekka_open` and `can_ekka` allow it
    # (BAL-EKKA-1/2; BAL-EKKA-4 then frees the third player), and the card of the owner of the best project once his
    # project is shown (`BalootRules.must_show`, BAL-PROJ-11/12): on clean records no such card is handed to the
    # rules; Ekka moved off the lead, said in capitals or added to a lead, and the best project's card written before
    # its show, are judged alike on both paths
    from jojotte_records.replay.fast_events import EventFast

    handed = []
    item = EventFast.item

    def counted(self, s, line, it, acts):
        handed.append((line.number, it.words))
        return item(self, s, line, it, acts)

    monkeypatch.setattr(EventFast, "item", counted)
    clean = _text("baloot", 200, 11)
    _, n_fast = _same_both_ways(clean)
    assert n_fast == 200 and clean.count(" ekka") >= 100 and clean.count(" show ") >= 50
    cards = [w for n, w in handed if len(w) == 1 and w[0] in CARDS or len(w) == 2 and w[1] == "ekka"]
    assert cards == []  # every card but one said with Baloot is the kernel's own
    rng = random.Random(11)
    out, done = [], []
    for ln in clean.split("\n"):
        if ln.startswith("trick ") and not ln.startswith(("trick 1:", "trick 2:")) and rng.random() < 0.3:
            ln, what = _ekka_moved(ln, rng)
            done.append(what)
        elif ln.startswith("trick 2: ") and " show " in ln and rng.random() < 0.5:
            head, _, body = ln.partition(": ")
            items = body.split(", ")
            k = next(k for k, it in enumerate(items) if it.split(" ")[1] == "show")
            if k + 1 < len(items) and items[k + 1].split(" ")[0] == items[k].split(" ")[0]:
                items[k], items[k + 1] = items[k + 1], items[k]  # the card before the show it follows
                ln = head + ": " + ", ".join(items)
                done.append("card first")
        out.append(ln)
    slow, n_fast = _same_both_ways("\n".join(out))
    found = {r: sum(any(i.rule == r for i in v.issues) for _, h in slow for v in h)
             for r in ("BAL-EKKA-1", "BAL-EKKA-2", "BAL-PROJ-11", "BAL-PROJ-12")}
    assert min(done.count(w) for w in ("second", "capitals", "added", "card first")) >= 10
    assert found["BAL-EKKA-1"] >= 10 and found["BAL-EKKA-2"] >= 10 and found["BAL-PROJ-11"] + found["BAL-PROJ-12"] >= 10
    assert n_fast >= 20

# --- the compact reading of two-player hands (issue 14): `iter_records(compact=True)`, `CompactHand` ------------

TWO_PLAYER = [(g, v) for g, v in GAMES if g == "jojotte"]
# what a table may add to a hand that the compact reader leaves to the full one: comments (a line of its own, after an
# item, after the keyword), a line indented, a keyword in capitals, a line unknown, a claim, a result line
ODD = ("{ a note }", "trick 1: { late } A AS, B 7S", "  turned 9D", "TRICK 2: A KD, B 8D", "shuffled twice",
       "claim A", "result A 5 tricks 90 points, B 4 tricks 62 points", "score A below 75 { sic }, B above 35")


def _oddities(text: str, rng: random.Random, rate: float = 0.15) -> str:
    """The text with, in about ``rate`` of its hands after the first, one line of `ODD` put in or one line changed."""
    out = []
    seen_hand = False
    for line in text.split("\n"):
        if seen_hand and line and not line.startswith(("[", "hand ")) and rng.random() < rate / 10:
            what = rng.random()
            # an item of `ODD`, the line written twice (a second auction or deal line), or the line with more on it
            out.append(rng.choice(ODD) if what < 0.4 else line if what < 0.7 else line + " " + rng.choice(("{ ok }", "x", ",")))
        seen_hand = seen_hand or line.startswith("hand ")
        out.append(line)
    return "\n".join(out)


def _by_compact(text: str, compact: bool):
    """The sessions' summaries and every hand's verdict (`on_hand`), validated keeping no hands; with the number of
    hands whose verdict was found from the compact reading and of those read again in full."""
    verdicts = []
    before = dict(COMPACT)
    summaries = [(s._replace(rules=s.rules.options), kept) for s, kept in
                 validate_stream(iter_records(text, "t.jjt", compact=compact), keep_hands=False, on_hand=verdicts.append)]
    return summaries, verdicts, COMPACT["read"] - before["read"], COMPACT["full"] - before["full"]


def _same_with_compact_reading(text: str) -> tuple[int, int]:
    full, v_full, read0, again0 = _by_compact(text, False)
    compact, v_compact, read, again = _by_compact(text, True)
    assert read0 == again0 == 0
    assert compact == full  # the summaries and the hands kept (those with findings, their records the full reading's)
    assert len(v_compact) == len(v_full)
    for c, f in zip(v_compact, v_full):
        if isinstance(c.record, CompactHand):
            # a clean hand read compactly: the same verdict but for its record
            assert not f.issues and not f.unchecked and c._replace(record=None) == f._replace(record=None)
            assert c.record.record() == f.record  # and its full reading is the record the full reader yields
        else:
            assert c == f
    assert read + again == sum(isinstance(x, CompactHand) for x in iter_records(text, "t.jjt", compact=True))
    return read, again


def test_the_compact_reading_yields_the_full_records_of_its_hands():
    text = _oddities(mutate(_text("jojotte", 150, 5), random.Random(5)), random.Random(6))
    full = list(iter_records(text, "t.jjt"))
    compact = list(iter_records(text, "t.jjt", compact=True))
    assert sum(isinstance(x, CompactHand) for x in compact) > 50
    assert [x.record() if isinstance(x, CompactHand) else x for x in compact] == full


@pytest.mark.parametrize("game,variant", TWO_PLAYER)
def test_compact_reading_gives_the_verdicts_of_the_full_reading_on_simulated_records(game, variant):
    read, again = _same_with_compact_reading(_text(game, 150, 14, variant))
    assert read >= 140 and again == 0  # every hand after the first is read compactly, and vouched for


@pytest.mark.parametrize("game,variant", TWO_PLAYER)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_compact_reading_gives_the_verdicts_of_the_full_reading_on_mutated_records(game, variant, seed):
    text = _oddities(mutate(_text(game, 150, seed, variant), random.Random(seed)), random.Random(seed + 10))
    read, again = _same_with_compact_reading(text)
    assert read > 50 and again >= 10  # both: the clean hands vouched for, the mutated ones read again in full


def test_a_compact_hand_of_a_finished_session_or_a_wrong_dealer_is_read_in_full():
    # JJ-SESSION-1 (a hand after the agreed rubbers) and JJ-DEAL-2 (the deal alternates): findings of the validator,
    # not of the replay, so the compact reading must leave them to the full one
    text = _text("jojotte", 120, 3)
    lines = text.split("\n")
    hands = [i for i, ln in enumerate(lines) if ln.startswith("hand ")]
    del lines[hands[40]:hands[41]]  # a hand left out: the next, legal in itself, is dealt out of turn
    # and no score written from there on (the sheet differs from the table's once a hand is left out)
    lines = lines[:hands[40]] + [ln for ln in lines[hands[40]:] if not ln.startswith("score ")]
    text = "\n".join(lines).replace('[Game "jojotte"]', '[Game "jojotte"]\n[Rubbers "12"]')
    full, _, _, _ = _by_compact(text, False)
    rules = {i.rule for _, kept in full for v in kept for i in v.issues}
    assert {"JJ-DEAL-2", "JJ-SESSION-1"} <= rules
    _same_with_compact_reading(text)


@pytest.mark.parametrize("key", ["deal", "turned", "info", "auction", "after", "score", "trick 3:"])
def test_a_line_written_twice_is_left_to_the_full_reader(key):
    # the full reader adds a second line of calls to the first, and reads a second deal, card or score line over
    # the first (with two places): the compact reader takes neither
    text = _text("jojotte", 40, 4)
    lines = text.split("\n")
    starts = [i for i, ln in enumerate(lines) if ln.startswith("hand ")]
    i = next(j for j in range(starts[10], starts[11]) if lines[j].startswith(key + " "))
    lines.insert(i, lines[i])
    read, again = _same_with_compact_reading("\n".join(lines))
    assert read == 38 and again == 0  # every hand but the first and that one vouched for from the compact reading


def test_a_fifth_plain_card_in_a_baloot_trick_line_agrees():
    # Baloot's kernel plays a plain card by the seat whose turn it is; after the fourth card that is the leader again,
    # so a fifth plain card by him (a card he holds for a later trick) is played locally, and the trick, longer than
    # four, must then be refused: the hand takes the explaining path, which reports the item after the trick's end
    text = _text("baloot", 200, 6)
    out, changed = [], 0
    for hand in text.split("\n\n"):
        lines = hand.split("\n")
        tricks = [k for k, ln in enumerate(lines) if ln.startswith("trick ") and " -> " not in ln]
        if len(tricks) == 8 and changed < 40:
            first, later = lines[tricks[2]], lines[tricks[5]].split(": ")[1].split(", ")
            leader = first.split(": ")[1].split(" ")[0]
            card = next((it.split(" ")[1] for it in later if it.split(" ")[0] == leader and len(it.split(" ")) == 2), None)
            if card is not None:
                lines[tricks[2]] = f"{first}, {leader} {card}"
                changed += 1
        out.append("\n".join(lines))
    slow, _ = _same_both_ways("\n\n".join(out))
    bad = sum(bool(v.issues) for _, h in slow for v in h)
    assert changed >= 20 and bad >= changed


@pytest.mark.parametrize("variant", ["", "project_tie_trump_priority"])
def test_the_project_a_declaration_stands_for_is_the_best_of_its_kind(variant):
    # `BalootRules._declared_project` reads one cached table of each kind's best project (`_best_projects`): for every
    # hand, contract and kind it is the first of the best by `project_key` among the hand's projects of that kind
    # (BAL-PROJ-9), ties included (two siras topped by the same rank, say)
    from jojotte_records.cards import iter_cards
    from jojotte_records.rules.baloot import BalootOptions, BalootRules
    from jojotte_records.rules.baloot_cards import KINDS, iter_projects, project_key

    rules = BalootRules(BalootOptions.parse(variant) if variant else None)
    state = rules.initial_state(0)
    rng = random.Random(9)
    cards = list(BALOOT_PACK.cards)
    ties = 0
    for n in range(3000):
        hand = 0
        for c in rng.sample(cards, 8):
            hand |= 1 << c
        if n % 2:  # two runs of one length and top in two suits: equal keys
            hand, length = 0, rng.choice((3, 4))
            top = rng.randrange(6 + length, 15)  # the run's lowest rank a seven or above
            for suit in rng.sample(range(4), 2):
                for r in range(top - length + 1, top + 1):
                    hand |= 1 << (suit * 16 + r)
        trump, contract = rng.choice([(-1, "sun"), (0, "hokum"), (1, "hokum"), (2, "hokum"), (3, "hokum")])
        s = state._replace(full=(hand, 0, 0, 0), contract=contract, trump=trump)
        sun = contract == "sun"
        for kind in KINDS:
            found = [p for p in iter_projects(hand, sun) if p.kind == kind]
            keys = [project_key(p, sun, 0, trump, rules.options.project_tie_trump_priority) for p in found]
            want = max(found, key=lambda p: project_key(p, sun, 0, trump, rules.options.project_tie_trump_priority),
                       default=None)
            ties += len(keys) > 1 and keys.count(max(keys)) > 1
            assert rules._declared_project(s, 0, kind) == want, (sorted(iter_cards(hand)), contract, kind)
    assert ties >= 20


def test_a_memoised_baloot_score_is_the_score_of_its_summary():
    # `BalootRules.score_hand` memoises `score_summary` on (the hand's summary, the options), shared by every rules
    # object: hands scored under one set of options, then under another that counts otherwise, score as `score_summary`
    # scores them afresh
    from jojotte_records.rules import baloot
    from jojotte_records.rules.baloot import BalootOptions, BalootRules, score_summary

    states = []
    for summary, hands in validate_stream(iter_records(_text("baloot", 150, 8), "t.jjt")):
        states += [v.state for v in hands if v.state is not None and v.score is not None]
    baloot._SCORES.clear()
    differs = 0
    for options in (BalootOptions(), BalootOptions.parse("counting_team=always_defenders; project_multiplier=full"),
                    BalootOptions()):
        rules = BalootRules(options)
        for s in states:
            h = rules.summary(s)
            if h is None:
                continue
            got = rules.score_hand(s)
            assert got == score_summary(h, options)
            differs += got != score_summary(h, BalootOptions())
    assert len(states) >= 100 and differs >= 10


def test_a_compact_trick_line_is_read_as_the_whole_line_is_whatever_its_number():
    # `SessionReader.compact_trick` reads a trick's items once per session whatever the trick's number (memoised on
    # the text after ``trick N: ``): each line, canonical or nearly, is what `_read_trick2` reads of the whole line,
    # its items read with a warm memo under every number and under numbers that are not canonical
    from jojotte_records.notation.text import SessionReader

    header = next(iter(iter_records(_text("jojotte", 3, 1), "t.jjt")))
    rng = random.Random(7)
    bodies = [ln.partition(": ")[2] for ln in _text("jojotte", 30, 8).split("\n") if ln.startswith("trick ")]
    bodies += ["A KH jo, B AH -> B", "A KH jotte, B AH -> A", "B 7s, A 8S", "A KH, B AH ->  B", "A KH,B AH", "A KH, B ?",
               "A KH, C AH", "A KH, B AH, A 7S", "A KH", "A KH, B AH -> ", "A KH , B AH", "A KH, B AH jo jo", "A 1H, B AH"]
    heads = ["trick 1: ", "trick 9: ", "trick 10: ", "trick 123456: ", "trick 1234567: ", "trick 01: ", "trick 0: ",
             "trick +1: ", "trick -1: ", "trick \u0661: ", "trick \u00b9: ", "trick 1 : ", "trick 1:", "trick : ", "trick  1: ",
             "trick x: ", "tricks 1: ", "Trick 1: ", "trick 1:  "]
    reader = SessionReader(header)
    taken = refused = 0
    for body in bodies + [rng.choice(bodies) for _ in range(200)]:
        for head in heads:
            text = head + body
            two = SessionReader(header)._read_trick2(text)
            got = reader.compact_trick(text)
            if two is None:
                assert got is None, text
                refused += 1
                continue
            number, sa, ca, aa, _, sb, cb, ab, _, w = two
            assert got == (number, sa, ca, aa, sb, cb, ab, w), text
            taken += 1
    assert taken > 500 and refused > 500


def test_a_compact_deal_line_is_read_as_read_deal_reads_it():
    # `SessionReader.compact_deal` reads a canonical two-player deal line in one split: what it reads is what
    # `read_deal` reads (as the masks of each seat's first cards and draw), and it leaves every other spelling to
    # `read_deal` (None)
    from jojotte_records.cards import mask_of
    from jojotte_records.notation.text import SessionReader

    header = next(iter(iter_records(_text("jojotte", 3, 1), "t.jjt")))
    reader = SessionReader(header)
    rng = random.Random(9)
    lines = [ln for ln in _text("jojotte", 60, 10).split("\n") if ln.startswith("deal ")]
    assert len(lines) > 50
    drawn = [ln for ln in lines if " + " in ln]  # not a hand all passed (no draw written): `read_deal`'s
    odd = []
    for ln in drawn[:40]:
        a, b = ln[5:].split("; ")
        words = ln.split(" ")
        k = rng.choice([i for i, w in enumerate(words) if i not in (0, 1, 8, 12, 19)])
        odd += [f"deal {b}; {a}", ln.lower(), ln.replace("A:", "a:"), ln.replace(" + ", " +", 1), ln.replace("; ", ";"),
                ln.replace("; ", " ; "), ln + " ", ln.replace(" ", "  ", 3), ln[:-3], ln + " 7S", ln.replace(" + ", " / ", 1),
                " ".join(words[:k] + ["?"] + words[k + 1:]), " ".join(words[:k] + ["1S"] + words[k + 1:]),
                " ".join(words[:k] + [words[k].lower()] + words[k + 1:]), ln.replace("B:", "C:"), ln.replace("B:", "A:"),
                ln.replace(";", ":", 1), ln.replace(" + ", " - ", 1), f"deal {a}", ln.replace(";", "; B: 7S 8S;", 1)]
    taken = 0
    for ln in lines + odd:
        got = reader.compact_deal(ln)
        if got is not None:
            (d0, d1), (r0, r1) = reader.read_deal(ln)
            assert got == (mask_of(d0), mask_of(d1), mask_of(r0), mask_of(r1)), ln
            taken += 1
    assert len(drawn) > 40 and all(reader.compact_deal(ln) is not None for ln in drawn)
    assert taken >= len(drawn) + 40  # and a card in lowercase


def test_the_line_memos_are_shared_by_the_sessions_of_the_same_seats_only():
    # the fast paths' memos of lines read are kept across the sessions of a process, per seats and sheet's columns
    # (`notation.text._LINE_MEMOS`): the same sessions read warm, after sessions of other games whose lines they also
    # hold (written under another game's tag: other seats, unknown seats), read as they read cold, in full and compactly
    from jojotte_records.notation import text as text_mod

    sessions = [_text("jojotte", 40, 3), _text("jojotte-3", 30, 4), _text("jojotte-4p", 30, 5),
                mutate(_text("jojotte", 40, 6), random.Random(6))]
    games = ['[Game "jojotte"]', '[Game "jojotte-3"]', '[Game "jojotte-4p"]', '[Game "jojotte"]']
    # each session's hands under each game's tag: lines of the same text read by readers of other seats
    texts = [s.replace(g, other, 1) for s, g in zip(sessions, games) for other in games[:3]]
    assert all(other in t for t, other in zip(texts, games[:3] * 4))

    def read(text, compact):
        return [x.record() if isinstance(x, CompactHand) else x for x in iter_records(text, "t.jjt", compact=compact)]

    for compact in (False, True):
        cold = []
        for t in texts:
            text_mod._LINE_MEMOS.clear()
            cold.append(read(t, compact))
        for _ in range(2):
            for t, want in zip(texts, cold):
                assert read(t, compact) == want
    assert len(text_mod._LINE_MEMOS) == 3


def test_the_fast_replay_reads_the_same_plain_tricks_from_either_reading():
    # `JojotteFast._play` reads each trick as plain values, ``(number, seat, card, announce, seat, card, announce,
    # winner)``: a compact hand's (`SessionReader.compact_trick`) and a full record's (`fast_jojotte._plain_tricks`) are
    # the full reader's trick of the same line, announcements and written winners included; a trick of other than two
    # cards, or with a call among its cards (a late dix), has none (the hand is explained)
    from jojotte_records.notation.model import Call
    from jojotte_records.replay.fast_jojotte import _plain_tricks

    rng = random.Random(21)
    lines = _oddities(mutate(_text("jojotte", 150, 21), rng), random.Random(22)).split("\n")
    for i, ln in enumerate(lines):  # words said with the cards, and winners written (legal or not: read as written)
        if ln.startswith("trick ") and ln.count(",") == 1 and rng.random() < 0.3:
            first, second = ln.split(", ")
            lines[i] = rng.choice((f"{first} jo, {second}", f"{first}, {second} jotte", f"{first}, {second} -> A",
                                   f"{first} jotte, {second} -> B"))
    compact = [x for x in iter_records("\n".join(lines), "t.jjt", compact=True) if isinstance(x, CompactHand)]
    announced = written = 0
    for h in compact:
        record = h.record()
        want = [(t.number, t.plays[0].seat, t.plays[0].card, t.plays[0].announce, t.plays[1].seat, t.plays[1].card,
                 t.plays[1].announce, t.winner) for t in record.tricks]
        assert h.tricks == want == _plain_tricks(record.tricks)
        announced += any(x[3] or x[6] for x in want)
        written += any(x[7] >= 0 for x in want)
    assert len(compact) > 100 and announced > 20 and written > 3
    t = record.tricks[0]
    assert _plain_tricks([t, t._replace(plays=t.plays[:1])]) is None
    assert _plain_tricks([t._replace(plays=t.plays + t.plays[:1])]) is None
    assert _plain_tricks([t._replace(calls=((1, Call(t.plays[1].seat, "dix")),))]) is None


def test_a_compact_deal_with_a_card_shown_twice_is_read_in_full():
    # JJ-DEAL-5, JJ-INV-1: a canonical deal line whose first card is written as the turned card, and played as it is
    # wherever the first card is, no score written (the points change): the play holds together, so only the count of
    # the cards the deal shows (`JojotteRules.dealt_in_full`, on the masks `compact_deal` reads) can refuse the hand,
    # which is then read in full
    hands = ["\n".join(ln for ln in h.split("\n") if not ln.startswith("score "))
             for h in _text("jojotte", 80, 12).split("\n\n")]
    changed = 0
    for i, hand in enumerate(hands[2:], 2):
        lines = hand.split("\n")
        deal = next(ln for ln in lines if ln.startswith("deal "))
        turned = next(ln for ln in lines if ln.startswith("turned ")).split(" ")[1]
        first = deal.split(" ")[2]
        if " + " not in deal or any(first in ln for ln in lines if ln.startswith("after ")):
            continue
        swap = {first: turned, first + ",": turned + ","}
        hands[i] = "\n".join(ln if ln.startswith(("hand ", "turned ")) else " ".join(swap.get(w, w) for w in ln.split(" "))
                             for ln in lines)
        changed += 1
    text = "\n\n".join(hands)
    full, _, _, _ = _by_compact(text, False)
    cited = [{i.rule for i in v.issues} for _, kept in full for v in kept]
    assert changed >= 30 and len(cited) >= changed and all(rules & {"JJ-DEAL-5", "JJ-INV-1"} for rules in cited), cited
    read, again = _same_with_compact_reading(text)
    assert again >= changed
