"""The fast replay of an event-log hand (Pitch, Baloot; issue 14): the same final state and actions as the
explaining loop (`engine.replay_steps` over `event_log.EventCodec.steps`), or None when it is not sure.

Every line is read and replayed as the explaining codec does (`EventRules.read_item`, `check`, `advance`, the
chance items of a line merged into one action) but without locations, generators or the engine's loop; the trick
lines of plain cards written canonically (a seat, one card) are played by a game kernel on local variables, the
rules' state built once after the last of them instead of once a card. No rule is written here: a Baloot card is
checked by the rules' own `baloot_cards.legal_case` (BAL-PLAY-5…12) and a completed trick scored by `trick_winner`
and `card_points` (tabulated by trump; BAL-DECK-6 for the last trick's bonus); a Pitch trick's
order of play is memoised on (leader, the seats as written), made by the rules' own order of play
(`PitchRules.next_in_trick`, `first_active`: PIT-PLAY-3/6), its winner and points read from the rules' trump table
(`PitchRules.table`: PIT-PLAY-5, PIT-PTS-2/3), and taken when each written seat holds its card and no other seat has
live cards. Pitch's deal and refill lines are read as one merged chance action and checked by the rules; a discard
line is played on local variables by the rules' `discarder`, `discard_ok` and `after_discard` (PIT-DRAW-1/2).
Baloot's kernel plays a lead said with Ekka itself when the rules' `ekka_open` and `can_ekka` allow it (BAL-EKKA-1/2),
and hands the items it does not take (a declaration, a show, a card said with Baloot or not allowed Ekka, a doubling
call, the items of the seat that must show first in trick 2 until he has shown: `BalootRules.must_show`) to the rules
one by one (a declaration or a show checked by
`BalootRules.announced_legal` among the player's own, `check` otherwise) and plays on from the state they give;
a trick line a kernel does not take (Pitch: any item but a plain card, the five-handed game's lead of the called
card; either game: a trick split over lines) is read item by item. An auction line is memoised on what decides
it (`auction_key`), across the sessions of one game and options;
a card it does not plainly accept (out of turn, not held, not legal), like any illegal item, makes the whole
hand take the explaining path, whose verdict is the reference. tests/test_fast_path.py holds the two to each other.
"""

from __future__ import annotations

from ..cards import card_name
from ..rules import baloot, pitch
from ..rules.baloot import BalootRules, next_seat
from ..rules.baloot_cards import LAST_TRICK_BONUS, can_ekka, card_points, ekka_open, legal_case, trick_winner
from ..rules.base import CHANCE, Action, Violation
from ..rules.pitch import PitchRules

# Whole lines memoised on what decides them (`EventRules.auction_key`: an auction line), shared by the sessions of
# one game and options: (key, number, the items as written) -> (the fields the line changes, its actions).
_MEMOS: dict = {}
MEMO_LIMIT = 100_000  # entries per game and options; the memo starts afresh beyond
_PLAYS: dict = {}  # `EventFast.plays` by (game, options)


class EventFast:
    """The fast replay of one session's event-log rules (one per validator)."""

    def __init__(self, rules, merge_chance):
        """``merge_chance``: how the explaining codec merges the chance items of one line (`event_log.merge_chance`)."""
        self.rules = rules
        self.seat_of = {lab: i for i, lab in enumerate(rules.seat_labels)}
        self.card_of = {card_name(c): c for c in rules.pack.cards}  # the canonical spellings only
        self.card_bits = {w: 1 << c for w, c in self.card_of.items()}
        # the action of each plain card play, by seat and card, also as one row a seat; a plain card's item words, (card,)
        # -> card (immutable, shared by the sessions of one game and options)
        tables = _PLAYS.get((type(rules), rules.options))
        if tables is None:
            plays = {(x, c): Action(x, "play", card=c, announce="")
                     for x in range(len(rules.seat_labels)) for c in rules.pack.cards}
            top = max(rules.pack.cards) + 1
            rows = tuple(tuple(plays.get((x, c)) for c in range(top)) for x in range(len(rules.seat_labels)))
            tables = _PLAYS[type(rules), rules.options] = (plays, rows, {(w,): c for w, c in self.card_of.items()})
        self.plays, self.play_rows, self.card_words = tables
        self.kernel = KERNELS.get(type(rules))  # the games themselves, not a form built on one
        self.kernel_lines = KERNEL_LINES.get(type(rules), ("trick",))  # the keywords of the lines a kernel is offered
        self.line_key = LINE_KEYS.get(type(rules))
        self.memo = _MEMOS.setdefault((type(rules), rules.options), {})
        self.merge_chance = merge_chance
        # a game's shortcut to `check` for the items a kernel hands to the rules (Baloot's declarations and shows)
        self.announced_legal = getattr(rules, "announced_legal", None) if self.kernel is not None else None

    def hand(self, hand, dealer: int, sheet):
        """(final state, actions) of a hand the fast path vouches for, else None."""
        rules = self.rules
        s = rules.initial_state(dealer, sheet)
        acts: list[Action] = []
        kernel, kernel_lines, line_key, memo = self.kernel, self.kernel_lines, self.line_key, self.memo
        keywords = rules.line_keywords
        lines = hand.lines
        i, n = 0, len(lines)
        while i < n:
            line = lines[i]
            i += 1
            keyword, number = line.keyword, line.number
            if keyword not in keywords:  # an unknown line: the explaining path says so
                return None
            if kernel is not None and keyword in kernel_lines:
                done = kernel(self, s, lines, i - 1, acts)
                if done is None:
                    return None
                if done[1] >= i:  # the kernel played lines[i - 1: done[1]] (and checked their written winners)
                    s, i = done
                    continue
            k = line_key(rules, s, keyword) if line_key is not None else None
            if k is not None:
                key = (k, number, tuple([(item[0], item[1]) for item in line.items]))
                hit = memo.get(key)
                if hit is not None:
                    s = s._replace(**hit[0])
                    acts.extend(hit[1])
                    continue
                start, first = s, len(acts)
                s = self._line(s, line, acts, line_key)
                if s is None:
                    return None
                if s is not GENERIC:  # every item was read in the state the key describes: the line is memoised
                    if len(memo) >= MEMO_LIMIT:
                        memo.clear()
                    memo[key] = ({f: v for f, v, v0 in zip(s._fields, s, start) if v is not v0 and v != v0},
                                 tuple(acts[first:]))
                    continue
                del acts[first:]
                s = self._line(start, line, acts, None)
                if s is None:
                    return None
                continue
            s = self._line(s, line, acts, None)
            if s is None:
                return None
        if not rules.is_terminal(s):
            return None
        return s, acts

    def _line(self, s, line, acts: list, line_key):
        """The state after one line read item by item (the explaining codec's reading, without locations), None when
        the fast path does not vouch for it; with ``line_key``, GENERIC when an item is read in a state that key does
        not describe (the line is then not memoised: the caller reads it again without)."""
        rules = self.rules
        read_item, check, advance, check_number = rules.read_item, rules.check, rules.advance, rules.check_number
        keyword, number = line.keyword, line.number
        chance = []
        for item in line.items:
            if line_key is not None and line_key(rules, s, keyword) is None:
                return GENERIC
            a = read_item(s, keyword, number, item.label, item.words)
            if isinstance(a, Violation):
                return None
            if a.seat == CHANCE:
                if line_key is not None:
                    return GENERIC
                chance.append(a)
                continue
            if check(s, a) is not None or check_number(s, keyword, number, a, item.words) is not None:
                return None  # illegal, or written under another number than its own (noted by the explaining path)
            s = advance(s, a)
            acts.append(a)
        if chance:
            a = self.merge_chance(chance)
            if check(s, a) is not None:
                return None
            s = advance(s, a)
            acts.append(a)
        if line.winner and keyword == "trick" and number >= 0 and not self._winner_ok(s, number, line.winner):
            return None
        return s

    def item(self, s, line, item, acts: list):
        """The state after one player's item of ``line`` read and checked by the rules, None when it is not plainly
        legal (or is a chance item): what `_line` does for one item, for a kernel that meets an item it does not take."""
        rules = self.rules
        a = rules.read_item(s, line.keyword, line.number, item.label, item.words)
        if (isinstance(a, Violation) or a.seat == CHANCE
                or (not (self.announced_legal is not None and self.announced_legal(s, a)) and rules.check(s, a) is not None)
                or rules.check_number(s, line.keyword, line.number, a, item.words) is not None):
            return None
        acts.append(a)
        return rules.advance(s, a)

    def _winner_ok(self, s, number: int, winner: str) -> bool:
        """The written winner of trick ``number`` is not contradicted (what `EventCodec.steps` notes otherwise)."""
        done = self.rules.tricks(s)
        return len(done) < number or self.rules.seat_labels[done[number - 1][2]] == winner


# GENERIC: `_line`'s answer for a line read in a state its memo key does not describe
GENERIC = object()

# --- the game kernels: the lines from lines[i] on (trick lines, or any of `KERNEL_LINES`), kernel(fast, state, lines, i, acts) --
# A kernel returns (the state after the lines it played, the index of the first line it did not play: i when it took
# none, which is then read item by item), or None when a card is not plainly legal (the explaining path then runs
# for the whole hand); it checks the written winner of each line it plays.


_CARD_POINTS: dict = {}  # `card_points` of every card by trump: trump -> points by card code
_NEXT = tuple(next_seat(x) for x in range(4))  # the rules' `next_seat` of each seat
_TEAM = tuple(baloot.team_of(x) for x in range(4))  # the rules' `team_of` of each seat


def _card_points_of(trump: int) -> tuple[int, ...]:
    """The rules' `card_points` (BAL-DECK-5) of every card of the pack with ``trump``, by card code (0 for a code that is
    not a card), tabulated once."""
    got = _CARD_POINTS.get(trump)
    if got is None:
        top = max(baloot.BALOOT_PACK.cards) + 1
        got = _CARD_POINTS[trump] = tuple(card_points(c, trump) if c in baloot.BALOOT_PACK.cards else 0
                                          for c in range(top))
    return got


def baloot_tricks(fast, s, lines, i: int, acts: list):
    """Baloot's trick lines from ``lines[i]`` on, from a trick's lead: (state, the first line not played), or None when
    an item is not plainly legal. A plain card (a seat, one card) is played on local variables, checked by the rules'
    own `legal_case` (`legal_plays` without its sentence; BAL-PLAY-5…12); a completed trick is scored by
    `trick_winner` and `card_points` (and BAL-DECK-6's last-trick bonus); the state is built once after the last line. A lead said with Ekka is played so
    too when the rules' `ekka_open` and `can_ekka` allow it (BAL-EKKA-1/2; the trick's Ekka then goes to
    `legal_case`, BAL-EKKA-4). Any other item (a declaration in trick 1, a show, a card with 'baloot' or an Ekka not
    allowed, a doubling call) and the items of trick 2 by the owner of the best project until he has shown it
    (`BalootRules.must_show`, BAL-PROJ-11/12) are read, checked and applied by the rules (`EventFast.item`) on the
    state reached (built from the local variables only when a card was played since the rules last gave it), and the
    local play goes on from the state they give."""
    if s.phase != baloot.PLAY or s.trick:
        return s, i
    rules = fast.rules
    seat_of, card_of, card_words, labels, rows = fast.seat_of, fast.card_of, fast.card_words, rules.seat_labels, fast.play_rows
    nxt = _NEXT
    trump = s.trump
    pts = _card_points_of(trump)
    hands, history, points, taken = list(s.hands), s.history, list(s.points), list(s.taken)
    played, leader, best, locked, ekka = s.played, s.leader, s.best, s.locked, s.ekka
    synced = True  # the local variables are the fields of ``s`` (no card played since the rules gave it)
    n = len(lines)
    while i < n:
        line = lines[i]
        done = len(history)
        if line.keyword != "trick" or line.number != done + 1 or not line.items or done == 8:
            break
        must = best if done == 1 else -1
        seat = leader
        trick: list[tuple[int, int]] = []
        cards: list[int] = []
        for item in line.items:
            x = seat_of.get(item[0])
            c = card_words.get(item[1])  # a plain card: one word, written canonically
            said = ""
            if c is None or x != seat or x == must:
                words = item[1]
                if c is None and x == seat and x != must and len(words) == 2 and words[1] == "ekka" and \
                        ekka_open(len(trick), trump):
                    c = card_of.get(words[0])  # Ekka said with a lead (BAL-EKKA-1/2): the card goes, if it may be said
                    said = "ekka" if c is not None and can_ekka(c, trump, played) else ""
                if not said:  # an item for the rules
                    if len(trick) == 4:
                        return None  # an item after the trick's fourth card: the explaining path says what it is
                    if not synced:
                        s = s._replace(hands=tuple(hands), trick=tuple(trick), history=history, points=tuple(points),
                                       taken=tuple(taken), played=played, leader=leader, best=best, ekka=ekka)
                    s = fast.item(s, line, item, acts)
                    if s is None:
                        return None
                    synced = True
                    hands, history, points, taken = list(s.hands), s.history, list(s.points), list(s.taken)
                    played, leader, best, locked, ekka = s.played, s.leader, s.best, s.locked, s.ekka
                    if must >= 0 and rules.must_show(s, must) is None:
                        must = -1  # the best project shown (BAL-PROJ-11/12): its owner's card is a card like another
                    if not s.trick and len(history) > done:
                        trick = list(history[-1][1])  # the rules played the fourth card: the trick is over
                        seat = -1
                        continue
                    trick = list(s.trick)
                    cards = [c for _, c in trick]
                    seat = nxt[trick[-1][0]] if trick else leader  # (`BalootRules._to_play`)
                    continue
            h = hands[x]
            if not h >> c & 1 or not legal_case(h, cards, trump, locked, ekka)[0] >> c & 1:
                return None
            hands[x] = h & ~(1 << c)
            trick.append((x, c))
            cards.append(c)
            if said:
                acts.append(Action(x, "play", card=c, announce=said))
                ekka = True  # BAL-EKKA-4: the third player's duty to trump is lifted (`legal_case`)
            else:
                acts.append(rows[x][c])
            seat = nxt[x]  # after the fourth card, the leader: a fifth card makes the trick too long (refused below)
            synced = False
        if len(trick) != 4:
            return None  # a trick short of a card, or with one too many: the explaining path says so
        if len(history) == done:  # not completed by the rules: scored here
            c0, c1, c2, c3 = cards
            win = trick[trick_winner(cards, trump)][0]
            history += ((leader, tuple(trick), win),)
            t = _TEAM[win]
            points[t] += pts[c0] + pts[c1] + pts[c2] + pts[c3] + (LAST_TRICK_BONUS if len(history) == 8 else 0)  # BAL-DECK-6
            taken[t] += 1
            played |= 1 << c0 | 1 << c1 | 1 << c2 | 1 << c3
            leader, ekka = win, False
            if len(history) == 1:
                s = s._replace(hands=tuple(hands), trick=(), history=history, points=tuple(points), taken=tuple(taken),
                               played=played, leader=leader, ekka=False)
                best = rules.best_project(s)[0]
        if line.winner and labels[history[line.number - 1][2]] != line.winner:
            return None  # a wrong winner written: the explaining path notes it
        i += 1
    if synced:
        return s, i  # nothing played here since the rules gave ``s`` (or no line was taken)
    return s._replace(phase=baloot.DONE if len(history) == 8 else baloot.PLAY, hands=tuple(hands), trick=(),
                      history=history, points=tuple(points), taken=tuple(taken), played=played, leader=leader,
                      best=best, ekka=False), i


# Pitch's order of play memoised on what decides it: (options, leader, the seats of a trick line as written) -> the
# seats that must hold no live card for that order to be the rules' (`_pitch_order`), or False; shared like `_MEMOS`
_PITCH_ORDERS: dict = {}


def _pitch_order(rules, leader: int, seats: tuple[int, ...]):
    """The seats left out of a trick of ``seats`` led by ``leader`` when each written seat plays one card and every
    other seat has no live card, by the rules' own order of play (`PitchRules.next_in_trick`, PIT-PLAY-3) run on hands
    holding just the trick's cards; False when that is not the order (a seat twice, out of turn, the trick short)."""
    if len(set(seats)) != len(seats):
        return False
    hands = [0] * rules.seats
    for x in seats:
        hands[x] = 1
    seat = leader
    trick: list[tuple[int, int]] = []
    for k, x in enumerate(seats):
        if x != seat:
            return False
        hands[x] = 0
        trick.append((x, 0))
        seat = rules.next_in_trick(hands, trick, leader)
        if seat < 0 and k != len(seats) - 1:
            return False
    if seat >= 0:
        return False
    return tuple(x for x in range(rules.seats) if x not in seats)


def pitch_tricks(fast, s, lines, i: int, acts: list):
    """Pitch's trick lines of plain cards (a seat, one card written canonically) from ``lines[i]`` on, on local
    variables, the state built once at the end: (state, the first line not played), or None when a card is not plainly
    legal (not held, out of turn, a trick short or split over lines: the explaining path says so). The order of play
    comes from `_pitch_order` (memoised), the winner and each card's points from the rules' trump table
    (`PitchRules.table`: `winner_index`, PIT-PLAY-5; the points to the winner or, an automatic point, to the card's
    player, PIT-PTS-2/3); the next leader from `PitchRules.first_active` (PIT-PLAY-6)."""
    rules = fast.rules
    if s.phase != pitch.PLAY or s.trick or rules.must_lead_called(s):  # PIT-FIVE-5's called card: the rules decide
        return s, i
    orders = _PITCH_ORDERS.setdefault(rules.options, {})
    seat_of, card_words, rows, labels = fast.seat_of, fast.card_words, fast.play_rows, rules.seat_labels
    t = rules.table(s.trump)
    points, credited, winner_index = t.points, t.credited, t.winner_index
    hands = list(s.hands)
    taken = list(s.taken)
    history = s.history
    leader = s.leader
    n = len(lines)
    start = i
    while i < n and leader >= 0:
        line = lines[i]
        if line.keyword != "trick" or line.number != len(history) + 1 or not line.items:
            break
        items = line.items
        seats = tuple([seat_of.get(item[0]) for item in items])
        cards = tuple([card_words.get(item[1]) for item in items])  # a plain card: one word, written canonically
        if None in seats or None in cards:
            break  # not a whole trick of plain cards: read item by item
        key = (leader, seats)
        others = orders.get(key)
        if others is None:
            others = orders[key] = _pitch_order(rules, leader, seats)
        if others is False:
            break
        for x in others:
            if hands[x]:
                return None  # a seat with live cards left out of the trick (PIT-PLAY-3)
        plays = tuple(zip(seats, cards))
        for x, c in plays:
            if not hands[x] >> c & 1:
                return None  # a card not held (PIT-PLAY-1)
            hands[x] ^= 1 << c
            acts.append(rows[x][c])
        win = seats[winner_index(cards)]
        if line.winner and line.winner != labels[win]:
            return None  # a wrong winner written: the explaining path notes it
        for x, c in plays:
            p = points[c]
            if p:
                taken[credited(x, c, win)] += p
        history += ((leader, plays, win),)
        leader = rules.first_active(hands, win)  # PIT-PLAY-6
        i += 1
    if i == start:
        return s, i
    return s._replace(phase=pitch.PLAY if leader >= 0 else pitch.DONE, hands=tuple(hands), leader=leader,
                      taken=tuple(taken), history=history), i


def _plain_lists(fast, items) -> list | None:
    """(seat, mask) of a list line's items (``N: 9S TH``), each card written canonically and once in its item; None when
    an item is anything else (the rules' reading then says what it is)."""
    seat_of, bit = fast.seat_of, fast.card_bits.__getitem__
    out = []
    for item in items:
        seat = seat_of.get(item.label)
        if seat is None:
            return None
        words = item.words
        try:  # the sum of distinct bits has one bit a card
            m = sum(map(bit, words))
        except KeyError:
            return None
        if m.bit_count() != len(words):
            return None
        out.append((seat, m))
    return out


def pitch_chance(fast, s, lines, i: int, acts: list):
    """A Pitch ``deal`` or ``refill`` line of canonical card lists: the one chance action the explaining codec makes of
    it (each item read as the rules read it, `EventRules.read_item`, the items merged seat by seat as `merge_chance`
    merges them), checked and applied by the rules (PIT-DEAL-4, PIT-DRAW-3/4); (state, the next line), or None when
    it is not legal. Any other line is left to be read item by item."""
    line = lines[i]
    deal = line.keyword == "deal"
    if s.phase != (pitch.DEAL if deal else pitch.REFILL) or not line.items:
        return s, i
    return _chance(fast, s, i, _plain_lists(fast, line.items), "deal" if deal else "draw", -1, acts)


def _chance(fast, s, i: int, lists: list | None, kind: str, info: int, acts: list):
    """The chance action of a line whose items are ``lists`` (`_plain_lists`), merged seat by seat as `merge_chance`
    merges them, checked and applied by the rules; (state, the next line), None when it is not legal, or the line left
    to be read item by item when ``lists`` is None."""
    if lists is None:
        return s, i
    rules = fast.rules
    masks = [0] * rules.seats
    for x, m in lists:
        masks[x] |= m
    a = Action(CHANCE, kind, cards=tuple(masks), info=info)
    if rules.check(s, a) is not None:
        return None
    acts.append(a)
    return rules.advance(s, a), i + 1


def pitch_discards(fast, s, lines, i: int, acts: list):
    """A Pitch ``discard`` line of canonical card lists, on local variables: each item by the player whose turn it is
    (`PitchRules.discarder`, PIT-DRAW-1), a legal discard (`PitchRules.discard_ok`, PIT-DRAW-1/2) applied by
    `PitchRules.after_discard`; the last discard of the round applied by the rules' `advance` (what comes after it:
    the refill, or the five-handed game's burn or play). (state, the next line), or None when an item is not legal; a line of other items, or with more items than
    discards left, is left to be read item by item."""
    line = lines[i]
    rules = fast.rules
    if s.phase != pitch.DISCARD or not line.items or len(line.items) > rules.seats - s.step:
        return s, i
    lists = _plain_lists(fast, line.items)
    if lists is None:
        return s, i
    hands, dead, step, dealer, trump = s.hands, s.dead, s.step, s.dealer, s.trump
    for x, m in lists:
        if x != rules.discarder(dealer, step) or not rules.discard_ok(hands[x], m, trump):
            return None
        a = Action(x, "discard", cards=(m,))
        acts.append(a)
        if step + 1 == rules.seats:  # the round's last discard: the rules say what follows
            return rules.advance(s._replace(hands=hands, dead=dead, step=step), a), i + 1
        hands, dead, step = rules.after_discard(hands, dead, step, x, m)
    return s._replace(hands=hands, dead=dead, step=step), i + 1


def baloot_chance(fast, s, lines, i: int, acts: list):
    """A Baloot ``deal`` line (the seats' cards, then ``up:`` and the face-up card) or ``complete`` line of canonical
    card lists: the one chance action the explaining codec makes of it (each item read as `BalootRules.read_item`
    reads it, merged seat by seat as `merge_chance` merges them, the face-up card as ``info``), checked and applied by
    the rules (BAL-DEAL-5…8); (state, the next line), or None when it is not legal. Any other line is left to be read
    item by item."""
    line = lines[i]
    items = line.items
    info = -1
    if items and items[-1].label == "up" and line.keyword == "deal":
        words = items[-1].words
        info = fast.card_of.get(words[0], -1) if len(words) == 1 else -1
        if info < 0:
            return s, i
        items = items[:-1]
    return _chance(fast, s, i, _plain_lists(fast, items) if items else None, line.keyword, info, acts)


BALOOT_LINES = {"trick": baloot_tricks, "deal": baloot_chance, "complete": baloot_chance}


def baloot_lines(fast, s, lines, i: int, acts: list):
    """Baloot's kernel: the line's own (`BALOOT_LINES`)."""
    return BALOOT_LINES[lines[i].keyword](fast, s, lines, i, acts)


PITCH_LINES = {"trick": pitch_tricks, "deal": pitch_chance, "refill": pitch_chance, "discard": pitch_discards}


def pitch_lines(fast, s, lines, i: int, acts: list):
    """Pitch's kernel: the line's own (`PITCH_LINES`)."""
    return PITCH_LINES[lines[i].keyword](fast, s, lines, i, acts)


KERNELS = {BalootRules: baloot_lines, PitchRules: pitch_lines}
LINE_KEYS = {BalootRules: BalootRules.auction_key, PitchRules: PitchRules.auction_key}
KERNEL_LINES = {BalootRules: tuple(BALOOT_LINES), PitchRules: tuple(PITCH_LINES)}  # a game whose kernel takes more than trick lines: the lines it is offered
