"""The package's layers, read from its import graph (issue 13: "a house that shows its floors").

The graph is built with ``ast`` from the source of ``jojotte_records`` and of ``jojotte_records.cli`` (the
top-level ``cli/`` folder, shipped as ``jojotte_records.cli``), and every import counts, the ones inside a
function body too: a function-level import hides a cycle from the interpreter, not from the reader. Each test
lists everything it finds, so one run shows the whole list.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "jojotte_records"
CLI = f"{PACKAGE}.cli"
RULES = f"{PACKAGE}.rules"
# The only modules outside rules/ that the rules core may use (style guide §2: a pure rules core).
RULES_MAY_USE = {f"{PACKAGE}.cards", f"{PACKAGE}.errors"}


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    names: tuple[str, ...]
    line: int

    def __str__(self) -> str:
        names = f" ({', '.join(self.names)})" if self.names else ""
        return f"{self.source}:{self.line} -> {self.target}{names}"


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name, ``cli/`` under ``jojotte_records.cli``."""
    found = {}
    for folder, prefix in ((ROOT / PACKAGE, [PACKAGE]), (ROOT / "cli", [PACKAGE, "cli"])):
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(prefix + parts)] = path
    return found


MODULES = module_files()


def imports_of(name: str, source: str, is_package: bool = False) -> list[Edge]:
    """Every import of a package module in the source of module ``name``, at any depth of the source."""
    out = []
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [Edge(name, a.name, (), node.lineno) for a in node.names if a.name.split(".")[0] == PACKAGE]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != PACKAGE:
                continue
            names = tuple(a.name for a in node.names)
            # `from jojotte_records import archive` imports the module jojotte_records.archive.store
            submodules = [n for n in names if f"{target}.{n}" in MODULES]
            out += [Edge(name, f"{target}.{n}", (), node.lineno) for n in submodules]
            rest = tuple(n for n in names if n not in submodules)
            if rest or not submodules:
                out.append(Edge(name, target, rest, node.lineno))
    return out


def edges() -> list[Edge]:
    return [e for name, path in MODULES.items()
            for e in imports_of(name, path.read_text(encoding="utf-8"), path.name == "__init__.py")]


EDGES = edges()


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, ()):
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_reader_counts_every_kind_of_import():
    source = (
        "import os\n"
        "from jojotte_records.cards import card_name, _private\n"
        "from . import archive\n"
        "from .rules import base\n"
        "def f():\n"
        "    from ..cards import parse_card\n"
        "    import jojotte_records.errors\n"
    )
    found = {(e.target, e.names, e.line) for e in imports_of(f"{PACKAGE}.rules.x", source)}
    assert found == {
        (f"{PACKAGE}.cards", ("card_name", "_private"), 2),
        (f"{PACKAGE}.rules", ("archive",), 3),  # no module rules.archive: a name of the package rules
        (f"{PACKAGE}.rules.rules", ("base",), 4),
        (f"{PACKAGE}.cards", ("parse_card",), 6),  # function level
        (f"{PACKAGE}.errors", (), 7),
    }
    found = {(e.target, e.names) for e in imports_of(f"{PACKAGE}.report", "from . import archive\n")}
    assert found == {(f"{PACKAGE}.archive", ())}
    assert f"{PACKAGE}.rules.base" in MODULES and f"{CLI}.main" in MODULES


def test_no_import_cycle():
    graph: dict[str, set[str]] = {}
    for e in EDGES:
        if e.target in MODULES and e.target != e.source:
            graph.setdefault(e.source, set()).add(e.target)
    found = cycles(graph)
    report = []
    for component in found:
        members = set(component)
        report.append(" <-> ".join(component))
        report += [f"    {e}" for e in EDGES if e.source in members and e.target in members]
    assert not found, "import cycles (function-level imports count):\n" + "\n".join(report)


def test_no_private_name_imported_from_another_module():
    found = [e for e in EDGES if e.target != e.source and any(n.startswith("_") for n in e.names)]
    assert not found, "private names imported across modules:\n" + "\n".join(f"    {e}" for e in found)


def test_the_library_never_imports_the_cli():
    # ``python -m jojotte_records`` (__main__) is the command itself, not the library
    found = [e for e in EDGES if not e.source.startswith(CLI) and e.source != "jojotte_records.__main__"
             and (e.target == CLI or e.target.startswith(CLI + "."))]
    assert not found, "library modules importing the command line:\n" + "\n".join(f"    {e}" for e in found)


def test_the_rules_import_only_cards_and_errors():
    def inside_rules(module: str) -> bool:
        return module == RULES or module.startswith(RULES + ".")

    found = [e for e in EDGES if inside_rules(e.source) and not inside_rules(e.target) and e.target not in RULES_MAY_USE]
    assert not found, "rules/ importing from outside rules/ (only cards and errors allowed):\n" + "\n".join(
        f"    {e}" for e in found
    )


def test_the_analyzer_is_used_only_by_the_command_line():
    # the archive and the report read the analyzer's [%dd …] comments through the small codec `dd_comment`,
    # not through the 2,000-line analyzer (issue 13: a layering inversion)
    analyzer = {m for m in MODULES if m == f"{PACKAGE}.analyze" or m.startswith(f"{PACKAGE}.analyze.")}
    found = [e for e in EDGES if e.target in analyzer and e.source not in analyzer and not e.source.startswith(CLI)]
    assert not found, "library modules importing the analyzer:\n" + "\n".join(f"    {e}" for e in found)
