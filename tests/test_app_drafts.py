"""The live-entry draft file after a crash: a torn last line never costs the next event.

A crash (power cut, SIGKILL) can leave a draft ending in the middle of a line. The next append
must start a fresh line, so every complete record before the cut and the new record all read
back; this is checked at every byte the file could be cut at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dashboards import drafts

HEADER: dict[str, Any] = {"game": "mandate2038", "session_type": "facilitated_playtest",
          "seats": [{"seat": 1, "faction": "mirevanta"}, {"seat": 2, "faction": "kestralyn"}]}
EVENTS: list[dict[str, Any]] = [{"type": "phase", "name": "setup", "t": "2026-11-30T19:00:00+00:00"},
          {"type": "era_start", "era": 1, "mandate": "é-ünïcode"},
          {"type": "phase", "name": "setup_end"}]
AFTER: dict[str, Any] = {"type": "phase", "name": "break"}


def _complete_before(text: bytes, cut: int) -> int:
    """How many event records are whole in ``text[:cut]`` (a record cut just before its newline
    is whole: its JSON is complete)."""
    n, start = 0, 0
    for i, line in enumerate(text.split(b"\n")):
        end = start + len(line)
        if line and end <= cut and i > 0:  # line 0 is the header
            n += 1
        start = end + 1
    return n


def test_a_torn_line_at_every_cut_point_keeps_the_next_event(tmp_path: Path) -> None:
    d = drafts.create(tmp_path, HEADER)
    for e in EVENTS:
        drafts.append_event(tmp_path, d.id, e)
    full = d.path.read_bytes()
    header_end = full.index(b"\n")
    lost = []
    for cut in range(1, len(full)):
        d.path.write_bytes(full[:cut])
        drafts.append_event(tmp_path, d.id, AFTER)
        back = drafts.load(tmp_path, d.id)
        kept = _complete_before(full, cut)
        want = [*EVENTS[:kept], AFTER]
        if back.events != want:
            lost.append((cut, full[:cut][-20:], [e.get("name", e["type"]) for e in back.events]))
        if cut >= header_end:
            assert back.header == HEADER, cut
        assert d.path.read_bytes().endswith(b"\n")
    assert not lost, f"{len(lost)} of {len(full) - 1} cut points lost a record: {lost[:3]}"


def test_a_clean_file_gets_no_blank_lines(tmp_path: Path) -> None:
    d = drafts.create(tmp_path, HEADER)
    for e in EVENTS:
        drafts.append_event(tmp_path, d.id, e)
    drafts.undo(tmp_path, d.id)
    text = d.path.read_text(encoding="utf-8")
    assert "\n\n" not in text and len(text.splitlines()) == 5
    back = drafts.load(tmp_path, d.id)
    assert back.events == EVENTS[:2] and back.undone == 1 and not back.problems


def test_an_answer_to_a_stale_decision_writes_nothing(tmp_path: Path) -> None:
    """A decision answered at the position it was drawn for is written; the same answer again
    (a double tap), or after an undo moved the draft on, writes nothing; an undo for a stale
    position takes back nothing more."""
    d = drafts.create(tmp_path, {"game": "pig"})
    assert drafts.append_at(tmp_path, d.id, 0, [{"type": "roll", "face": 4}])
    assert not drafts.append_at(tmp_path, d.id, 0, [{"type": "roll", "face": 4}])
    assert drafts.append_at(tmp_path, d.id, 1, [{"type": "hold"}, {"type": "phase"}])
    assert [e["type"] for e in drafts.load(tmp_path, d.id).events] == ["roll", "hold", "phase"]
    assert drafts.undo_at(tmp_path, d.id, 3)
    assert not drafts.undo_at(tmp_path, d.id, 3), "a second tap on Undo takes back nothing"
    assert len(drafts.load(tmp_path, d.id).events) == 2
    drafts.mark(tmp_path, d.id, "abandoned")
    assert not drafts.append_at(tmp_path, d.id, 2, [{"type": "roll"}]), "a closed draft"
    assert len(drafts.load(tmp_path, d.id).events) == 2
