"""The dispute's hand page shows the restored score beside the written one (issue 17 item 2): what
``jojotte validate --restore`` computes, drawn only when the report is asked for it (``report --restore``)."""

from __future__ import annotations

import html
import json
import re

from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES

runner = CliRunner()
REVOKE = EXAMPLES / "disputes" / "01-revoke-follow-suit.jjt"  # Jo-Jotte: Daniel's 7D in trick 2, holding KS (JJ-PLAY-3)
PITCH = EXAMPLES / "disputes" / "p07-pitch-wrong-leader-when-winner-is-out.jjt"  # Sue leads trick 4, Ed's lead (PIT-PLAY-6)


def _restored_section(page: str) -> str:
    m = re.search(r'<section class="restored" data-loc="restored">(.*?)</section>', page, re.S)
    assert m, "no restored score on the page"
    return html.unescape(re.sub(r"<[^>]+>", " ", m.group(1)))


def _validate_restore(path) -> list[dict]:
    result = runner.invoke(app, ["validate", str(path), "--restore", "--json"])
    return json.loads(result.output)["restorations"]


def test_the_dispute_page_shows_the_restored_score_beside_the_written_one(tmp_path):
    out = tmp_path / "site"
    result = runner.invoke(app, ["report", str(REVOKE), str(PITCH), "--out", str(out), "--restore"])
    assert result.exit_code == 0, result.output
    # Jo-Jotte: spades were led in trick 2 and Daniel's only spade is KS (his hand, line 13), so the one legal
    # card, the best one, is KS: the page says so, with validate --restore's figures beside the written ones
    page = _restored_section((out / "sessions" / "01-revoke-follow-suit" / "hands-0001.html").read_text(encoding="utf-8"))
    assert "trick 2, card 2: had Daniel played KS instead of 7D" in page
    (item,) = _validate_restore(REVOKE)
    for name, fig in item["restored"]["score"].items():
        if name in ("winner", "held_aside"):
            continue
        restored = ", ".join(f"{k} {fig[k]}" for k in ("below", "above") if fig[k]) or "nothing"
        written = ", ".join(f"{k} {v}" for k, v in item["as_written"][name].items() if v) or "nothing"
        assert re.search(rf"{name}\s+{restored} \(trick score {fig['trick_points']}\)\s+{written}", page), (name, page)
    assert f"{item['restored']['score']['winner']} wins the hand" in page
    # Pitch: the same for a game recorded as events, per column of the sheet
    page = _restored_section((out / "sessions" / "p07-pitch-wrong-leader-when-winner-is-out" / "hands-0001.html")
                             .read_text(encoding="utf-8"))
    (item,) = _validate_restore(PITCH)
    assert item["restored"]["text"] in page and "out of turn" in page
    for column, points in item["restored"]["score"]["delta"].items():
        assert re.search(rf"{column}\s+{points}\s+{item['as_written'][column]}", page), (column, page)


def test_without_restore_the_page_has_no_restored_score(tmp_path):
    out = tmp_path / "site"
    assert runner.invoke(app, ["report", str(REVOKE), "--out", str(out)]).exit_code == 0
    page = (out / "sessions" / "01-revoke-follow-suit" / "hands-0001.html").read_text(encoding="utf-8")
    assert 'class="restored"' not in page and "JJ-PLAY-3" in page
