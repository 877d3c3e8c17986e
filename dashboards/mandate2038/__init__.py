"""Mandate 2038's part of the app: its sections of the shared pages (:mod:`.sections`), its
recorder (:mod:`.record` over :mod:`.live`), and the queries, tables and hex map they use."""
