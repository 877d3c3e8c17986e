"""The Mandate 2038 playtest dashboard: the ``st.navigation`` router.

Run with ``playtest dashboard`` (or ``streamlit run dashboards/app.py`` with ``PLAYTEST_DB``
set). Each page is one module in ``dashboards/views/``; every analytics page draws the shared
filter sidebar (``dashboards/filters.py``) first.
"""

from __future__ import annotations

import streamlit as st

from dashboards import store

st.set_page_config(page_title="Mandate 2038 playtests", page_icon=":material/hexagon:",
                   layout="wide")

PAGES = {
    "Capture": [
        st.Page("views/record.py", title="Record a game", icon=":material/edit_note:",
                url_path="record"),
        st.Page("views/import_games.py", title="Import", icon=":material/upload_file:",
                url_path="import"),
    ],
    "Check": [
        st.Page("views/overview.py", title="Games", icon=":material/table_view:",
                url_path="games", default=True),
        st.Page("views/audit.py", title="Audit", icon=":material/rule:", url_path="audit"),
        st.Page("views/replay.py", title="Replay viewer", icon=":material/hexagon:",
                url_path="replay"),
    ],
    "Analyse": [
        st.Page("views/duration.py", title="Duration", icon=":material/timer:",
                url_path="duration"),
        st.Page("views/scoring.py", title="Scoring sources", icon=":material/leaderboard:",
                url_path="scoring"),
        st.Page("views/endings.py", title="World Endings", icon=":material/public:",
                url_path="endings"),
        st.Page("views/observations.py", title="Observation protocols",
                icon=":material/visibility:", url_path="observations"),
        st.Page("views/balance.py", title="Balance", icon=":material/balance:",
                url_path="balance"),
        st.Page("views/variants.py", title="Variants", icon=":material/compare_arrows:", url_path="variants"),
    ],
    "Vestige": [
        st.Page("views/vestige_record.py", title="Record a Vestige game",
                icon=":material/edit_note:", url_path="vestige-record"),
        st.Page("views/vestige_replay.py", title="Vestige replay", icon=":material/hexagon:",
                url_path="vestige-replay"),
        st.Page("views/vestige_duration.py", title="Vestige: duration",
                icon=":material/timer:", url_path="vestige-duration"),
        st.Page("views/vestige_leverage.py", title="Vestige: leverage sources",
                icon=":material/leaderboard:", url_path="vestige-leverage"),
        st.Page("views/vestige_endgame.py", title="Vestige: endgame and mastery",
                icon=":material/flag:", url_path="vestige-endgame"),
        st.Page("views/vestige_modes.py", title="Vestige: modes and nemeses",
                icon=":material/groups:", url_path="vestige-modes"),
    ],
}
page = st.navigation(PAGES)
st.sidebar.caption(f"Database: `{store.db_path()}`")
page.run()
