"""The DuckDB warehouse: table schema, versioned migrations, and bulk loading of games.

See docs/warehouse.md for the tables. The warehouse is derived from the archive and can be
rebuilt from it at any time (``ingest.pipeline.rebuild``).
"""

from ingest.warehouse.load import LoadResult, existing_game_ids, load_frames
from ingest.warehouse.migrations import MIGRATIONS, current_version, migrate
from ingest.warehouse.schema import TABLES, empty_frame

__all__ = [
    "MIGRATIONS",
    "TABLES",
    "LoadResult",
    "current_version",
    "empty_frame",
    "existing_game_ids",
    "load_frames",
    "migrate",
]
