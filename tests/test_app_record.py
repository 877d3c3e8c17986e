"""Live entry (Record a game): AppTests of a short session, and the draft file's guarantees."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboards import drafts
from dashboards.mandate2038 import live
from dashboards.mandate2038.record import SESSION_TYPES

APP = Path(__file__).resolve().parent.parent / "dashboards" / "app.py"


def _record_page(db: Path, monkeypatch: pytest.MonkeyPatch, draft: str | None = None) -> AppTest:
    monkeypatch.setenv("PLAYTEST_DB", str(db))
    monkeypatch.delenv("PLAYTEST_WRITE_PASSWORD", raising=False)
    # an AppTest clicks at once: no wait for a person to read the decision (record_nav)
    monkeypatch.setenv("PLAYTEST_TAP_SETTLE_MS", "0")
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    if draft:
        at.query_params["draft"] = draft
    at.switch_page("views/record.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _pick_every_seat(at: AppTest) -> None:
    """Choose the first option for every seat's secret selection (nothing is preselected)."""
    pickers = [sb for sb in at.selectbox if str(sb.key or "").startswith("sel_")]
    assert pickers, "a secret selection is offered"
    for sb in pickers:
        assert sb.value is None, f"{sb.label} comes pre-filled with {sb.value!r}"
        sb.select_index(0)
    at.run()


def _choice(at: AppTest, kind: str, k: int | None = 0) -> Any:
    """Button ``k`` (None: the only one) of the decision on screen; its key carries the
    decision's position (events recorded, options passed)."""
    pat = re.compile(rf"^{kind}_[0-9]+_[0-9]+" + ("" if k is None else f"_{k}") + "$")
    return next(b for b in at.button if pat.match(str(b.key)))


def _engine_guides() -> bool:
    from engine.core.registry import get_ruleset

    rs = get_ruleset("mandate2038")
    return rs is not None and hasattr(rs, "legal_moves")


def test_short_session_survives_a_reload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "playtest.duckdb"
    at = _record_page(db, monkeypatch)
    assert [t.value for t in at.title] == ["Record a game"]
    at.button(key="new_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    draft_id = at.query_params["draft"]
    draft_id = draft_id[0] if isinstance(draft_id, list) else draft_id
    path = drafts.path_of(tmp_path / "drafts", draft_id)
    recs = _lines(path)
    assert recs[0]["kind"] == "header" and len(recs[0]["header"]["seats"]) == 4
    assert recs[1]["event"]["type"] == "phase" and recs[1]["event"]["t"]
    assert any("**1 event**" in m.value for m in at.markdown), "plural agreement: 1 event"

    if _engine_guides():
        # guided: the Era I Mandate reveal, the first Headline, the secret selection
        for _ in range(2):
            _choice(at, "opt").click().run()
            assert not at.exception, [e.value for e in at.exception]
        _pick_every_seat(at)
        _choice(at, "reveal_go", None).click().run()
        assert not at.exception, [e.value for e in at.exception]
        events = drafts.load(tmp_path / "drafts", draft_id).events
        assert [e["type"] for e in events] == ["phase", "era_start", "headline", "reveal"]
        assert all(e.get("t") for e in events), "every event is timestamped"
        assert any("decides" in m.value for m in at.markdown), "whose decision it is"
        # a normal turn: the acting piece's move is preselected; one click on what it does
        picks = {s["seat"]: s["pick"] for s in events[-1]["selections"]}
        _choice(at, "opt_var").click().run()
        assert not at.exception, [e.value for e in at.exception]
        events = drafts.load(tmp_path / "drafts", draft_id).events
        assert len(events) == 5
        assert events[-1]["type"] == picks[events[-1]["seat"]], "the seat resolves its pick"
    else:
        at.selectbox(key="man_type").set_value("era_start").run()
        at.text_input(key="man_era_start_era").input("1")
        at.button(key="man_go").click().run()
        assert drafts.load(tmp_path / "drafts", draft_id).events[-1]["type"] == "era_start"
    n_before = len(drafts.load(tmp_path / "drafts", draft_id).events)

    # an observation at any moment: open the popover, write, Add
    at.text_input(key="obs_text").input("Asked how Initiative passes")
    at.form_submit_button[0].click().run()
    d = drafts.load(tmp_path / "drafts", draft_id)
    assert d.events[-1]["type"] == "observation"
    assert d.events[-1]["text"] == "Asked how Initiative passes"

    # undo takes back the last event but the file only grows
    lines_before = len(_lines(path))
    at.button(key="undo").click().run()
    assert len(drafts.load(tmp_path / "drafts", draft_id).events) == n_before + 1, "asks first"
    at.button(key="undo_yes").click().run()
    d = drafts.load(tmp_path / "drafts", draft_id)
    assert len(d.events) == n_before and d.undone == 1
    assert len(_lines(path)) == lines_before + 1

    # a browser refresh (a new session) with the draft in the address finds it intact
    again = _record_page(db, monkeypatch, draft_id)
    assert any(f"**{n_before} event{'' if n_before == 1 else 's'}**" in m.value
               for m in again.markdown), \
        [m.value for m in again.markdown][:3]
    # and leaving lists it for resuming
    again.button(key="leave").click().run()
    assert again.button(key=f"resume_{draft_id}")


def test_unknown_draft_in_the_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _record_page(tmp_path / "playtest.duckdb", monkeypatch, "../../etc/passwd")
    assert any("No draft" in w.value for w in at.warning)
    assert at.button(key="new_start")


def test_draft_file_keeps_everything_before_a_torn_line(tmp_path: Path) -> None:
    d = drafts.create(tmp_path, {"game": "mandate2038", "seats": []})
    drafts.append_event(tmp_path, d.id, {"type": "phase", "name": "setup"})
    drafts.append_event(tmp_path, d.id, {"type": "phase", "name": "setup_end"})
    with open(d.path, "a", encoding="utf-8") as fh:
        fh.write('{"kind": "event", "event": {"type": "ph')  # a crash mid-write
    back = drafts.load(tmp_path, d.id)
    assert [e["name"] for e in back.events] == ["setup", "setup_end"]
    assert back.problems and "not complete JSON" in back.problems[0]


def test_draft_ids_cannot_name_other_files(tmp_path: Path) -> None:
    for bad in ("../x", "x/y", "", "20261129T213916Z-03d562/../../a"):
        with pytest.raises(drafts.DraftError):
            drafts.path_of(tmp_path, bad)


def test_manual_event_form_validates(tmp_path: Path) -> None:
    event, problem = live.build_event("fund", {"seat": 1, "mode": "venture", "path": "F I1"})
    assert problem is None and event == {"type": "fund", "seat": 1, "path": ["F", "I1"],
                                         "mode": "venture"}
    event, problem = live.build_event("fund", {"seat": 9})
    assert event is None and "seat" in problem


def test_finish_loads_the_game(tmp_path: Path) -> None:
    try:
        import ingest.pipeline  # noqa: F401
    except ImportError as err:
        pytest.skip(f"ingest pipeline not available: {err}")
    header, problem = live.new_header(
        seats=[("mirevanta", None), ("kestralyn", None), ("corthaven", None)],
        session_type="developer_walkthrough", layout=None, first_initiative=1, protocol=None)
    assert problem is None
    events = [live.stamp({"type": "phase", "name": "setup"})]
    result, problem = live.finish(header, events, tmp_path / "playtest.duckdb", "t")
    assert problem is None
    assert live.game_id_of(result)


def test_finish_button_archives_and_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        import ingest.pipeline  # noqa: F401
    except ImportError as err:
        pytest.skip(f"ingest pipeline not available: {err}")
    import duckdb

    db = tmp_path / "playtest.duckdb"
    at = _record_page(db, monkeypatch)
    at.selectbox(key="new_type").set_value("developer_walkthrough").run()
    at.button(key="new_start").click().run()
    draft_id = at.query_params["draft"]
    draft_id = draft_id[0] if isinstance(draft_id, list) else draft_id
    at.button(key="finish").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert drafts.load(tmp_path / "drafts", draft_id).status == "open", "one click does not finish"
    at.button(key="finish_no").click().run()
    assert not _has(at, "finish_no")
    assert drafts.load(tmp_path / "drafts", draft_id).status == "open"
    at.button(key="finish").click().run()
    at.button(key="finish_yes").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("Archived and loaded" in s.value for s in at.success), [e.value for e in at.error]
    d = drafts.load(tmp_path / "drafts", draft_id)
    assert d.status == "finished" and d.game_id
    # once archived, nothing more is offered for recording
    keys = {str(b.key) for b in at.button}
    offered = {k for k in keys if k.startswith(("opt_", "reveal", "undo", "mk_", "man_", "finish"))}
    assert not offered, offered
    con = duckdb.connect(str(db), read_only=True)
    row = con.sql("SELECT session_type, evidence FROM games WHERE game_id = ?",
                  params=[d.game_id]).fetchall()
    con.close()
    assert row == [("developer_walkthrough", False)]


def _has(at: AppTest, key: str) -> bool:
    return any(b.key == key for b in at.button)


def _new_draft(db: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[AppTest, str]:
    at = _record_page(db, monkeypatch)
    at.button(key="new_start").click().run()
    draft_id = at.query_params["draft"]
    return at, draft_id[0] if isinstance(draft_id, list) else draft_id


def test_abandon_asks_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at, draft_id = _new_draft(tmp_path / "playtest.duckdb", monkeypatch)
    at.button(key="abandon").click().run()
    assert drafts.load(tmp_path / "drafts", draft_id).status == "open", "one click does not abandon"
    assert _has(at, "abandon_yes")
    at.button(key="abandon_no").click().run()
    assert not _has(at, "abandon_yes")
    assert drafts.load(tmp_path / "drafts", draft_id).status == "open"
    at.button(key="abandon").click().run()
    at.button(key="abandon_yes").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert drafts.load(tmp_path / "drafts", draft_id).status == "abandoned"


def test_reveal_needs_every_seat_chosen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not _engine_guides():
        pytest.skip("the engine has no legal-move generator")
    at, draft_id = _new_draft(tmp_path / "playtest.duckdb", monkeypatch)
    for _ in range(2):
        _choice(at, "opt").click().run()
    pickers = [sb for sb in at.selectbox if str(sb.key or "").startswith("sel_")]
    assert len(pickers) == 4 and all(sb.value is None for sb in pickers)
    _choice(at, "reveal_go", None).click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("nothing was recorded" in e.value for e in at.error)
    assert [e["type"] for e in drafts.load(tmp_path / "drafts", draft_id).events][-1] == "headline"
    pickers[0].select_index(0).run()
    _choice(at, "reveal_go", None).click().run()
    assert [e["type"] for e in drafts.load(tmp_path / "drafts", draft_id).events][-1] == "headline"
    _pick_every_seat_rest(at)
    _choice(at, "reveal_go", None).click().run()
    assert [e["type"] for e in drafts.load(tmp_path / "drafts", draft_id).events][-1] == "reveal"


def _pick_every_seat_rest(at: AppTest) -> None:
    for sb in at.selectbox:
        if str(sb.key or "").startswith("sel_") and sb.value is None:
            sb.select_index(0)
    at.run()


BAD_INPUTS = [
    ("fund", "seat", "\u0663"),            # ARABIC-INDIC DIGIT THREE
    ("fund", "seat", "\u00b2"),            # SUPERSCRIPT TWO
    ("fund", "seat", "9" * 5000),
    ("fund", "seat", "inf"),
    ("observation", "minutes", "inf"),
    ("observation", "minutes", "NaN"),
    ("observation", "minutes", "1e999"),
    ("observation", "minutes", "9" * 5000),
    ("reveal", "selections", "[" * 50_000 + "]" * 50_000),
    ("reveal", "selections", "[" * 9 + "]" * 9),
    ("reveal", "selections", '[{"seat": 1, "pick": NaN}]'),
    ("reveal", "selections", '[{"seat": Infinity, "pick": "fund"}]'),
    ("reveal", "selections", '[{"seat": 1e999, "pick": "fund"}]'),
    ("reveal", "selections", '[{"seat": ' + "1" * 5000 + ', "pick": "fund"}]'),
]


@pytest.mark.parametrize(("etype", "name", "raw"), BAD_INPUTS,
                         ids=[f"{t}-{n}-{i}" for i, (t, n, _) in enumerate(BAD_INPUTS)])
def test_manual_event_builder_rejects_bad_values(etype: str, name: str, raw: str) -> None:
    values = {"observation": {"category": "moment", "text": "x"},
              "fund": {"seat": "1", "mode": "venture", "path": "F I1"}}.get(etype, {})
    event, problem = live.build_event(etype, {**values, name: raw})
    assert event is None and problem and name in problem, (event, problem)
    assert len(problem) < 300, "the bad value is not echoed whole"


def test_manual_event_form_never_shows_a_traceback(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    at, draft_id = _new_draft(tmp_path / "playtest.duckdb", monkeypatch)
    before = drafts.load(tmp_path / "drafts", draft_id).events
    at.selectbox(key="man_type").set_value("observation").run()
    for raw in ("inf", "NaN", "9" * 5000, "\u0663"):
        at.text_input(key="man_observation_text").input("a note")
        at.text_input(key="man_observation_minutes").input(raw)
        at.button(key="man_go").click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert any("Not recorded" in e.value and "minutes" in e.value for e in at.error)
    at.selectbox(key="man_type").set_value("reveal").run()
    at.text_input(key="man_reveal_selections").input("[" * 3000 + "]" * 3000)
    at.button(key="man_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    at.selectbox(key="man_type").set_value("era_start").run()
    at.text_input(key="man_era_start_era").input("\u0663")
    at.button(key="man_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert drafts.load(tmp_path / "drafts", draft_id).events == before, "nothing was written"
    text = drafts.path_of(tmp_path / "drafts", draft_id).read_text(encoding="utf-8")
    assert "Infinity" not in text and "NaN" not in text


def test_map_picture_draws_every_hex_and_piece() -> None:
    from dashboards.mandate2038 import hexmap

    layout = live.random_layout(live.pack(), "seed")
    assert len(layout) == 19 and layout["F"] == "frontier"
    view = {"tiles": layout, "fusion_hex": None, "seats": [
        {"seat": 1, "faction": "mirevanta", "ceo": "F", "teams": ["I1", "I1"],
         "facilities": [{"number": 1, "hex": "I1", "powered": True, "mega": None, "jvs": []},
                        {"number": 2, "hex": "O3", "powered": False, "mega": None, "jvs": []}],
         "generator": "I2", "generator_kind": "civic_heat_battery", "colour": "#00c060"}]}
    svg = hexmap.render_svg(view, live.tile_names(live.pack()), {"mirevanta": "Mirevanta Works"})
    assert svg.count("<polygon") >= 19 + 1  # 19 hexes and the Generator
    assert "Seat 1 Facility 1 (powered)" in svg and "Seat 1 Facility 2 (offline)" in svg
    assert svg.count("Seat 1 Team") == 2 and "Seat 1 CEO" in svg
    assert "3 Power" in svg and "Mirevanta Works" in svg


def test_the_setup_form_is_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mandate 2038's new-session form: one "New session" heading, and every choice in words
    (the header keeps the ids)."""
    at = _record_page(tmp_path / "playtest.duckdb", monkeypatch)
    assert [s.value for s in at.subheader].count("New session") == 1
    shown = [str(o) for w in [*at.selectbox, *at.radio] for o in w.options]
    raw = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)+$|@\d|^(default|advanced|full|partial)$")
    assert not [o for o in shown if raw.search(o)], [o for o in shown if raw.search(o)]
    for words in ("Facilitated playtest", "Default game", "Every decision"):
        assert words in shown, shown
    # the header still keeps the ids
    at.button(key="new_start").click().run()
    draft_id = at.query_params["draft"]
    header = drafts.load(tmp_path / "drafts",
                         draft_id[0] if isinstance(draft_id, list) else draft_id).header
    assert header.get("profile", "default") == "default" and header.get("detail", "full") == "full"
    assert header["session_type"] in SESSION_TYPES


def test_facility_choices_read_as_words() -> None:
    """A Facilities choice is a sentence, never a list repr ("powers Facilities []")."""
    from dashboards.replay_view import event_label

    assert event_label({"type": "allocate", "seat": 2, "facilities": []}) == \
        "Seat 2 powers no Facility"
    assert event_label({"type": "allocate", "seat": 2, "facilities": [1, 3]}) == \
        "Seat 2 powers Facilities 1, 3"
    assert "[" not in event_label({"type": "mega_cluster", "seat": 1, "hosts": [1, 2]})
