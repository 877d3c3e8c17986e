"""Strategy profiles of the simulator's bots, as data (``data/profiles/*.json``).

A profile says how much a bot likes each choice; the policy (``greedy``: top score, seeded
tie-breaks; ``weighted``: at random in proportion to score) turns scores into a choice. The
four default archetypes (trust, infrastructure, AGI, capacity) transcribe the designers'
profiles; ``docs/simulator.md`` explains every field. Loading reads files, so it lives here and
the engine receives validated :class:`Profile` objects (the engine does no I/O).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from schemas.packs import data_dir

Policy = Literal["greedy", "weighted"]
POLICIES: tuple[str, ...] = ("greedy", "weighted")

#: ids a profile may weight (Core Actions, Programs, and the Dossier Commit)
ACTION_IDS = frozenset({
    "fund", "research", "build", "organize", "deploy", "influence", "mega_cluster",
    "reorganization", "covenant", "narrative_capture", "agent_swarm", "fusion", "dossier",
})
#: what a rule condition may read (see engine.mandate2038.profiles.observe)
OBSERVATION_PATHS = frozenset({
    "era", "cycle", "self.runway", "self.compute", "self.capability", "self.customers",
    "self.trust", "self.scrutiny", "self.mandate", "self.facilities", "self.generators",
    "self.unpowered_facilities", "self.can_deploy", "self.protection",
})


_KEYS: dict[str, frozenset[str]] = {
    "consequence_weights": frozenset({"powered_facilities", "power_demand"}),
    "resource_values": frozenset({"runway", "compute", "protection"}),
    "negotiation": frozenset({"promise", "fulfill", "betray", "reciprocity"}),
}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Condition(_Model):
    path: str
    op: Literal["eq", "ne", "lt", "lte", "gt", "gte"]
    value: int | float | bool

    @field_validator("path")
    @classmethod
    def _known(cls, v: str) -> str:
        if v not in OBSERVATION_PATHS:
            raise ValueError(f"unknown observation {v!r}; known: {', '.join(sorted(OBSERVATION_PATHS))}")
        return v


class Target(_Model):
    action: str | None = None  # a Core Action, Program or "dossier"
    decision_prefix: str | None = None  # the start of an option id (e.g. "build_generator")


class Rule(_Model):
    """Multiply the score of the targeted options by ``multiplier`` while every condition holds."""

    when: list[Condition] = Field(default_factory=list)
    target: Target
    multiplier: float = Field(gt=0)


class Training(_Model):
    stop_at: int = Field(default=3, ge=1)  # bank once the run has this much provisional Capability
    max_risk: float = Field(default=0.3, ge=0, le=1)  # bank when a duplicate is at least this likely


class SpatialPreference(_Model):
    """Where a profile likes to build its Facilities (the designers' ``spatialPreference``):
    while it has fewer than ``apply_until_facilities`` Facilities, a Facility destination at
    exactly ``preferred_distance`` hexes from the nearest Facility of a seat played by
    ``target_profile`` weighs ``multiplier`` times as much (and one on the same hex 0.05 times
    when the preferred distance is 1)."""

    target_profile: str
    preferred_distance: int = Field(default=1, ge=0)
    multiplier: float = Field(default=1.0, gt=0)
    apply_until_facilities: int = Field(default=1, ge=1)


class Profile(_Model):
    """One strategy profile (see docs/simulator.md, Strategy profiles)."""

    id: str = Field(pattern=r"^[a-z0-9_]+$")
    name: str
    source: str = ""  # the designers' profile it transcribes
    default_policy: Policy = "weighted"
    action_weights: dict[str, float]
    decision_weights: dict[str, float] = Field(default_factory=dict)
    consequence_weights: dict[str, float] = Field(default_factory=dict)
    resource_values: dict[str, float] = Field(
        default_factory=lambda: {"runway": 1.0, "compute": 1.0, "protection": 1.0})
    negotiation: dict[str, float] = Field(
        default_factory=lambda: {"promise": 1.0, "fulfill": 1.0, "betray": 1.0, "reciprocity": 0.5})
    training: Training | None = None  # None: the lab's stopping points (research_stop_k)
    rules: list[Rule] = Field(default_factory=list)
    spatial_preference: SpatialPreference | None = None

    @field_validator("consequence_weights", "resource_values", "negotiation")
    @classmethod
    def _keys(cls, v: dict[str, float], info: Any) -> dict[str, float]:
        known = _KEYS[info.field_name]
        unknown = sorted(set(v) - known)
        if unknown:
            raise ValueError(f"unknown keys {unknown}; known: {', '.join(sorted(known))}")
        return v

    @field_validator("action_weights")
    @classmethod
    def _weights(cls, v: dict[str, float]) -> dict[str, float]:
        unknown = sorted(set(v) - ACTION_IDS)
        if unknown:
            raise ValueError(f"unknown action ids {unknown}; known: {', '.join(sorted(ACTION_IDS))}")
        bad = sorted(k for k, w in v.items() if not w > 0)
        if bad:
            raise ValueError(f"action weights must be positive: {bad}")
        return v


class ProfileSet(_Model):
    schema_version: Literal[1] = 1
    description: str = ""
    profiles: list[Profile]


class ProfileError(ValueError):
    """A profile file is missing, unreadable or invalid (the message names the file)."""


_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
#: built-in bots that are not data profiles, kept as named profiles of the line-up
BUILTIN = ("heuristic", "random")


def profiles_path(name: str) -> Path:
    """``data/profiles/<name>.json`` (``name`` is a set name such as ``default``) or a path."""
    if _NAME.match(name) and ".." not in name:
        return data_dir() / "profiles" / f"{name}.json"
    return Path(name)


@functools.lru_cache(maxsize=16)
def _load(path: str) -> ProfileSet:
    p = Path(path)
    if not p.is_file():
        known = sorted(x.stem for x in (data_dir() / "profiles").glob("*.json"))
        raise ProfileError(f"{p}: no such profile file (known sets: {', '.join(known) or 'none'})")
    try:
        raw: Any = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ProfileError(f"{p}: unreadable: {e}") from None
    except json.JSONDecodeError as e:
        raise ProfileError(f"{p}: line {e.lineno}: invalid JSON: {e.msg}") from None
    try:
        ps = ProfileSet.model_validate(raw)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise ProfileError(f"{p}: {where}: {first['msg']}") from None
    ids = [x.id for x in ps.profiles]
    if len(set(ids)) != len(ids):
        raise ProfileError(f"{p}: profile ids must be unique, got {ids}")
    return ps


def load_profiles(name: str = "default") -> dict[str, Profile]:
    """The profiles of a set (``default``) or file, by id, in file order."""
    return {x.id: x for x in _load(str(profiles_path(name).resolve())).profiles}


def profile_set_names() -> list[str]:
    return sorted(x.stem for x in (data_dir() / "profiles").glob("*.json"))
