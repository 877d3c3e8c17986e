"""The simulator: bots play complete games through a ruleset's legal moves and ``apply``.

:func:`simulate_game` is game-agnostic: it loops ``legal_moves -> choose -> apply`` over any
registered ruleset, resolving chance nodes with the given seeded ``random.Random`` and asking
each seat's bot otherwise. :func:`simulate` deals Mandate 2038 games (random factions, seats, map
and first Initiative, all from the seed) and yields their canonical logs, labelled
``session_type: "simulation"`` with the bots, version and seed in ``provenance.generator``.

Game ``index`` of a run with seed ``S`` uses ``random.Random(f"{S}:{index}")`` only, so every game
is reproducible on its own from (seed, index). Nothing here reads a clock or does I/O.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from engine.core.findings import FindingSink
from engine.core.ruleset import Decision, Ruleset
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


def _moves_function(ruleset: Ruleset) -> Callable[[Any, frozenset[str]], Decision]:
    """``(state, passed) -> Decision`` for the ruleset (``passed`` when it accepts it)."""
    if ruleset.game == "mandate2038":  # lazy options: only the chosen one is built
        from engine.mandate2038.moves import legal_moves as mandate_moves

        return lambda st, passed: mandate_moves(st, None, passed, lazy=True)
    fn = ruleset.legal_moves
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins
        params = {}  # type: ignore[assignment]
    if "passed" in params:
        return lambda st, passed: fn(st, passed=passed)  # type: ignore[call-arg]
    return lambda st, passed: fn(st)


def _chance(decision: Decision, rng: random.Random) -> Any:
    opts = decision.options
    if len(opts) == 1:
        return opts[0]
    weights = decision.weights
    if weights is None:
        return opts[rng.randrange(len(opts))]
    return rng.choices(opts, weights=weights, k=1)[0]


def simulate_game(
    ruleset: Ruleset,
    header: Any,
    bots: dict[int, Any] | Sequence[Any],
    rng: random.Random,
    *,
    after_event: Callable[[Any, Any], list[Any]] | None = None,
    strict: bool = True,
    max_events: int = MAX_EVENTS,
) -> Any:
    """Play one game from ``header`` and return its log (``ruleset.log_model``).

    ``bots`` maps seat number (1-based) to a bot, or is a sequence in seat order. Chance nodes
    draw from ``rng``. ``after_event(state, event)`` may return extra events to record (e.g.
    checkpoints), which are applied too. With ``strict`` a finding on a legal move raises
    :class:`SimulationError` naming it (it means the move generator and the rules disagree).
    """
    seat_bots = dict(bots) if isinstance(bots, dict) else {i + 1: b for i, b in enumerate(bots)}
    moves = _moves_function(ruleset)
    sink = FindingSink(ruleset.catalogue)
    state = ruleset.setup(header, sink)
    if strict and sink.findings:
        raise SimulationError(f"setup reported findings: {sink.findings[0].message}", [], sink.findings)
    events: list[Any] = []
    passed: set[str] = set()

    def apply(e: Any) -> None:
        sink.event = len(events)
        sink.era, sink.cycle = ruleset.location(state)
        before = len(sink.findings)
        ruleset.apply(state, e, sink)
        events.append(e)
        if strict and len(sink.findings) > before:
            f = sink.findings[before]
            raise SimulationError(
                f"event {len(events) - 1} ({e.type}) produced finding {f.code}: {f.message}",
                events, sink.findings,
            )

    while True:
        if len(events) > max_events:
            raise SimulationError(f"the game did not end within {max_events} events", events, sink.findings)
        d = moves(state, frozenset(passed))
        if d.kind == "end":
            break
        if d.kind == "chance":
            choice = _chance(d, rng)
        elif d.kind == "simultaneous":
            picks = {}
            for seat, opts in sorted(d.per_seat.items()):
                if not opts:
                    raise SimulationError(f"seat {seat} has no eligible selection ({d.label})", events, sink.findings)
                picks[seat] = seat_bots[seat].choose(state, seat, opts, d.label)
            assert d.combine is not None
            choice = d.combine(picks)
        else:
            if not d.options:
                raise SimulationError(f"no legal option for seat {d.seat} ({d.label})", events, sink.findings)
            bot = seat_bots[d.seat] if d.seat is not None else None
            choice = bot.choose(state, d.seat, d.options, d.label) if bot else _chance(d, rng)
        cls = type(choice)  # class lookups: an event's own __getattr__ is slow when it misses
        if getattr(cls, "materialize", None) is not None:  # a lazy option (e.g. moves.Spec)
            choice = choice.materialize()  # build the chosen event
        elif getattr(cls, "model_fields", None) is None:  # not an event: maybe a Pass
            key = getattr(choice, "key", None)
            if isinstance(key, str) and not hasattr(choice, "type"):  # a Pass: record nothing
                passed.add(key)
                continue
        passed.clear()
        apply(choice)
        if after_event is not None:
            for extra in after_event(state, choice):
                apply(extra)
    ruleset.finish(state, sink)
    if strict and sink.findings:
        f = sink.findings[0]
        raise SimulationError(f"finishing the game produced finding {f.code}: {f.message}", events, sink.findings)
    return ruleset.log_model(header=header, events=events)


# --- Mandate 2038 games ---------------------------------------------------------------------

BOT_CHOICES = ("random", "heuristic", "mixed")


def random_map(pack: Any, rng: random.Random) -> dict[str, str]:
    """Frontier at the centre; each ring pool shuffled independently (core rules §1 step 1)."""
    from engine.mandate2038.board import INNER, OUTER

    inner = [t.id for t in pack.tiles for _ in range(t.pool.inner)]
    outer = [t.id for t in pack.tiles for _ in range(t.pool.outer)]
    rng.shuffle(inner)
    rng.shuffle(outer)
    layout = {"F": next(t.id for t in pack.tiles if t.pool.center)}
    layout.update(zip(INNER, inner, strict=True))
    layout.update(zip(OUTER, outer, strict=True))
    return layout


def game_header(pack: Any, players: int, rng: random.Random, seat_bots: list[str], *, seed: Any,
                index: int) -> Any:
    """The header of simulated game ``index``: random factions, map and first Initiative."""
    from schemas.log import Provenance, SeatInfo
    from schemas.mandate2038 import MandateHeader

    factions = rng.sample([f.id for f in pack.factions], players)
    layout = random_map(pack, rng)
    first = rng.randint(1, players)
    bots_txt = ",".join(f"{i + 1}:{b}" for i, b in enumerate(seat_bots))
    return MandateHeader(
        session_type="simulation",
        game_id=f"sim-{seed}-{index:05d}",
        seats=[SeatInfo(seat=i + 1, faction=f, player=f"bot:{seat_bots[i]}") for i, f in enumerate(factions)],
        map=layout,
        first_initiative=first,
        provenance=Provenance(
            source_format="simulator",
            generator=(f"playtest simulate {SIMULATOR_VERSION} bots={bots_txt} "
                       f"seed={seed} game={index}"),
            description=f"simulated game {index} of seed {seed}; bots by seat: {bots_txt}",
        ),
        notes="Simulated by bots through the engine; not a human playtest.",
    )


def _mandate_checkpoints(state: Any, event: Any) -> list[Any]:
    from engine.mandate2038.moves import checkpoint_event

    if getattr(event, "type", None) == "era_mandate":
        return [checkpoint_event(state, f"end of Era {state.era}")]
    return []


def simulate_one(seed: Any, index: int, players: int, bots: str = "mixed") -> Any:
    """Game ``index`` of a run with ``seed``: reproducible on its own from (seed, index)."""
    from engine.core.registry import get_ruleset
    from engine.mandate2038.bots import make_bot
    from schemas.packs import load_pack

    if bots not in BOT_CHOICES:
        raise ValueError(f"unknown bot choice {bots!r}; choose one of {', '.join(BOT_CHOICES)}")
    if not 3 <= players <= 5:
        raise ValueError(f"the simulator plays 3, 4 or 5 players, not {players}")
    ruleset = get_ruleset("mandate2038")
    if ruleset is None:
        raise RuntimeError("the mandate2038 ruleset is not registered")
    pack = load_pack("mandate2038", "0.8.0-rc.17-test")
    rng = random.Random(f"{seed}:{index}")
    if bots == "mixed":
        seat_bots = [rng.choice(("random", "heuristic")) for _ in range(players)]
    else:
        seat_bots = [bots] * players
    header = game_header(pack, players, rng, seat_bots, seed=seed, index=index)
    seat_objs = {i + 1: make_bot(b, random.Random(f"{seed}:{index}:bot{i + 1}"))
                 for i, b in enumerate(seat_bots)}
    return simulate_game(ruleset, header, seat_objs, rng, after_event=_mandate_checkpoints)


def simulate(
    n_games: int, players: int | Sequence[int], seed: Any, bots: str = "mixed", *, start: int = 0
) -> Iterator[Any]:
    """Yield ``n_games`` complete simulated Mandate 2038 logs (game indices ``start..``).

    ``players`` is a count or a sequence of counts used in turn (game i plays
    ``players[i % len(players)]``).
    """
    counts = [players] if isinstance(players, int) else list(players)
    for i in range(start, start + n_games):
        yield simulate_one(seed, i, counts[i % len(counts)], bots)
