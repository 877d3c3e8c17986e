"""The Mandate 2038 ruleset object (engine.core.ruleset.Ruleset): dispatch of events to the
rules modules, named after the rulebook sections they implement:

* ``setup`` (§1); §2 and §6B, the central loop: ``initiative`` (the tie rule, Initiative),
  ``cycles`` (a cycle's Headline, reveal and close), ``headlines`` (the Headline cards),
  ``eligibility`` (what may be selected), ``before_selection`` (abilities timed before it),
  ``trade`` (the immediate trade), ``turns`` (Select -> Move -> Act, commitments);
  ``resources`` (§3), ``hex_board`` (§4), ``programs`` (§5), ``era_sequence`` (§6 A, C-F and
  the §5 Dossier), ``core_actions`` (§7), ``factions`` (§9 abilities), ``final_scoring`` (§11),
  ``checkpoints`` (checkpoints and partial logs), ``records`` (warehouse rows and snapshots).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, get_args

from pydantic import BaseModel

from engine.api import (
    Balance,
    BalanceMetric,
    BaseHeader,
    Decision,
    DesignerLoop,
    FindingSink,
    Folder,
    Format,
    Game,
    LedgerEntry,
    Outcome,
    TableColumns,
    Vocabulary,
)
from engine.core.options import cite_findings
from engine.mandate2038 import codes, dispatch, warehouse
from engine.mandate2038.before_selection import on_allocation_window, on_emergency_pause
from engine.mandate2038.checkpoints import on_checkpoint
from engine.mandate2038.content import Content, load_content
from engine.mandate2038.core_actions import do_draw
from engine.mandate2038.cycles import close_cycle, on_headline, on_reveal
from engine.mandate2038.era_sequence import (
    end_era,
    ensure_production,
    ensure_production_closed,
    on_allocate,
    on_audit,
    on_dossier,
    on_dossier_reveal,
    on_era_mandate,
    on_era_start,
    on_workforce_move,
    report_missing_audit,
    start_production,
)
from engine.mandate2038.final_scoring import compare_record, compute_final
from engine.mandate2038.records import records as _records
from engine.mandate2038.records import snapshot as _snapshot
from engine.mandate2038.setup import build_state
from engine.mandate2038.state import GameState
from engine.mandate2038.trade import on_trade
from engine.mandate2038.turns import close_turn, force_close_run, on_run_end, on_turn
from schemas.mandate2038 import (
    EVENT_ADAPTER,
    EVENT_TYPES,
    EVENTS_ADAPTER,
    RULES_VERSION,
    TURN_TYPES,
    Checkpoint,
    Draw,
    FinalRecord,
    MandateEvent,
    MandateHeader,
    MandateLog,
    Phase,
)
from schemas.packs import data_dir

ADVANCED_UNCHECKED = [
    "Advanced Play supplement: its rules are not in the core rulebook and are not checked",
    "Advanced Headlines (auctions, secret choices, Civic Permission Authority votes, "
    "Volatility, persistent effects): revealed cards are recorded, their effects not applied",
    "Production Trade box (Power purchase requests) is not resolved",
    "connected Networks and Link tokens are not modelled; local Power is checked instead",
    "Jurisdictional Realignment (ring rotation after Era III) is not modelled",
]


def _variant_content(c: Content, stamp: Any, version: str, sink: FindingSink) -> Content:
    """The content under the header's rules variant (docs/variants.md); the printed rules'
    content, with a finding, when the variant does not fit the pack."""
    from engine.core.variants import stamp_hash_ok
    from engine.mandate2038.content import load_variant_content

    if not stamp_hash_ok(stamp, "mandate2038", c.pack.rules_version):
        sink.report("log/variant-hash", f"the variant {stamp.name!r} is stamped {stamp.hash}, "
                    "which is not the hash of the changes it stores; the stored changes were "
                    "played", recorded=stamp.hash)
    vc, why = load_variant_content(c.pack.rules_version, stamp)
    if vc is None:
        sink.report("log/variant", f"the rules variant {stamp.name!r} cannot be played: {why}; "
                    "replayed under the rules as printed", recorded=stamp.name)
        return c
    return vc


def _noop(st: GameState, ev: MandateEvent, sink: FindingSink) -> None:
    return None


def _cite_rulings(st: GameState, ev: MandateEvent | None, sink: FindingSink,
                  start: int) -> None:
    """Name the rulings the findings of this event rest on: the rulings the event itself used,
    and for a checkpoint mismatch of a seat every ruling that decided something for that seat
    since its previous checkpoint (engine/core/options.py)."""
    cite_findings(sink, start, st.event_rulings, st.seat_rulings)
    st.event_rulings = set()
    if isinstance(ev, Checkpoint):
        for sv in ev.seats:
            st.seat_rulings.pop(sv.seat, None)


def _end_of_game(st: GameState, sink: FindingSink, rec: FinalRecord | None = None) -> None:
    ensure_production(st, sink)
    ensure_production_closed(st, sink)
    close_cycle(st, sink)
    if st.era != 4 and not st.partial and not st.final_done:
        sink.report("turn/wrong-phase",
                    f"final scoring was recorded in Era {st.era}; the game lasts four Eras",
                    expected=4, recorded=st.era)
    end_era(st, sink)
    compute_final(st, sink, rec)


def on_phase(st: GameState, ev: Phase, sink: FindingSink) -> None:
    """Timing markers; ``production`` opens Production, ``final_scoring``/``game_end`` score."""
    name = ev.name
    if name == "production":
        start_production(st, sink)
    elif name in ("dossier", "audit", "scoring"):
        if st.era >= 1:
            ensure_production(st, sink)
            ensure_production_closed(st, sink)
            close_cycle(st, sink)
        if name == "scoring":
            report_missing_audit(st, sink)
        st.phase = name
    elif name == "final_scoring":
        if st.partial and st.power_known_era != 4 and not st.final_done:
            # the offline count must come from the table's final record: score there
            close_cycle(st, sink)
            end_era(st, sink)
            st.phase = "final_scoring"
        else:
            _end_of_game(st, sink)
    elif name == "game_end":
        if not st.final_done:
            _end_of_game(st, sink)
        st.ended = True
        st.phase = "ended"


def on_final_record(st: GameState, ev: FinalRecord, sink: FindingSink) -> None:
    """The table's final public record: score (if not yet) and compare."""
    _end_of_game(st, sink, ev)
    compare_record(st, ev, sink)


def _draw(st: GameState, ev: Draw, sink: FindingSink) -> None:
    do_draw(st, ev, sink)


HANDLERS: dict[str, Callable[[GameState, Any, FindingSink], None]] = {
    "phase": on_phase,
    "era_start": on_era_start,
    "headline": on_headline,
    "emergency_pause": on_emergency_pause,
    "allocation_window": on_allocation_window,
    "reveal": on_reveal,
    "trade": on_trade,
    "draw": _draw,
    "run_end": on_run_end,
    "allocate": on_allocate,
    "workforce_move": on_workforce_move,
    "dossier": on_dossier,
    "dossier_reveal": on_dossier_reveal,
    "audit": on_audit,
    "era_mandate": on_era_mandate,
    "final_record": on_final_record,
    "checkpoint": on_checkpoint,
    "observation": _noop,
    "survey": _noop,
}
for _t in TURN_TYPES:
    HANDLERS[_t] = on_turn


def _by_class() -> dict[type, tuple[str, Callable[[GameState, Any, FindingSink], None]]]:
    """Event class -> (its ``type``, its handler). A validated event's ``type`` is its class's
    one-value Literal, so ``apply`` reads it from this table (one dict read) instead of from the
    event (a pydantic attribute costs several plain ones)."""
    out: dict[type, tuple[str, Callable[[GameState, Any, FindingSink], None]]] = {}
    for model in get_args(get_args(MandateEvent)[0]):
        (kind,) = get_args(model.model_fields["type"].annotation)
        out[model] = (kind, HANDLERS.get(kind, _noop))
    return out


_BY_CLASS = _by_class()
# the per-event entry points (apply, ended, location) are dispatch.py's functions over these
# tables: compiled with the rules in the optional compiled engine (docs/engine.md)
dispatch.install(_BY_CLASS, HANDLERS, _cite_rulings)

#: engine.mandate2038.moves.legal_moves once imported (an import statement per call costs more
#: than a simulated decision's bookkeeping)
_MOVES: list[Callable[..., Decision] | None] = [None]


#: Mandate 2038's formats besides canonical JSON (docs/formats.md)
FORMATS: tuple[Format, ...] = (
    Format("notation", (".m38", ".txt"), reader="ingest.mandate2038.notation:read_notation",
           writer="ingest.mandate2038.notation:write_notation", label="Mandate 2038 notation"),
    Format("csv", (".csv",), reader="ingest.mandate2038.sheet:read_sheet",
           writer="ingest.mandate2038.sheet:write_sheet", label="Mandate 2038 recording sheet"),
)

#: the words of Mandate 2038's analytics pages (rulebook terms)
VOCABULARY = Vocabulary(
    score_sources={
        "starting": "Starting Mandate", "customer": "Customers",
        "capability_threshold": "Capability thresholds", "trust_threshold": "Trust thresholds",
        "era_mandate": "Era Mandates", "headline": "Headlines", "fusion": "Fusion",
        "faction_ability": "Faction abilities", "offline_penalty": "Offline penalty",
        "checkpoint": "Table checkpoint",
    },
    end_conditions={
        "singularity": "The Singularity (AGI, Open)",
        "closed_loop": "The Closed Loop (AGI, Closed)",
        "plural_future": "The Plural Future (no AGI, Open)",
        "assured_continuity": "Assured Continuity (no AGI, Closed)",
    },
    phases={"setup": "Setup", "era1": "Era I", "era2": "Era II", "era3": "Era III",
            "era4": "Era IV", "production": "Production", "dossier": "Dossier",
            "audit": "Audit", "scoring": "Scoring", "final_scoring": "Final scoring"},
    location_labels={"era": "Era", "cycle": "cycle"},
    seat_role="Faction",
)

#: this game's modules the optional compiled engine compiles with mypyc (setup.py reads this
#: tuple from the source; names relative to engine/mandate2038; docs/engine.md "The compiled
#: engine (optional)"): the rules and the state a replay runs through. Left interpreted: the
#: move generator (moves, lazy_options, phase_moves, selection_moves, turn_moves: it builds
#: classes at run time and copies states generically), the bots and the simulator, this
#: declaration (mypyc refuses its narrowed attribute overrides) and the pydantic schemas
#: (tests/test_compiled_engine.py checks the list)
COMPILED_MODULES: tuple[str, ...] = (
    "before_selection", "board", "checkpoints", "content", "core_actions", "cycles",
    "dispatch", "eligibility", "era_sequence", "factions", "final_scoring", "headlines",
    "hex_board", "initiative", "programs", "records", "resources", "rules", "setup", "state",
    "trace", "trade", "turns",
)


class MandateRuleset(Game):
    """Mandate 2038, rules 0.8.0-rc.17-test (Default Game; Advanced games replay what the
    Default Game shares). The game's declaration (engine.core.game): registered through the
    ``playtest.games`` entry point ``mandate2038 = "engine.mandate2038:RULESET"``."""

    game = "mandate2038"
    title = "Mandate 2038"
    rules_versions: tuple[str, ...] = (RULES_VERSION,)
    catalogue = codes.CATALOGUE
    header_model: type[BaseHeader] = MandateHeader
    log_model: type[BaseModel] = MandateLog
    event_adapter = EVENT_ADAPTER
    events_adapter = EVENTS_ADAPTER  # one-call validation of a whole event list (fast path)
    event_types = EVENT_TYPES
    location_parts: tuple[str, ...] = ("era", "cycle")
    #: one slip, one finding: these follow from an earlier slip of the same seat (codes.py)
    # provenance: which values each check reads and each slip puts in doubt (codes.py)
    reads = codes.READS
    doubts = codes.DOUBTS
    value_words = codes.VALUE_WORDS
    #: ``apply`` first sets the sink's era and cycle from the state (what
    #: ``sink.locate(location_parts, location(state))`` does), so a caller need not
    apply_locates = True
    # Mandate 2038's warehouse tables and its columns of the shared seats and outcomes tables
    tables: Mapping[str, TableColumns] = warehouse.TABLES
    player_counts: tuple[int, ...] = (3, 4, 5)
    bot_names: tuple[str, ...] = ("random", "heuristic", "mixed")
    #: studies of strategy-profile line-ups (ingest/mandate2038/study.py); its knobs are its
    #: content pack's bounds (data/content/mandate2038/variant-bounds.json)
    designer_loop = DesignerLoop(study="ingest.mandate2038.study:STUDY",
                                 calibrate="ingest.mandate2038.calibrate:command")
    formats = FORMATS
    # the designers' session folder (receipt.json, scores.json, notes.md) or a zip of one
    session_folder = Folder("receipt.json", "ingest.mandate2038.session:read_session_files")
    #: well-formed synthetic logs (not legal games) for the pages benchmark (cli/bench)
    synthetic_log = "ingest.mandate2038.synthetic:synthetic_log"
    content_pack = "schemas.mandate2038.content:ContentPack"  # data/content/mandate2038/*/pack.json
    vocabulary = VOCABULARY
    timed_phases: tuple[str, ...] = ("setup", "era1", "era2", "era3", "era4", "production",
                                     "dossier", "audit", "scoring", "final_scoring")
    timing = "ingest.mandate2038.timing:compute_timing"  # Eras, cycles, Production ... and turn times
    rulings_dir = data_dir() / "content" / "mandate2038" / "rulings"
    # the app's members (the app's contract: dashboards/gameapps/__init__.py; never imported here)
    board_picture = "dashboards.mandate2038.sections:replay_panel"
    content_names = "dashboards.mandate2038.tables:content_names"  # its pack's printed names
    recorder = "dashboards.mandate2038.record:RECORDER"
    pages = ()
    #: a log's header may name a rules variant (docs/variants.md): setup plays its pack
    plays_variants = True
    #: the designers' balance contract (strategic-unsolvability-v3, FACTS.md §11.5; thresholds
    #: data/content/mandate2038/balance-thresholds.json), computed together by its room and
    #: drawn by its own Balance section (docs/balance.md "Definitions")
    balance = Balance(section="dashboards.mandate2038.balance:section", metrics=tuple(
        BalanceMetric(mid, label, text, "ingest.mandate2038.balance:declared", limit, bound,
                      "strategic-unsolvability-v3")
        for mid, label, text, limit, bound in (
            ("seat_win_share_range", "Seat win-share range (turn order from first Initiative)",
             "max - min win share over turn order from first Initiative", 0.10, "max"),
            ("faction_win_share_range", "Faction win-share range",
             "max - min win share over factions", 0.15, "max"),
            ("profile_win_share_range", "Profile win-share range",
             "max - min win share over strategy profiles (bots)", 0.18, "max"),
            ("faction_strategy_interaction", "Faction × strategy interaction range",
             "max - min win share over (faction, profile) pairs seen 4 times", 0.22, "max"),
            ("round_two_leader_conversion", "Era II leader conversion",
             "mean over games of Era II leaders who won / leaders", 0.72, "max"),
            ("action_entropy", "Action entropy",
             "entropy of the resolved action ids over log 12", 0.72, "min"),
            ("opening_entropy", "Opening entropy",
             "entropy of the Era I openings over log 120", 0.65, "min"),
            ("opening_top_share", "Opening top share", "the commonest opening's share", 0.30,
             "max"),
            ("winning_path_entropy", "Winning-path entropy",
             "entropy of the winners' paths (lane-margin-v1) over log 22", 0.60, "min"),
            ("winning_path_top_share", "Winning-path top share",
             "the commonest winning path's share", 0.55, "max"),
            ("pairwise_dominance", "Pairwise (head-to-head) dominance",
             "the highest rate of one profile over another, head to head", 0.70, "max"),
            ("forced_no_op_rate", "Forced no-op rate",
             "blocked actions over 12 action opportunities a seat", 0.03, "max"),
            ("policy_fallbacks", "Policy fallbacks", "a bot policy's fallbacks (a count)", 0.0,
             "max"))))

    def content(self, rules_version: str = RULES_VERSION) -> Content:
        """The indexed content pack (raises RuntimeError when the pack is not installed)."""
        c, why = load_content(rules_version)
        if c is None:
            raise RuntimeError(f"Mandate 2038 content pack missing: {why}")
        return c

    def setup(self, header: Any, sink: FindingSink) -> GameState:
        """The table after §1 Setup (findings for setup problems)."""
        version = header.rules_version
        c, _why = load_content(version)
        if c is None:
            sink.report("log/unsupported-rules-version",
                        f"no content pack for rules version {version!r}; replayed with "
                        f"{RULES_VERSION}", expected=RULES_VERSION, recorded=version)
            c = self.content(RULES_VERSION)
        stamp = getattr(header, "variant", None)
        if stamp is not None:
            c = _variant_content(c, stamp, version, sink)
        return build_state(header, c.pack, c, sink)

    #: fold one event into the state (mutates it), reporting findings on ``sink``; ``ended``
    #: and ``location`` are read after every event: plain functions (dispatch.py), so that
    #: the replay calls them without a bound method
    apply = staticmethod(dispatch.apply)
    ended = staticmethod(dispatch.ended)
    location = staticmethod(dispatch.location)

    def finish(self, state: GameState, sink: FindingSink) -> None:
        """After the last event: close what is open; note a log that stops before the end."""
        n = len(sink.findings)
        self._finish(state, sink)
        if state.event_rulings:
            _cite_rulings(state, None, sink, n)

    def _finish(self, state: GameState, sink: FindingSink) -> None:
        st = state
        if st.final_done:
            return
        if (st.era == 4 and st.era_mandate_done) or st.phase == "final_scoring":
            # the log stops after the last Era Mandate: final scoring follows from the state
            if st.run is not None:
                force_close_run(st, sink)
            close_turn(st, sink)
            _end_of_game(st, sink)
            return
        # the log stops mid-game: an open Training Run or Agent Swarm is where it stops, not an
        # error of the table (log/partial below says the log is incomplete)
        st.run = None
        st.turn = None
        ensure_production_closed(st, sink)
        where = f"Era {st.era}, cycle {st.cycle}" if st.era else "before Era I"
        sink.report("log/partial", f"the log ends in {where}, before final scoring; only what "
                    "was recorded was checked")

    def legal_moves(self, state: GameState, passed: frozenset[str] = frozenset(), *,
                    lazy: bool = False) -> Decision:
        """Who decides next and what they may do (engine.mandate2038.moves); ``passed`` holds
        the optional windows the caller declined (engine.core.ruleset.Pass); ``lazy`` options
        build their event on ``materialize()``."""
        fn = _MOVES[0]
        if fn is None:  # imported on first use (replay alone never needs the move generator)
            from engine.mandate2038.moves import legal_moves

            fn = _MOVES[0] = legal_moves
        return fn(state, state.pack, passed, lazy=lazy)

    def simulation_moves(self) -> Callable[..., Decision]:
        """``(state, passed=...) -> Decision``: :meth:`legal_moves` with lazy options, as the
        move generator's own function (the simulator's loop calls it once per decision; this
        object's ``pack`` argument is one the move generator does not read)."""
        from engine.mandate2038.moves import simulation_legal_moves

        return simulation_legal_moves

    def prepare_simulation(self) -> None:
        """The simulator's start-up, done once before games are timed: import the move
        generator, the bots and the dealing (they are imported on first use, as replay alone
        never needs them) and load the content pack."""
        from engine.mandate2038.simulation import SIMULATION_PACK
        from schemas.packs import load_pack

        self.content()
        load_pack("mandate2038", SIMULATION_PACK)

    def simulate_one(self, seed: Any, index: int, players: int, bots: str = "mixed",
                     variant: Any = None) -> Any:
        """Simulated game ``index`` of a run with ``seed`` (engine.mandate2038.simulation),
        under the rules variant ``variant`` (a stamp) when given."""
        from engine.mandate2038.simulation import simulate_one

        return simulate_one(seed, index, players, bots, variant=variant)

    def outcome(self, state: GameState) -> Outcome | None:
        """The outcome once final scoring ran; otherwise an incomplete outcome."""
        if state.outcome is not None:
            return state.outcome
        return Outcome(complete=False, details={
            "final_mandate": {s.seat: s.mandate for s in state.seats},
            "setup_collective_trust": state.setup_trust,
        })

    def ledger(self, state: GameState) -> list[LedgerEntry]:
        return list(state.ledger)

    def records(self, state: GameState) -> dict[str, list[dict[str, Any]]]:
        """The rows of Mandate 2038's warehouse tables, plus its columns of the shared ``seats``
        and ``outcomes`` tables (engine.mandate2038.warehouse)."""
        out = _records(state)
        out["seats"] = warehouse.seat_rows(state, out.get("era_states", []))
        out["outcomes"] = warehouse.outcome_rows(self.outcome(state))
        return out

    def snapshot(self, state: GameState) -> dict[str, Any]:
        return _snapshot(state)

    def seats_at_table(self, state: GameState) -> range:
        """Mandate 2038 numbers its seats 1..N by position (setup reports a header whose seat
        numbers are not 1..N): a seat past N is not at the table."""
        return range(1, len(state.seats) + 1)

    def unchecked(self, header: Any) -> list[str]:
        """Rules not checked for this game: the Advanced Play supplement."""
        if getattr(header, "profile", "default") == "advanced":
            return list(ADVANCED_UNCHECKED)
        return []


RULESET = MandateRuleset()
