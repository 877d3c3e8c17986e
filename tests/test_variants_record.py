"""Issue 18: a facilitator records a physical playtest of a rules variant in the app. The Record
page's variant file is checked as ``playtest variant show`` checks it, and its stamp goes into the
new draft's header (both games' recorders), so the audit replays the game under the variant."""

from __future__ import annotations

from pathlib import Path

from dashboards import variant_pick
from dashboards.mandate2038 import live
from dashboards.vestige import live as vl
from schemas.log import VariantStamp

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "examples" / "variants"


def test_a_variant_file_stamps_a_new_mandate_session() -> None:
    path = VARIANTS / "dossier-compute-2.toml"
    stamp, problems = variant_pick.stamp_of(path.read_text(), path.name, "mandate2038")
    assert problems == [] and stamp is not None
    header, problem = live.new_header(
        seats=[("kestralyn", None), ("loopfold", None), ("mirevanta", None)],
        session_type="facilitated_playtest", layout=None, first_initiative=1, protocol=None,
        variant=stamp)
    assert problem is None and header is not None
    assert VariantStamp.model_validate(header["variant"]).name == stamp["name"]
    assert header["variant"]["changes"]  # the changes themselves, not only the name


def test_a_variant_file_stamps_a_new_vestige_session() -> None:
    path = VARIANTS / "obelisk-other-pair.toml"
    stamp, problems = variant_pick.stamp_of(path.read_text(), path.name, "vestige")
    assert problems == [] and stamp is not None
    header = vl.new_header([("blue", "Ana"), ("green", "Ben")], variant=stamp)
    assert header["variant"]["hash"] == stamp["hash"]


def test_a_broken_or_foreign_variant_file_is_refused_with_its_reasons() -> None:
    for broken in sorted((VARIANTS / "broken").glob("*.toml")):
        stamp, problems = variant_pick.stamp_of(broken.read_text(), broken.name, "mandate2038")
        assert stamp is None and problems, broken.name
        assert all(p.startswith(broken.name) for p in problems), problems
    path = VARIANTS / "obelisk-other-pair.toml"
    stamp, problems = variant_pick.stamp_of(path.read_text(), path.name, "mandate2038")
    assert stamp is None and "not this game" in problems[0]


def test_known_variants_of_each_game_and_the_recorders_title_words(tmp_path: Path) -> None:
    """The setup's known variants: the game's bundled files that pass their checks (never the
    broken ones, never another game's), then those the warehouse records (issue 28); the title
    line names a draft's variant while recording."""
    mandate = variant_pick.known_variants("mandate2038", tmp_path / "none.duckdb")
    names = {s["name"] for s in mandate.values()}
    assert {"dossier-compute-2", "kestralyn-paused"} <= names
    assert "obelisk-other-pair" not in names
    assert not any("broken" in label for label in mandate)
    vestige = variant_pick.known_variants("vestige", None)
    assert sorted(s["name"] for s in vestige.values()) == ["obelisk-other-pair",
                                                           "three-conditions"]
    stamp = next(s for s in vestige.values() if s["name"] == "obelisk-other-pair")
    assert VariantStamp.model_validate(stamp).hash == "a04dbf7e18b42654"
    assert variant_pick.variant_words({"variant": stamp}) == \
        r"rules variant **obelisk\-other\-pair**"
    assert variant_pick.variant_words({}) == ""
