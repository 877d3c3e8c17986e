"""Pig's declaration (``engine.core.game.Game``): the ruleset, with events dispatched to the
modules, one per section of the rules (``examples/pig/README.md``): ``setup`` (§2), ``turns``
(§3), ``ending`` (§4 and the final record of §5.2); ``moves`` (legal moves), ``records``
(warehouse rows and snapshots); and what it contributes to the toolkit: its score sheet format,
its tables, its rulings (the end rule), its analytics words and its page.

The toolkit finds it through the ``playtest.games`` entry point ``pig = "playtest_pig:GAME"``
(this package's ``pyproject.toml``); no file of the toolkit names it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter

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
from playtest_pig import codes
from playtest_pig.bots import BOT_NAMES
from playtest_pig.ending import ENDINGS, on_final
from playtest_pig.ending import outcome as _outcome
from playtest_pig.loop import KNOBS, METRICS
from playtest_pig.records import TABLES
from playtest_pig.records import records as _records
from playtest_pig.records import snapshot as _snapshot
from playtest_pig.schema import (
    EVENT_ADAPTER,
    EVENT_TYPES,
    EVENTS_ADAPTER,
    GAME_ID,
    RULES_VERSION,
    TIMED_PHASES,
    TITLE,
    PigHeader,
    PigLog,
)
from playtest_pig.setup import build_state
from playtest_pig.state import GameState
from playtest_pig.turns import on_hold, on_roll

HERE = Path(__file__).resolve().parent

#: the score sheet (``.pig``): Pig's text notation (playtest_pig/sheet.py)
FORMATS: tuple[Format, ...] = (
    Format("notation", (".pig",), reader="playtest_pig.sheet:read_pig_sheet",
           writer="playtest_pig.sheet:write_pig_sheet",
           mark=rb"(?im)^[ \t]*game[ \t]*:[ \t]*pig[ \t]*\r?$", label="Pig score sheet"),
)

#: the words of the analytics pages (README's terms)
VOCABULARY = Vocabulary(
    score_sources={"held_turn": "Held turn totals (§3.4)",
                   "table_correction": "Table's written score (§5.2)"},
    end_conditions=ENDINGS,
    phases={"game_start": "Whole game (start to end, breaks left out)"},
    location_labels={"round": "round", "turn": "turn"},
    seat_role="Seat",  # Pig has no factions: a seat is just a player
)

UNCHECKED = ["whether the die was fair: the numbers recorded are taken as rolled"]

Handler = Callable[[GameState, Any, FindingSink], None]


def _noop(st: GameState, ev: Any, sink: FindingSink) -> None:
    return None


def on_phase(st: GameState, ev: Any, sink: FindingSink) -> None:
    """``game_end`` closes the record of a game the rules have ended (a timing marker else)."""
    if ev.name == "game_end" and st.over:
        st.closed = True


HANDLERS: dict[str, Handler] = {
    "roll": on_roll, "hold": on_hold, "final": on_final, "phase": on_phase,
    "observation": _noop, "survey": _noop,
}


class PigRuleset(Game):
    """Pig, the traditional dice game: 2-6 players race to a target score."""

    game = GAME_ID
    title = TITLE
    rules_versions: tuple[str, ...] = (RULES_VERSION,)
    catalogue = codes.CATALOGUE
    header_model: type[BaseHeader] = PigHeader
    log_model: type[BaseModel] = PigLog
    event_adapter = EVENT_ADAPTER
    events_adapter: TypeAdapter[Any] | None = EVENTS_ADAPTER
    event_types = EVENT_TYPES
    tables: Mapping[str, TableColumns] = TABLES
    location_parts: tuple[str, ...] = ("round", "turn")
    player_counts: tuple[int, ...] = (2, 3, 4, 5, 6)
    bot_names: tuple[str, ...] = (*BOT_NAMES, "mixed")
    formats = FORMATS
    vocabulary = VOCABULARY
    # a game of Pig is timed as a whole, and turn by turn (playtest_pig/timing.py)
    timed_phases: tuple[str, ...] = TIMED_PHASES
    timing = "playtest_pig.timing:pig_timing"
    rulings_dir = HERE / "rulings"
    protocols_dir = HERE / "protocols"  # pig-observation/v1.json: what a facilitator captures
    samples_dir = HERE / "samples"  # a bot game and a walkthrough sheet: playtest demo loads them
    board_picture = "playtest_pig.board:score_track"  # the Replay viewer's picture
    recorder = "playtest_pig.recorder:RECORDER"  # live entry on the Record page
    pages: tuple[Page, ...] = (Page(title="Pig: turn risk", script=str(HERE / "page.py"), url_path="pig-turn-risk"),)
    #: balance metrics from its tables (the Balance page); Pig publishes no thresholds
    balance = Balance(metrics=(
        BalanceMetric("first_player_advantage", "First-player advantage",
                      "the first player's win rate minus the even share 1/n (0: no advantage); "
                      "the first player holds the game's first turn",
                      "SELECT s.game_id, CAST(s.winner AS DOUBLE) - 1.0 / g.player_count AS "
                      "value FROM pig_seats s JOIN games g USING (game_id) JOIN (SELECT "
                      "game_id, arg_min(seat, event) AS first FROM pig_turns GROUP BY game_id) "
                      "f USING (game_id) WHERE s.seat = f.first AND s.winner IS NOT NULL"),
        BalanceMetric("game_length", "Game length (rounds)", "rounds played to the end",
                      "SELECT game_id, rounds AS value FROM pig_games WHERE rounds IS NOT NULL"),
    ))
    # the designer loop: the target score as a knob, study games and metrics (playtest_pig/loop.py)
    plays_variants = True
    designer_loop = DesignerLoop(play="playtest_pig.loop:play", values="playtest_pig.loop:values",
                                 knobs=KNOBS, metrics=METRICS)

    def simulate_one(self, seed: object, index: int, players: int,
                     bots: str = "mixed", variant: Any = None) -> PigLog:
        """Simulated game ``index`` of ``seed`` (playtest_pig/simulate.py), under the rules
        variant ``variant`` (a stamp) when given."""
        from playtest_pig.simulate import simulate_one

        return simulate_one(seed, index, players, bots, variant=variant)

    def setup(self, header: PigHeader, sink: FindingSink) -> GameState:
        if header.rules_version not in self.rules_versions:
            sink.report("log/unsupported-rules-version",
                        f"no Pig rules version {header.rules_version!r}; replayed with "
                        f"{RULES_VERSION}", expected=RULES_VERSION, recorded=header.rules_version)
        return build_state(header, sink, self)

    def apply(self, state: GameState, event: Any, sink: FindingSink) -> None:
        state.event_index = sink.event
        HANDLERS.get(event.type, _noop)(state, event, sink)

    def finish(self, state: GameState, sink: FindingSink) -> None:
        if not state.over:
            best = max(state.scores.values(), default=0)
            sink.report("log/partial",
                        f"the log ends in round {state.round} with the highest score {best} of "
                        f"{state.target}, before anyone won; only what was recorded was checked")

    def legal_moves(self, state: GameState, passed: frozenset[str] = frozenset(), *,
                    lazy: bool = False) -> Decision:
        from playtest_pig.moves import legal_moves

        return legal_moves(state, passed)  # options are whole events (lazy is ignored)

    def outcome(self, state: GameState) -> Outcome | None:
        return _outcome(state)

    def ledger(self, state: GameState) -> list[LedgerEntry]:
        return list(state.ledger)

    def records(self, state: GameState) -> dict[str, list[dict[str, Any]]]:
        return _records(state)

    def snapshot(self, state: GameState) -> dict[str, Any]:
        return _snapshot(state)

    def ended(self, state: GameState) -> bool:
        return state.closed

    def location(self, state: GameState) -> tuple[int | None, int | None]:
        """(round, turn number of the game)."""
        return (state.round, state.turn_no)

    def unchecked(self, header: Any) -> list[str]:
        return list(UNCHECKED)


RULESET = PigRuleset()
