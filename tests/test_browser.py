"""The HTML report in a real browser: headless Chromium from Debian (``/usr/bin/chromium``), driven by playwright.

Never ``playwright install``: the tests launch the system's Chromium (`.ci/run` installs it) and
skip, saying why, only when it is absent. Screenshots of a hand and of a score sheet go to
``tests/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_report import EXAMPLE_FILES, HOSTILE_1, HOSTILE_2, HOSTILE_SESSION

from conftest import EXAMPLES, ROOT
from jojotte_records.cards import card_name
from jojotte_records.notation.model import HandRecord
from jojotte_records.notation.text import iter_records
from jojotte_records.report.site import build_site

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
ARTIFACTS = ROOT / "tests" / "artifacts"

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                 reason=f"{CHROMIUM} is absent: apt-get install chromium (.ci/run does) to run the browser tests")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("browser-site")
    src = tmp_path_factory.mktemp("records") / "hostile.jjt"
    src.write_text(HOSTILE_SESSION, encoding="utf-8")
    result = build_site([*EXAMPLE_FILES, str(src)], out / "site")
    assert not result.problems
    return out / "site"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    pg.errors = []
    pg.dialogs = []
    pg.on("console", lambda m: pg.errors.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: pg.errors.append(f"page error: {e}"))
    pg.on("requestfailed", lambda r: pg.errors.append(f"request failed: {r.url}"))
    pg.on("dialog", lambda d: (pg.dialogs.append(d.message), d.dismiss()))
    yield pg
    context.close()


def url(path: Path, anchor: str = "") -> str:
    return path.as_uri() + anchor


def record_tricks(path: Path, hand: int) -> list[list[tuple[str, str]]]:
    """The tricks of a hand as the record has them: (seat letter, card) in play order."""
    for item in iter_records(path.read_text(encoding="utf-8"), str(path)):
        if isinstance(item, HandRecord) and item.number == hand:
            return [[("AB"[p.seat], card_name(p.card)) for p in t.plays] for t in item.tricks]
    raise AssertionError(f"no hand {hand} in {path}")


def shown_trick(page, hand: int) -> tuple[int, list[tuple[str, str]]]:
    """The one trick the stepper shows: its position and its (seat, card) plays."""
    visible = page.locator(f"#hand-{hand} .trick:visible")
    assert visible.count() == 1
    position = int(visible.get_attribute("data-trick"))
    plays = [tuple(x.split(":")) for x in visible.get_attribute("data-cards").split()]
    # what the page shows is what the data says: the same cards in the same order
    texts = visible.locator(".play .card").all_inner_texts()
    assert [t.replace("10", "T")[:-1] + "SHDC"["♠♥♦♣".index(t[-1])] for t in texts] == [c for _, c in plays]
    return position, plays


def test_every_page_loads_without_console_errors(site, page):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 50
    for path in pages:
        page.goto(url(path))
        page.wait_for_load_state("load")
        assert not page.errors, f"{path.relative_to(site)}: {page.errors}"
        assert page.locator("main").count() == 1


def test_arrow_keys_step_through_the_tricks_of_the_record(site, page):
    tricks = record_tricks(EXAMPLES / "spec-rubber.jjt", 1)
    page.goto(url(site / "sessions" / "spec-rubber" / "hands-0001.html", "#hand-1"))
    assert page.locator("article.hand:visible").count() == 1  # one hand of the file at a time
    assert shown_trick(page, 1) == (1, tricks[0])
    for k in range(2, 10):
        page.keyboard.press("ArrowRight")
        assert shown_trick(page, 1) == (k, tricks[k - 1])
    page.keyboard.press("ArrowRight")  # the last trick stays
    assert shown_trick(page, 1)[0] == 9
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert shown_trick(page, 1) == (7, tricks[6])
    assert page.locator("#hand-1 .step-label").inner_text() == "Trick 7 of 9"
    # what each player holds before trick 7: the hand after the dix less the cards of tricks 1-6
    held = page.locator("#hand-1 .trick:visible .holdings").inner_text()
    assert "Alice" in held and "Bob" in held and "♦ K Q" in held
    page.get_by_role("button", name="Next ▶").first.click()
    assert shown_trick(page, 1)[0] == 8
    assert not page.errors


def test_another_hand_of_the_same_file_by_its_address(site, page):
    tricks = record_tricks(EXAMPLES / "spec-rubber.jjt", 3)
    page.goto(url(site / "sessions" / "spec-rubber" / "hands-0001.html", "#hand-3"))
    assert page.locator("article.hand:visible").get_attribute("id") == "hand-3"
    assert page.title().startswith("Hand 3 |")
    page.keyboard.press("ArrowRight")
    assert shown_trick(page, 3) == (2, tricks[1])
    page.locator("#hand-3 a[rel=next]").click()
    assert page.locator("article.hand:visible").get_attribute("id") == "hand-4"


def test_dispute_opens_on_the_illegal_card(site, page):
    page.goto(url(site / "sessions" / "01-revoke-follow-suit" / "hands-0001.html"))
    position, plays = shown_trick(page, 1)
    assert (position, plays) == (2, [("A", "AS"), ("B", "7D")])
    flagged = page.locator("#hand-1 .flagged")
    assert flagged.count() == 1 and flagged.get_attribute("data-loc") == "t2c2"
    assert flagged.is_visible() and "7♦" in flagged.inner_text()
    page.locator("#hand-1 .verdict a[href='#h1-t2']").click()
    assert shown_trick(page, 1)[0] == 2
    assert "A player who holds a card of the suit led must play one." in page.locator("#hand-1 .verdict").inner_text()


def test_without_javascript_every_trick_is_shown(site, browser):
    context = browser.new_context(java_script_enabled=False)
    try:
        pg = context.new_page()
        pg.goto(url(site / "sessions" / "spec-rubber" / "hands-0001.html", "#hand-2"))
        assert pg.locator("article.hand:visible").count() == 4
        assert pg.locator("#hand-2 .trick:visible").count() == 9
        assert pg.locator(".stepper:visible").count() == 0
        pg.goto(url(site / "index.html"))
        assert pg.locator("#sessions tbody tr:visible").count() == len(list((site / "sessions").iterdir()))
    finally:
        context.close()


def test_hostile_player_names_are_text_and_no_dialog_opens(site, page):
    pages = [site / "index.html", site / "stats.html", site / "sessions" / "hostile" / "index.html",
             site / "sessions" / "hostile" / "hands-0001.html"]
    for path in pages:
        page.goto(url(path))
        page.wait_for_load_state("load")
        assert page.locator("img").count() == 0, path
        assert page.evaluate("document.querySelectorAll('main script').length") == (1 if path.name == "index.html" and path.parent == site else 0)
    page.goto(url(site / "sessions" / "hostile" / "hands-0001.html"))
    body = page.locator("main").inner_text()
    assert HOSTILE_1 in body and HOSTILE_2 in body
    page.goto(url(site / "index.html"))
    page.fill("#player-filter", "<script>")
    assert page.locator("#sessions tbody tr:visible").count() == 1
    assert page.locator("#sessions tbody tr:visible .player").first.inner_text() == HOSTILE_1
    assert page.dialogs == [] and not page.errors


def test_index_sorts_and_filters_by_player(site, page):
    page.goto(url(site / "index.html"))
    rows = page.locator("#sessions tbody tr")
    total = rows.count()
    page.fill("#player-filter", "claire")
    shown = page.locator("#sessions tbody tr:visible")
    assert 0 < shown.count() < total
    assert all("Claire" in t for t in shown.locator("td:nth-child(3)").all_inner_texts())
    page.fill("#player-filter", "")
    page.locator("#sessions th", has_text="Hands").click()
    hands = [int(t) for t in page.locator("#sessions tbody td:nth-child(6)").all_inner_texts()]
    assert hands == sorted(hands)


def test_screenshots_of_a_hand_and_a_score_sheet(site, page):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.goto(url(site / "sessions" / "spec-rubber" / "hands-0001.html", "#hand-1"))
    page.keyboard.press("ArrowRight")
    page.screenshot(path=str(ARTIFACTS / "hand.png"), full_page=True)
    page.goto(url(site / "sessions" / "01-revoke-follow-suit" / "hands-0001.html"))
    page.screenshot(path=str(ARTIFACTS / "dispute-hand.png"), full_page=True)
    page.goto(url(site / "sessions" / "spec-rubber" / "index.html"))
    page.screenshot(path=str(ARTIFACTS / "session.png"), full_page=True)
    page.locator(".scorepad").first.screenshot(path=str(ARTIFACTS / "score-sheet.png"))
    for name in ("hand.png", "dispute-hand.png", "session.png", "score-sheet.png"):
        assert (ARTIFACTS / name).stat().st_size > 5000


def test_the_analysis_board_shows_under_its_trick(tmp_path, page):
    # a hand-annotated record (test_report_alts.py): Bob's lead in trick 1 with the value of four of his cards
    from test_report_alts import JJ_DD

    text = (EXAMPLES / "spec-rubber.jjt").read_text(encoding="utf-8").replace("trick 1: B AC, A KH jo",
                                                                              f"trick 1: B AC {JJ_DD}, A KH jo", 1)
    src = tmp_path / "spec-rubber.jjt"
    src.write_text(text, encoding="utf-8")
    build_site([str(src)], tmp_path / "site")
    page.goto(url(tmp_path / "site" / "sessions" / "spec-rubber" / "hands-0001.html", "#hand-1"))
    board = page.locator("#h1-t1 figure.alts")
    assert board.is_visible()
    rows = board.locator("tr.alt")
    assert rows.count() == 4
    assert rows.nth(0).inner_text().split("\t")[-1].strip() == "▶ played"
    assert "★ best" in rows.nth(2).inner_text()
    widths = [rows.nth(i).locator(".alt-bar").bounding_box()["width"] for i in range(4)]
    # the bars' drawn lengths follow the values: AC = AH (60 %) > KC (30 %) > 7D (1 %)
    assert widths[0] == pytest.approx(widths[3]) and widths[0] > widths[1] > widths[2] > 0
    assert widths[0] == pytest.approx(2 * widths[1], rel=0.05)
    page.keyboard.press("ArrowRight")  # the stepper: trick 2 shows, and trick 1's board with its trick is hidden
    assert not board.is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.keyboard.press("ArrowLeft")
    page.locator("#h1-t1").screenshot(path=str(ARTIFACTS / "analysis-board.png"))
    assert not page.errors, page.errors
