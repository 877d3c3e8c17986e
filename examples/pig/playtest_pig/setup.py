"""§2 Setup: seats (§2.1), scores at 0 (§2.2), the target (§2.3) and the first player (§2.4);
§1.2: at least two players; the rulings in force (the end rule of §4, rulings/*.json)."""

from __future__ import annotations

from typing import Any

from engine.api import FindingSink, RulingsError, resolve_options
from playtest_pig.loop import target_of
from playtest_pig.schema import PigHeader
from playtest_pig.state import GameState


def build_state(header: PigHeader, sink: FindingSink, game: Any) -> GameState:
    """The state before the first roll (``game``: Pig's declaration, whose rulings apply);
    findings for a table the rules do not allow."""
    numbers = [s.seat for s in header.seats]
    seats = tuple(sorted(set(numbers)))
    if len(seats) < 2:
        sink.report("pig-setup/players", f"Pig needs at least two players; the log has "
                    f"{len(seats)}", expected=">= 2", recorded=len(seats))
    if list(seats) != list(range(1, len(seats) + 1)) or len(numbers) != len(seats):
        sink.report("pig-setup/seats", f"seats must be numbered 1..{len(numbers)} once each; "
                    f"the log has {numbers}", expected=list(range(1, len(numbers) + 1)),
                    recorded=numbers)
    first = header.first_player
    if first not in seats:
        sink.report("pig-setup/first-player", f"the first player is seat {first}, which is not "
                    f"at the table ({', '.join(map(str, seats))})", recorded=first)
        first = seats[0] if seats else 1
    try:
        rulings = resolve_options(game, header.rulings, header.rules_version)
    except RulingsError as err:
        sink.report("pig-setup/rulings", f"the header's rulings {header.rulings!r} cannot be "
                    f"used: {err}; replayed under the default rulings", recorded=header.rulings)
        rulings = resolve_options(game, None, header.rules_version)
    return GameState(
        header=header, seats=seats or (1,), target=target_of(header.variant, header.target),
        end_rule=rulings.get("end", "immediate"), first_player=first,
        scores={s: 0 for s in seats}, active=first, rulings=rulings,
    )
