"""Vestige's designer loop (engine.core.game.DesignerLoop; docs/variants.md): the numbers a
rules variant may change (:data:`KNOBS`, paths of :func:`engine.vestige.content.values`), one
study game under a variant (:func:`play`) and the study's metrics (:data:`METRICS`).

A study's game ``i`` is the simulator's game ``i`` of the study's seed (engine/vestige/
simulate.py): the same deal under every variant (common seeds). Its table is set by ``i``:
two games in four competitive, one co-op against Bone, one co-op against Dunecrest or Happy
(in turn), so that a study measures every mode and nemesis the simulator plays.

Each metric is a ratio over games (``num``/``den`` per game, ingest/study.py): a rate (a seat's
wins per competitive game), a share (each ending per game; each leverage source's share of
all leverage gained) or a mean (rounds per game).
"""

from __future__ import annotations

from typing import Any

from engine.core.game import Knob

P = "the Vestige rulebook"
KNOBS: tuple[Knob, ...] = (
    Knob("endgame_needed", "stated.endgame_needed", 1, 5,
         f"{P} p. 25 Endgame Conditions: conditions revealed that end the game (printed 2)"),
    Knob("chop_shop_leverage", "stated.chop_shop_leverage", 0, 8,
         f"{P} p. 17 Gaining Control of a Region: the Chop Shop's leverage (printed 2)"),
    Knob("ingenuity_mastery", "stated.ingenuity_mastery", 0, 14,
         f"{P} p. 25 Claim Mastery: the purple ingenuity tile's leverage (printed 7)"),
    Knob("bone_goal_regions", "stated.bone_goal_regions", 1, 19,
         f"{P} p. 27 Example Nemesis: Bone: the regions Bone's goal needs"),
    Knob("region_leverage", "region_leverage.*", 0, 8,
         f"{P} p. 17 Control Regions: a region's leverage (declared but the Chop Shop's)"),
    Knob("mastery_leverage", "mastery_leverage.*", 0, 14,
         f"{P} p. 25 Claim Mastery: a mastery tile's leverage (declared)"),
)

#: the modes and nemeses a study's games cycle through (game index mod 4)
TABLES: tuple[tuple[str, str | None], ...] = (
    ("competitive", None), ("competitive", None), ("coop", "bone"), ("coop", "other"))
OTHER_NEMESES = ("dunecrest", "happy")
MAX_SEATS = 4


def metric_labels(vocabulary: Any) -> dict[str, str]:
    """Metric id -> what it measures (``playtest compare``'s rows), in the words of
    ``vocabulary`` (the declaration's: its endings and leverage sources)."""
    out = {f"win_seat_{k}": f"Win rate of turn-order seat {k} (competitive games; a shared "
           "win counts a share)" for k in range(1, MAX_SEATS + 1)}
    out |= {"decided_competitive": "Competitive games with a winner (not a tie)",
            "won_coop": "Co-op games the players win"}
    out |= {f"won_vs_{n}": f"Co-op games won against {n.capitalize()}"
            for n in ("bone", *OTHER_NEMESES)}
    out |= {f"ending_{e}": f"Games ending: {label}"
            for e, label in vocabulary.end_conditions.items()}
    out |= {f"leverage_{s}": f"Share of leverage gained from {label}"
            for s, label in vocabulary.score_sources.items()}
    out |= {"rounds": "Game length (rounds per game)",
            "leverage_per_seat": "Leverage gained per seat per game"}
    return out


def table_of(index: int) -> tuple[str, str | None]:
    """The mode and nemesis of a study's game ``index``."""
    mode, nemesis = TABLES[index % len(TABLES)]
    if nemesis == "other":
        nemesis = OTHER_NEMESES[(index // len(TABLES)) % len(OTHER_NEMESES)]
    return mode, nemesis


def play(seed: str, index: int, players: int, variant: Any) -> dict[str, list[dict[str, Any]]]:
    """Study game ``index`` of ``seed`` at ``players`` seats under ``variant`` (a stamp or
    None): its ``games``, ``seats`` and ``metrics`` rows."""
    from engine.core.replay import replay
    from engine.vestige.simulate import simulate_one

    mode, nemesis = table_of(index)
    log = simulate_one(seed, index, players, "mixed", mode=mode, nemesis=nemesis,
                       variant=variant)
    result = replay(log.header, log.events)
    out = result.outcome
    winners = list(out.winners) if out is not None else []
    ending = out.ending if out is not None else None
    rounds = int((out.details if out is not None else {}).get("rounds") or 0)
    gid = str(log.header.game_id)
    n = len(log.header.seats)
    first = log.header.first_player or 1
    m: dict[str, tuple[float, float]] = {}
    if mode == "competitive":
        for s in log.header.seats:
            k = (s.seat - first) % n + 1
            m[f"win_seat_{k}"] = (1.0 / len(winners) if s.seat in winners else 0.0, 1.0)
        m["decided_competitive"] = (1.0 if winners else 0.0, 1.0)
    else:
        won = 1.0 if winners else 0.0
        m["won_coop"] = (won, 1.0)
        m[f"won_vs_{nemesis}"] = (won, 1.0)
    from engine.vestige.ruleset import VOCABULARY

    ids = metric_labels(VOCABULARY)
    for e in (i.removeprefix("ending_") for i in ids if i.startswith("ending_")):
        m[f"ending_{e}"] = (1.0 if ending == e else 0.0, 1.0)
    gained: dict[str, float] = {}
    for entry in result.ledger:
        if entry.amount > 0:
            gained[entry.source] = gained.get(entry.source, 0.0) + entry.amount
    total = sum(gained.values())
    for src in (i.removeprefix("leverage_") for i in ids if i.startswith("leverage_")
                and i != "leverage_per_seat"):
        m[f"leverage_{src}"] = (gained.get(src, 0.0), total)
    m["rounds"] = (float(rounds), 1.0)
    m["leverage_per_seat"] = (total, float(n))
    final = (out.details if out is not None else {}).get("final_leverage", {})
    return {
        "games": [{"game_id": gid, "mode": mode, "nemesis": nemesis, "players": n,
                   "ending": ending, "winners": len(winners), "rounds": rounds,
                   "events": len(log.events), "complete": bool(out and out.complete)}],
        "seats": [{"game_id": gid, "seat": s.seat, "turn_order": (s.seat - first) % n,
                   "colour": s.faction, "bot": s.player, "won": s.seat in winners,
                   "leverage": int(final.get(s.seat, final.get(str(s.seat), 0)) or 0)}
                  for s in log.header.seats],
        "metrics": [{"game_id": gid, "metric": k, "num": v[0], "den": v[1]}
                    for k, v in m.items()],
    }
