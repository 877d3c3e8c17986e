"""Recording a physical playtest of a rules variant (docs/variants.md): the Record page's
"Rules variant" choice, shared by every game's recorder.

The facilitator picks a known variant of the game (the bundled ones in examples/variants/ and
those already recorded in the warehouse) or gives the variant file the table plays (TOML,
``playtest variant show`` checks it); it is checked against the game's bounds here too, and its
stamp (name, content hash and the changes themselves) goes into the new draft's header, so the
audit replays the game under the variant and the Variants page shows it beside the simulated
evidence, never pooled. While recording, :func:`variant_words` names it in the draft's title.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import streamlit as st

#: the variants shipped with the toolkit (a known variant of each game is one of these)
EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "variants"
PRINTED = "The rules as printed"
FILE = "A variant file..."


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


@functools.lru_cache(maxsize=8)
def _bundled(game: str) -> tuple[tuple[str, str], ...]:
    """(label, stamp as JSON) of every bundled variant file of ``game`` that passes its checks
    (examples/variants/ and its folders, not the broken examples)."""
    out = []
    if not EXAMPLES.is_dir():
        return ()
    for path in sorted(EXAMPLES.rglob("*.toml")):
        if "broken" in path.relative_to(EXAMPLES).parts:
            continue
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if game not in text:  # cheap: only files naming this game are checked
            continue
        stamp, problems = stamp_of(text, path.name, game)
        if stamp is not None and not problems:
            out.append((f"{stamp['name']} (bundled: {path.relative_to(EXAMPLES)})",
                        json.dumps(stamp)))
    return tuple(out)


def _recorded(game: str, db: Path | None) -> list[tuple[str, dict[str, Any]]]:
    """(label, stamp) of every variant of ``game`` the warehouse records a game under."""
    from dashboards import store
    from schemas.log import VariantStamp

    if db is None or not store.table_exists(db, "games"):
        return []
    try:
        rows = store.query(
            db, "SELECT DISTINCT variant_name, variant_content_hash, variant_changes::VARCHAR "
            "AS changes FROM games WHERE game = ? AND variant_name IS NOT NULL "
            "ORDER BY 1, 2", [game])
    except Exception:  # a warehouse not yet at schema 9 records no variant  # noqa: BLE001
        return []
    out = []
    for name, vhash, changes in rows.rows() if not rows.is_empty() else []:
        try:
            body = json.loads(changes) if changes else {}
            stamp = VariantStamp.model_validate({"name": name, "hash": vhash, **body})
        except (ValueError, TypeError):
            continue
        out.append((f"{name} (recorded before, {vhash})", stamp.model_dump(mode="json")))
    return out


def known_variants(game: str, db: Path | None = None) -> dict[str, dict[str, Any]]:
    """Label -> stamp of the variants of ``game`` the toolkit knows: the bundled files that pass
    their checks, then those the warehouse records games under (one entry per content hash)."""
    out: dict[str, dict[str, Any]] = {}
    hashes: set[str] = set()
    for label, text in _bundled(game):
        stamp = json.loads(text)
        out[label] = stamp
        hashes.add(str(stamp.get("hash")))
    for label, stamp in _recorded(game, db):
        if str(stamp.get("hash")) not in hashes:
            out[label] = stamp
            hashes.add(str(stamp.get("hash")))
    return out


def variant_words(header: dict[str, Any]) -> str:
    """The rules variant a draft's header names, for its title line (Markdown, text escaped):
    "rules variant **NAME**", or "" for the rules as printed."""
    from dashboards.ui import md_text

    v = header.get("variant")
    if not isinstance(v, dict) or not v.get("name"):
        return ""
    return f"rules variant **{md_text(str(v['name']))}**"


def _summary(stamp: dict[str, Any]) -> None:
    changed = [*stamp.get("changes", {}), *stamp.get("paused", []), *stamp.get("options", {})]
    st.success(f"Recording under the variant **{stamp['name']}** ({len(changed)} change"
               f"{'s' if len(changed) != 1 else ''}: {', '.join(map(str, changed[:6]))}"
               f"{' ...' if len(changed) > 6 else ''}).")


def pick(game: str, key: str) -> tuple[dict[str, Any] | None, bool]:
    """The "Rules variant" choice of a new session: the rules as printed, a known variant of the
    game (:func:`known_variants`) or a variant file; (stamp or None for the printed rules,
    whether the choice is usable). A file that fails its checks is shown with every reason."""
    from dashboards import store

    try:
        db: Path | None = store.db_path()
    except Exception:  # no warehouse configured: the bundled variants only  # noqa: BLE001
        db = None
    known = known_variants(game, db)
    choice = st.selectbox(
        "Rules variant", [PRINTED, *known, FILE], key=f"{key}_choice",
        help="The rules the table plays: as printed, a variant the toolkit knows (bundled, or "
        "recorded before) or a variant file. The game is then audited under the variant.")
    if choice in known:
        _summary(known[choice])
        return known[choice], True
    if choice != FILE:
        return None, True
    upload = st.file_uploader(
        "Variant file: the variant the table plays (TOML)", type=["toml"], key=key,
        help="The file is checked as `playtest variant show` checks it.")
    if upload is None:
        st.caption("Give the variant file, or choose the rules as printed.")
        return None, False
    text = upload.getvalue().decode("utf-8", errors="replace")
    stamp, problems = stamp_of(text, upload.name, game)
    if problems:
        from dashboards.ui import md_text

        st.error("This variant file cannot be used:\n\n"
                 + "\n".join(f"- {md_text(p)}" for p in problems))
        return None, False
    assert stamp is not None
    _summary(stamp)
    return stamp, True
