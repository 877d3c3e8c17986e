"""Helpers for the storage tests: synthetic game folders, the child-process environment.

The storage tests replay through the real Mandate 2038 ruleset (the synthetic logs are
well-formed but illegal games, so they carry many findings, which the warehouse must store).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from engine.core.registry import get_ruleset
from ingest.mandate2038.synthetic import synthetic_log
from schemas.canonical import dumps_log

TESTS_DIR = Path(__file__).resolve().parent


def ensure_ruleset() -> str:
    """The storage tests run on the real Mandate 2038 ruleset; fail loudly if it is missing."""
    rs = get_ruleset("mandate2038")
    assert rs is not None, "the Mandate 2038 ruleset is not registered"
    return "engine"


def child_env(**extra: str) -> dict[str, str]:
    """Environment for worker/child processes: they register the same ruleset as this one."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS_DIR), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.update(extra)
    return env


def write_games(folder: Path, n: int, *, start: int = 0, events: int = 120, **kw: Any) -> list[Path]:
    """Write ``n`` synthetic canonical JSON logs into ``folder``; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(start, start + n):
        path = folder / f"game_{i:05d}.json"
        path.write_text(dumps_log(synthetic_log(i, events_target=events, **kw)), encoding="utf-8")
        out.append(path)
    return out
