"""Expected and Recorded in words (issue 29): ``playtest validate``'s text report and the Audit
page never print a Python repr (``None``, ``'F'``, ``[]``, ``{'...``, ``True``) as a finding's
expected or recorded value; the JSON report keeps the raw values (the validate contract)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli.main import main
from schemas.findings import value_words

ROOT = Path(__file__).resolve().parent.parent
#: every bundled single-error example and golden case (a log beside its .expected.json)
LOGS = sorted(
    [*ROOT.glob("data/samples/audit-examples/*.json"),
     *(p for p in ROOT.glob("tests/golden/**/*.json") if not p.name.endswith(".expected.json"))])
REPR = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\[|\]|\{|\}|^'|'$|'[,\]]|\"")
LINE = re.compile(r"^\s+expected: (?P<expected>.*?)   recorded: (?P<recorded>.*)$")


def test_values_in_words() -> None:
    assert value_words(None) == "—"
    assert value_words(None, "nothing recorded") == "nothing recorded"
    assert value_words("F") == "F"
    assert value_words([]) == "none"
    assert value_words(["I4", "F"]) == "I4, F"
    assert value_words(True) == "yes" and value_words(False) == "no"
    assert value_words(0) == "0"
    assert value_words("one of ['ambition', 'might']") == "one of ambition, might"
    assert value_words({"facilities": [1, 2], "mega_clusters": [], "emergency": None}) == \
        "facilities: 1, 2; mega clusters: none; emergency: nothing"


def test_validate_text_has_no_reprs(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(LOGS) > 100, "the bundled examples and golden cases are found"
    main(["validate", *map(str, LOGS)])
    out = capsys.readouterr().out
    lines = [m for m in map(LINE.match, out.splitlines()) if m]
    assert len(lines) > 100, out[-2000:]
    bad = [m.group(0) for m in lines
           if REPR.search(m.group("expected")) or REPR.search(m.group("recorded"))]
    assert not bad, "\n".join(bad[:20])
    said = {m.group("expected") for m in lines} | {m.group("recorded") for m in lines}
    assert "nothing recorded" in said or "—" in said, "a missing value is said in words"


def test_validate_json_keeps_raw_values(capsys: pytest.CaptureFixture[str]) -> None:
    """The contract: JSON's expected and recorded are the engine's values, unchanged."""
    main(["validate", "--format", "json", *map(str, LOGS[:40])])
    files = json.loads(capsys.readouterr().out)["files"]
    values = [x.get(k) for f in files for x in f["findings"] for k in ("expected", "recorded")]
    assert None in values or any(isinstance(v, list | dict) for v in values), values[:10]
    assert not any(isinstance(v, str) and v in ("—", "nothing recorded") for v in values)


@pytest.mark.needs_game("mandate2038")  # the audit examples are Mandate 2038 games
def test_audit_page_says_values_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Audit page's table of one game's findings: the same words as the text report."""
    from streamlit.testing.v1 import AppTest

    from dashboards import ui
    from ingest.pipeline import ingest_paths

    db = tmp_path / "playtest.duckdb"
    ingest_paths([ROOT / "data" / "samples" / "audit-examples"], db, progress=False)
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv(ui.WRITE_PASSWORD_ENV, raising=False)
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60).run()
    at.switch_page("views/audit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    ids = at.selectbox(key="audit_game").options
    assert len(ids) >= 5
    seen = []
    for gid in at.selectbox(key="audit_game").options:
        at.selectbox(key="audit_game").set_value(gid).run()
        assert not at.exception, [e.value for e in at.exception]
        table = at.dataframe[-1].value
        for col in ("expected", "recorded"):
            if col in table.columns:
                seen.extend(str(v) for v in table[col].to_list())
    assert seen
    bad = [v for v in seen if REPR.search(v) or v in ("None", "null", "[]", "")]
    assert not bad, bad
