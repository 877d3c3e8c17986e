"""Regenerate the Vestige golden files: ``python -m tests.golden.vestige.regen``.

Writes ``tests/golden/vestige/games/<case>.json`` (the canonical log) and
``<case>.expected.json`` (the authored expectation) for every case in ``cases.py``, and removes
files of cases that no longer exist. Nothing here runs the engine: expectations are authored.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import tests.golden.vestige.cases  # noqa: F401  (registers every case)
from tests.golden.vestige.build import CASES, dump

OUT = Path(__file__).parent / "games"


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    written = set()
    for name, fn in sorted(CASES.items()):
        g = fn()
        doc = inspect.cleandoc(fn.__doc__ or "")
        if not doc:
            raise SystemExit(f"case {name} has no docstring")
        (OUT / f"{name}.json").write_text(g.log_text(), encoding="utf-8")
        (OUT / f"{name}.expected.json").write_text(dump(g.expectation(name, doc)),
                                                   encoding="utf-8")
        written |= {f"{name}.json", f"{name}.expected.json"}
    for p in OUT.glob("*.json"):
        if p.name not in written:
            p.unlink()
    print(f"wrote {len(CASES)} Vestige golden cases to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
