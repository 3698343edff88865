"""The Baloot score calculator: one hand's totals in, each team's award out, with every step explained.

The arithmetic is `rules.baloot.score_summary`, the function the rules core scores every replayed hand
with; this module only reads what a scorer types (``WE=84``, ``NS:sira,fifty``, ``double``) into a
`HandSummary` and writes the result as text or JSON.

>>> s = calculate("hokum", "NS", "1", "WE=84")
>>> s.delta
(0, 16)
>>> print(result_text(s).splitlines()[-1])
award: NS 0, WE 16
"""

from __future__ import annotations

from ..rules.baloot import GAHWA, BalootOptions, BalootScore, HandSummary, score_summary
from ..rules.baloot_cards import HAND_TOTAL, KINDS

TEAMS = ("NS", "WE")
_TEAM_WORDS = {"NS": 0, "SN": 0, "N-S": 0, "S-N": 0, "N": 0, "S": 0, "0": 0,
               "WE": 1, "EW": 1, "W-E": 1, "E-W": 1, "W": 1, "E": 1, "1": 1}
_LEVEL_WORDS = {"1": 1, "single": 1, "none": 1, "2": 2, "double": 2, "3": 3, "triple": 3, "4": 4, "four": 4,
                "g": GAHWA, "gahwa": GAHWA, "5": GAHWA}
_KIND_WORDS = {"sira": "sira", "fifty": "fifty", "50": "fifty", "hundred": "hundred", "100": "hundred",
               "fourhundred": "fourhundred", "four-hundred": "fourhundred", "400": "fourhundred"}


def parse_team(text: str) -> int:
    """``NS`` (or ``N-S``, ``N``, ``S``) is 0, ``WE`` (``EW``, ``W``, ``E``) is 1.

    Raises:
        ValueError: not a team.
    """
    key = text.strip().upper().replace("–", "-")
    if key not in _TEAM_WORDS:
        raise ValueError(f"'{text}' is not a team (NS or WE)")
    return _TEAM_WORDS[key]


def parse_level(text: str) -> int:
    """``1``, ``double`` (2), ``triple`` (3), ``four`` (4) or ``gahwa``.

    Raises:
        ValueError: not a level.
    """
    key = text.strip().lower()
    if key not in _LEVEL_WORDS:
        raise ValueError(f"'{text}' is not a level (1, double, triple, four, gahwa)")
    return _LEVEL_WORDS[key]


def parse_team_value(text: str) -> tuple[int, str]:
    """``WE=84`` or ``WE:84`` -> (1, "84").

    Raises:
        ValueError: no team before the value.
    """
    for sep in ("=", ":"):
        if sep in text:
            team, _, value = text.partition(sep)
            return parse_team(team), value.strip()
    raise ValueError(f"'{text}' is written TEAM=VALUE, e.g. WE=84")


def parse_kinds(text: str) -> tuple[str, ...]:
    """``sira,fifty`` -> ("sira", "fifty").

    Raises:
        ValueError: not a project kind.
    """
    out = []
    for w in text.replace("+", ",").split(","):
        w = w.strip().lower()
        if not w:
            continue
        if w not in _KIND_WORDS:
            raise ValueError(f"'{w}' is not a project kind ({', '.join(KINDS)})")
        out.append(_KIND_WORDS[w])
    return tuple(out)


def summary_of(contract: str, declarers: str, level: str = "1", points: str | None = None, projects: list[str] | None = None,
               baloot: str | None = None, kaboot: str | None = None, declared: list[str] | None = None) -> HandSummary:
    """The `HandSummary` of what a scorer types.

    Raises:
        ValueError: a value that cannot be read, or card points missing for a hand that is not al-kaboot.
    """
    c = contract.strip().lower()
    if c == "ashkal":
        c = "sun"  # BAL-BID-12: Ashkal produces a Sun contract
    if c not in HAND_TOTAL:
        raise ValueError(f"'{contract}' is not a contract (hokum, sun or ashkal)")
    kab = parse_team(kaboot) if kaboot else -1
    if points:
        team, value = parse_team_value(points)
        try:
            cp = int(value)
        except ValueError:
            raise ValueError(f"'{value}' is not a number of card points") from None
        total = HAND_TOTAL[c]
        if not 0 <= cp <= total:
            raise ValueError(f"{TEAMS[team]}'s card points {cp} are not between 0 and {total} (BAL-DECK-7)")
        pts = (cp, total - cp) if team == 0 else (total - cp, cp)
    elif kab >= 0:
        pts = (HAND_TOTAL[c], 0) if kab == 0 else (0, HAND_TOTAL[c])
    else:
        raise ValueError("give one team's card points, e.g. --cp WE=84 (or --kaboot TEAM)")
    proj: list[tuple[str, ...]] = [(), ()]
    for item in projects or ():
        team, value = parse_team_value(item)
        proj[team] += parse_kinds(value)
    decl: list[tuple[str, ...]] = [(), ()]
    for item in declared or ():
        team, value = parse_team_value(item)
        decl[team] += parse_kinds(value)
    return HandSummary(c, parse_team(declarers), parse_level(level), pts, (proj[0], proj[1]),
                       parse_team(baloot) if baloot else -1, kab, (decl[0], decl[1]))


def calculate(contract: str, declarers: str, level: str, points: str | None = None, projects: list[str] | None = None,
              baloot: str | None = None, kaboot: str | None = None, declared: list[str] | None = None,
              variant: str = "") -> BalootScore:
    """Score one hand from its totals as typed (the ``jojotte baloot score`` command).

    Raises:
        ValueError: a value that cannot be read, an unknown option, or impossible totals.
    """
    options = BalootOptions.parse(variant) if variant else BalootOptions()
    return score_summary(summary_of(contract, declarers, level, points, projects, baloot, kaboot, declared), options)


def summary_args(h: HandSummary) -> dict:
    """The typed values (``calculate``'s keyword arguments) that stand for a summary: its inverse."""
    t = TEAMS
    args: dict = {"contract": h.contract, "declarers": t[h.declarers],
                  "level": "gahwa" if h.level == GAHWA else str(h.level)}
    if h.kaboot >= 0:
        args["kaboot"] = t[h.kaboot]
    else:
        args["points"] = f"{t[1 - h.declarers]}={h.points[1 - h.declarers]}"
    args["projects"] = [f"{t[i]}={','.join(k)}" for i, k in enumerate(h.projects) if k]
    args["declared"] = [f"{t[i]}={','.join(k)}" for i, k in enumerate(h.declared) if k]
    if h.baloot >= 0:
        args["baloot"] = t[h.baloot]
    return args


def result_json(score: BalootScore) -> dict:
    """The result as plain data (``--json``)."""
    h = score.summary
    return {
        "contract": h.contract if h else None,
        "declarers": TEAMS[h.declarers] if h else None,
        "level": ("gahwa" if h.level == GAHWA else h.level) if h else None,
        "card_points": dict(zip(TEAMS, h.points)) if h else None,
        "counting_team": TEAMS[score.counting_team] if score.counting_team >= 0 else None,
        "game_points": dict(zip(TEAMS, score.game)),
        "projects": dict(zip(TEAMS, score.project_points)),
        "baloot": TEAMS[h.baloot] if h and h.baloot >= 0 else None,
        "totals": dict(zip(TEAMS, score.totals)),
        "winner": TEAMS[score.winner] if score.winner >= 0 else None,
        "tie_break": score.tie_break or None,
        "kaboot": TEAMS[score.kaboot] if score.kaboot >= 0 else None,
        "match_winner": TEAMS[score.match_winner] if score.match_winner >= 0 else None,
        "award": dict(zip(TEAMS, score.delta)),
        "credits": [{"team": TEAMS[c.column], "amount": c.amount, "rule": c.rule, "why": c.why} for c in score.credits],
        "steps": [{"rule": s.rule, "text": s.text} for s in score.steps],
    }


def result_text(score: BalootScore) -> str:
    """The result as numbered steps, each with its rule, then the award."""
    h = score.summary
    lines = []
    if h is not None:
        lvl = "gahwa" if h.level == GAHWA else {1: "undoubled", 2: "doubled", 3: "tripled", 4: "four"}[h.level]
        lines.append(f"{h.contract}, declarers {TEAMS[h.declarers]}, {lvl}; card points NS {h.points[0]}, WE {h.points[1]}"
                     if h.kaboot < 0 else f"{h.contract}, declarers {TEAMS[h.declarers]}, {lvl}")
    for i, s in enumerate(score.steps, 1):
        lines.append(f"{i:2}. {s.text}  [{s.rule}]")
    for c in score.credits:
        lines.append(f"    {TEAMS[c.column]} {c.amount:+d}  {c.why}  [{c.rule}]")
    if score.match_winner >= 0:
        lines.append(f"match won by {TEAMS[score.match_winner]}")
    lines.append(f"award: NS {score.delta[0]}, WE {score.delta[1]}")
    return "\n".join(lines)
