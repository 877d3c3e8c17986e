"""Legal moves: who decides next in a game of Pig, and what they may do.

* A turn begins with a roll (§3.5): the die is rolled (a chance decision, faces 1-6 alike);
  the roll records the running turn total as the table writes it (§5.2).
* After a roll of two to six (§3.3) the seat on turn chooses: hold (§3.4), or roll again,
  offered as :class:`~engine.core.ruleset.Pass` ``"roll"`` (roll again records no event of its
  own: the roll that follows records the decision and the die together, as the log does).
* When the rules have ended the game (§4), the table writes its final record (§5.2): the
  engine's scores and winners.
"""

from __future__ import annotations

from engine.api import Decision, Pass
from playtest_pig.schema import Final, Hold, Roll
from playtest_pig.state import GameState

ROLL_AGAIN = Pass("roll", "roll again")
FACES = (1, 2, 3, 4, 5, 6)


def die(st: GameState) -> Decision:
    """The roll of the seat on turn: chance, each face alike (§1.1)."""
    total = st.turn_total
    return Decision(kind="chance",
                    options=[Roll(seat=st.active, face=f, total=0 if f == 1 else total + f)
                             for f in FACES],
                    weights=[1.0] * len(FACES), label=f"seat {st.active} rolls the die")


def legal_moves(st: GameState, passed: frozenset[str] = frozenset()) -> Decision:
    """The next decision of the game in ``st``."""
    if st.closed:
        return Decision(kind="end", label="the game is over")
    if st.over:
        record = Final(scores=dict(sorted(st.scores.items())), winners=list(st.winners))
        return Decision(kind="chance", options=[record], label="the table's final record")
    if not st.rolled or ROLL_AGAIN.key in passed:
        return die(st)
    return Decision(
        kind="player", seat=st.active,
        options=[ROLL_AGAIN, Hold(seat=st.active, score=st.scores[st.active] + st.turn_total)],
        label=f"turn total {st.turn_total}: roll again or hold")
