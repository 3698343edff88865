"""Where the bundled examples and templates are, installed or in a source checkout."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent


def _package_dir(package: str, fallback: str) -> Path:
    try:
        path = Path(str(resources.files(package)))
        if path.is_dir():
            return path
    except ModuleNotFoundError:
        pass
    return _ROOT / fallback


def examples_dir() -> Path:
    """The bundled example sessions (``examples/`` of the source tree)."""
    return _package_dir("jojotte_records.examples", "examples")


def templates_dir() -> Path:
    """The default Jinja2 templates (``templates/`` of the source tree)."""
    return _package_dir("jojotte_records.templates", "templates")
