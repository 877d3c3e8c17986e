"""Golden pairs of rules variants (docs/variants.md): per game, a logged game whose header names
a variant, with its findings under the variant (none) and under the rules as printed (at least
one), and the same deal played under the printed rules but stamped with the variant (findings
that rest on the variant's changes, and say so).

Regenerate with ``python -m tests.golden.variant_pairs`` and review the diff; the test
(tests/test_variants.py) replays every file and compares exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "variants"

#: (game, variant file, study seed, players, game index): the index is one whose play under the
#: printed rules differs from the variant's (chosen by looking, and fixed here)
PAIRS: tuple[tuple[str, str, str, int, int], ...] = (
    ("mandate2038", "examples/variants/dossier-compute-2.toml", "golden", 3, 2),
)
#: Vestige pairs: (variant file, a game built with tests.golden.vestige.build played as the
#: variant allows)
VESTIGE_PAIRS: tuple[str, ...] = ("examples/variants/obelisk-other-pair.toml",)


def findings_of(header: Any, events: list[Any]) -> list[dict[str, Any]]:
    """Every error and warning of a replay, with the variant changes each rests on."""
    from engine.core.replay import replay
    from engine.core.variants import rests_on

    found = replay(header, events).findings
    found = rests_on(header, found, lambda h: replay(h, events).findings)
    return [{"code": f.code, "rule": f.rule, "event": f.where.event,
             "variant_changes": list(f.variant_changes)}
            for f in found if f.severity in ("error", "warning")]


def build(game: str, variant_file: str, seed: str, players: int, index: int
          ) -> dict[str, tuple[Any, dict[str, Any]]]:
    """The files of one pair: name -> (log, expected)."""
    from engine.mandate2038.lineups import play_lineup_game
    from ingest.variants import load_variant
    from schemas.mandate2038.profiles import load_profiles
    from schemas.packs import load_pack

    stamp = load_variant(ROOT / variant_file).stamp
    pack = load_pack(game, "0.8.0-rc.17-test")
    profiles = load_profiles("default")
    ids = list(profiles)
    played, _, _ = play_lineup_game(seed, index, players, ids, "default", profiles, pack,
                                    variant=stamp)
    printed, _, _ = play_lineup_game(seed, index, players, ids, "default", profiles, pack)
    stamped = printed.model_copy(update={"header": printed.header.model_copy(update={
        "variant": stamp, "game_id": f"{printed.header.game_id}-stamped"})})
    out = {}
    base = played.header.model_copy(update={"variant": None})
    out[stamp.name] = (played, {
        "case": stamp.name, "variant_file": variant_file,
        "doc": f"played under {stamp.name}: clean under it, findings under the printed rules",
        "under_variant": findings_of(played.header, played.events),
        "under_printed_rules": findings_of(base, played.events)})
    out[f"{stamp.name}-stamped"] = (stamped, {
        "case": f"{stamp.name}-stamped", "variant_file": variant_file,
        "doc": f"the same deal played under the printed rules, its header naming {stamp.name}: "
               "the findings rest on the variant's change and say so",
        "under_variant": findings_of(stamped.header, stamped.events),
        "under_printed_rules": findings_of(stamped.header.model_copy(update={"variant": None}),
                                           stamped.events)})
    return out


def _obelisk_other_pair() -> Any:
    """Seat 1 visits the Obelisk, spends ambition + ambition and gains ambition + might: one of
    the spent attributes comes back (allowed when only the pair must differ)."""
    from tests.golden.vestige.build import Game

    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"ambition": 2}}})
    g.move(1, [19, 24, 18])
    g.e("visit", seat=1, position="O6", region="obelisk", spend=["ambition", "ambition"],
        gain=["ambition", "might"])
    return g


def build_vestige(variant_file: str) -> dict[str, tuple[Any, dict[str, Any]]]:
    """The Vestige pair of one variant file: name -> (log, expected)."""
    from ingest.variants import load_variant
    from schemas.vestige import VestigeLog

    stamp = load_variant(ROOT / variant_file).stamp
    g = _obelisk_other_pair()
    header = {**g.header, "variant": stamp.model_dump(), "game_id": f"golden-{stamp.name}"}
    log = VestigeLog.model_validate({"header": header, "events": g.events})
    base = log.header.model_copy(update={"variant": None})
    return {stamp.name: (log, {
        "case": stamp.name, "variant_file": variant_file,
        "doc": f"played under {stamp.name}: clean under it, a finding under the printed rules",
        "under_variant": findings_of(log.header, log.events),
        "under_printed_rules": findings_of(base, log.events)})}


def every_pair() -> dict[str, dict[str, tuple[Any, dict[str, Any]]]]:
    """Every golden pair by game: game -> name -> (log, expected)."""
    out: dict[str, dict[str, tuple[Any, dict[str, Any]]]] = {}
    for game, vfile, seed, players, index in PAIRS:
        out.setdefault(game, {}).update(build(game, vfile, seed, players, index))
    for vfile in VESTIGE_PAIRS:
        out.setdefault("vestige", {}).update(build_vestige(vfile))
    return out


def main() -> None:
    from schemas.canonical import dumps_log

    for game, pairs in every_pair().items():
        folder = OUT / game
        folder.mkdir(parents=True, exist_ok=True)
        for name, (log, expected) in pairs.items():
            (folder / f"{name}.json").write_text(dumps_log(log), encoding="utf-8")
            (folder / f"{name}.expected.json").write_text(
                json.dumps(expected, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            print(f"wrote {folder / name}.json ({len(expected['under_variant'])} finding(s) "
                  f"under the variant, {len(expected['under_printed_rules'])} under the "
                  "printed rules)")


if __name__ == "__main__":
    main()
