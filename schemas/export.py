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
from schemas.protocol import Protocol

OUT = Path(__file__).resolve().parent / "json"

#: The shared models; each game's log model and content pack model are added from the registry
#: (:func:`exports`).
SHARED_EXPORTS: dict[str, type[BaseModel]] = {
    "finding.schema.json": Finding,
    "observation-protocol.schema.json": Protocol,
}
#: the file of the default game's content pack model (published before there were two games);
#: another game's is ``<game>-content-pack.schema.json``
CONTENT_PACK_FILE = "content-pack.schema.json"


def content_pack_file(game: str) -> str:
    """The file name of ``game``'s content pack JSON Schema."""
    from engine.core.registry import DEFAULT_GAME

    return CONTENT_PACK_FILE if game == DEFAULT_GAME else f"{game}-{CONTENT_PACK_FILE}"


def exports(*, own_only: bool = True) -> dict[str, type[BaseModel]]:
    """File name -> model: the shared models, ``<game>-log.schema.json`` of every registered
    game and the content pack model each declares (``content_pack``; :func:`content_pack_file`)
    (with ``own_only``, the models that live in this package: a game installed as its own
    package publishes its schemas itself)."""
    from engine.core.game import resolve
    from engine.core.registry import rulesets

    out = dict(SHARED_EXPORTS)
    for game, rs in rulesets().items():
        models = {f"{game}-log.schema.json": rs.log_model}
        # content_pack: filled in by registration (the Ruleset protocol does not list it)
        pack = rs.content_pack
        if pack is not None:
            models[content_pack_file(game)] = resolve(pack)
        for name, model in models.items():
            if not own_only or model.__module__.startswith("schemas."):
                out[name] = model
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
