"""Rules variants (docs/variants.md): files checked against the game's bounds, the engine
playing and auditing under a variant (golden pairs), paired studies, the comparison and the
Variants view."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from cli.main import main
from engine.core import variants as cv
from ingest.variants import load_variant, sweep_variants
from schemas.packs import load_pack
from schemas.variants import VariantError, content_hash, parse_variant

pytestmark = pytest.mark.needs_game("mandate2038")

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "variants"
GOLDEN = Path(__file__).resolve().parent / "golden" / "variants"
RV = "0.8.0-rc.17-test"


# --- variant files --------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_examples_are_accepted(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variant", "show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "content hash" in out and "->" in out


@pytest.mark.parametrize("name, line, words", [
    ("unknown-path.toml", 8, "deploy_compute_cost: unknown path"),
    ("out-of-bounds.toml", 7, "dossier.compute_per_commit: 5 is out of bounds: the game allows 0..3"),
    ("violated-constraint.toml", 8, "violates constraint customer-requirements-rise"),
])
def test_broken_examples_are_rejected_with_file_line_and_reason(
        name: str, line: int, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = EXAMPLES / "broken" / name
    assert main(["variant", "show", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:{line}: " in err and words in err


def test_every_problem_is_reported_not_just_the_first() -> None:
    with pytest.raises(VariantError) as exc:
        load_variant(EXAMPLES / "broken" / "unknown-path.toml")
    assert [p.line for p in exc.value.problems] == [8, 9]


def test_bad_toml_names_its_line() -> None:
    with pytest.raises(VariantError) as exc:
        parse_variant('name = "x"\ngame = "mandate2038"\n[changes\n', "v.toml")
    assert exc.value.problems[0].line == 3 and "not valid TOML" in exc.value.problems[0].reason


def _check(text: str) -> list[str]:
    vf = parse_variant(text, "v.toml")
    from ingest.variants import check_variant

    try:
        check_variant(vf)
    except VariantError as exc:
        return [str(p) for p in exc.problems]
    return []


HEAD = 'name = "t"\ngame = "mandate2038"\nrules_version = "0.8.0-rc.17-test"\n'


def test_types_names_texts_and_unread_numbers_are_not_knobs() -> None:
    probs = _check(HEAD + '[changes]\n"factions.kestralyn.name" = "K"\n'
                   '"dossier.modules.benchmark.threshold" = 4\ndossier_compute = "2"\n'
                   '"factions.kestralyn.abilities.industrial_velocity.timing" = "sometimes"\n')
    text = "\n".join(probs)
    assert "v.toml:5: factions.kestralyn.name: not a knob" in text
    # the engine reads the benchmark's 3 from its own code, not from the pack
    assert "v.toml:6: dossier.modules.benchmark.threshold: not a knob" in text
    assert "v.toml:7: dossier.compute_per_commit: '2' does not have the pack's type" in text
    assert "'sometimes' is not one of the allowed values" in text


def test_options_and_paused_abilities_are_checked() -> None:
    probs = _check(HEAD + '[abilities]\npaused = ["kestralyn/flying", "nobody/x"]\n'
                   '[options]\npartnership-range = "anyone"\nno-such-ruling = "x"\n')
    text = "\n".join(probs)
    assert "kestralyn has no ability 'flying'" in text and "unknown faction 'nobody'" in text
    assert "v.toml:7: options.partnership-range: 'anyone' is not an option" in text
    assert "v.toml:8: options.no-such-ruling: unknown ruling" in text


def test_the_hash_is_of_the_content_not_of_the_text() -> None:
    a = load_variant(EXAMPLES / "dossier-compute-2.toml").stamp
    vf = parse_variant(HEAD.replace('"t"', '"other-name"') + "# a comment\n[changes]\n"
                       '"dossier.compute_per_commit" = 2\n', "w.toml")
    from ingest.variants import check_variant

    b = check_variant(vf).stamp
    assert a.hash == b.hash  # the knob's name or its path, a comment, the name: same content
    assert a.hash == content_hash("mandate2038", RV, {"dossier.compute_per_commit": 2}, [], {})
    assert a.hash != content_hash("mandate2038", RV, {"dossier.compute_per_commit": 3}, [], {})


def test_apply_to_pack_changes_values_and_pauses_abilities() -> None:
    pack = load_pack("mandate2038", RV)
    st = load_variant(EXAMPLES / "kestralyn-paused.toml").stamp
    vp = cv.apply_to_pack(pack, st)
    assert vp.scoring.customer_mandate[0] == 3 and pack.scoring.customer_mandate[0] == 2
    assert vp.audit.systemic_risk_customers == 4
    kes = {a.id for a in vp.faction("kestralyn").abilities}
    assert "industrial_velocity" not in kes
    assert "industrial_velocity" in {a.id for a in pack.faction("kestralyn").abilities}


def test_sweep_is_a_series_of_checked_variants() -> None:
    got = sweep_variants(None, "dossier_compute=0..2")
    assert [v.name for v in got] == ["dossier_compute=0", "dossier_compute=1",
                                     "dossier_compute=2"]
    # 1 is the printed value: that level changes nothing (it replays the printed rules)
    assert [v.stamp.changes for v in got] == [{"dossier.compute_per_commit": 0}, {},
                                              {"dossier.compute_per_commit": 2}]
    with pytest.raises(VariantError, match="out of bounds"):
        sweep_variants(None, "dossier_compute=2..5")


# --- the engine under a variant: golden pairs ---------------------------------------------


def _validate(path: Path, *extra: str, capsys: pytest.CaptureFixture[str]
              ) -> tuple[int, list[dict]]:
    code = main(["validate", str(path), "--format", "json", *extra])
    doc = json.loads(capsys.readouterr().out)
    return code, [x for x in doc["files"][0]["findings"] if x["severity"] != "info"]


def _shape(findings: list[dict]) -> list[dict]:
    return [{"code": f["code"], "rule": f["rule"], "event": f["where"]["event"],
             "variant_changes": f.get("variant_changes", [])} for f in findings]


@pytest.mark.parametrize("log", sorted(p for p in GOLDEN.glob("*/*.json")
                                       if not p.name.endswith(".expected.json")),
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_pairs(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = json.loads(log.with_suffix(".expected.json").read_text("utf-8"))
    code, under = _validate(log, capsys=capsys)
    under = [f for f in under if f["severity"] != "info"]
    assert _shape(under) == expected["under_variant"]
    assert code == (1 if expected["under_variant"] else 0)
    code, printed = _validate(log, "--printed-rules", capsys=capsys)
    assert _shape(printed) == expected["under_printed_rules"]
    assert code == (1 if expected["under_printed_rules"] else 0)
    # the file of the variant the header names gives the same audit as the stored stamp
    code, again = _validate(log, "--variant", str(ROOT / expected["variant_file"]),
                            capsys=capsys)
    assert _shape(again) == expected["under_variant"]


def test_golden_pair_mandate_is_clean_under_the_variant_only() -> None:
    exp = json.loads((GOLDEN / "mandate2038" / "dossier-compute-2.expected.json").read_text())
    assert exp["under_variant"] == []
    # under the printed rules a Dossier commit costs 1 Compute: the table's Compute is wrong
    assert "checkpoint/mismatch" in {f["code"] for f in exp["under_printed_rules"]}
    stamped = json.loads((GOLDEN / "mandate2038" / "dossier-compute-2-stamped.expected.json")
                         .read_text())
    # the stamped game's findings rest on the one changed value, and say so
    assert stamped["under_variant"]
    assert all(f["variant_changes"] == ["dossier.compute_per_commit=2"]
               for f in stamped["under_variant"])


def test_golden_files_are_what_regen_writes() -> None:
    from tests.golden.variant_pairs import every_pair

    pairs = every_pair()
    assert set(pairs) == {"mandate2038", "vestige"}  # a golden pair per game
    for game, by_name in pairs.items():
        for name, (_log, expected) in by_name.items():
            on_disk = json.loads((GOLDEN / game / f"{name}.expected.json").read_text("utf-8"))
            assert on_disk == expected, f"python -m tests.golden.variant_pairs and review {name}"
            if not name.endswith("-stamped"):  # clean under the variant, not under the print
                assert expected["under_variant"] == [] and expected["under_printed_rules"]


def test_findings_name_only_the_changes_they_rest_on(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    # the stamped game with a second change that decides nothing in it: only the Dossier's
    # cost is named
    log = json.loads((GOLDEN / "mandate2038" / "dossier-compute-2-stamped.json").read_text())
    ch = {"dossier.compute_per_commit": 2, "scoring.offline_penalty": 1}
    log["header"]["variant"] = {"name": "two", "changes": ch, "paused": [], "options": {},
                                "hash": content_hash("mandate2038", RV, ch, [], {})}
    path = tmp_path / "two.json"
    path.write_text(json.dumps(log), "utf-8")
    _code, found = _validate(path, capsys=capsys)
    assert found and all(f["variant_changes"] == ["dossier.compute_per_commit=2"]
                         for f in found)


def test_vestige_variant_sets_an_option_and_refuses_numbers_that_are_not_knobs() -> None:
    lv = load_variant(EXAMPLES / "obelisk-other-pair.toml")
    assert lv.stamp.options == {"obelisk-other": "other-pair"} and not lv.stamp.changes
    assert lv.options == {"obelisk-other": ("other-than-spent", "other-pair")}
    # its printed numbers are knobs of its designer loop (engine/vestige/loop.py): the
    # declared region leverage is one, a number the loop does not declare is not
    probs = _check('name = "v"\ngame = "vestige"\nrules_version = "rulebook-1"\n[changes]\n'
                   '"region_leverage.trench" = 3\n"stated.start_speed" = 3\n'
                   '[options]\nobelisk-other = "any"\n')
    assert "v.toml:6: stated.start_speed: unknown path: neither a named knob" in probs[0]
    assert "v.toml:8: options.obelisk-other: 'any' is not an option" in probs[1]
    assert len(probs) == 2


def test_a_vestige_variant_that_does_not_fit_its_numbers_says_so(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = json.loads((GOLDEN / "vestige" / "obelisk-other-pair.json").read_text())
    ch = {"stated.start_speed": 3}
    log["header"]["variant"] = {"name": "lev", "changes": ch, "paused": [], "options": {},
                                "hash": content_hash("vestige", "rulebook-1", ch, [], {})}
    path = tmp_path / "lev.json"
    path.write_text(json.dumps(log), "utf-8")
    _code, found = _validate(path, capsys=capsys)
    assert found[0]["code"] == "log/variant" and "cannot be played" in found[0]["message"]
    # replayed under the printed rules: the Obelisk's finding
    assert "vestige-visit/wrong-effect" in {f["code"] for f in found}


def test_a_hand_edited_stamp_is_reported(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    log = json.loads((GOLDEN / "mandate2038" / "dossier-compute-2.json").read_text())
    log["header"]["variant"]["hash"] = "0000000000000000"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(log), "utf-8")
    _code, found = _validate(path, capsys=capsys)
    assert [f["code"] for f in found] == ["log/variant-hash"]


def test_a_stamp_that_does_not_fit_the_pack_is_a_finding(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    log = json.loads((GOLDEN / "mandate2038" / "dossier-compute-2.json").read_text())
    ch = {"scoring.no_such_value": 1}
    log["header"]["variant"] = {"name": "bad", "changes": ch, "paused": [], "options": {},
                                "hash": content_hash("mandate2038", RV, ch, [], {})}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(log), "utf-8")
    _code, found = _validate(path, capsys=capsys)
    # replayed under the printed rules: the variant finding, then the printed rules' findings
    assert found[0]["code"] == "log/variant" and "does not hold" in found[0]["message"]
    assert "checkpoint/mismatch" in {f["code"] for f in found}


# --- paired studies and the comparison ------------------------------------------------------


@pytest.fixture(scope="module")
def sweep_study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vstudy") / "S"
    assert main(["study", "--sweep", "dossier_compute=0..2", "--games", "6", "--players", "3",
                 "--seed", "t", "--out", str(out), "--backend", "local", "--workers", "1",
                 "--batch", "6"]) == 0
    return out


def test_study_plays_every_arm_on_common_seeds(sweep_study: Path) -> None:
    import duckdb

    games = duckdb.sql("SELECT variant, game_index, variant_hash FROM read_parquet(?)",
                       params=[str(sweep_study / "games" / "*.parquet")]).pl()
    arms = sorted(set(games["variant"]))
    assert arms == ["baseline", "dossier_compute=0", "dossier_compute=1", "dossier_compute=2"]
    assert games.group_by("variant").len()["len"].to_list() == [6, 6, 6, 6]
    seats = duckdb.sql(
        "SELECT g.variant, g.game_index, s.seat, s.faction FROM read_parquet(?) s "
        "JOIN read_parquet(?) g USING (game_id)",
        params=[str(sweep_study / "seats" / "*.parquet"),
                str(sweep_study / "games" / "*.parquet")]).pl()
    # the same factions at the same seats in every arm, game index by game index
    deal = seats.group_by(["game_index", "seat"]).agg(pl.col("faction").n_unique())
    assert deal["faction"].max() == 1
    # dossier_compute=1 is the printed rules: the same games as the baseline
    from ingest.mandate2038.compare import differing_games, seat_rows

    df = seat_rows(sweep_study)
    same = differing_games(df.filter(pl.col("variant") == "baseline"),
                           df.filter(pl.col("variant") == "dossier_compute=1"))
    assert same == (0, 6)


def test_study_is_resumable_with_variants(sweep_study: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "--sweep", "dossier_compute=0..2", "--games", "6", "--players", "3",
                 "--seed", "t", "--out", str(sweep_study), "--backend", "local", "--workers",
                 "1", "--batch", "6"]) == 0
    assert "0 batch(es) played, 4 already done" in capsys.readouterr().out


def test_compare_json_has_a_row_per_contract_metric(sweep_study: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from ingest.mandate2038.balance import METRICS

    assert main(["compare", str(sweep_study), "--format", "json", "--replicates", "200"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for arm in ("dossier_compute=0", "dossier_compute=2"):
        rows = [r for r in doc["rows"] if r["variant"] == arm]
        assert {m[0] for m in METRICS} <= {r["metric"] for r in rows}
        for r in rows:
            assert {"metric", "variant", "baseline", "value", "difference", "interval",
                    "significant"} <= set(r)
    same = [r for r in doc["rows"] if r["variant"] == "dossier_compute=1"]
    assert all(r["difference"] in (0, None) and not r["significant"] for r in same)


def test_compare_refuses_a_folder_without_variants(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(tmp_path)]) == 2
    assert "not a study folder" in capsys.readouterr().err


def _arm(agi: list[int], n_players: int = 3) -> pl.DataFrame:
    rows = []
    for i, a in enumerate(agi):
        for s in range(1, n_players + 1):
            rows.append({"policy": "default", "player_count": n_players, "game_index": i,
                         "seat": s, "turn_order": s - 1, "faction": f"f{s}", "profile": f"p{s}",
                         "credit": 1.0 if s == 1 else 0.0, "final_mandate": 10 - s,
                         "lead_won_share": 1.0 if s == 1 else 0.0, "opening": "fund",
                         "path": "capital", "blocked": 0, "policy_fallbacks": 0,
                         "n_events": 100, "agi": float(a) if s == 1 else 0.0,
                         "open": 0.0, "one": 1.0, "first_seat": 1.0 if s == 1 else 0.0,
                         "opportunities": 12.0,
                         **{f"a_{x}": 1 for x in ("fund", "build", "research")}})
    df = pl.DataFrame(rows)
    from ingest.warehouse import balance as wb

    return df.with_columns(*(pl.lit(0).alias(f"a_{x}") for x in (*wb.ACTION_IDS, "other")
                             if f"a_{x}" not in df.columns))


def test_bootstrap_known_answers() -> None:
    from ingest.mandate2038.compare import compare_arms

    base = _arm([0] * 60)
    # AGI in every variant game: the difference is 1 and nothing else moves
    rows = {r["metric"]: r for r in compare_arms(base, _arm([1] * 60), replicates=400)}
    assert rows["agi_rate"]["difference"] == pytest.approx(1.0)
    assert rows["agi_rate"]["significant"] and rows["agi_rate"]["interval"] == [1.0, 1.0]
    assert not rows["faction_win_share_range"]["significant"]
    # the same games: every difference 0, no interval away from 0
    same = compare_arms(base, base.clone(), replicates=400)
    assert all(not r["significant"] for r in same)
    # AGI in every other game (half of each block): a difference of 0.5 with a narrow interval
    half = {r["metric"]: r for r in compare_arms(base, _arm([i % 2 for i in range(60)]),
                                                replicates=400)}
    lo, hi = half["agi_rate"]["interval"]
    assert half["agi_rate"]["difference"] == pytest.approx(0.5) and 0.3 < lo <= 0.5 <= hi < 0.7


def test_bootstrap_false_alarm_rate_is_controlled() -> None:
    """Two independent arms of the same coin: the simultaneous interval flags a difference
    in well under 5% of comparisons (measured on 60 pairs of arms)."""
    from ingest.mandate2038.compare import compare_arms

    rng = np.random.default_rng(7)
    alarms = 0
    for _ in range(60):
        a = _arm(rng.integers(0, 2, 80).tolist())
        b = _arm(rng.integers(0, 2, 80).tolist())
        rows = compare_arms(a, b, replicates=300, ids=("agi_rate", "open_rate"))
        alarms += any(r["significant"] for r in rows)
    assert alarms <= 5


# --- the Variants view ----------------------------------------------------------------------


def test_variants_view(sweep_study: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                       ) -> None:
    from tests.test_variants_page_games import _page

    at = _page(sweep_study, tmp_path, monkeypatch)  # no exception, titled Variants
    assert at.selectbox(key="variants_pick").options == [
        "dossier_compute=0", "dossier_compute=1", "dossier_compute=2"]
    # the deltas plot, one sweep plot, and the tables (rows, evidence beside)
    assert len(at.get("vega_lite_chart")) >= 2
    tables = [d.value for d in at.dataframe]
    assert "difference" in tables[0].columns
    assert any("physical playtests" in t.columns and "simulated games" in t.columns
               for t in tables)


def test_variants_view_without_a_study(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("PLAYTEST_DB", str(tmp_path / "none" / "playtest.duckdb"))
    monkeypatch.delenv("PLAYTEST_STUDY", raising=False)
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("views/variants.py").run()
    assert not [e.value for e in at.exception]
    assert "playtest study --variant" in " ".join(i.value for i in at.info)


def test_physical_playtests_of_a_variant_are_found_in_the_warehouse(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from dashboards.variant_queries import evidence_beside, physical_by_variant

    log = json.loads((GOLDEN / "mandate2038" / "dossier-compute-2.json").read_text())
    log["header"]["session_type"] = "facilitated_playtest"
    log["header"]["game_id"] = "table-variant-1"
    plain = json.loads((GOLDEN / "mandate2038" / "dossier-compute-2.json").read_text())
    plain["header"]["session_type"] = "facilitated_playtest"
    plain["header"]["game_id"] = "table-printed-1"
    plain["header"]["variant"] = None
    for name, doc in (("v.json", log), ("p.json", plain)):
        (tmp_path / name).write_text(json.dumps(doc), "utf-8")
    db = tmp_path / "w" / "playtest.duckdb"
    assert main(["ingest", "--db", str(db), str(tmp_path / "v.json"),
                 str(tmp_path / "p.json")]) == 0
    capsys.readouterr()
    phys = physical_by_variant(db)
    rows = {r["variant"]: r for r in phys.iter_rows(named=True)}
    assert set(rows) == {"baseline", "dossier-compute-2"}
    assert rows["dossier-compute-2"]["games"] == 1
    assert rows["dossier-compute-2"]["variant_hash"] == log["header"]["variant"]["hash"]
    sim = pl.DataFrame({"game": ["mandate2038"] * 2, "variant": ["baseline", "dossier-compute-2"],
                        "games": [10, 10], "agi": [2, 1], "open": [10, 10]})
    beside = evidence_beside(phys, sim)
    # physical and simulated evidence side by side, each with its own games: never summed
    row = beside.filter(pl.col("variant") == "dossier-compute-2").row(0, named=True)
    assert row["physical complete"] == 1 and row["simulated games"] == 10
    assert row["physical playtests"] == "1 complete"
