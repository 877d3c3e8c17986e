"""Finding codes, their rule citations, and the sink that collects findings during replay.

Each ruleset keeps a :class:`Catalogue`: every code it can emit, with the rulebook section it
enforces, written so that a designer can open the rulebook at that place. A check never invents a
code on the fly: :meth:`FindingSink.report` refuses codes that are not in the catalogue, so the
catalogue is the complete, documented list.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.ruleset import WHERE_PARTS
from schemas.findings import Finding, Severity, Where


@dataclass(frozen=True, slots=True)
class Rule:
    """One finding code: stable namespaced ``code``, the ``rule`` cited in words, a title."""

    code: str
    rule: str
    title: str
    severity: Severity = "error"


class Catalogue:
    """The complete list of codes a ruleset may report."""

    def __init__(self, rules: list[Rule]) -> None:
        self._rules: dict[str, Rule] = {}
        for r in rules:
            if r.code in self._rules:
                raise ValueError(f"duplicate finding code {r.code!r}")
            if "/" not in r.code:
                raise ValueError(f"finding code {r.code!r} is not namespaced")
            self._rules[r.code] = r

    def __getitem__(self, code: str) -> Rule:
        return self._rules[code]

    def __contains__(self, code: object) -> bool:
        return code in self._rules

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._rules.values())

    def __len__(self) -> int:
        return len(self._rules)


# Codes every ruleset shares; the core emits them.
CORE_RULES: list[Rule] = [
    Rule("log/unreadable", "canonical log format (docs/formats.md)", "the file could not be read as a game log"),
    Rule("log/invalid-header", "canonical log format (docs/formats.md)", "the header is missing or malformed"),
    Rule("log/invalid-event", "canonical log format (docs/formats.md)", "an event is malformed and was skipped"),
    Rule("log/unknown-event", "canonical log format (docs/formats.md)", "an event type this ruleset does not know; skipped"),
    Rule("log/unknown-game", "canonical log format (docs/formats.md)", "no ruleset is registered for this game"),
    Rule("log/unsupported-rules-version", "canonical log format (docs/formats.md)", "the rules version has no content pack; replayed with the nearest", "warning"),
    Rule("log/seat-out-of-range", "canonical log format (docs/formats.md)", "an event names a seat that is not at the table"),
    Rule("log/event-after-game-end", "canonical log format (docs/formats.md)", "an event was recorded after the game ended"),
    Rule("log/parse-error", "text notation / spreadsheet sheet (docs/formats.md)", "a line could not be read; the rest of the file was still read"),
    Rule("log/variant", "canonical log format, the header's rules variant (docs/variants.md)", "the header's rules variant cannot be played (it does not fit the content pack, or this game cannot play variants yet); the game was replayed under the rules as printed"),
    Rule("log/variant-hash", "canonical log format, the header's rules variant and its content hash (docs/variants.md)", "the header's variant hash is not the hash of the changes it stores (edited by hand?); the stored changes were used", "warning"),
    Rule("log/too-many-findings", "canonical log format (docs/formats.md)", "the log gave more findings than one audit lists; the replay stopped there (the log is far from a played game)"),
    Rule("checkpoint/mismatch", "checkpoints (docs/engine.md, Design: checkpoints and resync)", "the table's recorded value differs from the engine's; replay continues from the table's value"),
]


MAX_TOKEN = 120  # characters of one word quoted in a finding (a log may hold a 10 MB token)
MAX_MESSAGE = 2000
_LONG_WORD = re.compile(rf"\S{{{MAX_TOKEN + 1},}}")


def clip(text: str) -> str:
    """``text`` with every over-long word cut (its length said) and the whole capped, so that a
    huge token in a log is not echoed whole into messages and the findings table."""
    if len(text) <= MAX_TOKEN:
        return text
    out = _LONG_WORD.sub(lambda m: f"{m.group()[:MAX_TOKEN]}...[{len(m.group()):,} characters]", text)
    return out if len(out) <= MAX_MESSAGE else f"{out[:MAX_MESSAGE]}...[{len(out):,} characters]"


@dataclass(slots=True, init=False)
class FindingSink:
    """Collects findings during replay, filling in the current location."""

    catalogue: Catalogue
    findings: list[Finding] = field(default_factory=list)
    event: int | None = None
    line: int | None = None
    era: int | None = None
    cycle: int | None = None
    round: int | None = None
    # --- provenance (DESIGN.md §5): which values each check reads and each slip doubts ------
    #: finding code -> the values its check reads (of the finding's seat and ``involves``; a
    #: finding about no seat reads them for every seat; ``table:NAME`` is a value of no seat)
    reads: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: slip code -> the values of its seat that it puts in doubt (``*``: every value)
    doubts: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: value name -> the words a note names it by ("Runway", "where its pawn stands")
    value_words: Mapping[str, str] = field(default_factory=dict)
    #: seat (None: the table's own values) -> value -> the slip that put it in doubt
    doubted: dict[int | None, dict[str, Finding | int]] = field(default_factory=dict)
    #: seat -> values resynchronised since a ``*`` doubt of that seat
    cleared: dict[int | None, set[str]] = field(default_factory=dict)
    #: lines read with a cell in doubt: whatever their own event gives follows from them
    doubtful_lines: set[int] = field(default_factory=set)
    #: the slip the last note followed from (a handler whose check could not follow the table
    #: because of it puts what it decides in doubt too: :meth:`doubt`)
    last_cause: Finding | int | None = None

    # written out, not generated by dataclasses: the compiled engine (mypyc) compiles
    # this one, a generated __init__ runs interpreted on every construction
    def __init__(self, catalogue: Catalogue, findings: list[Finding] | None = None,
                 event: int | None = None, line: int | None = None, era: int | None = None,
                 cycle: int | None = None, round: int | None = None,
                 reads: Mapping[str, tuple[str, ...]] | None = None,
                 doubts: Mapping[str, tuple[str, ...]] | None = None,
                 value_words: Mapping[str, str] | None = None,
                 doubted: dict[int | None, dict[str, Finding | int]] | None = None,
                 cleared: dict[int | None, set[str]] | None = None,
                 doubtful_lines: set[int] | None = None,
                 last_cause: Finding | int | None = None) -> None:
        self.catalogue = catalogue
        self.findings = [] if findings is None else findings
        self.event = event
        self.line = line
        self.era = era
        self.cycle = cycle
        self.round = round
        self.reads = {} if reads is None else reads
        self.doubts = {} if doubts is None else doubts
        self.value_words = {} if value_words is None else value_words
        self.doubted = {} if doubted is None else doubted
        self.cleared = {} if cleared is None else cleared
        self.doubtful_lines = set() if doubtful_lines is None else doubtful_lines
        self.last_cause = last_cause

    @staticmethod
    def placing(parts: Sequence[str]) -> tuple[tuple[int, str], ...]:
        """The positions in a location named by ``parts`` that :meth:`locate` sets, with their
        names (a hot loop's ``for i, name in ...: setattr(sink, name, where[i])``)."""
        return tuple((i, name) for i, name in enumerate(parts) if name in WHERE_PARTS)

    def locate(self, parts: Sequence[str], location: Sequence[Any]) -> None:
        """Set the current location from a ruleset's ``location(state)`` named by its
        ``location_parts`` (parts that ``where`` does not carry are ignored)."""
        for name, value in zip(parts, location, strict=False):
            if name in WHERE_PARTS:
                setattr(self, name, value)

    def report(
        self,
        code: str,
        message: str,
        *,
        seat: int | None = None,
        expected: Any = None,
        recorded: Any = None,
        severity: Severity | None = None,
        rule: str | None = None,
        rulings: tuple[str, ...] = (),
        involves: tuple[int, ...] = (),
        follows: Finding | int | None = None,
        because: str | None = None,
        stands: bool = False,
        reads: tuple[str, ...] | None = None,
        touches: tuple[str, ...] | None = None,
    ) -> Finding:
        """Record one finding at the current location and return it. ``rule`` overrides the
        catalogue's citation when the finding is caused by a more specific rule (e.g. a
        checkpoint value that a Customer's score or a threshold produced); ``rulings`` names
        the rulings it rests on; ``involves``: other seats the slip concerns (the seat whose
        turn a turn out of order skipped); ``follows``: the earlier finding (or unreadable line)
        this one is known to follow from; ``stands``: this finding is the slip itself (what
        showed it earlier already follows from it), so it is never linked to an earlier one;
        ``because``: with
        ``follows``, the value in doubt that it read, in words; ``reads``: the values this
        finding's check read (instead of the ruleset's ``reads`` for its code); ``touches``: the
        values this slip puts in doubt (instead of the ruleset's ``doubts`` for its code).

        One slip, one finding, by provenance: a finding about values one of which an earlier
        slip put in doubt, and no record of the table has resynchronised since, is a note
        (severity ``info``) that links to that slip and names the value; every other finding
        stands on its own. A plain rule error puts nothing in doubt."""
        entry = self.catalogue[code]  # KeyError here is a programmer error: add the code first
        message = clip(message)
        sev = severity or entry.severity
        if follows is not None and sev != "info":  # the caller knows which slip it follows
            sev = "info"
            message = f"{message} [{_follows(follows, because)}]"
        if sev != "info" and not stands:
            hit = self._in_doubt(code, seat, involves, reads)
            if hit is not None:
                sev = "info"
                message = f"{message} [{_follows(*hit)}]"
                self.last_cause = hit[0]
        expected = clip(expected) if isinstance(expected, str) else expected
        recorded = clip(recorded) if isinstance(recorded, str) else recorded
        f = Finding(
            code=code,
            severity=sev,
            rule=rule or entry.rule,
            message=message,
            where=Where(event=self.event, line=self.line, era=self.era, cycle=self.cycle,
                        round=self.round, seat=seat),
            expected=expected,
            recorded=recorded,
            rulings=rulings,
        )
        self.findings.append(f)
        if sev == "info":
            return f
        puts = touches if touches is not None else self.doubts.get(code, ())
        if puts:
            for one in (seat, *involves) if seat is not None else involves:
                self.doubt(one, puts, f)
        return f

    # --- provenance ------------------------------------------------------------------------

    def doubt(self, seat: int | None, values: tuple[str, ...] | list[str],
              cause: Finding | int) -> None:
        """Put ``values`` of ``seat`` in doubt because of ``cause`` (a slip finding, or the
        number of a line that could not be read); ``*`` is every value of the seat. An earlier
        doubt of a value stands (the first slip is the one to name)."""
        mine = self.doubted.setdefault(seat, {})
        for v in values:
            if v.startswith("table:"):
                self.doubted.setdefault(None, {}).setdefault(v, cause)
                continue
            mine.setdefault(v, cause)
            if v == "*":
                self.cleared.pop(seat, None)

    def resolve(self, seat: int | None, values: tuple[str, ...] | list[str]) -> None:
        """The table's record resynchronised ``values`` of ``seat`` (None: of every seat and
        of the table): later findings that read them stand on their own again."""
        for who in (tuple(self.doubted) if seat is None else (seat,)):
            mine = self.doubted.get(who)
            if not mine:
                continue
            for v in values:
                mine.pop(v, None)
                if "*" in mine:
                    self.cleared.setdefault(who, set()).add(v)

    def doubtful_line(self, line: int, seat: int | None) -> None:
        """Line ``line`` could not be read (or was read with a cell in doubt): what its own
        event gives follows from it, and so does what reads the values of ``seat`` (every one:
        what the line recorded is not known) until the table resynchronises them. A line
        whose layout shows no seat puts nothing else in doubt."""
        self.doubtful_lines.add(line)
        if seat is not None:
            self.doubt(seat, ("*",), line)

    def _in_doubt(self, code: str, seat: int | None, involves: tuple[int, ...],
                  reads: tuple[str, ...] | None) -> tuple[Finding | int, str | None] | None:
        """(the slip, the value in doubt in words) a finding of ``code`` follows from, if a
        value it reads is in doubt; else None."""
        if self.line is not None and self.line in self.doubtful_lines:
            return self.line, None  # what a line read with a cell in doubt gives on that line
        names = reads if reads is not None else self.reads.get(code, ())
        if not names or not self.doubted:
            return None
        seats: tuple[int | None, ...] = ((seat, *involves) if seat is not None or involves
                                          else tuple(k for k in self.doubted if k is not None))
        table = self.doubted.get(None, {})
        for name in names:
            if name.startswith("table:"):
                if name in table:
                    return table[name], self._words(None, name)
                continue
            for who in seats:
                mine = self.doubted.get(who)
                if not mine:
                    continue
                cause = mine.get(name)
                if cause is None and "*" in mine and name not in self.cleared.get(who, ()):
                    cause = mine["*"]
                if cause is not None:
                    return cause, self._words(who, name)
        return None

    def _words(self, seat: int | None, name: str) -> str:
        words = self.value_words.get(name, name.removeprefix("table:"))
        return words if seat is None else f"seat {seat}'s {words}"

    def resync(self, what: str, engine_value: Any, table_value: Any, *, seat: int | None = None,
               reads: tuple[str, ...] | None = None) -> Any:
        """Compare a table value with the engine's; on mismatch report once and return the
        table's value so that replay continues from it (no cascade of follow-on findings)."""
        if table_value is None or table_value == engine_value:
            return engine_value
        self.report(
            "checkpoint/mismatch",
            f"the table recorded {what} = {table_value!r}, the rules give {engine_value!r}; "
            "continuing from the table's value",
            seat=seat,
            expected=engine_value,
            recorded=table_value,
            reads=reads,
        )
        return table_value


def _follows(cause: Finding | int, value: str | None = None) -> str:
    """The link of a consequence to the slip it follows from, naming the value in doubt."""
    doubt = f", which put {value} in doubt" if value else ""
    if isinstance(cause, int):
        return (f"this follows from line {cause}, which could not be read in full{doubt}; not "
                "reported as a separate error")
    at = (f"line {cause.where.line}" if cause.where.line is not None
          else f"event {cause.where.event}" if cause.where.event is not None else "earlier")
    return (f"this follows from the {cause.code} finding at {at}{doubt}; not reported as a "
            "separate error")
