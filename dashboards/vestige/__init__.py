"""Vestige's part of the app: its sections of the shared pages (:mod:`.sections`), its recorder
(:mod:`.record` over :mod:`.live`), its own page (``modes.py``), and the queries, charts, map and
words they use."""
