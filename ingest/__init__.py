"""Readers, writers, the archive and the DuckDB warehouse of the playtest toolkit (the command
line sits above, in ``cli``)."""
