"""JSON Schema export: ``schemas/*.json`` is generated from the pydantic models, never edited by hand."""

from __future__ import annotations

import json
from pathlib import Path

from .json_form import RecordFile

SCHEMAS = {"record.schema.json": RecordFile}


def schema_texts() -> dict[str, str]:
    """File name -> the JSON Schema text it must hold."""
    out = {}
    for name, model in SCHEMAS.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["$id"] = f"jojotte-records/{name}"
        out[name] = json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    return out


def export_schemas(folder: str | Path) -> list[Path]:
    """Write every schema into ``folder``; returns the files written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schema_texts().items():
        path = folder / name
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        written.append(path)
    return written


def stale_schemas(folder: str | Path) -> list[str]:
    """Names of the schema files in ``folder`` that are missing or differ from the models."""
    folder = Path(folder)
    stale = []
    for name, text in schema_texts().items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(name)
    return stale
