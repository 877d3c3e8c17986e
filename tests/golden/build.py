"""Authoring helper for golden games: write a legal Mandate 2038 game compactly, from the rules.

A :class:`Game` appends canonical events (``schemas/mandate2038/log.py``) and remembers the few
facts an author needs to keep a prefix legal: Initiative order, where each CEO/Team stands,
which Facilities stand where, and the Dossier cards filed. It does **not** compute game
consequences (resources, Mandate): those are worked out by hand from the rulebook in each case's
docstring. Expectations are declared with :meth:`Game.expect` (the finding the case must
produce at the event just written) and, for complete games, :meth:`Game.outcome` and
:meth:`Game.score`.

Standard table (``STD3``): seat 1 Kestralyn, seat 2 Loopfold AI, seat 3 Mirevanta Works, first
Initiative seat 1. Standard map (``MAP``): a legal layout respecting the ring pools
(FACTS.md §2): operational ring I1 research, I2 cloud, I3 foundry, I4 capital, I5 talent,
I6 grid_reactor; public ring O1 consumer, O2 research, O3 cloud, O4 media, O5 government,
O6 renewable_basin, O7 research, O8 cloud, O9 consumer, O10 media, O11 government,
O12 renewable_basin.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from engine.mandate2038.codes import CATALOGUE
from schemas.canonical import dumps_log
from schemas.mandate2038 import MandateLog

# --- geometry (axial coordinates from schemas/mandate2038/log.py) ------------------------------
COORDS: dict[str, tuple[int, int]] = {
    "F": (0, 0),
    "I1": (1, 0), "I2": (0, 1), "I3": (-1, 1), "I4": (-1, 0), "I5": (0, -1), "I6": (1, -1),
    "O1": (2, 0), "O2": (1, 1), "O3": (0, 2), "O4": (-1, 2), "O5": (-2, 2), "O6": (-2, 1),
    "O7": (-2, 0), "O8": (-1, -1), "O9": (0, -2), "O10": (1, -2), "O11": (2, -2), "O12": (2, -1),
}


def dist(a: str, b: str) -> int:
    (q1, r1), (q2, r2) = COORDS[a], COORDS[b]
    dq, dr = q1 - q2, r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


def adjacent(a: str, b: str) -> bool:
    return dist(a, b) == 1


def route(a: str, b: str) -> list[str]:
    """A shortest legal path from ``a`` to ``b`` (BFS over shared edges)."""
    prev: dict[str, str | None] = {a: None}
    q = deque([a])
    while q:
        x = q.popleft()
        if x == b:
            break
        for y in COORDS:
            if y not in prev and adjacent(x, y):
                prev[y] = x
                q.append(y)
    out = [b]
    while out[-1] != a:
        out.append(prev[out[-1]])  # type: ignore[arg-type]
    return out[::-1]


MAP: dict[str, str] = {
    "F": "frontier",
    "I1": "research", "I2": "cloud", "I3": "foundry", "I4": "capital", "I5": "talent",
    "I6": "grid_reactor",
    "O1": "consumer", "O2": "research", "O3": "cloud", "O4": "media", "O5": "government",
    "O6": "renewable_basin", "O7": "research", "O8": "cloud", "O9": "consumer", "O10": "media",
    "O11": "government", "O12": "renewable_basin",
}

STD3 = ("kestralyn", "loopfold", "mirevanta")

#: Default-eligible Headlines used when a case does not care (FACTS.md §4); chosen so that the
#: filler turns below never trigger them.
FILLER_HEADLINES: dict[int, tuple[str, str, str]] = {
    1: ("employee_free_unicorn", "professional_exam_sweep", "synthetic_celebrity"),
    2: ("humanoid_factory_gate", "reactor_restart_one_model", "emergency_power_authority"),
    3: ("ai_written_law", "benchmark_is_economy", "weights_on_internet"),
    4: ("recursive_self_improvement", "agent_swarm_escapes_scope", "agi_blog_post"),
}
FILLER_MANDATES: dict[int, str] = {
    1: "markets_prefer_destiny",
    2: "building_has_weather",
    3: "legibility_offensive",
    4: "responsible_acceleration",
}
#: base Audit draws at four players, Eras I-IV (§6E)
BASE_DRAWS = (2, 3, 4, 5)


def audit_draws(era: int, players: int) -> int:
    """§6E: round(base × N / 4), halves upward, minimum one."""
    x = BASE_DRAWS[era - 1] * players
    return max(1, (x + 2) // 4)


PROGRAMS = {"mega_cluster", "reorganization", "covenant", "narrative_capture", "agent_swarm", "fusion"}


class Game:
    """One golden game being written. Every ``add``/turn helper returns the event index."""

    def __init__(
        self,
        factions: tuple[str, ...] | list[str] = STD3,
        *,
        first: int | None = 1,
        map: dict[str, str] | None = MAP,  # noqa: A002
        detail: str = "full",
        description: str = "",
        header: dict[str, Any] | None = None,
    ) -> None:
        self.n = len(factions)
        self.factions = list(factions)
        self.header: dict[str, Any] = {
            "game": "mandate2038",
            "rules_version": "0.8.0-rc.17-test",
            "session_type": "developer_walkthrough",
            "seats": [{"seat": i + 1, "faction": f} for i, f in enumerate(factions)],
            "detail": detail,
            "provenance": {"source_format": "golden", "illustrative": True,
                           "description": description or None},
        }
        if map is not None:
            self.header["map"] = dict(map)
        if first is not None:
            self.header["first_initiative"] = first
        if header:
            self.header.update(header)
        self.first = first or 1
        self.events: list[dict[str, Any]] = []
        self.findings: list[dict[str, Any]] = []
        self.era = 0
        self.cycle = 0
        self.cycles_done = 0  # cycles started before the current one, whole game
        self.ceo = {s: "F" for s in self.seats}
        self.teams = {s: ["F"] for s in self.seats}
        self.fac: dict[int, list[str]] = {s: [] for s in self.seats}
        self.filed: dict[int, list[str]] = {s: [] for s in self.seats}
        self.expected_outcome: dict[str, Any] | None = None
        self.expected_ledger: list[dict[str, Any]] | None = None

    # --- basics ----------------------------------------------------------------------------
    @property
    def seats(self) -> list[int]:
        return list(range(1, self.n + 1))

    def add(self, type: str, **fields: Any) -> int:  # noqa: A002
        ev = {"type": type, **{k: v for k, v in fields.items() if v is not None}}
        self.events.append(ev)
        return len(self.events) - 1

    @property
    def last(self) -> int:
        return len(self.events) - 1

    def expect(self, code: str, event: int | None | str = "last", rule: str | None = None) -> None:
        """The case must produce finding ``code`` at ``event`` (default: the last event), citing
        the catalogue's rule for the code, or ``rule`` when a more specific rule caused it (a
        checkpoint mismatch produced by one ledger step cites that step's rule: trace.py)."""
        idx = self.last if event == "last" else event
        self.findings.append({"code": code, "rule": rule or CATALOGUE[code].rule, "event": idx})

    def initiative(self) -> int:
        """Seat holding Initiative in the current cycle (passes clockwise every cycle)."""
        return (self.first - 1 + self.cycles_done - 1) % self.n + 1

    def order(self) -> list[int]:
        i = self.initiative()
        return [(i - 1 + k) % self.n + 1 for k in range(self.n)]

    # --- structure -------------------------------------------------------------------------
    def setup(self) -> None:
        self.add("phase", name="setup")
        self.add("phase", name="setup_end")

    def era_start(self, era: int | None = None, mandate: str | None = "filler") -> int:
        self.era = era if era is not None else self.era + 1
        self.cycle = 0
        m = FILLER_MANDATES.get(self.era) if mandate == "filler" else mandate
        return self.add("era_start", era=self.era, mandate=m)

    def headline(self, headline: str | None = "filler", cycle: int | None = None, **kw: Any) -> int:
        self.cycle = cycle if cycle is not None else self.cycle + 1
        self.cycles_done += 1
        h = FILLER_HEADLINES[self.era][self.cycle - 1] if headline == "filler" else headline
        if h == "ai_written_law" and "action" not in kw:
            kw["action"] = "deploy"  # nobody deploys in filler cycles
        return self.add("headline", cycle=self.cycle, headline=h, **kw)

    def reveal(self, picks: dict[int, str]) -> int:
        return self.add("reveal", selections=[{"seat": s, "pick": p} for s, p in sorted(picks.items())])

    # --- turns -----------------------------------------------------------------------------
    def _path(self, seat: int, piece: str, to: str | list[str] | None) -> list[str]:
        here = self.ceo[seat] if piece == "ceo" else self.teams[seat][0]
        if to is None:
            return [here]
        if isinstance(to, list):
            return to
        return route(here, to)

    def _moved(self, seat: int, piece: str, path: list[str]) -> None:
        if not path:
            return
        if piece == "ceo":
            if self.ceo[seat] == path[0]:
                self.ceo[seat] = path[-1]
        elif path[0] in self.teams[seat]:
            self.teams[seat].remove(path[0])
            self.teams[seat].append(path[-1])

    def turn(self, seat: int, type: str, *, to: str | list[str] | None = None,  # noqa: A002
             piece: str = "ceo", **fields: Any) -> int:
        """One turn event. ``to`` is where the acting piece goes (a hex: shortest path; a list:
        that path; None: stays). An Organize relocation's target is ``relocate_to``."""
        path = [] if fields.pop("no_path", False) else self._path(seat, piece, to)
        if piece != "ceo":
            fields["piece"] = piece
        if "relocate_to" in fields:  # Organize relocation target (the event's own ``to`` field)
            fields["to"] = fields.pop("relocate_to")
        idx = self.add(type, seat=seat, path=path or None, **fields)
        self._moved(seat, piece, path)
        if type == "build" and fields.get("mode", "facility") == "facility" and path:
            self.fac[seat].append(path[-1])
        if type == "organize":
            for st in fields.get("moves", []):
                self._moved(seat, st["piece"], st["path"])
            if fields.get("mode") == "recruit" and path:
                self.teams[seat].append(path[-1])
                if fields.get("then"):
                    self._moved(seat, fields["then"]["piece"], fields["then"]["path"])
        return idx

    def research(self, seat: int, cards: list[str | tuple[str, str]], end: str = "bank",
                 banked: int | None = None, **kw: Any) -> int:
        """A Research turn and its Training Run: ``cards`` drawn in order (``(card, domain)``
        for Curated Corpus), then ``run_end`` with ``end``; returns the Research event index."""
        idx = self.turn(seat, "research", **kw)
        for c in cards:
            if isinstance(c, tuple):
                self.add("draw", seat=seat, card=c[0], domain=c[1])
            else:
                self.add("draw", seat=seat, card=c)
        if end is not None:
            self.add("run_end", seat=seat, outcome=end, banked=banked)
        return idx

    def play(self, seat: int, spec: Any) -> int:
        """Resolve one turn from a spec: an action name (filler) or (type, kwargs)."""
        if isinstance(spec, str):
            spec = FILLER_TURNS[spec](self, seat)
        kind, kw = spec
        if kind == "research":
            kw = dict(kw)
            return self.research(seat, kw.pop("cards"), kw.pop("end", "bank"), kw.pop("banked", None), **kw)
        return self.turn(seat, kind, **kw)

    def cycle_of(self, turns: dict[int, Any], headline: str | None = "filler",
                 picks: dict[int, str] | None = None, **hkw: Any) -> None:
        """One whole cycle: Headline, reveal and every seat's turn in Initiative order."""
        self.headline(headline, **hkw)
        if picks is None:
            picks = {}
            for s, spec in turns.items():
                kind = spec if isinstance(spec, str) else spec[0]
                picks[s] = kind
        self.reveal(picks)
        for s in self.order():
            if s in turns:
                self.play(s, turns[s])

    # --- end of Era --------------------------------------------------------------------------
    def production(self, allocs: dict[int, list[int]] | None = None,
                   extra: dict[int, dict[str, Any]] | None = None) -> None:
        """§6C. Default allocation: Facility 1 on its starting grid, nothing else. ``extra``
        adds fields to a seat's allocation (``mega_clusters``, ``emergency``)."""
        self.add("phase", name="production")
        for s in self.seats:
            fac = (allocs or {}).get(s, [1] if self.fac[s] else [])
            ex = (extra or {}).get(s, {})
            self.add("allocate", seat=s, facilities=fac, **ex)

    def dossiers(self, orient: dict[int, str] | None = None) -> None:
        self.add("phase", name="dossier")
        for s in self.seats:
            o = (orient or {}).get(s, "hedge")
            self.filed[s].append(o)
            self.add("dossier", seat=s, orientation=o)

    def reveal_dossiers(self, override: dict[int, dict[str, str]] | None = None) -> int:
        hands = []
        for s in self.seats:
            f = self.filed[s]
            h = {"seat": s, "benchmark": f[0], "deployment": f[1], "authority": f[2], "publication": f[3]}
            h.update((override or {}).get(s, {}))
            hands.append(h)
        return self.add("dossier_reveal", hands=hands)

    def audit(self, draws: list[Any] | None = None) -> int:
        self.add("phase", name="audit")
        return self.add("audit", draws=list(draws or []))

    def scoring(self, scorers: list[int] | None = None) -> int:
        self.add("phase", name="scoring")
        return self.add("era_mandate", scorers=scorers)

    def end_era(self, allocs: dict[int, list[int]] | None = None, orient: dict[int, str] | None = None,
                draws: list[Any] | None = None, scorers: list[int] | None = None) -> None:
        """Production, Dossier (and the Era IV reveal), Audit, Era Mandate."""
        self.production(allocs)
        self.dossiers(orient)
        if self.era == 4:
            self.reveal_dossiers()
        self.audit(draws)
        self.scoring(scorers)

    def filler_era(self, era: int | None = None, turns: dict[int, list[Any]] | None = None,
                   headlines: tuple[str, str, str] | None = None, **end: Any) -> None:
        """A whole legal Era. Each seat's three turns default to Fund (conservative),
        Organize (the Team steps between F and I1) and Influence (gain one Trust on the
        Allocation Exchange, I4); ``turns`` overrides a seat's list of three specs."""
        self.era_start(era)
        plan = {s: ["fund", "organize", "influence"] for s in self.seats}
        plan.update(turns or {})
        for c in range(3):
            h = headlines[c] if headlines else "filler"
            self.cycle_of({s: plan[s][c] for s in self.seats}, headline=h)
        self.end_era(**end)

    # --- output ------------------------------------------------------------------------------
    def outcome(self, **kw: Any) -> None:
        self.expected_outcome = kw

    def score(self, entries: list[tuple[int, str, int]]) -> None:
        self.expected_ledger = [{"seat": s, "source": src, "amount": a} for s, src, a in entries]

    def log_text(self) -> str:
        """The canonical JSON text. Events listed in ``self.unvalidated`` (indices) are cases
        where the recorded move cannot pass the schema; they are written verbatim in the same
        one-event-per-line layout so the file still shows what the table recorded."""
        bad = getattr(self, "unvalidated", set())
        good = [e for i, e in enumerate(self.events) if i not in bad]
        log = MandateLog.model_validate({"header": self.header, "events": good})
        text = dumps_log(log)
        if not bad:
            return text
        lines = text.split("\n")
        head, body = lines[:3], [ln.rstrip(",") for ln in lines[3:-2]]
        out_events, k = [], 0
        for i, e in enumerate(self.events):
            if i in bad:
                out_events.append(json.dumps(e, ensure_ascii=False, separators=(", ", ": ")))
            else:
                out_events.append(body[k])
                k += 1
        return "\n".join(head + [ln + ("," if j < len(out_events) - 1 else "")
                                  for j, ln in enumerate(out_events)] + ["]}", ""])

    def expectation(self, name: str, doc: str) -> dict[str, Any]:
        out: dict[str, Any] = {"case": name, "doc": doc, "findings": self.findings}
        if self.expected_outcome is not None:
            out["outcome"] = self.expected_outcome
        if self.expected_ledger is not None:
            out["ledger"] = self.expected_ledger
        return out


def _filler_fund(g: Game, seat: int) -> tuple[str, dict[str, Any]]:
    return ("fund", {})


def _filler_organize(g: Game, seat: int) -> tuple[str, dict[str, Any]]:
    team = g.teams[seat][0]
    dest = "I1" if team == "F" else "F"
    return ("organize", {"mode": "redistribute", "moves": [{"piece": "team", "path": route(team, dest)}]})


def _filler_influence(g: Game, seat: int) -> tuple[str, dict[str, Any]]:
    return ("influence", {"to": "I4", "mode": "trust"})


FILLER_TURNS = {"fund": _filler_fund, "organize": _filler_organize, "influence": _filler_influence}

CASES: dict[str, Any] = {}


def case(fn: Any) -> Any:
    """Register a golden case: a function returning a :class:`Game`; its docstring cites the
    rule and explains the expectation."""
    CASES[fn.__name__] = fn
    return fn
