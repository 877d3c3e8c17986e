"""Replay is a fold: ``state = setup(header); for e in events: apply(state, e)``.

The core runs the generic checks once, before any ruleset code (boardgame.io's order): an event
naming a seat that is not at the table, and an event after the game ended. It never raises on a
bad game; everything becomes a finding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.findings import FindingSink
from engine.core.outcome import Outcome as Outcome  # its own module: mypyc compiles this one
from engine.core.registry import get_ruleset
from engine.core.ruleset import Ruleset
from engine.core.variants import for_setup, variant_unplayable
from schemas.findings import Finding


@dataclass(slots=True)
class LedgerEntry:
    """One change of a seat's score, with its source (the score ledger)."""

    seat: int
    amount: int
    total: int
    source: str  # e.g. "starting", "customer", "capability_threshold", "era_mandate", ...
    era: int | None
    cycle: int | None
    event: int | None
    detail: str = ""
    round: int | None = None  # games located by rounds (Vestige) instead of Era and cycle


@dataclass(slots=True)
class ReplayResult:
    """Everything one replay produces.

    ``outcome`` and ``records`` (the warehouse rows) are made from the final state when first
    read, not by every replay: ``playtest validate`` reads neither, and making them was about 5%
    of a replay's time (docs/engine.md "Performance"). The constructor's ``_outcome`` and
    ``_records`` set them instead."""

    game: str
    header: Any
    findings: list[Finding]
    ledger: list[LedgerEntry] = field(default_factory=list)
    _outcome: Outcome | None = None
    _records: dict[str, list[dict[str, Any]]] | None = None
    unchecked: list[str] = field(default_factory=list)
    state: Any = None
    events_applied: int = 0
    # The ruleset's location after each event was applied (or skipped), one per event replayed:
    # where the event sits in the game (e.g. Era and cycle) for the warehouse's rows.
    locations: list[Any] = field(default_factory=list)
    #: the ruleset that made ``state``: what makes ``outcome`` and ``records`` when first read
    ruleset: Any = None
    _outcome_made: bool = False

    @property
    def outcome(self) -> Outcome | None:
        if not self._outcome_made:
            self._outcome_made = True
            if self._outcome is None and self.ruleset is not None:
                self._outcome = self.ruleset.outcome(self.state)
        return self._outcome

    @property
    def records(self) -> dict[str, list[dict[str, Any]]]:
        if self._records is None:
            self._records = (self.ruleset.records(self.state) if self.ruleset is not None
                             else {})
        return self._records

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def status(self) -> str:
        return "findings" if self.findings else "clean"


_HAS_SEAT: dict[type, bool] = {}


def _has_seat(cls: type) -> bool:
    """Whether events of this class carry a ``seat`` field (cached per class)."""
    has = _HAS_SEAT.get(cls)
    if has is None:
        fields = getattr(cls, "model_fields", {})
        has = _HAS_SEAT[cls] = "seat" in fields
    return has


_AFTER_END_OK = frozenset({"observation", "survey", "phase"})
#: findings listed for one game before its replay stops (``log/too-many-findings``)
MAX_FINDINGS = 5000


def replay(
    header: Any,
    events: Sequence[Any],
    *,
    lines: Sequence[int | None] | None = None,
    indices: Sequence[int] | None = None,
    upto: int | None = None,
    ruleset: Ruleset | None = None,
    unreadable: Sequence[tuple[int, int | None]] = (),
) -> ReplayResult:
    """Replay ``events`` (validated event models) from ``header``; never raises on bad games.

    ``upto``: stop after applying the event with this index (for "state at position").
    ``lines``: source line of each event, for locating findings.
    ``indices``: the event's index in the original log when the reader skipped bad events.
    ``unreadable``: (line, seat or None) of each source line whose reading had a problem (the
    reader's own finding says so): the engine knows something happened there, so what follows
    from it (a value of that seat that a later check reads, until the table records it again)
    links to that line instead of standing as a new rule error (:meth:`FindingSink.report`).
    """
    rs = ruleset or get_ruleset(header.game)
    if rs is None:  # pragma: no cover - the reader reports unknown games before this
        raise ValueError(f"no ruleset for game {header.game!r}")
    sink = FindingSink(rs.catalogue)
    # provenance (DESIGN.md §5): which values each check reads and each slip puts in doubt
    sink.reads = rs.reads
    sink.doubts = rs.doubts
    sink.value_words = rs.value_words
    gaps = sorted((ln, seat) for ln, seat in unreadable if ln is not None)
    state = rs.setup(for_setup(header), sink)
    unplayable = variant_unplayable(header, rs)
    if unplayable:
        sink.report("log/variant", unplayable, recorded=header.variant.name)
    n_seats = len(header.seats)
    # The seats at the table are the header's numbers (a game's own setup check says when they
    # are not 1..N); an event naming any other seat is skipped here, so that no game's rules
    # code ever looks up a seat the table does not have.
    at_table = frozenset(s.seat for s in header.seats)
    if rs.seats_at_table is not None:
        # the seats the game's state can hold, when fewer than the header lists (a Seat row
        # deleted from a sheet: seats 1, 3, 4 where the game numbers them 1..3)
        at_table &= frozenset(rs.seats_at_table(state))
    ended_reported = False
    applied = 0
    stop = len(events) if upto is None else min(len(events), upto + 1)
    # Hot loop: bind what is called per event to locals (measured in docs/engine.md).
    apply, location, ended = rs.apply, rs.location, rs.ended
    parts = tuple(rs.location_parts)
    # the stored parts of a location by position (e.g. (0, "era"), (1, "cycle")), whatever game
    placing = FindingSink.placing(parts)
    # the ruleset's apply sets the sink's location itself (to what ``location`` gave after the
    # previous event): the loop sets it only where it reports before apply
    self_locating = rs.apply_locates is True
    idx = list(indices[:stop]) if indices is not None else range(stop)
    src = list(lines[:stop]) if lines is not None else []
    if len(src) < stop:
        src.extend([None] * (stop - len(src)))
    if len(idx) < stop:
        raise IndexError(f"indices has {len(idx)} entries for {stop} events")
    has_seat = _HAS_SEAT
    after_end_ok = rs.after_end_events
    locations: list[Any] = []
    here = location(state)
    found = sink.findings
    stopped = False
    # zip stops after ``stop`` events: ``idx`` and ``src`` hold exactly ``stop`` entries
    for ev, ix, ln in zip(events, idx, src, strict=False):
        if len(found) >= MAX_FINDINGS:
            # a log this far from a played game says nothing more by its next findings; its
            # memory stays bounded (docs/storage.md, limits)
            sink.event, sink.line = ix, ln
            sink.report("log/too-many-findings",
                        f"{len(found):,} findings by event {ix}; the replay stopped here (at most "
                        f"{MAX_FINDINGS:,} are listed for one game)", recorded=len(found))
            stopped = True
            break
        while gaps and ln is not None and gaps[0][0] <= ln:
            # a line read with a problem came before this event (or is this event's own)
            sink.doubtful_line(gaps[0][0], gaps[0][1])
            gaps.pop(0)
        sink.event = ix
        sink.line = ln
        if not self_locating:  # else apply locates the sink where ``here`` says
            for i, name in placing:
                if i < len(here):  # as sink.locate: a shorter location sets fewer parts
                    setattr(sink, name, here[i])
        if ended(state) and ev.type not in after_end_ok:
            if self_locating:
                sink.locate(parts, here)
            if not ended_reported:
                sink.report(
                    "log/event-after-game-end",
                    f"{ev.type!r} event recorded after the game ended; it was not applied",
                )
                ended_reported = True
            locations.append(here)
            continue
        cls = ev.__class__
        if has_seat[cls] if cls in has_seat else _has_seat(cls):
            seat = ev.seat
            if seat not in at_table and isinstance(seat, int):
                if self_locating:
                    sink.locate(parts, here)
                table = _seat_list(at_table, n_seats)
                # not applied, and whose it was is not known: it puts no seat's values in
                # doubt (hiding a real error is worse than repeating a consequence)
                sink.report(
                    "log/seat-out-of-range",
                    f"{ev.type!r} names seat {seat}, but only seats {table} are at the table",
                    seat=seat,
                    expected=table,
                    recorded=seat,
                )
                locations.append(here)
                continue
        apply(state, ev, sink)
        applied += 1
        here = location(state)
        locations.append(here)
    if upto is None and not stopped:
        sink.event = None
        sink.line = None
        sink.locate(parts, rs.location(state))
        rs.finish(state, sink)
    return ReplayResult(
        game=rs.game,
        header=header,
        findings=sink.findings,
        ledger=rs.ledger(state),
        unchecked=rs.unchecked(header),
        state=state,
        events_applied=applied,
        locations=locations,
        ruleset=rs,
    )


def _seat_list(at_table: frozenset[int], n_seats: int) -> str:
    """The seats at the table as text: ``1..N`` when numbered so, else the numbers."""
    if at_table == frozenset(range(1, n_seats + 1)):
        return f"1..{n_seats}"
    return ", ".join(str(s) for s in sorted(at_table))


def replay_to(header: Any, events: Sequence[Any], position: int, **kw: Any) -> ReplayResult:
    """State after applying events ``0..position`` (inclusive)."""
    return replay(header, events, upto=position, **kw)
