"""Guided entry of a session at the table: the engine behind ``jojotte record``.

`Recorder` is a pure state machine over a session file, testable without a
terminal. It asks the next question (`Recorder.question`), offers the legal
choices from the rules core, and takes one answer at a time
(`Recorder.answer`): an illegal entry is refused on the spot with the rule ID
and the legal alternatives (`Refusal`, a value, never an exception). Every
entry of the hand being entered can be undone (`Recorder.undo`), back into the
last saved hand: that hand is reopened in memory, and the file keeps it until it
is complete again and the file is rewritten at once (temporary file, fsync,
``os.replace``), so a crash meanwhile loses nothing that was saved.

Nothing is lost: each completed hand is appended to the file in canonical
notation, flushed and fsynced at once; an interrupted entry loses at most the
hand being entered, and a new `Recorder` on the same file resumes the session
(it reads the hands already there, checks them, and asks for the next hand).

A hand is asked in the order it happens: the dealer, the cards dealt to each
player (or ``?`` when they were not recorded), the turned card, the calls of the
auction, the cards drawn and the information card, the calls after the draw
(Nullo, Slam, melds, the dix), then each card played (``claim`` concedes the
rest). Instead of the first card, ``result`` enters the hand as a summary: the
tricks and trick points of each player (the contract, doubling, Nullo, Slam and
melds are the calls already entered). The score is computed by the validator
and written with the hand; when the hand cannot be scored from what was entered,
the recorder asks for the score written at the table.

Pitch and Baloot (the games recorded as a log of events) are guided by `EventRecorder`, which
``Recorder(...)`` gives for them: one engine over the rules' event protocol (`rules.base.EventRules`),
asking each chance event item by item (each seat's cards) and each player's action as the words of
its written item, with nothing specific to either game.
"""

from __future__ import annotations

import copy
import datetime as _dt
import os
from pathlib import Path
from typing import NamedTuple

from ..cards import card_name, mask_of, parse_card
from ..errors import Issue, number_too_large, plain_digits
from ..notation.model import UNKNOWN_CARD, Call, HandRecord, Play, SeatResult, SessionHeader, Trick, WrittenScore
from ..notation.text import iter_records, read_sessions, sheet_labels, write_hand, write_header, written_score_text
from ..replay.engine import HandRun, replay_steps
from ..replay.jojotte import HandVerdict, SessionValidator
from ..rules.base import CHANCE, Action, Violation, find_variant, violation_message

__all__ = ["Question", "Refusal", "Accepted", "Recorder", "RecorderError"]


class RecorderError(Exception):
    """The file cannot be recorded into (another game, other players, unreadable)."""


class Question(NamedTuple):
    """What the recorder asks now.

    ``key`` is one of ``dealer dealt turned call drawn info after play result score keep`` (Pitch and Baloot:
    ``dealer chance action``);
    ``seat`` the seat concerned (-1 for none); ``text`` the question in plain words;
    ``choices`` the legal entries (for display); ``words`` the words to complete.
    """

    key: str
    seat: int
    text: str
    choices: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    default: str | None = None


class Refusal(NamedTuple):
    """An entry that was not taken: the rule it breaks (``NOTATION`` for unreadable text), why, and what is legal."""

    rule: str
    message: str
    legal: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"refused: {self.message} ({self.rule})"
        if self.legal:
            text += "; legal: " + ", ".join(self.legal)
        return text


class Accepted(NamedTuple):
    """An entry taken. ``verdict`` is set when it completed a hand, which is then saved in the file."""

    text: str
    verdict: HandVerdict | None = None


# --- the steps of a hand --------------------------------------------------------
# ("dealer", seat) ("dealt", seat, cards | None) ("turned", card) ("call", Call) ("drawn", seat, cards | None)
# ("info", card | -1) ("after", Call) ("play", Play) ("claim", seat) ("result", SeatResult) ("keep",)
# ("score", WrittenScore)


class _Replay(NamedTuple):
    state: object | None
    question: Question | None  # None: the hand is complete
    record: HandRecord


class _Entered(NamedTuple):
    """The entries of the hand being entered, by kind (see the steps above)."""

    dealer: int | None
    dealt: dict
    drawn: dict
    turned: int | None
    info: int | None
    auction: list
    after: list
    plays: list
    claim: int
    result: list
    keep: bool
    summary: bool
    score: WrittenScore | None

    @classmethod
    def of(cls, steps: list[tuple]) -> _Entered:
        def first(kind, default=None):
            return next((s[1] for s in steps if s[0] == kind), default)

        def every(kind):
            return [s[1] for s in steps if s[0] == kind]
        return cls(first("dealer"), {s[1]: s[2] for s in steps if s[0] == "dealt"},
                   {s[1]: s[2] for s in steps if s[0] == "drawn"}, first("turned"), first("info"), every("call"),
                   every("after"), every("play"), first("claim", -1), every("result"),
                   any(s[0] == "keep" for s in steps), any(s[0] == "result_start" for s in steps), first("score"))


def _unplaced(ctx, action, violation) -> tuple[dict, None]:
    return {}, None


_KEPT = " (the file keeps it as saved until it is complete again)"


def _replace_durably(path: Path, text: str) -> None:
    """Write ``text`` as the file ``path`` at once: a temporary file beside it, fsynced, renamed over it, and the
    folder fsynced. A crash at any moment leaves the old file or the new one, whole."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    """Make a file's name in ``folder`` durable (after a create or a rename)."""
    try:
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - a platform without directory descriptors
        return
    try:
        os.fsync(dfd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(dfd)


class Recorder:
    """Guided entry into a session file. See the module documentation.

    For a game recorded as a log of events (Pitch, Baloot) ``Recorder(...)`` gives an `EventRecorder`."""

    events = False
    # where in the file the reopened hand(s) start (see `undo`): rewritten from there when saved again
    _rewrite_from: int | None = None
    reopened = 0  # how many saved hands `undo` reopened: the file still holds them as saved

    def __new__(cls, path: str | os.PathLike, game: str | None = None, *args, **kwargs):
        if cls is Recorder:
            tag = _game_tag(Path(path))
            if _is_event_game(tag or game):
                cls = EventRecorder
        return super().__new__(cls)

    def __init__(self, path: str | os.PathLike, game: str | None = None, players: list[str] | None = None,
                 tags: dict[str, str] | None = None, lock: bool = False):
        self.path = Path(path)
        self._lock = None
        if lock:
            self.lock()  # before reading: a second recorder must not touch the file
        try:
            self._open(game, players, tags)
        except BaseException:
            self.unlock()
            raise

    def _open(self, game: str | None, players: list[str] | None, tags: dict[str, str] | None) -> None:
        self.tags = dict(tags or {})
        self.hands: list[HandRecord] = []
        self.verdicts: list[HandVerdict] = []
        self.resumed_issues: list[Issue] = []
        self.torn: str | None = None  # a damaged last hand moved aside on resume
        text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        if text.strip():
            self._resume(text, game, players)
        else:
            self.cls = _game_class(game or "jojotte")
            self.game = self.cls.name
            labels = self.cls.seat_labels
            self.header = self._new_header(labels, players)
            self.header_written = False
            self.validator = SessionValidator(self.header)
            if self.validator.session_issues:
                raise RecorderError(self.validator.session_issues[0].message)
        self.rules = self.validator.rules
        self.labels = self.cls.seat_labels
        self.columns = sheet_labels(self.header)
        self.names = self.validator.names
        self.steps: list[tuple] = []
        try:
            self._has_info = self.rules.deal(sorted(self.rules.pack.cards), 0)[3] >= 0
        except Exception:  # pragma: no cover - a form without a deal function
            self._has_info = True

    # --- one recorder per file ---------------------------------------------------
    def lock(self) -> None:
        """Hold an advisory lock on ``FILE.lock`` for as long as this recorder lives (released by `unlock` or at exit,
        also on a crash), so that two terminals cannot append to the same session.

        Raises:
            RecorderError: another recorder holds the file.
        """
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX: no lock
            return
        lock_path = Path(str(self.path) + ".lock")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise RecorderError(f"{self.path} is being recorded by another `jojotte record` (lock {lock_path})") from None
        self._lock = (fd, lock_path)

    def unlock(self) -> None:
        held = getattr(self, "_lock", None)
        if held is None:
            return
        fd, lock_path = held
        self._lock = None
        try:
            lock_path.unlink()
        except OSError:
            pass
        os.close(fd)

    # --- resuming ---------------------------------------------------------------
    def _resume(self, text: str, game: str | None, players: list[str] | None) -> None:
        sessions = read_sessions(text, str(self.path))
        if len(sessions) != 1:
            raise RecorderError(f"{self.path} holds {len(sessions)} sessions; record into a file of one session")
        session = sessions[0]
        hands = list(session.hands)
        self.header = session.header
        self.header_written = True
        self.cls = self._game_class(self.header.get("Game") or "jojotte")
        if game and self._game_class(game) is not self.cls:
            raise RecorderError(f"{self.path} is a session of {self.cls.name}, not {game}")
        self.game = self.cls.name
        self.validator = self._validator(self.header)
        self._adopt(text, hands, players)

    @staticmethod
    def _game_class(game: str):
        return _game_class(game)

    def _validator(self, header: SessionHeader):
        return SessionValidator(header)

    @staticmethod
    def _offset_of_line(text: str, line: int) -> int:
        """Where line ``line`` starts, minus the blank lines before it."""
        pos = 0
        for _ in range(line - 1):
            nl = text.find("\n", pos)
            if nl < 0:
                return len(text)
            pos = nl + 1
        while pos >= 2 and text[pos - 2] == "\n":
            pos -= 1
        return pos

    def _truncate(self, offset_chars: int) -> None:
        text = self.path.read_text(encoding="utf-8")
        data = text[:offset_chars].encode("utf-8")
        with open(self.path, "r+b") as f:
            f.truncate(len(data))
            f.flush()
            os.fsync(f.fileno())

    def _new_header(self, labels, players: list[str] | None) -> SessionHeader:
        """The tags of a new session: the event's (``--event``, ``--round`` …), today's date unless given, the game and
        the players (the seat labels when none are named)."""
        names = [n.strip() for n in (players or []) if n.strip()] or list(labels)
        if len(names) != len(labels):
            raise RecorderError(f"{self.cls.title} has {len(labels)} players ({' '.join(labels)}); {len(names)} named")
        tags_out = [("Event", self.tags.get("Event", "")), ("Site", self.tags.get("Site", "")),
                    ("Date", self.tags.get("Date", _dt.date.today().strftime("%Y.%m.%d"))),
                    ("Round", self.tags.get("Round", "")), ("Table", self.tags.get("Table", "")),
                    ("Game", self.cls.name), ("Players", "; ".join(names))]
        for k, v in self.tags.items():
            if k not in dict(tags_out):
                tags_out.append((k, v))
        return SessionHeader(tuple((k, v) for k, v in tags_out if v), source=str(self.path))

    def _adopt(self, text: str, hands: list, players) -> None:
        """Take over the hands already in the file: check the players named, move aside a last hand cut short by a
        crash while it was written (unreadable, or without its score line: the recorder writes one with every hand,
        so a last hand without one in a file whose other hands all have one), and validate the rest."""
        if players:
            want = [n.strip() for n in players if n.strip()]
            if want and tuple(want) != tuple(self.validator.names):
                raise RecorderError(f"{self.path} is a session of {', '.join(self.validator.names)}, not {', '.join(want)}")
        cut_short = hands and hands[-1].score is None and all(h.score is not None for h in hands[:-1])
        if hands and (cut_short or any(i.kind == "syntax" for i in hands[-1].issues) or not text.endswith("\n")):
            cut = self._offset_of_line(text, hands[-1].line)
            self.torn = text[cut:]
            _replace_durably(Path(str(self.path) + ".torn"), self.torn)  # durable before the file loses it
            self._truncate(cut)
            hands.pop()
        for h in hands:
            v = self.validator.check_hand(h)
            self.hands.append(h)
            self.verdicts.append(v)
            self.resumed_issues.extend(v.issues)

    # --- the session so far -------------------------------------------------------
    @property
    def hand_number(self) -> int:
        return (self.hands[-1].number + 1) if self.hands else 1

    @property
    def sheet(self):
        return self.validator.sheet

    def sheet_rows(self) -> list[tuple[str, int, int, int, int, int]]:
        """The running score sheet: (name, below, above, games in the rubber, rubbers, total) per column."""
        s = self.validator.sheet
        return [(self.validator.sheet_names[i], s.below[i], s.above[i], s.games[i], s.rubbers[i], s.total[i])
                for i in range(len(self.columns))]

    def in_hand(self) -> bool:
        """Whether part of a hand has been entered (and would be lost on interruption)."""
        return bool(self.steps)

    def _msg(self, v: Violation) -> str:
        return violation_message(v, self.names)

    # --- replaying the steps of the hand being entered ------------------------------
    def _replay(self, steps: list[tuple]) -> _Replay:
        """Where the hand being entered is: the state the replay engine reaches on its entries, and the next
        question (None: the hand is complete and is saved)."""
        e = _Entered.of(steps)
        rec = self._record(e)
        q = self._deal_question(e)
        if q is not None:
            return _Replay(None, q, rec)
        state = self._drive(e.dealer, [self._deal_action(e), *(Action(c.seat, c.kind, suit=c.suit) for c in e.auction)])
        if state.phase == "auction":
            seat = self.rules.current_player(state)
            choices = tuple(_call_word(a.kind, a.suit) for a in self.rules.legal_actions(state))
            return _Replay(state, Question("call", seat, f"auction: {self._who(seat)} calls", choices, _words(choices)), rec)
        if state.phase == "draw":
            q = self._draw_question(e, state)
            if q is not None:
                return _Replay(state, q, rec)
            masks = tuple(mask_of(c for c in (e.drawn.get(i) or ()) if c != UNKNOWN_CARD) for i in range(self.rules.seats))
            actions = [Action(CHANCE, "draw", cards=masks, info=e.info if e.info is not None else -1)]
            actions += [Action(c.seat, c.kind, melds=c.melds) for c in e.after]
            actions += [Action(p.seat, "play", card=p.card, announce=p.announce) for p in e.plays]
            state = self._drive(e.dealer, actions, state)
            q = self._play_question(e, state)
            if q is not None:
                return _Replay(state, q, rec)
        return _Replay(state, self._complete_question(e, rec), rec)

    def _drive(self, dealer: int, actions: list[Action], state=None):
        """The state after ``actions`` from ``state`` (the state before the deal when None), reached by the one
        replay engine (`replay.engine.replay_steps`), every action checked as the validator checks it."""
        run = HandRun(self.rules, self.names, [], [], str(self.path), 0, self.hand_number)
        run.state = self.rules.initial_state(dealer) if state is None else state
        replay_steps(self.rules, run, ((a, _unplaced, None) for a in actions))
        if run.issues:  # each entry was checked when it was typed, in this same state: a bug, not an entry
            raise RecorderError(f"the entries of hand {self.hand_number} no longer replay: {run.issues[0].message}")
        return run.state

    def _record(self, e: _Entered) -> HandRecord:
        """The hand as entered so far."""
        seats, tpt = self.rules.seats, self.rules.trick_size
        d = tuple(e.dealt.get(i) for i in range(seats))
        dr = None
        if any(x is not None for x in d) and e.drawn:
            dr = tuple(None if d[i] is None else (e.drawn.get(i) or ()) for i in range(seats))
        tricks = tuple(Trick(k // tpt + 1, tuple(e.plays[k:k + tpt])) for k in range(0, len(e.plays), tpt))
        return HandRecord(self.hand_number, e.dealer if e.dealer is not None else -1, d, dr, dr is not None,
                          e.turned, e.info if e.info is not None and e.info >= 0 else None, None, tuple(e.auction),
                          tuple(e.after), tricks, e.claim, tuple(e.result), e.score)

    def _cards_left(self, taken: int, unknown: bool = True) -> tuple[str, ...]:
        return tuple(card_name(c) for c in _canonical(self.rules.pack.cards) if not taken >> c & 1) + (("?",) if unknown else ())

    def _deal_question(self, e: _Entered) -> Question | None:
        """The dealer, each seat's cards dealt and the turned card, asked before there is a state."""
        rules, labels = self.rules, self.labels
        if e.dealer is None:
            exp = self.validator.expected_dealer
            choices = self._dealer_choices()
            return Question("dealer", -1, f"hand {self.hand_number}: who deals?", choices, choices,
                            labels[exp] if exp >= 0 else None)
        taken = mask_of(c for x in e.dealt.values() if x for c in x if c != UNKNOWN_CARD)
        for i in range(rules.seats):
            n = rules.dealt_to(i, e.dealer)
            if n > 0 and i not in e.dealt:
                return Question("dealt", i, f"{self._who(i)}: the {n} cards dealt (or ? if not recorded)", (),
                                self._cards_left(taken))
        if e.turned is None:
            return Question("turned", -1, "the turned card", (), self._cards_left(taken, unknown=False))
        return None

    def _deal_action(self, e: _Entered) -> Action:
        init, unknown = [], []
        for i in range(self.rules.seats):
            d = e.dealt.get(i)
            m = mask_of(c for c in d if c != UNKNOWN_CARD) if d is not None else 0
            init.append(m)
            unknown.append(self.rules.dealt_to(i, e.dealer) - m.bit_count())
        return self.rules.deal_action(tuple(init), e.turned, tuple(unknown))

    def _draw_question(self, e: _Entered, state) -> Question | None:
        """Each seat's cards drawn, then the information card."""
        rules = self.rules
        for i in range(rules.seats):
            if e.dealt.get(i) is not None and rules.drawn_to(i, e.dealer) > 0 and i not in e.drawn:
                return Question("drawn", i, f"{self._who(i)}: the {rules.drawn_to(i, e.dealer)} cards drawn (or ?)", (),
                                self._cards_left(state.seen))
        if e.info is None and self._has_info:
            seen = state.seen | mask_of(c for x in e.drawn.values() if x for c in x if c != UNKNOWN_CARD)
            return Question("info", -1, "the information card (or ?)", (), self._cards_left(seen))
        return None

    def _play_question(self, e: _Entered, state) -> Question | None:
        """A call after the draw, a seat's result of a summary entry, or the next card (None: the play is over)."""
        rules = self.rules
        if state.phase == "after":
            seat = rules.current_player(state)
            choices = tuple(dict.fromkeys(self._action_text(a, seat) for a in rules.legal_actions(state)))
            return Question("after", seat, f"after the draw: {self._who(seat)} calls", choices, _words(choices) + ("melds",))
        if state.phase != "play" or e.claim >= 0:
            return None
        if e.summary:
            ps = rules.playing_seats(state)
            if len(e.result) >= len(ps):
                return None
            seat = ps[len(e.result)]
            return Question("result", seat, f"result: {self._who(seat)}'s tricks and trick points (e.g. 5 82)")
        seat = rules.current_player(state)
        acts = sorted(rules.legal_actions(state), key=lambda a: (a.kind != "play", a.card >> 4, -(a.card & 15), a.announce))
        choices = [self._action_text(a, seat) for a in acts]
        words = list(_words(choices))
        if state.unknown[seat]:
            words += self._cards_left(state.seen, unknown=False)
            choices.append("(a card not recorded)")
        extra = ["claim"] + ([] if e.plays else ["result"])
        return Question("play", seat, f"trick {state.tricks_done + 1}: {self._who(seat)} plays",
                        tuple(dict.fromkeys(choices)) + tuple(extra), tuple(dict.fromkeys(words + extra + ["jo", "jotte"])))

    def _complete_question(self, e: _Entered, rec: HandRecord) -> Question | None:
        """The hand is complete: keep a hand that breaks a rule, or the written score of one that cannot be scored."""
        if e.score is not None:
            return None
        v = copy.copy(self.validator).check_hand(rec)
        illegal = [i for i in v.issues if i.kind in ("illegal", "consistency", "syntax")]
        if illegal and not e.keep:
            first = illegal[0]
            return Question("keep", -1, f"the hand as entered breaks {first.rule}: {first.message}. "
                            "Type keep to record it as played, or undo to correct it", ("keep", "undo"), ("keep", "undo"))
        if v.entry is None:
            return Question("score", -1, "the hand cannot be scored from what was entered: the score "
                            f"written at the table (e.g. '{self.columns[0]} below 110 above 20, "
                            f"{self.columns[1]} above 40', or none)", (), ("below", "above", "none", *self.columns))
        return None

    def _who(self, seat: int) -> str:
        return f"{self.labels[seat]} ({self.names[seat]})" if self.names[seat] != self.labels[seat] else self.labels[seat]

    def _dealer_choices(self) -> tuple[str, ...]:
        """The seats that may deal the next hand: those the dealer's answer takes (issue 16: every seat was offered,
        then all but the one whose turn it is refused, JJ-DEAL-1/2, PIT-DEAL-3, BAL-DEAL-3)."""
        first = not self.hands
        return tuple(lab for i, lab in enumerate(self.labels) if self.rules.check_dealer(i) is None
                     and self.validator.wrong_dealer(i, first=first) is None) or self.labels

    def _action_text(self, a: Action, current: int) -> str:
        prefix = "" if a.seat == current else f"{self.labels[a.seat]} "
        if a.kind == "play":
            return prefix + card_name(a.card) + (f" {a.announce}" if a.announce else "")
        if a.kind == "melds":
            return prefix + "melds " + " ".join(m.text() for m in a.melds)
        return prefix + _call_word(a.kind, a.suit)

    # --- the interface ----------------------------------------------------------------
    def question(self) -> Question:
        """The next question (for a new hand, its dealer)."""
        return self._replay(self.steps).question  # type: ignore[return-value]

    def answer(self, text: str) -> Accepted | Refusal:
        """Take one answer to the current question. ``undo`` undoes the last entry."""
        text = text.strip()
        if text.lower() == "undo":
            return self._undo_answer()
        r = self._replay(self.steps)
        q = r.question
        assert q is not None
        handler = getattr(self, "_answer_" + q.key)
        out = handler(q, r, text)
        if isinstance(out, Refusal):
            if out.rule != "NOTATION" and not out.legal and q.choices:
                out = out._replace(legal=q.choices)
            return out
        step, said = out
        self.steps.append(step)
        done = self._replay(self.steps)
        if done.question is None:
            verdict = self._save(done.record)
            return Accepted(said, verdict)
        return Accepted(said)

    def _undo_answer(self) -> Accepted | Refusal:
        """The answer ``undo``: the last entry taken back, or why nothing can be (every game's recorder)."""
        msg = self.undo()
        if not msg or msg.endswith("edit the file"):
            return Refusal("UNDO", msg or "nothing to undo")
        return Accepted(msg)

    def undo(self) -> str | None:
        """Undo the last entry: of the hand being entered, or else of the last saved hand (taken off the file)."""
        if self.steps:
            step = self.steps.pop()
            return f"undone: {self._step_text(step)}"
        if not self.hands:
            return None
        last = self.hands[-1]
        steps = self._steps_of(last)
        if steps is None:
            return f"hand {last.number} was not recorded in the recorder's order and cannot be taken back here; edit the file"
        self._reopen_last(last)
        while steps and steps[-1][0] in ("score", "keep"):
            steps.pop()
        gone = steps.pop() if steps else None
        self.steps = steps
        return f"hand {last.number} reopened{_KEPT}; undone: {self._step_text(gone) if gone else 'nothing'}"

    def _reopen_last(self, last) -> None:
        """Take the last saved hand back into memory. The file keeps it (nothing on disk is removed before its
        replacement is durable): `_write_and_check` rewrites the file from here when the hand is saved again."""
        text = self.path.read_text(encoding="utf-8")
        at = self._offset_of_line(text, last.line) if last.line else len(text)
        self._rewrite_from = at if self._rewrite_from is None else min(at, self._rewrite_from)
        self.reopened += 1
        self.hands.pop()
        self.verdicts.pop()
        self._rebuild_validator()

    def _rebuild_validator(self) -> None:
        self.validator = SessionValidator(self.header)
        for h in self.hands:
            self.validator.check_hand(h)

    def _step_text(self, step: tuple) -> str:
        k = step[0]
        if k == "dealer":
            return f"dealer {self.labels[step[1]]}"
        if k in ("dealt", "drawn"):
            return f"{k} {self.labels[step[1]]}: " + (" ".join(card_name(c) if c != UNKNOWN_CARD else "?" for c in step[2]) if step[2] is not None else "?")
        if k in ("turned", "info"):
            return f"{k} {card_name(step[1]) if step[1] >= 0 else '?'}"
        if k in ("call", "after"):
            c = step[1]
            return f"{self.labels[c.seat]} " + ("melds " + " ".join(m.text() for m in c.melds) if c.kind == "melds" else _call_word(c.kind, c.suit))
        if k == "result_start":
            return "summary entry"
        if k == "play":
            p = step[1]
            return f"{self.labels[p.seat]} {card_name(p.card)}" + (f" {p.announce}" if p.announce else "")
        if k == "claim":
            return f"claim {self.labels[step[1]]}"
        if k == "result":
            r = step[1]
            return f"result {self.labels[r.seat]} {r.tricks} tricks {r.points} points"
        return k

    def _steps_of(self, h: HandRecord) -> list[tuple] | None:
        """The entries of a saved hand, to reopen it (None for a hand the recorder cannot re-enter)."""
        rules = self.rules
        if h.dealer < 0 or h.extra or h.stock is not None:
            return None
        for i, d in enumerate(h.dealt):
            if d is not None and len(d) != rules.dealt_to(i, h.dealer):
                return None  # the hand after the draw: which cards were drawn is not known
        steps: list[tuple] = [("dealer", h.dealer)]
        for i in range(rules.seats):
            if rules.dealt_to(i, h.dealer) > 0:
                steps.append(("dealt", i, h.dealt[i]))
        if h.turned is None:
            return None
        steps.append(("turned", h.turned))
        steps.extend(("call", c) for c in h.auction)
        if h.after or h.tricks or h.result or (h.info is not None):
            for i in range(rules.seats):
                if h.dealt[i] is not None and rules.drawn_to(i, h.dealer) > 0 and h.drawn is not None:
                    steps.append(("drawn", i, h.drawn[i]))
            if self._has_info:
                steps.append(("info", h.info if h.info is not None else -1))
        steps.extend(("after", c) for c in h.after)
        for t in h.tricks:
            steps.extend(("play", p) for p in t.plays)
        if h.claim >= 0:
            steps.append(("claim", h.claim))
        if h.result:
            steps.append(("result_start",))
        steps.extend(("result", r) for r in h.result)
        if h.score is not None:
            steps.append(("score", h.score))
        return steps

    # --- saving ---------------------------------------------------------------------------
    def _save(self, rec: HandRecord) -> HandVerdict:
        """Validate the complete hand, put the computed score on it, append it to the file and fsync."""
        v = copy.copy(self.validator).check_hand(rec)
        if rec.score is None and v.entry is not None:
            n = len(self.columns)
            ws = WrittenScore(tuple(v.entry.below(i) for i in range(n)), tuple(v.entry.above(i) for i in range(n)), v.entry.held_aside)
            rec = rec._replace(score=ws)
        return self._write_and_check(rec, write_hand(rec, self.labels, self.columns), SessionValidator)

    def _write_and_check(self, rec, body: str, validator_class):
        """Append a finished hand (``body``, its canonical text) to the file, after the session's tags when the file is
        new, and fsync; then validate it on the session's sheet. Returns its verdict."""
        text = ""
        if not self.header_written:
            tags = list(self.header.tags)
            if not any(k == "FirstDealer" for k, _ in tags):
                tags.append(("FirstDealer", self.labels[rec.dealer]))
            self.header = self.header._replace(tags=tuple(tags))
            text += write_header(self.header)
        text += "\n" + body
        # the line where this hand starts in the file, for a later undo
        before = self.path.read_text(encoding="utf-8") if self.path.exists() and self.header_written else ""
        if self._rewrite_from is not None:  # a reopened hand saved again: it (and what followed) is replaced
            before = before[:self._rewrite_from]
        start_line = before.count("\n") + text[:len(text) - len(body)].count("\n") + 1
        rec = rec._replace(line=start_line)
        if self._rewrite_from is not None:
            _replace_durably(self.path, before + text)
            self._rewrite_from = None
            self.reopened = 0
        else:
            self._append(text, fresh=not self.header_written)
        if not self.header_written:
            self.header_written = True
            self.validator = validator_class(self.header._replace(source=str(self.path)))
            for h in self.hands:  # pragma: no cover - no hands before the header is written
                self.validator.check_hand(h)
        verdict = self.validator.check_hand(rec)
        self.hands.append(rec)
        self.verdicts.append(verdict)
        self.steps = []
        return verdict

    def _append(self, text: str, fresh: bool = False) -> None:
        """Append ``text`` and fsync; ``fresh`` starts the file (it held nothing but blank lines)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new_file = not self.path.exists()
        with open(self.path, "w" if fresh else "a", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if new_file:  # the file's name is durable too
            _fsync_folder(self.path.parent)

    def hand_text(self, verdict: HandVerdict) -> str:
        return write_hand(verdict.record, self.labels, self.columns)

    def score_text(self, verdict: HandVerdict) -> str:
        return written_score_text(verdict.record.score, self.columns) if verdict.record.score else "none"

    # --- answers, one per question -----------------------------------------------------------
    def _seat_word(self, word: str) -> int | None:
        w = word.strip().upper()
        for i, lab in enumerate(self.labels):
            if w == lab.upper() or w == self.names[i].upper():
                return i
        return None

    def _answer_dealer(self, q: Question, r: _Replay, text: str):
        if not text and q.default:
            text = q.default
        seat = self._seat_word(text)
        if seat is None:
            return Refusal("NOTATION", f"'{text}' is not a seat", self.labels)
        v = self.rules.check_dealer(seat)
        if v is not None:
            return Refusal(v.rule, self._msg(v), self.labels)
        v = self.validator.wrong_dealer(seat, first=not self.hands)
        if v is not None:
            return Refusal(v.rule, self._msg(v), (self.labels[self.validator.expected_dealer],))
        return ("dealer", seat), f"dealer {self.labels[seat]}"

    def _cards(self, text: str) -> list[int] | Refusal:
        out = []
        for tok in text.replace(",", " ").split():
            if tok == "?":
                out.append(UNKNOWN_CARD)
                continue
            try:
                out.append(parse_card(tok))
            except ValueError:
                return Refusal("NOTATION", f"'{tok}' is not a card (a rank A K Q J T 9 8 7 then a suit S H D C)")
        return out

    def _known_elsewhere(self, r: _Replay, cards: list[int], rule: str, what: str, allow_turned: bool = False) -> Refusal | None:
        rec = r.record
        seen = 0
        for d in rec.dealt:
            if d:
                seen |= mask_of(c for c in d if c != UNKNOWN_CARD)
        if rec.drawn:
            for d in rec.drawn:
                if d:
                    seen |= mask_of(c for c in d if c != UNKNOWN_CARD)
        for c in (None if allow_turned else rec.turned, rec.info):
            if c is not None and c >= 0:
                seen |= 1 << c
        known = [c for c in cards if c != UNKNOWN_CARD]
        for c in known:
            if c not in self.rules.pack:
                return Refusal("JJ-DECK-1", f"{card_name(c)} is not a card of the pack")
            if seen >> c & 1 or known.count(c) > 1:
                return Refusal(rule, f"{card_name(c)} {what} is already dealt, drawn or turned")
        return None

    def _answer_dealt(self, q: Question, r: _Replay, text: str):
        n = self.rules.dealt_to(q.seat, r.record.dealer)
        if text in ("?", "-", ""):
            if not text:
                return Refusal("NOTATION", f"give the {n} cards, or ? if they were not recorded")
            return ("dealt", q.seat, None), f"{self.labels[q.seat]}: not recorded"
        cards = self._cards(text)
        if isinstance(cards, Refusal):
            return cards
        if len(cards) != n:
            return Refusal("JJ-DEAL-3", f"{self.names[q.seat]} is dealt {n} cards, not {len(cards)}")
        bad = self._known_elsewhere(r, cards, "JJ-DEAL-5", "")
        if bad:
            return bad
        return ("dealt", q.seat, tuple(cards)), f"{self.labels[q.seat]}: " + " ".join(card_name(c) if c != UNKNOWN_CARD else "?" for c in cards)

    def _answer_turned(self, q: Question, r: _Replay, text: str):
        cards = self._cards(text)
        if isinstance(cards, Refusal):
            return cards
        if len(cards) != 1 or cards[0] == UNKNOWN_CARD:
            return Refusal("NOTATION", "give the one turned card (it decides the suit accepted in round 1)")
        bad = self._known_elsewhere(r, cards, "JJ-DEAL-5", "(turned)")
        if bad:
            return bad
        return ("turned", cards[0]), f"turned {card_name(cards[0])}"

    def _parse_call(self, q: Question, text: str, after: bool) -> Call | Refusal:
        words = text.split()
        if not words:
            return Refusal("NOTATION", "a call is needed", q.choices)
        seat = q.seat
        s = self._seat_word(words[0]) if len(words) > 1 else None
        if s is not None:
            seat = s
            words = words[1:]
        elif words[0].lower() == "dix":
            seat = self._dix_seat(q)
        body = " ".join(words)
        line = "after" if after else "auction"
        text_rec = f'[Game "{self.game}"]\n\nhand 1 dealer {self.labels[0]}\n{line} {self.labels[seat]} {body}\n'
        sessions = read_sessions(text_rec)
        h = sessions[0].hands[0] if sessions and sessions[0].hands else None
        if h is None or h.issues or not (h.after if after else h.auction):
            msg = h.issues[0].message if h is not None and h.issues else f"cannot read the call '{text}'"
            return Refusal("NOTATION", msg, q.choices)
        c = (h.after if after else h.auction)[0]
        return c._replace(line=0, column=0)

    def _answer_call(self, q: Question, r: _Replay, text: str):
        c = self._parse_call(q, text, False)
        if isinstance(c, Refusal):
            return c
        v = self.rules.check(r.state, Action(c.seat, c.kind, suit=c.suit))
        if v is not None:
            return Refusal(v.rule, self._msg(v), q.choices)
        return ("call", c), f"{self.labels[c.seat]} {_call_word(c.kind, c.suit)}"

    def _answer_drawn(self, q: Question, r: _Replay, text: str):
        n = self.rules.drawn_to(q.seat, r.record.dealer)
        if text == "?":
            return ("drawn", q.seat, (UNKNOWN_CARD,) * n), f"{self.labels[q.seat]} drew: not recorded"
        cards = self._cards(text)
        if isinstance(cards, Refusal):
            return cards
        if len(cards) != n:
            return Refusal("JJ-DRAW-1", f"{self.names[q.seat]} draws {n} cards, not {len(cards)}")
        # the turned card may be drawn (by the dealer in jojotte-4p): the rules' check of the whole draw judges it
        bad = self._known_elsewhere(r, cards, "JJ-DRAW-4", "(drawn)", allow_turned=True)
        if bad:
            return bad
        rest = [i for i in range(self.rules.seats) if r.record.dealt[i] is not None and self.rules.drawn_to(i, r.record.dealer) > 0
                and i != q.seat and (r.record.drawn is None or r.record.drawn[i] is None or r.record.drawn[i] == ())]
        if not rest and not self._has_info:
            bad = self._check_draw(r, {q.seat: cards}, -1)
            if bad:
                return bad
        return ("drawn", q.seat, tuple(cards)), f"{self.labels[q.seat]} drew " + " ".join(card_name(c) if c != UNKNOWN_CARD else "?" for c in cards)

    def _answer_info(self, q: Question, r: _Replay, text: str):
        if text in ("?", ""):
            return ("info", -1), "information card: not recorded"
        cards = self._cards(text)
        if isinstance(cards, Refusal):
            return cards
        if len(cards) != 1:
            return Refusal("NOTATION", "give one card, or ?")
        bad = self._known_elsewhere(r, cards, "JJ-DRAW-4", "(information card)") or self._check_draw(r, {}, cards[0])
        if bad:
            return bad
        return ("info", cards[0]), f"info {card_name(cards[0])}"

    def _check_draw(self, r: _Replay, extra: dict, info: int) -> Refusal | None:
        """The rules' check of the whole draw, once every drawn card is entered."""
        rec = r.record
        masks = []
        for i in range(self.rules.seats):
            cards = extra.get(i, rec.drawn[i] if rec.drawn is not None and rec.drawn[i] is not None else ())
            masks.append(mask_of(c for c in cards if c != UNKNOWN_CARD))
        v = self.rules.check(r.state, Action(CHANCE, "draw", cards=tuple(masks), info=info))
        return Refusal(v.rule, self._msg(v)) if v is not None else None

    def _answer_after(self, q: Question, r: _Replay, text: str):
        c = self._parse_call(q, text, True)
        if isinstance(c, Refusal):
            return c
        v = self.rules.check(r.state, Action(c.seat, c.kind, melds=c.melds))
        if v is not None:
            return Refusal(v.rule, self._msg(v), q.choices)
        return ("after", c), self._step_text(("after", c))

    def _answer_play(self, q: Question, r: _Replay, text: str):
        words = text.split()
        if not words:
            return Refusal("NOTATION", "a card is needed", q.choices)
        low = words[0].lower()
        if low == "result":
            if len(words) > 1:
                return Refusal("NOTATION", "type result alone; the tricks and points of each player are asked next")
            # the summary: the tricks and points of each player are asked next
            return ("result_start",), "summary entry"
        if low == "claim":
            seat = q.seat if len(words) == 1 else self._seat_word(words[1])
            if seat is None:
                return Refusal("NOTATION", f"'{words[1]}' is not a seat", self.labels)
            return ("claim", seat), f"{self.labels[seat]} claims the remaining tricks"
        seat = q.seat
        s = self._seat_word(words[0])
        if s is not None and len(words) > 1:
            seat = s
            words = words[1:]
            low = words[0].lower()
        if low == "dix":
            if s is None:
                seat = self._dix_seat(q)
            v = self.rules.check(r.state, Action(seat, "dix"))
            if v is not None:
                return Refusal(v.rule, self._msg(v), q.choices)
            return ("after", Call(seat, "dix")), f"{self.labels[seat]} dix"
        try:
            card = parse_card(words[0])
        except ValueError:
            return Refusal("NOTATION", f"'{words[0]}' is not a card", q.choices)
        announce = ""
        if len(words) > 1:
            announce = words[1].lower()
            if announce not in ("jo", "jotte"):
                return Refusal("NOTATION", f"'{words[1]}' is not an announcement (jo or jotte)", q.choices)
        if len(words) > 2:
            return Refusal("NOTATION", f"unexpected '{words[2]}'", q.choices)
        v = self.rules.check(r.state, Action(seat, "play", card=card, announce=announce))
        if v is not None:
            return Refusal(v.rule, self._msg(v), q.choices)
        return ("play", Play(seat, card, announce)), f"{self.labels[seat]} {card_name(card)}" + (f" {announce}" if announce else "")

    def _dix_seat(self, q: Question) -> int:
        for c in q.choices:
            parts = c.split()
            if parts[-1] == "dix":
                return self._seat_word(parts[0]) if len(parts) == 2 else q.seat
        return q.seat

    def _answer_result(self, q: Question, r: _Replay, text: str):
        nums = text.replace(",", " ").replace("tricks", " ").replace("points", " ").split()
        if len(nums) != 2 or not all(plain_digits(x) and not number_too_large("", x) for x in nums):
            return Refusal("NOTATION", "give two numbers: the tricks won and the trick points (e.g. 5 82)")
        total = self.rules.tricks_per_hand
        before = sum(x.tricks for x in r.record.result)
        last = len(r.record.result) + 1 == len(self.rules.playing_seats(r.state))
        if before + int(nums[0]) > total or (last and before + int(nums[0]) != total):
            return Refusal("JJ-INV-3", f"the tricks add up to {before + int(nums[0])}, not {total}")
        return ("result", SeatResult(q.seat, int(nums[0]), int(nums[1]))), f"{self.labels[q.seat]} {nums[0]} tricks {nums[1]} points"

    def _answer_score(self, q: Question, r: _Replay, text: str):
        text_rec = f'[Game "{self.game}"]\n\nhand 1 dealer {self.labels[0]}\nscore {text}\n'
        sessions = read_sessions(text_rec)
        h = sessions[0].hands[0] if sessions and sessions[0].hands else None
        if h is None or h.issues or h.score is None:
            msg = h.issues[0].message if h is not None and h.issues else f"cannot read the score '{text}'"
            return Refusal("NOTATION", msg)
        return ("score", h.score._replace(line=0, column=0)), "score " + written_score_text(h.score, self.columns)

    def _answer_keep(self, q: Question, r: _Replay, text: str):
        if text.lower() != "keep":
            return Refusal("NOTATION", "type keep or undo", ("keep", "undo"))
        return ("keep",), "kept as played"


def _game_class(game: str):
    """The rules class of a game the recorder can guide (the Jo-Jotte family)."""

    try:
        cls = find_variant(game)
    except ValueError as e:
        raise RecorderError(str(e)) from None
    if cls.notation != "jojotte":
        raise RecorderError(f"guided entry is for the Jo-Jotte family; {cls.name} is recorded by hand in the notation")
    return cls


def _canonical(cards) -> list[int]:
    """Cards in the notation's order: by suit (S H D C), then rank from the ace down."""
    return sorted(cards, key=lambda c: (c >> 4, -(c & 15)))


def _call_word(kind: str, suit: int = -1) -> str:
    if kind == "name":
        return "name " + "SHDC"[suit]
    return kind.replace("_", " ")


def _words(choices) -> tuple[str, ...]:
    out: list[str] = []
    for c in choices:
        for w in c.split():
            if w not in out:
                out.append(w)
    return tuple(out)


# --- games recorded as a log of events (Pitch, Baloot): one engine over `EventRules` ------------------------

def _is_event_game(game: str | None) -> bool:
    from ..rules.base import EventRules

    try:
        return issubclass(find_variant(game or "jojotte"), EventRules)
    except ValueError:
        return False


def _game_tag(path: Path) -> str | None:
    """The ``[Game]`` tag of a session file as the reader reads it, None when it has none (or the file is empty,
    missing or not UTF-8 text). The header comes from `iter_records`, so a tag inside a ``{ … }`` comment is no tag."""
    try:
        with open(path, encoding="utf-8") as f:
            for item in iter_records(f, str(path)):
                return item.get("Game") if isinstance(item, SessionHeader) else None
    except (OSError, UnicodeDecodeError):
        return None
    return None


class EventRecorder(Recorder):
    """Guided entry of a game recorded as a log of events (Pitch, Baloot), generic over `EventRules`.

    At each state the recorder asks for the action of the player to act and offers the legal actions written as
    their words (`EventRules.items_of`); an entry is read as the words of an item (`EventRules.read_item`) and checked
    (`EventRules.check`). A chance event (the deal, a refill, a completion) is asked item by item (each seat's cards,
    the face-up card …), the labels and the number of cards taken from an example outcome of the rules
    (`EventRules.chance_action`); the items are merged (`events.merge_chance`) and checked. Each entry is checked at
    once: a chance item is judged with the other items filled from the example outcome. The finished hand is written
    by `event_notation.write_event_hand` with its computed score line. `Recorder(...)` builds one for an event game.
    """

    events = True

    def _open(self, game: str | None, players: list[str] | None, tags: dict[str, str] | None) -> None:
        from ..games import rules_for

        self.tags = dict(tags or {})
        self.hands = []
        self.verdicts = []
        self.resumed_issues = []
        self.torn = None
        text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        if text.strip():
            self._resume(text, game, players)
        else:
            self.cls = find_variant(game or "jojotte")
            self.game = self.cls.name
            probe_tags = (("Game", self.cls.name),) + ((("Variant", self.tags["Variant"]),) if self.tags.get("Variant") else ())
            probe, issues = rules_for(SessionHeader(probe_tags))
            if issues:
                raise RecorderError(issues[0].message)
            labels = tuple(probe.seat_labels)
            self.header = self._new_header(labels, players)
            self.header_written = False
            self.validator = self._validator(self.header)
        self.rules = self.validator.rules
        self.labels = tuple(self.rules.seat_labels)
        self.columns = tuple(self.rules.sheet_labels)
        self.names = self.validator.names
        self.steps = []

    @staticmethod
    def _game_class(game: str):
        try:
            return find_variant(game)
        except ValueError as e:
            raise RecorderError(str(e)) from None

    def _validator(self, header: SessionHeader):
        """The session's validator; tags it cannot read (an unknown option) stop the recording."""
        v = SessionValidator(header)
        if v.session_issues:
            raise RecorderError(v.session_issues[0].message)
        return v

    # --- the session so far ------------------------------------------------------------------------------
    def sheet_rows(self) -> list[tuple[str, int]]:
        """The running score sheet: (column's name, score) per column (team or player)."""
        s = self.validator.sheet
        return [(self.validator.sheet_names[i], s.scores[i]) for i in range(len(self.columns))]

    @property
    def over(self) -> bool:
        """Whether the game (match) is over: no more hands."""
        return bool(self.validator.sheet.over)

    def winners_text(self) -> str:
        return " and ".join(self.validator.sheet_names[c] for c in self.validator.sheet.winners) or "nobody"

    def hand_text(self, verdict) -> str:
        from ..notation.event_text import write_event_hand

        return write_event_hand(verdict.record, self.rules)

    def score_text(self, verdict) -> str:
        from ..notation.event_text import score_text

        return score_text(verdict.record.score.values, self.columns) if verdict.record.score else "none"

    def _who(self, seat: int) -> str:
        if not 0 <= seat < len(self.labels):
            return "?"
        return f"{self.labels[seat]} ({self.names[seat]})" if self.names[seat] != self.labels[seat] else self.labels[seat]

    def _who_label(self, label: str) -> str:
        seat = self._seat_word(label) if label.upper() in (x.upper() for x in self.labels) else None
        return self._who(seat) if seat is not None else label

    # --- replaying the entries of the hand ---------------------------------------------------------------
    # steps: ("dealer", seat) ("act", Action) ("part", keyword, number, label, words, Action)
    def _chance_items(self, state) -> list[tuple[str, int, str, tuple[str, ...]]]:
        """The items of the chance event now, from an example outcome (the labels and how many cards each)."""
        import random

        try:
            example = self.rules.chance_action(state, random.Random(0))
            return [(k, n, lab, tuple(w)) for k, n, lab, w in self.rules.items_of(state, example)]
        except Exception:  # pragma: no cover - rules without an example: ask each seat
            return [("deal", -1, lab, ()) for lab in self.labels]

    def _run(self, steps: list[tuple]):
        """The state reached by ``steps``: (dealer, state, actions, pending chance parts, chance items)."""
        rules = self.rules
        dealer = steps[0][1] if steps and steps[0][0] == "dealer" else None
        if dealer is None:
            return None, None, [], [], []
        state = rules.initial_state(dealer, self.validator.sheet)  # the score before the hand (BAL-DBL-8)
        actions: list[Action] = []
        pending: list[tuple] = []
        items: list = []
        for st in steps[1:]:
            if st[0] == "act":
                state = rules.advance(state, st[1])
                actions.append(st[1])
                continue
            if not pending:
                items = self._chance_items(state)
            pending.append(st)
            if len(pending) == len(items):
                a = _merge([p[5] for p in pending])
                state = rules.advance(state, a)
                actions.append(a)
                pending, items = [], []
        if not pending and not rules.is_terminal(state) and rules.current_player(state) == CHANCE:
            items = self._chance_items(state)
        return dealer, state, actions, pending, items

    def _legal_texts(self, state) -> list[tuple[str, Action, tuple]]:
        """The legal player actions now: (text, action, item) with the label said when it is not the player to act's."""
        rules = self.rules
        current = rules.current_player(state)
        out = []
        for a in rules.legal_actions(state):
            for item in rules.items_of(state, a)[:1]:
                k, n, lab, words = item
                text = " ".join(words) if a.seat == current else " ".join((lab, *words))
                out.append((text, a, (k, n, lab, tuple(words))))
        return out

    def question(self) -> Question:
        rules = self.rules
        number = self.hand_number
        dealer, state, actions, pending, items = self._run(self.steps)
        if dealer is None:
            exp = self.validator.expected_dealer
            default = self.labels[exp] if exp >= 0 else None
            choices = self._dealer_choices()
            return Question("dealer", -1, f"hand {number}: who deals?", choices, choices, default)
        if rules.is_terminal(state):  # pragma: no cover - a finished hand is saved at once
            return Question("done", -1, "the hand is complete")
        legal = self._legal_texts(state) if not pending else []
        if pending or rules.current_player(state) == CHANCE:
            k, n, lab, words = items[len(pending)]
            count = 0 if tuple(words) in (("-",), ()) else len(words)
            head = k + (f" {n}" if n >= 0 else "")
            what = f"the {count} card(s)" if count != 1 else "the card"
            if tuple(words) == ("-",):
                what = "no card (-)"
            taken = 0
            for p in pending:
                taken |= _mask_of_action(p[5])
            cards = tuple(card_name(c) for c in rules.pack.cards if not taken >> c & 1)
            choices = tuple(t for t, _, _ in legal)
            text = f"{head}: {self._who_label(lab)}: {what}"
            if choices:
                text += " (or a call)"
            return Question("chance", self._seat_word(lab) if lab.upper() in (x.upper() for x in self.labels) else -1,
                            text, choices, cards + _words(choices))
        current = rules.current_player(state)
        choices = tuple(dict.fromkeys(t for t, _, _ in legal))
        heads = list(dict.fromkeys(k + (f" {n}" if n >= 0 else "") for _, _, (k, n, _, _) in legal))
        default = choices[0] if len(choices) == 1 else None
        return Question("action", current, f"{', '.join(heads) or 'next'}: {self._who(current)}", choices,
                        _words(choices) + self.labels, default)

    def in_hand(self) -> bool:
        return bool(self.steps)

    def answer(self, text: str) -> Accepted | Refusal:
        """Take one answer to the current question. ``undo`` undoes the last entry."""
        text = text.strip()
        if text.lower() == "undo":
            return self._undo_answer()
        q = self.question()
        if q.key == "dealer":
            out = self._answer_event_dealer(q, text)
        elif q.key == "chance":
            out = self._answer_chance(q, text)
        else:
            out = self._answer_action(q, text)
        if isinstance(out, Refusal):
            if out.rule != "NOTATION" and not out.legal and q.choices:
                out = out._replace(legal=q.choices)
            return out
        step, said = out
        if isinstance(step, list):  # several items of a chance event typed on one line
            self.steps.extend(step)
        else:
            self.steps.append(step)
        dealer, state, actions, pending, _ = self._run(self.steps)
        if state is not None and self.rules.is_terminal(state) and not pending:
            return Accepted(said, self._save_event(dealer, state, actions))
        return Accepted(said)

    def _answer_event_dealer(self, q: Question, text: str):
        if self.over:
            return Refusal((self.rules.game_rule or self.rules.rule_prefix),
                           f"the game is over ({self.winners_text()} won); no more hands")
        if not text and q.default:
            text = q.default
        seat = self._seat_word(text)
        if seat is None:
            return Refusal("NOTATION", f"'{text}' is not a seat", self.labels)
        v = self.validator.wrong_dealer(seat)
        if v is not None:
            return Refusal(v.rule, self._msg(v), (self.labels[self.validator.expected_dealer],))
        return ("dealer", seat), f"dealer {self.labels[seat]}"

    def _read_action(self, state, text: str, legal) -> tuple[Action, tuple] | Refusal:
        """Read typed words as a player's item: ``[keyword [N:]] [LABEL] words`` against the keywords of the legal actions."""
        rules = self.rules
        words = text.replace(",", " ").split()
        if not words:
            return Refusal("NOTATION", "an entry is needed")
        keys = list(dict.fromkeys((k, n) for _, _, (k, n, _, _) in legal))
        if not keys:
            return Refusal("NOTATION", "no action is possible now")
        if len(words) > 1 and words[0].lower() in {k for k, _ in keys}:
            keys = [(k, n) for k, n in keys if k == words[0].lower()]
            words = words[1:]
            if words and plain_digits(words[0].rstrip(":")):
                words = words[1:]
        current = rules.current_player(state)
        label = self.labels[current] if 0 <= current < len(self.labels) else None
        seat = self._seat_word(words[0].rstrip(":")) if len(words) > 1 else None
        if seat is not None:
            label = self.labels[seat]
            words = words[1:]
        elif label is None:
            return Refusal("NOTATION", "say who: a seat, then the words", tuple(t for t, _, _ in legal))
        first_illegal: Violation | None = None
        first_bad: Violation | None = None
        for k, n in keys:
            a = rules.read_item(state, k, n, label, tuple(words))
            if isinstance(a, Violation):
                first_bad = first_bad or a
                continue
            if a.seat == CHANCE:
                continue
            v = rules.check(state, a)
            if v is None:
                return a, rules.items_of(state, a)[0]
            first_illegal = first_illegal or v
        v = first_illegal or first_bad
        return Refusal(v.rule if v else "NOTATION", self._msg(v) if v else f"cannot read '{text}'",
                       tuple(t for t, _, _ in legal))

    def _answer_action(self, q: Question, text: str):
        _, state, _, _, _ = self._run(self.steps)
        legal = self._legal_texts(state)
        if not text and q.default:
            text = q.default
        got = self._read_action(state, text, legal)
        if isinstance(got, Refusal):
            return got
        a, item = got
        return ("act", a), " ".join((item[2], *item[3]))

    def _answer_chance(self, q: Question, text: str):
        rules = self.rules
        _, state, _, pending, items = self._run(self.steps)
        k, n, lab, example_words = items[len(pending)]
        if ";" in text or text.count(":") > 1:
            return self._answer_chance_line(state, items, pending, text)
        words = text.replace(",", " ").replace(";", " ").split()
        if words and words[0].rstrip(":").upper() == lab.upper() and (len(words) > 1 or words[0].endswith(":")):
            words = words[1:]
        if not words:
            return Refusal("NOTATION", f"give the cards of {lab} ({' '.join('?' * max(1, len(example_words)))})")
        a = rules.read_item(state, k, n, lab, tuple(words))
        if isinstance(a, Violation) or a.seat != CHANCE:
            legal = self._legal_texts(state) if not pending else []
            if legal:  # a call in the middle of a chance event (Baloot: a double before the completion)
                got = self._read_action(state, text, legal)
                if not isinstance(got, Refusal):
                    act, item = got
                    return ("act", act), " ".join((item[2], *item[3]))
            if isinstance(a, Violation):
                return Refusal(a.rule, self._msg(a))
            return Refusal("NOTATION", f"'{text}' are not the cards of {lab}")
        parts = [p[5] for p in pending] + [a]
        v = self._check_parts(state, items, parts)
        if v is not None:
            return Refusal(v.rule, self._msg(v))
        return ("part", k, n, lab, tuple(words), a), f"{k} {lab}: " + " ".join(words)

    def _answer_chance_line(self, state, items, pending, text: str):
        """Several items of the chance event on one line, as written: ``[deal] N: 6S JH …; E: QS JS …``."""
        rules = self.rules
        todo = items[len(pending):]
        given: dict[str, tuple[str, ...]] = {}
        for chunk in text.split(";"):
            head, sep, rest = chunk.partition(":")
            head_words = head.split()
            if not sep or not head_words:
                return Refusal("NOTATION", f"an item is 'LABEL: cards', not '{chunk.strip()}'")
            if len(head_words) == 2 and head_words[0].lower() == todo[0][0]:
                head_words = head_words[1:]
            match = [x for x in todo if x[2].upper() == head_words[-1].upper()]
            if len(head_words) != 1 or not match:
                return Refusal("NOTATION", f"'{head.strip()}' is not one of the items still to enter: "
                                           + ", ".join(x[2] for x in todo))
            if match[0][2] in given:
                return Refusal("NOTATION", f"{match[0][2]} is given twice")
            given[match[0][2]] = tuple(rest.replace(",", " ").split())
        if [x[2] for x in todo[:len(given)]] != [x[2] for x in todo if x[2] in given]:
            return Refusal("NOTATION", "enter the items in turn: " + ", ".join(x[2] for x in todo[:len(given)]))
        parts = [p[5] for p in pending]
        steps = []
        for k, n, lab, _ in todo[:len(given)]:
            words = given[lab]
            a = rules.read_item(state, k, n, lab, words)
            if isinstance(a, Violation):
                return Refusal(a.rule, self._msg(a))
            if a.seat != CHANCE:
                return Refusal("NOTATION", f"'{' '.join(words)}' are not the cards of {lab}")
            parts.append(a)
            v = self._check_parts(state, items, parts)
            if v is not None:
                return Refusal(v.rule, self._msg(v))
            steps.append(("part", k, n, lab, words, a))
        return steps, "; ".join(f"{st[1]} {st[3]}: " + " ".join(st[4]) for st in steps)

    def _check_parts(self, state, items, parts: list[Action]) -> Violation | None:
        """The rules' check of the chance event with the items not yet entered filled from the example outcome."""
        rules = self.rules
        pool = 0
        for k, n, lab, words in items:
            ex = rules.read_item(state, k, n, lab, tuple(words))
            if not isinstance(ex, Violation):
                pool |= _mask_of_action(ex)
        used = 0
        for p in parts:
            used |= _mask_of_action(p)
        free = [c for c in rules.pack.cards if (pool & ~used) >> c & 1]
        filled = list(parts)
        for k, n, lab, words in items[len(parts):]:
            count = 0 if tuple(words) in (("-",), ()) else len(words)
            take, free = free[:count], free[count:]
            ex = rules.read_item(state, k, n, lab, tuple(card_name(c) for c in take) or ("-",))
            if isinstance(ex, Violation):  # pragma: no cover - the example cannot be filled: judge what is entered
                return None
            filled.append(ex)
        return rules.check(state, _merge(filled))

    # --- undo and saving -----------------------------------------------------------------------------------
    def undo(self) -> str | None:
        if self.steps:
            step = self.steps.pop()
            return f"undone: {self._event_step_text(step)}"
        if not self.hands:
            return None
        last, verdict = self.hands[-1], self.verdicts[-1]
        steps = self._event_steps_of(last, verdict)
        if steps is None:
            return f"hand {last.number} was not recorded in the recorder's order and cannot be taken back here; edit the file"
        self._reopen_last(last)
        gone = steps.pop() if steps else None
        self.steps = steps
        return f"hand {last.number} reopened{_KEPT}; undone: {self._event_step_text(gone) if gone else 'nothing'}"

    def _rebuild_validator(self) -> None:
        self.validator = SessionValidator(self.header)
        for h in self.hands:
            self.validator.check_hand(h)

    def _event_step_text(self, step: tuple) -> str:
        if step[0] == "dealer":
            return f"dealer {self.labels[step[1]]}"
        if step[0] == "part":
            return f"{step[1]} {step[3]}: " + " ".join(step[4])
        return " ".join(self._item_words(step[1]))

    def _item_words(self, a: Action) -> tuple[str, ...]:
        dealer, state, _, _, _ = self._run(self.steps)
        try:
            k, n, lab, words = self.rules.items_of(state, a)[0]
            return (lab, *words)
        except Exception:  # pragma: no cover
            return (a.kind,)

    def _event_steps_of(self, h, verdict) -> list[tuple] | None:
        """The entries of a saved hand, to reopen it (None when it is not as the recorder writes it)."""
        from ..notation.event_text import write_event_hand
        from ..replay.event_log import hand_lines

        rules = self.rules
        if h.dealer < 0 or verdict.issues or verdict.state is None or not rules.is_terminal(verdict.state):
            return None
        actions = list(verdict.actions)
        k = self.verdicts.index(verdict) if verdict in self.verdicts else len(self.verdicts)
        before = self.verdicts[k - 1].sheet if k > 0 else rules.new_sheet()  # the sheet before the hand
        canonical = h._replace(lines=hand_lines(rules, h.dealer, actions, before), comments=())
        if write_event_hand(canonical, rules) != write_event_hand(h, rules):
            return None
        steps: list[tuple] = [("dealer", h.dealer)]
        state = rules.initial_state(h.dealer, before)
        for a in actions:
            if a.seat == CHANCE:
                for k, n, lab, words in rules.items_of(state, a):
                    part = rules.read_item(state, k, n, lab, tuple(words))
                    steps.append(("part", k, n, lab, tuple(words), part))
            else:
                steps.append(("act", a))
            state = rules.advance(state, a)
        return steps

    def _save_event(self, dealer: int, state, actions: list[Action]):
        """Score the finished hand, write it with its score line, append it to the file and fsync."""
        from ..notation.event_text import write_event_hand
        from ..notation.model import EventHand, EventScore
        from ..replay.event_log import hand_lines

        rules = self.rules
        score = rules.hand_score(state, self.validator.sheet)
        rec = EventHand(self.hand_number, dealer, hand_lines(rules, dealer, actions, self.validator.sheet),
                        EventScore(tuple(score.delta)))
        return self._write_and_check(rec, write_event_hand(rec, rules), SessionValidator)


def _merge(parts: list[Action]) -> Action:
    from ..replay.event_log import merge_chance

    return merge_chance(parts)


def _mask_of_action(a: Action) -> int:
    m = 0
    for x in a.cards:
        m |= x
    if a.info >= 0 and a.seat == CHANCE:
        m |= 1 << a.info
    return m
