"""Ledger steps: what changed each seat's values since its last checkpoint, and which rule
produced each change, so that a ``checkpoint/mismatch`` cites the rule behind the engine's
number (the Customer's score, a threshold, an overflow cube's Runway, a Production's
Scrutiny...) and says which step or effect produced it, not only "checkpoints".

The resource helpers (``resources.py``) call :func:`step`; ``ruleset.apply`` sets the event
being applied in the game state (``GameState.cause``: event index and type, one tuple per
event, shared by every step it records); Production and overflow set a more specific cause.
Nothing here is module state: two replays never share a cursor.
"""

from __future__ import annotations

from typing import Any

S = "core rules §"
#: the cause (event type or a specific effect) -> the rule it applies
RULES: dict[str, str] = {
    "fund": f"{S}7 Core Actions, Fund",
    "research": f"{S}7 Core Actions, Research", "draw": f"{S}7 Core Actions, Research",
    "run_end": f"{S}7 Core Actions, Research",
    "build": f"{S}7 Core Actions, Build", "organize": f"{S}7 Core Actions, Organize",
    "deploy": f"{S}7 Core Actions, Deploy", "influence": f"{S}7 Core Actions, Influence",
    "mega_cluster": f"{S}5 Four-Era progression, Era II, Mega-Cluster",
    "reorganization": f"{S}5 Four-Era progression, Era II, Reorganization",
    "covenant": f"{S}5 Four-Era progression, Era III, Public Capability Covenant",
    "narrative_capture": f"{S}5 Four-Era progression, Era III, Narrative Capture",
    "agent_swarm": f"{S}5 Four-Era progression, Era IV, Agent Swarm",
    "fusion": f"{S}5 Four-Era progression, Era IV, Fusion Demonstrator",
    "trade": f"{S}6 Era sequence, B. Immediate resource trade",
    "headline": f"{S}9 Printed card authorities (the Headline's printed effect)",
    "allocation_window": f"{S}9 Printed card authorities (Faction ability: Allocation Window)",
    "emergency_pause": f"{S}9 Printed card authorities (Faction ability: Emergency Pause)",
    "era_start": f"{S}6 Era sequence, A. Begin the quarter",
    "production": f"{S}6 Era sequence, C. Power and Production",
    "generate": f"{S}6 Era sequence, C.1 Generate (one Scrutiny for every Emergency Power Complex)",
    "produce": f"{S}6 Era sequence, C.4 Produce (powered Facilities, one Runway per Customer, Mega-Clusters)",
    "customers": f"{S}6 Era sequence, C.4 Produce (one Runway per Customer)",
    "partner": f"{S}6 Era sequence, C.5 Partner (active Joint Ventures)",
    "dossier_reveal": f"{S}5 Four-Era progression, Era IV, The secret AGI Dossier",
    "audit": f"{S}6 Era sequence, E. Public Audit",
    "overflow": f"{S}6 Era sequence, E. Public Audit (a cube required when all ten are in the bag: lose one Runway, else one Trust)",
    "era_mandate": f"{S}6 Era sequence, F. Score the Mandate",
    "customer": f"{S}3 Resources, Customers (#1–3 score two Mandate, #4–5 one)",
    "capability_threshold": f"{S}3 Resources, Mandate (two the first time Capability reaches 3, 6, 9, 12)",
    "trust_threshold": f"{S}3 Resources, Mandate (two the first time Trust reaches 2, 4, 6)",
    "faction_ability": f"{S}9 Printed card authorities (Faction ability)",
    "offline_penalty": f"{S}11 Final scoring, step 2 (lose one Mandate for each offline Facility)",
    "final_record": f"{S}11 Final scoring",
    "temporary_compute": f"{S}9 Printed card authorities (Allocation Window: temporary Compute left anywhere at cycle end is gone)",
    "starting": f"{S}1 Setup, step 7 (each Faction's already-earned public Mandate)",
    "workforce_move": f"{S}10 Map and component reference (Workforce Transition District)",
    # costs the rules waived or lowered: a zero step, so that a table that paid anyway is
    # explained by the rule that waived it
    "deploy_waived": f"{S}7 Core Actions, Deploy (no Compute: Human Access District, Installed Base or the Headline)",
    "compute_estate_discount": f"{S}10 Map reference, Compute Estate (the first Compute cost of the action resolved here is 1 lower)",
}

#: causes whose amount the table may get wrong (a tie scored as a win...): a mismatch with no
#: step of its size is blamed on the latest such step when the table's amount has its sign
AMOUNT_CAUSES = frozenset({"era_mandate"})

def step(st: Any, s: Any, field: str, delta: int, why: str | None = None) -> None:
    """Record that ``field`` of seat ``s`` changed by ``delta``, caused by the game's current
    cause (``st.cause``) or by ``why`` (a specific effect) at the same event."""
    if delta:
        s.steps.append((field, delta, st.cause if why is None else (st.cause[0], why)))


def set_cause(st: Any, why: str | None) -> None:
    """Name a specific effect (``generate``, ``produce``...) as the cause of the steps that
    follow within the current event; None goes back to the event itself."""
    st.cause = st.event_cause if why is None else (st.event_cause[0], why)


def explain(s: Any, field: str, engine_value: int, table_value: int) -> tuple[str | None, str]:
    """The rule most likely behind a mismatch of ``field`` and a sentence listing the steps
    since the seat's last checkpoint: (rule or None, text).

    Steps of one event and cause count as one (a Venture's two Scrutiny cubes are added one at a
    time). The step at issue is the latest one the size of the difference (the table evidently
    did not make it); else a waived or lowered cost (a zero step) when the table is lower (it
    paid anyway); else the latest step of a cause whose amount the table may have misread
    (:data:`AMOUNT_CAUSES`) when the table's amount keeps its sign."""
    raw = [x for x in s.steps if x[0] == field]
    if not raw:
        return None, ""
    steps: list[tuple[str, int, Any]] = []
    for x in raw:  # group consecutive steps of one event and cause
        if steps and steps[-1][2] == x[2] and x[1] and steps[-1][1]:
            steps[-1] = (field, steps[-1][1] + x[1], x[2])
        else:
            steps.append(x)
    diff = engine_value - table_value
    shown = [x for x in steps if x[1]]
    # plain loops, not next() over reversed(): the compiled engine's mypyc fails on the latter
    blamed: tuple[str, int, Any] | None = None
    for x in shown[::-1]:
        if x[1] == diff:
            blamed = x
            break
    how = ""
    if blamed is None and diff > 0:
        for x in steps[::-1]:
            if x[1] == 0:
                blamed = x
                break
        if blamed is not None:
            how = f"; the table paid {diff} the rules waive here"
    if blamed is None:
        for x in shown[::-1]:
            if x[2][1] in AMOUNT_CAUSES and (x[1] - diff) * x[1] > 0:
                blamed = x
                break
        if blamed is not None:
            how = f"; the table evidently counted {blamed[1] - diff:+d} for it"
    parts = [f"{d:+d} {'at setup' if e is None else f'at event {e}'} "
             f"({RULES.get(k, k).removeprefix('core rules ')})"
             for (_f, d, (e, k)) in shown[-6:]]
    more = f"{len(shown) - 6} earlier step(s), then " if len(shown) > 6 else ""
    text = f"; the engine's {field} since the last checkpoint: {more}{', '.join(parts)}"
    if blamed is None:
        return None, text + "; no single step accounts for the difference"
    rule = RULES.get(blamed[2][1])
    at = "at setup" if blamed[2][0] is None else f"at event {blamed[2][0]}"
    return rule, (text + f"; the step at issue: {blamed[1]:+d} {at}"
                  + (f" ({rule})" if rule else "") + how)
