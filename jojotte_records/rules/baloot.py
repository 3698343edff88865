"""Baloot, Saudi Belote (rules spec `baloot.md`): the deal of five and the face-up card, the two (three)
bidding rounds with Hokum, Sun and Ashkal, the completion deal, the doubling ladder and the lock, the
play of Hokum and Sun with Ekka, projects, the Baloot, hand scoring with its exact rounding, al-kaboot
and the match to 152. Every regional variant of §13 is a `BalootOptions` field.

Seats are indexed in the order of play, which is anticlockwise: N=0, W=1, S=2, E=3 and
``next(seat) = (seat + 1) % 4``; teams are N–S (column 0, ``NS``) and W–E (column 1, ``WE``).

Actions (``Action.kind``): ``deal`` (chance: five cards per seat in ``cards``, the face-up card in
``info``), ``pass`` ``hokum`` (``suit``: -1 in round 1, the named suit after) ``sun`` ``ashkal`` ``kawesh``,
``complete`` (chance: the cards each seat receives), ``double`` ``triple`` ``four`` ``gahwa``
(``announce``: ``locked``, ``open`` or "" for a double or four), ``decline`` (a pass written on a doubling
line: a step of the ladder not taken, BAL-DBL-5; it changes nothing), ``declare`` (trick 1; ``announce`` the
kind), ``show`` (trick 2; ``melds=(mask,)``) and ``play`` (``card``; ``announce`` ``ekka`` or ``baloot``).

The score of a hand is computed from its totals by `score_summary`, the very function the calculator
(`jojotte_records.table.baloot_calc`, ``jojotte baloot score``) calls.

>>> r = BalootRules()
>>> s = r.apply(r.initial_state(dealer=0), deal_action(list(BALOOT_PACK.cards), 0))
>>> [a.kind for a in r.legal_actions(s)]
['pass', 'hokum', 'sun']
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, NamedTuple

from ..cards import ACE, EIGHT, NINE, SEVEN, card_name, iter_cards, mask_of, parse_card
from .baloot_cards import (
    BALOOT_PACK,
    HAND_TOTAL,
    KINDS,
    LAST_TRICK_BONUS,
    Project,
    adjacent_runs,
    baloot_mask,
    blocks_baloot,
    can_ekka,
    card_points,
    carries_baloot,
    ekka_open,
    has_baloot,
    higher_in_suit,
    iter_projects,
    kind_value,
    legal_plays,
    project_key,
    project_of,
    trick_winner,
)
from .base import CHANCE, Action, EventRules, Options, Violation, quick_replace, register

MATCH_TARGET = 152  # BAL-MATCH-2
GAHWA = 5  # the level G
LEVEL_WORDS = {1: "1", 2: "double", 3: "triple", 4: "four", GAHWA: "gahwa"}
RAISES = ("double", "triple", "four", "gahwa")  # BAL-DBL-2…5, in ladder order
DECLINE = "decline"  # a pass on a doubling line: the step not taken (BAL-DBL-5), no state change
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")
_SUIT_OF_WORD = {"S": 0, "H": 1, "D": 2, "C": 3, "SPADES": 0, "HEARTS": 1, "DIAMONDS": 2, "CLUBS": 3,
                 "♠": 0, "♥": 1, "♦": 2, "♣": 3}
_KIND_OF_WORD = {"sira": "sira", "fifty": "fifty", "50": "fifty", "hundred": "hundred", "100": "hundred",
                 "fourhundred": "fourhundred", "four-hundred": "fourhundred", "400": "fourhundred"}

# phases
DEAL, AUCTION, COMPLETE, PLAY, DONE = "deal", "auction", "complete", "play", "done"


@dataclass(frozen=True)
class BalootOptions(Options):
    """The options of §13 (``opt.`` dropped); every default is the spec's. Values are written in lower case."""

    values_any_case = True  # the spec writes values in capitals (``first_lead=DECLARER``)

    cut_variant: bool = False  # opt.cut_variant (BAL-DEAL-4): only the resulting hands are recorded
    kawesh: bool = False  # opt.kawesh
    project_tie_trump_priority: bool = False  # opt.project_tie_trump_priority (BAL-PROJ-9)
    baloot_in_project: str = "auto"  # opt.baloot_in_project (BAL-BALOOT-5)
    first_lead: str = "dealer_right"  # opt.first_lead (BAL-PLAY-2)
    project_multiplier: str = "cap2"  # opt.project_multiplier (BAL-SCORE-12)
    baloot_to_winner: bool = True  # opt.baloot_to_winner
    counting_team: str = "last_raiser_opponent"  # opt.counting_team (BAL-SCORE-1)
    both_teams_count: bool = False  # opt.both_teams_count
    no_doubling: bool = False  # opt.no_doubling
    riyadh_ashkal: bool = False  # opt.riyadh_ashkal (BAL-BID-14)
    third_round_ace: bool = False  # opt.third_round_ace
    lock_unspecified: str = "open"  # opt.lock_unspecified (BAL-DBL-6)
    sun_double_condition: str = "either"  # opt.sun_double_condition (BAL-DBL-8)
    hokum_bidder_may_switch: bool = True  # opt.hokum_bidder_may_switch (BAL-BID-9)
    sun_overcall_by: str = "any_earlier"  # opt.sun_overcall_by (BAL-BID-8)
    raise_callers: str = "personal"  # opt.raise_callers (BAL-DBL-3…5)
    long_runs: str = "split"  # opt.long_runs (BAL-PROJ-4)
    baloot_timing: str = "at_second_card"  # opt.baloot_timing (BAL-BALOOT-3)
    kaboot_projects: str = "project_team_only"  # opt.kaboot_projects (BAL-KABOOT-4)
    kaboot_baloot: str = "any_to_kaboot_team"  # opt.kaboot_baloot (BAL-KABOOT-5)
    qaid: bool = False  # opt.qaid: a hand with an irregularity of play is lost by the offending team

    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "baloot_in_project": ("auto", "must_declare", "declare_forbidden"),
        "first_lead": ("dealer_right", "declarer"),
        "project_multiplier": ("cap2", "full"),
        "counting_team": ("last_raiser_opponent", "always_defenders"),
        "lock_unspecified": ("open", "locked"),
        "sun_double_condition": ("either", "declarers_above"),
        "sun_overcall_by": ("any_earlier", "opponents_only"),
        "raise_callers": ("personal", "team"),
        "long_runs": ("split", "five_max"),
        "baloot_timing": ("at_second_card", "any_time"),
        "kaboot_projects": ("project_team_only", "always"),
        "kaboot_baloot": ("any_to_kaboot_team", "own_only"),
    }

    def __post_init__(self):
        for name, allowed in self.CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"option '{name}' takes one of {', '.join(allowed)}, not '{getattr(self, name)}'")



@quick_replace
class BalootState(NamedTuple):
    """A hand of Baloot at one moment. Hands are bitmasks of the cards still held."""

    phase: str
    dealer: int
    scores: tuple[int, int]  # the match before this hand (BAL-DBL-8)
    hands: tuple[int, ...]
    up: int  # the face-up card, -1 before the deal
    stock: int
    round: int  # auction round 1, 2 or 3
    calls: tuple[tuple[int, int, str, int], ...]  # (round, seat, kind, suit) of every auction call
    spoken: int  # calls made in the opening circuit (round 1) or the circuit (rounds 2, 3)
    circuit: bool  # round 1: the opening circuit is over
    bid: str  # the standing bid: "", hokum, sun, ashkal
    bidder: int
    bid_suit: int
    passed: int  # seats (bits) that passed since the standing bid was made
    contract: str  # "", hokum, sun
    trump: int
    declarer: int
    annulled: str  # "": played; "pass": all passed (BAL-DEAL-10); "kawesh"
    doubling: tuple[tuple[int, str, str], ...]  # (seat, kind, lock word) in order
    level: int
    doubler: int
    double_locked: bool
    four_locked: bool
    full: tuple[int, ...]  # each hand at the start of trick 1
    leader: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) in play order
    ekka: bool  # the leader of this trick validly declared Ekka
    played: int  # cards of the completed tricks
    history: tuple[tuple[int, tuple[tuple[int, int], ...], int], ...]  # (leader, plays, winner)
    points: tuple[int, int]  # card points per team, the last-trick bonus included
    taken: tuple[int, int]  # tricks per team
    declared: tuple[tuple[int, str], ...]  # (seat, kind) in trick 1
    best: int  # the seat of the best declared project (BAL-PROJ-10), -1
    shown: tuple[tuple[int, int], ...]  # (seat, mask) in trick 2
    baloot: int  # the seat that declared Baloot, -1

    @property
    def locked(self) -> bool:
        """BAL-DBL-7: locked at level 2 by a locked DOUBLE, at level 4 by a locked FOUR; open otherwise."""
        return (self.level == 2 and self.double_locked) or (self.level == 4 and self.four_locked)

    @property
    def tricks_done(self) -> int:
        return len(self.history)


_new_state = tuple.__new__  # a state from the list of its fields, in order (`BalootRules._next_play`)
(_PHASE, _HANDS, _LEADER, _TRICK, _EKKA, _PLAYED, _HISTORY, _POINTS, _TAKEN, _BALOOT) = (
    BalootState._fields.index(n) for n in ("phase", "hands", "leader", "trick", "ekka", "played", "history", "points",
                                           "taken", "baloot"))
_PLAIN_PLAYS = tuple(tuple(Action(seat, "play", card=c) for c in range(64)) for seat in range(4))  # each seat's plain cards
_MEMO_SIZE = 1 << 16  # the legal cards kept by `BalootRules.card_plays`, the scores kept by `BalootRules.score_hand`
# `BalootRules.score_hand`: the score of a hand memoised on what decides it, (its `HandSummary`, the options); shared
_SCORES: dict = {}


@lru_cache(maxsize=4096)
def _best_projects(hand: int, sun: bool, trump: int, trump_priority: bool) -> dict[str, Project]:
    """The best project of each kind in ``hand`` by `project_key` (BAL-PROJ-9; the first of equals), by kind; read only
    (`BalootRules._declared_project`: a declaration stands for the best of its kind, asked several times a hand)."""
    best: dict[str, tuple] = {}
    for p in iter_projects(hand, sun):
        key = project_key(p, sun, 0, trump, trump_priority)
        if p.kind not in best or key > best[p.kind][0]:
            best[p.kind] = (key, p)
    return {kind: p for kind, (_, p) in best.items()}


def team_of(seat: int) -> int:
    return seat % 2


def next_seat(seat: int) -> int:
    """The seat that plays after ``seat`` (BAL-DEAL-2: anticlockwise, the order of the seats' indices)."""
    return (seat + 1) % 4


def priority(seat: int, dealer: int) -> int:
    """0 for p1 (dealer's right) … 3 for p4 (the dealer) (§1)."""
    return (seat - dealer - 1) % 4


# --- hand scoring from totals (BAL-SCORE, BAL-KABOOT): shared with the calculator -------------

class HandSummary(NamedTuple):
    """What decides a hand's score: the totals a scorer writes down (the calculator's input)."""

    contract: str  # hokum or sun
    declarers: int  # team 0 (NS) or 1 (WE)
    level: int  # 1, 2, 3, 4 or GAHWA
    points: tuple[int, int]  # card points per team, last-trick bonus included
    projects: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # kinds shown per team (only the project team's)
    baloot: int = -1  # the team that scores the Baloot, -1
    kaboot: int = -1  # the team that took all eight tricks, -1
    declared: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # kinds declared per team (opt.kaboot_projects=always)


class Credit(NamedTuple):
    """One line of a hand's award: a column, an amount and the rule."""

    column: int
    amount: int
    rule: str
    why: str


class Step(NamedTuple):
    """One step of the computation, for the calculator's explanation."""

    rule: str
    text: str


class BalootScore(NamedTuple):
    """The score of one hand and every figure of its computation."""

    summary: HandSummary | None  # None for a hand without a contract
    counting_team: int  # -1 with opt.both_teams_count, or for kaboot and no contract
    game: tuple[int, int]  # card game points per team (BAL-SCORE-3/4)
    project_points: tuple[int, int]  # P per team
    totals: tuple[int, int]  # T per team (BAL-SCORE-6)
    winner: int  # the team that won the hand, -1 for no contract
    tie_break: str  # the rule that decided a tie, ""
    multiplier: int  # the level as a number (5 = gahwa)
    kaboot: int
    delta: tuple[int, int]
    credits: tuple[Credit, ...]
    match_winner: int  # gahwa: the team that wins the match, -1
    steps: tuple[Step, ...]

    @property
    def made(self) -> bool:
        return self.summary is not None and self.winner == self.summary.declarers

    @property
    def bidding_columns(self) -> tuple[int, ...]:
        """The declaring team's column (for the archive's ``made``), () without a contract."""
        return () if self.summary is None else (self.summary.declarers,)


def convert(cp: int, sun: bool) -> int:
    """Card points to game points: BAL-SCORE-3 (Hokum, a units digit of 5 rounds down) and BAL-SCORE-4 (Sun).

    >>> [convert(c, False) for c in (84, 85, 86, 94, 95, 97)], [convert(c, True) for c in (43, 45, 47, 85, 88)]
    ([8, 8, 9, 9, 9, 10], [8, 9, 10, 17, 18])
    """
    if not sun:
        return (cp + 4) // 10
    u = cp % 10
    if u == 5:
        return cp // 5
    return 2 * (cp // 10) + (2 if u > 5 else 0)


def counting_team(level: int, declarers: int, o: BalootOptions) -> int:
    """BAL-SCORE-1: defenders at levels 1, 3 and G, declarers at 2 and 4 (opt.counting_team)."""
    if o.counting_team == "always_defenders" or level in (1, 3, GAHWA):
        return 1 - declarers
    return declarers


def ct_wins_tie(u: int, sun: bool) -> bool | None:
    """BAL-SCORE-8/9: whether the counting team wins a tie from its units digit; None: the declaring team wins."""
    if sun:
        return True if u in (1, 2, 3, 4) else False if u in (6, 7, 8, 9) else None
    return True if u in (2, 3, 4, 5) else False if u in (6, 7, 8, 9, 0) else None


def level_text(level: int) -> str:
    return "gahwa" if level == GAHWA else str(level)


def project_value(kinds: tuple[str, ...], sun: bool) -> int:
    return sum(kind_value(k, sun) or 0 for k in kinds)


def score_summary(h: HandSummary, o: BalootOptions | None = None) -> BalootScore:
    """The award of one hand from its totals (§10 steps 1–5, §11 al-kaboot).

    Raises:
        ValueError: the totals are impossible (card points not summing to 162/130, projects for both teams,
            a Baloot in Sun, a level the contract does not allow …).
    """
    o = o or BalootOptions()
    sun = h.contract == "sun"
    _check_summary(h, sun)
    steps: list[Step] = []
    team = ("NS", "WE")
    pt = 0 if h.projects[0] else 1 if h.projects[1] else -1
    pp = (project_value(h.projects[0], sun), project_value(h.projects[1], sun))
    if h.kaboot >= 0:
        return _kaboot(h, o, sun, pt, pp, steps)
    total = HAND_TOTAL[h.contract]
    if sum(h.points) != total or min(h.points) < 0:
        raise ValueError(f"the card points {h.points[0]} + {h.points[1]} must sum to {total} in {h.contract} (BAL-DECK-7)")
    ct, g, cards_total = _card_game_points(h, o, sun, steps)
    b = h.baloot
    totals = [g[0], g[1]]
    if pt >= 0:
        totals[pt] += pp[pt]
        steps.append(Step("BAL-SCORE-6", f"{team[pt]} is the project team: + {pp[pt]} ({', '.join(h.projects[pt])})"))
    if b >= 0:
        totals[b] += 2
        steps.append(Step("BAL-BALOOT-2", f"{team[b]} scored the Baloot: + 2"))
    steps.append(Step("BAL-SCORE-6", f"totals: {team[0]} {totals[0]}, {team[1]} {totals[1]}"))
    winner, tie = _hand_winner(h, sun, ct, g, totals, steps)
    m = h.level
    if m == GAHWA:
        steps.append(Step("BAL-SCORE-13", f"gahwa: {team[winner]} wins the match"))
        credits = [Credit(winner, 0, "BAL-SCORE-13", "gahwa won: the match is won"),
                   Credit(1 - winner, 0, "BAL-SCORE-13", "gahwa lost: the match is lost")]
        return _score(h, ct, g, pp, totals, winner, tie, m, -1, credits, winner, steps)
    credits = _award(h, o, sun, ct, g, pp, pt, winner, cards_total, steps)
    return _score(h, ct, g, pp, totals, winner, tie, m, -1, credits, -1, steps)


def _check_summary(h: HandSummary, sun: bool) -> None:
    """Raise ValueError for totals no hand can have (`score_summary`)."""
    if h.contract not in ("hokum", "sun"):
        raise ValueError(f"the contract is hokum or sun, not '{h.contract}'")
    if h.level not in (1, 2, 3, 4, GAHWA):
        raise ValueError(f"the level is 1, 2, 3, 4 or gahwa, not '{h.level}'")
    if h.declarers not in (0, 1) or h.baloot not in (-1, 0, 1) or h.kaboot not in (-1, 0, 1):
        raise ValueError("teams are 0 (NS) and 1 (WE)")
    if sun and h.level > 2:
        raise ValueError(f"a Sun hand has no {LEVEL_WORDS[h.level].upper()}: only a DOUBLE (BAL-DBL-9)")
    if sun and h.baloot >= 0:
        raise ValueError("there is no Baloot in Sun (BAL-BALOOT-1)")
    for kinds in (*h.projects, *h.declared):
        for k in kinds:
            if k not in KINDS or kind_value(k, sun) is None:
                raise ValueError(f"'{k}' is not a project in {h.contract} (BAL-PROJ-1)")
    if h.projects[0] and h.projects[1]:
        raise ValueError("only the project team scores projects (BAL-PROJ-10): give projects for one team")


def _card_game_points(h: HandSummary, o: BalootOptions, sun: bool, steps: list[Step]) -> tuple[int, tuple[int, int], int]:
    """Steps 1–2: the counting team (-1 with opt.both_teams_count), the card game points per team and their sum."""
    team = ("NS", "WE")
    d, od = h.declarers, 1 - h.declarers
    cards_total = 26 if sun else 16
    conv = "BAL-SCORE-4" if sun else "BAL-SCORE-3"
    if o.both_teams_count:
        g = (convert(h.points[0], sun), convert(h.points[1], sun))
        steps.append(Step("opt.both_teams_count", "each team converts its own card points"))
        for t in (0, 1):
            steps.append(Step(conv, f"{team[t]}: {h.points[t]} card points -> {g[t]} game points"))
        return -1, g, g[0] + g[1]
    ct = counting_team(h.level, d, o)
    why = ("defenders count (opt.counting_team=always_defenders)" if o.counting_team == "always_defenders"
           else f"level {level_text(h.level)}: the " + ("defenders" if ct == od else "declarers") + " count")
    steps.append(Step("BAL-SCORE-1", f"counting team {team[ct]} ({why})"))
    gct = convert(h.points[ct], sun)
    g = (gct, cards_total - gct) if ct == 0 else (cards_total - gct, gct)
    rounding = (f"({h.points[ct]} + 4) // 10 = {gct}" if not sun else
                f"units {h.points[ct] % 10}: " + (f"{h.points[ct]} / 5 = {gct}" if h.points[ct] % 10 == 5 else
                                                   f"2 x {h.points[ct] // 10}" + (" + 2" if h.points[ct] % 10 > 5 else "") + f" = {gct}"))
    steps.append(Step(conv, f"{team[ct]}: {h.points[ct]} card points -> {rounding} game points; "
                            f"{team[1 - ct]}: {cards_total} - {gct} = {g[1 - ct]}"))
    return ct, g, cards_total


def _hand_winner(h: HandSummary, sun: bool, ct: int, g: tuple[int, int], totals: list[int], steps: list[Step]) -> tuple[int, str]:
    """Step 4: the team that wins the hand and the rule that broke a tie ("" without one)."""
    team = ("NS", "WE")
    d, od = h.declarers, 1 - h.declarers
    if totals[d] != totals[od]:
        winner = d if totals[d] > totals[od] else od
        steps.append(Step("BAL-SCORE-7", f"{team[winner]} has the higher total and wins the hand"))
        return winner, ""
    tie = "BAL-SCORE-9" if sun else "BAL-SCORE-8"
    if ct < 0:
        loss = [h.points[t] - (5 if sun else 10) * g[t] for t in (0, 1)]
        winner = d if loss[d] == loss[od] else (d if loss[d] > loss[od] else od)
        steps.append(Step("opt.both_teams_count", f"tie: rounding loss {team[0]} {loss[0]}, {team[1]} {loss[1]}; {team[winner]} wins "
                               "(the team that lost more in rounding; equal: the declarers)"))
        return winner, tie
    u = h.points[ct] % 10
    ctw = ct_wins_tie(u, sun)
    winner = d if ctw is None else ct if ctw else 1 - ct
    outcome = "the declaring team wins" if ctw is None else "the counting team " + ("wins" if ctw else "loses")
    steps.append(Step(tie, f"tie at {totals[d]}: units digit {u} -> {outcome}: {team[winner]}"))
    return winner, tie


def _award(h: HandSummary, o: BalootOptions, sun: bool, ct: int, g: tuple[int, int], pp: tuple[int, int], pt: int,
           winner: int, cards_total: int, steps: list[Step]) -> list[Credit]:
    """Step 5 below gahwa: the credits of an undoubled hand won or lost by the declarers (BAL-SCORE-10/11) or of a
    doubled one (BAL-SCORE-12)."""
    team = ("NS", "WE")
    d, b, m = h.declarers, h.baloot, h.level
    conv = "BAL-SCORE-4" if sun else "BAL-SCORE-3"
    bal_to = b if b >= 0 and (o.baloot_to_winner or b == winner) else -1
    credits: list[Credit] = []
    if m == 1 and winner == d:
        for t in (0, 1):
            credits.append(Credit(t, g[t], conv, f"{h.points[t]} card points" if ct < 0 or t == ct else
                                  f"{cards_total} - {g[1 - t]} card game points"))
        if pt >= 0:
            credits.append(Credit(pt, pp[pt], "BAL-SCORE-6", "projects " + ", ".join(h.projects[pt])))
        if b >= 0:
            credits.append(Credit(b, 2, "BAL-BALOOT-2", "the Baloot"))
        steps.append(Step("BAL-SCORE-10", "undoubled, declarers won: each team receives its own total"))
    elif m == 1:
        credits.append(Credit(winner, cards_total, "BAL-SCORE-11", f"declarers lost: all {cards_total} card game points"))
        if pt >= 0:
            credits.append(Credit(winner, pp[pt], "BAL-SCORE-11", "the projects " + ", ".join(h.projects[pt])
                                  + ("" if pt == winner else f" of {team[pt]}")))
        if bal_to >= 0:
            credits.append(Credit(winner, 2, "BAL-SCORE-11", "the Baloot" + ("" if b == winner else f" of {team[b]}")))
        credits.append(Credit(d, 0, "BAL-SCORE-11", "declarers lost: they receive nothing"))
        steps.append(Step("BAL-SCORE-11", f"undoubled, declarers lost: defenders {team[winner]} receive "
                                          f"{cards_total} + projects + Baloot, declarers nothing"))
    else:
        cards = 52 if sun else 16 * m
        pm = m if o.project_multiplier == "full" else 2
        credits.append(Credit(winner, cards, "BAL-SCORE-12", f"level {m} won: {cards} card game points"))
        if pt >= 0:
            credits.append(Credit(winner, pm * pp[pt], "BAL-SCORE-12", f"projects {pm} x {pp[pt]}"
                                  + ("" if pt == winner else f" of {team[pt]}")))
        if bal_to >= 0:
            credits.append(Credit(winner, 2, "BAL-BALOOT-2", "the Baloot, never multiplied" + ("" if b == winner else f", of {team[b]}")))
        credits.append(Credit(1 - winner, 0, "BAL-SCORE-12", f"level {m} lost: nothing"))
        steps.append(Step("BAL-SCORE-12", f"level {m}: {team[winner]} receives {cards} + {pm} x projects + Baloot, "
                                          f"{team[1 - winner]} nothing"))
    if b >= 0 and bal_to < 0:
        steps.append(Step("opt.baloot_to_winner", f"the Baloot of {team[b]} is lost (opt.baloot_to_winner=false)"))
    return credits


def _kaboot(h: HandSummary, o: BalootOptions, sun: bool, pt: int, pp: tuple[int, int], steps: list[Step]) -> BalootScore:
    k, m = h.kaboot, h.level
    team = ("NS", "WE")
    steps.append(Step("BAL-KABOOT-1", f"al-kaboot: {team[k]} took all eight tricks"))
    credits: list[Credit] = []
    if m == GAHWA:
        steps.append(Step("BAL-KABOOT-6", f"gahwa: {team[k]} wins the match"))
        credits += [Credit(k, 0, "BAL-KABOOT-6", "kaboot at gahwa: the match is won"),
                    Credit(1 - k, 0, "BAL-KABOOT-6", "kaboot at gahwa: the match is lost")]
        return _score(h, -1, (0, 0), pp, (0, 0), k, "", m, k, credits, k, steps)
    base = (44 if m == 1 else 88) if sun else 25 * m
    credits.append(Credit(k, base, "BAL-KABOOT-3", f"kaboot at level {m}: {base}"))
    steps.append(Step("BAL-KABOOT-3", f"base {base}"))
    pm = 1 if m == 1 else m if o.project_multiplier == "full" else 2
    if pt == k:
        p = pp[k]
        steps.append(Step("BAL-KABOOT-4", f"{team[k]} holds project precedence: + {pm} x {p}"))
    elif o.kaboot_projects == "always":
        p = project_value(h.declared[k], sun)
        steps.append(Step("opt.kaboot_projects", f"{team[k]}'s own declared projects count: + {pm} x {p}"))
    else:
        p = 0
        if pt >= 0:
            steps.append(Step("BAL-KABOOT-2", f"the projects of {team[pt]}, who took no trick, are void"))
    if p:
        credits.append(Credit(k, pm * p, "BAL-KABOOT-4", f"projects {pm} x {p}"))
    if h.baloot >= 0 and (o.kaboot_baloot == "any_to_kaboot_team" or h.baloot == k):
        credits.append(Credit(k, 2, "BAL-KABOOT-5", "a Baloot was declared" + ("" if h.baloot == k else f" (by {team[h.baloot]})")))
        steps.append(Step("BAL-KABOOT-5", "+ 2 for the Baloot"))
    credits.append(Credit(1 - k, 0, "BAL-KABOOT-2", "took no trick: nothing"))
    totals = (0, 0)
    return _score(h, -1, (0, 0), pp, totals, k, "", m, k, credits, -1, steps)


def _score(h, ct, g, pp, totals, winner, tie, m, kaboot, credits, match_winner, steps) -> BalootScore:
    delta = [0, 0]
    for c in credits:
        delta[c.column] += c.amount
    return BalootScore(h, ct, tuple(g), tuple(pp), tuple(totals), winner, tie, m, kaboot if kaboot >= 0 else h.kaboot,
                       tuple(delta), tuple(credits), match_winner, tuple(steps))


def no_score(reason: str) -> BalootScore:
    """A hand abandoned without a contract (BAL-DEAL-10, BAL-MATCH-5; opt.kawesh)."""
    rule, why = (("BAL-DEAL-10", "annulled by Kawesh (opt.kawesh): no score") if reason == "kawesh"
                 else ("BAL-DEAL-10", "all four passed: the hand is abandoned, no score"))
    credits = (Credit(0, 0, rule, why), Credit(1, 0, rule, why))
    return BalootScore(None, -1, (0, 0), (0, 0), (0, 0), -1, "", 0, -1, (0, 0), credits, -1, (Step(rule, why),))


class BalootSheet(NamedTuple):
    """The match (``sakka``) to 152: each team's score and the result (BAL-MATCH)."""

    scores: tuple[int, int] = (0, 0)  # BAL-MATCH-1
    hands: int = 0
    winners: tuple[int, ...] = ()
    over: bool = False

    def add(self, hand: BalootScore) -> "BalootSheet":
        """The sheet after one hand (BAL-SCORE-14, BAL-MATCH-2…5).

        Raises:
            ValueError: the match is already over.
        """
        if self.over:
            raise ValueError(f"the match is over (won by column {', '.join(map(str, self.winners))}); no more hands")
        scores = (self.scores[0] + hand.delta[0], self.scores[1] + hand.delta[1])
        if hand.match_winner >= 0:  # BAL-MATCH-4
            return BalootSheet(scores, self.hands + 1, (hand.match_winner,), True)
        if max(scores) >= MATCH_TARGET and scores[0] != scores[1]:  # BAL-MATCH-2; a tie plays on (BAL-MATCH-3)
            return BalootSheet(scores, self.hands + 1, (0 if scores[0] > scores[1] else 1,), True)
        return BalootSheet(scores, self.hands + 1)


# --- the rules ---------------------------------------------------------------------------------

@register
class BalootRules(EventRules):
    """Baloot: four players in two partnerships, 32 cards, Hokum or Sun, a match to 152."""

    name = "baloot"
    aliases = ("saudi-belote",)
    title = "Baloot (Saudi Belote)"
    line_keywords = ("deal", "bids", "complete", "doubling", "trick", "score")
    seats = 4
    seat_labels = ("N", "W", "S", "E")
    sheet_labels = ("NS", "WE")
    pack = BALOOT_PACK
    options_class = BalootOptions
    rule_prefix = "BAL"
    list_lines = frozenset({"deal", "complete"})
    dealer_rule = "BAL-DEAL-3"
    trick_rule = "BAL-PLAY-4"
    play_rule = "BAL-PLAY-1"
    game_rule = "BAL-MATCH-2"
    game_target = MATCH_TARGET
    options: BalootOptions

    # --- the start, whose turn, the end ------------------------------------------------------
    def initial_state(self, dealer: int, sheet=None) -> BalootState:
        """The state before the deal; ``sheet`` (a `BalootSheet` or the two scores) is the match before this hand,
        which decides whether a Sun may be doubled (BAL-DBL-8); the start of a match when omitted."""
        scores = tuple(getattr(sheet, "scores", sheet) or (0, 0))
        z = (0, 0, 0, 0)
        return BalootState(DEAL, dealer, scores, z, -1, 0, 1, (), 0, False, "", -1, -1, 0, "", -1, -1, "", (), 1, -1,
                           False, False, z, -1, (), False, 0, (), (0, 0), (0, 0), (), -1, (), -1)

    def next_dealer(self, dealer: int) -> int:
        """BAL-DEAL-3: the deal passes to the dealer's right, after every hand."""
        return (dealer + 1) % 4

    def is_terminal(self, s: BalootState) -> bool:
        return s.phase == DONE

    def current_player(self, s: BalootState) -> int:
        """Who acts now (CHANCE at a deal). In the windows of round 1 any eligible player may speak
        (BAL-BID-10); this is the one of highest priority among them."""
        if s.phase in (DEAL, COMPLETE):
            return CHANCE
        if s.phase == AUCTION:
            return self._speakers(s)[0]
        if s.phase == PLAY:
            return self._to_play(s)
        return -1

    def first_leader(self, s: BalootState) -> int:
        """BAL-PLAY-2: p1 leads trick 1 (opt.first_lead=declarer: the declarer)."""
        return s.declarer if self.options.first_lead == "declarer" else (s.dealer + 1) % 4

    def _to_play(self, s: BalootState) -> int:
        if not s.trick:
            return s.leader
        return next_seat(s.trick[-1][0])

    # --- the auction (BAL-BID) -------------------------------------------------------------------
    def _eligible(self, s: BalootState) -> int:
        """Round 1 after the opening circuit: the seats (bits) that may still speak to the standing bid (BAL-BID-8…11)."""
        o = self.options
        if s.bid == "hokum":
            seats = [x for x in range(4) if o.hokum_bidder_may_switch or x != s.bidder]
        else:
            top = priority(s.bidder, s.dealer)
            seats = [x for x in range(4) if priority(x, s.dealer) < top
                     and (o.sun_overcall_by == "any_earlier" or team_of(x) != team_of(s.bidder))]
        return mask_of(seats) & ~s.passed

    def _speakers(self, s: BalootState) -> tuple[int, ...]:
        """The seats that may call now, in priority order."""
        if s.round == 1 and s.circuit:
            pending = self._eligible(s)
            return tuple(sorted((x for x in range(4) if pending >> x & 1), key=lambda x: priority(x, s.dealer)))
        return ((s.dealer + 1 + s.spoken) % 4,)

    def _calls(self, s: BalootState) -> list[Action]:
        """Every legal auction call now (BAL-BID-1…19, opt.riyadh_ashkal, opt.third_round_ace, opt.kawesh)."""
        o = self.options
        out: list[Action] = []
        up_suit = s.up >> 4
        for seat in self._speakers(s):
            out.append(Action(seat, "pass"))
            if s.round == 1:
                if not s.circuit:
                    if s.bid == "":
                        out.append(Action(seat, "hokum"))  # BAL-BID-3
                    out.append(Action(seat, "sun"))  # BAL-BID-5
                    if s.bid == "" and priority(seat, s.dealer) >= 2:
                        out.append(Action(seat, "ashkal"))  # BAL-BID-4
                else:
                    out.append(Action(seat, "sun"))  # BAL-BID-8/9
                if o.kawesh and self._kawesh_hand(s, seat):
                    out.append(Action(seat, "kawesh"))
            elif s.round == 2:
                if s.bid == "":
                    out += [Action(seat, "hokum", suit=x) for x in range(4) if x != up_suit]  # BAL-BID-16
                out.append(Action(seat, "sun"))
                if o.riyadh_ashkal and s.bid == "" and priority(seat, s.dealer) >= 2:
                    out.append(Action(seat, "ashkal"))
            else:
                out += [Action(seat, "hokum", suit=x) for x in range(4)]
                out.append(Action(seat, "sun"))
        return out

    @staticmethod
    def _kawesh_hand(s: BalootState, seat: int) -> bool:
        hand = s.hands[seat]
        return all((c & 15) in (SEVEN, EIGHT, NINE) for c in iter_cards(hand)) and hand.bit_count() == 5

    def _why_call(self, s: BalootState, a: Action) -> Violation:
        """The rule an auction call breaks (it is not among `_calls`)."""
        who = f"{{p{a.seat}}}" if 0 <= a.seat < 4 else "nobody"
        speakers = self._speakers(s)
        if a.kind not in ("pass", "hokum", "sun", "ashkal", "kawesh"):
            if a.kind in RAISES:
                return Violation("BAL-DBL-1", f"{who} called {a.kind.upper()} during the auction; doubling comes after it")
            return Violation("BAL-BID-1", f"the auction is on: {who}'s {a.kind} is not a call (pass, hokum, sun, ashkal)")
        if a.seat not in speakers:
            if s.round == 1 and s.circuit:
                if 0 <= a.seat < 4 and s.passed >> a.seat & 1:
                    return Violation("BAL-BID-10", f"{who} already passed to the standing {s.bid.upper()}")
                if s.bid == "hokum":
                    return Violation("BAL-BID-9", f"{who} made the standing HOKUM and may not speak again "
                                                                    "(hokum_bidder_may_switch=false)")
                if self.options.sun_overcall_by == "opponents_only" and 0 <= a.seat < 4 and \
                        team_of(a.seat) == team_of(s.bidder) and priority(a.seat, s.dealer) < priority(s.bidder, s.dealer):
                    return Violation("BAL-BID-8", f"{who} may not overcall his partner's {s.bid.upper()} "
                                                            "(sun_overcall_by=opponents_only)")
                return Violation("BAL-BID-7", f"{who} ranks below {{p{s.bidder}}}, whose {s.bid.upper()} stands: "
                                              "he may make no call in round 1")
            rule = "BAL-BID-2" if s.round == 1 else "BAL-BID-15" if s.round == 2 else "BAL-BID-20"
            return Violation(rule, f"{who} called out of turn: it is {{p{speakers[0]}}}'s turn")
        if a.kind == "kawesh":
            if not self.options.kawesh:
                return Violation("BAL-BID-1", f"{who} called Kawesh, which these rules do not allow (kawesh is off)")
            if s.round != 1:
                return Violation("BAL-BID-14", f"{who} called Kawesh after round 1 (kawesh)")
            return Violation("BAL-BID-1", f"{who} called Kawesh (kawesh) holding cards other than sevens, eights and nines")
        if s.round == 1:
            if a.kind == "hokum":
                if a.suit >= 0 and a.suit != s.up >> 4:
                    return Violation("BAL-BID-3", f"{who}'s round-1 HOKUM is in the face-up suit, not {SUIT_WORDS[a.suit]}")
                return Violation("BAL-BID-3", f"{who} called HOKUM after a bid was made; it is only the first bid of "
                                              "the opening circuit")
            if a.kind == "ashkal":
                if s.circuit:
                    return Violation("BAL-BID-8", f"{who} may overcall a SUN only with SUN, not ASHKAL")
                if priority(a.seat, s.dealer) < 2:
                    return Violation("BAL-BID-4", f"{who} called ASHKAL; only the dealer and the dealer's left (p3, p4) may")
                return Violation("BAL-BID-4", f"{who} called ASHKAL after a bid; every earlier player must have passed")
            return Violation("BAL-BID-5", f"{who}'s {a.kind.upper()} is not legal now")
        if s.round == 2:
            if a.kind == "ashkal":
                if not self.options.riyadh_ashkal:
                    return Violation("BAL-BID-14", f"{who} called ASHKAL in round 2")
                return Violation("BAL-BID-14", f"{who}'s round-2 ASHKAL: only p3 or p4 with every earlier player passed")
            if a.kind == "hokum":
                if s.bid:
                    return Violation("BAL-BID-18", f"{who} called HOKUM over {{p{s.bidder}}}'s HOKUM; only SUN or PASS may follow")
                if a.suit < 0:
                    return Violation("BAL-BID-16", f"{who}'s round-2 HOKUM names no trump suit")
                return Violation("BAL-BID-16", f"{who}'s round-2 HOKUM names {SUIT_WORDS[a.suit]}, the face-up card's suit")
        if a.kind == "hokum" and a.suit < 0:
            return Violation("BAL-BID-20", f"{who}'s round-3 HOKUM names no trump suit (third_round_ace)")
        return Violation("BAL-BID-14", f"{who}'s {a.kind.upper()} is not legal in round {s.round}")

    def _next_call(self, s: BalootState, a: Action) -> BalootState:
        calls = s.calls + ((s.round, a.seat, a.kind, a.suit),)
        s = s._replace(calls=calls)
        if a.kind == "kawesh":
            return s._replace(phase=DONE, annulled="kawesh")
        bit = 1 << a.seat
        if s.round == 1:
            if a.kind == "pass":
                s = s._replace(passed=s.passed | bit if s.bid else s.passed)
            else:
                s = s._replace(bid=a.kind, bidder=a.seat, bid_suit=s.up >> 4, passed=0)
            if not s.circuit:
                spoken = s.spoken + 1
                s = s._replace(spoken=spoken, circuit=spoken == 4 or a.kind in ("sun", "ashkal"))  # BAL-BID-2
                if s.circuit and not s.bid:
                    return s._replace(round=2, spoken=0, circuit=False)  # BAL-BID-13
            if s.circuit and not self._eligible(s):  # BAL-BID-11
                if s.bid == "hokum":
                    return self._contract(s, "hokum", s.up >> 4, s.bidder)
                return self._contract(s, "sun", -1, s.bidder if s.bid == "sun" else (s.bidder + 2) % 4)  # BAL-BID-12
            return s
        if a.kind == "sun":  # BAL-BID-17
            return self._contract(s, "sun", -1, a.seat)
        if a.kind == "ashkal":
            return self._contract(s, "sun", -1, (a.seat + 2) % 4)
        if a.kind == "hokum":
            if s.round == 3:
                return self._contract(s, "hokum", a.suit, a.seat)
            s = s._replace(bid="hokum", bidder=a.seat, bid_suit=a.suit)
        spoken = s.spoken + 1
        s = s._replace(spoken=spoken)
        if s.round == 3 or spoken == 4:
            if s.bid == "hokum":  # BAL-BID-19
                return self._contract(s, "hokum", s.bid_suit, s.bidder)
            if s.round == 2 and self.options.third_round_ace and (s.up & 15) == ACE:
                return s._replace(round=3, spoken=0)
            return s._replace(phase=DONE, annulled="pass")  # BAL-BID-20, BAL-DEAL-10
        return s

    def auction_key(self, s: BalootState, keyword: str):
        """What reading, checking and making the calls of a ``bids`` line depend on, None outside the auction (the fast
        path memoises whole lines on it): the dealer, the face-up card's suit (BAL-BID-3/16) and whether it is an ace
        (opt.third_round_ace, BAL-BID-20), the calls so far (which give the round, the standing bid, who passed:
        BAL-BID-2…19), and with opt.kawesh the hands (BAL-BID-14)."""
        if keyword != "bids" or s.phase != AUCTION:
            return None
        return (s.dealer, s.up >> 4, (s.up & 15) == ACE, s.calls, s.hands if self.options.kawesh else None)

    def _contract(self, s: BalootState, contract: str, trump: int, declarer: int) -> BalootState:
        return s._replace(phase=COMPLETE, contract=contract, trump=trump, declarer=declarer)

    # --- doubling (BAL-DBL) ----------------------------------------------------------------------
    def _doubling_open(self, s: BalootState) -> bool:
        """BAL-DBL-1: from the end of the auction (before or after the completion deal) to the first card."""
        if self.options.no_doubling:
            return False
        return s.phase == COMPLETE or (s.phase == PLAY and not s.history and not s.trick)

    def sun_double_allowed(self, s: BalootState) -> bool:
        """BAL-DBL-8: one team strictly above 100 and the other strictly below (opt.sun_double_condition)."""
        d = team_of(s.declarer)
        hi, lo = s.scores[d], s.scores[1 - d]
        if hi > 100 and lo < 100:
            return True
        return self.options.sun_double_condition == "either" and lo > 100 and hi < 100

    def _raises(self, s: BalootState) -> list[Action]:
        if not self._doubling_open(s):
            return []
        team = self.options.raise_callers == "team"
        d = team_of(s.declarer)
        defenders = [x for x in range(4) if team_of(x) != d]
        declarers = [s.declarer, (s.declarer + 2) % 4] if team else [s.declarer]
        out: list[Action] = []
        if s.level == 1:
            if s.contract == "sun":
                if self.sun_double_allowed(s):
                    out += [Action(x, "double") for x in defenders]
            else:
                out += [Action(x, "double", announce=w) for x in defenders for w in ("", "locked", "open")]
        elif s.contract == "hokum" and s.level == 2:
            out += [Action(x, "triple") for x in declarers]
        elif s.contract == "hokum" and s.level == 3:
            out += [Action(x, "four", announce=w) for x in (defenders if team else [s.doubler]) for w in ("", "locked", "open")]
        elif s.contract == "hokum" and s.level == 4:
            out += [Action(x, "gahwa") for x in declarers]
        return out

    def _why_raise(self, s: BalootState, a: Action) -> Violation:
        who = f"{{p{a.seat}}}"
        if self.options.no_doubling:
            return Violation("BAL-DBL-1", f"{who} called {a.kind.upper()}; there is no doubling (no_doubling)")
        if not self._doubling_open(s):
            return Violation("BAL-DBL-1", f"{who} called {a.kind.upper()} after the first card of trick 1")
        d = team_of(s.declarer)
        ladder = {"double": 1, "triple": 2, "four": 3, "gahwa": 4}
        if s.contract == "sun":
            if a.kind != "double" or s.level > 1:
                return Violation("BAL-DBL-9", f"{who} called {a.kind.upper()} in Sun; only a DOUBLE exists there")
            if a.announce:
                return Violation("BAL-DBL-9", f"{who}'s DOUBLE is {a.announce}; a Sun hand is never locked")
            if team_of(a.seat) == d:
                return Violation("BAL-DBL-8", f"{who} doubled his own team's Sun")
            return Violation("BAL-DBL-8", f"{who} doubled the Sun at {s.scores[0]}-{s.scores[1]}: one team must be above "
                                          "100 and the other below" + (" (the declarers above)" if
                                                                        self.options.sun_double_condition == "declarers_above" else ""))
        rule = {"double": "BAL-DBL-2", "triple": "BAL-DBL-3", "four": "BAL-DBL-4", "gahwa": "BAL-DBL-5"}[a.kind]
        if ladder[a.kind] != s.level:
            if ladder[a.kind] < s.level:
                return Violation(rule, f"{who} called {a.kind.upper()} at level {level_text(s.level)}; each step is called once")
            return Violation(rule, f"{who} called {a.kind.upper()} before {RAISES[ladder[a.kind] - 2].upper()}")
        if a.announce and a.kind in ("triple", "gahwa"):
            return Violation("BAL-DBL-6", f"{who}'s {a.kind.upper()} is {a.announce}; only DOUBLE and FOUR choose the lock")
        if a.kind == "double" or (a.kind == "four" and self.options.raise_callers == "team"):
            return Violation(rule, f"{who} is on the declaring side; only a defender may call {a.kind.upper()}")
        if a.kind == "four":
            return Violation(rule, f"{who} did not DOUBLE: only {{p{s.doubler}}}, who doubled, may call FOUR "
                                   "(raise_callers=personal)")
        if self.options.raise_callers == "team":
            return Violation(rule, f"{who} is a defender; only the declaring team may call {a.kind.upper()}")
        return Violation(rule, f"{who} may not call {a.kind.upper()}: only the declarer {{p{s.declarer}}} may "
                               "(raise_callers=personal)")

    def _check_decline(self, s: BalootState, a: Action) -> Violation | None:
        """A pass on a doubling line: legal in the doubling window (BAL-DBL-1), also with no_doubling (no double is
        what it says); every step of the ladder is optional (BAL-DBL-5), so anyone may say he takes none."""
        if not 0 <= a.seat < 4:
            return Violation("BAL-DEAL-1", f"there is no seat {a.seat} at a table of four")
        who = f"{{p{a.seat}}}"
        if s.phase == AUCTION:
            return Violation("BAL-DBL-1", f"{who} passed on the doubling during the auction; doubling comes after it")
        if s.phase == COMPLETE or (s.phase == PLAY and not s.history and not s.trick):
            return None
        return Violation("BAL-DBL-1", f"{who} passed on the doubling after the first card of trick 1, where doubling ends")

    def _next_raise(self, s: BalootState, a: Action) -> BalootState:
        lock = a.announce == "locked" or (a.announce == "" and self.options.lock_unspecified == "locked")
        s = s._replace(doubling=s.doubling + ((a.seat, a.kind, a.announce),), level=GAHWA if a.kind == "gahwa" else s.level + 1)
        if a.kind == "double":
            return s._replace(doubler=a.seat, double_locked=lock and s.contract == "hokum")
        if a.kind == "four":
            return s._replace(four_locked=lock)
        return s

    # --- projects (BAL-PROJ) ---------------------------------------------------------------------
    def _declared_project(self, s: BalootState, seat: int, kind: str) -> Project | None:
        """The project a declaration of ``kind`` by ``seat`` stands for: his best of that kind (BAL-PROJ-9), None."""
        return _best_projects(s.full[seat], s.contract == "sun", s.trump, self.options.project_tie_trump_priority).get(kind)

    def _key(self, s: BalootState, p: Project, order: int) -> tuple:
        return project_key(p, s.contract == "sun", order, s.trump, self.options.project_tie_trump_priority)

    def best_project(self, s: BalootState) -> tuple[int, Project | None]:
        """BAL-PROJ-9/10: the owner of the best declared project and the project his declaration stands for."""
        first = self.first_leader(s)
        best, best_key, best_p = -1, None, None
        for seat, kind in s.declared:
            p = self._declared_project(s, seat, kind)
            if p is None:
                continue
            key = self._key(s, p, (seat - first) % 4)
            if best_key is None or key > best_key:
                best, best_key, best_p = seat, key, p
        return best, best_p

    def _declares(self, s: BalootState, seat: int) -> list[Action]:
        if s.history or any(x == seat for x, _ in s.declared) or any(x == seat for x, _ in s.trick):
            return []
        sun = s.contract == "sun"
        floor = max((kind_value(k, sun) or 0 for _, k in s.declared), default=0)
        out = []
        for kind in KINDS:
            v = kind_value(kind, sun)
            if v is not None and v >= floor and self._declared_project(s, seat, kind) is not None:
                out.append(Action(seat, "declare", announce=kind))
        return out

    def _shows(self, s: BalootState, seat: int) -> list[Action]:
        if s.tricks_done != 1 or s.best < 0 or team_of(seat) != team_of(s.best) or any(x == seat for x, _ in s.trick):
            return []
        sun = s.contract == "sun"
        mine = [project_of(m, sun) for x, m in s.shown if x == seat]
        if len(mine) >= 2:  # BAL-PROJ-5
            return []
        used = 0
        for p in mine:
            used |= p.mask
        must = self.must_show(s, seat)
        out = []
        for p in iter_projects(s.full[seat], sun):
            if p.mask & used:
                continue
            if self.options.long_runs == "five_max" and (any(adjacent_runs(p, q) for q in mine) or self._splits_run(s, seat, p)):
                continue
            if must is not None and p.kind != must.kind:  # BAL-PROJ-12: any project of the declared kind
                continue
            out.append(Action(seat, "show", melds=(p.mask,)))
        return out

    def _splits_run(self, s: BalootState, seat: int, p: Project) -> bool:
        """opt.long_runs=five_max: a run of more than five shows whole, as one hundred; no part of it alone."""
        if p.quad:
            return False
        hand = s.full[seat]
        ranks = [c & 15 for c in iter_cards(p.mask)]
        lo, hi = min(ranks), max(ranks)
        while lo > 7 and hand >> (p.suit * 16 + lo - 1) & 1:
            lo -= 1
        while hi < 14 and hand >> (p.suit * 16 + hi + 1) & 1:
            hi += 1
        return hi - lo + 1 > 5 and hi - lo + 1 != len(ranks)

    def announced_legal(self, s: BalootState, a: Action) -> bool:
        """True when ``a``, a declaration or a show in the play, is one of the legal actions (`check` gives None for
        it), found among the declarations (BAL-PROJ-6…8) or the shows (BAL-PROJ-10…12) of the player to act instead
        of every action; False says nothing (ask `check`). A shortcut for the fast replay (issue 14)."""
        if s.phase != PLAY or a.kind not in ("declare", "show") or a.seat != self._to_play(s):
            return False
        return a in (self._declares(s, a.seat) if a.kind == "declare" else self._shows(s, a.seat))

    def must_show(self, s: BalootState, seat: int) -> Project | None:
        """BAL-PROJ-11/12: the owner of the best project shows it (first) before his trick-2 card."""
        if seat != s.best or any(x == seat for x, _ in s.shown):
            return None
        kind = next(k for x, k in s.declared if x == seat)
        return self._declared_project(s, seat, kind)

    def shown_projects(self, s: BalootState) -> tuple[tuple[int, Project], ...]:
        sun = s.contract == "sun"
        return tuple((x, project_of(m, sun)) for x, m in s.shown)

    # --- play (BAL-PLAY, BAL-EKKA, BAL-BALOOT) ----------------------------------------------------
    def _play_rule(self, s: BalootState, seat: int):
        return legal_plays(s.hands[seat], tuple(c for _, c in s.trick), s.trump, s.locked, s.ekka)

    def _baloot_open(self, s: BalootState, seat: int) -> bool:
        """BAL-BALOOT-1/3: Baloot may still be said by ``seat`` with some card (which: `_baloot_card_ok`): in Hokum,
        once a hand, by the player dealt the trump King and Queen."""
        return s.contract == "hokum" and s.baloot < 0 and has_baloot(s.full[seat], s.trump)

    def _baloot_ok(self, s: BalootState, seat: int, card: int) -> bool:
        """BAL-BALOOT-1/3/6/7 and opt.baloot_timing, opt.baloot_in_project: may ``seat`` say Baloot with ``card``?"""
        return self._baloot_open(s, seat) and self._baloot_card_ok(s, seat, card)

    def _baloot_card_ok(self, s: BalootState, seat: int, card: int) -> bool:
        """With Baloot open to ``seat`` (`_baloot_open`), BAL-BALOOT-6/7, opt.baloot_timing, opt.baloot_in_project:
        may he say it with ``card``?"""
        bm = baloot_mask(s.trump)
        if self.options.baloot_timing == "at_second_card":
            if not bm >> card & 1 or s.hands[seat] & bm != 1 << card:
                return False
        for x, p in self.shown_projects(s):
            if x == seat and (blocks_baloot(p, s.trump) or
                              (carries_baloot(p, s.trump) and self.options.baloot_in_project == "declare_forbidden")):
                return False
        return True

    def _play_words(self, s: BalootState, seat: int, card: int) -> tuple[str, ...]:
        """What a legal ``card`` may be played with: nothing, Ekka on a lead (BAL-EKKA-1/2), Baloot (`_baloot_ok`)."""
        words = ("",)
        if ekka_open(len(s.trick), s.trump) and can_ekka(card, s.trump, s.played):
            words += ("ekka",)
        if self._baloot_ok(s, seat, card):
            words += ("baloot",)
        return words

    def _plays(self, s: BalootState, seat: int) -> list[Action]:
        if self.must_show(s, seat) is not None and s.tricks_done == 1:
            return []
        mask = self._play_rule(s, seat).mask
        return [Action(seat, "play", card=c, announce=w) for c in iter_cards(mask) for w in self._play_words(s, seat, c)]

    def _card_legal(self, s: BalootState, a: Action) -> bool:
        """Whether ``a``, a card play in the play, is among `_plays` (the cards of `legal_actions`), without listing them."""
        seat = self._to_play(s)
        return bool(a.seat == seat and 0 <= a.card < 64 and a.suit == -1 and not a.melds and not a.cards and a.info == -1
                    and not (s.tricks_done == 1 and self.must_show(s, seat) is not None)
                    and self._play_rule(s, seat).mask >> a.card & 1
                    and (not a.announce or a.announce in self._play_words(s, seat, a.card)))

    def _next_play(self, s: BalootState, a: Action) -> BalootState:
        # the hot path of every replay and search: the next state built once from a list of the fields, not by
        # `_replace` (a 35-field state)
        seat, card = a.seat, a.card
        f = list(s)
        hands = list(s.hands)
        hands[seat] &= ~(1 << card)
        f[_HANDS] = tuple(hands)
        trick = f[_TRICK] = s.trick + ((seat, card),)
        if a.announce == "ekka":
            f[_EKKA] = True
        elif a.announce == "baloot":
            f[_BALOOT] = seat
        if len(trick) < 4:
            return _new_state(BalootState, f)
        cards = (trick[0][1], trick[1][1], trick[2][1], card)
        trump = s.trump
        win = trick[trick_winner(cards, trump)][0]
        pts = card_points(cards[0], trump) + card_points(cards[1], trump) + card_points(cards[2], trump) \
            + card_points(card, trump)
        history = f[_HISTORY] = s.history + ((s.leader, trick, win),)
        if len(history) == 8:
            pts += LAST_TRICK_BONUS  # BAL-DECK-6
            f[_PHASE] = DONE
        t = team_of(win)
        points, taken = s.points, s.taken
        f[_POINTS] = (points[0] + pts, points[1]) if t == 0 else (points[0], points[1] + pts)
        f[_TAKEN] = (taken[0] + 1, taken[1]) if t == 0 else (taken[0], taken[1] + 1)
        f[_TRICK], f[_EKKA], f[_LEADER] = (), False, win
        f[_PLAYED] = s.played | mask_of(cards)
        s = _new_state(BalootState, f)
        if len(history) == 1:
            s = s._replace(best=self.best_project(s)[0])
        return s

    # --- the card play's hot path (the double-dummy solver): the same answers, by a shorter way ------------
    def play_card(self, s: BalootState, a: Action) -> BalootState:
        if a.kind == "play" and s.phase == PLAY:
            return self._next_play(s, a)
        return self.advance(s, a)

    def card_plays(self, s: BalootState) -> tuple[Action, ...]:
        """The card actions of `legal_actions` (`_plays`), the legal cards memoised on what decides them (the hand,
        the trick so far, the trump, the lock and the Ekka: `legal_plays`'s arguments)."""
        if s.phase != PLAY:
            return ()
        seat = self._to_play(s)
        if s.tricks_done == 1 and self.must_show(s, seat) is not None:
            return ()
        key = (s.hands[seat], s.trick, s.trump, s.locked, s.ekka)
        memo = self.__dict__.setdefault("_play_memo", {})
        got = memo.get(key)
        if got is None:
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            mask = self._play_rule(s, seat).mask
            got = memo[key] = (mask, tuple(iter_cards(mask)))
        mask, cards = got
        plain = _PLAIN_PLAYS[seat]
        ekka, baloot = ekka_open(len(s.trick), s.trump), self._baloot_open(s, seat)
        if not ekka and not baloot:
            return tuple([plain[c] for c in cards])
        out = []
        for c in cards:  # in `_plays`'s order: the card, then its words
            out.append(plain[c])
            if ekka and can_ekka(c, s.trump, s.played):
                out.append(Action(seat, "play", card=c, announce="ekka"))
            if baloot and self._baloot_card_ok(s, seat, c):
                out.append(Action(seat, "play", card=c, announce="baloot"))
        return tuple(out)

    # --- legal actions, check, next -----------------------------------------------------------
    def legal_actions(self, s: BalootState) -> tuple[Action, ...]:
        """Every action that may be taken now by anyone: ``()`` at the deal and at the end; before the completion
        deal (a chance event) the doubling calls that may precede it.

        In the auction windows (BAL-BID-10) and the doubling window (BAL-DBL-1) several players may act."""
        if s.phase == AUCTION:
            return tuple(self._calls(s))
        if s.phase == COMPLETE:
            return tuple(self._raises(s))  # the completion itself is chance
        if s.phase != PLAY:
            return ()
        seat = self._to_play(s)
        acts = self._raises(s) + self._declares(s, seat) + self._shows(s, seat) + self._plays(s, seat)
        return tuple(acts)

    def check(self, s: BalootState, a: Action) -> Violation | None:
        """``None`` if the action is legal now, else the rule it breaks."""
        if s.phase == DONE:
            return Violation("BAL-PLAY-1", f"{a.kind} after the end of the hand")
        if s.phase == DEAL:
            return self._check_deal(s, a)
        if a.kind == DECLINE:
            return self._check_decline(s, a)
        if s.phase == COMPLETE and a.seat == CHANCE:
            return self._check_complete(s, a)
        if s.phase == COMPLETE and a.kind in RAISES and 0 <= a.seat < 4:
            return None if a in self._raises(s) else self._why_raise(s, a)
        if s.phase == COMPLETE:
            return self._check_complete(s, a)
        if a.seat == CHANCE or a.kind in ("deal", "complete"):
            if s.phase == AUCTION:
                rule = "BAL-BID-11" if s.round == 1 else "BAL-BID-15"
                return Violation(rule, f"the auction is not over: {{p{self._speakers(s)[0]}}} has still to speak "
                                       f"before the {a.kind}")
            return Violation("BAL-DEAL-8" if a.kind == "complete" else "BAL-DEAL-5", f"a {a.kind} is not possible now")
        if not 0 <= a.seat < 4:
            return Violation("BAL-DEAL-1", f"there is no seat {a.seat} at a table of four")
        if s.phase == PLAY and a.kind == "play" and self._card_legal(s, a):
            return None  # a card, without listing every action
        if a in self.legal_actions(s):
            return None
        if s.phase == AUCTION:
            return self._why_call(s, a)
        return self._why_play_phase(s, a)

    def _why_play_phase(self, s: BalootState, a: Action) -> Violation:
        who = f"{{p{a.seat}}}"
        seat = self._to_play(s)
        if a.kind in RAISES:
            return self._why_raise(s, a)
        if a.kind in ("pass", "hokum", "sun", "ashkal", "kawesh"):
            return Violation("BAL-BID-11", f"{who} called {a.kind.upper()} after the auction closed")
        if a.kind == "declare":
            return self._why_declare(s, a)
        if a.kind == "show":
            return self._why_show(s, a)
        if a.kind != "play":
            return Violation("BAL-PLAY-1", f"{who}'s {a.kind} is not an action of Baloot")
        if a.seat != seat:
            if s.trick:
                return Violation("BAL-PLAY-1", f"it is {{p{seat}}}'s turn to play to trick {s.tricks_done + 1}, not {who}'s")
            if not s.history:
                return Violation("BAL-PLAY-2", f"{{p{seat}}} leads the first trick, not {who}")
            return Violation("BAL-PLAY-3", f"{{p{seat}}} won the last trick and leads, not {who}")
        if not _in_pack(a.card) or not s.hands[seat] >> a.card & 1:
            if _in_pack(a.card) and (s.played >> a.card & 1 or any(c == a.card for _, c in s.trick)):
                # §0.3 of the Jo-Jotte spec: the act is a play, so its own section's rule; the pack's is "see also"
                return Violation("BAL-PLAY-1", f"{who} played {card_name(a.card)}, which was already played",
                                 ("BAL-DECK-1",))
            return Violation("BAL-PLAY-1", f"{who} played {card_name(a.card) if _in_pack(a.card) else a.card}, "
                                           "which is not in his hand")
        must = self.must_show(s, seat) if s.tricks_done == 1 else None
        if must is not None:
            return Violation("BAL-PROJ-11", f"{who} holds the best project and must show it ({must.kind}) before his "
                                            "card in trick 2")
        r = self._play_rule(s, seat)
        if not r.mask >> a.card & 1:
            legal = " ".join(card_name(c) for c in BALOOT_PACK.sorted(iter_cards(r.mask)))
            return Violation(r.rule, f"{who} played {card_name(a.card)}: {r.why}; legal: {legal}")
        if a.announce == "ekka":
            if s.trick or s.contract != "hokum" or a.card >> 4 == s.trump:
                return Violation("BAL-EKKA-1", f"{who} declared Ekka {'not on a lead' if s.trick else 'with a trump or in Sun'}: "
                                               "only the leader, in Hokum, leading a non-trump")
            higher = [card_name(c) for c in BALOOT_PACK.sorted(iter_cards(higher_in_suit(a.card, -1) & ~s.played))]
            return Violation("BAL-EKKA-2", f"{who} declared Ekka on {card_name(a.card)} while {' '.join(higher)} "
                                           f"{'is' if len(higher) == 1 else 'are'} not yet played")
        if a.announce == "baloot":
            return self._why_baloot(s, a)
        return Violation("BAL-PLAY-1", f"{who}'s play of {card_name(a.card)} with '{a.announce}' is not legal")

    def _why_baloot(self, s: BalootState, a: Action) -> Violation:
        who = f"{{p{a.seat}}}"
        if s.contract != "hokum":
            return Violation("BAL-BALOOT-1", f"{who} declared Baloot in Sun")
        if not has_baloot(s.full[a.seat], s.trump):
            return Violation("BAL-BALOOT-1", f"{who} declared Baloot without both the K and Q of trumps")
        if s.baloot >= 0:
            return Violation("BAL-BALOOT-8", f"{who} declared Baloot a second time")
        for x, p in self.shown_projects(s):
            if x == a.seat and blocks_baloot(p, s.trump):
                rule = "BAL-BALOOT-7" if p.quad else "BAL-BALOOT-6"
                return Violation(rule, f"{who} showed {p.text()} and may not score Baloot")
            if x == a.seat and carries_baloot(p, s.trump) and self.options.baloot_in_project == "declare_forbidden":
                return Violation("BAL-BALOOT-5", f"{who} declared Baloot, already counted in his shown {p.text()} "
                                                          "(baloot_in_project=declare_forbidden)")
        return Violation("BAL-BALOOT-3", f"{who} declared Baloot with {card_name(a.card)}; it is declared with the second "
                                         "of the K and Q of trumps")

    def _why_declare(self, s: BalootState, a: Action) -> Violation:
        who = f"{{p{a.seat}}}"
        sun = s.contract == "sun"
        if a.announce not in KINDS or kind_value(a.announce, sun) is None:
            return Violation("BAL-PROJ-1", f"{who} declared '{a.announce}', not a project of {s.contract}")
        if s.history:
            return Violation("BAL-PROJ-7", f"{who} declared a project after trick 1")
        if a.seat != self._to_play(s) or any(x == a.seat for x, _ in s.trick):
            return Violation("BAL-PROJ-7", f"{who} declared a project out of his turn in trick 1")
        if any(x == a.seat for x, _ in s.declared):
            return Violation("BAL-PROJ-7", f"{who} declared a second project; each player declares at most one")
        floor = max((kind_value(k, sun) or 0 for _, k in s.declared), default=0)
        if (kind_value(a.announce, sun) or 0) < floor:
            return Violation("BAL-PROJ-8", f"{who} declared a {a.announce} after a higher project was declared")
        return Violation("BAL-PROJ-6", f"{who} declared a {a.announce} but holds none")

    def _why_show(self, s: BalootState, a: Action) -> Violation:
        who = f"{{p{a.seat}}}"
        sun = s.contract == "sun"
        m = a.melds[0] if len(a.melds) == 1 else 0
        p = project_of(m, sun)
        if s.tricks_done != 1:
            return Violation("BAL-PROJ-11", f"{who} showed a project outside trick 2")
        if s.best < 0:
            return Violation("BAL-PROJ-10", f"{who} showed a project, but none was declared in trick 1")
        if team_of(a.seat) != team_of(s.best):
            return Violation("BAL-PROJ-11", f"{who} showed a project, but the project team is {{p{s.best}}}'s")
        if a.seat != self._to_play(s) or any(x == a.seat for x, _ in s.trick):
            return Violation("BAL-PROJ-11", f"{who} showed a project out of his turn in trick 2")
        if m & ~BALOOT_PACK.mask:
            return Violation("BAL-DECK-1", f"{who} showed a card that is not in the 32-card pack")
        if p is None and m.bit_count() == 4 and len({c & 15 for c in iter_cards(m)}) == 1 \
                and next(iter_cards(m)) & 15 in (SEVEN, EIGHT, NINE):
            return Violation("BAL-PROJ-3", f"{who} showed {' '.join(card_name(c) for c in iter_cards(m))}: four nines, "
                                           "eights or sevens are not a project")
        if p is None:
            return Violation("BAL-PROJ-2", f"{who} showed {' '.join(card_name(c) for c in iter_cards(m)) or 'no card'}, "
                                           "which is no project")
        if m & ~s.full[a.seat]:
            return Violation("BAL-PROJ-6", f"{who} showed {p.text()} without holding "
                                           f"{' '.join(card_name(c) for c in iter_cards(m & ~s.full[a.seat]))}")
        mine = [q for x, q in self.shown_projects(s) if x == a.seat]
        if len(mine) >= 2 or any(q.mask & m for q in mine):
            return Violation("BAL-PROJ-5", f"{who} showed {p.text()}: a card belongs to one project, at most two each")
        must = self.must_show(s, a.seat)
        if must is not None:
            # a declaration names only a kind (BAL-PROJ-7): the message names it and the cards shown, nothing else
            return Violation("BAL-PROJ-12", f"{who} declared a {must.kind} and shows {p.text()}; he must first show "
                                            f"a {must.kind}")
        return Violation("BAL-PROJ-4", f"{who} showed {p.text()}, part of a longer run (long_runs=five_max)")

    def advance(self, s: BalootState, a: Action) -> BalootState:
        p = s.phase
        if a.kind == DECLINE:
            return s  # BAL-DBL-5: a step not taken
        if p == DEAL:
            union = 0
            for m in a.cards:
                union |= m
            return s._replace(phase=AUCTION, hands=tuple(a.cards), up=a.info,
                              stock=self.pack.mask & ~union & ~(1 << a.info))
        if p == AUCTION:
            return self._next_call(s, a)
        if p == COMPLETE and a.kind in RAISES:
            return self._next_raise(s, a)
        if p == COMPLETE:
            hands = tuple(h | m | (1 << s.up if i == s.declarer else 0) for i, (h, m) in enumerate(zip(s.hands, a.cards)))
            return s._replace(phase=PLAY, hands=hands, full=hands, stock=0, leader=self.first_leader(s))
        if p == PLAY:
            if a.kind in RAISES:
                return self._next_raise(s, a)
            if a.kind == "declare":
                return s._replace(declared=s.declared + ((a.seat, a.announce),))
            if a.kind == "show":
                return s._replace(shown=s.shown + ((a.seat, a.melds[0]),))
            return self._next_play(s, a)
        raise ValueError(f"no transition from phase {p}")

    # --- chance -----------------------------------------------------------------------------
    def _check_deal(self, s: BalootState, a: Action) -> Violation | None:
        if a.seat != CHANCE or a.kind != "deal" or len(a.cards) != 4:
            return Violation("BAL-DEAL-5", "the hand starts with the deal: five cards to each player and the face-up card")
        seen = 0
        for seat, m in enumerate(a.cards):
            if m & ~self.pack.mask:
                return Violation("BAL-DECK-1", f"{{p{seat}}} is dealt a card that is not in the 32-card pack")
            if m & seen:
                return Violation("BAL-DECK-1", f"{card_name(next(iter_cards(m & seen)))} is dealt twice (again to {{p{seat}}})")
            seen |= m
            if m.bit_count() != 5:
                return Violation("BAL-DEAL-5", f"{{p{seat}}} is dealt {m.bit_count()} cards, not 5")
        if not _in_pack(a.info):
            return Violation("BAL-DEAL-6", "the deal must show the face-up card (up: CARD)")
        if seen >> a.info & 1:
            return Violation("BAL-DECK-1", f"the face-up card {card_name(a.info)} is also in a hand")
        return None

    def _check_complete(self, s: BalootState, a: Action) -> Violation | None:
        if a.kind in ("pass", "hokum", "sun", "ashkal", "kawesh") and 0 <= a.seat < 4:
            return Violation("BAL-BID-11", f"{{p{a.seat}}} called {a.kind.upper()} after the auction closed")
        if a.seat != CHANCE or a.kind != "complete" or len(a.cards) != 4:
            return Violation("BAL-DEAL-8", "after the auction the dealer completes the deal (complete N: …; W: …)")
        seen = 0
        for seat, m in enumerate(a.cards):
            if m & ~s.stock:
                bad = next(iter_cards(m & ~s.stock))
                where = "the face-up card" if bad == s.up else "already dealt" if any(h >> bad & 1 for h in s.hands) \
                    else "not a card of the pack"
                return Violation("BAL-DEAL-9", f"{{p{seat}}} receives {card_name(bad) if _in_pack(bad) else bad} "
                                               f"({where})")
            if m & seen:
                return Violation("BAL-DEAL-9", f"{card_name(next(iter_cards(m & seen)))} is dealt twice")
            seen |= m
            want = 2 if seat == s.declarer else 3
            if m.bit_count() != want:
                return Violation("BAL-DEAL-8", f"{{p{seat}}} receives {m.bit_count()} cards, not {want}"
                                               + (" (the declarer takes the face-up card and two more)" if want == 2 else ""))
        return None

    def chance_action(self, s: BalootState, rng: random.Random) -> Action:
        """A random outcome of the chance event now (the deal or the completion)."""
        if s.phase == DEAL:
            order = list(self.pack.cards)
            rng.shuffle(order)
            return deal_action(order, s.dealer)
        if s.phase == COMPLETE:
            order = list(iter_cards(s.stock))
            rng.shuffle(order)
            return complete_action(s, order)
        raise ValueError(f"no chance event in phase {s.phase}")

    # --- scoring and the sheet ---------------------------------------------------------------
    def summary(self, s: BalootState) -> HandSummary | None:
        """The totals of a finished hand (None when it had no contract)."""
        if s.phase != DONE:
            raise ValueError(f"the hand is not finished (phase {s.phase})")
        if s.annulled:
            return None
        projects: list[tuple[str, ...]] = [(), ()]
        if s.best >= 0:
            pt = team_of(s.best)
            projects[pt] = tuple(p.kind for x, p in self.shown_projects(s))
        declared = tuple(tuple(k for x, k in s.declared if team_of(x) == t) for t in (0, 1))
        kaboot = 0 if s.taken[1] == 0 else 1 if s.taken[0] == 0 else -1
        return HandSummary(s.contract, team_of(s.declarer), s.level, s.points, tuple(projects), self.baloot_team(s),
                           kaboot, declared)  # type: ignore[arg-type]

    def baloot_team(self, s: BalootState) -> int:
        """The team that scores the Baloot (BAL-BALOOT-1…8, opt.baloot_in_project), -1."""
        if s.contract != "hokum":
            return -1
        holder = next((x for x in range(4) if has_baloot(s.full[x], s.trump)), -1)
        if holder < 0:
            return -1
        mine = [p for x, p in self.shown_projects(s) if x == holder]
        if any(blocks_baloot(p, s.trump) for p in mine):
            return -1
        declared = s.baloot == holder
        in_project = any(carries_baloot(p, s.trump) for p in mine)
        if declared or (in_project and self.options.baloot_in_project != "must_declare"):
            return team_of(holder)
        return -1

    def score_hand(self, s: BalootState) -> BalootScore:
        """The score of a finished hand (§10, §11).

        Raises:
            ValueError: the hand is not finished.
        """
        h = self.summary(s)
        if h is None:
            return no_score(s.annulled)
        key = (h, self.options)
        score = _SCORES.get(key)
        if score is None:
            if len(_SCORES) >= _MEMO_SIZE:
                _SCORES.clear()
            score = _SCORES[key] = score_summary(h, self.options)
        return score

    def new_sheet(self) -> BalootSheet:
        return BalootSheet()

    def hand_score(self, s: BalootState, sheet: BalootSheet | None = None) -> BalootScore:
        return self.score_hand(s)

    QAID_RULES = ("BAL-PLAY-", "BAL-EKKA-", "BAL-PROJ-", "BAL-BALOOT-")

    def irregularity_score(self, s: BalootState, v: Violation, seat: int, sheet: BalootSheet | None = None) -> BalootScore | None:
        """opt.qaid (§13): the score of a hand in which ``seat`` committed the irregularity of play ``v`` (a BAL-PLAY,
        BAL-EKKA, BAL-PROJ or BAL-BALOOT error), or None (qaid off, or not such an error). The other team receives
        the contract's full card game points (16 Hokum, 26 Sun; no Al-kaboot) plus its own projects shown so far,
        multiplied as in BAL-SCORE-12 (at gahwa it wins the match, BAL-SCORE-13); the offending team nothing."""
        if not self.options.qaid or not s.contract or not 0 <= seat < 4 or not v.rule.startswith(self.QAID_RULES):
            return None
        team = ("NS", "WE")
        off = team_of(seat)
        win = 1 - off
        sun, m = s.contract == "sun", s.level
        mine = tuple(p.kind for x, p in self.shown_projects(s) if team_of(x) == win)
        projects = (mine, ()) if win == 0 else ((), mine)
        pp = (project_value(projects[0], sun), project_value(projects[1], sun))
        declared = tuple(tuple(k for x, k in s.declared if team_of(x) == t) for t in (0, 1))
        h = HandSummary(s.contract, team_of(s.declarer), m, s.points, projects, -1, -1, declared)  # type: ignore[arg-type]
        why = f"qaid: {self.seat_labels[seat]} ({team[off]}) broke {v.rule}; {team[off]} lose the hand"
        steps = [Step("opt.qaid", why)]
        if m == GAHWA:
            credits = [Credit(win, 0, "opt.qaid", "qaid at gahwa: the match is won (BAL-SCORE-13)"),
                       Credit(off, 0, "opt.qaid", "qaid at gahwa: the match is lost")]
            return _score(h, -1, (0, 0), pp, (0, 0), win, "", m, -1, credits, win, steps)
        cards = (26 if sun else 16) if m == 1 else (52 if sun else 16 * m)  # BAL-SCORE-11/12
        pm = 1 if m == 1 else m if self.options.project_multiplier == "full" else 2
        credits = [Credit(win, cards, "opt.qaid", f"{team[win]} receive all {cards} card game points")]
        if pp[win]:
            credits.append(Credit(win, pm * pp[win], "opt.qaid", f"their shown projects {pm} x {pp[win]} ({', '.join(mine)})"))
        credits.append(Credit(off, 0, "opt.qaid", f"{team[off]} committed the irregularity: nothing"))
        steps.append(Step("opt.qaid", f"{team[win]} receive {cards} + {pm} x {pp[win]}, {team[off]} nothing"))
        game = (cards, 0) if win == 0 else (0, cards)
        return _score(h, -1, game, pp, game, win, "", m, -1, credits, -1, steps)

    def written_score(self, values: tuple[int, ...]) -> BalootScore:
        """A hand known only by its written figures, for the sheet to go on (a gahwa cannot be read from them)."""
        return BalootScore(None, -1, (0, 0), (0, 0), (0, 0), -1, "", 0, -1, (values[0], values[1]), (), -1, ())

    def tricks(self, s: BalootState) -> tuple:
        return s.history

    def card_points(self, s: BalootState, card: int) -> int:
        """BAL-DECK-5: the card's points in this hand's contract."""
        return card_points(card, s.trump)

    def trick_card_points(self, s: BalootState, number: int) -> int | None:
        """BAL-DECK-5: the card points of trick ``number``; the 8th also carries the last-trick 10 (BAL-DECK-6)."""
        if not 1 <= number <= len(s.history):
            return None
        return sum(card_points(c, s.trump) for _, c in s.history[number - 1][1]) + (LAST_TRICK_BONUS if number == 8 else 0)

    def card_points_taken(self, s: BalootState) -> tuple[int, ...] | None:
        """Each team's abnat: the card points of its tricks, the last-trick 10 included (BAL-DECK-5/6; 162 in Hokum,
        130 in Sun, BAL-DECK-7). None unless all eight tricks were played."""
        return tuple(s.points) if len(s.history) == 8 else None

    def column_scores(self, s: BalootState, score: BalootScore) -> tuple[tuple[int, int, int], ...]:
        """Per team the card game points g (BAL-SCORE-3/4), the projects and Baloot (T − g) and the total T
        (BAL-SCORE-6), before the award (BAL-SCORE-10…12)."""
        return tuple((g, t - g, t) for g, t in zip(score.game, score.totals))

    def captures(self, s: BalootState) -> tuple[tuple[int, int, int], ...]:
        """Every card worth points, with the seat whose trick took it and its points (the last-trick 10 aside)."""
        return tuple((c, win, card_points(c, s.trump)) for _, plays, win in s.history for _, c in plays
                     if card_points(c, s.trump))

    def hand_facts(self, s: BalootState, score: BalootScore | None) -> dict:
        facts: dict = {"contract": self.contract_word(s),
                       "trump": "SHDC"[s.trump] if s.trump >= 0 else None,
                       "declarer": s.declarer if s.declarer >= 0 else None,
                       "level": (("gahwa" if s.level == GAHWA else s.level) if s.contract else None),
                       "locked": s.locked if s.contract else None,
                       "up": card_name(s.up) if s.up >= 0 else None,
                       "annulled": s.annulled or None,
                       "projects": "; ".join(f"{self.seat_labels[x]} {p.text()}" for x, p in self.shown_projects(s)) or None,
                       "baloot": self.baloot_team(s) if s.phase == DONE and not s.annulled else None}
        if score is not None and score.summary is not None:
            facts.update(made=score.made, kaboot=score.kaboot >= 0, card_points_ns=s.points[0], card_points_we=s.points[1],
                         game_points_ns=score.game[0], game_points_we=score.game[1],
                         counting_team=score.counting_team if score.counting_team >= 0 else None)
        return facts

    @staticmethod
    def contract_word(s: BalootState) -> str | None:
        """``hokum``, ``sun``, or ``ashkal`` for a Sun that an Ashkal made (the last bid stands); None without one."""
        if not s.contract:
            return None
        last = next((k for _, _, k, _ in reversed(s.calls) if k != "pass"), "")
        return "ashkal" if last == "ashkal" else s.contract

    def contract_text(self, s: BalootState) -> str:
        """``W hokum hearts, doubled (locked)`` — for reports."""
        if not s.contract:
            return "no contract (kawesh)" if s.annulled == "kawesh" else "no contract (all passed)"
        text = f"{self.seat_labels[s.declarer]} {self.contract_word(s)}"
        if s.trump >= 0:
            text += f" {SUIT_WORDS[s.trump]}"
        if s.level > 1:
            text += ", " + {2: "doubled", 3: "tripled", 4: "four", GAHWA: "gahwa"}[s.level]
            text += " (locked)" if s.locked else ""
        return text

    # --- the notation (`EventRules`) --------------------------------------------------------
    def read_item(self, s: BalootState, keyword: str, number: int, label: str, words: tuple[str, ...]) -> Action | Violation:
        """Read one written item (docs/baloot.md): ``deal N: 7S 8S …``, ``deal up: JD``, ``bids 1: E hokum``,
        ``bids 2: E hokum spades``, ``complete S: …``, ``doubling W double locked``, ``trick 1: S fifty``,
        ``trick 2: N show KS QS JS TS``, ``trick 3: W KS ekka``, ``trick 5: E QH baloot``."""
        if keyword not in self.line_keywords:  # the line first: a seat means nothing on a line of another game
            return self.unknown_line(keyword)
        if keyword in ("deal", "complete"):
            cards = _read_cards(words)
            if isinstance(cards, Violation):
                return cards
            if keyword == "deal" and label.lower() == "up":
                if cards.bit_count() != 1:
                    return Violation("NOTATION", "the face-up card is one card: 'up: JD'")
                return Action(CHANCE, "deal", cards=(0, 0, 0, 0), info=cards.bit_length() - 1)
            seat = self._seat_of(label)
            if seat < 0:
                return Violation("NOTATION", f"'{label}' is not a seat (seats: {', '.join(self.seat_labels)}"
                                             + (", and up: for the face-up card)" if keyword == "deal" else ")"))
            masks = [0, 0, 0, 0]
            masks[seat] = cards
            return Action(CHANCE, keyword, cards=tuple(masks))
        seat = self._seat_of(label)
        if seat < 0:
            return Violation("NOTATION", f"'{label}' is not a seat (seats: {', '.join(self.seat_labels)})")
        low = tuple([w.lower() for w in words])
        if keyword == "bids":
            if low in (("pass",), ("p",), ("-",), ("sun",), ("ashkal",), ("kawesh",)):
                return Action(seat, {"p": "pass", "-": "pass"}.get(low[0], low[0]))
            if low and low[0] == "hokum" and len(low) <= 2:
                suit = _SUIT_OF_WORD.get(words[1].upper(), -2) if len(low) == 2 else -1
                if suit == -2:
                    return Violation("NOTATION", f"hokum names a suit (spades, hearts, diamonds, clubs), not '{words[1]}'")
                if s.phase == AUCTION and s.round == 1 and s.up >= 0 and suit == s.up >> 4:
                    suit = -1  # round 1: the face-up suit goes without saying
                return Action(seat, "hokum", suit=suit)
            return Violation("NOTATION", f"a call is pass, hokum [suit], sun, ashkal or kawesh, not '{' '.join(words)}'")
        if keyword == "doubling":
            if low and low[0] in RAISES and len(low) <= 2:
                lock = low[1] if len(low) == 2 else ""
                if lock not in ("", "locked", "open"):
                    return Violation("NOTATION", f"a lock is 'locked' or 'open', not '{words[1]}'")
                return Action(seat, low[0], announce=lock)
            if low in (("pass",), ("p",), ("-",)):
                return Action(seat, DECLINE)  # no double, no triple …: the step not taken (BAL-DBL-5)
            return Violation("NOTATION", f"a doubling call is double, triple, four or gahwa (then locked or open), or pass, "
                                         f"not '{' '.join(words)}'")
        if keyword == "trick":
            if low and low[0] in RAISES and len(low) <= 2 and low[-1] in (low[0], "locked", "open"):
                return Action(seat, low[0], announce=low[1] if len(low) == 2 else "")  # BAL-DBL-1 rules on it
            if low in (("pass",), ("sun",), ("ashkal",), ("hokum",)):
                return Action(seat, low[0])  # a call after the auction (BAL-BID-11)
            if len(low) == 1 and low[0] in _KIND_OF_WORD:
                return Action(seat, "declare", announce=_KIND_OF_WORD[low[0]])
            if low and low[0] == "show":
                cards = _read_cards(tuple(x for w in words[1:] for x in w.split("-") if x))
                if isinstance(cards, Violation):
                    return cards
                return Action(seat, "show", melds=(cards,))
            if 1 <= len(low) <= 2:
                try:
                    card = _card(words[0])
                except ValueError as e:
                    return Violation("NOTATION", str(e))
                word = low[1] if len(low) == 2 else ""
                if word not in ("", "ekka", "baloot"):
                    return Violation("NOTATION", f"a card is followed by nothing, 'ekka' or 'baloot', not '{words[1]}'")
                return Action(seat, "play", card=card, announce=word)
            return Violation("NOTATION", f"a trick item is a card [ekka|baloot], a project kind (sira, fifty, hundred, "
                                         f"fourhundred) or 'show CARDS', not '{' '.join(words)}'")
        return self.unknown_line(keyword)

    def check_number(self, s: BalootState, keyword: str, number: int, action: Action, words: tuple[str, ...]) -> Violation | None:
        """A call written under another round than the one it is made in (``bids 2:`` in round 1: round 2 follows
        only four passes, BAL-BID-13; ``bids 1:`` after round 1: no round-1 call after its closure, BAL-BID-11);
        a card written in another trick (`EventRules.check_number`)."""
        if keyword == "bids" and number >= 1 and s.phase == AUCTION and number != s.round:
            rule = ("BAL-BID-13" if s.round == 1 else "BAL-BID-20") if number > s.round else \
                ("BAL-BID-11" if number == 1 else "BAL-BID-15")
            return Violation(rule, f"{{p{action.seat}}}'s {' '.join(words)} is written in round {number}, but it is "
                                   f"made in round {s.round}")
        return super().check_number(s, keyword, number, action, words)

    def items_of(self, s: BalootState, a: Action) -> list[tuple[str, int, str, tuple[str, ...]]]:
        labels = self.seat_labels
        if a.kind in ("deal", "complete"):
            order = [(s.dealer + 1 + k) % 4 for k in range(4)]
            out = [(a.kind, -1, labels[x], _card_words(a.cards[x])) for x in order]
            if a.kind == "deal":
                out.append(("deal", -1, "up", (card_name(a.info),)))
            return out
        return [self.item_of(s, a)]

    def item_of(self, s: BalootState, a: Action) -> tuple[str, int, str, tuple[str, ...]]:
        lab = self.seat_labels[a.seat]
        if a.kind in ("pass", "sun", "ashkal", "kawesh"):
            return ("bids", s.round, lab, (a.kind,))
        if a.kind == "hokum":
            return ("bids", s.round, lab, ("hokum",) if a.suit < 0 else ("hokum", SUIT_WORDS[a.suit]))
        if a.kind in RAISES:
            return ("doubling", -1, lab, (a.kind, a.announce) if a.announce else (a.kind,))
        if a.kind == DECLINE:
            return ("doubling", -1, lab, ("pass",))
        if a.kind == "declare":
            return ("trick", s.tricks_done + 1, lab, (a.announce,))
        if a.kind == "show":
            return ("trick", s.tricks_done + 1, lab, ("show", *_card_words(a.melds[0])))
        if a.kind == "play":
            return ("trick", s.tricks_done + 1, lab, (card_name(a.card), a.announce) if a.announce else (card_name(a.card),))
        raise ValueError(f"no written form for a {a.kind}")

    def _seat_of(self, label: str) -> int:
        seat = _SEAT_OF.get(label)
        if seat is None:
            key = label.upper()
            return self.seat_labels.index(key) if key in self.seat_labels else -1
        return seat

    @staticmethod
    def sim_choice(actions: tuple[Action, ...], rng: random.Random) -> Action:
        return sim_choice(actions, rng)


_SEAT_OF = {lab: i for i, lab in enumerate(BalootRules.seat_labels)}  # the labels as the writer spells them


def _in_pack(card: int) -> bool:
    return 0 <= card < 64 and bool(BALOOT_PACK.mask >> card & 1)


_CARD_CODES = {card_name(c): c for c in BALOOT_PACK.cards}  # the canonical spellings, read without `parse_card`


def _card(word: str) -> int:
    """A card's code; raises ValueError for a word that is not a card."""
    card = _CARD_CODES.get(word)
    return parse_card(word) if card is None else card


def _read_cards(words: tuple[str, ...]) -> int | Violation:
    if words == ("-",):
        return 0
    mask = 0
    codes = _CARD_CODES
    for w in words:
        c = codes.get(w)  # a card of the pack, written canonically
        if c is None:
            try:
                c = parse_card(w)
            except ValueError as e:
                return Violation("NOTATION", str(e))
            if not _in_pack(c):
                return Violation("NOTATION", f"{card_name(c)} is not a card of the 32-card Baloot pack")
        if mask >> c & 1:
            return Violation("NOTATION", f"{card_name(c)} is written twice")
        mask |= 1 << c
    return mask


def _card_words(mask: int) -> tuple[str, ...]:
    return tuple(card_name(c) for c in BALOOT_PACK.sorted(iter_cards(mask))) or ("-",)


# --- chance outcomes and a simulator's player --------------------------------------------------

def deal_action(order: list[int], dealer: int) -> Action:
    """The first part of the deal from a pack in ``order``, top card first (BAL-DEAL-5…7)."""
    hands = [0, 0, 0, 0]
    for k in range(4):
        seat = (dealer + 1 + k) % 4
        hands[seat] = mask_of(order[3 * k:3 * k + 3]) | mask_of(order[12 + 2 * k:14 + 2 * k])
    return Action(CHANCE, "deal", cards=tuple(hands), info=order[20])


def complete_action(s: BalootState, order: list[int]) -> Action:
    """The completion from the stock in ``order`` (BAL-DEAL-8): two to the declarer, three to each other, from p1."""
    got = [0, 0, 0, 0]
    pos = 0
    for k in range(4):
        seat = (s.dealer + 1 + k) % 4
        n = 2 if seat == s.declarer else 3
        got[seat] = mask_of(order[pos:pos + n])
        pos += n
    return Action(CHANCE, "complete", cards=tuple(got))


def sim_choice(actions: tuple[Action, ...], rng: random.Random) -> Action:
    """A simulator's player with realistic habits: passes about three calls in four, doubles now and then and
    rarely climbs to gahwa, declares and shows most projects, mostly says Baloot when it may and sometimes Ekka
    (never on an ace), else plays at random."""
    kinds = {a.kind for a in actions}
    if "pass" in kinds:
        first = actions[0].seat
        mine = {a.kind: a for a in actions if a.seat == first and a.suit < 0}
        named = [a for a in actions if a.seat == first and a.kind == "hokum" and a.suit >= 0]
        if "kawesh" in mine and rng.random() < 0.5:
            return mine["kawesh"]
        x = rng.random()
        if "hokum" in mine or named:
            if x < 0.2:
                return mine["hokum"] if "hokum" in mine else rng.choice(named)
            if x < 0.27:
                return mine["sun"]
            if x < 0.29 and "ashkal" in mine:
                return mine["ashkal"]
        elif "sun" in mine and x < 0.08:
            return mine["sun"]
        return mine["pass"]
    raises = [a for a in actions if a.kind in RAISES]
    rest = [a for a in actions if a.kind not in RAISES]
    if raises and rest:
        odds = {"double": 0.12, "triple": 0.3, "four": 0.3, "gahwa": 0.2}[raises[0].kind]
        if rng.random() < odds:
            return rng.choice(raises)
    elif raises:
        return rng.choice(raises)
    declares = [a for a in rest if a.kind in ("declare", "show")]
    plays = [a for a in rest if a.kind == "play"]
    if declares and (not plays or rng.random() < 0.8):
        return rng.choice(declares)
    baloot = [a for a in plays if a.announce == "baloot"]
    if baloot and rng.random() < 0.7:
        return baloot[0]
    ekka = [a for a in plays if a.announce == "ekka" and a.card & 15 != ACE]
    if ekka and rng.random() < 0.3:
        return rng.choice(ekka)
    plain = [a for a in plays if not a.announce] or plays
    return rng.choice(plain)


def play_random_hand(rules: BalootRules, dealer: int, rng: random.Random, choose=None, sheet=None,
                     checked: bool = True) -> tuple[BalootState, list[Action]]:
    """One hand with random chance and `sim_choice` players: the final state and the actions taken."""
    choose = choose or sim_choice
    s = rules.initial_state(dealer, sheet)
    actions: list[Action] = []
    while not rules.is_terminal(s):
        a = rules.chance_action(s, rng) if rules.current_player(s) == CHANCE else choose(rules.legal_actions(s), rng)
        actions.append(a)
        s = rules.apply(s, a) if checked else rules.advance(s, a)
    return s, actions


def simulate_match(rules: BalootRules, rng: random.Random, first_dealer: int = 0,
                   max_hands: int = 1000) -> tuple[BalootSheet, list[tuple[BalootState, BalootScore]]]:
    """A random match to 152: the final sheet and every hand with its score."""
    sheet = rules.new_sheet()
    hands: list[tuple[BalootState, BalootScore]] = []
    dealer = first_dealer
    while not sheet.over and len(hands) < max_hands:
        s, _ = play_random_hand(rules, dealer, rng, sheet=sheet)
        score = rules.hand_score(s, sheet)
        sheet = sheet.add(score)
        hands.append((s, score))
        dealer = rules.next_dealer(dealer)
    return sheet, hands


__all__ = ["BalootOptions", "BalootRules", "BalootState", "BalootScore", "BalootSheet", "HandSummary", "Credit", "Step",
           "score_summary", "convert", "deal_action", "complete_action", "sim_choice", "play_random_hand",
           "simulate_match", "GAHWA", "MATCH_TARGET"]
