"""A long session's score sheet is paged (issue 16 item 5): `HANDS_PER_SHEET` hands a page, prev/next links,
each column's total brought forward; the hand files stay as they were. A one-page session's page does not
change (test_report_pages_pinned.py holds every page of the examples)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from jojotte_records.notation.model import SessionHeader
from jojotte_records.notation.text import write_stream
from jojotte_records.play.simulate import simulate_items
from jojotte_records.replay.files import check_file
from jojotte_records.report.site import HANDS_PER_SHEET, build_site

HAND_LINK = re.compile(r'<td><a href="hands-\d{4}\.html#hand-(\d+)">(\d+)</a></td>')


def _session(tmp_path: Path, game: str, hands: int, seed: int) -> Path:
    """One simulated session (Pitch: its first game, however many hands it took)."""
    items = list(simulate_items(game, hands, seed))
    second = next((i for i, item in enumerate(items[1:], 1) if isinstance(item, SessionHeader)), len(items))
    src = tmp_path / f"{game}.jjt"
    with open(src, "w", encoding="utf-8") as f:
        write_stream(items[:second], f)
    return src


def _listed(page: Path) -> list[int]:
    """The positions of the hands a sheet page lists (its rows' links to the hand pages)."""
    return [int(p) for p, _ in HAND_LINK.findall(page.read_text(encoding="utf-8"))]


def test_the_default_page_holds_500_hands():
    assert HANDS_PER_SHEET == 500


@pytest.mark.parametrize("game, per", [("jojotte", 10), ("pitch", 3)])
def test_a_long_session_sheet_is_paged_with_links_and_totals_brought_forward(tmp_path, game, per):
    src = _session(tmp_path, game, 23, 5)
    (summary, hands), = check_file(str(src)).sessions  # the validator alone: the sheet after every hand
    n = len(hands)
    assert n > 2 * per  # three pages at least
    out = tmp_path / "site"
    result = build_site([str(src)], out, hands_per_sheet=per)
    assert result.hands == n
    folder = out / "sessions" / game
    count = -(-n // per)
    files = ["index.html"] + [f"sheet-{k:04d}.html" for k in range(2, count + 1)]
    assert sorted(p.name for p in folder.glob("sheet-*.html")) == files[1:]
    for k, name in enumerate(files, 1):
        page = folder / name
        text = page.read_text(encoding="utf-8")
        # page k lists hands per*(k-1)+1 .. per*k (the last page what is left)
        assert _listed(page) == list(range(per * (k - 1) + 1, min(per * k, n) + 1)), name
        assert (f'rel="prev" href="{files[k - 2]}"' in text) == (k > 1)
        assert ('rel="next"' in text) == (k < count) and (k == count or f'rel="next" href="{files[k]}"' in text)
        assert ('class="result"' in text) == (k == 1)  # the session's result is on its own page only
        if k > 1:  # each column's total after the last hand of the pages before, as the validator computes it
            after = hands[per * (k - 1) - 1].sheet
            totals = after.total if game == "jojotte" else after.scores
            carried = re.search(r'<p class="carried">Brought forward: (.*)</p>', text).group(1)
            assert html.unescape(re.sub(r"<[^>]+>", "", carried)) == ", ".join(f"{c} {t}" for c, t in zip(summary.names, totals))
    # the hand files are the same as without paging, and the unpaged session page lists every hand
    whole = build_site([str(src)], tmp_path / "whole")
    assert whole.hands == n
    for hand_file in sorted((tmp_path / "whole" / "sessions" / game).glob("hands-*.html")):
        assert (folder / hand_file.name).read_bytes() == hand_file.read_bytes()
    assert _listed(tmp_path / "whole" / "sessions" / game / "index.html") == list(range(1, n + 1))


def test_the_score_pad_of_a_paged_session_has_every_row_once(tmp_path):
    src = _session(tmp_path, "jojotte", 23, 5)
    build_site([str(src)], tmp_path / "paged", hands_per_sheet=10)
    build_site([str(src)], tmp_path / "whole")
    row = re.compile(r'<th class="hand-col"><a href="(hands-\d+\.html#hand-\d+)">hand (\d+)</a></th>')

    def pad_rows(folder: Path) -> list[str]:
        out = []
        for page in ["index.html", *sorted(p.name for p in folder.glob("sheet-*.html"))]:
            out += sorted(m.group(0) for m in row.finditer((folder / page).read_text(encoding="utf-8")))
        return sorted(out)

    assert pad_rows(tmp_path / "paged" / "sessions" / "jojotte") == pad_rows(tmp_path / "whole" / "sessions" / "jojotte")
    paged = (tmp_path / "paged" / "sessions" / "jojotte" / "index.html").read_text(encoding="utf-8")
    whole = (tmp_path / "whole" / "sessions" / "jojotte" / "index.html").read_text(encoding="utf-8")
    captions = re.findall(r"<caption>Rubber (\d+)", whole)
    assert captions and re.findall(r"<caption>Rubber (\d+)", paged)[0] == captions[0]
