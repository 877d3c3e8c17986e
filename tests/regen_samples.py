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
    """Vestige games composed move by move from the engine's legal moves with the heuristic
    policy (tests/vestige_walkthroughs.py), labelled as the illustrative walkthroughs they are
    (never as playtests), each refused unless it replays clean."""
    from engine.core.replay import replay
    from ingest.formats import write_log
    from tests.vestige_walkthroughs import SPECS, compose

    names = []
    for w in SPECS:
        log = compose(w)
        r = replay(log.header, log.events)
        if r.findings or r.outcome is None or not r.outcome.complete:
            raise SystemExit(f"{w.file}: does not replay clean: {[f.message for f in r.findings[:3]]}")
        (out / w.file).write_text(write_log(log, w.fmt), encoding="utf-8")
        names.append(w.file)
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
