"""The playtest toolkit's dashboard: the ``st.navigation`` router.

Run with ``playtest dashboard`` (or ``streamlit run dashboards/app.py`` with ``PLAYTEST_DB``
set). The shared pages (one module each in ``dashboards/views/``) work for every registered
game; a game adds its own pages through its app part (:mod:`dashboards.gameapps`), listed
under the game's title (:mod:`dashboards.navigation`). Every analytics page draws the shared
filter sidebar (``dashboards/filters.py``) first.
"""

from __future__ import annotations

import streamlit as st

from dashboards import gameapps, navigation, store

st.set_page_config(page_title="Playtest toolkit", page_icon=":material/casino:",
                   layout="wide")

page = st.navigation({
    section: [st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path,
                      default=p.default) for p in pages]
    for section, pages in navigation.sections().items()
}, expanded=True)  # every page one click away: no "View more" folding the last sections
st.sidebar.caption(f"Database: `{store.db_path()}`")
if (problem := gameapps.install_problem()) is not None:  # a game installed while serving
    st.sidebar.warning(problem, icon=":material/restart_alt:")
page.run()
