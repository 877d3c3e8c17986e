"""The toolkit's public API for game authors: every name a game's package needs, in one place.

A game (``examples/pig/``, ``engine/mandate2038/``, ``engine/vestige/``) imports what it uses
from here rather than from the toolkit's modules, so those may move without breaking a game::

    from engine.api import FindingSink, Format, Game, Vocabulary

* **Declaring and replaying** (``schemas`` and ``engine``, loaded with this module): the
  declaration (:class:`Game`, :class:`Format`, :class:`Folder`, :class:`Page`,
  :class:`Vocabulary`, :class:`Balance`, :class:`BalanceMetric`, :class:`DesignerLoop`,
  :class:`Knob`), the ruleset's values (:class:`Decision`, :data:`Pass`, :class:`TableColumns`,
  :class:`Outcome`,
  :class:`LedgerEntry`), findings (:class:`FindingSink`, :class:`Catalogue`, :class:`Rule`,
  :data:`CORE_RULES`), rulings (:func:`resolve_options`, :class:`RulingsError`), replay and
  simulation (:func:`replay`, :class:`ReplayResult`, :func:`simulate_game`,
  :data:`SIMULATOR_VERSION`), and the log models every game shares (:class:`BaseHeader`,
  :class:`Strict`, :class:`Frozen` (the immutable base of events and what they hold),
  :data:`LOG_FORMAT`, :data:`LOG_FORMAT_VERSION`, :class:`Event`,
  :class:`PhaseMarker`, :class:`Observation`, :class:`SurveyAnswer`).
* **Reading and timing** (``ingest``): :class:`LoadedLog`, :class:`Problems`,
  :func:`read_text_log`, :func:`unreadable`, :class:`Timing`, :func:`phase_timing`,
  :func:`naive_utc`, :func:`ingest_log`.
* **The app** (``dashboards``): :class:`Recorder`, :data:`SESSION_TYPE_LABELS`.

The reading and app names are looked up when first used (:func:`__getattr__`), by a game's
reader or recorder, modules that sit in those layers already: importing this module loads
neither ``ingest`` nor the app, so a declaration may import it without pulling either in.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from engine.core.findings import CORE_RULES, Catalogue, FindingSink, Rule
from engine.core.game import (
    Balance,
    BalanceMetric,
    DesignerLoop,
    Folder,
    Format,
    Game,
    Knob,
    Page,
    Vocabulary,
)
from engine.core.options import RulingsError, resolve_options
from engine.core.replay import LedgerEntry, Outcome, ReplayResult, replay
from engine.core.ruleset import Decision, Pass, TableColumns
from engine.simulate import SIMULATOR_VERSION, simulate_game
from schemas.events import Event, Observation, PhaseMarker, SurveyAnswer
from schemas.log import LOG_FORMAT, LOG_FORMAT_VERSION, BaseHeader, Frozen, Strict

if TYPE_CHECKING:
    from dashboards.filters import SESSION_TYPE_LABELS
    from dashboards.gameapps import Recorder
    from ingest.formats import LoadedLog, Problems, read_text_log, unreadable
    from ingest.loading import ingest_log
    from ingest.timing import Timing, naive_utc, phase_timing

#: name -> module of the names looked up when first used (the layers above the engine)
_LATER: dict[str, str] = {
    "LoadedLog": "ingest.formats",
    "Problems": "ingest.formats",
    "read_text_log": "ingest.formats",
    "unreadable": "ingest.formats",
    "ingest_log": "ingest.loading",
    "Timing": "ingest.timing",
    "naive_utc": "ingest.timing",
    "phase_timing": "ingest.timing",
    "Recorder": "dashboards.gameapps",
    "SESSION_TYPE_LABELS": "dashboards.filters",
}


def __getattr__(name: str) -> Any:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "CORE_RULES", "LOG_FORMAT", "LOG_FORMAT_VERSION", "SESSION_TYPE_LABELS", "SIMULATOR_VERSION",
    "Balance", "BalanceMetric",
    "BaseHeader", "Catalogue", "Decision", "DesignerLoop", "Event", "FindingSink", "Folder",
    "Frozen",
    "Format", "Game",
    "Knob", "LedgerEntry", "LoadedLog", "Observation", "Outcome", "Page", "Pass", "PhaseMarker",
    "Problems", "Recorder", "ReplayResult", "Rule", "RulingsError", "Strict", "SurveyAnswer",
    "TableColumns", "Timing", "Vocabulary", "ingest_log", "naive_utc", "phase_timing",
    "read_text_log", "replay", "resolve_options", "simulate_game", "unreadable",
]
