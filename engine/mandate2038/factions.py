"""Core rules §9 Printed card authorities: Faction abilities (FACTS.md §3).

Abilities are read from the content pack (id, unlock Era, timing, persists). This module answers
"may this seat use this ability now?" and records each use; the effects themselves live with the
rule they modify (Research, Build, Deploy, trades, Production, ...).
"""

from __future__ import annotations

from engine.core.findings import FindingSink
from engine.mandate2038.state import GameState, SeatState


def ability(st: GameState, s: SeatState, ability_id: str):  # type: ignore[no-untyped-def]
    """The seat's ability ``ability_id`` from the pack, or None when its faction lacks it."""
    return st.c.ability_of.get((s.faction, ability_id))


def unavailable(st: GameState, s: SeatState, ability_id: str) -> tuple[str, str] | None:
    """Why the seat may not use ``ability_id`` now, as (code, reason); None when it may."""
    a = ability(st, s, ability_id)
    if a is None:
        return ("ability/not-your-faction",
                f"seat {s.seat} ({s.faction}) has no ability {ability_id!r}")
    if st.era < a.era:
        return ("ability/locked", f"{a.name} unlocks in Era {a.era}; this is Era {st.era}")
    if not a.persists and st.era != a.era:
        return ("ability/used-up", f"{a.name} is available in Era {a.era} only")
    used = s.ability_uses.get(ability_id, ())
    if a.timing == "once_per_era" and st.era in used:
        return ("ability/used-up", f"{a.name} was already used this Era")
    if a.timing in ("once_per_game", "once_when_unlocked") and used:
        return ("ability/used-up", f"{a.name} was already used (once per game)")
    return None


def has_active(st: GameState, s: SeatState, ability_id: str) -> bool:
    """The seat may use ``ability_id`` now (its faction, unlocked, not used up).

    Exactly ``unavailable(...) is None``, without formatting the reasons (a hot check)."""
    a = st.c.ability_of.get((s.faction, ability_id))
    if a is None:
        return False
    era = st.era
    if era < a.era or (not a.persists and era != a.era):
        return False
    timing = a.timing
    if timing == "once_per_era":
        return era not in s.ability_uses.get(ability_id, ())
    if timing in ("once_per_game", "once_when_unlocked"):
        return not s.ability_uses.get(ability_id)
    return True


def use(st: GameState, s: SeatState, ability_id: str) -> None:
    """Record one use of the ability in this Era."""
    s.ability_uses.setdefault(ability_id, []).append(st.era)


def check_use(
    st: GameState, s: SeatState, ability_id: str, sink: FindingSink, code: str | None = None
) -> bool:
    """Report why an ability the log says was used is not available (``code`` overrides the
    ability/* code); always record the use (the table did it). Returns legality."""
    why = unavailable(st, s, ability_id)
    if why is not None:
        sink.report(code or why[0], f"seat {s.seat}: {why[1]}", seat=s.seat)
    use(st, s, ability_id)
    return why is None
