"""The Mandate 2038 playtest dashboard: the ``st.navigation`` router.

Run with ``playtest dashboard`` (or ``streamlit run dashboards/app.py`` with ``PLAYTEST_DB``
set). Each page is one module in ``dashboards/pages/``; every analytics page draws the shared
filter sidebar (``dashboards/filters.py``) first.
"""

from __future__ import annotations

import streamlit as st

from dashboards import store

st.set_page_config(page_title="Mandate 2038 playtests", page_icon=":material/hexagon:",
                   layout="wide")

PAGES = {
    "Capture": [
        st.Page("pages/record.py", title="Record a game", icon=":material/edit_note:",
                url_path="record"),
        st.Page("pages/import_games.py", title="Import", icon=":material/upload_file:",
                url_path="import"),
    ],
    "Check": [
        st.Page("pages/overview.py", title="Games", icon=":material/table_view:",
                url_path="games", default=True),
        st.Page("pages/audit.py", title="Audit", icon=":material/rule:", url_path="audit"),
        st.Page("pages/replay.py", title="Replay viewer", icon=":material/hexagon:",
                url_path="replay"),
    ],
    "Analyse": [
        st.Page("pages/duration.py", title="Duration", icon=":material/timer:",
                url_path="duration"),
        st.Page("pages/scoring.py", title="Scoring sources", icon=":material/leaderboard:",
                url_path="scoring"),
        st.Page("pages/endings.py", title="World Endings", icon=":material/public:",
                url_path="endings"),
        st.Page("pages/observations.py", title="Observation protocols",
                icon=":material/visibility:", url_path="observations"),
        st.Page("pages/balance.py", title="Balance", icon=":material/balance:",
                url_path="balance"),
    ],
}
page = st.navigation(PAGES)
st.sidebar.caption(f"Database: `{store.db_path()}`")
page.run()
