"""Regenerate the bundled sample games (``playtest_pig/samples/``): ``python make_samples.py``.

* ``simulated-3p.json``: simulated game 0 of seed 2026, three players (labelled ``simulation``).
* ``walkthrough.pig``: an illustrative two-player game to 50 written as a score sheet, to show
  the format; its rolls and decisions were drawn by the simulator's bots (hold20 against pace,
  seed ``walkthrough``), not played at a table, and it says so in its header.
"""

from __future__ import annotations

import random
from pathlib import Path

from playtest_pig.bots import Hold20, KeepPace
from playtest_pig.ruleset import RULESET
from playtest_pig.schema import PigHeader
from playtest_pig.sheet import write_pig_sheet
from playtest_pig.simulate import simulate_one

from engine.simulate import simulate_game
from schemas.canonical import dumps_log

OUT = Path(__file__).parent / "playtest_pig" / "samples"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / "simulated-3p.json").write_text(dumps_log(simulate_one(2026, 0, 3)), encoding="utf-8")
    header = PigHeader.model_validate({
        "session_type": "developer_walkthrough", "game_id": "pig-walkthrough-1", "target": 50,
        "seats": [{"seat": 1, "player": "Ada"}, {"seat": 2, "player": "Brook"}],
        "provenance": {"source_format": "pig-sheet", "illustrative": True,
                       "description": "illustrative game showing the score sheet; rolls and "
                                      "decisions drawn by the simulator's bots (hold20 vs "
                                      "pace, seed walkthrough), not played at a table"},
    })
    log = simulate_game(RULESET, header, {1: Hold20(), 2: KeepPace()},
                        random.Random("walkthrough"))
    (OUT / "walkthrough.pig").write_text(write_pig_sheet(log), encoding="utf-8")


if __name__ == "__main__":
    main()
