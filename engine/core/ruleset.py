"""The interface every ruleset implements (boardgame.io / OpenSpiel style).

A ruleset is data (its content pack) plus pure functions over a state it defines:

* ``setup(header, sink) -> state``
* ``apply(state, event, sink) -> None``: folds one event into the state, reporting findings on
  the sink. It mutates ``state`` in place for speed; ``replay_to`` re-folds from the start
  when an earlier position is wanted (measured: see docs/engine.md).
* ``legal_moves(state, passed) -> Decision``: who decides next and what they may do.
* ``outcome(state) -> Outcome | None``: how the game ended (competitive, team, co-op or solo).
* ``location(state)``: where the game is, as a tuple of the parts named by ``location_parts``
  (Mandate 2038: Era and cycle; Vestige: round and turn).
* ``records(state)``: the rows of the warehouse tables the ruleset declares in ``tables``.

The simulator and the conformance tests use only this interface, so a new game is a new package
that declares its ruleset (``engine/core/game.py``) in the ``playtest.games`` entry-point group
(``engine/core/registry.py``), not a change to the core.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from pydantic import BaseModel, TypeAdapter

    from engine.core.findings import Catalogue, FindingSink
    from engine.core.game import Balance, DesignerLoop, Folder, Format, Page, Vocabulary
    from engine.core.replay import LedgerEntry, Outcome
    from schemas.log import BaseHeader

# Parts of a location that findings' ``where`` (the validate contract) and the warehouse's shared
# tables carry; a ruleset's other parts (e.g. Vestige's turn within a round) stay in its own rows.
WHERE_PARTS: tuple[str, ...] = ("era", "cycle", "round")

# A warehouse table declared by a ruleset: (column, DuckDB type) pairs, without ``game_id``.
# Types: VARCHAR INTEGER DOUBLE BOOLEAN TIMESTAMP DATE JSON VARCHAR[] INTEGER[].
TableColumns = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """Declining an optional window (e.g. keeping a window closed): an option that records no
    event. The caller asks again with ``key`` in ``passed`` (see :meth:`Ruleset.legal_moves`)."""

    key: str
    label: str = ""


@dataclass(slots=True)
class Decision:
    """The next decision point of a game.

    * ``kind == "player"``: ``seat`` chooses one of ``options`` (complete events, lazy options
      with ``materialize()``, or :class:`Pass`). A decision by someone who is not a seat (a
      Vestige nemesis taking its turn) has ``seat=None`` and ``actor`` naming it.
    * ``kind == "chance"``: nature picks one of ``options`` with probability ``weights``.
    * ``kind == "simultaneous"``: every seat in ``per_seat`` picks one of its options at once;
      ``combine(picks)`` builds the single event that records them.
    * ``kind == "end"``: the game is over.
    """

    kind: Literal["player", "chance", "simultaneous", "end"]
    seat: int | None = None
    options: Sequence[Any] = ()
    weights: Sequence[float] | None = None
    per_seat: dict[int, Sequence[Any]] = field(default_factory=dict)
    combine: Callable[[dict[int, Any]], Any] | None = None
    label: str = ""
    actor: str | None = None  # a non-seat decider ("nemesis"); None for a seat or nature

    @property
    def who(self) -> int | str | None:
        """The seat deciding, else the non-seat actor (None for chance and the end)."""
        return self.seat if self.seat is not None else self.actor


class Bot(Protocol):
    """A player program: picks one of the legal ``options`` of a decision."""

    def choose(self, state: Any, seat: int | None, options: Sequence[Any], label: str) -> Any: ...


class Ruleset(Protocol):
    game: str
    title: str
    rules_versions: tuple[str, ...]
    catalogue: Catalogue
    header_model: type[BaseHeader]
    log_model: type[BaseModel]
    event_adapter: TypeAdapter[Any]
    event_types: frozenset[str]
    # Names of the parts of ``location(state)``, e.g. ("era", "cycle") or ("round", "turn").
    location_parts: tuple[str, ...]
    # The ruleset's warehouse tables (table -> columns); for the shared "seats" and "outcomes"
    # tables only the columns it adds. ``records`` fills them.
    tables: Mapping[str, TableColumns]
    # Simulation: player counts and bot names the simulator accepts.
    player_counts: tuple[int, ...]
    bot_names: tuple[str, ...]
    # The rest of the declaration (engine/core/game.py; registration fills the defaults), read
    # only: a class attribute, a method or None each satisfy these.
    @property
    def events_adapter(self) -> Any: ...
    @property
    def apply_locates(self) -> bool: ...
    @property
    def plays_variants(self) -> bool: ...
    @property
    def after_end_events(self) -> frozenset[str]: ...
    @property
    def reads(self) -> Mapping[str, tuple[str, ...]]: ...
    @property
    def doubts(self) -> Mapping[str, tuple[str, ...]]: ...
    @property
    def value_words(self) -> Mapping[str, str]: ...
    @property
    def formats(self) -> tuple[Format, ...]: ...
    @property
    def timed_phases(self) -> tuple[str, ...]: ...
    @property
    def timing(self) -> str | None: ...
    @property
    def rulings_dir(self) -> Path | None: ...
    @property
    def protocols_dir(self) -> Path | None: ...
    @property
    def samples_dir(self) -> Path | None: ...
    @property
    def vocabulary(self) -> Vocabulary: ...
    @property
    def board_picture(self) -> str | None: ...
    @property
    def content_names(self) -> str | None: ...
    @property
    def recorder(self) -> str | None: ...
    @property
    def pages(self) -> tuple[Page, ...]: ...
    @property
    def session_folder(self) -> Folder | None: ...
    @property
    def content_pack(self) -> str | None: ...
    @property
    def balance(self) -> Balance: ...
    @property
    def designer_loop(self) -> DesignerLoop | None: ...
    @property
    def synthetic_log(self) -> str | None: ...
    #: ``(seed, index, players, bots="mixed") -> log``: simulated game ``index`` of a run with
    #: ``seed`` (labelled simulated), reproducible on its own; None when the game has no
    #: simulator. ``prepare_simulation()`` (or None) does the simulator's start-up;
    #: ``simulation_moves()`` (or None) returns a faster ``legal_moves`` with lazy options.
    @property
    def simulate_one(self) -> Callable[..., Any] | None: ...
    @property
    def prepare_simulation(self) -> Callable[[], Any] | None: ...
    @property
    def simulation_moves(self) -> Callable[[], Callable[..., Decision]] | None: ...
    #: ``seats_at_table(state)`` (or None): the seats the state can hold, when fewer than the
    #: header lists
    @property
    def seats_at_table(self) -> Callable[[Any], Any] | None: ...

    def setup(self, header: Any, sink: FindingSink) -> Any: ...

    def apply(self, state: Any, event: Any, sink: FindingSink) -> None: ...

    def finish(self, state: Any, sink: FindingSink) -> None:
        """Called once after the last event (e.g. to note a partial log)."""
        ...

    def legal_moves(self, state: Any, passed: frozenset[str] = frozenset(), *,
                    lazy: bool = False) -> Decision:
        """Who decides next and their options. ``passed`` holds the keys of the :class:`Pass`
        options already declined at this point; with ``lazy`` the options may be specs with a
        ``materialize()`` method that builds the event (bots that need only the chosen one)."""
        ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def ledger(self, state: Any) -> list[LedgerEntry]: ...

    def records(self, state: Any) -> dict[str, list[dict[str, Any]]]:
        """Rows of the tables in ``tables``; ``"seats"`` rows (with ``seat``) and one
        ``"outcomes"`` row carry the ruleset's columns of those shared tables."""
        ...

    def snapshot(self, state: Any) -> dict[str, Any]: ...

    def ended(self, state: Any) -> bool: ...

    def location(self, state: Any) -> tuple[int | None, ...]:
        """Where the game is, one value per ``location_parts`` (None when not known)."""
        ...

    def unchecked(self, header: Any) -> list[str]:
        """Rules this ruleset does not check for this game (e.g. Advanced Play supplements)."""
        ...
