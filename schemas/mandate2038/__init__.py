"""Mandate 2038's models: its canonical game log (:mod:`schemas.mandate2038.log`), the event
models the engine and the formats import as ``from schemas.mandate2038 import ...``."""

from schemas.mandate2038.log import *  # noqa: F403
