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


SECTION = re.compile(r"^core rules(?: §(?:[1-9]|1[01])\b|, (?:front matter|Play profiles|Document record))")


def test_every_code_cites_a_rulebook_section() -> None:
    """Issue 9: every finding names the rule that makes it wrong. Each code's citation starts
    with a section of the core rules (§1-§11, or the unnumbered front matter, Play profiles or
    Document record); printed cards and references are cited through the section that makes
    them rules components (§9, §10). The only exceptions are the codes that say a log could not
    be read at all (no game rule applies to an unreadable file)."""
    from engine.mandate2038.codes import FORMAT_ONLY

    missing = [(r.code, r.rule) for r in CATALOGUE
               if r.code not in FORMAT_ONLY and not SECTION.match(r.rule)]
    assert missing == []
    assert all(CATALOGUE[c].rule.startswith(("canonical log format", "text notation"))
               for c in FORMAT_ONLY)
