"""Profile bots: a strategy profile (data) played by a greedy or weighted policy.

The designers' lab scores every legal decision of a player as a product of multipliers read
from the player's profile (their ``weighted-policy``): the weight of the decision's action, the
weights of option-id prefixes, conditional rules on what the player observes, consequence
weights, and resource values for trades. ``greedy`` takes the top score (ties broken by the
bot's seeded generator); ``weighted`` draws in proportion to score. :class:`ProfileBot` does the
same over our legal moves, with our option ids (``docs/simulator.md`` lists them):

* Selection: ``select_<pick>``, scored by the pick's action weight and the rules.
* Turn: trades first, as in the lab (a "no trade" choice weighs 2, or 0.01 when the action
  cannot resolve without one; an offer weighs 1.2 x the resource-value multiplier, x8 when it
  makes the action possible), then the resolutions: ``fund_venture``,
  ``build_facility_<tile category>``, ``build_generator_<generator>``, ``deploy_<category>``,
  ``influence_gain_trust``, ``influence_remove_scrutiny``, ``influence_jv``, ... each scored by
  decision weights, rules and consequences (powered Facilities, Power demand).
* Training Run: as in the lab, a stopping point k (1..5) is chosen when the run starts, weighted
  by ``research_stop_<k>``; the bot draws until the run's provisional Capability reaches k, then
  banks (a profile may instead give ``training``: bank at ``stop_at`` or when a duplicate is at
  least ``max_risk`` likely).
* Dossier (the hedging policy): Commit only a claim that is supported now (Benchmark: Capability
  >= 3; Deployment: 2 powered Facilities; Authority: Trust >= 4; Publication: at least two
  supported committed claims) and payable (Compute for every Commit so far and this one);
  otherwise Hedge. A supported, payable Commit weighs 2 x ``agi_dossier_commit``; a dead one 0.02.
* Negotiation: a rival answers a trade by its own resource values (accepts when what it gets is
  worth at least what it gives) and a Joint Venture by its own promise weight (accepts with
  probability promise / (1 + promise), from its own generator). Only the option matching the
  rival's answer is offered to the acting bot.

No I/O: profiles arrive validated (``schemas.mandate2038.profiles``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.core.ruleset import Pass
from engine.mandate2038.board import DISTANCE
from engine.mandate2038.bots import _crash_risk
from engine.mandate2038.content import DOSSIER_CARDS
from engine.mandate2038.state import GameState, SeatState

PROFILE_BOT_VERSION = "2"
STOP_TARGETS = (1, 2, 3, 4, 5)  # a Training Run's stopping points (provisional Capability)
NO_TRADE_WEIGHT = 2.0
NO_TRADE_BLOCKED_WEIGHT = 0.01
TRADE_OFFER_WEIGHT = 1.2
ENABLING_TRADE_MULTIPLIER = 8.0
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b, "gt": lambda a, b: a > b, "gte": lambda a, b: a >= b,
}
_NONE = object()  # the "no trade" choice of the first stage of a turn


def observe(st: GameState, s: SeatState) -> dict[str, Any]:
    """What a profile's rule conditions may read (``schemas.mandate2038.profiles.OBSERVATION_PATHS``)."""
    req = st.c.customer_requirement(s.customers + 1)
    powered = sum(1 for f in s.facilities.values() if f.powered)
    return {
        "era": st.era, "cycle": st.cycle, "self.runway": s.runway, "self.compute": s.compute,
        "self.capability": s.capability, "self.customers": s.customers, "self.trust": s.trust,
        "self.scrutiny": s.bag, "self.mandate": s.mandate, "self.facilities": len(s.facilities),
        "self.generators": 1 if s.generator is not None else 0,
        "self.unpowered_facilities": len(s.facilities) - powered,
        "self.can_deploy": bool(req is not None and s.customers < st.c.cap_customers
                                and s.capability >= req),
        "self.protection": s.protection,
    }


def dossier_assessment(st: GameState, s: SeatState) -> tuple[bool, bool]:
    """(supported now, payable) for Committing this Era's Dossier card (the hedging policy)."""
    card = DOSSIER_CARDS.get(st.era)
    if card == "benchmark":
        supported = s.capability >= 3
    elif card == "deployment":
        supported = s.powered_count() >= 2
    elif card == "authority":
        supported = s.trust >= 4
    else:  # publication: at least two committed evidence claims supported now
        checks = {1: s.capability >= 3, 2: s.powered_count() >= 2, 3: s.trust >= 4}
        supported = sum(1 for e, ok in checks.items() if ok and s.dossier.get(e) == "commit") >= 2
    commits = sum(1 for e in (1, 2, 3, 4) if e != st.era and s.dossier.get(e) == "commit") + 1
    payable = s.compute >= commits * st.dossier_compute
    return supported, payable


class ProfileBot:
    """A strategy profile played by the ``greedy`` or ``weighted`` policy."""

    def __init__(self, profile: Any, policy: str, rng: random.Random) -> None:
        if policy not in ("greedy", "weighted"):
            raise ValueError(f"unknown policy {policy!r}; choose greedy or weighted")
        self.profile = profile
        self.policy = policy
        self.rng = rng
        self.name = f"{profile.id}:{policy}"
        self.table: dict[int, Any] = {}  # seat -> bot, for the rivals' answers
        self._target: tuple[Any, int] | None = None  # the current Training Run's stopping point
        self.fallbacks = 0  # decisions where every option scored nothing (uniform fallback)
        self.decisions = 0
        aw = profile.action_weights
        self._aw = {k: float(v) for k, v in aw.items()}
        self._dw = sorted(profile.decision_weights.items())
        self._cw = dict(profile.consequence_weights)
        self._rv = dict(profile.resource_values)
        self._neg = dict(profile.negotiation)
        self._rules = [(r.target.action, r.target.decision_prefix, r.multiplier,
                        [(c.path, _OPS[c.op], c.value) for c in r.when]) for r in profile.rules]
        self._spatial = getattr(profile, "spatial_preference", None)

    # --- the policy ---------------------------------------------------------------------------

    def _pick(self, options: Sequence[Any], scores: list[float]) -> Any:
        self.decisions += 1
        if self.policy == "greedy":
            best = max(scores)
            if best <= 0:
                self.fallbacks += 1
                return options[self.rng.randrange(len(options))]
            top = [i for i, sc in enumerate(scores) if sc >= best * (1 - 1e-9)]
            return options[top[0] if len(top) == 1 else top[self.rng.randrange(len(top))]]
        total = sum(scores)
        if total <= 0:
            self.fallbacks += 1
            return options[self.rng.randrange(len(options))]
        x = self.rng.random() * total
        for o, sc in zip(options, scores, strict=True):
            x -= sc
            if x <= 0:
                return o
        return options[-1]

    def _active_rules(self, st: GameState, s: SeatState) -> list[tuple[str | None, str | None, float]]:
        if not self._rules:
            return []
        obs = observe(st, s)
        return [(a, p, m) for a, p, m, conds in self._rules
                if all(op(obs.get(path), value) for path, op, value in conds)]

    def _mult(self, action: str, decision: str, rules: list[tuple[str | None, str | None, float]]) -> float:
        w = 1.0
        for prefix, m in self._dw:
            if decision.startswith(prefix):
                w *= m
        for a, p, m in rules:
            if (a is None or a == action) and (p is None or decision.startswith(p)):
                w *= m
        return w

    def _spatial_multiplier(self, st: GameState, s: SeatState, dest: Any) -> float:
        return _spatial(self, st, s, dest)

    def choose(self, state: GameState, seat: int | None, options: Sequence[Any], label: str = "") -> Any:
        """One of ``options`` (see the module docstring)."""
        st = state
        if len(options) == 1:
            return options[0]
        s = st.seat(seat) if seat is not None else None
        if s is None:
            return options[self.rng.randrange(len(options))]
        first = options[0]
        if isinstance(first, str):
            return self._select(st, s, options)
        kinds = {getattr(o, "type", None) for o in options if not isinstance(o, Pass)}
        if "run_end" in kinds:
            return self._training(st, s, options)
        if "dossier" in kinds:
            return self._dossier(st, s, options)
        if "allocate" in kinds:
            return self._allocate(s, options)
        if "trade" in kinds:
            return self._turn_with_trades(st, s, options)
        if kinds & {"allocation_window", "emergency_pause", "workforce_move"}:
            return self._window(st, s, options)
        return self._turn(st, s, options)

    # --- decisions ------------------------------------------------------------------------------

    def _select(self, st: GameState, s: SeatState, picks: Sequence[str]) -> Any:
        rules = self._active_rules(st, s)
        aw = self._aw
        scores = [aw.get(p, 1.0) * self._mult(p, "select_" + p, rules) for p in picks]
        return self._pick(picks, scores)

    def _stop_target(self, st: GameState) -> int:
        """The run's stopping point, chosen once per run as the lab does (``research_stop_k``
        for k = 1..5, each weighted by its decision weight: greedy takes the heaviest, ties by
        the seeded generator; weighted draws in proportion)."""
        run = st.run
        key = (st.era, st.cycle, id(run))
        if self._target is None or self._target[0] != key:
            ks = list(STOP_TARGETS)
            k = self._pick(ks, [self._mult("research", f"research_stop_{k}", []) for k in ks])
            self._target = (key, k)
        return self._target[1]

    def _training(self, st: GameState, s: SeatState, options: Sequence[Any]) -> Any:
        run = st.run
        prov = run.provisional if run is not None else 0
        tr = self.profile.training
        if tr is not None:  # a profile's own risk rule (optional)
            risk = _crash_risk(st)
            keep_going = prov < tr.stop_at and risk < tr.max_risk
        else:
            keep_going = prov < self._stop_target(st)
        scores = []
        for o in options:
            if isinstance(o, Pass):  # continue drawing
                scores.append(1.0 if keep_going else 0.0)
                continue
            if o.outcome == "bank":
                scores.append(0.0 if keep_going else 1.0)
            elif o.outcome == "crash":
                scores.append(0.05)
            else:  # protect or Scientific Method: keep the run
                scores.append(1.0 + o.banked * self._rv.get("protection", 1.0))
        return self._pick(options, scores)

    def _dossier(self, st: GameState, s: SeatState, options: Sequence[Any]) -> Any:
        supported, payable = dossier_assessment(st, s)
        card = DOSSIER_CARDS.get(st.era, "")
        scores = []
        for o in options:
            if o.orientation == "commit":
                base = 2.0 if (supported and payable) else 0.02
                scores.append(base * self._mult("dossier", f"agi_dossier_commit_{card}", []))
            else:
                scores.append(self._mult("dossier", f"agi_dossier_hedge_{card}", []))
        return self._pick(options, scores)

    def _allocate(self, s: SeatState, options: Sequence[Any]) -> Any:
        powered = [len(o.facilities) + 2 * len(o.mega_clusters) for o in options]
        top = max(powered)
        wp = self._cw.get("powered_facilities", 1.0)
        scores = [max(0.01, 1 + (p - top) * wp) * (0.5 ** o.emergency) for o, p in zip(options, powered, strict=True)]
        return self._pick(options, scores)

    def _window(self, st: GameState, s: SeatState, options: Sequence[Any]) -> Any:
        promise = self._neg.get("promise", 1.0)
        scores = []
        for o in options:
            if isinstance(o, Pass):
                scores.append(1.0)
            elif o.type == "allocation_window":
                scores.append(promise * sum(1 for w in o.offers if w.answer != "reject") / 2)
            elif o.type == "emergency_pause":
                scores.append(1.0 if s.trust <= 4 else 0.3)
            else:
                scores.append(0.5)
        return self._pick(options, scores)

    # --- rivals' answers ------------------------------------------------------------------------

    def accepts_trade(self, gives: str, gets: str) -> bool:
        """As the responder: accept when what it gets is worth at least what it gives."""
        return bool(self._rv.get(gets, 1.0) >= self._rv.get(gives, 1.0))

    def accepts_jv(self) -> bool:
        promise = self._neg.get("promise", 1.0)
        return bool(self.rng.random() < promise / (1.0 + promise))

    def _rival(self, seat: int) -> Any:
        return self.table.get(seat)

    def _rival_answer_ok(self, o: Any) -> bool:
        """Keep only the option that matches the rival's own answer (when it has a policy)."""
        if o.type == "trade":
            rival = self._rival(o.rival)
            if not isinstance(rival, ProfileBot):
                return True
            get = "compute" if o.give == "runway" else "runway"
            return bool(rival.accepts_trade(gives=get, gets=o.give) == o.accepted)
        return True

    # --- turns ----------------------------------------------------------------------------------

    def _turn_with_trades(self, st: GameState, s: SeatState, options: Sequence[Any]) -> Any:
        trades = [o for o in options if getattr(o, "type", None) == "trade" and self._rival_answer_ok(o)]
        rest = [o for o in options if getattr(o, "type", None) != "trade"]
        resolvable = bool(rest) and not getattr(rest[0], "blocked", False)
        rv = self._rv
        stage: list[Any] = [_NONE]
        scores = [NO_TRADE_WEIGHT if resolvable else NO_TRADE_BLOCKED_WEIGHT]
        for o in trades:
            get = "compute" if o.give == "runway" else "runway"
            net = rv.get(get, 1.0) - rv.get(o.give, 1.0) if o.accepted else -0.5
            w = TRADE_OFFER_WEIGHT * max(0.05, 1 + net * 0.4)
            if o.accepted and not resolvable:
                w *= ENABLING_TRADE_MULTIPLIER
            stage.append(o)
            scores.append(w)
        got = self._pick(stage, scores)
        if got is not _NONE:
            return got
        return self._turn(st, s, rest) if rest else options[-1]

    def _turn(self, st: GameState, s: SeatState, options: Sequence[Any]) -> Any:
        rules = self._active_rules(st, s)
        aw = self._aw
        cw_p = self._cw.get("powered_facilities", 0.0)
        cw_d = self._cw.get("power_demand", 0.0)
        tiles = _tile_table(st)
        jv_answers: dict[tuple[int, int], bool] = {}  # each rival answers each offer once
        memo: dict[str, float] = {}  # option id -> action weight x multipliers (this decision)
        scores = []
        for o in options:
            if isinstance(o, Pass):
                scores.append(1.0)
                continue
            t = o.type
            dest = o.path[-1] if o.path else None
            tile = tiles.get(dest) if dest else None
            cons = 0.0
            spatial = 1.0
            if t == "build":
                if o.mode == "facility":
                    did = "build_facility_" + (tile.category if tile is not None else "")
                    near = s.generator is not None and dest is not None and DISTANCE[s.generator].get(dest, 9) <= 1
                    cons = cw_p * (1 if near else 0) + cw_d * 1
                    if self._spatial is not None and dest is not None:
                        spatial = self._spatial_multiplier(st, s, dest)
                else:
                    gen = st.c.generator_at.get(tile.id) if tile is not None else None
                    did = "build_generator_" + (gen.id if gen is not None else "")
                    unpowered = sum(1 for f in s.facilities.values() if not f.powered and f.hex
                                    and dest is not None and DISTANCE[dest].get(f.hex, 9) <= 1)
                    cons = cw_p * unpowered
            elif t == "fund":
                did = "fund_" + o.mode
            elif t == "deploy":
                did = "deploy_" + (tile.category if tile is not None else "")
            elif t == "influence":
                did = {"trust": "influence_gain_trust", "scrutiny": "influence_remove_scrutiny",
                       "jv": "influence_jv", "terminate": "influence_terminate"}.get(o.mode, "influence")
            elif t == "organize" or t == "narrative_capture":
                did = f"{t}_{o.mode}"
            elif t == "research":
                did = "research_breakthrough" if o.breakthrough else "research"
            else:
                did = t
            m = memo.get(did)
            if m is None:
                m = memo[did] = aw.get(t, 1.0) * self._mult(t, did, rules)
            w = m * max(0.01, 1 + cons) * spatial
            if o.blocked:
                w *= 0.02
            if t == "influence" and o.mode == "jv":
                key = (o.partner, o.partner_facility)
                if key not in jv_answers:
                    rival = self._rival(o.partner)
                    jv_answers[key] = rival.accepts_jv() if isinstance(rival, ProfileBot) else True
                answer = jv_answers[key]
                if answer != o.accepted:
                    w = 0.0
                elif o.accepted:
                    w *= self._neg.get("promise", 1.0)
            if getattr(o, "frontier_bonus", False):
                w *= max(0.05, 1 + 0.4 * (self._rv.get("runway", 1.0) - 1))
            scores.append(w)
        return self._pick(options, scores)


def _target_hexes(bot: ProfileBot, st: GameState, target: str) -> list[Any]:
    """The hexes of the Facilities of every seat played by profile ``target``."""
    out: list[Any] = []
    for seat, other in bot.table.items():
        if other is bot or not isinstance(other, ProfileBot) or other.profile.id != target:
            continue
        out.extend(f.hex for f in st.seats[seat - 1].facilities.values() if f.hex)
    return out


def _spatial(bot: ProfileBot, st: GameState, s: SeatState, dest: Any) -> float:
    """The designers' spatial preference (lab/policies/weighted-policy.js) for a Facility
    destination: x multiplier at exactly the preferred distance from the target profile's
    nearest Facility, x0.05 on its hex when the preferred distance is 1; only while the bot has
    fewer Facilities than ``apply_until_facilities`` and the target has a Facility."""
    pref = bot._spatial
    if pref is None or len(s.facilities) >= pref.apply_until_facilities:
        return 1.0
    hexes = _target_hexes(bot, st, pref.target_profile)
    if not hexes:
        return 1.0
    d = min(DISTANCE[dest].get(h, 9) for h in hexes)
    if d == pref.preferred_distance:
        return float(pref.multiplier)
    if d == 0 and pref.preferred_distance == 1:
        return 0.05
    return 1.0


def _tile_table(st: GameState) -> dict[str, Any]:
    from engine.mandate2038.moves import _tiles

    return _tiles(st)
