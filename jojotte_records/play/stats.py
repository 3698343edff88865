"""The statistics of simulated hands, read back from their record: what `docs/simulate.md` shows.

`hand_stats` simulates ``hands`` hands, writes them as text, reads the text back and replays it through the
validator (`replay.validate_stream`); every figure is counted on the states and scores of that replay, so
it is what the archive and the report would see. `bench/simulate_stats.py` prints the tables of the doc.
"""

from __future__ import annotations

import io
from collections import Counter

from ..notation.text import iter_records, write_stream
from ..replay.jojotte import validate_stream
from ..rules.base import find_variant
from .simulate import simulate_items


def replayed(game: str, hands: int, seed: int = 1, variant: str = "", policy: str = "plausible"):
    """Every hand verdict of a simulated record, replayed from its text; raises if a hand is not legal."""
    out = io.StringIO()
    write_stream(simulate_items(game, hands, seed, variant, policy), out)
    verdicts = []
    for _, kept in validate_stream(iter_records(out.getvalue(), "<simulated>")):
        for v in kept:
            if v.issues:
                raise AssertionError(f"{game}: simulated hand {v.number} does not validate: {v.issues[0]}")
            verdicts.append(v)
    return verdicts


def hand_stats(game: str, hands: int, seed: int = 1, variant: str = "", policy: str = "plausible") -> dict:
    """Counts of the hands of a simulated record (see the module doc); rates are counts over ``hands`` or ``contracts``."""
    cls = find_variant(game)
    verdicts = replayed(game, hands, seed, variant, policy)
    if cls.name == "pitch":
        return _pitch(verdicts)
    if cls.name == "baloot":
        return _baloot(verdicts)
    return _jojotte(verdicts, four=cls.trick_size == 4)


def _jojotte(verdicts, four: bool) -> dict:
    c: Counter = Counter()
    c["hands"] = len(verdicts)
    for v in verdicts:
        s, score = v.state, v.score
        if s.phase == "void":
            c["void"] += 1
            continue
        c["contracts"] += 1

        def side_tricks(seat: int) -> int:
            return s.won[seat] + s.won[(seat + 2) % 4] if four else s.won[seat]

        def column(seat: int) -> int:
            return seat % 2 if four else seat

        total = sum(s.won)
        if s.mult >= 2:
            c["doubled"] += 1
        if s.mult == 4:
            c["redoubled"] += 1
        if s.denomination == "nullo":
            c["nullo"] += 1
            c["nullo_made"] += side_tricks(s.nullo_bidder) == 0
            continue
        c[s.denomination] += 1  # "suit" or "nt"
        if s.slam:
            c["slam"] += 1
            c["slam_made"] += side_tricks(s.bidder) == total
            continue
        c["made"] += score.below(column(s.bidder)) > 0
        if any(side_tricks(x) == total for x in range(len(s.won))):
            c["unbid_slam"] += 1
    return dict(c)


def _pitch(verdicts) -> dict:
    from ..rules.pitch import MOON

    c: Counter = Counter()
    c["hands"] = len(verdicts)
    for v in verdicts:
        s, score = v.state, v.score
        c["contracts"] += 1
        if s.contract >= MOON:
            c["moon"] += 1
            c["moon_made"] += bool(score.made)
            continue
        c[f"bid_{s.contract}"] += 1
        c["made"] += bool(score.made)
        c["bid_sum"] += s.contract
        c["points_sum"] += score.bidding_points
        if s.bidder == s.dealer and all(b == 0 for seat, b in s.calls if seat != s.dealer):
            c["dealer_stuck"] += 1  # three passes: the dealer takes it (PIT-BID-4)
    return dict(c)


def _baloot(verdicts) -> dict:
    c: Counter = Counter()
    c["hands"] = len(verdicts)
    for v in verdicts:
        s, score = v.state, v.score
        if not s.contract:
            c["annulled_" + (s.annulled or "pass")] += 1
            continue
        c["contracts"] += 1
        last = next((k for _, _, k, _ in reversed(s.calls) if k != "pass"), "")
        c["ashkal" if last == "ashkal" else s.contract] += 1
        c["made"] += bool(score.made)
        c["kaboot"] += score.kaboot >= 0
        c[f"level_{s.level}"] += 1
        if s.level >= 2:
            c["doubled"] += 1
    return dict(c)
