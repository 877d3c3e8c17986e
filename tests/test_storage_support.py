"""Helpers for the storage tests: synthetic game folders and a stand-in ruleset.

Until the Mandate 2038 ruleset is registered by the engine, :func:`ensure_ruleset` registers a
*stand-in* that replays structure only (Eras, cycles, checkpoints, the final record) and checks
no rule. It exists so that the archive/warehouse/pipeline can be tested on their own; once the
real ruleset is registered it is used instead and the stand-in is never installed. Worker and
child processes get it through ``PLAYTEST_RULESET_MODULES=test_storage_support`` with
``PLAYTEST_STORAGE_STANDIN=1``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from engine.core.findings import CORE_RULES, Catalogue
from engine.core.registry import get_ruleset, register
from engine.core.replay import LedgerEntry, Outcome
from ingest.warehouse.synthetic import synthetic_log
from schemas.canonical import dumps_log
from schemas.mandate2038 import EVENT_ADAPTER, EVENT_TYPES, MandateHeader, MandateLog

TESTS_DIR = Path(__file__).resolve().parent


class StandInRuleset:
    """Structure-only replay of Mandate 2038 logs (checks no rule; see the module docstring)."""

    game = "mandate2038"
    title = "Mandate 2038 (storage-test stand-in)"
    rules_versions = ("0.8.0-rc.17-test",)
    catalogue = Catalogue(list(CORE_RULES))
    header_model = MandateHeader
    log_model = MandateLog
    event_adapter = EVENT_ADAPTER
    event_types = EVENT_TYPES

    def setup(self, header: Any, sink: Any) -> dict[str, Any]:
        return {"era": None, "cycle": None, "ended": False, "ledger": [], "totals": {},
                "headlines": [], "selections": [], "winners": None, "n": 0}

    def apply(self, state: dict[str, Any], event: Any, sink: Any) -> None:
        state["n"] += 1
        kind = event.type
        if kind == "era_start":
            state["era"], state["cycle"] = event.era, None
        elif kind == "headline":
            state["cycle"] = event.cycle
            state["headlines"].append(
                {"era": state["era"], "cycle": event.cycle, "headline": event.headline})
        elif kind == "reveal":
            for sel in event.selections:
                state["selections"].append(
                    {"era": state["era"], "cycle": state["cycle"], "seat": sel.seat,
                     "pick": sel.pick, "kind": "core"})
        elif kind == "checkpoint":
            for sv in event.seats:
                if sv.mandate is not None:
                    before = state["totals"].get(sv.seat, 0)
                    state["totals"][sv.seat] = sv.mandate
                    state["ledger"].append(LedgerEntry(
                        seat=sv.seat, amount=sv.mandate - before, total=sv.mandate,
                        source="checkpoint", era=state["era"], cycle=state["cycle"],
                        event=sink.event))
        elif kind == "final_record":
            state["winners"] = list(event.winners or [])
        elif kind == "phase" and event.name == "game_end":
            state["ended"] = True

    def finish(self, state: Any, sink: Any) -> None:
        return None

    def legal_moves(self, state: Any) -> Any:
        raise NotImplementedError("the storage stand-in does not generate moves")

    def outcome(self, state: dict[str, Any]) -> Outcome:
        won = state["winners"]
        return Outcome(complete=won is not None, winners=won or [],
                       provisional_winners=won or [], details={"events": state["n"]})

    def ledger(self, state: dict[str, Any]) -> list[LedgerEntry]:
        return list(state["ledger"])

    def records(self, state: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
        return {"headlines": list(state["headlines"]), "selections": list(state["selections"])}

    def snapshot(self, state: Any) -> dict[str, Any]:
        return dict(state)

    def ended(self, state: dict[str, Any]) -> bool:
        return bool(state["ended"])

    def location(self, state: dict[str, Any]) -> tuple[int | None, int | None]:
        return state["era"], state["cycle"]

    def unchecked(self, header: Any) -> list[str]:
        return ["storage-test stand-in ruleset: no rule was checked"]


def ensure_ruleset() -> str:
    """Make sure a ``mandate2038`` ruleset is registered; returns "engine" or "stand-in"."""
    if get_ruleset("mandate2038") is not None and not isinstance(
        get_ruleset("mandate2038"), StandInRuleset
    ):
        return "engine"
    register(StandInRuleset())  # type: ignore[arg-type]
    return "stand-in"


def child_env(**extra: str) -> dict[str, str]:
    """Environment for worker/child processes: they register the same ruleset as this one."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS_DIR), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PLAYTEST_RULESET_MODULES"] = "test_storage_support"
    env["PLAYTEST_STORAGE_STANDIN"] = "1"
    env.update(extra)
    return env


def write_games(folder: Path, n: int, *, start: int = 0, events: int = 120, **kw: Any) -> list[Path]:
    """Write ``n`` synthetic canonical JSON logs into ``folder``; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(start, start + n):
        path = folder / f"game_{i:05d}.json"
        path.write_text(dumps_log(synthetic_log(i, events_target=events, **kw)), encoding="utf-8")
        out.append(path)
    return out


if os.environ.get("PLAYTEST_STORAGE_STANDIN") == "1":
    ensure_ruleset()
    if str(TESTS_DIR) not in sys.path:
        sys.path.insert(0, str(TESTS_DIR))
