"""Readers, writers, the archive, the DuckDB warehouse and the CLI of the playtest toolkit."""
