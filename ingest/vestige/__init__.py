"""Vestige's part of reading and storage: its text notation and recording sheet, both driven by
the value and line codec of :mod:`ingest.vestige.codec`."""
