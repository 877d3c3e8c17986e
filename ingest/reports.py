"""What ingest and rebuild report: one :class:`FileReport` per game or unreadable input, gathered
in an :class:`IngestSummary` (printed by ``playtest ingest``, shown by the Import page)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Status = Literal["loaded", "skipped", "recovered", "unreadable", "failed"]


@dataclass(slots=True)
class FileReport:
    """What happened to one game (or one unreadable input)."""

    file: str
    status: Status
    game_id: str | None = None
    reason: str = ""
    findings: int = 0
    notes: list[str] = field(default_factory=list)
    unreadable_lines: list[str] = field(default_factory=list)  # reader problems in a loaded game


@dataclass(slots=True)
class IngestSummary:
    """The outcome of an ingest or rebuild: one report per game or unreadable input."""

    db_path: Path
    archive: Path
    reports: list[FileReport] = field(default_factory=list)
    seconds: float = 0.0
    files: int = 0
    batch_cpu_seconds: float = 0.0  # CPU time spent in process_batch, summed over workers
    load_seconds: float = 0.0  # wall time spent loading frames into DuckDB
    batch_max_rss_kb: int = 0  # peak resident memory of the processes that ran the batches

    def _with(self, status: Status) -> list[FileReport]:
        return [r for r in self.reports if r.status == status]

    @property
    def loaded(self) -> list[FileReport]:
        return self._with("loaded")

    @property
    def skipped(self) -> list[FileReport]:
        return self._with("skipped")

    @property
    def recovered(self) -> list[FileReport]:
        return self._with("recovered")

    @property
    def unreadable(self) -> list[FileReport]:
        return self._with("unreadable")

    @property
    def failed(self) -> list[FileReport]:
        return self._with("failed")

    @property
    def partly_unreadable(self) -> list[FileReport]:
        """Loaded games whose input had lines the reader could not read (kept as findings)."""
        return [r for r in self.reports if r.unreadable_lines and r.status in ("loaded", "recovered")]

    def counts(self) -> dict[str, int]:
        """Number of reports per status (every status present, zero when none)."""
        out = {s: 0 for s in ("loaded", "skipped", "recovered", "unreadable", "failed")}
        for r in self.reports:
            out[r.status] += 1
        return out

    def lines(self) -> list[str]:
        """A human summary: one count line, then one line per problem input."""
        c = self.counts()
        head = (
            f"{c['loaded']} loaded, {c['skipped']} skipped as duplicate, {c['recovered']} "
            f"recovered, {c['unreadable']} unreadable"
            + (f", {c['failed']} failed" if c["failed"] else "")
            + f" ({self.files} inputs, {self.seconds:.1f} s) into {self.db_path}"
        )
        out = [head]
        for r in self.reports:
            if r.status in ("unreadable", "failed"):
                out.append(f"  {r.status}: {r.file}: {r.reason}")
            elif r.status == "recovered":
                out.append(f"  recovered: {r.file} (game {r.game_id}, archived earlier)")
            if r.unreadable_lines and r.status in ("loaded", "recovered", "skipped"):
                more = len(r.unreadable_lines) - 1
                what = "loaded, kept as findings" if r.status != "skipped" else \
                    f"skipped: the same game {r.game_id} as an input already loaded"
                out.append(f"  partly unreadable ({what}): {r.unreadable_lines[0]}"
                           + (f" (and {more} more)" if more > 0 else ""))
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (for ``--format json``)."""
        return {
            "db": str(self.db_path),
            "archive": str(self.archive),
            "counts": self.counts(),
            "seconds": round(self.seconds, 3),
            "reports": [
                {"file": r.file, "status": r.status, "game_id": r.game_id, "reason": r.reason,
                 "findings": r.findings, "notes": r.notes, "unreadable_lines": r.unreadable_lines}
                for r in self.reports
            ],
        }
