"""Vestige's models: its canonical game log (:mod:`schemas.vestige.log`), the event models the
engine and the formats import as ``from schemas.vestige import ...``."""

from schemas.vestige.log import *  # noqa: F403
