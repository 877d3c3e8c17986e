"""Hostile input to the readers (issue 10, "Readers and storage"): every bad value becomes a
finding with its file and line, nothing raises, and CSV output cannot run as a formula."""

from __future__ import annotations

import csv
import io
import tracemalloc
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.formats import MAX_ZIP_BYTES, MAX_ZIP_MEMBERS, read_bytes, write_log
from ingest.formats.cells import neutralise, neutralise_frame, neutralise_sql, restore
from schemas.canonical import dumps_log
from schemas.mandate2038 import MandateLog

ROOT = Path(__file__).resolve().parent.parent
SIM = ROOT / "data" / "samples" / "simulated" / "sim-samples-heuristic-00000.json"
NOTATION = ROOT / "data" / "samples" / "notation" / "example-4p.m38"
SHEET = ROOT / "data" / "samples" / "notation" / "example-4p.csv"
CHECKPOINT_LINE = 35  # the first checkpoint of SIM ("mandate": 7 of seat 1)


def _sim(old: str, new: str) -> bytes:
    text = SIM.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1).encode("utf-8")


def _with_events(*lines: str) -> bytes:
    """SIM with extra event lines before the closing ``]}`` (canonical layout)."""
    text = SIM.read_text(encoding="utf-8").rstrip("\n")
    assert text.endswith("\n]}")
    return (text[:-3] + "".join(",\n" + ln for ln in lines) + "\n]}\n").encode("utf-8")


def _messages(loaded: object) -> str:
    return "\n".join(f.message for f in loaded.findings)  # type: ignore[attr-defined]


def _one(data: bytes, name: str):  # type: ignore[no-untyped-def]
    out = read_bytes(data, name)
    assert len(out) == 1
    return out[0]


# --- numbers and text a log cannot hold ------------------------------------------------------


@pytest.mark.parametrize("layout", ["canonical", "pretty"])
def test_a_5000_digit_integer_is_a_finding_at_its_line(layout: str) -> None:
    data = _sim('"mandate": 7,', '"mandate": ' + "9" * 5000 + ",")
    if layout == "pretty":  # the position-recording scanner, not the one-line-per-event fast path
        data = b"\n" + data
    loaded = _one(data, "big.json")
    assert loaded.unreadable is None and loaded.parsed.header is not None
    bad = [f for f in loaded.findings if f.where.line == CHECKPOINT_LINE + (layout == "pretty")]
    assert bad and bad[0].code == "log/invalid-event", _messages(loaded)
    assert len(loaded.parsed.events) == loaded.parsed.raw_event_count - 1
    assert len(bad[0].message) < 400


def test_a_5000_digit_number_in_notation_and_sheet_is_a_parse_error() -> None:
    text = NOTATION.read_text(encoding="utf-8")
    lines = text.split("\n")
    n = next(i for i, ln in enumerate(lines, 1) if ln == "2 bank 2")
    loaded = _one(text.replace("2 bank 2", "2 bank " + "9" * 5000, 1).encode(), "big.m38")
    assert loaded.unreadable is None
    assert any(f.where.line == n and "4,300 digits" in f.message for f in loaded.findings), _messages(loaded)
    sheet = SHEET.read_text(encoding="utf-8")
    row = next(ln for ln in sheet.split("\n") if ",bank," in ln)
    big = row.replace(",bank,", ",bank,", 1).rstrip("\r")
    cells = big.split(",")
    cells[cells.index("bank") + 4] = "banked=" + "9" * 5000  # the details cell
    loaded = _one(sheet.replace(row.rstrip("\r"), ",".join(cells), 1).encode(), "big.csv")
    assert loaded.unreadable is None
    assert any("4,300 digits" in f.message or "too large" in f.message for f in loaded.findings), \
        _messages(loaded)


def test_a_checkpoint_of_2_to_the_31_is_rejected_with_its_line() -> None:
    loaded = _one(_sim('"mandate": 7,', '"mandate": 2147483648,'), "ck.json")
    bad = [f for f in loaded.findings if f.where.line == CHECKPOINT_LINE]
    assert bad and "2147483648" in bad[0].message and "range" in bad[0].message
    assert all(getattr(e, "type", None) != "checkpoint" or e.seats[0].mandate != 2**31
               for e in loaded.parsed.events)
    fine = _one(_sim('"mandate": 7,', '"mandate": 2147483647,'), "ok.json")
    assert not [f for f in fine.findings if f.where.line == CHECKPOINT_LINE]


def test_a_lone_surrogate_is_a_finding_with_its_line_in_an_event_and_unreadable_in_the_header() -> None:
    loaded = _one(_sim('"headline": "synthetic_celebrity"', '"headline": "\\ud800"'), "s.json")
    assert loaded.unreadable is None
    bad = [f for f in loaded.findings if "surrogate" in f.message]
    assert bad and bad[0].where.line == 5 and bad[0].code == "log/invalid-event"
    assert "s.json:5" in bad[0].message
    log = MandateLog.model_construct(header=loaded.parsed.header, events=loaded.parsed.events)
    dumps_log(log).encode("utf-8")  # what is kept can be written
    head = _one(_sim('"player": "bot:heuristic"', '"player": "\\udc00x"'), "h.json")
    assert head.unreadable and "surrogate" in head.unreadable
    assert head.findings[-1].where.line == 2


@pytest.mark.parametrize(("event", "what"), [
    ('{"type": "observation", "category": "rules_lookup", "text": "x", "minutes": Infinity}', "inf"),
    ('{"type": "observation", "category": "rules_lookup", "text": "x", "minutes": 1e999}', "inf"),
    ('{"type": "survey", "item": "fun", "value": NaN}', "nan"),
    ('{"type": "survey", "item": "fun", "value": -Infinity}', "-inf"),
])
def test_nan_and_infinity_in_observations_and_surveys_are_rejected_with_the_line(event: str, what: str) -> None:
    data = _with_events('{"type": "survey", "item": "fun", "value": 4}', event)
    loaded = _one(data, "nan.json")
    n = data.decode().split("\n").index(event) + 1
    bad = [f for f in loaded.findings if f.where.line == n]
    assert bad, _messages(loaded)
    assert what in bad[0].message or "finite" in bad[0].message
    kept = [e for e in loaded.parsed.events if e.type in ("survey", "observation")]
    assert len(kept) == 1  # the good survey answer stays
    log = MandateLog.model_construct(header=loaded.parsed.header, events=loaded.parsed.events)
    assert "NaN" not in dumps_log(log) and "Infinity" not in dumps_log(log)


def test_infinity_in_notation_minutes_and_survey_is_rejected_with_the_line() -> None:
    text = NOTATION.read_text(encoding="utf-8")
    text = text.replace("minutes=1.5", "minutes=1e999", 1).replace("? fun 4 seat=1", "? fun 1e999 seat=1", 1)
    loaded = _one(text.encode(), "inf.m38")
    lines = text.split("\n")
    want = {i for i, ln in enumerate(lines, 1) if "1e999" in ln}
    got = {f.where.line for f in loaded.findings if "inf" in f.message or "finite" in f.message}
    assert want <= got, _messages(loaded)


# --- a 10 MB token ---------------------------------------------------------------------------


def test_a_10_mb_unknown_token_is_cut_in_messages() -> None:
    token = "Z" * 7_000_000  # (a log holds at most 8 MB: ingest.formats.MAX_LOG_BYTES)
    notation = NOTATION.read_text(encoding="utf-8").replace("2 bank 2", f"2 {token}", 1)
    loaded = _one(notation.encode(), "tok.m38")
    assert loaded.findings and max(len(f.message) for f in loaded.findings) < 3000
    assert "7,000,00" in _messages(loaded)  # the length is said
    js = _sim('{"type": "headline", "cycle": 1, "headline": "synthetic_celebrity"}',
              '{"type": "' + token + '"}')
    loaded = _one(js, "tok.json")
    assert loaded.findings and max(len(f.message) for f in loaded.findings) < 3000
    assert all(len(str(f.recorded)) < 3000 for f in loaded.findings)


# --- zip bombs -------------------------------------------------------------------------------


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in members.items():
            zf.writestr(name, body)
    return buf.getvalue()


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """Three 50 MB members of zeros: each under the per-file limit, together over the total."""
    zeros = bytes(50 * 2**20)
    assert 3 * len(zeros) > MAX_ZIP_BYTES
    return _zip({"a.json": zeros, "b.json": zeros, "c.json": zeros})


def test_a_zip_bomb_is_unreadable_without_filling_memory(bomb: bytes) -> None:
    assert len(bomb) < 1_000_000
    tracemalloc.start()
    try:
        out = read_bytes(bomb, "bomb.zip")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(out) == 1 and out[0].unreadable and "too large" in out[0].unreadable
    assert out[0].raw == bomb  # kept for the quarantine
    assert peak < 16 * 2**20, f"peak {peak / 2**20:.0f} MB"


def test_a_zip_with_too_many_files_is_unreadable() -> None:
    data = _zip({f"f{i}.txt": b"" for i in range(MAX_ZIP_MEMBERS + 1)})
    out = read_bytes(data, "many.zip")
    assert len(out) == 1 and out[0].unreadable and f"{MAX_ZIP_MEMBERS + 1:,} files" in out[0].unreadable


def test_declared_sizes_are_not_trusted(bomb: bytes) -> None:
    """A zip whose central directory claims 100 bytes per member: the count is on bytes read."""
    lying = bytearray(bomb)
    i = 0
    while (i := lying.find(b"PK\x01\x02", i)) >= 0:  # central directory entries
        lying[i + 24:i + 28] = (100).to_bytes(4, "little")  # uncompressed size
        i += 4
    out = read_bytes(bytes(lying), "lying.zip")
    assert len(out) == 1 and out[0].unreadable  # never a game, never an exception


# --- CSV formula injection -------------------------------------------------------------------

DANGEROUS = ["=HYPERLINK(\"http://x\")", "+1+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
             "@SUM(1,2)", "\t=1", "\r=1", "'=already", "''-x", "-", "--", "=", "-3x"]


def test_neutralise_restore_is_a_bijection_and_leaves_numbers() -> None:
    for v in DANGEROUS:
        w = neutralise(v)
        assert w.startswith("'") and restore(w) == v
    for v in ["-3", "+1.5", "-2e3", "-0.25", ".5", "ok", "'quoted'", "", "x=1", "'", "''"]:
        assert neutralise(v) == v and restore(v) == v


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(alphabet=st.sampled_from("'=+-@\t\r0123456789.eEx "), max_size=8))
def test_restore_inverts_neutralise_on_any_text(v: str) -> None:
    w = neutralise(v)
    assert restore(w) == v
    assert not (w[:1] in ("=", "+", "-", "@", "\t", "\r") and not _is_number(w))


def _is_number(s: str) -> bool:
    from ingest.formats.cells import NUMBER

    return NUMBER.fullmatch(s) is not None


def test_convert_to_csv_writes_no_live_formula_and_reads_back_exactly() -> None:
    loaded = _one(NOTATION.read_bytes(), "example-4p.m38")
    header = loaded.parsed.header
    seats = [s.model_copy(update={"player": DANGEROUS[i]}) for i, s in enumerate(header.seats)]
    header = header.model_copy(update={"seats": seats, "venue": "@venue", "facilitator": "-Robin"})
    events = list(loaded.parsed.events)
    for i, ev in enumerate(events):
        if ev.type == "survey":
            events[i] = ev.model_copy(update={"value": -3 if i % 2 else "=1+1"})
        elif ev.type == "observation":
            events[i] = ev.model_copy(update={"text": "-2+3+cmd|' /C calc'!A0"})
    log = MandateLog.model_construct(header=header, events=events)
    text = write_log(log, "csv")
    for row in csv.reader(io.StringIO(text, newline="")):
        for cell in row:
            assert cell[:1] not in ("=", "+", "-", "@", "\t", "\r") or _is_number(cell), cell
    assert ",-3," in text or text.count("-3") >= 1  # negative numbers stay numbers
    back = _one(text.encode(), "back.csv")
    assert [f.message for f in back.findings] == []
    assert dumps_log(MandateLog.model_construct(header=back.parsed.header, events=back.parsed.events)) \
        == dumps_log(log)


def test_neutralise_frame_and_sql_agree_with_neutralise() -> None:
    import duckdb
    import polars as pl

    values = DANGEROUS + ["-3", "ok", "'quoted'", None]
    df = pl.DataFrame({"v": values, "n": list(range(len(values)))})
    got = neutralise_frame(df)["v"].to_list()
    want = [None if v is None else neutralise(v) for v in values]
    assert got == want
    con = duckdb.connect()
    con.execute("CREATE TABLE t (v VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?)", [[v] for v in values])
    rows = [r[0] for r in con.execute(f"SELECT {neutralise_sql('v')} FROM t").fetchall()]
    assert rows == want


# --- issue 19 ---------------------------------------------------------------------------------

VESTIGE_SHEET = ROOT / "data" / "samples" / "vestige" / "walkthrough-3p.csv"


def test_header_seats_not_numbered_1_to_n_are_findings_not_a_crash() -> None:
    """Issue 19 item 2: ``seat,1,`` changed to ``seat,4,`` crashed the Vestige engine
    (KeyError). The generic seat check skips events naming a seat the header lacks."""
    from engine.core.replay import replay

    text = VESTIGE_SHEET.read_text(encoding="utf-8")
    assert "\nseat,1," in text
    loaded = _one(text.replace("\nseat,1,", "\nseat,4,", 1).encode(), "seats.csv")
    assert loaded.parsed.header is not None
    result = replay(loaded.parsed.header, loaded.parsed.events)
    codes = {f.code for f in result.findings}
    assert "vestige-setup/seats" in codes
    out_of_range = [f for f in result.findings if f.code == "log/seat-out-of-range"]
    assert out_of_range and all(f.where.seat == 1 for f in out_of_range)
    assert "only seats 2, 3, 4 are at the table" in out_of_range[0].message


def test_cli_validate_and_replay_of_renumbered_seats_exit_with_findings(tmp_path: Path) -> None:
    from cli.main import main

    path = tmp_path / "seats.csv"
    path.write_text(VESTIGE_SHEET.read_text(encoding="utf-8").replace("\nseat,1,", "\nseat,4,", 1),
                    encoding="utf-8")
    assert main(["validate", str(path), "--quiet"]) == 1
    assert main(["replay", str(path)]) in (0, 1)


def test_vestige_convert_to_csv_writes_no_live_formula_and_reads_back_exactly() -> None:
    """Issue 19 item 4: the Vestige sheet writer wrote ``=HYPERLINK(...)`` as it was."""
    from ingest.vestige.notation import read_vestige_notation
    from schemas.vestige import VestigeLog

    source = ROOT / "data" / "samples" / "vestige" / "walkthrough-3p.csv"
    loaded = _one(source.read_bytes(), "walkthrough-3p.csv")
    header = loaded.parsed.header
    seats = [s.model_copy(update={"player": DANGEROUS[i]}) for i, s in enumerate(header.seats)]
    header = header.model_copy(update={"seats": seats, "venue": '=HYPERLINK("http://x")',
                                       "facilitator": "@Robin"})
    events = [ev.model_copy(update={"comment": "-2+3+cmd|' /C calc'!A0"}) if i % 3 == 0 else ev
              for i, ev in enumerate(loaded.parsed.events)]
    log = VestigeLog.model_construct(header=header, events=events)
    text = write_log(log, "csv")
    for row in csv.reader(io.StringIO(text, newline="")):
        for cell in row:
            assert cell[:1] not in ("=", "+", "-", "@", "\t", "\r") or _is_number(cell), cell
    back = _one(text.encode(), "back.csv")
    assert [f.message for f in back.findings] == []
    assert dumps_log(VestigeLog.model_construct(header=back.parsed.header,
                                                events=back.parsed.events)) == dumps_log(log)
    # the notation is not a spreadsheet format: it keeps the text as it is
    assert read_vestige_notation(write_log(log, "notation").encode(), "x.vst").findings == []
