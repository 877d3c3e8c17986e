"""Golden games of Mandate 2038: the engine's executable specification (see docs/golden.md)."""
