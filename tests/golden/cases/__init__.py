"""Golden cases, one module per rule area. Importing this package registers every case."""

from tests.golden.cases import (  # noqa: F401
    complete_games,
    final_scoring,
    s01_setup,
    s02_selection_turns,
    s03_resources_trade,
    s05_programs,
    s06_era_sequence,
    s07_actions,
    s09_abilities,
    s10_more,
    s11_probes,
    s12_partial,
    s13_fidelity,
    s14_rulings,
    s15_round_three,
)
