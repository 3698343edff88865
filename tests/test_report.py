"""The HTML report: page contexts and templates, escaping, overrides, unchanged pages, highlighted disputes.

The browser half (pages load, the arrow keys step, no dialog opens) is in test_browser.py.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import re
import sys
import types
from html.parser import HTMLParser
from pathlib import Path

import pytest
from jojotte_records.cli.main import app
from typer.testing import CliRunner

from conftest import EXAMPLES, ROOT
from jojotte_records.cards import card_name
from jojotte_records.notation.model import HandRecord
from jojotte_records.notation.text import iter_records, write_stream
from jojotte_records.play.simulate import simulate_session
from jojotte_records.replay.files import check_file
from jojotte_records.report import site as report
from jojotte_records.report.site import (
    HandsContext,
    HandView,
    IndexContext,
    ReportError,
    SessionContext,
    StatsContext,
    build_site,
    issue_key,
    rule_texts,
)

SPEC = ROOT.parent / "shared" / "rules" / "jojotte.md"
TEMPLATES = ROOT / "templates"
# the Jo-Jotte disputes (the pages of Pitch and Baloot hands are tested in test_pitch_records.py)
DISPUTES = [p for p in sorted((EXAMPLES / "disputes").glob("*.jjt")) if '[Game "pitch"]' not in p.read_text(encoding="utf-8")
            and '[Game "baloot"]' not in p.read_text(encoding="utf-8")]
EXAMPLE_FILES = [str(p) for p in sorted(EXAMPLES.rglob("*.jjt"))]

HOSTILE_1 = "<script>alert(1)</script>"
HOSTILE_2 = '"><img src=x onerror=alert(1)>'
HOSTILE_SESSION = """[Event "Hostile @2 night"]
[Site "<b>club</b>"]
[Date "2026.12.24"]
[Game "jojotte"]
[Players "@1; @2"]
[FirstDealer "B"]

hand 1 dealer B { comment @1 }
deal A: JH KH QH 7H AS TS 8S KD QD; B: AH TH 8H AC TC KC 9D 8D 7D
turned 9H
info 8C
auction A accept, B pass
after B melds 9D-7D, A pass, A melds KH-JH, A dix
trick 1: B AC, A KH jo { @3 }
trick 2: A QH jotte, B TH
trick 3: B TC, A 9H
trick 4: A JH, B 8H
trick 5: A AS, B AH
trick 6: B KC, A 8S
trick 7: B 9D, A KD
trick 8: A TS, B 7D
trick 9: A QD, B 8D
score A below 110 above 20, B above 40
""".replace("@1", HOSTILE_1).replace("@2", HOSTILE_2.replace('"', '\\"')).replace("@3", HOSTILE_2)  # \" in a tag value


# --- helpers --------------------------------------------------------------------------------------------

def capture_contexts(monkeypatch) -> list:
    """Record every (template, context) the site renders, and still render it."""
    seen = []
    original = report.Site.write_page

    def write_page(self, rel, template, ctx):
        seen.append((rel, template, ctx))
        return original(self, rel, template, ctx)

    monkeypatch.setattr(report.Site, "write_page", write_page)
    return seen


class Elements(HTMLParser):
    """Every element's tag and attributes, with the id of the hand (article) it is in."""

    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, dict, str | None]] = []
        self.stack: list[str | None] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        hand = a.get("id") if tag == "article" else (self.stack[-1] if self.stack else None)
        if tag not in ("br", "meta", "link", "input", "img", "col", "hr"):
            self.stack.append(hand)
        self.found.append((tag, a, hand))

    def handle_endtag(self, tag):
        if self.stack and tag not in ("br", "meta", "link", "input", "img", "col", "hr"):
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def parse(path: Path) -> Elements:
    p = Elements()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def flagged(elements: Elements, hand_id: str) -> dict[str, str]:
    """data-loc -> classes of the flagged elements of one hand."""
    return {a["data-loc"]: a.get("class", "") for _, a, hand in elements.found
            if hand == hand_id and "flagged" in a.get("class", "").split()}


def hand_page(out: Path, slug: str, position: int, per_file: int = report.HANDS_PER_FILE) -> Path:
    first = (position - 1) // per_file * per_file + 1
    return out / "sessions" / slug / f"hands-{first:04d}.html"


@pytest.fixture(scope="module")
def example_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    result = build_site(EXAMPLE_FILES, out)
    return out, result


# --- the page contexts and the templates -----------------------------------------------------------------

DOC = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")


def documented_fields(name: str) -> list[str]:
    section = DOC.split(f"### `{name}`", 1)[1].split("\n#", 1)[0]
    return re.findall(r"^- `(\w+)`", section, re.M)


@pytest.mark.parametrize("cls", [IndexContext, SessionContext, HandsContext, StatsContext])
def test_context_dataclasses_are_frozen_and_documented(cls):
    assert dataclasses.is_dataclass(cls)
    assert cls.__dataclass_params__.frozen
    assert [f.name for f in dataclasses.fields(cls)] == documented_fields(cls.__name__)


def test_hand_view_fields_are_documented():
    assert list(HandView._fields) == documented_fields("HandView")


def _template_text(*names: str) -> str:
    return "".join((TEMPLATES / n).read_text(encoding="utf-8") for n in names)


@pytest.mark.parametrize("cls, names", [
    (IndexContext, ("index.html", "base.html")),
    (SessionContext, ("session.html", "base.html", "_session_head.html")),
    (HandsContext, ("hands.html", "base.html", "_hand.html")),
    (StatsContext, ("stats.html", "base.html")),
])
def test_every_context_field_is_used_by_its_default_template(cls, names):
    text = _template_text(*names)
    unused = [f.name for f in dataclasses.fields(cls) if not re.search(rf"\b{f.name}\b", text)]
    assert not unused, f"{cls.__name__} fields no default template shows: {unused}"


def test_every_hand_view_field_is_used_by_the_hand_template():
    text = _template_text("_hand.html")
    assert not [f for f in HandView._fields if not re.search(rf"hand\.{f}\b", text)]


def test_pages_get_their_context_class(tmp_path, monkeypatch):
    seen = capture_contexts(monkeypatch)
    build_site([str(EXAMPLES / "spec-rubber.jjt")], tmp_path)
    kinds = {template: type(ctx) for _, template, ctx in seen}
    assert kinds == {"hands.html": HandsContext, "session.html": SessionContext, "index.html": IndexContext,
                     "stats.html": StatsContext}
    for _, _, ctx in seen:
        with pytest.raises(dataclasses.FrozenInstanceError):
            ctx.title = "changed"


def test_an_unknown_name_in_a_template_is_an_error(tmp_path):
    from jinja2 import UndefinedError

    custom = tmp_path / "tpl"
    custom.mkdir()
    (custom / "stats.html").write_text("{{ no_such_field }}", encoding="utf-8")
    with pytest.raises(ReportError, match="template 'stats.html', line 1: 'no_such_field' is undefined") as info:
        build_site([str(EXAMPLES / "doubles.jjt")], tmp_path / "out", templates=custom)
    assert isinstance(info.value.__cause__, UndefinedError)  # kept for whoever debugs a template


# --- what the pages say ----------------------------------------------------------------------------------

def test_example_site_has_every_page(example_site):
    out, result = example_site
    sessions = sum(1 for f in EXAMPLE_FILES for item in iter_records(Path(f).read_text(encoding="utf-8"), f)
                   if type(item).__name__ == "SessionHeader")
    assert result.sessions == sessions and not result.problems
    assert (out / "index.html").is_file() and (out / "stats.html").is_file()
    assert (out / "assets" / "report.css").is_file() and (out / "assets" / "report.js").is_file()
    assert len(list((out / "sessions").glob("*/index.html"))) == sessions
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "Rules spec worked examples" in index and 'href="sessions/spec-rubber/index.html"' in index
    # no external asset: every src/href is relative or an anchor
    for page in out.rglob("*.html"):
        for _, attrs, _ in parse(page).found:
            for name in ("src", "href"):
                value = attrs.get(name)
                if value is not None:
                    assert not re.match(r"^(https?:)?//", value), f"{page}: external {name} {value}"


def test_session_page_is_the_spec_rubber_sheet(example_site):
    out, _ = example_site
    html = (out / "sessions" / "spec-rubber" / "index.html").read_text(encoding="utf-8")
    assert "Rubber 1: <strong>Alice</strong> wins" in html
    assert "<strong>1420</strong>" in html and "<strong>295</strong>" in html  # Example 9 of the spec
    assert '<span class="circled">150</span> held aside' in html  # Example 4's tie, held aside
    assert html.count('class="score game-end"') == 3  # three games, a rule under each
    assert "<polyline" in html  # the running totals chart


def test_running_trick_score_ends_at_the_hands_trick_score(tmp_path, monkeypatch):
    files = [str(p) for p in sorted(EXAMPLES.glob("*.jjt"))]  # two, three and four players, sides, a claim
    seen = capture_contexts(monkeypatch)
    build_site(files, tmp_path)
    verdicts = [v for f in files for _, hs in check_file(f).sessions for v in hs if isinstance(v.record, HandRecord)]  # Jo-Jotte
    views = [h for _, template, ctx in seen if template == "hands.html" for h in ctx.hands]
    assert len(views) == len(verdicts) > 20
    checked = 0
    for view, v in zip(views, verdicts):
        assert [p.card.name for t in view.tricks for p in t.plays] == [card_name(p.card) for t in v.record.tricks for p in t.plays]
        if v.score is None or not view.tricks or v.record.claim >= 0:
            continue
        # the trick score per column of the sheet (a player, or a side) adds up to the hand's
        assert tuple(points for _, points in view.tricks[-1].running) == v.score.trick_points, view.title
        checked += 1
    assert checked > 15


def test_rule_texts_ship_with_the_package_and_match_the_spec():
    texts = rule_texts()
    assert texts["JJ-PLAY-3"]["text"] == "A player who holds a card of the suit led must play one."
    if not SPEC.is_file():
        pytest.skip(f"the rules spec is not at {SPEC}: the shipped rule texts were not compared with it")
    spec = importlib.util.spec_from_file_location("extract_rules", ROOT / "tools" / "extract_rules.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    shipped = (ROOT / "jojotte_records" / "data" / "rules_jojotte.json").read_text(encoding="utf-8")
    assert tool.render(tool.extract(SPEC.read_text(encoding="utf-8"))) == shipped, \
        "jojotte_records/data/rules_jojotte.json is stale: run python tools/extract_rules.py"


def test_every_rule_the_disputes_cite_has_its_text(tmp_path):
    cited = {i.rule for f in DISPUTES for _, hs in check_file(str(f)).sessions for v in hs for i in v.issues}
    assert cited and not {r for r in cited if r not in rule_texts()}


# --- the disputes: the page highlights the event the validator names --------------------------------------

@pytest.mark.parametrize("path", DISPUTES, ids=[p.stem for p in DISPUTES])
def test_dispute_page_highlights_the_event_the_validator_names(path, example_site):
    out, _ = example_site
    result = check_file(str(path))
    slug = report.slugify(path.stem)
    bad = [(pos, v) for _, hs in result.sessions for pos, v in enumerate(hs, 1) if v.issues]
    assert bad, f"{path.name}: the validator finds nothing"
    for pos, v in bad:
        page = hand_page(out, slug, pos)
        elements = parse(page)
        marks = flagged(elements, f"hand-{pos}")
        named = {issue_key(i): i for i in v.issues}
        assert set(marks) == set(named) - {"hand"}, f"{path.name}: flagged {marks}, validator names {list(named)}"
        for key, issue in named.items():
            assert f"kind-{issue.kind}" in marks.get(key, f"kind-{issue.kind}")
            if issue.loc.trick is not None and issue.loc.card:
                # the flagged card is the one the record has there
                trick = next(t for t in v.record.tricks if t.number == issue.loc.trick)
                expected = card_name(trick.plays[issue.loc.card - 1].card)
                cards = next(a["data-cards"] for _, a, h in elements.found
                             if h == f"hand-{pos}" and a.get("data-loc") == f"t{issue.loc.trick}")
                assert cards.split()[issue.loc.card - 1].endswith(":" + expected)
        text = " ".join(" ".join(elements.text).split())
        for issue in v.issues:  # the verdict quotes the rule each finding cites
            assert issue.rule in text and " ".join(rule_texts()[issue.rule]["text"].split("\n")[0].split()) in text


# --- escaping --------------------------------------------------------------------------------------------

def test_hostile_names_are_escaped_everywhere(tmp_path):
    src = tmp_path / "hostile.jjt"
    src.write_text(HOSTILE_SESSION, encoding="utf-8")
    result = build_site([str(src)], tmp_path / "out")
    assert result.sessions == 1 and result.hands == 1 and result.bad_hands == 0
    pages = list((tmp_path / "out").rglob("*.html"))
    assert len(pages) == 4
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "<script>alert" not in html, page
        assert "<img" not in html, page
        assert "<b>club" not in html, page
    session = (tmp_path / "out" / "sessions" / "hostile" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in session
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in session
    hands = (tmp_path / "out" / "sessions" / "hostile" / "hands-0001.html").read_text(encoding="utf-8")
    texts = "".join(parse(tmp_path / "out" / "sessions" / "hostile" / "hands-0001.html").text)
    assert HOSTILE_1 in texts and HOSTILE_2 in texts  # shown as text
    assert 'data-title="Hand 1 | Hostile &#34;&gt;&lt;img' in hands


# --- --templates -----------------------------------------------------------------------------------------

def test_templates_folder_overrides_any_default(tmp_path):
    custom = tmp_path / "tpl"
    custom.mkdir()
    (custom / "stats.html").write_text("{% extends 'base.html' %}{% block content %}<p id=mine>{{ counts|length }} "
                                       "counts</p>{% endblock %}", encoding="utf-8")
    (custom / "report.css").write_text("body { color: teal; }\n", encoding="utf-8")
    out = tmp_path / "out"
    build_site([str(EXAMPLES / "doubles.jjt")], out, templates=custom)
    assert "<p id=mine>7 counts</p>" in (out / "stats.html").read_text(encoding="utf-8")
    assert (out / "assets" / "report.css").read_text(encoding="utf-8") == "body { color: teal; }\n"
    assert "Rubber 1" in next((out / "sessions").glob("*/index.html")).read_text(encoding="utf-8")  # the default


def test_a_template_changed_between_runs_is_compiled_afresh(tmp_path, monkeypatch):
    """The compiled templates are kept between runs (Jinja2's bytecode cache); an entry is the template's name and
    file, checked against its source: the same file with other text is rendered as it is now, not as it was."""
    from jinja2 import FileSystemBytecodeCache

    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    monkeypatch.setattr(FileSystemBytecodeCache, "_get_default_cache_dir", lambda self: str(cache_dir))
    custom = tmp_path / "tpl"
    custom.mkdir()
    page = custom / "stats.html"
    for word in ("first", "second"):
        page.write_text(f"{{% extends 'base.html' %}}{{% block content %}}<p id=mine>{word}</p>{{% endblock %}}",
                        encoding="utf-8")
        build_site([str(EXAMPLES / "doubles.jjt")], tmp_path / word, templates=custom)
        assert f"<p id=mine>{word}</p>" in (tmp_path / word / "stats.html").read_text(encoding="utf-8")
    assert any(cache_dir.iterdir())  # the cache was used (else this test proves nothing)


def test_the_templates_output_is_escaped_as_markupsafe_escapes_it():
    """``{{ … }}`` is written by `site._escape_output` (plain text, no Markup per piece: issue 14): the text of
    markupsafe's `escape` for every kind of value, and it is what the loaded templates' modules call."""
    from markupsafe import Markup, escape

    class Html:
        def __html__(self):
            return "<b>kept</b>"

    for value in ("<a href='x'>&\"", "", "plain", Markup("<i>safe</i>"), 0, -12, 3.5, 1e300, float("nan"), None, True,
                  Html(), ("<",), ["&"]):
        assert str(report._escape_output(value)) == str(escape(value)), value
    env = report.make_environment()
    assert env.get_template("_hand.html").root_render_func.__globals__["escape"] is report._escape_output


def test_pages_are_the_same_without_a_template_cache(tmp_path, monkeypatch):
    """No private cache folder (Jinja2 refuses one it cannot make safe), or one that cannot be written: the
    templates are compiled each run and the pages are the same."""
    from jinja2 import FileSystemBytecodeCache

    build_site([str(EXAMPLES / "doubles.jjt")], tmp_path / "a")

    def unsafe(self):
        raise RuntimeError("Cannot determine safe temp directory.")

    monkeypatch.setattr(FileSystemBytecodeCache, "_get_default_cache_dir", unsafe)
    assert report.make_environment().bytecode_cache is None
    build_site([str(EXAMPLES / "doubles.jjt")], tmp_path / "b")
    monkeypatch.setattr(FileSystemBytecodeCache, "_get_default_cache_dir", lambda self: str(tmp_path / "gone"))
    build_site([str(EXAMPLES / "doubles.jjt")], tmp_path / "c")  # the folder does not exist: nothing is kept
    for f in (tmp_path / "a").rglob("*"):
        if f.is_file():
            for other in ("b", "c"):
                assert (tmp_path / other / f.relative_to(tmp_path / "a")).read_bytes() == f.read_bytes()


def test_missing_templates_folder_is_an_error(tmp_path):
    with pytest.raises(ReportError, match="does not exist"):
        build_site([str(EXAMPLES / "doubles.jjt")], tmp_path / "out", templates=tmp_path / "nope")


BROKEN_HAND = [  # a user's _hand.html (rendered by render_hand inside hands.html) that fails on its third line
    "{# a broken override #}",
    "<p>{{ hand.number }}</p>",
    "<p>{{ hand.no_such_field }}</p>",
    "<p>after</p>",
]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_template_that_fails_is_an_error_with_its_name_and_line(tmp_path, jobs):
    """A template of --templates that fails while a page is rendered (here the hand template, rendered inside the
    hands page): a ReportError naming that template and its line, not a traceback; the same from a worker."""
    custom = tmp_path / "tpl"
    custom.mkdir()
    (custom / "_hand.html").write_text("\n".join(BROKEN_HAND) + "\n", encoding="utf-8")
    line = next(i for i, text in enumerate(BROKEN_HAND, 1) if "no_such_field" in text)
    with pytest.raises(ReportError) as info:
        build_site([str(EXAMPLES / "doubles.jjt"), str(EXAMPLES / "mixed")], tmp_path / "out", templates=custom,
                   jobs=jobs)
    err = info.value
    assert (err.template, err.line) == ("_hand.html", line)
    assert "no_such_field" in err.message and "Traceback" not in str(err)
    assert str(err).startswith(f"template '_hand.html', line {line}: ")


def test_a_template_that_cannot_be_read_is_an_error_with_its_name_and_line(tmp_path):
    """A syntax error in a page template of --templates, and a Python error a template raises (a division by zero),
    are located errors too; the command line prints the message and exits 2, with no traceback."""
    custom = tmp_path / "tpl"
    custom.mkdir()
    (custom / "stats.html").write_text("<p>one</p>\n<p>two</p>\n{% frobnicate %}\n<p>four</p>\n", encoding="utf-8")
    with pytest.raises(ReportError) as info:
        build_site([str(EXAMPLES / "doubles.jjt")], tmp_path / "out", templates=custom)
    assert (info.value.template, info.value.line) == ("stats.html", 3)
    assert "frobnicate" in info.value.message
    (custom / "stats.html").write_text("{% extends 'base.html' %}{% block content %}\n<p>{{ counts|length }}</p>\n"
                                       "<p>{{ counts|length // 0 }}</p>\n{% endblock %}", encoding="utf-8")
    with pytest.raises(ReportError) as info:
        build_site([str(EXAMPLES / "doubles.jjt")], tmp_path / "out2", templates=custom)
    assert (info.value.template, info.value.line) == ("stats.html", 3)
    assert "ZeroDivisionError" in info.value.message
    result = CliRunner().invoke(app, ["report", str(EXAMPLES / "doubles.jjt"), "--out", str(tmp_path / "out3"),
                                      "--templates", str(custom)])
    assert result.exit_code == 2, result.output
    assert "template 'stats.html', line 3" in result.output and "Traceback" not in result.output


# --- unchanged pages are not rewritten -------------------------------------------------------------------

def _stamp(out: Path) -> dict[str, int]:
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}


def test_unchanged_pages_are_not_rewritten(tmp_path):
    src = tmp_path / "records"
    src.mkdir()
    for name in ("spec-rubber.jjt", "doubles.jjt", "nullo-slam-void.jjt"):
        (src / name).write_text((EXAMPLES / name).read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    first = build_site([str(src)], out)
    assert first.unchanged == 0 and first.written == len([p for p in out.rglob("*") if p.is_file()]) - 1  # - manifest
    past = 1_000_000_000_000_000_000  # 2001: whatever is rewritten gets a new time
    for p in out.rglob("*"):
        if p.is_file():
            os.utime(p, ns=(past, past))
    second = build_site([str(src)], out)
    assert second.written == 0 and second.unchanged == first.written
    assert all(t == past for name, t in _stamp(out).items() if name != report.MANIFEST_NAME)

    # one session changes: its pages and the index are rewritten, nothing else (the statistics do not change)
    text = (src / "doubles.jjt").read_text(encoding="utf-8").replace("Doubles and redoubles", "Doubles, redoubles")
    (src / "doubles.jjt").write_text(text, encoding="utf-8")
    build_site([str(src)], out)
    changed = {name for name, t in _stamp(out).items() if t != past and name != report.MANIFEST_NAME}
    assert changed == {"index.html", "sessions/doubles/index.html", "sessions/doubles/hands-0001.html"}

    # a session that is gone: its pages go too
    (src / "nullo-slam-void.jjt").unlink()
    third = build_site([str(src)], out)
    assert third.removed == 2 and not (out / "sessions" / "nullo-slam-void").exists()
    assert json.loads((out / report.MANIFEST_NAME).read_text(encoding="utf-8"))["format"] == 1


def test_a_run_stopped_part_way_leaves_no_page_taken_as_up_to_date(tmp_path):
    # a run stopped after it began writing (killed, a full disk) may leave a page changed or half-written while the
    # manifest still holds the hash of the last finished run: the next run must write that page again
    out = tmp_path / "out"
    src = [str(EXAMPLES / "spec-rubber.jjt")]
    first = build_site(src, out)
    page = out / "sessions" / "spec-rubber" / "hands-0001.html"
    good = page.read_bytes()
    report._Writer(out).begin()  # the stopped run marked the manifest, as every run does before it writes
    page.write_bytes(good[: len(good) // 2])  # then half-wrote a page and stopped
    again = build_site(src, out)
    assert page.read_bytes() == good
    assert (again.written, again.unchanged) == (first.written, 0)  # every page written again
    doc = json.loads((out / report.MANIFEST_NAME).read_text(encoding="utf-8"))
    assert "writing" not in doc and sorted(doc["pages"]) == sorted(
        p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file() and p.name != report.MANIFEST_NAME)
    third = build_site(src, out)  # a finished run's hashes are trusted again
    assert (third.written, third.unchanged) == (0, first.written)


def test_one_file_per_hand_when_asked(tmp_path):
    out = tmp_path / "out"
    build_site([str(EXAMPLES / "spec-rubber.jjt")], out, hands_per_file=1)
    names = sorted(p.name for p in (out / "sessions" / "spec-rubber").iterdir())
    assert names == ["hands-0001.html", "hands-0002.html", "hands-0003.html", "hands-0004.html", "index.html"]
    assert 'href="hands-0003.html#hand-3"' in (out / "sessions" / "spec-rubber" / "hands-0002.html").read_text(encoding="utf-8")


def test_long_sessions_are_split_into_files_of_hands(tmp_path):
    header, hands = simulate_session("jojotte", 25, 7, policy="uniform")
    src = tmp_path / "sim.jjt"
    with open(src, "w", encoding="utf-8") as f:
        write_stream([header, *hands], f)
    out = tmp_path / "out"
    result = build_site([str(src)], out)
    assert result.hands == 25 and result.bad_hands == 0
    files = sorted(p.name for p in (out / "sessions" / "sim").glob("hands-*.html"))
    assert files == ["hands-0001.html", "hands-0011.html", "hands-0021.html"]
    last = parse(out / "sessions" / "sim" / "hands-0021.html")
    assert [a["id"] for t, a, _ in last.found if t == "article"] == [f"hand-{i}" for i in range(21, 26)]
    html = (out / "sessions" / "sim" / "hands-0011.html").read_text(encoding="utf-8")
    assert 'href="hands-0021.html#hand-21"' in html and 'href="hands-0001.html#hand-10"' in html


# --- reading: unreadable files, --db ---------------------------------------------------------------------

def test_unreadable_file_is_listed_on_the_index(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a record"}', encoding="utf-8")
    result = build_site([str(EXAMPLES / "doubles.jjt"), str(bad)], tmp_path / "out")
    assert [p.source for p in result.problems] == [str(bad)]
    assert "JSON record does not follow the schema at sessions" in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")


def test_json_that_is_not_a_record_file_is_skipped_in_folders(tmp_path):
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "doubles.jjt").write_text((EXAMPLES / "doubles.jjt").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "records" / "expected.json").write_text('{"doubles.jjt": {"rule": "JJ-PLAY-3"}}', encoding="utf-8")
    result = build_site([str(tmp_path / "records")], tmp_path / "out")
    assert result.sessions == 1 and not result.problems  # the folder walk leaves the non-record JSON out


def _fake_archive(monkeypatch, sessions):
    module = types.ModuleType("jojotte_records.archive.store")
    module.session_texts = lambda db: iter(sessions)
    monkeypatch.setitem(sys.modules, "jojotte_records.archive.store", module)
    import jojotte_records.archive

    monkeypatch.setattr(jojotte_records.archive, "store", module, raising=False)


def test_db_revalidates_the_archived_texts(tmp_path, monkeypatch):
    db = tmp_path / "a.duckdb"
    db.write_bytes(b"")
    texts = [("key-1", "examples/doubles.jjt", (EXAMPLES / "doubles.jjt").read_text(encoding="utf-8")),
             ("key-2", "examples/disputes/01-revoke-follow-suit.jjt", DISPUTES[0].read_text(encoding="utf-8"))]
    _fake_archive(monkeypatch, texts)
    result = build_site(db=db, out=tmp_path / "out")
    assert result.sessions == 2 and result.hands == 4 and result.bad_hands == 1
    assert sorted(p.name for p in (tmp_path / "out" / "sessions").iterdir()) == ["01-revoke-follow-suit-key-2", "doubles-key-1"]


def test_db_reports_a_real_archive(tmp_path):
    archive = pytest.importorskip("jojotte_records.archive.store")
    if not (hasattr(archive, "import_paths") and hasattr(archive, "session_texts")):
        pytest.skip("jojotte_records.archive.store has no import_paths/session_texts yet")
    db = tmp_path / "club.duckdb"
    files = [str(EXAMPLES / "spec-rubber.jjt"), str(DISPUTES[0])]
    list(archive.import_paths(db, files))
    result = build_site(db=db, out=tmp_path / "out")
    direct = build_site(files, tmp_path / "direct")
    assert (result.sessions, result.hands, result.bad_hands) == (direct.sessions, direct.hands, direct.bad_hands) == (2, 5, 1)
    assert {p.name.rsplit("-", 1)[0] for p in (tmp_path / "out" / "sessions").iterdir()} == {"spec-rubber", "01-revoke-follow-suit"}


def test_db_without_the_archive_module_says_so(tmp_path, monkeypatch):
    import jojotte_records.archive

    monkeypatch.setitem(sys.modules, "jojotte_records.archive.store", None)  # import fails
    monkeypatch.delattr(jojotte_records.archive, "store", raising=False)
    db = tmp_path / "a.duckdb"
    db.write_bytes(b"")
    with pytest.raises(ReportError, match="archive module"):
        build_site(db=db, out=tmp_path / "out")


def test_paths_and_db_together_or_neither_are_errors(tmp_path):
    with pytest.raises(ReportError, match="not both"):
        build_site([str(EXAMPLES / "doubles.jjt")], tmp_path, db=tmp_path / "a.duckdb")
    with pytest.raises(ReportError, match="nothing to report"):
        build_site([], tmp_path)


# --- the command -----------------------------------------------------------------------------------------

runner = CliRunner()


def test_cli_report_writes_the_site_and_prints_its_path(tmp_path):
    out = tmp_path / "site"
    result = runner.invoke(app, ["report", str(EXAMPLES / "spec-rubber.jjt"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "1 session(s), 4 hand(s) (0 with findings)" in result.output
    assert str(out / "index.html") in result.output
    again = runner.invoke(app, ["report", str(EXAMPLES / "spec-rubber.jjt"), "--out", str(out)])
    assert "0 file(s) written" in again.output


def test_cli_report_usage_errors_exit_2(tmp_path):
    result = runner.invoke(app, ["report", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "nothing to report" in result.output  # a usage error (README, "Exit codes")
    result = runner.invoke(app, ["report", "--db", str(tmp_path / "missing.duckdb"), "--out", str(tmp_path)])
    assert result.exit_code == 2 and "does not exist" in result.output


def test_cli_report_unreadable_file_exits_2(tmp_path):
    bad = tmp_path / "bad.jjt"
    bad.write_bytes(b"\xff\xfe not utf-8")
    result = runner.invoke(app, ["report", str(bad), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "the file is not UTF-8 text" in result.output


def test_three_and_four_player_pages_show_who_does_not_play(tmp_path):
    """JJ3-ACT-7: the inactive hand is shown apart; JJ4S-1: the dealer sits out; JJ3-ALT-1: the adviser."""
    root = Path(__file__).resolve().parent.parent / "examples"
    site = report.build_site([str(root / "three-players.jjt"), str(root / "four-no-partners.jjt"),
                              str(root / "three-players-box.jjt")], tmp_path / "out")
    pages = {p.parent.name: p.read_text(encoding="utf-8")
             for p in (tmp_path / "out" / "sessions").glob("*/hands-0001.html")}
    assert site.sessions == 3
    assert "(inactive: hand out of play)" in pages["three-players"]
    assert "sides with the declarer" in pages["three-players"]
    assert "(sits out)" in pages["four-no-partners"]
    assert "(adviser)" in pages["three-players-box"]
    assert "(inactive" not in pages["three-players-box"]


def test_stats_page_shows_the_archive_statistics_when_built_from_an_archive(tmp_path):
    """Issue 4: the statistics page carries the `stats` tables when the report reads an archive."""
    from jojotte_records.archive.store import import_paths

    root = Path(__file__).resolve().parent.parent / "examples"
    db = tmp_path / "a.duckdb"
    list(import_paths(db, [str(root / "spec-rubber.jjt"), str(root / "four-partners.jjt")]))
    report.build_site(out=tmp_path / "site", db=db)
    page = (tmp_path / "site" / "stats.html").read_text(encoding="utf-8")
    assert "<h2>Standings</h2>" in page and "<h2>Sides</h2>" in page
    standings = page.split("<h2>Standings</h2>", 1)[1]
    row = re.search(r"<tr><td>Alice</td>(.*?)</tr>", standings).group(1)
    assert "<td>1,420</td>" in row  # Example 9: Alice's total
    assert "<td>Nora and Sam</td>" in page
    files_only = report.build_site([str(root / "spec-rubber.jjt")], tmp_path / "site2")
    assert files_only.sessions == 1
    assert "<h2>Standings</h2>" not in (tmp_path / "site2" / "stats.html").read_text(encoding="utf-8")


def test_trick_points_are_the_rules_own_count(tmp_path, monkeypatch):
    """A trick's points on the hand page are what the rules' `trick_card_points` says (JJ-PTS-1/2), not a count
    the report makes itself: with the hook shifted by 1000 a trick, every trick and the running score move with it."""
    from jojotte_records.rules.jojotte import JojotteRules

    original = JojotteRules.trick_card_points
    monkeypatch.setattr(JojotteRules, "trick_card_points",
                        lambda self, s, number: None if original(self, s, number) is None else original(self, s, number) + 1000)
    seen = capture_contexts(monkeypatch)
    build_site([str(EXAMPLES / "spec-rubber.jjt")], tmp_path)
    tricks = [t for _, template, ctx in seen if template == "hands.html" for h in ctx.hands for t in h.tricks if t.replayed]
    assert len(tricks) > 20
    assert all(t.points >= 1000 for t in tricks)  # a trick holds at most 4 cards: no real count reaches 1000
    for h in (h for _, template, ctx in seen if template == "hands.html" for h in ctx.hands):
        replayed = [t for t in h.tricks if t.replayed]
        if replayed:  # every replayed trick added its 1000 to the running score of the columns (2-player: 2 columns)
            assert sum(p for _, p in replayed[-1].running) >= 1000 * len(replayed)


def test_a_stream_runs_without_the_cycle_collector_and_leaves_no_hand_in_a_cycle(tmp_path):
    """The collector is paused while a stream is written (jojotte_records.cycles, around each stream in `report.site`) and on again after; that
    is safe only because a hand's views make no reference cycle: what a stream leaves to the collector is bounded
    by its sheet page's rows, not by its hands (a 100,000-hand session must not keep them all)."""
    import collections
    import gc

    src = tmp_path / "long.jjt"
    header, hands = simulate_session("jojotte", 120, 5)
    with open(src, "w", encoding="utf-8") as f:
        write_stream([header, *hands], f)
    seen = []
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        build_site([str(src)], tmp_path / "out", hands_per_sheet=10, on_hand=lambda v: seen.append(gc.isenabled()))
        assert gc.isenabled()
        gc.collect()
        kinds = collections.Counter(type(o).__name__ for o in gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert len(seen) == 120 and not any(seen)
    assert not {"HandView", "TrickView", "PlayView", "CallView", "ScoreLine", "SeatDeal"} & set(kinds), kinds
    assert kinds["HandRow"] <= 2 * 10, kinds  # the first sheet page's rows (kept for the end) and the last one's
