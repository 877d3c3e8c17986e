"""Finding codes, their rule citations, and the sink that collects findings during replay.

Each ruleset keeps a :class:`Catalogue`: every code it can emit, with the rulebook section it
enforces, written so that a designer can open the rulebook at that place. A check never invents a
code on the fly: :meth:`FindingSink.report` refuses codes that are not in the catalogue, so the
catalogue is the complete, documented list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

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
    Rule("log/unreadable", "canonical log format (DESIGN.md §4)", "the file could not be read as a game log"),
    Rule("log/invalid-header", "canonical log format (DESIGN.md §4)", "the header is missing or malformed"),
    Rule("log/invalid-event", "canonical log format (DESIGN.md §4)", "an event is malformed and was skipped"),
    Rule("log/unknown-event", "canonical log format (DESIGN.md §4)", "an event type this ruleset does not know; skipped"),
    Rule("log/unknown-game", "canonical log format (DESIGN.md §4)", "no ruleset is registered for this game"),
    Rule("log/unsupported-rules-version", "canonical log format (DESIGN.md §4)", "the rules version has no content pack; replayed with the nearest", "warning"),
    Rule("log/seat-out-of-range", "canonical log format (DESIGN.md §4)", "an event names a seat that is not at the table"),
    Rule("log/event-after-game-end", "canonical log format (DESIGN.md §4)", "an event was recorded after the game ended"),
    Rule("log/parse-error", "text notation / spreadsheet sheet (docs/formats.md)", "a line could not be read; the rest of the file was still read"),
    Rule("log/variant", "rules variants (docs/variants.md: the variant named in the log's header)", "the header's rules variant cannot be played (it does not fit the content pack, or this game cannot play variants yet); the game was replayed under the rules as printed"),
    Rule("log/variant-hash", "rules variants (docs/variants.md: a variant's content hash)", "the header's variant hash is not the hash of the changes it stores (edited by hand?); the stored changes were used", "warning"),
    Rule("checkpoint/mismatch", "checkpoints (DESIGN.md §5)", "the table's recorded value differs from the engine's; replay continues from the table's value"),
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


@dataclass(slots=True)
class FindingSink:
    """Collects findings during replay, filling in the current location."""

    catalogue: Catalogue
    findings: list[Finding] = field(default_factory=list)
    event: int | None = None
    line: int | None = None
    era: int | None = None
    cycle: int | None = None
    round: int | None = None

    def locate(self, parts: Sequence[str], location: Sequence[Any]) -> None:
        """Set the current location from a ruleset's ``location(state)`` named by its
        ``location_parts`` (parts that ``where`` does not carry are ignored)."""
        for name, value in zip(parts, location, strict=False):
            if name in ("era", "cycle", "round"):
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
    ) -> Finding:
        """Record one finding at the current location and return it. ``rule`` overrides the
        catalogue's citation when the finding is caused by a more specific rule (e.g. a
        checkpoint value that a Customer's score or a threshold produced); ``rulings`` names
        the rulings it rests on."""
        entry = self.catalogue[code]  # KeyError here is a programmer error: add the code first
        message = clip(message)
        expected = clip(expected) if isinstance(expected, str) else expected
        recorded = clip(recorded) if isinstance(recorded, str) else recorded
        f = Finding(
            code=code,
            severity=severity or entry.severity,
            rule=rule or entry.rule,
            message=message,
            where=Where(event=self.event, line=self.line, era=self.era, cycle=self.cycle,
                        round=self.round, seat=seat),
            expected=expected,
            recorded=recorded,
            rulings=rulings,
        )
        self.findings.append(f)
        return f

    def resync(self, what: str, engine_value: Any, table_value: Any, *, seat: int | None = None) -> Any:
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
        )
        return table_value
