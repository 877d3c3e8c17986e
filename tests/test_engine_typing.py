"""Typed like the rules it checks (issue 9): every event handler of the Mandate 2038 engine
takes its event class (no ``ev: Any``, no fake events), and ``mypy --strict`` passes on
``engine/`` and ``schemas/``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MANDATE = ROOT / "engine" / "mandate2038"


def test_handlers_take_their_event_class() -> None:
    untyped = []
    for path in sorted(MANDATE.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"def (\w+)\([^)]*\b(?:ev|rec): Any\b", text):
            untyped.append(f"{path.name}: {m.group(1)}")
        assert "SimpleNamespace" not in text, f"{path.name} builds a fake event"
    assert untyped == []


def test_handler_table_covers_every_event_class() -> None:
    from engine.mandate2038.ruleset import HANDLERS
    from schemas.mandate2038 import EVENT_TYPES

    assert set(HANDLERS) >= EVENT_TYPES - {"observation", "survey"}


@pytest.mark.slow
def test_mypy_strict_on_engine_and_schemas() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "engine", "schemas"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stdout + out.stderr


#: files of the other layers with a ``mypy --strict`` error left, each being edited elsewhere
#: while the layers moved into rooms (issue 27): the list may only shrink (a listed file that
#: passes fails this test until it is struck)
STRICT_PENDING: dict[str, int] = {}


@pytest.mark.slow
def test_mypy_strict_on_every_layer() -> None:
    """``mypy --strict schemas engine ingest dashboards cli`` (issue 27): no error outside the
    files of :data:`STRICT_PENDING`, and exactly their count there."""
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
         "schemas", "engine", "ingest", "dashboards", "cli"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    errors: dict[str, int] = {}
    for line in out.stdout.splitlines():
        if ": error: " in line:
            path = line.split(":", 1)[0]
            errors[path] = errors.get(path, 0) + 1
    assert errors == STRICT_PENDING, out.stdout + out.stderr
