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

sections, notices = navigation.checked_sections()
specs = {p.url_path: p for pages in sections.values() for p in pages}
page = st.navigation({
    section: [st.Page(p.run or p.path, title=p.title, icon=p.icon, url_path=p.url_path,
                      default=p.default) for p in pages]
    for section, pages in sections.items()
}, expanded=True)  # every page one click away: no "View more" folding the last sections
st.sidebar.caption(f"Database: `{store.db_path()}`")
for notice in notices:  # a game plugin (or a page of one) left out: said, the rest served
    st.sidebar.warning(navigation.plain(notice), icon=":material/extension_off:")
if (problem := gameapps.install_problem()) is not None:  # a game installed while serving
    st.sidebar.warning(problem, icon=":material/restart_alt:")
spec = specs.get(page.url_path)
if spec is not None and spec.game is not None and spec.run is None:
    # a game's page file: its error stays inside its own page
    with navigation.page_errors(gameapps.title(spec.game), spec.title):
        page.run()
else:
    page.run()
