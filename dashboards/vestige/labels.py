"""Vestige events and choices in the words a facilitator says at the table.

``event_label(ev)`` names one event (a schema model or its dict) as a sentence: "Seat 1 moves
to space 9 (reveals Obelisk at O4)", "Table draws the Artifact 'Sim artifact 1': 3 leverage,
pick up at Archives, complete at Black Dove, costs 2 Intrigue". Never the notation's raw
``key=value`` strings (those are for the log files). Ids become words (``black_dove`` -> Black
Dove); seats are named "Seat 2 (Green, Bo)" when the header's seats are given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: ids printed differently from their capitalised words
SPECIAL: dict[str, str] = {
    "chop_bot": "Chop Bot", "covert_op": "Covert op", "jump_point": "Jump Point",
    "coop": "Co-operative", "turn_end": "end of turn", "smugglers_lair": "Smugglers' Lair",
}


def words(value: Any) -> str:
    """An internal id in words: ``black_dove`` -> "Black Dove" (other values as text)."""
    if value is None:
        return "–"
    text = str(value)
    if text in SPECIAL:
        return SPECIAL[text]
    return text.replace("_", " ").strip().title() if text.islower() or "_" in text else text


def _get(ev: Any, name: str, default: Any = None) -> Any:
    if isinstance(ev, Mapping):
        return ev.get(name, default)
    return getattr(ev, name, default)


def _list(items: Any) -> str:
    named: list[str] = [words(i) for i in (items or [])]
    if not named:
        return "nothing"
    if len(named) == 1:
        return named[0]
    return ", ".join(named[:-1]) + " and " + named[-1]


def _counted(attrs: Any) -> str:
    """["cunning", "cunning", "might"] -> "2 Cunning and 1 Might"."""
    counts: dict[str, int] = {}
    for a in attrs or []:
        counts[str(a)] = counts.get(str(a), 0) + 1
    return _list([f"{n} {words(a)}" for a, n in counts.items()]) if counts else "nothing"


def _cost(cost: Any) -> str:
    if not cost:
        return "no cost"
    return _list([f"{n} {words(a)}" for a, n in dict(cost).items()])


def seat_name(seat: Any, seats: Mapping[int, str] | None = None) -> str:
    """"Seat 2 (Green, Bo)" when the header's seats are known, else "Seat 2"."""
    if seat is None:
        return "The table"
    who = (seats or {}).get(int(seat))
    return f"Seat {seat} ({who})" if who else f"Seat {seat}"


def printed_label(p: Any) -> str:
    """A card's printed values in words ("3 leverage, pick up at Archives, ...")."""
    if p is None:
        return ""
    parts: list[str] = []
    # what tells two printings apart first (jobs, where, cost), the shared values after
    if _get(p, "jobs"):
        parts.append(f"jobs: {_list(_get(p, 'jobs'))}")
    if _get(p, "pickup"):
        parts.append(f"pick up at {words(_get(p, 'pickup'))}")
    if _get(p, "complete_at"):
        parts.append(f"complete at {words(_get(p, 'complete_at'))}")
    if _get(p, "cost"):
        parts.append(f"costs {_cost(_get(p, 'cost'))}")
    lev = _get(p, "leverage")
    if lev is not None:
        parts.append(f"{lev} leverage")
    if _get(p, "attributes"):
        parts.append(f"gains {_list(_get(p, 'attributes'))}")
    if _get(p, "passive_at"):
        parts.append(f"passive at {_get(p, 'passive_at')} blocks")
    return ", ".join(parts)


def _reveals(tiles: Any) -> str:
    return _list([f"{words(_get(t, 'region'))} at {_get(t, 'position')}" for t in tiles or []])


def event_label(ev: Any, seats: Mapping[int, str] | None = None) -> str:
    """One Vestige event in words (see the module docstring)."""
    kind = _get(ev, "type")
    who = seat_name(_get(ev, "seat"), seats)
    card = _get(ev, "card")
    named = f"“{card}”" if card else ""
    if kind == "phase":
        return {"setup": "Setup begins", "setup_end": "Setup is finished",
                "final_scoring": "Final scoring begins", "game_end": "The game ends",
                "break": "Break", "resume": "Play resumes"}.get(_get(ev, "name"),
                                                                words(_get(ev, "name")))
    if kind == "card":
        printed = _get(ev, "printed")
        what = words(_get(printed, "kind")) if printed is not None else "Card"
        return f"{what} “{_get(ev, 'name')}”: {printed_label(printed)}"
    if kind == "seat_setup":
        bits = [f"starts on space {_get(ev, 'start')}"]
        if _get(ev, "setup_card"):
            bits.append(f"setup card “{_get(ev, 'setup_card')}”")
        if _get(ev, "chop_bot"):
            bits.append(f"Chop Bot “{_get(ev, 'chop_bot')}”")
        return f"{who} sets up: " + ", ".join(bits)
    if kind == "reveal":
        return f"Tiles revealed: {_reveals(_get(ev, 'tiles'))}"
    if kind == "display":
        text = f"{words(_get(ev, 'stack'))} {named} goes on display"
        detail = printed_label(_get(ev, "printed"))
        return f"{text}: {detail}" if detail else text
    if kind == "endgame_reveal":
        trig = _get(ev, "trigger")
        return (f"Endgame condition {named} revealed"
                + (f" (trigger {trig})" if trig else " at setup"))
    if kind == "round_start":
        return f"Round {_get(ev, 'round')} begins"
    if kind == "turn_start":
        return f"{who}'s turn begins"
    if kind == "turn_end":
        return f"{who} ends the turn"
    if kind == "activate":
        gain = _get(ev, "gain")
        return f"{who} activates {named}" + (f", gaining {_counted(gain)}" if gain else "")
    if kind == "move":
        path = list(_get(ev, "path") or [])
        text = f"{who} moves to space {path[-1]}" if path else f"{who} moves"
        if len(path) > 1:
            text += f" (via {', '.join(str(p) for p in path[:-1])})"
        if _get(ev, "reveals"):
            text += f", revealing {_reveals(_get(ev, 'reveals'))}"
        return text
    if kind == "visit":
        where = words(_get(ev, "region")) if _get(ev, "region") else "the region"
        text = f"{who} visits {where} at {_get(ev, 'position')}"
        if (_get(ev, "times") or 1) > 1:
            text += f" {_get(ev, 'times')} times"
        bits = []
        if _get(ev, "gain"):
            bits.append(f"gains {_counted(_get(ev, 'gain'))}")
        if _get(ev, "spend"):
            bits.append(f"spends {_counted(_get(ev, 'spend'))}")
        if _get(ev, "upgrades"):
            bits.append(f"upgrades {_list(_get(ev, 'upgrades'))}")
        if _get(ev, "downgrades"):
            bits.append(f"downgrades {_list(_get(ev, 'downgrades'))}")
        if _get(ev, "contact"):
            bits.append(f"meets a {words(_get(ev, 'contact'))}")
        if _get(ev, "swap"):
            bits.append(f"swaps with {_get(ev, 'swap')}")
        return text + (": " + ", ".join(bits) if bits else "")
    if kind == "rest":
        return f"{who} rests and upgrades {words(_get(ev, 'upgrade'))}"
    if kind == "draw":
        text = f"{who} draws {words(_get(ev, 'stack'))} {named}"
        if _get(ev, "source") and _get(ev, "source") != "stack":
            text += f" from the {_get(ev, 'source')}"
        return text
    if kind == "pickup":
        return (f"{who} picks up the {words(_get(ev, 'stack'))} job {named} for "
                f"“{_get(ev, 'assignee')}”" + (f" at {_get(ev, 'at')}" if _get(ev, "at") else ""))
    if kind == "roll":
        return (f"{who} {'re-rolls' if _get(ev, 'reroll') else 'rolls'} the outcome die: "
                f"{words(_get(ev, 'face'))}")
    if kind == "complete":
        text = f"{who} completes {named}"
        if _get(ev, "pay"):
            text += f", paying {_cost(_get(ev, 'pay'))}"
        if _get(ev, "upgrade"):
            text += f", upgrading {words(_get(ev, 'upgrade'))}"
        if _get(ev, "attach_to"):
            text += f", attached to “{_get(ev, 'attach_to')}”"
        return text
    if kind == "convert":
        return (f"{who} converts {_list(_get(ev, 'spend'))}"
                + (f" into {words(_get(ev, 'into'))}" if _get(ev, "into") else ""))
    if kind == "recover":
        return f"{who} recovers {_get(ev, 'n') or 1} from {words(_get(ev, 'source'))}"
    if kind == "control":
        text = f"{who} takes control of {_get(ev, 'position')}"
        return text + (f", swapping it with {_get(ev, 'swap')}" if _get(ev, "swap") else "")
    if kind == "speed_boost":
        return f"{who} boosts speed by downgrading {words(_get(ev, 'downgrade'))}"
    if kind == "reset":
        return f"{who} resets the {words(_get(ev, 'action'))} action"
    if kind == "effect":
        text = f"{who} uses the effect of {named} ({words(_get(ev, 'via'))})"
        return text + (f": {_get(ev, 'leverage')} leverage" if _get(ev, "leverage") else "")
    if kind == "attach":
        to = _get(ev, "to")
        return f"{who} attaches {named} to “{to}”" if to else f"{who} detaches {named}"
    if kind == "covert_op":
        if _get(ev, "action") == "draw":
            return f"{who} draws a covert op" + (f" {named}" if card else "")
        return f"{who} completes the covert op {named}".rstrip() + (
            f" for {_get(ev, 'leverage')} leverage" if _get(ev, "leverage") else "")
    if kind == "transfer":
        return f"{who} gives {named} to {seat_name(_get(ev, 'to'), seats)}"
    if kind == "trigger":
        return f"{who} reaches trigger point {_get(ev, 'point')}"
    if kind == "endgame_met":
        return f"Endgame condition {named} is met"
    if kind == "nemesis_turn":
        return (f"Nemesis {words(_get(ev, 'nemesis'))} takes its turn at threat "
                f"{_get(ev, 'threat')}" + (f", {_get(ev, 'leverage')} leverage"
                                          if _get(ev, "leverage") else ""))
    if kind == "nemesis_gain":
        return f"Nemesis {words(_get(ev, 'nemesis'))} gains {_get(ev, 'leverage') or 0} leverage"
    if kind == "threat_removed":
        return f"{who} removes the threat {named} of {words(_get(ev, 'nemesis'))}"
    if kind == "final_scoring":
        winners = _get(ev, "winners")
        if winners is None:
            return "Final scores recorded"
        return "Final scores recorded: " + ("everyone lost" if not winners else
                                            "won by " + _list([f"seat {w}" if str(w).isdigit()
                                                               else w for w in winners]))
    if kind == "checkpoint":
        return "Table values checked" + (f" ({_get(ev, 'label')})" if _get(ev, "label") else "")
    if kind == "observation":
        return f"Observation ({words(_get(ev, 'category'))}): {_get(ev, 'text')}"
    if kind == "survey":
        return f"Survey answer {words(_get(ev, 'item'))}: {_get(ev, 'value')}"
    return words(kind) if kind else "An event"


def intent_label(key: str) -> str:
    """An option that records nothing (the engine's ``Pass``/``Intent``), by its key."""
    head, _, rest = str(key).partition(":")
    if head == "pass" and rest.startswith("covert") and rest[6:].isdigit():
        return f"Seat {rest[6:]}'s covert op is not completed"
    if head == "pass":
        return f"Not met: “{rest}”" if rest else "Pass"
    if head == "complete":
        return f"Roll to complete the job “{rest}”" if rest else "Roll to complete a job"
    if head == "reroll":
        return "Re-roll the outcome die"
    return f"{words(head)}{': ' + rest if rest else ''}"


def decision_label(kind: str, label: str) -> str:
    """The decision's heading ("Setup: Chop Bot dealt", "Seat 1's turn")."""
    return {"setup chop bot": "Setup: which Chop Bot card was dealt?",
            "seat setup": "Setup: a seat takes its place",
            "setup covert op": "Setup: a covert op is drawn",
            "setup reveal": "Setup: the first tiles are revealed",
            "setup endgame": "Setup: an endgame condition is revealed",
            "display": "Which card went on display?",
            "market": "Which card went to the market?",
            "round": "A new round", "turn": "Next turn",
            "endgame condition": "Is this endgame condition met?"}.get(label, label)
