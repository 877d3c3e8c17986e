"""Which draft the Record page shows: one address parameter (``?draft=<id>``) for every game, so
a reload or a restart comes back to the same draft whatever game it records."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

from dashboards import drafts, store

QP = "draft"
#: the address parameter of the former Vestige-only record page, still understood
OLD_QP = "vdraft"
#: session keys a recorder keeps for its open draft, dropped when another draft is opened
TRANSIENT = ("confirm", "passed", "vrec_passed", "vrec_confirm", "vrec_group")


def ddir() -> Path:
    """The drafts folder beside the database."""
    return store.drafts_dir(store.db_path())


def current() -> str | None:
    """The draft being recorded (from the address: it survives a refresh), or None."""
    for name in (QP, OLD_QP):
        qp = st.query_params.get(name)
        if not qp:
            continue
        try:
            if drafts.path_of(ddir(), qp).is_file():
                if name == OLD_QP:
                    del st.query_params[OLD_QP]
                    st.query_params[QP] = qp
                return str(qp)
        except drafts.DraftError:
            pass
        st.warning(f"No draft “{qp}” here; choose one from the list.")
        del st.query_params[name]
    return None


def open_draft(draft_id: str | None) -> None:
    """Show ``draft_id`` (None: back to the list of drafts)."""
    for k in TRANSIENT:
        st.session_state.pop(k, None)
    if draft_id:
        st.query_params[QP] = draft_id
    elif QP in st.query_params:
        del st.query_params[QP]


def put_aside(draft_id: str) -> None:
    """Mark a draft abandoned (its file is kept; the Record page lists it to reopen) and close
    it."""
    drafts.mark(ddir(), draft_id, "abandoned")
    open_draft(None)


#: what a refused stale tap says (quietly: a toast, nothing written)
STALE = ("That tap answered a decision already recorded; nothing more was written.")


#: a decision answered sooner than this after it was first drawn is the rest of a double tap
#: (the finger came down again where the next decision's button now is), not a reading of it
SETTLE_ENV = "PLAYTEST_TAP_SETTLE_MS"
SETTLE_MS = 600
DRAWN = "_record_drawn"


def drawn(draft_id: str, at: int) -> None:
    """Note when the decision at position ``at`` (events recorded) was first drawn."""
    import time

    seen = st.session_state.setdefault(DRAWN, {})
    seen.setdefault((draft_id, at), time.monotonic())


def _too_soon(draft_id: str, at: int) -> bool:
    import os
    import time

    raw = os.environ.get(SETTLE_ENV, "")
    settle = int(raw) if raw.isdigit() else SETTLE_MS
    first = st.session_state.get(DRAWN, {}).get((draft_id, at))
    return first is not None and (time.monotonic() - first) * 1000 < settle


def record_at(draft_id: str, at: int, events: list[dict[str, Any]]) -> bool:
    """Append ``events``, answering the decision drawn when the draft stood at ``at`` events;
    a stale answer (a double tap, a tap on a decision already answered, or a tap on a decision
    drawn a moment ago: the second tap of a burst landing on the next decision's button) writes
    nothing and says so quietly. True when written."""
    if not _too_soon(draft_id, at) and drafts.append_at(ddir(), draft_id, at, events):
        return True
    st.toast(STALE, icon=":material/touch_app:")
    return False


def undo_at(draft_id: str, at: int) -> bool:
    """Take back the last event of the draft standing at ``at`` events (a second tap on Undo, or
    on its "Yes", takes back nothing more). True when taken back."""
    if drafts.undo_at(ddir(), draft_id, at):
        return True
    st.toast(STALE, icon=":material/touch_app:")
    return False


def draft_top(d: Any, title: str, key: str) -> bool:
    """A draft's title line (``title`` is Markdown: the caller escapes user text with
    ``ui.md_text``), the rules variant its header names (if any), its event count and a Leave
    button; for a draft no longer open, what it is (and Reopen for an abandoned one). True when
    recording can go on."""
    from dashboards import ui
    from dashboards.variant_pick import variant_words

    top = st.columns([5, 1])
    variant = variant_words(d.header)
    top[0].markdown(f"{title}{f' · {variant}' if variant else ''} · "
                    f"{ui.plural(len(d.events), 'event')} (saved after each one)")
    top[1].button("Leave", key=f"{key}_leave", on_click=open_draft, args=(None,),
                  help="Back to the list; the draft stays on disk and can be resumed.")
    if d.status == "open":
        return True
    st.info(f"This draft is {d.status}"
            + (" and its game is archived and loaded." if d.game_id else ".")
            + " Nothing more can be recorded in it.", icon=":material/inventory_2:")
    if d.status == "abandoned" and st.button("Reopen this draft", key=f"{key}_reopen"):
        drafts.mark(ddir(), d.id, "reopened")
        st.rerun()
    return False


def ask_aside(draft_id: str, key: str, close: Callable[[], None]) -> None:
    """The question every recorder asks before putting a draft aside (buttons ``KEY_yes`` and
    ``KEY_no``); on yes, ``close`` ends the question, the draft is put aside and the page runs
    again."""
    from dashboards import ui

    if ui.confirm(ui.ASIDE_QUESTION, "Yes, put it aside", key, close, primary=False):
        close()
        put_aside(draft_id)
        st.rerun()


def ask_undo(draft_id: str, at: int, last: str, key: str, close: Callable[[], None],
             after: Callable[[], None] | None = None) -> None:
    """The question every recorder asks before taking back the last event (``last``, in words;
    buttons ``KEY_yes`` and ``KEY_no``); on yes, ``close`` ends the question, the event recorded
    at position ``at`` is taken back (once, however often "Yes" is tapped), ``after`` runs and
    the page runs again."""
    from dashboards import ui

    if ui.confirm(f"Take back the last event? “{last}” (the draft file keeps it as undone).",
                  "Yes, undo it", key, close):
        close()
        if undo_at(draft_id, at) and after is not None:
            after()
        st.rerun()


#: a recorder's buttons wrap their words instead of cutting them off (a tablet held upright
#: is 768 px wide: "Cycle 1: Headline The Token Price…" must read whole)
FIT_CONTROLS = """<style>
[data-testid="stMain"] [data-testid="stButton"] button,
[data-testid="stMain"] [data-testid="stDownloadButton"] button,
[data-testid="stMain"] [data-testid="stButtonGroup"] button { height: auto; }
[data-testid="stMain"] [data-testid="stButton"] button *,
[data-testid="stMain"] [data-testid="stDownloadButton"] button *,
[data-testid="stMain"] [data-testid="stButtonGroup"] button * {
  white-space: normal !important; overflow: visible !important;
  text-overflow: clip !important; overflow-wrap: anywhere; }
</style>"""


def fit_controls() -> None:
    """Let every control of the Record page show its whole label at any width."""
    st.html(FIT_CONTROLS)
