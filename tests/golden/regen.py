"""Regenerate the golden files: ``python -m tests.golden.regen``.

Writes ``tests/golden/mandate2038/<case>.json`` (the canonical log, schemas.canonical) and
``<case>.expected.json`` (the authored expectation) for every registered case, and removes files
of cases that no longer exist. Nothing here runs the engine: expectations are authored.
"""

from __future__ import annotations

import inspect
import json
import sys
from pathlib import Path

import tests.golden.cases  # noqa: F401  (registers every case)
from tests.golden.build import CASES

OUT = Path(__file__).parent / "mandate2038"


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    written = set()
    for name, fn in sorted(CASES.items()):
        g = fn()
        doc = inspect.cleandoc(fn.__doc__ or "")
        if not doc:
            raise SystemExit(f"case {name} has no docstring")
        (OUT / f"{name}.json").write_text(g.log_text(), encoding="utf-8")
        exp = g.expectation(name, doc)
        (OUT / f"{name}.expected.json").write_text(
            json.dumps(exp, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written |= {f"{name}.json", f"{name}.expected.json"}
    for p in OUT.glob("*.json"):
        if p.name not in written:
            p.unlink()
    print(f"wrote {len(CASES)} golden cases to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
