"""The interface every ruleset implements (boardgame.io / OpenSpiel style).

A ruleset is data (its content pack) plus pure functions over a state it defines:

* ``setup(header, sink) -> state``
* ``apply(state, event, sink) -> None``: folds one event into the state, reporting findings on
  the sink. It mutates ``state`` in place for speed; ``replay_to`` re-folds from the start
  when an earlier position is wanted (measured: see docs/engine.md).
* ``legal_moves(state) -> Decision``: who decides next and what they may do.
* ``outcome(state) -> Outcome | None``
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from pydantic import BaseModel, TypeAdapter

    from engine.core.findings import Catalogue, FindingSink
    from engine.core.replay import LedgerEntry, Outcome
    from schemas.log import BaseHeader


@dataclass(slots=True)
class Decision:
    """The next decision point of a game.

    * ``kind == "player"``: ``seat`` chooses one of ``options`` (complete events).
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


class Ruleset(Protocol):
    game: str
    title: str
    rules_versions: tuple[str, ...]
    catalogue: Catalogue
    header_model: type[BaseHeader]
    log_model: type[BaseModel]
    event_adapter: TypeAdapter[Any]
    event_types: frozenset[str]

    def setup(self, header: Any, sink: FindingSink) -> Any: ...

    def apply(self, state: Any, event: Any, sink: FindingSink) -> None: ...

    def finish(self, state: Any, sink: FindingSink) -> None:
        """Called once after the last event (e.g. to note a partial log)."""
        ...

    def legal_moves(self, state: Any) -> Decision: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def ledger(self, state: Any) -> list[LedgerEntry]: ...

    def records(self, state: Any) -> dict[str, list[dict[str, Any]]]: ...

    def snapshot(self, state: Any) -> dict[str, Any]: ...

    def ended(self, state: Any) -> bool: ...

    def location(self, state: Any) -> tuple[int | None, int | None]:
        """(era, cycle) for locating findings."""
        ...

    def unchecked(self, header: Any) -> list[str]:
        """Rules this ruleset does not check for this game (e.g. Advanced Play supplements)."""
        ...
