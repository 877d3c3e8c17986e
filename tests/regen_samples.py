"""Regenerate the bundled samples from their recipes: ``python -m tests.regen_samples [FOLDER...]``.

Reads ``data/samples/manifest.toml`` (what each sample is and what it claims) and rewrites the
files of every generated set (``simulate``, ``walkthrough``, ``golden-copy``); hand-written sets
are left alone. Run it after an engine or bot change makes a sample stale
(``tests/test_samples_true.py`` fails then); review the diff like any other change.
"""

from __future__ import annotations

import re
import shutil
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "data" / "samples"
MANIFEST = SAMPLES / "manifest.toml"
GOLDEN = ROOT / "tests" / "golden" / "mandate2038"


def manifest() -> list[dict[str, Any]]:
    """The sets of ``data/samples/manifest.toml``."""
    return list(tomllib.loads(MANIFEST.read_text(encoding="utf-8"))["set"])


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)


def _simulate(spec: dict[str, Any], out: Path) -> list[str]:
    from engine.simulate import simulate_one
    from schemas.canonical import dumps_log

    names: list[str] = []
    modes = spec.get("modes")
    for bot in spec["bots"]:
        seed = f"samples-{bot}"
        for i in range(int(spec["games_per_bot"])):
            players = spec["players"][i % len(spec["players"])]
            if modes:  # Vestige: one run per mode (its simulator takes the mode)
                from engine.vestige.simulate import simulate_one as vestige_one

                mode = modes[i % len(modes)]
                if mode == "solo":
                    players = 1
                log = vestige_one(f"{seed}-{mode}", i, players, bot, mode)
            else:
                log = simulate_one(seed, i, players, bot, game=spec["game"])
            name = f"{_safe(str(log.header.game_id))}.json"
            (out / name).write_text(dumps_log(log), encoding="utf-8")
            names.append(name)
    return names


def _walkthrough(spec: dict[str, Any], out: Path) -> list[str]:
    """A Vestige game played by the heuristic bot through the engine, labelled as the
    illustrative walkthrough it is (never as a playtest), in the format its name says."""
    from engine.vestige.simulate import simulate_one as vestige_one
    from ingest.formats import write_log

    names = []
    for w in spec["walkthroughs"]:
        log = vestige_one(w["seed"], 0, int(w["players"]), "heuristic", w["mode"])
        stem = Path(w["file"]).stem
        fmt = "csv" if w["file"].endswith(".csv") else "notation"
        header = log.header.model_copy(update={
            "session_type": "developer_walkthrough",
            "game_id": f"vestige-{stem}",
            "notes": "Illustrative walkthrough, not a playtest: it shows the format and replays clean.",
            "provenance": log.header.provenance.model_copy(update={
                "source_format": fmt,
                "illustrative": True,
                "description": (
                    f"ILLUSTRATIVE {w['players']}-player Vestige walkthrough ({w['mode']}) for the "
                    f"docs: played by the heuristic bot through the engine (seed {w['seed']}, "
                    "simulator cards, declared component values); not a real playtest."),
            }),
        })
        log = log.model_copy(update={"header": header})
        (out / w["file"]).write_text(write_log(log, fmt), encoding="utf-8")
        names.append(w["file"])
    return names


def _golden_copy(spec: dict[str, Any], out: Path) -> list[str]:
    names = []
    for case in spec["cases"]:
        shutil.copyfile(GOLDEN / f"{case}.json", out / f"{case}.json")
        names.append(f"{case}.json")
    return names


RECIPES = {"simulate": _simulate, "walkthrough": _walkthrough, "golden-copy": _golden_copy}


def regenerate(folders: list[str] | None = None) -> None:
    for spec in manifest():
        recipe = RECIPES.get(spec["recipe"])
        if recipe is None or (folders and spec["folder"] not in folders):
            continue
        out = SAMPLES / spec["folder"]
        out.mkdir(parents=True, exist_ok=True)
        keep = {"README.md"}
        for p in out.iterdir():  # a generated set is exactly what its recipe makes
            if p.is_file() and p.name not in keep:
                p.unlink()
        names = recipe(spec, out)
        print(f"{spec['folder']}: wrote {len(names)} file(s)")


if __name__ == "__main__":
    regenerate(sys.argv[1:] or None)
