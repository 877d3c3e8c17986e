"""Recording a physical playtest of a rules variant (docs/variants.md): the Record page's
"Rules variant" choice, shared by every game's recorder.

The facilitator gives the variant file the table plays (TOML, ``playtest variant show`` checks
it); it is checked against the game's bounds here too, and its stamp (name, content hash and
the changes themselves) goes into the new draft's header, so the audit replays the game under
the variant and the Variants page shows it beside the simulated evidence, never pooled.
"""

from __future__ import annotations

from typing import Any

import streamlit as st


def stamp_of(text: str, name: str, game: str) -> tuple[dict[str, Any] | None, list[str]]:
    """(the header's variant stamp, problems) of a variant file's text for ``game``."""
    from ingest.variants import check_variant
    from schemas.variants import VariantError, parse_variant

    try:
        loaded = check_variant(parse_variant(text, file=name))
    except VariantError as err:
        return None, [str(p) for p in err.problems]
    if loaded.file.game != game:
        return None, [f"{name}: the variant is for {loaded.file.game}, not this game ({game})"]
    return loaded.stamp.model_dump(mode="json"), []


def pick(game: str, key: str) -> tuple[dict[str, Any] | None, bool]:
    """The "Rules variant" choice of a new session: (stamp or None for the printed rules,
    whether the choice is usable). A file that fails its checks is shown with every reason."""
    upload = st.file_uploader(
        "Rules variant (optional): the variant file the table plays", type=["toml"], key=key,
        help="Leave empty for the rules as printed. The file is checked as `playtest variant "
        "show` checks it; the game is then audited under the variant.")
    if upload is None:
        return None, True
    text = upload.getvalue().decode("utf-8", errors="replace")
    stamp, problems = stamp_of(text, upload.name, game)
    if problems:
        from dashboards.ui import md_text

        st.error("This variant file cannot be used:\n\n"
                 + "\n".join(f"- {md_text(p)}" for p in problems))
        return None, False
    assert stamp is not None
    changed = [*stamp.get("changes", {}), *stamp.get("paused", []), *stamp.get("options", {})]
    st.success(f"Recording under the variant **{stamp['name']}** ({len(changed)} change"
               f"{'s' if len(changed) != 1 else ''}: {', '.join(map(str, changed[:6]))}"
               f"{' ...' if len(changed) > 6 else ''}).")
    return stamp, True
