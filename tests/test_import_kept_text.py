"""The import keeps a hand's text as read instead of writing it again (issue 14 item 3: import at the speed of
validation), and only when it is what the writer writes (`notation.codec.KeptText`).

The reference is the writer (`write_hand`): on simulated sessions of every Jo-Jotte form, on the same sessions
mutated by the fast-path test's mutator (a card, a call, a figure, a line changed or dropped) and on sessions
respelled by hand (a card in lower case, two spaces, a line out of its order or written twice, an unsorted deal
…), every text kept is the writer's, byte for byte. The test also checks that it tests something: the clean
records are kept, and the respelled lines are refused. The importer's `session_text`, which held the writer's
text before, is compared whole with `write_session`.
"""

from __future__ import annotations

import hashlib
import io
import random

import duckdb
import pytest
from test_fast_path import mutate

from jojotte_records.archive.rows import JojotteRecordRows, record_rows_for
from jojotte_records.archive.store import import_paths, session_texts
from jojotte_records.games import rules_for
from jojotte_records.notation.model import HandRecord, SessionHeader
from jojotte_records.notation.text import iter_records, read_sessions, write_hand, write_session, write_stream
from jojotte_records.play.simulate import simulate_items

GAMES = [("jojotte", ""), ("jojotte", "nullo_bidder_may_meld; sequence_tie=defender"), ("jojotte-3", ""),
         ("jojotte-4p", "")]


def _text(game: str, hands: int, seed: int, variant: str = "") -> str:
    out = io.StringIO()
    write_stream(simulate_items(game, hands, seed, variant), out)
    return out.getvalue()


def _kept(text: str) -> tuple[int, int, int]:
    """(hands, hands whose lines the fast paths read wholly, hands kept); every text kept is the writer's."""
    texts: list = []
    form = None
    hands = read = kept = 0
    for item in iter_records(text, "t.jjt", texts=texts):
        if isinstance(item, SessionHeader):
            form = record_rows_for(rules_for(item)[0])
            continue
        hands += 1
        lines = texts[-1][1] if texts and texts[-1][0] is item else None
        texts.clear()
        if lines is None or not isinstance(form, JojotteRecordRows):
            continue
        assert isinstance(item, HandRecord)
        read += 1
        got = form.kept(item, lines)
        if got is not None:
            kept += 1
            assert got == write_hand(item, form.labels, form.columns), f"hand {item.number}: kept text is not the writer's"
            assert form.write(item, lines) == got
    return hands, read, kept


# what a hand writer of the text notation may do otherwise than the canonical writer: every one reads the same
# hand (or one the validator explains), and none is written so by `write_hand`
def _respell(line: str, rng: random.Random) -> list[str]:
    words = line.split(" ")
    what = rng.choice(("lower", "double", "trailing", "tab", "keyword", "number", "twice", "unsorted", "comma"))
    if what == "lower":
        cards = [i for i, w in enumerate(words) if len(w.rstrip(",;")) == 2 and w[0] in "AKQJT987" and w[1] in "SHDC"]
        if cards:
            i = rng.choice(cards)
            words[i] = words[i][:2].lower() + words[i][2:]
    elif what == "double" and len(words) > 2:
        i = rng.randrange(1, len(words))
        words[i] = " " + words[i]
    elif what == "trailing":
        words[-1] += " "
    elif what == "tab" and len(words) > 2:
        return ["\t".join(words[:2]) + " " + " ".join(words[2:])]
    elif what == "keyword":
        words[0] = words[0].capitalize()
    elif what == "number" and words[0] == "trick":
        words[1] = "0" + words[1]
    elif what == "twice":
        return [line, line]
    elif what == "unsorted" and words[0] == "deal":
        groups = " ".join(words[1:]).split("; ")
        first = groups[0].split(" ")
        if len(first) > 3:
            first[1], first[2] = first[2], first[1]
            groups[0] = " ".join(first)
            return ["deal " + "; ".join(groups)]
    elif what == "comma":
        return [line.replace(", ", ",", 1)]
    return [" ".join(words)]


def respell(text: str, rng: random.Random, rate: float = 0.5) -> str:
    """The text with about ``rate`` of its hands changed in spelling once, or two of their lines swapped."""
    out: list[str] = []
    hand: list[str] = []

    def flush():
        if len(hand) > 2 and rng.random() < rate:
            if rng.random() < 0.25:
                i = rng.randrange(1, len(hand) - 1)
                hand[i], hand[i + 1] = hand[i + 1], hand[i]
            else:
                i = rng.randrange(1, len(hand))
                hand[i:i + 1] = _respell(hand[i], rng)
        out.extend(hand)
        hand.clear()

    for line in text.split("\n"):
        if line.startswith("hand ") or not line.strip() or line.startswith("["):
            flush()
            if line.startswith("hand "):
                hand.append(line)
            else:
                out.append(line)
        else:
            hand.append(line)
    flush()
    return "\n".join(out)


@pytest.mark.parametrize("game,variant", GAMES)
def test_simulated_hands_are_kept_as_written(game, variant):
    hands, read, kept = _kept(_text(game, 120, 3, variant))
    assert hands >= 120
    # a session's first hand is read by the tokenizer (and a few three-player lines); every hand read wholly by the
    # fast paths is kept
    assert read >= hands * 0.9 and kept == read


@pytest.mark.parametrize("game,variant", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_mutated_hands_kept_are_the_writer_s(game, variant, seed):
    hands, read, kept = _kept(mutate(_text(game, 120, seed, variant), random.Random(seed), rate=0.6))
    assert kept >= hands // 3


@pytest.mark.parametrize("game,variant", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_respelled_hands_are_written_again(game, variant, seed):
    text = _text(game, 120, seed, variant)
    hands, read, kept = _kept(respell(text, random.Random(seed)))
    clean, _, clean_kept = _kept(text)
    assert hands == clean and 0 < kept < clean_kept - hands // 5  # the respelled hands are refused, the rest kept


def test_a_line_kept_once_is_remembered_for_the_session():
    text = _text("jojotte", 60, 4)
    texts: list = []
    form = None
    for item in iter_records(text, "t.jjt", texts=texts):
        if isinstance(item, SessionHeader):
            form = record_rows_for(rules_for(item)[0])
        elif texts:
            form.write(item, texts.pop()[1])
    remembered = sum(len(s) for s in form.kept.seen.values())
    # the lines remembered: each line of those kinds of every hand kept (all but the first), once
    later = text.split("\nhand ", 2)[2].split("\n")
    lines = [ln for ln in later if ln.split(" ")[0] in ("turned", "info", "auction", "after", "trick", "score")]
    assert remembered == len(set(lines)) < len(lines)


@pytest.mark.parametrize("respelled", [False, True])
def test_the_archive_holds_the_writer_s_text(tmp_path, respelled):
    text = mutate(_text("jojotte", 150, 7), random.Random(7), rate=0.3)
    if respelled:
        text = respell(text, random.Random(7))
    path = tmp_path / "s.jjt"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "a.duckdb"
    [r] = list(import_paths(db, [str(path)]))
    assert r.status == "imported"
    whole = write_session(read_sessions(text)[0])
    assert [t for _, _, t in session_texts(db)] == [whole]
    conn = duckdb.connect(str(db), read_only=True)
    try:
        assert conn.execute("SELECT content_hash FROM sessions").fetchone()[0] == hashlib.sha256(whole.encode()).hexdigest()
    finally:
        conn.close()
