"""Every finding code the engine can report is in the catalogue and cites its rule."""

from __future__ import annotations

import re
from pathlib import Path

from engine.mandate2038.codes import CATALOGUE

ENGINE = Path(__file__).resolve().parent.parent / "engine" / "mandate2038"
CODE = re.compile(r'"((?:log|setup|era|cycle|select|turn|move|trade|resource|fund|research|build|'
                  r'organize|deploy|influence|program|production|dossier|audit|mandate|ability|'
                  r'headline|final|checkpoint)/[a-z0-9-]+)"')


def test_every_code_used_by_the_engine_is_catalogued() -> None:
    used: set[str] = set()
    for path in ENGINE.glob("*.py"):
        if path.name in ("codes.py", "moves.py", "bots.py"):
            continue
        used |= set(CODE.findall(path.read_text(encoding="utf-8")))
    assert len(used) > 100
    missing = sorted(c for c in used if c not in CATALOGUE)
    assert missing == [], missing


def test_every_code_cites_a_rule() -> None:
    for rule in CATALOGUE:
        assert rule.rule.strip(), rule.code
        assert rule.severity in ("error", "warning", "info")
        cited = ("core rules", "Map reference", "Component reference", "Headline:",
                 "canonical log format", "checkpoints", "text notation")
        assert rule.rule.startswith(cited), (rule.code, rule.rule)
