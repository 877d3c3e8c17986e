"""The designer loop of every game (issue 28): a game declares it (engine.core.game.DesignerLoop),
and ``study``, ``simulate --variant`` and ``compare`` work from that declaration
(ingest/study.py; docs/variants.md "Paired studies")."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from engine.core.game import DesignerLoop, GameDeclarationError, Knob, check_declaration
from engine.core.registry import get_ruleset
from ingest import study
from ingest.variants import load_variant
from schemas.variants import VariantError, parse_variant

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "variants"
VESTIGE_VARIANT = EXAMPLES / "vestige-three-conditions.toml"
PIG_VARIANT = EXAMPLES / "pig-target-50.toml"


def _study(tmp: Path, game: str, variant: Path, games: int, players: tuple[int, ...],
           seed: str = "loop") -> Path:
    lv = load_variant(variant)
    parts = study.study_parts(game)
    spec = parts.spec({"games": games, "players": players, "seed": seed, "batch_size": games},
                      ((lv.name, lv.stamp.model_dump_json()),))
    parts.check(spec)
    out = tmp / f"{game}-study"
    parts.run(spec, out, backend="local", workers=1, say=lambda m: None)
    return out


def _row(result: dict, metric: str) -> dict:
    return next(r for r in result["rows"] if r["metric"] == metric)


# --- the declaration --------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["mandate2038", "vestige", "pig"])
def test_every_game_with_a_simulator_declares_its_designer_loop(game: str) -> None:
    if get_ruleset(game) is None:
        pytest.skip(f"{game} is hidden from the registry (PLAYTEST_ONLY_GAMES)")
    rs = get_ruleset(game)
    assert rs is not None and isinstance(rs.designer_loop, DesignerLoop)
    parts = study.study_parts(game)
    assert callable(parts.run) and callable(parts.problems)


def test_a_malformed_designer_loop_is_refused() -> None:
    rs = get_ruleset("pig")

    class Bad(type(rs)):  # type: ignore[misc]
        designer_loop = DesignerLoop(play="playtest_pig.loop:no_such_function")

    with pytest.raises(GameDeclarationError, match="designer_loop.play"):
        check_declaration(Bad())

    class NotKnobs(type(rs)):  # type: ignore[misc]
        designer_loop = DesignerLoop(knobs=({"name": "target"},))  # type: ignore[arg-type]

    with pytest.raises(GameDeclarationError, match="designer_loop"):
        check_declaration(NotKnobs())


@pytest.mark.needs_game("vestige")
def test_vestige_knobs_are_its_printed_numbers_and_bounded() -> None:
    lv = load_variant(VESTIGE_VARIANT)
    assert lv.stamp.changes == {"stated.endgame_needed": 3}
    assert [c.base for c in lv.changes] == [2]  # the rulebook's p. 25
    text = ('name = "v"\ngame = "vestige"\nrules_version = "rulebook-1"\n[changes]\n'
            'endgame_needed = 9\n"region_leverage.trench" = 5\n"stated.start_speed" = 3\n')
    with pytest.raises(VariantError) as err:
        from ingest.variants import check_variant

        check_variant(parse_variant(text, "v.toml"))
    probs = [str(p) for p in err.value.problems]
    assert any("v.toml:5: stated.endgame_needed: 9 is out of bounds" in p for p in probs)
    assert any("v.toml:7: stated.start_speed: unknown path" in p for p in probs)
    assert not any("trench" in p for p in probs)  # a declared region leverage is a knob


def test_pig_declares_one_knob() -> None:
    lv = load_variant(PIG_VARIANT)
    assert lv.stamp.changes == {"target": 50}
    assert [k.name for k in get_ruleset("pig").designer_loop.knobs] == ["target"]


@pytest.mark.needs_game("vestige")
def test_vestige_declares_its_knobs() -> None:
    assert all(isinstance(k, Knob) for k in get_ruleset("vestige").designer_loop.knobs)


# --- the variant is played --------------------------------------------------------------------


@pytest.mark.needs_game("vestige")
def test_the_vestige_simulator_plays_a_variant_and_its_log_is_audited_under_it() -> None:
    from engine.core.replay import replay
    from engine.vestige.simulate import simulate_one

    stamp = load_variant(VESTIGE_VARIANT).stamp
    log = simulate_one("v", 0, 2, variant=stamp)
    assert log.header.variant == stamp
    assert not [f for f in replay(log.header, log.events).findings if f.severity == "error"]
    printed = replay(log.header.model_copy(update={"variant": None}), log.events)
    assert printed.findings  # under the printed rules the game ended too late


# --- studies move their metrics the expected way ----------------------------------------------


@pytest.mark.needs_game("vestige")
def test_three_endgame_conditions_make_vestige_games_longer(tmp_path: Path) -> None:
    out = _study(tmp_path, "vestige", VESTIGE_VARIANT, games=40, players=(2,))
    assert study.study_problems(out) == []
    result = study.compare_study(out, replicates=400)
    rounds = _row(result, "rounds")
    assert rounds["variant"] == "three-conditions" and rounds["games"] == 40
    assert rounds["difference"] > 0 and rounds["significant"], rounds
    assert rounds["interval"][0] > 0


def test_a_lower_pig_target_makes_games_shorter(tmp_path: Path) -> None:
    out = _study(tmp_path, "pig", PIG_VARIANT, games=200, players=(2,))
    result = study.compare_study(out, replicates=400)
    turns = _row(result, "turns")
    assert turns["value"] < turns["baseline"] and turns["significant"], turns
    assert {"first_player_win", "first_player_edge", "turns"} <= {
        r["metric"] for r in result["rows"]}
    for r in result["rows"]:
        assert {"metric", "variant", "baseline", "value", "difference", "interval",
                "significant"} <= set(r)


def test_a_generic_study_resumes_and_refuses_another_study(tmp_path: Path) -> None:
    out = _study(tmp_path, "pig", PIG_VARIANT, games=10, players=(2, 3))
    lv = load_variant(PIG_VARIANT)
    parts = study.study_parts("pig")
    spec = parts.spec({"games": 10, "players": (2, 3), "seed": "loop", "batch_size": 10},
                      ((lv.name, lv.stamp.model_dump_json()),))
    again = parts.run(spec, out, backend="local", workers=1, say=lambda m: None)
    assert again["batches"] == 0 and again["batches_skipped"] == 4
    other = parts.spec({"games": 11, "players": (2,), "seed": "loop"}, ())
    with pytest.raises(study.StudyError, match="different study"):
        parts.run(other, out, backend="local", workers=1, say=lambda m: None)
    stray = out / "games" / "stray.parquet"
    pq.write_table(pa.table({"x": [1]}), stray)
    assert any("stray.parquet belongs to no batch" in p for p in study.study_problems(out))


@pytest.mark.needs_game("vestige")
def test_study_checks_its_bounds() -> None:
    parts = study.study_parts("vestige")
    with pytest.raises(study.StudyError, match="--players"):
        parts.check(parts.spec({"games": 10, "players": (5,)}, ()))
    with pytest.raises(study.StudyError, match="--games"):
        parts.check(parts.spec({"games": 0, "players": (2,)}, ()))


# --- compare under random winners: no more false alarms than its level -----------------------


def _null_folder(tmp: Path, rng: np.random.Generator, games: int, seats: int) -> Path:
    """A study folder of two arms whose winners are drawn at random, independently per arm:
    every seat's true win rate is 1/seats in both arms, so every "significant" is false."""
    out = tmp / f"null-{rng.integers(1 << 30)}"
    (out / "metrics").mkdir(parents=True)
    (out / "study.json").write_text(json.dumps({"game": "pig"}), "utf-8")
    rows: list[dict] = []
    for arm in ("baseline", "shuffled"):
        winners = rng.integers(1, seats + 1, size=games)
        for i, w in enumerate(winners):
            for k in range(1, seats + 1):
                rows.append({"variant": arm, "player_count": seats, "game_index": i,
                             "metric": f"win_seat_{k}", "num": float(w == k), "den": 1.0})
            rows.append({"variant": arm, "player_count": seats, "game_index": i,
                         "metric": "first_player_edge", "num": float(w == 1) - 1 / seats,
                         "den": 1.0})
    pq.write_table(pa.Table.from_pylist(rows), out / "metrics" / "x.parquet")
    return out


def test_compare_on_random_winners_says_significant_in_at_most_5_percent_of_arms(
        tmp_path: Path) -> None:
    arms = rows = flagged_rows = flagged_arms = 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        games = (60, 150, 300)[seed % 3]
        result = study.compare_study(_null_folder(tmp_path, rng, games, 4), replicates=400,
                                     seed=seed)
        flags = [r["significant"] for r in result["rows"]]
        arms += 1
        rows += len(flags)
        flagged_rows += sum(flags)
        flagged_arms += any(flags)
    assert flagged_arms / arms <= 0.05, (flagged_arms, arms)
    assert flagged_rows / rows <= 0.05, (flagged_rows, rows)


@pytest.mark.parametrize("game", ["pig", "vestige"])
def test_calibrate_on_a_game_that_publishes_no_figures_says_so(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`calibrate` runs the study's game's declared report; a game without one is told so."""
    from cli.main import main

    if get_ruleset(game) is None:
        pytest.skip(f"{game} is not installed")
    (tmp_path / "study.json").write_text(json.dumps({"game": game}), encoding="utf-8")
    code = main(["calibrate", str(tmp_path)])
    err = capsys.readouterr().err
    assert code != 0
    assert "publishes no designers' figures" in err and get_ruleset(game).title in err
