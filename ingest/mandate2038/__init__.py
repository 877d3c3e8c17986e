"""Mandate 2038's part of reading and storage: its text notation and recording sheet (both
driven by the event specs of :mod:`ingest.mandate2038.events`), the designers' playtest session
folder, and the bot-profile studies."""
