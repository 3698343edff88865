"""A short seeded slice of the fuzz harness (`bench/fuzz.py`, issue 16 "Fuzzing as a figure"): mutated example
records through every entry point give no uncaught exception, no hang and no memory over the bound."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "fuzz.py"


@pytest.fixture(scope="module")
def fuzz():
    spec = importlib.util.spec_from_file_location("bench_fuzz", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mutations_are_seeded_and_cover_every_example(fuzz):
    files = fuzz.corpus()
    examples = sorted(p for p in (BENCH.parent.parent / "examples").rglob("*.jjt"))
    assert len(files) == 2 * len(examples)  # each example and its JSON form
    first = [fuzz.make_input(5, i, files) for i in range(50)]
    assert first == [fuzz.make_input(5, i, files) for i in range(50)]
    assert sum(data != files[i % len(files)][1].encode() for i, (_, data) in enumerate(first)) >= 40  # mutated


def test_a_harness_failure_is_counted(fuzz, monkeypatch):
    # the figure can fail: an entry point that raises something else than an error value is counted as uncaught
    def broken(path, data, work):
        raise KeyError("x")
    monkeypatch.setitem(fuzz.RUNNERS, "read", broken)
    t = fuzz.fuzz(seed=1, inputs=3, entries=("read",), failures_dir=None)
    assert (t["inputs"], t["uncaught"]) == (3, 3)


@pytest.mark.parametrize("entries,inputs", [(("read", "validate", "convert", "recorder"), 240), (("import", "report"), 16)])
def test_seeded_slice_has_no_uncaught_exception_and_no_hang(fuzz, entries, inputs, tmp_path):
    t = fuzz.fuzz(seed=16, inputs=inputs, entries=entries, failures_dir=str(tmp_path / "failures"))
    assert t["inputs"] == inputs
    saved = sorted(p.name for p in (tmp_path / "failures").glob("*.txt")) if (tmp_path / "failures").exists() else []
    assert (t["uncaught"], t["hang"], t["memory"]) == (0, 0, 0), saved


def test_a_hang_is_counted(fuzz, monkeypatch):
    def spins(path, data, work):
        while True:
            pass
    monkeypatch.setitem(fuzz.RUNNERS, "read", spins)
    t = fuzz.fuzz(seed=1, inputs=1, entries=("read",), timeout=0.2, failures_dir=None)
    assert (t["inputs"], t["hang"], t["uncaught"]) == (1, 1, 0)
