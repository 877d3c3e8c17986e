"""Import: upload notation, CSV, JSON or a designers' session folder (zip) and load it."""

from __future__ import annotations

import tempfile
from pathlib import Path

import polars as pl
import streamlit as st

from dashboards import importing, store, ui

st.title("Import")
st.caption(
    "Upload game logs: the text notation, the spreadsheet CSV, canonical JSON, or a designers' "
    f"session folder as a .zip (receipt.json, notes.md, scores.json). Up to {ui.MAX_UPLOAD_MB} MB "
    "per file. Every input is archived write-once; a file that cannot be read is quarantined "
    "with its reason, and the others still load."
)


def render() -> None:
    if not ui.write_access():
        return
    db = store.db_path()
    uploads = st.file_uploader(
        "Game files", accept_multiple_files=True, key="import_files",
        max_upload_size=ui.MAX_UPLOAD_MB,
        help="Several files at once are fine; a .zip is unpacked as one session folder.",
    )
    if not uploads:
        ui.empty_state("Choose one or more files to load.")
        return
    too_big = [u.name for u in uploads if u.size > ui.MAX_UPLOAD_MB * 1024 * 1024]
    if too_big:
        st.error(f"Too large (over {ui.MAX_UPLOAD_MB} MB): {', '.join(map(ui.md_text, too_big))}")
        return
    st.write(f"{ui.plural(len(uploads), 'file')} ready: "
             + ", ".join(ui.md_text(u.name) for u in uploads))
    if not st.button("Load into the archive and warehouse", type="primary", key="import_go"):
        return
    with (tempfile.TemporaryDirectory(prefix="playtest-upload-") as tmp,
          st.spinner("Reading, checking and loading...")):
        outcome = importing.run_import([(u.name, u.getvalue()) for u in uploads], db, Path(tmp))
    for note in outcome.notes:
        st.warning(ui.md_text(note), icon=":material/warning:")
    for problem in outcome.problems:
        st.error(ui.md_text(problem), icon=":material/error:")
    rows = outcome.rows
    if not rows:
        return
    df = pl.DataFrame(rows, schema={"file": pl.Utf8, "status": pl.Utf8, "game_id": pl.Utf8,
                                    "line": pl.Int64, "findings": pl.Int64, "reason": pl.Utf8},
                      strict=False)
    counts = df.group_by("status").len().sort("status")
    if not outcome.problems:
        st.success("Done: " + ", ".join(f"{n} {s or 'processed'}" for s, n in counts.iter_rows()),
                   icon=":material/check_circle:")
    ui.show_table(df, "import-report")
    loaded = df.filter(pl.col("status").is_in(["loaded", "recovered"]) & pl.col("game_id").is_not_null())
    for gid in loaded["game_id"].head(20).to_list():
        c1, c2 = st.columns(2)
        c1.page_link("views/audit.py", label=f"Audit game {gid}", query_params={"game": gid})
        c2.page_link("views/replay.py", label=f"Replay game {gid}", query_params={"game": gid})


ui.guarded(render)
