"""Core rules §11 Final scoring, with §5 Claim strength and the shared World Ending.

1. Lose one Mandate per offline Facility (never below zero).
2. Provisional winner: most Mandate; ties by Trust, Customers, Compute; else a joint victory.
3. Claims: a fully paid Dossier with Publication committed and >= 2 supported evidence modules
   is eligible; strength = Publication (1; 2 under The Universe Receives a Continuity Plan) +
   supported modules + Capability thresholds reached (3/6/9/12). The strongest forms AGI (ties
   by Mandate, Trust, Customers, Compute, then Initiative clockwise) and wins.
4. Open only if Collective Trust >= Setup Collective Trust + players and unresolved Systemic
   Risk < players. AGI x Open gives the World Ending.
"""

from __future__ import annotations

from typing import Any

from engine.core.findings import FindingSink
from engine.core.replay import Outcome
from engine.mandate2038.resources import score
from engine.mandate2038.rulings import option, used
from engine.mandate2038.state import GameState, SeatState
from schemas.mandate2038 import FinalRecord


def _rank_key(s: SeatState) -> tuple[int, int, int, int]:
    return (s.mandate, s.trust, s.customers, s.compute)


def claim_of(st: GameState, s: SeatState, blog_post: bool) -> dict[str, Any] | None:
    """The seat's Dossier claim (None when its Dossier was never revealed)."""
    hand = s.revealed_hand
    if hand is None:
        return None
    modules = 0
    why: list[str] = []
    for card, ok, test in (
            ("benchmark", s.capability >= 3, f"Capability {s.capability} >= 3"),
            ("deployment", s.powered_count() >= 2,
             f"{s.powered_count()} Facilities powered in the final Production >= 2"),
            ("authority", s.trust >= 4, f"Trust {s.trust} >= 4")):
        if hand.get(card) != "commit":
            why.append(f"{card.capitalize()} not committed")
        elif ok:
            modules += 1
            why.append(f"{card.capitalize()} supported ({test}): +1")
        else:
            why.append(f"{card.capitalize()} committed but unsupported (not {test})")
    publication = hand.get("publication") == "commit"
    paid = bool(s.dossier_paid)
    eligible = publication and paid and modules >= 2
    reached = [t for t, _m in st.c.cap_thresholds if s.capability >= t]
    thresholds = len(reached)
    strength = ((2 if blog_post else 1) + modules + thresholds) if eligible else 0
    if not publication:
        explain = "Publication not committed: no claim"
    elif not paid:
        explain = "the Dossier was not fully paid: no eligible claim"
    elif modules < 2:
        explain = (f"only {modules} supported evidence module(s), two needed: no eligible claim ("
                   + "; ".join(why) + ")")
    else:
        explain = (f"Publication +{2 if blog_post else 1}"
                   + (" (AGI Blog Post applies)" if blog_post else "") + "; " + "; ".join(why)
                   + f"; Capability thresholds reached {reached or 'none'}: +{thresholds}"
                   + f" = {strength}")
    return {"seat": s.seat, "publication": publication, "paid": paid,
            "modules_supported": modules, "eligible": eligible, "strength": strength,
            "explain": explain}


def compute_final(st: GameState, sink: FindingSink, rec: FinalRecord | None = None) -> None:
    """Run final scoring once (offline penalty into the ledger) and build the outcome."""
    if st.final_done:
        return
    st.final_done = True
    st.phase = "final_scoring"
    power_known = st.power_known_era == 4 or not st.partial
    offline: dict[int, int] = {}
    for s in st.seats:
        if power_known:
            k = sum(1 for f in s.facilities.values() if not f.powered)
        elif rec is not None and rec.offline is not None:
            k = rec.offline.get(s.seat, 0)
        else:
            k = 0
        offline[s.seat] = k
        loss = min(s.mandate, k * st.c.scoring.offline_penalty)
        s.offline_penalty = loss
        if loss:
            score(st, s, -loss, "offline_penalty", f"{k} offline Facilities")
    best = max(_rank_key(s) for s in st.seats)
    provisional = [s.seat for s in st.seats if _rank_key(s) == best]
    blog = any(e == 4 and h == "agi_blog_post" for e, _c, h in st.headlines_seen)
    claims = []
    for s in st.seats:
        cl = claim_of(st, s, blog)
        if cl is not None:
            claims.append(cl)
            st.rows["claims"].append({k: v for k, v in cl.items() if k != "explain"})
    eligible = [cl for cl in claims if cl["eligible"]]
    claimant = None
    ranked: list[dict[str, Any]] = []
    tie_order: list[int] | None = None
    # a partial log may lack the reveal, or the final Production that decides the Deployment
    # module: then the table's claimant is taken and only its consequences are checked
    deployment_unknown = not power_known and any(
        s.revealed_hand is not None and s.dossier_paid
        and s.revealed_hand.get("deployment") == "commit"
        and s.revealed_hand.get("publication") == "commit"
        for s in st.seats)
    claims_known = (st.dossier_revealed or not st.partial) and not deployment_unknown
    if eligible and claims_known:
        # ruling final-claim-initiative: whether the last cycle's pass happens first
        after_pass = option(st, "final-claim-initiative") == "after-last-pass"
        order = st.order_from(st.initiative % st.n + 1) if after_pass else st.initiative_order()

        def key(cl: dict[str, Any]) -> tuple[int, int, int, int, int, int]:
            s = st.seats[cl["seat"] - 1]
            return (cl["strength"], s.mandate, s.trust, s.customers, s.compute,
                    -order.index(s.seat))

        ranked = sorted(eligible, key=key, reverse=True)
        if len(ranked) > 1 and key(ranked[0])[:5] == key(ranked[1])[:5]:
            used(st, "final-claim-initiative")  # the tie reached Initiative-clockwise order
            tie_order = order
        claimant = ranked[0]["seat"]
    elif not claims_known and rec is not None and rec.claimant is not None:
        claimant = rec.claimant
    agi = claimant is not None
    winners = [claimant] if claimant is not None else provisional
    ct = sum(s.trust for s in st.seats)
    threshold = st.setup_trust + st.n
    sr = st.systemic_risk_final if st.systemic_risk_final is not None else st.black
    is_open = ct >= threshold and sr < st.n
    ending = st.c.endings.get((agi, is_open))
    st.final = {
        "offline": offline, "provisional_winners": provisional, "claims": claims,
        "claimant": claimant, "agi": agi, "winners": winners, "collective_trust": ct,
        "open_threshold": threshold, "systemic_risk": sr, "open": is_open,
        "ending": ending.id if ending is not None else None, "claims_known": claims_known,
        "ranked": ranked, "tie_order": tie_order,
    }
    st.outcome = Outcome(
        complete=True, provisional_winners=provisional, winners=winners,
        ending=st.final["ending"],
        details={
            "agi": agi, "claimant": claimant,
            "claims": [{"seat": c["seat"], "strength": c["strength"], "eligible": c["eligible"]}
                       for c in claims],
            "collective_trust": ct, "setup_collective_trust": st.setup_trust,
            "open_threshold": threshold, "trust_margin": ct - threshold, "systemic_risk": sr,
            "systemic_risk_limit": st.n, "open": is_open,
            "final_mandate": {s.seat: s.mandate for s in st.seats},
        },
    )


def _claim_order(st: GameState) -> str:
    """How the eligible claims compare (strength, then the tie breakers), for a message."""
    f = st.final
    parts = []
    for cl in f.get("ranked", []):
        s = st.seats[cl["seat"] - 1]
        parts.append(f"seat {s.seat} strength {cl['strength']}, Mandate {s.mandate}, Trust "
                     f"{s.trust}, Customers {s.customers}, Compute {s.compute}")
    if not parts:
        return ""
    text = " (" + "; ".join(parts) + ")"
    if f.get("tie_order"):
        text += (f"; a full tie goes to Initiative-clockwise order {f['tie_order']} "
                 f"(ruling final-claim-initiative={option(st, 'final-claim-initiative')})")
    return text


def compare_record(st: GameState, rec: FinalRecord, sink: FindingSink) -> None:
    """Compare the table's final public record with the engine's result, field by field."""
    f = st.final
    agi_wrong = rec.agi is not None and rec.agi != f["agi"]
    open_wrong = rec.open is not None and rec.open != f["open"]
    claimant_wrong = (rec.claimant is not None and rec.claimant != f["claimant"]
                      and f["claims_known"])
    if rec.offline is not None:
        for seat, k in sorted(rec.offline.items()):
            exp = f["offline"].get(seat)
            if exp is not None and exp != k:
                sink.report("final/offline-penalty",
                            f"seat {seat} recorded {k} offline Facilities; the latest Production "
                            f"snapshot leaves {exp} offline", seat=seat, expected=exp, recorded=k)
    if rec.collective_trust is not None and rec.collective_trust != f["collective_trust"]:
        sink.report("final/collective-trust",
                    f"Collective Trust recorded {rec.collective_trust}; the players' final Trust "
                    f"totals {f['collective_trust']}", expected=f["collective_trust"],
                    recorded=rec.collective_trust)
    if rec.open_threshold is not None and rec.open_threshold != f["open_threshold"]:
        sink.report("final/collective-trust",
                    f"Open threshold recorded {rec.open_threshold}; Setup Collective Trust "
                    f"{st.setup_trust} + {st.n} players = {f['open_threshold']}",
                    expected=f["open_threshold"], recorded=rec.open_threshold)
    if rec.systemic_risk is not None and rec.systemic_risk != f["systemic_risk"]:
        sink.report("final/systemic-risk",
                    f"unresolved Systemic Risk recorded {rec.systemic_risk}; the bag held "
                    f"{f['systemic_risk']} black cubes after the final Audit",
                    expected=f["systemic_risk"], recorded=rec.systemic_risk)
    if rec.provisional_winners is not None and sorted(rec.provisional_winners) != sorted(
            f["provisional_winners"]):
        sink.report("final/provisional-winner",
                    f"provisional winner recorded {sorted(rec.provisional_winners)}; Mandate "
                    "with the tie breakers (Trust, Customers, Compute) gives "
                    f"{f['provisional_winners']}", expected=f["provisional_winners"],
                    recorded=sorted(rec.provisional_winners),
                    involves=_apart(rec.provisional_winners, f["provisional_winners"]))
    if rec.claims is not None and f["claims_known"]:
        mine = {c["seat"]: c["strength"] for c in f["claims"] if c["eligible"]}
        why = {c["seat"]: c.get("explain", "") for c in f["claims"]}
        for cr in rec.claims:
            exp = mine.get(cr.seat, 0)
            if exp != cr.strength:
                sink.report("final/claim-strength",
                            f"seat {cr.seat}'s claim strength recorded {cr.strength}; the rules "
                            f"give {exp}" + ("" if cr.seat in mine else " (not an eligible claim)")
                            + (f": {why[cr.seat]}" if why.get(cr.seat) else ""),
                            seat=cr.seat, expected=exp, recorded=cr.strength)
    if rec.agi is not None and rec.agi != f["agi"]:
        if rec.agi and f["claims_known"]:
            sink.report("final/agi-unsupported",
                        "AGI was recorded, but no fully paid Publication claim has two supported "
                        "evidence modules", expected=False, recorded=True)
        else:
            sink.report("final/agi", f"AGI recorded as {'emerging' if rec.agi else 'not emerging'};"
                        f" the claims give {'emergence' if f['agi'] else 'no emergence'}",
                        expected=f["agi"], recorded=rec.agi)
    if claimant_wrong and not agi_wrong:
        sink.report("final/claimant", f"the strongest claimant recorded is seat {rec.claimant}; "
                    f"the claim comparison gives {f['claimant']}" + _claim_order(st),
                    expected=f["claimant"], recorded=rec.claimant)
    # a winner or ending that follows from an already reported AGI / Open error is no new error
    follows = claimant_wrong and rec.claimant is not None and rec.winners == [rec.claimant]
    if rec.winners is not None and sorted(rec.winners) != sorted(f["winners"]) and not follows:
        sink.report("final/winner",
                    f"final winner recorded {sorted(rec.winners)}; the rules give {f['winners']}",
                    expected=f["winners"], recorded=sorted(rec.winners),
                    involves=_apart(rec.winners, f["winners"]))
    if rec.open is not None and rec.open != f["open"]:
        sink.report("final/open",
                    f"recorded {'Open' if rec.open else 'Closed'}; Collective Trust "
                    f"{f['collective_trust']} vs {f['open_threshold']} and Systemic Risk "
                    f"{f['systemic_risk']} vs {st.n} give {'Open' if f['open'] else 'Closed'}",
                    expected=f["open"], recorded=rec.open)
    implied = st.c.endings.get((rec.agi if rec.agi is not None else f["agi"],
                                rec.open if rec.open is not None else f["open"]))
    follows = (agi_wrong or open_wrong) and implied is not None and rec.ending == implied.id
    if rec.ending is not None and rec.ending != f["ending"] and not follows:
        sink.report("final/world-ending",
                    f"World Ending recorded {rec.ending}; AGI {f['agi']} and "
                    f"{'Open' if f['open'] else 'Closed'} give {f['ending']}",
                    expected=f["ending"], recorded=rec.ending)


def _apart(recorded: list[int], expected: list[int]) -> tuple[int, ...]:
    """The seats the table and the rules disagree on: what a slip must have put in doubt to
    explain the difference (engine.core.findings, provenance)."""
    return tuple(sorted(set(recorded) ^ set(expected)))
