"""The simulator: bots play complete games through a ruleset's legal moves and ``apply``.

:func:`simulate_game` is game-agnostic: it loops ``legal_moves -> choose -> apply`` over any
registered ruleset, resolving chance nodes with the given seeded ``random.Random`` and asking
each seat's bot (or a non-seat actor's bot, e.g. a nemesis) otherwise. :func:`simulate_one` and
:func:`simulate` deal games of any ruleset through its ``simulate_one`` (Mandate 2038's in
``engine/mandate2038/simulation.py``: random factions, seats, map and first Initiative, all from
the seed), labelled ``session_type: "simulation"`` with the bots, version and seed in
``provenance.generator``.

Game ``index`` of a run with seed ``S`` uses ``random.Random(f"{S}:{index}")`` only, so every game
is reproducible on its own from (seed, index). Nothing here reads a clock or does I/O.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterator, Sequence
from functools import cache, partial
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel

from engine.core.findings import FindingSink
from engine.core.registry import DEFAULT_GAME, get_ruleset
from engine.core.ruleset import Decision, Pass, Ruleset
from engine.core.variants import for_setup
from schemas.findings import Finding

SIMULATOR_VERSION = "0.1.0"
MAX_EVENTS = 20_000


class SimulationError(RuntimeError):
    """A bot game could not be completed (a programmer error in the rules or move generator).

    ``events`` holds the events applied so far and ``findings`` what the engine reported.
    """

    def __init__(self, message: str, events: list[Any], findings: list[Finding]) -> None:
        super().__init__(message)
        self.events = events
        self.findings = findings


def _moves_function(ruleset: Ruleset) -> Callable[..., Decision]:
    """``(state, passed=...) -> Decision``: the ruleset's legal moves, lazy options allowed (only
    the chosen one is built). A ruleset may offer ``simulation_moves()``: the same function
    without its own indirection (Mandate 2038's move generator, called directly)."""
    direct = ruleset.simulation_moves
    if direct is not None:
        moves: Callable[..., Decision] = direct()
        return moves
    return partial(ruleset.legal_moves, lazy=True)


#: option class -> it has ``materialize()`` (a lazy option): looked up once per class
_LAZY_CLASSES: dict[type, bool] = {}


def _chance(decision: Decision, rng: random.Random) -> Any:
    opts = decision.options
    n = len(opts)
    if n == 1:
        return opts[0]
    weights = decision.weights
    if weights is None:
        return opts[rng.randrange(n)]
    return rng.choices(opts, weights=weights, k=1)[0]


def simulate_game(
    ruleset: Ruleset,
    header: Any,
    bots: dict[int, Any] | Sequence[Any],
    rng: random.Random,
    *,
    after_event: Callable[[Any, Any], Sequence[Any]] | None = None,
    after_types: Collection[type] | None = None,
    strict: bool = True,
    max_events: int = MAX_EVENTS,
) -> Any:
    """Play one game from ``header`` and return its log (``ruleset.log_model``).

    ``bots`` maps seat number (1-based) to a bot, or is a sequence in seat order; a non-seat
    actor's decisions (``Decision.actor``, e.g. ``"nemesis"``) go to ``bots[actor]`` when given,
    else are drawn from ``rng`` like chance nodes. ``after_event(state, event)`` may return extra events to record (e.g.
    checkpoints), which are applied too; with ``after_types`` it is called only after events of
    those classes (it returns nothing after the others). With ``strict`` a finding on a legal move raises
    :class:`SimulationError` naming it (it means the move generator and the rules disagree).
    """
    seat_bots: dict[Any, Any] = (
        dict(bots) if isinstance(bots, dict) else {i + 1: b for i, b in enumerate(bots)}
    )
    parts = tuple(ruleset.location_parts)
    moves = _moves_function(ruleset)
    sink = FindingSink(ruleset.catalogue)
    state = ruleset.setup(for_setup(header), sink)  # a variant's options (docs/variants.md)
    if strict and sink.findings:
        raise SimulationError(f"setup reported findings: {sink.findings[0].message}", [], sink.findings)
    events: list[Any] = []
    passed: set[str] = set()
    no_pass: frozenset[str] = frozenset()
    placing = FindingSink.placing(parts)  # the stored parts of a location, by position
    lazy_classes = _LAZY_CLASSES
    rs_apply, rs_location, findings = ruleset.apply, ruleset.location, sink.findings

    # the ruleset's apply may locate the sink itself (``apply_locates``)
    self_located = ruleset.apply_locates is True

    def apply(e: Any) -> None:
        sink.event = len(events)
        if not self_located:
            loc = rs_location(state)  # as sink.locate(parts, loc), its names found once
            for i, name in placing:
                if i < len(loc):
                    setattr(sink, name, loc[i])
        before = len(findings)
        rs_apply(state, e, sink)
        events.append(e)
        if strict and len(findings) > before:
            f = findings[before]
            raise SimulationError(
                f"event {len(events) - 1} ({e.type}) produced finding {f.code}: {f.message}",
                events, findings,
            )

    hook = after_event
    hook_types = None if after_types is None else frozenset(after_types)
    while True:
        if len(events) > max_events:
            raise SimulationError(f"the game did not end within {max_events} events", events, sink.findings)
        d = moves(state, passed=frozenset(passed) if passed else no_pass)
        kind = d.kind
        if kind == "player":
            who = d.seat if d.seat is not None else d.actor
            if not d.options:
                raise SimulationError(f"no legal option for {who} ({d.label})", events, sink.findings)
            bot = seat_bots.get(who) if who is not None else None
            choice = bot.choose(state, d.seat, d.options, d.label) if bot else _chance(d, rng)
        elif kind == "chance":
            choice = _chance(d, rng)
        elif kind == "simultaneous":
            picks = {}
            for seat, opts in sorted(d.per_seat.items()):
                if not opts:
                    raise SimulationError(f"seat {seat} has no eligible selection ({d.label})", events, sink.findings)
                picks[seat] = seat_bots[seat].choose(state, seat, opts, d.label)
            assert d.combine is not None
            choice = d.combine(picks)
        elif kind == "end":
            break
        else:
            raise SimulationError(f"unknown decision kind {kind!r} ({d.label})", events, sink.findings)
        cls = type(choice)
        lazy = lazy_classes.get(cls)
        if lazy is None:  # once per class: a missing attribute of a pydantic model (or of its
            # class, through the metaclass) costs an exception inside a Python __getattr__
            lazy = lazy_classes[cls] = getattr(cls, "materialize", None) is not None
        if lazy:  # a lazy option (e.g. moves.Spec)
            choice = choice.materialize()  # build the chosen event
            cls = type(choice)
        elif cls is Pass or isinstance(choice, Pass):  # declining an optional window: record nothing
            passed.add(choice.key)
            continue
        if passed:
            passed.clear()
        apply(choice)
        if hook is not None and (hook_types is None or cls in hook_types):
            for extra in hook(state, choice):
                apply(extra)
    ruleset.finish(state, sink)
    if strict and sink.findings:
        f = sink.findings[0]
        raise SimulationError(f"finishing the game produced finding {f.code}: {f.message}", events, sink.findings)
    return build_log(ruleset.log_model, header, events)


@cache
def _log_parts(log_model: type[BaseModel]) -> tuple[type, frozenset[type]] | None:
    """The header class and the event classes of ``log_model`` (``header: H``,
    ``events: list[Annotated[A | B | ..., discriminator]]``), or None for another shape."""
    fields = log_model.model_fields
    if set(fields) != {"format", "format_version", "header", "events"}:
        return None
    header, events = fields["header"].annotation, fields["events"].annotation
    if get_origin(events) is not list or not isinstance(header, type):
        return None
    (item,) = get_args(events)
    if get_origin(item) is Annotated:
        item = get_args(item)[0]
    members = get_args(item) or (item,)
    if not all(isinstance(m, type) and issubclass(m, BaseModel) for m in members):
        return None
    return header, frozenset(members)


def build_log(log_model: type[BaseModel], header: Any, events: list[Any]) -> Any:
    """``log_model(header=header, events=events)``, without validating the events again when
    they are all instances of the log's event models (as the simulator builds them): pydantic
    keeps such instances unchanged (``revalidate_instances="never"``), so the log is the same
    object graph (tests/test_engine_sim_build.py compares both over whole games). Anything
    else (a dict, a foreign event) goes through validation."""
    parts = _log_parts(log_model) if isinstance(log_model, type) else None  # (wrapped: as is)
    if parts is not None and type(header) is parts[0]:
        members = parts[1]
        if all(type(e) in members for e in events):
            return log_model.model_construct(header=header, events=events)
    return log_model(header=header, events=events)


# --- any ruleset ----------------------------------------------------------------------------


def ruleset_for(game: str) -> Ruleset:
    """The registered ruleset of ``game`` that can simulate (ValueError otherwise)."""
    rs = get_ruleset(game)
    if rs is None:
        raise ValueError(f"no ruleset is registered for game {game!r}")
    if rs.simulate_one is None:
        raise ValueError(f"the {game} ruleset has no simulator")
    return rs


def simulate_one(seed: Any, index: int, players: int, bots: str = "mixed", *,
                 game: str = DEFAULT_GAME) -> Any:
    """Game ``index`` of a run with ``seed`` of ``game``: reproducible on its own from (seed,
    index). ValueError for a player count or bot name the ruleset does not simulate."""
    rs = ruleset_for(game)
    names = tuple(rs.bot_names)
    if names and bots not in names:
        raise ValueError(f"unknown bot choice {bots!r}; choose one of {', '.join(names)}")
    counts = tuple(rs.player_counts)
    if counts and players not in counts:
        raise ValueError(f"the {game} simulator plays {_counts_text(counts)} players, not {players}")
    play = rs.simulate_one
    if play is None:  # pragma: no cover - ruleset_for refused it
        raise ValueError(f"the {game} ruleset has no simulator")
    return play(seed, index, players, bots)


def _counts_text(counts: Sequence[int]) -> str:
    c = [str(x) for x in sorted(counts)]
    return c[0] if len(c) == 1 else ", ".join(c[:-1]) + " or " + c[-1]


def simulate(
    n_games: int, players: int | Sequence[int], seed: Any, bots: str = "mixed", *, start: int = 0,
    game: str = DEFAULT_GAME,
) -> Iterator[Any]:
    """Yield ``n_games`` complete simulated logs of ``game`` (game indices ``start..``).

    ``players`` is a count or a sequence of counts used in turn (game i plays
    ``players[i % len(players)]``).
    """
    counts = [players] if isinstance(players, int) else list(players)
    for i in range(start, start + n_games):
        yield simulate_one(seed, i, counts[i % len(counts)], bots, game=game)


# Mandate 2038's dealing lives with its ruleset; kept importable from here.
BOT_CHOICES = ("random", "heuristic", "mixed")
