"""Findings: what the validator reports about a logged game.

The shape is the external contract of ``playtest validate --format json`` (DESIGN.md §4):
``{"code", "severity", "rule", "message", "where": {...}, "expected", "recorded"}``.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

Severity = Literal["error", "warning", "info"]


class Where(BaseModel):
    """Where a finding sits in the game. Unknown parts are ``None``.

    ``event`` is the 0-based index of the event in the log's ``events`` list;
    ``line`` is the 1-based line of the source file the event came from, when known.
    ``era`` and ``cycle`` locate a Mandate 2038 finding, ``round`` a Vestige one: each game fills
    the parts its locations have (``Ruleset.location_parts``); the others stay null.
    """

    model_config = ConfigDict(frozen=True)

    event: int | None = None
    line: int | None = None
    era: int | None = None
    cycle: int | None = None
    round: int | None = None
    seat: int | None = None


class Finding(BaseModel):
    """One problem (or note) found in a log, located and explained."""

    model_config = ConfigDict(frozen=True)

    code: str
    severity: Severity = "error"
    rule: str
    message: str
    where: Where = Where()
    expected: Any = None
    recorded: Any = None
    #: the rulings (``ID=OPTION``, docs/engine.md "Rulings") this finding rests on: under
    #: another option of one of them the engine may not report it
    rulings: tuple[str, ...] = ()
    #: the changes of the log's rules variant (``PATH=VALUE``, docs/variants.md) this finding
    #: rests on: with that one change reverted to the printed rules the engine does not report it
    variant_changes: tuple[str, ...] = ()

    def with_line(self, line: int | None) -> Finding:
        """Return a copy with the source line filled in."""
        if line is None or self.where.line is not None:
            return self
        return self.model_copy(update={"where": self.where.model_copy(update={"line": line})})

    def to_contract(self) -> dict[str, Any]:
        """The JSON shape promised by the validate contract."""
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "rule": self.rule,
            "message": self.message,
            "where": self.where.model_dump(),
        }
        if self.expected is not None or self.recorded is not None:
            out["expected"] = self.expected
            out["recorded"] = self.recorded
        if self.rulings:
            out["rulings"] = list(self.rulings)
        if self.variant_changes:
            out["variant_changes"] = list(self.variant_changes)
        return out


def value_words(value: Any, missing: str = "—") -> str:
    """A finding's expected or recorded value as a reader says it, never a Python repr: a
    string without quotes, ``True`` as "yes", a list as "a, b" ("none" when empty), a mapping
    as "facilities: 1, 2; emergency: 0", a value not there as ``missing``. The JSON report
    keeps the raw values (the validate contract)."""
    if value is None:
        return missing
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return ", ".join(value_words(v, "nothing") for v in items) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{str(k).replace('_', ' ')}: {value_words(v, 'nothing')}"
                         for k, v in value.items()) or "none"
    # a list the engine wrote into its text ("one of ['a', 'b']") reads "one of a, b"
    return _LIST_REPR.sub(lambda m: ", ".join(re.findall(r"'([^']*)'", m.group(0))) or "none",
                          str(value))


#: a Python list of strings as ``str`` prints it, inside an engine's text
_LIST_REPR = re.compile(r"\[(?:'[^'\[\]]*'(?:, )?)*\]")
