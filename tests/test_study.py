"""Studies: profile line-ups played in batches into Parquet tables (ingest/mandate2038/study.py), on Ray for
real and in local processes, and the resume path (a stopped study restarts where it stopped,
no batch twice). Kept small: Ray's start-up costs seconds of CPU."""

from __future__ import annotations

import json
import random
from pathlib import Path

import duckdb
import pytest

from engine.mandate2038.lineups import plan_seats, play_lineup_game
from engine.mandate2038.profiles import ProfileBot, dossier_assessment
from ingest.mandate2038.study import StudyError, StudySpec, completed_batches, run_study
from schemas.mandate2038.profiles import ProfileError, load_profiles
from schemas.packs import load_pack


def _q(sql: str, *params):
    con = duckdb.connect()
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def _check_tables(out: Path, games: int) -> None:
    (n, sims, complete) = _q(
        f"SELECT count(*), count(*) FILTER (WHERE session_type = 'simulation'), "
        f"count(*) FILTER (WHERE complete) FROM read_parquet('{out}/games/*.parquet')")[0]
    assert n == sims == complete == games
    (ids,) = _q(f"SELECT count(DISTINCT game_id) FROM read_parquet('{out}/games/*.parquet')")[0]
    assert ids == games  # no game twice
    rows = _q(f"SELECT game_id, seat, turn_order, profile, policy, winner "
              f"FROM read_parquet('{out}/seats/*.parquet') ORDER BY game_id, seat")
    assert rows and all(r[2] is not None and r[3] and r[4] in ("greedy", "weighted") for r in rows)
    by_game: dict[str, list[int]] = {}
    for gid, _seat, order, *_ in rows:
        by_game.setdefault(gid, []).append(order)
    assert all(sorted(v) == list(range(len(v))) for v in by_game.values())
    (wins,) = _q(f"SELECT count(*) FROM read_parquet('{out}/outcomes/*.parquet') "
                 f"WHERE len(winners) >= 1")[0]
    assert wins == games
    for table in ("ledger", "selections", "turns", "events"):
        (k,) = _q(f"SELECT count(*) FROM read_parquet('{out}/{table}/*.parquet')")[0]
        assert k > games, table


def test_study_on_ray_for_real(tmp_path):
    pytest.importorskip("ray")
    out = tmp_path / "ray-study"
    spec = StudySpec(games=1, players=(3,), policies=("greedy", "weighted"), seed="ray-test",
                     batch_size=1)
    summary = run_study(spec, out, backend="ray", workers=1, say=lambda m: None)
    assert summary["backend"] == "ray" and summary["batches"] == 2 and summary["games"] == 2
    _check_tables(out, 2)  # game ids are unique across policies too
    (pols,) = _q(f"SELECT list(DISTINCT policy ORDER BY policy) FROM read_parquet('{out}/games/*.parquet')")[0]
    assert pols == ["greedy", "weighted"]
    assert completed_batches(out) == {b.id for b in spec.batches()}


def test_study_resumes_where_it_stopped_and_never_plays_a_batch_twice(tmp_path):
    out = tmp_path / "study"
    spec = StudySpec(games=3, players=(3,), seed="resume", batch_size=1)

    class Stop(Exception):
        pass

    def stop_after_first(result, done, todo):
        raise Stop  # the study is killed right after its first batch is written

    with pytest.raises(Stop):
        run_study(spec, out, backend="local", workers=1, on_batch=stop_after_first, say=lambda m: None)
    first = completed_batches(out)
    assert len(first) == 1
    stamp = {p.name: p.stat().st_mtime_ns for p in (out / "games").glob("*.parquet")}
    # a crash while writing leaves at most a temporary file, never a half table
    (out / "games" / ".junk.parquet.tmp").write_bytes(b"partial")
    played = []
    summary = run_study(spec, out, backend="local", workers=1,
                        on_batch=lambda r, d, t: played.append(r.batch.id), say=lambda m: None)
    assert summary["batches_skipped"] == 1 and summary["batches"] == 2
    assert not set(played) & first  # the finished batch was not played again
    for name, mtime in stamp.items():  # nor rewritten
        assert (out / "games" / name).stat().st_mtime_ns == mtime
    _check_tables(out, 3)
    again = run_study(spec, out, backend="local", workers=1, say=lambda m: None)
    assert again["batches"] == 0 and again["batches_skipped"] == 3
    meta = json.loads((out / "_batches" / f"{sorted(first)[0]}.json").read_text())
    assert meta["games"] == 1
    from ingest.mandate2038.calibrate import report

    text = report(out)  # the designers' figures beside ours, from the Balance page's queries
    assert "**default** line-ups (3 games at 3)" in text
    assert "| AGI emergence |" in text and "| 15.5% |" in text


def test_without_ray_the_batches_run_in_local_processes_and_it_says_so(tmp_path, monkeypatch):
    import ingest.mandate2038.study as study

    monkeypatch.setattr(study, "ray_available", lambda: False)
    said: list[str] = []
    summary = run_study(StudySpec(games=1, players=(3,), seed="noray", batch_size=1),
                        tmp_path / "s", workers=1, say=said.append)
    assert summary["backend"] == "local" and summary["games"] == 1
    assert any("Ray is not installed" in m for m in said)
    with pytest.raises(StudyError, match="Ray is not installed"):
        run_study(StudySpec(games=1, players=(3,), seed="noray2"), tmp_path / "t",
                  backend="ray", say=said.append)


def test_a_folder_holds_one_study(tmp_path):
    out = tmp_path / "s"
    run_study(StudySpec(games=1, players=(3,), seed="a", batch_size=1), out, backend="local",
              workers=1, say=lambda m: None)
    with pytest.raises(StudyError, match="different study"):
        run_study(StudySpec(games=1, players=(3,), seed="b", batch_size=1), out,
                  backend="local", workers=1, say=lambda m: None)
    with pytest.raises(StudyError, match="unknown profile"):
        run_study(StudySpec(games=1, players=(3,), profile_ids=("nobody",)), tmp_path / "t",
                  backend="local", say=lambda m: None)


def test_default_profiles_are_the_four_archetypes_and_bad_files_say_why(tmp_path):
    profiles = load_profiles("default")
    assert list(profiles) == ["trust", "infrastructure", "agi", "capacity"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema_version": 1, "profiles": [{"id": "x", "name": "X", '
                   '"action_weights": {"teleport": 2}}]}')
    with pytest.raises(ProfileError, match=r"bad\.json.*teleport"):
        load_profiles(str(bad))
    bad.write_text('{"schema_version": 1,\n "profiles": [}')
    with pytest.raises(ProfileError, match=r"bad\.json: line 2"):
        load_profiles(str(bad))


def test_lineups_rotate_profiles_over_seats_on_common_seeds():
    profiles = load_profiles("default")
    ids = list(profiles)
    for n in (3, 4, 5):
        block = [plan_seats(ids, n, i, "greedy", profiles) for i in range(n)]  # block 0
        for seat in range(n):
            got = {plans[seat].profile for plans in block}
            assert len(got) == min(n, len(ids))  # every profile of the block sits here once
    pack = load_pack("mandate2038", "0.8.0-rc.17-test")
    a, plans_a, _ = play_lineup_game("common", 0, 4, ids, "weighted", profiles, pack)
    b, plans_b, _ = play_lineup_game("common", 1, 4, ids, "weighted", profiles, pack)
    # the same block: same map, factions by seat and first Initiative; profiles rotated
    assert a.header.map == b.header.map and a.header.first_initiative == b.header.first_initiative
    assert [s.faction for s in a.header.seats] == [s.faction for s in b.header.seats]
    assert [p.profile for p in plans_a] != [p.profile for p in plans_b]
    assert a.header.session_type == "simulation" and a.header.seats[0].player.startswith("bot:")
    again, _, _ = play_lineup_game("common", 1, 4, ids, "weighted", profiles, pack)
    assert again == b  # reproducible from (seed, index)


def test_greedy_breaks_ties_with_its_seed_and_weighted_follows_scores():
    profile = load_profiles("default")["trust"]
    picks = ["fund", "research", "build"]
    g1 = ProfileBot(profile, "greedy", random.Random(1))
    assert g1._pick(picks, [1.0, 5.0, 1.0]) == "research"
    seen = {ProfileBot(profile, "greedy", random.Random(k))._pick(picks, [2.0, 2.0, 1.0])
            for k in range(40)}
    assert seen == {"fund", "research"}
    w = ProfileBot(profile, "weighted", random.Random(3))
    counts = {p: 0 for p in picks}
    for _ in range(3000):
        counts[w._pick(picks, [1.0, 2.0, 7.0])] += 1
    assert 0.65 < counts["build"] / 3000 < 0.75 and 0.05 < counts["fund"] / 3000 < 0.15


def test_the_dossier_policy_hedges_a_claim_it_cannot_support_or_pay():
    from engine.core.findings import FindingSink
    from engine.core.registry import get_ruleset
    from engine.mandate2038.moves import legal_moves
    from engine.simulate import simulate_one

    rs = get_ruleset("mandate2038")
    log = simulate_one("dossier", 0, 3, "heuristic")
    st = rs.setup(log.header, FindingSink(rs.catalogue))
    for ev in log.events:  # walk to the first Dossier decision (end of Era I)
        if legal_moves(st).label.startswith("seat") and "Dossier" in legal_moves(st).label:
            break
        rs.apply(st, ev, FindingSink(rs.catalogue))
    d = legal_moves(st)
    seat = d.seat
    s = st.seat(seat)
    bot = ProfileBot(load_profiles("default")["agi"], "greedy", random.Random(0))
    s.capability, s.compute = 3, 2  # Benchmark supported now and payable: Commit
    assert dossier_assessment(st, s) == (True, True)
    assert bot.choose(st, seat, d.options).orientation == "commit"
    s.capability = 2  # not supported: Hedge
    assert bot.choose(st, seat, d.options).orientation == "hedge"
    s.capability, s.compute = 3, 0  # supported but cannot pay: Hedge
    assert dossier_assessment(st, s) == (True, False)
    assert bot.choose(st, seat, d.options).orientation == "hedge"


def test_the_study_and_calibrate_commands(tmp_path, capsys):
    from cli.main import main

    out = tmp_path / "cli-study"
    args = ["study", "--games", "1", "--players", "3", "--seed", "cli", "--out", str(out),
            "--backend", "local", "--workers", "1", "--batch", "1", "--policy", "greedy,weighted"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "2 game(s) written as Parquet tables (simulation)" in text and "games per worker CPU-second" in text
    assert main(args) == 0  # run again: nothing left to play
    assert "0 batch(es) played, 2 already done" in capsys.readouterr().out
    assert main([*args[:-2], "--policy", "greedy"]) == 2  # the folder holds another study
    assert "different study" in capsys.readouterr().err
    assert main(["calibrate", str(out)]) == 0
    report = capsys.readouterr().out
    assert "**greedy** line-ups" in report and "**greedy+weighted** line-ups" in report
    assert main(["calibrate", str(out), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert {r["policy"] for r in rows} == {"greedy", "weighted", "greedy+weighted"}
    for r in rows:
        assert {"metric", "players", "source", "ours", "interval", "designers",
                "verdict"} <= set(r)
        # one game per policy: every row says it has too few games
        assert r["verdict"].startswith("not enough games ("), r
    sources = {r["metric"]: r["source"] for r in rows}
    assert "nineteen-hex" in sources["open"] and "nineteen-hex" in sources["opening_top_share"]
    assert "precision confirmation" in sources["agi"]
    assert main(["calibrate", str(tmp_path)]) == 2
    assert main(["study", "--games", "1", "--players", "6", "--out", str(tmp_path / "x")]) == 2


def test_a_damaged_batch_file_is_played_again_not_trusted(tmp_path, capsys):
    """Issue 19 item 8: after a finished batch's Parquet file was truncated, the rerun said
    "all batches already done" and calibrate failed with an internal error."""
    out = tmp_path / "study"
    spec = StudySpec(games=2, players=(3,), seed="damaged", batch_size=1)
    run_study(spec, out, backend="local", workers=1, say=lambda m: None)
    assert len(completed_batches(out)) == 2
    victim = sorted((out / "seats").glob("*.parquet"))[0]
    data = victim.read_bytes()
    victim.write_bytes(data[: len(data) // 2])
    said = []
    summary = run_study(spec, out, backend="local", workers=1, say=said.append)
    assert summary["batches"] == 1 and summary["batches_skipped"] == 1
    assert any(victim.name in m and "played again" in m for m in said), said
    assert victim.read_bytes() == data  # the same seed wrote the same rows back
    _check_tables(out, 2)
    # a marker written before files were recorded still gets the Parquet footer checked
    mark = out / "_batches" / f"{victim.stem}.json"
    meta = json.loads(mark.read_text())
    del meta["files"]
    mark.write_text(json.dumps(meta))
    assert victim.stem in completed_batches(out)
    victim.write_bytes(data[:-100])
    damaged = {}
    assert victim.stem not in completed_batches(out, damaged)
    assert "not a whole Parquet file" in damaged[victim.stem]
    # calibrate on the damaged study: a hint, not an internal error (exit 3)
    from cli.main import main

    capsys.readouterr()
    assert main(["calibrate", str(out)]) == 2
    err = capsys.readouterr().err
    assert "damaged" in err and "run `playtest study` again" in err and "internal error" not in err


def test_alternating_line_ups_alternate_policies_by_seat():
    """The designers' alternating backends: seats 1, 3, 5 play one policy, 2 and 4 the other."""
    profiles = load_profiles("default")
    ids = list(profiles)
    for mix, first, second in (("alternating-weighted-first", "weighted", "greedy"),
                               ("alternating-greedy-first", "greedy", "weighted")):
        for n in (3, 4, 5):
            plans = plan_seats(ids, n, 7, mix, profiles)
            assert [p.policy for p in plans] == [first if k % 2 == 0 else second
                                                 for k in range(n)]
    with pytest.raises(ValueError, match="unknown policy"):
        play_lineup_game("x", 0, 3, ids, "alternating", profiles, load_pack("mandate2038", "0.8.0-rc.17-test"))


def test_agi_candidate_builds_next_to_the_capacity_operator():
    """The designers' spatial preference: a Facility destination at distance 1 from the
    Capacity Operator's nearest Facility weighs x12, on its hex x0.05, elsewhere x1; not once
    the AGI Candidate has 3 Facilities, nor when no Capacity Operator has a Facility."""
    from types import SimpleNamespace

    from engine.mandate2038.board import DISTANCE
    from engine.mandate2038.profiles import _spatial

    profiles = load_profiles("default")
    agi = ProfileBot(profiles["agi"], "greedy", random.Random(1))
    cap = ProfileBot(profiles["capacity"], "greedy", random.Random(2))
    agi.table = {1: agi, 2: cap}
    home = next(iter(DISTANCE))
    near = next(h for h, d in DISTANCE[home].items() if d == 1)
    far = next(h for h, d in DISTANCE[home].items() if d >= 2)
    fac = SimpleNamespace(hex=home)
    me = SimpleNamespace(facilities={})
    st = SimpleNamespace(seats=[me, SimpleNamespace(facilities={1: fac})])
    assert _spatial(agi, st, me, near) == 12
    assert _spatial(agi, st, me, home) == 0.05
    assert _spatial(agi, st, me, far) == 1.0
    me.facilities = {1: fac, 2: fac, 3: fac}
    assert _spatial(agi, st, me, near) == 1.0
    me.facilities = {}
    st.seats[1].facilities = {}
    assert _spatial(agi, st, me, near) == 1.0
