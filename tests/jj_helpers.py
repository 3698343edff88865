"""Helpers shared by the rules tests (test_cards, test_legal_plays, test_bidding, test_melds,
test_scoring, test_hand_flow): cards from text, states built call by call, example hands.

Not a test module: pytest does not collect it. Seats: 0 = A, 1 = B.
"""

from __future__ import annotations

import re
from pathlib import Path

from jojotte_records.cards import card_name, iter_cards, mask_of, parse_card
from jojotte_records.rules.base import CHANCE, Action
from jojotte_records.rules.jojotte import Credit, HandScore, JojotteOptions, JojotteRules
from jojotte_records.rules.jojotte_cards import Meld, parse_meld

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SPEC = ROOT.parent / "shared" / "rules" / "jojotte.md"

S, H, D, C = 0, 1, 2, 3
SEAT = {"A": 0, "B": 1}
SUIT = {"S": S, "H": H, "D": D, "C": C}


def cards(text: str) -> list[int]:
    """``"AS KH 7D"`` -> card codes, in the order written."""
    return [parse_card(t) for t in text.split()]


def mask(text: str) -> int:
    return mask_of(cards(text))


def names(m: int) -> set[str]:
    """The names of the cards of a mask, as a set (for readable assertions)."""
    return {card_name(c) for c in iter_cards(m)}


def melds(text: str) -> tuple[Meld, ...]:
    """``"4K KD-TD"`` -> melds."""
    return tuple(parse_meld(t) for t in text.split())


def rules_with(variant: str = "") -> JojotteRules:
    return JojotteRules(JojotteOptions.parse(variant) if variant else None)


def action(text: str, seats: dict[str, int] = SEAT) -> Action:
    """One call, after-draw event or card: ``"A pass"``, ``"B name D"``, ``"A melds 4K KD-TD"``, ``"B dix"``,
    ``"C with declarer"``, ``"A play KH jo"``; ``seats`` maps the form's seat letters (``A B C``, ``N E S W``)."""
    words = text.split()
    seat = seats[words[0].upper()]
    kind = words[1].lower()
    if kind == "name":
        return Action(seat, "name", suit=SUIT[words[2].upper()])
    if kind == "with":
        return Action(seat, "with_" + words[2].lower())
    if kind == "melds":
        return Action(seat, "melds", melds=melds(" ".join(words[2:])))
    if kind == "play":
        return Action(seat, "play", card=parse_card(words[2]), announce=words[3].lower() if len(words) > 3 else "")
    return Action(seat, kind)


def play(text: str) -> Action:
    """One card played: ``"A KH jo"``."""
    words = text.split()
    return Action(SEAT[words[0].upper()], "play", card=parse_card(words[1]),
                  announce=words[2].lower() if len(words) > 2 else "")


def run(rules: JojotteRules, state, script: str, seats: dict[str, int] = SEAT):
    """Apply every event of ``"A pass, B accept"`` (each must be legal)."""
    for item in (x.strip() for x in script.split(",")):
        if not item:
            continue
        a = action(item, seats)
        v = rules.check(state, a)
        assert v is None, f"{item}: {v}"
        state = rules.apply(state, a)
    return state


def violation(rules: JojotteRules, state, script: str, seats: dict[str, int] = SEAT):
    """The events of ``script`` but the last are legal; the last one's violation."""
    items = [x.strip() for x in script.split(",") if x.strip()]
    return rules.check(run(rules, state, ", ".join(items[:-1]), seats), action(items[-1], seats))


def run_plays(rules: JojotteRules, state, script: str):
    """Apply every card of ``"B AC, A KH jo"`` (each must be legal)."""
    for item in (x.strip() for x in script.split(",")):
        if not item:
            continue
        a = play(item)
        v = rules.check(state, a)
        assert v is None, f"{item}: {v}"
        state = rules.apply(state, a)
    return state


def start(rules: JojotteRules, turned: str = "9H", dealer: str = "B", a: str = "", b: str = ""):
    """The state after the deal: A's and B's first cards (``""`` = not recorded) and the turned card."""
    return deal_state(rules, SEAT[dealer], (mask(a), mask(b)), parse_card(turned))


def deal_state(rules: JojotteRules, dealer: int, hands: tuple[int, ...], turned: int, unknown=None):
    """The state after the deal: the state before it (a chance node) advanced by the deal's chance action."""
    before = rules.initial_state(dealer)
    assert rules.current_player(before) == CHANCE
    return rules.advance(before, rules.deal_action(hands, turned, unknown))


def check_deal(rules: JojotteRules, hands: tuple[int, ...], turned: int, dealer: int = 1):
    """The check of a deal's chance action (JJ-DEAL-5, JJ-DECK-1, the seating rules of JJ3-ALT-1, JJ4S-1)."""
    return rules.check(rules.initial_state(dealer), rules.deal_action(hands, turned))


def draw(rules: JojotteRules, state, a: str, b: str, info: str = ""):
    """The draw of JJ-DRAW-1/2 as a chance event (must be legal)."""
    act = Action(CHANCE, "draw", cards=(mask(a), mask(b)), info=parse_card(info) if info else -1)
    v = rules.check(state, act)
    assert v is None, v
    return rules.apply(state, act)


def full_hand(rules: JojotteRules, a9: str, b9: str, turned: str, info: str, dealer: str, auction: str,
              after: str = ""):
    """A hand after its auction, draw and after-draw calls; the nine cards of each player are given,
    the first six as dealt, the last three as drawn."""
    ca, cb = a9.split(), b9.split()
    s = start(rules, turned, dealer, " ".join(ca[:6]), " ".join(cb[:6]))
    s = run(rules, s, auction)
    s = draw(rules, s, " ".join(ca[6:]), " ".join(cb[6:]), info)
    return run(rules, s, after)


# --- the worked examples of §21, as recorded in examples/*.jjt ------------------------------

EXAMPLE_HANDS = {
    # spec example: (file, hand number in that file)
    "1": ("spec-rubber.jjt", 1),
    "2": ("spec-rubber.jjt", 2),
    "4": ("spec-rubber.jjt", 3),
    "7a": ("spec-rubber.jjt", 4),
    "6": ("nullo-slam-void.jjt", 1),
    "5": ("nullo-slam-void.jjt", 2),
    "7b": ("nullo-slam-void.jjt", 3),
    "3-1x": ("doubles.jjt", 1),
    "3-2x": ("doubles.jjt", 2),
    "3-1xx": ("doubles.jjt", 3),
}


def hand_blocks(text: str) -> list[str]:
    """The hand blocks (``hand N dealer X`` and its lines) of a .jjt text, in order."""
    blocks, cur = [], None
    for line in text.splitlines():
        if re.match(r"\s*hand\s+\d+", line):
            cur = [line]
            blocks.append(cur)
        elif cur is not None and line.strip() and not line.startswith("["):
            cur.append(line)
        elif not line.strip():
            cur = None
    return ["\n".join(b) for b in blocks]


def example_hand(key: str, number: int = 1, replace: tuple[tuple[str, str], ...] = (),
                 keep_score: bool = False) -> tuple[str, str]:
    """(hand text, dealer letter) of a spec example, renumbered, with text replacements applied.
    The written ``score`` line is dropped unless ``keep_score``."""
    fname, n = EXAMPLE_HANDS[key]
    block = hand_blocks((EXAMPLES / fname).read_text(encoding="utf-8"))[n - 1]
    lines = block.splitlines()
    head = re.match(r"\s*hand\s+\d+\s+dealer\s+([AB])", lines[0])
    dealer = head.group(1)
    lines[0] = f"hand {number} dealer {dealer}"
    if not keep_score:
        lines = [x for x in lines if not x.startswith("score")]
    text = "\n".join(lines) + "\n"
    for old, new in replace:
        assert old in text, f"{old!r} not in example {key}"
        text = text.replace(old, new)
    return text, dealer


# --- score-sheet helpers ----------------------------------------------------------------------

def hand_score(below: dict[int, int] | None = None, above: dict[int, int] | None = None, held: int = 0,
               winner: int | None = None, nullo: bool = False, void: bool = False) -> HandScore:
    """A HandScore with the given credits (seat -> amount). The winner defaults to the player
    who scores below the line (JJ-SCORE-10)."""
    credits = []
    for seat, amount in (below or {}).items():
        credits.append(Credit(seat, "below", amount, "JJ-SCORE-3", "test"))
    for seat, amount in (above or {}).items():
        credits.append(Credit(seat, "above", amount, "JJ-SCORE-3", "test"))
    if winner is None:
        winner = next(iter(below)) if below else -1
    z = (0, 0)
    return HandScore(z, z, z, z, tuple(credits), held, winner, z, void=void, nullo=nullo)
