"""What counts as evidence (DESIGN.md §6; FACTS.md §11.2 and §11.4).

Two questions are asked of every game, each answered with a yes/no and the reasons it does not
count, written as short sentences that dashboards show next to the game:

* :func:`evidence`: does it count as Default balance evidence? Only human sessions
  (``facilitated_playtest``, ``blind_playtest``) count; a simulation or a walkthrough never does
  (and a log produced by a program, ``provenance.generator``, is never a playtest whatever its
  label); a "blind" playtest whose receipt records facilitator interventions is flagged;
  illustrative samples never count; Advanced Play, secret
  objectives and Tactics are kept out of Default evidence; a game with rule errors or one that
  does not reach final scoring is flagged.
* :func:`duration_evidence`: does it count as duration evidence? Human sessions only (LLM or
  bot sessions cannot estimate human play time), not illustrative, no Advanced Play, secret
  objectives or Tactics, and the log must carry recorded times (a total duration).

Pure functions of the header and the replay result.
"""

from __future__ import annotations

from typing import Any

from schemas.log import HUMAN_SESSION_TYPES

R_SIMULATION = "A simulation is not a playtest; it never counts as human evidence."
R_WALKTHROUGH = "A walkthrough is not a playtest; it never counts as human evidence."
R_ILLUSTRATIVE = "An illustrative sample game, not a real session."
R_ADVANCED = "Advanced Play is kept out of Default evidence."
R_SECRET = "Secret objectives were used; they are kept out of Default evidence."
R_TACTICS = "Tactics were used; they are kept out of Default evidence."
R_ERRORS = "has rule errors"
R_INCOMPLETE = "The log does not reach final scoring."
R_NO_TIMES = "No recorded times, so there is no duration to count."
R_UNKNOWN_TYPE = "Unknown session type."
R_GENERATED = (
    "Produced by a program ({generator}) but labelled {label}; a simulation is never a playtest."
)
R_BLIND_INTERVENED = (
    "Labelled a blind playtest, but the receipt records facilitator interventions; "
    "relabel it a facilitated playtest."
)


def _base_reasons(header: Any) -> list[str]:
    reasons: list[str] = []
    kind = getattr(header, "session_type", None)
    if kind == "simulation":
        reasons.append(R_SIMULATION)
    elif kind in ("browser_walkthrough", "developer_walkthrough"):
        reasons.append(R_WALKTHROUGH)
    elif kind not in HUMAN_SESSION_TYPES:
        reasons.append(R_UNKNOWN_TYPE)
    provenance = getattr(header, "provenance", None)
    if provenance is not None and getattr(provenance, "illustrative", False):
        reasons.append(R_ILLUSTRATIVE)
    generator = getattr(provenance, "generator", None) if provenance is not None else None
    made_by_program = bool(generator) or (
        provenance is not None and getattr(provenance, "source_format", None) == "simulator"
    )
    if kind in HUMAN_SESSION_TYPES and made_by_program:
        reasons.append(R_GENERATED.format(generator=generator or "a simulator", label=kind))
    receipt = getattr(header, "receipt", None)
    if kind == "blind_playtest" and receipt is not None and getattr(
        receipt, "facilitator_interventions", None
    ):
        reasons.append(R_BLIND_INTERVENED)
    if getattr(header, "profile", "default") == "advanced":
        reasons.append(R_ADVANCED)
    if getattr(header, "secret_objectives", False):
        reasons.append(R_SECRET)
    if getattr(header, "tactics", False):
        reasons.append(R_TACTICS)
    return reasons


def evidence(header: Any, result: Any) -> tuple[bool, list[str]]:
    """(counts as Default balance evidence, reasons it does not).

    ``result`` is the engine's ReplayResult (``findings`` and ``outcome`` are read). Findings
    whose severity is ``error`` make the game not count ("has rule errors").
    """
    reasons = _base_reasons(header)
    findings = getattr(result, "findings", None) or []
    if any(getattr(f, "severity", None) == "error" for f in findings):
        reasons.append(R_ERRORS)
    outcome = getattr(result, "outcome", None)
    if outcome is None or not getattr(outcome, "complete", False):
        reasons.append(R_INCOMPLETE)
    return (not reasons, reasons)


def duration_evidence(header: Any, total_minutes: float | None) -> tuple[bool, list[str]]:
    """(counts as duration evidence, reasons it does not).

    ``total_minutes`` comes from the game's timing (``Game.timing``) (None: no recorded
    times). Rule errors do not disqualify a duration: the table still took that long.
    """
    reasons = _base_reasons(header)
    if total_minutes is None or total_minutes <= 0:
        reasons.append(R_NO_TIMES)
    return (not reasons, reasons)
