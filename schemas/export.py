"""Export the JSON Schema of every public model into ``schemas/json/``.

Run ``python -m schemas.export`` after changing a model; ``tests/test_schemas.py`` fails when the
committed files differ from what the models produce, so the published schemas never drift.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from schemas.findings import Finding
from schemas.mandate2038.content import ContentPack
from schemas.protocol import Protocol

OUT = Path(__file__).resolve().parent / "json"

#: The shared models; each game's log model is added from the registry (:func:`exports`).
SHARED_EXPORTS: dict[str, type[BaseModel]] = {
    "finding.schema.json": Finding,
    "content-pack.schema.json": ContentPack,
    "observation-protocol.schema.json": Protocol,
}


def exports(*, own_only: bool = True) -> dict[str, type[BaseModel]]:
    """File name -> model: the shared models and ``<game>-log.schema.json`` of every registered
    game (with ``own_only``, the games whose log model lives in this package: a game installed
    as its own package publishes its schema itself)."""
    from engine.core.registry import rulesets

    out = dict(SHARED_EXPORTS)
    for game, rs in rulesets().items():
        if own_only and not rs.log_model.__module__.startswith("schemas."):
            continue
        out[f"{game}-log.schema.json"] = rs.log_model
    return out


EXPORTS: dict[str, type[BaseModel]] = exports()


def render(model: type[BaseModel]) -> str:
    schema: dict[str, Any] = model.model_json_schema()
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def rendered() -> dict[str, str]:
    """File name -> the JSON Schema text the models produce now."""
    return {name: render(model) for name, model in exports().items()}


def main(argv: list[str] | None = None) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in rendered().items():
        (OUT / name).write_text(text, encoding="utf-8")
        print(f"wrote {OUT / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
