"""jojotte-records: records, replays, archives and reports of Jo-Jotte, Baloot and Pitch sessions.

The public API for scripts and notebooks; every name is loaded on first use, so ``import jojotte_records``
costs nothing until one is used::

    >>> import jojotte_records as jr
    >>> sessions = jr.read_sessions('[Game "jojotte"]\\n[Players "Ann; Bob"]\\n')
    >>> sessions[0].header.get("Players")
    'Ann; Bob'

* read and write: `read_sessions`, `iter_records`, `write_sessions`, `write_stream`;
* validate: `check_file`, `check_paths` (a `FileResult` per file), `verdict_json`;
* simulate: `simulate_items` (what ``jojotte simulate`` writes);
* the games: `find_variant`, `VARIANTS` (every game's `Rules` class);
* the archive: `import_paths`, `run_sql`, `export_parquet`;
* the report: `build_site`.
"""

from __future__ import annotations

from importlib import import_module

_WHERE = {
    "read_sessions": "notation.text", "iter_records": "notation.text", "write_sessions": "notation.text", "write_stream": "notation.text",
    "check_file": "replay.files", "check_paths": "replay.files", "verdict_json": "replay.files",
    "simulate_items": "play.simulate",
    "find_variant": "rules", "VARIANTS": "rules",
    "import_paths": "archive.store", "run_sql": "archive.store", "export_parquet": "archive.store",
    "build_site": "report.site",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'jojotte_records' has no attribute '{name}'")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
