"""``python -m ingest.warehouse.docs``: rewrite the game tables block of docs/warehouse.md from
the registered games' declarations (tests/test_registry.py fails when it is stale)."""

from __future__ import annotations

from ingest.warehouse.schema import DOC, update_doc

if __name__ == "__main__":
    print(("updated " if update_doc(DOC) else "unchanged ") + str(DOC))
