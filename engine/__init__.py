"""The replay engine: a game-agnostic core plus one package per ruleset.

No I/O, clock or randomness here: chance outcomes come from the log, and the simulator passes
its own seeded random generator.
"""
