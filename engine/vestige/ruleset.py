"""The Vestige ruleset object (engine.core.ruleset.Ruleset): dispatch of events to the modules,
one per rulebook chapter:

* ``setup`` (5-Minute Setup, pp. 6-7), ``board`` (Game Space Overview, the declared map),
  ``blocks`` (Dashboard & Blocks p. 8, Attributes p. 9, bonus actions convert/recover),
  ``turns`` (Game Summary, Turns & Actions, Tracking and Resetting: pp. 10, 16),
  ``actions`` (Activate p. 11, Move p. 12), ``regions`` (Visit or Rest p. 13, Control Regions
  p. 17, Map Regions pp. 30-31), ``jobs`` (Pickup or Complete a Job pp. 14-15),
  ``cards`` (Network & Tableau, Chop Bots, Contacts, Artifacts, Bounties, Augmentations,
  pp. 18-23), ``covert`` (Covert Ops p. 24, Leverage Track Triggers p. 25), ``endgame``
  (Endgame Conditions, Ending the Game p. 25, modes' scoring pp. 28-29), ``nemesis``
  (Nemesis Play pp. 26-27), ``checkpoints`` (checkpoints and partial logs), ``records``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from engine.api import (
    Balance,
    BalanceMetric,
    BaseHeader,
    Decision,
    DesignerLoop,
    FindingSink,
    Format,
    Game,
    LedgerEntry,
    Outcome,
    Page,
    TableColumns,
    Vocabulary,
)
from engine.vestige import codes, slips
from engine.vestige.actions import on_activate, on_move, on_speed_boost
from engine.vestige.blocks import on_blocks_added, on_convert, on_recover
from engine.vestige.cards import (
    on_attach,
    on_card,
    on_display,
    on_draw,
    on_effect,
    on_stack_top,
    on_transfer,
)
from engine.vestige.checkpoints import on_checkpoint
from engine.vestige.covert import on_covert_op, on_trigger
from engine.vestige.endgame import (
    compare_final,
    compute_final,
    note_goal,
    on_endgame_met,
    on_endgame_reveal,
)
from engine.vestige.jobs import on_complete, on_pickup, on_roll
from engine.vestige.loop import KNOBS, metric_labels
from engine.vestige.nemesis import on_nemesis_gain, on_nemesis_turn, on_threat_removed
from engine.vestige.records import records as _records
from engine.vestige.records import snapshot as _snapshot
from engine.vestige.regions import on_control, on_rest, on_visit
from engine.vestige.setup import build_state, on_reveal, on_seat_setup
from engine.vestige.state import GameState
from engine.vestige.turns import on_reset, on_round_start, on_turn_end, on_turn_start
from engine.vestige.warehouse import TABLES as VESTIGE_TABLES
from schemas.vestige import (
    EVENT_ADAPTER,
    EVENT_TYPES,
    EVENTS_ADAPTER,
    RULES_VERSION,
    FinalScoring,
    Phase,
    VestigeEvent,
    VestigeHeader,
    VestigeLog,
)

UNCHECKED = [
    "card abilities beyond their recorded effect: the 151 card texts are not in the rulebook",
    "whether an endgame condition or covert op objective is really met: their texts are not "
    "printed; the table's record is taken",
    "nemeses other than Bone: their threat tables are not printed; their turns are recorded",
    "Extra Regions module effects of the Bridge, Refugee Camp, White Raven, Deserted Factory, "
    "the Den and the Ring: recorded as effects, checked for blocks only",
    "where a face-up job may be picked up when the log does not record the region its stack's "
    "top card shows (stack_top events, p. 14)",
    "card supply in games with nemeses other than Bone: their packs shuffle cards into the "
    "stacks (p. 26) in numbers the rulebook does not print",
]

Handler = Callable[[GameState, Any, FindingSink], None]


def _noop(st: GameState, ev: Any, sink: FindingSink) -> None:
    return None


def on_phase(st: GameState, ev: Phase, sink: FindingSink) -> None:
    if ev.name == "setup_end":
        from engine.vestige.setup import finish_setup

        finish_setup(st, sink)
    elif ev.name == "final_scoring":
        from engine.vestige.endgame import close_game
        from engine.vestige.turns import close_open_turn

        close_open_turn(st, sink, "final scoring")
        if st.phase != "final_scoring":
            close_game(st, sink)
            st.took_turn = set(st.seats)
            st.nemesis_done = set(st.nemeses)
        st.phase = "final_scoring"
    elif ev.name == "game_end":
        compute_final(st, sink)
        st.ended = True
        st.phase = "ended"


def _cite_rulings(st: GameState, sink: FindingSink, start: int) -> None:
    """The findings of this event name the rulings it rested on (engine/vestige/rulings.py)."""
    for i in range(start, len(sink.findings)):
        f = sink.findings[i]
        sink.findings[i] = f.model_copy(update={
            "rulings": tuple(sorted(st.event_rulings | set(f.rulings)))})
    st.event_rulings = set()


def on_final_scoring(st: GameState, ev: FinalScoring, sink: FindingSink) -> None:
    if not st.final_done:
        note_goal(st, ev, sink)
    compute_final(st, sink)
    compare_final(st, ev, sink)


HANDLERS: dict[str, Handler] = {
    "card": on_card, "phase": on_phase, "seat_setup": on_seat_setup, "reveal": on_reveal,
    "display": on_display, "stack_top": on_stack_top, "endgame_reveal": on_endgame_reveal, "round_start": on_round_start,
    "turn_start": on_turn_start, "turn_end": on_turn_end, "activate": on_activate,
    "move": on_move, "visit": on_visit, "rest": on_rest, "draw": on_draw, "pickup": on_pickup,
    "roll": on_roll, "complete": on_complete, "convert": on_convert, "recover": on_recover,
    "control": on_control, "speed_boost": on_speed_boost, "reset": on_reset,
    "effect": on_effect, "blocks_added": on_blocks_added, "attach": on_attach, "covert_op": on_covert_op,
    "transfer": on_transfer, "trigger": on_trigger, "endgame_met": on_endgame_met,
    "nemesis_turn": on_nemesis_turn, "nemesis_gain": on_nemesis_gain,
    "threat_removed": on_threat_removed, "final_scoring": on_final_scoring,
    "checkpoint": on_checkpoint, "observation": _noop, "survey": _noop,
}


#: a Vestige log in notation (``[game vestige]``) or as a sheet (a ``game,vestige`` row)
VESTIGE_MARK = rb"(?im)^\s*(\[\s*game\s+vestige\s*\]|\"?game\"?\s*[,;\t]\s*\"?vestige\b)"

#: Vestige's formats besides canonical JSON (docs/vestige.md)
FORMATS: tuple[Format, ...] = (
    Format("notation", (".vst",), reader="ingest.vestige.notation:read_vestige_notation",
           writer="ingest.vestige.notation:write_vestige_notation", mark=VESTIGE_MARK,
           label="Vestige notation"),
    Format("csv", (".csv",), reader="ingest.vestige.sheet:read_vestige_sheet",
           writer="ingest.vestige.sheet:write_vestige_sheet", mark=VESTIGE_MARK,
           label="Vestige recording sheet"),
)

#: the words of Vestige's analytics pages (rulebook terms)
VOCABULARY = Vocabulary(
    score_sources={
        "region_visit": "Region visits", "region_control": "Region control",
        "region_end": "Regions at the end", "speed": "Speed track", "card": "Cards",
        "card_effect": "Card effects", "covert_op": "Covert ops", "bounty": "Bounties",
        "mastery": "Mastery tiles", "endgame": "Endgame conditions", "abandon": "Abandoned jobs",
        "stack": "Stacks", "checkpoint": "Table checkpoint",
    },
    end_conditions={
        "most_leverage": "Most leverage", "nemesis_goal": "A nemesis met its goal",
        "tie": "Tie (no winner)",
    },
    phases={"setup": "Setup", "final_scoring": "Final scoring"},
    location_labels={"round": "round", "turn": "turn"},
    seat_role="Colour",
)


class VestigeRuleset(Game):
    """Vestige (rulebook as seeded): competitive, team, solo and co-op, with nemeses. The
    game's declaration (engine.core.game), registered through the ``playtest.games`` entry
    point ``vestige = "engine.vestige:RULESET"``."""

    game = "vestige"
    title = "Vestige"
    rules_versions: tuple[str, ...] = (RULES_VERSION,)
    catalogue = codes.CATALOGUE
    # provenance (DESIGN.md §5): which values each check reads, which slips put which values
    # in doubt (engine/vestige/slips.py)
    reads = slips.READS
    doubts = slips.DOUBTS
    value_words = slips.VALUE_WORDS
    header_model: type[BaseHeader] = VestigeHeader
    log_model: type[BaseModel] = VestigeLog
    event_adapter = EVENT_ADAPTER
    events_adapter = EVENTS_ADAPTER
    event_types = EVENT_TYPES
    # Vestige's warehouse tables (engine.core.ruleset protocol), filled by records()
    tables: Mapping[str, TableColumns] = VESTIGE_TABLES

    player_counts: tuple[int, ...] = (2, 3, 4)
    bot_names: tuple[str, ...] = ("random", "heuristic", "mixed")
    location_parts: tuple[str, ...] = ("round", "turn")
    formats = FORMATS
    vocabulary = VOCABULARY
    timed_phases: tuple[str, ...] = ("setup", "final_scoring")
    rulings_dir = Path(__file__).resolve().parents[2] / "data" / "content" / "vestige" / "rulings"
    # the app's members (the app's contract: dashboards/gameapps/__init__.py; never imported here)
    board_picture = "dashboards.vestige.sections:replay_panel"
    recorder = "dashboards.vestige.record:RECORDER"
    pages = (Page(title="Vestige: modes and nemeses", url_path="vestige-modes",
                  script="../../dashboards/vestige/modes.py", icon=":material/groups:"),)
    #: balance metrics from its tables (docs/balance.md "Vestige"); no published thresholds
    balance = Balance(metrics=(
        BalanceMetric("win_rate_by_seat", "Win rate by seat",
                      "share of games each seat won, per mode (a shared win counts for each)",
                      "SELECT s.game_id, v.mode || ' · seat ' || s.seat AS key, "
                      "CAST(s.winner AS DOUBLE) AS value FROM vestige_seats s "
                      "JOIN vestige_games v USING (game_id) WHERE s.winner IS NOT NULL"),
        BalanceMetric("win_rate_by_mode", "Players' win rate by mode",
                      "share of games some seat won (not everyone lost), per mode",
                      "SELECT game_id, mode AS key, CAST(NOT everyone_lost AS DOUBLE) AS value "
                      "FROM vestige_games WHERE everyone_lost IS NOT NULL"),
        BalanceMetric("win_rate_by_nemesis", "Players' win rate by nemesis",
                      "share of games against each nemesis that the nemesis did not win",
                      "SELECT game_id, nemesis AS key, CAST(NOT won AS DOUBLE) AS value "
                      "FROM vestige_nemesis WHERE won IS NOT NULL"),
        BalanceMetric("endings", "How games end",
                      "share of games ending each way (the result the game records)",
                      "SELECT game_id, result AS key FROM vestige_games "
                      "WHERE result IS NOT NULL"),
        BalanceMetric("leverage_by_source", "Leverage by source",
                      "leverage a seat gains from each source in a game (the score ledger; "
                      "0 where the source paid nothing), mean over seats and games",
                      "SELECT v.game_id, s.source AS key, coalesce(sum(l.amount), 0)::DOUBLE "
                      "/ any_value(gm.player_count) AS value FROM vestige_games v "
                      "JOIN games gm USING (game_id) CROSS JOIN (SELECT DISTINCT source FROM "
                      "ledger WHERE game_id IN (SELECT game_id FROM vestige_games)) s "
                      "LEFT JOIN ledger l ON l.game_id = v.game_id AND l.source = s.source "
                      "AND l.seat IS NOT NULL GROUP BY v.game_id, s.source"),
        BalanceMetric("game_length", "Game length (rounds)", "rounds played, per mode",
                      "SELECT game_id, mode AS key, rounds AS value FROM vestige_games "
                      "WHERE rounds IS NOT NULL"),
    ))
    #: the designer loop (docs/variants.md): its printed numbers as knobs, study games and
    #: metrics (engine/vestige/loop.py); a variant's numbers are played (setup.py)
    plays_variants = True
    designer_loop = DesignerLoop(play="engine.vestige.loop:play",
                                 values="engine.vestige.content:values", knobs=KNOBS,
                                 metrics=metric_labels(VOCABULARY))

    def prepare_simulation(self) -> None:
        """The simulator's start-up, done once before games are timed: import the simulator
        and its bots (imported on first use: replay alone never needs them)."""
        import engine.vestige.simulate  # noqa: F401

    def simulate_one(self, seed: object, index: int, players: int,
                     bots: str = "mixed", variant: Any = None) -> VestigeLog:
        """Simulated game ``index`` of ``seed`` (engine/vestige/simulate.py), under the rules
        variant ``variant`` (a stamp) when given."""
        from engine.vestige.simulate import simulate_one

        return simulate_one(seed, index, players, bots, variant=variant)

    def setup(self, header: VestigeHeader, sink: FindingSink) -> GameState:
        if header.rules_version not in self.rules_versions:
            sink.report("log/unsupported-rules-version",
                        f"no Vestige rules version {header.rules_version!r}; replayed with "
                        f"{RULES_VERSION}", expected=RULES_VERSION, recorded=header.rules_version)
        return build_state(header, sink)

    def apply(self, state: GameState, event: VestigeEvent, sink: FindingSink) -> None:
        state.event_index = sink.event
        n = len(sink.findings)
        if len(sink.doubtful_lines) > len(state.lines_lost):
            slips.lost_lines(state, sink)  # a line before this one could not be read
        meant = slips.read_line(state, event, sink)  # one slip, one finding (slips.py)
        if meant is not None:
            HANDLERS.get(meant.type, _noop)(state, meant, sink)
        if state.event_rulings:
            _cite_rulings(state, sink, n)

    def finish(self, state: GameState, sink: FindingSink) -> None:
        st = state
        if st.final_done:
            return
        if st.phase == "final_scoring":
            n = len(sink.findings)
            compute_final(st, sink)
            if st.event_rulings:
                _cite_rulings(st, sink, n)
            return
        where = f"round {st.round}" if st.round else "setup"
        sink.report("log/partial", f"the log ends in {where}, before final scoring; only what "
                    "was recorded was checked")

    def legal_moves(self, state: GameState, passed: frozenset[str] = frozenset(), *,
                    lazy: bool = False) -> Decision:
        from engine.vestige.moves import legal_moves

        return legal_moves(state, passed)  # options are always whole events (lazy is ignored)

    def outcome(self, state: GameState) -> Outcome | None:
        if state.outcome is not None:
            return state.outcome
        return Outcome(complete=False, details={
            "final_leverage": {s.seat: s.leverage for s in state.seats.values()},
            "rounds": state.round, "declared": dict(sorted(state.declared_used.items())),
        })

    def ledger(self, state: GameState) -> list[LedgerEntry]:
        return list(state.ledger)

    def records(self, state: GameState) -> dict[str, list[dict[str, Any]]]:
        return _records(state)

    def snapshot(self, state: GameState) -> dict[str, Any]:
        return _snapshot(state)

    def ended(self, state: GameState) -> bool:
        return state.ended

    def location(self, state: GameState) -> tuple[int | None, int | None]:
        """(round, turn within the round)."""
        return (state.round or None, state.turn_no or None)

    def unchecked(self, header: Any) -> list[str]:
        return list(UNCHECKED)


RULESET = VestigeRuleset()
