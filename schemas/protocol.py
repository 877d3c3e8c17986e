"""Observation protocols: what a facilitator captures at a playtest, as versioned data.

A protocol (``data/protocols/<id>/v<N>.json``, loaded by :func:`schemas.packs.load_protocol`)
has three parts, taken in our own words from the designers' capture list (FACTS.md §11.2-11.4):

* **categories** of observations (``rules_lookup``, ``intervention``, ``deviation``, ...). An
  ``observation`` event of the canonical log names one of them in its ``category``.
* a **capture checklist**: each item says, with a machine :data:`Check`, how to tell from a
  canonical log whether the item was captured.
* the post-game **survey**: its items (1-5 scales, yes/no, free text), answered by ``survey``
  events of the log.

:func:`capture_completeness` scores one log against a protocol. It is pure (no I/O, clock or
randomness) and never raises on a well-formed :class:`~schemas.mandate2038.MandateLog`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, model_validator

from schemas.source import Source


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Category(_Model):
    """A kind of observation (the ``category`` of an ``observation`` event)."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    name: str
    description: str
    source: Source


# --- checks: how to tell from a log that an item was captured --------------------------------

EventTypes = str | list[str]


class HeaderCheck(_Model):
    """The header field at dotted path ``field`` (e.g. ``receipt.rules_version``) is recorded:
    present and not None, "" or empty. ``False`` counts as recorded."""

    kind: Literal["header"] = "header"
    field: str


class EventCheck(_Model):
    """At least one event of ``type`` exists (with ``name`` equal, for ``phase`` events)."""

    kind: Literal["event"] = "event"
    type: str
    name: str | None = None


class EventTimeCheck(_Model):
    """At least one event of ``type`` (and ``name``) exists, and every one of them carries a
    wall-clock time ``t``."""

    kind: Literal["event_time"] = "event_time"
    type: EventTypes
    label: str | None = None  # how reasons name the events (default: the types)
    name: str | None = None


class EventsCheck(_Model):
    """Events of ``type`` (and ``name``) occur at least ``min`` times and, with ``per``, at
    least once in every cycle (each ``headline`` event starts one), every Era (each
    ``era_start`` starts one), for every seat, or for every seat in every Era (``seat_era``).
    An event belongs to the Era and cycle most recently started before it."""

    kind: Literal["events"] = "events"
    type: EventTypes
    label: str | None = None  # how reasons name the events (default: the types)
    name: str | None = None
    per: Literal["cycle", "era", "seat", "seat_era"] | None = None
    min: int = Field(default=1, ge=1)


class EventFieldCheck(_Model):
    """At least one event of ``type`` exists and every one of them has ``field`` recorded (not
    None, "" or empty), e.g. every turn records its ``path``."""

    kind: Literal["event_field"] = "event_field"
    type: EventTypes
    label: str | None = None  # how reasons name the events (default: the types)
    field: str


class PairedCheck(_Model):
    """Every (not ``blocked``) event of ``type`` is matched by an event of ``with_`` for the same
    seat, counted per seat (e.g. every ``research`` turn has its ``run_end``). Like every check,
    a log with no ``type`` event at all does not count as captured."""

    kind: Literal["paired"] = "paired"
    type: str
    with_: str = Field(alias="with")
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ObservationCheck(_Model):
    """At least ``min`` ``observation`` events of ``category``."""

    kind: Literal["observation"] = "observation"
    category: str
    min: int = Field(default=1, ge=1)


class SurveyCheck(_Model):
    """The survey ``item`` was answered: by every seat when the item is per seat, otherwise at
    least once."""

    kind: Literal["survey"] = "survey"
    item: str


class AllCheck(_Model):
    """Every one of ``checks`` holds."""

    kind: Literal["all"] = "all"
    checks: list[Check] = Field(min_length=1)


class AnyCheck(_Model):
    """At least one of ``checks`` holds."""

    kind: Literal["any"] = "any"
    checks: list[Check] = Field(min_length=1)


Check = Annotated[
    HeaderCheck
    | EventCheck
    | EventTimeCheck
    | EventsCheck
    | EventFieldCheck
    | PairedCheck
    | ObservationCheck
    | SurveyCheck
    | AllCheck
    | AnyCheck,
    Field(discriminator="kind"),
]
AllCheck.model_rebuild()
AnyCheck.model_rebuild()


class ChecklistItem(_Model):
    """One thing the facilitator should capture in every session."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    group: str  # identity, timing, actions, research, infrastructure, risk_score, narrative, ...
    text: str
    check: Check
    source: Source


class SurveyItem(_Model):
    """One post-game question. ``scale`` 1-5 (``low``/``high`` label the ends), ``yes_no`` or
    ``text``. ``per_seat``: every player answers; otherwise the table answers once."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    question: str
    answer: Literal["scale", "yes_no", "text"]
    per_seat: bool = True
    minimum: int | None = None
    maximum: int | None = None
    low: str | None = None
    high: str | None = None
    source: Source

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not a valid answer to this item, or None when it is."""
        if self.answer == "scale":
            if isinstance(value, bool) or not isinstance(value, int | float):
                return f"{self.id}: expected a number {self.minimum}-{self.maximum}, got {value!r}"
            if value != int(value):
                return f"{self.id}: expected a whole number, got {value!r}"
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                return f"{self.id}: {value} is outside {self.minimum}-{self.maximum}"
            return None
        if self.answer == "yes_no":
            if isinstance(value, bool):
                return None
            if isinstance(value, str) and value.strip().lower() in {"yes", "no", "y", "n"}:
                return None
            return f"{self.id}: expected yes or no, got {value!r}"
        if not isinstance(value, str) or not value.strip():
            return f"{self.id}: expected free text, got {value!r}"
        return None


class Protocol(_Model):
    """A versioned observation protocol."""

    id: str
    version: int = Field(ge=1)
    game: str
    title: str
    description: str
    categories: list[Category]
    checklist: list[ChecklistItem]
    survey: list[SurveyItem]
    exclusions: list[str] = Field(default_factory=list)  # what must NOT enter baseline evidence
    changes: list[str] = Field(default_factory=list)  # what changed from the previous version
    source: Source

    @model_validator(mode="after")
    def _check_references(self) -> Protocol:
        """Ids are unique; every check names a declared category or survey item."""
        problems: list[str] = []
        for kind, ids in (
            ("category", [c.id for c in self.categories]),
            ("checklist item", [i.id for i in self.checklist]),
            ("survey item", [s.id for s in self.survey]),
        ):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            if dupes:
                problems.append(f"duplicate {kind} id(s) {dupes}")
        cats = {c.id for c in self.categories}
        items = {s.id for s in self.survey}
        for item in self.checklist:
            for leaf in _leaves(item.check):
                if isinstance(leaf, ObservationCheck) and leaf.category not in cats:
                    problems.append(f"checklist {item.id}: unknown category {leaf.category!r}")
                if isinstance(leaf, SurveyCheck) and leaf.item not in items:
                    problems.append(f"checklist {item.id}: unknown survey item {leaf.item!r}")
        for s in self.survey:
            if s.answer == "scale" and (s.minimum is None or s.maximum is None):
                problems.append(f"survey {s.id}: a scale needs minimum and maximum")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def reference(self) -> str:
        """``<id>@<version>``, the form a log header's ``protocol`` field uses."""
        return f"{self.id}@{self.version}"

    def category(self, category_id: str) -> Category | None:
        """The category with this id, or None."""
        return next((c for c in self.categories if c.id == category_id), None)

    def survey_item(self, item_id: str) -> SurveyItem | None:
        """The survey item with this id, or None."""
        return next((s for s in self.survey if s.id == item_id), None)


def _leaves(check: Check) -> list[Check]:
    if isinstance(check, AllCheck | AnyCheck):
        return [leaf for c in check.checks for leaf in _leaves(c)]
    return [check]


# --- capture completeness --------------------------------------------------------------------


class Capture(NamedTuple):
    """One checklist item's result: ``(item_id, captured, reason)``."""

    item_id: str
    captured: bool
    reason: str


def capture_completeness(protocol: Protocol, log: Any) -> list[Capture]:
    """Score ``log`` (a :class:`~schemas.mandate2038.MandateLog`, or any log with ``header``
    and typed ``events``) against every checklist item of ``protocol``, in checklist order.

    Each result is ``(item_id, captured, reason)``; the reason says what was found or what is
    missing (e.g. ``"4 of 12 headline events have no time"``). Pure; never raises on a
    validated log.
    """
    ctx = _Context(protocol, log)
    out = []
    for item in protocol.checklist:
        ok, reason = ctx.evaluate(item.check)
        out.append(Capture(item.id, ok, reason))
    return out


def completeness_by_group(protocol: Protocol, results: list[Capture]) -> dict[str, tuple[int, int]]:
    """Checklist group -> (items captured, items in the group), in checklist order."""
    group = {i.id: i.group for i in protocol.checklist}
    out: dict[str, tuple[int, int]] = {}
    for r in results:
        g = group.get(r.item_id, "other")
        done, total = out.get(g, (0, 0))
        out[g] = (done + int(r.captured), total + 1)
    return out


def completeness_share(results: list[Capture]) -> float:
    """Fraction of checklist items captured (0.0 for an empty checklist)."""
    return sum(r.captured for r in results) / len(results) if results else 0.0


class ProtocolProblem(NamedTuple):
    """An ``observation`` or ``survey`` event that does not fit the protocol."""

    event: int  # index of the event in ``log.events``
    reason: str


def protocol_problems(protocol: Protocol, log: Any) -> list[ProtocolProblem]:
    """Observation and survey events of ``log`` that do not fit ``protocol``: an unknown
    observation category, an unknown survey item, an invalid answer, a per-seat item answered
    without a seat or by a seat that is not at the table, or one seat answering twice.

    Pure; returns [] when everything fits. Readers may report these as warnings.
    """
    out: list[ProtocolProblem] = []
    seats = {s.seat for s in log.header.seats}
    answered: set[tuple[str, int | None]] = set()
    for i, e in enumerate(log.events):
        if e.type == "observation":
            if protocol.category(e.category) is None:
                known = ", ".join(c.id for c in protocol.categories)
                out.append(
                    ProtocolProblem(
                        i,
                        f"observation category {e.category!r} is not in {protocol.reference} ({known})",
                    )
                )
        elif e.type == "survey":
            item = protocol.survey_item(e.item)
            if item is None:
                out.append(
                    ProtocolProblem(i, f"survey item {e.item!r} is not in {protocol.reference}")
                )
                continue
            problem = item.problem(e.value)
            if problem:
                out.append(ProtocolProblem(i, problem))
            if item.per_seat and e.seat is None:
                out.append(ProtocolProblem(i, f"{item.id} is asked of every player: name the seat"))
            elif e.seat is not None and e.seat not in seats:
                out.append(ProtocolProblem(i, f"{item.id}: seat {e.seat} is not at the table"))
            key = (item.id, e.seat)
            if key in answered:
                who = f"seat {e.seat}" if e.seat is not None else "the table"
                out.append(ProtocolProblem(i, f"{item.id}: {who} answered more than once"))
            answered.add(key)
    return out


def _recorded(value: Any) -> bool:
    if value is None:
        return False
    return not (isinstance(value, str | list | dict | tuple | set) and len(value) == 0)


def _types(t: EventTypes) -> set[str]:
    return {t} if isinstance(t, str) else set(t)


def _label(check: EventTimeCheck | EventsCheck | EventFieldCheck) -> str:
    if check.label:
        return check.label
    return check.type if isinstance(check.type, str) else "/".join(check.type)


class _Context:
    def __init__(self, protocol: Protocol, log: Any) -> None:
        self.protocol = protocol
        self.header = log.header
        self.events: list[Any] = list(log.events)
        self.seats = sorted(s.seat for s in self.header.seats)
        # the Era and cycle each event belongs to (the latest era_start / headline before it)
        self.era_of: list[int | None] = []  # by event index
        self.cycle_of: list[tuple[int | None, int] | None] = []
        self.eras: list[int] = []
        self.cycles: list[tuple[int | None, int]] = []
        era: int | None = None
        cycle: tuple[int | None, int] | None = None
        n_cycles = 0
        for e in self.events:
            if e.type == "era_start":
                era = getattr(e, "era", None)
                cycle = None
                if era is not None and era not in self.eras:
                    self.eras.append(era)
            elif e.type == "headline":
                n_cycles += 1
                # keyed by the order of headline events, labelled with the printed cycle number
                cycle = (era, getattr(e, "cycle", n_cycles))
                if cycle in self.cycles:
                    cycle = (era, n_cycles)
                self.cycles.append(cycle)
            self.era_of.append(era)
            self.cycle_of.append(cycle)

    def _indices(self, types: set[str], name: str | None = None) -> list[int]:
        """Indices of the events of these types (and ``name``, for phase events)."""
        return [
            i
            for i, e in enumerate(self.events)
            if e.type in types and (name is None or getattr(e, "name", None) == name)
        ]

    def _matching(self, types: set[str], name: str | None = None) -> list[Any]:
        return [self.events[i] for i in self._indices(types, name)]

    def evaluate(self, check: Check) -> tuple[bool, str]:
        if isinstance(check, HeaderCheck):
            value: Any = self.header
            for part in check.field.split("."):
                value = getattr(value, part, None) if value is not None else None
            if _recorded(value):
                return True, f"header {check.field} recorded"
            return False, f"header {check.field} not recorded"

        if isinstance(check, EventCheck):
            what = check.type + (f" {check.name}" if check.name else "")
            n = len(self._matching({check.type}, check.name))
            return (True, f"{n} {what} event(s)") if n else (False, f"no {what} event")

        if isinstance(check, EventTimeCheck):
            what = _label(check) + (f" {check.name}" if check.name else "")
            found = self._matching(_types(check.type), check.name)
            if not found:
                return False, f"no {what} event"
            untimed = sum(1 for e in found if getattr(e, "t", None) is None)
            if untimed:
                return False, f"{untimed} of {len(found)} {what} event(s) have no time"
            return True, f"all {len(found)} {what} event(s) timed"

        if isinstance(check, EventsCheck):
            what = _label(check) + (f" {check.name}" if check.name else "")
            idx = self._indices(_types(check.type), check.name)
            found = [self.events[i] for i in idx]
            if not found:
                return False, f"no {what} event"
            if len(found) < check.min:
                return False, f"{len(found)} {what} event(s), expected at least {check.min}"
            if check.per is None:
                return True, f"{len(found)} {what} event(s)"
            if check.per in ("cycle", "era", "seat_era") and not self.eras:
                return False, f"no era_start events, so Eras (and {what} per Era) unknown"
            if check.per == "cycle":
                if not self.cycles:
                    return False, f"no headline events, so cycles (and {what} per cycle) unknown"
                have = {self.cycle_of[i] for i in idx}
                gaps = [c for c in self.cycles if c not in have]
                unit, total = "cycle", len(self.cycles)
                labels = [f"Era {e} cycle {c}" for e, c in gaps]
            elif check.per == "era":
                have_e = {self.era_of[i] for i in idx}
                gaps_e = [e for e in self.eras if e not in have_e]
                unit, total = "Era", len(self.eras)
                labels = [f"Era {e}" for e in gaps_e]
            elif check.per == "seat":
                have_s = {getattr(e, "seat", None) for e in found}
                gaps_s = [s for s in self.seats if s not in have_s]
                unit, total = "seat", len(self.seats)
                labels = [f"seat {s}" for s in gaps_s]
            else:  # seat_era
                have_se = {(getattr(self.events[i], "seat", None), self.era_of[i]) for i in idx}
                gaps_se = [(s, e) for e in self.eras for s in self.seats if (s, e) not in have_se]
                unit, total = "seat and Era", len(self.eras) * len(self.seats)
                labels = [f"seat {s} Era {e}" for s, e in gaps_se]
            if labels:
                shown = ", ".join(labels[:6]) + (
                    f" and {len(labels) - 6} more" if len(labels) > 6 else ""
                )
                return False, f"no {what} event for {shown} ({len(labels)} of {total} missing)"
            return True, f"{what} recorded for every {unit} ({total})"

        if isinstance(check, EventFieldCheck):
            what = _label(check)
            found = self._matching(_types(check.type))
            if not found:
                return False, f"no {what} event"
            lacking = sum(1 for e in found if not _recorded(getattr(e, check.field, None)))
            if lacking:
                return False, f"{lacking} of {len(found)} {what} event(s) lack {check.field}"
            return True, f"all {len(found)} {what} event(s) record {check.field}"

        if isinstance(check, PairedCheck):
            firsts = [e for e in self._matching({check.type}) if not getattr(e, "blocked", False)]
            if not firsts:
                return False, f"no {check.type} event"
            seconds = self._matching({check.with_})
            unmatched = 0
            for seat in {getattr(e, "seat", None) for e in firsts}:
                need = sum(1 for e in firsts if getattr(e, "seat", None) == seat)
                got = sum(1 for e in seconds if getattr(e, "seat", None) == seat)
                unmatched += max(0, need - got)
            if unmatched:
                return False, (
                    f"{unmatched} of {len(firsts)} {check.type} event(s) have no {check.with_}"
                )
            return True, f"every {check.type} event has its {check.with_} ({len(firsts)})"

        if isinstance(check, ObservationCheck):
            n = sum(
                1
                for e in self.events
                if e.type == "observation" and getattr(e, "category", None) == check.category
            )
            if n >= check.min:
                return True, f"{n} {check.category} observation(s)"
            return False, (
                f"no {check.category} observation"
                if n == 0
                else f"{n} {check.category} observation(s), expected at least {check.min}"
            )

        if isinstance(check, SurveyCheck):
            answers = [
                e
                for e in self.events
                if e.type == "survey" and getattr(e, "item", None) == check.item
            ]
            item = self.protocol.survey_item(check.item)
            if not answers:
                return False, f"survey {check.item} not answered"
            if item is not None and item.per_seat:
                answered = {getattr(e, "seat", None) for e in answers}
                missing = [s for s in self.seats if s not in answered]
                if missing:
                    return False, (
                        f"survey {check.item} not answered by seat(s) {', '.join(map(str, missing))}"
                    )
                return True, f"survey {check.item} answered by every seat"
            return True, f"survey {check.item} answered"

        if isinstance(check, AllCheck):
            results = [self.evaluate(c) for c in check.checks]
            failed = [r for ok, r in results if not ok]
            if failed:
                return False, "; ".join(failed)
            return True, "; ".join(r for _, r in results)

        if isinstance(check, AnyCheck):
            results = [self.evaluate(c) for c in check.checks]
            for ok, r in results:
                if ok:
                    return True, r
            return False, " and ".join(r for _, r in results)

        raise TypeError(f"unknown check {check!r}")  # programmer error: a new Check kind
