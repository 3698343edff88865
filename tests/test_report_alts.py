"""Every alternative's value under the trick (issue 17 item 3): for each card whose ``[%dd …]`` comment has
``alts=``, a small horizontal bar chart of every legal card's value, the played card and the best marked in
words. The records here are annotated by hand (the values are made up; the chart only draws them)."""

from __future__ import annotations

import html
import re

from conftest import EXAMPLES
from jojotte_records.report.site import build_site

# Jo-Jotte, spec-rubber hand 1, trick 1: Bob leads, so all nine of his cards are legal; the comment lists four
# of them with values from Alice's side (A minus B): Bob wants the lowest, 7D (-50), and played AC (-20)
JJ_DD = "{[%dd eval=-20 cost=30 best=7D mark=mistake alts=AC:-20,KC:-35,7D:-50,AH:-20]}"
# Pitch, pitch-game hand 1, trick 1: trumps (hearts) led, Walt holds QH and 2H; values are the bidders' (N+S)
PITCH_DD = "{[%dd eval=9 cost=1 best=2H mark=inaccuracy alts=QH:9,2H:8]}"


def _annotated(tmp_path, name: str, old: str, new: str):
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _boards(page: str) -> list[list[tuple[str, str, str, str]]]:
    """Each chart's rows: (card text, value, bar width, marks)."""
    out = []
    for fig in re.findall(r'<figure class="alts">(.*?)</figure>', page, re.S):
        rows = re.findall(r'<tr class="alt[^"]*"><th>(.*?)</th><td class="num">(-?\d+)</td><td class="alt-bar-cell">'
                          r'<span class="alt-bar" style="width: ([\d.]+)%"></span></td><td class="alt-marks">(.*?)</td></tr>', fig)
        out.append([(html.unescape(re.sub(r"<[^>]+>", "", c)), v, w, html.unescape(m)) for c, v, w, m in rows])
    return out


def test_the_board_shows_every_legal_cards_value_with_the_played_and_the_best_marked(tmp_path):
    src = _annotated(tmp_path, "spec-rubber.jjt", "trick 1: B AC, A KH jo", f"trick 1: B AC {JJ_DD}, A KH jo")
    out = tmp_path / "site"
    build_site([str(src)], out)
    page = (out / "sessions" / "spec-rubber" / "hands-0001.html").read_text(encoding="utf-8")
    trick1 = re.search(r'<section class="trick[^"]*" id="h1-t1".*?</section>', page, re.S).group(0)
    # the bars run from the lowest value (-50) to 0, a span of 50: AC and AH (-20) 30/50 = 60 %, KC 15/50 = 30 %,
    # 7D at the lowest 0 % (drawn 1 % wide so it shows)
    assert _boards(trick1) == [[("A♣", "-20", "60.0", "▶ played"), ("K♣", "-35", "30.0", ""),
                                ("7♦", "-50", "1.0", "★ best"), ("A♥", "-20", "60.0", "")]]
    assert "What each card Bob could play was worth" in trick1
    assert _boards(page.replace(trick1, "")) == []  # only the annotated trick has a board


def test_the_board_of_a_game_recorded_as_events(tmp_path):
    src = _annotated(tmp_path, "pitch-game.jjt", "trick 1: S AH, W QH,", f"trick 1: S AH, W QH {PITCH_DD},")
    out = tmp_path / "site"
    build_site([str(src)], out)
    page = (out / "sessions" / "pitch-game" / "hands-0001.html").read_text(encoding="utf-8")
    # 0 to 9: QH 9/9 = 100 %, 2H 8/9 = 88.9 %
    assert _boards(page) == [[("Q♥", "9", "100.0", "▶ played"), ("2♥", "8", "88.9", "★ best")]]
    assert "What each card Walt could play was worth" in page


def test_a_board_escapes_what_the_comment_says(tmp_path):
    hostile = "{[%dd eval=0 cost=0 best=AC alts=AC:0,<script>x</script>:1]}"  # a card no pack names: shown as written, escaped
    src = _annotated(tmp_path, "spec-rubber.jjt", "trick 1: B AC, A KH jo", f"trick 1: B AC {hostile}, A KH jo")
    out = tmp_path / "site"
    build_site([str(src)], out)
    page = (out / "sessions" / "spec-rubber" / "hands-0001.html").read_text(encoding="utf-8")
    assert "<script>x</script>" not in page
