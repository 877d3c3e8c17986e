"""Vestige's unclear points as named, switchable options (issue 20): each ruling of
``data/content/vestige/rulings/rulebook-1.json`` changes what the engine finds when a log's
header switches it, and a finding that rests on one names it."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.replay import ReplayResult, replay
from engine.vestige import RULESET
from engine.vestige.rulings import load_rulings
from schemas.vestige import VestigeLog
from tests.golden.vestige import cases
from tests.golden.vestige.build import Game


def _replay(g: Game, rulings: str | None) -> ReplayResult:
    header: dict[str, Any] = dict(g.header)
    if rulings is not None:
        header["rulings"] = rulings
    log = VestigeLog.model_validate({"header": header, "events": g.events})
    return replay(log.header, log.events, ruleset=RULESET)


def _codes(r: ReplayResult) -> list[str]:
    return sorted(f.code for f in r.findings if f.severity != "info")


def test_the_book_loads_in_mandates_format() -> None:
    book = load_rulings("rulebook-1")
    # the unclear points (rulebook-1.json); the declared component values, rulings with a value
    # per option, come from rulebook-1.declared.json beside it (one mechanism, issue 16)
    unclear = {rid: r for rid, r in book.rulings.items() if not r.values}
    assert set(unclear) == {
        "black-dove-repeat", "obelisk-other", "menace-high-threat", "bone-endgame",
        "recovered-job-reassign", "artifact-other-turns", "garage-top-speed",
        "coop-control-twice"}
    assert {"garage_speed", "region_leverage", "trigger_points"} <= set(book.rulings)
    for r in unclear.values():
        assert r.seed_says and r.why_default and r.default in r.options and len(r.options) >= 2
    assert set(book.sets["before-rulings"]) == set(unclear)


def test_unknown_ruling_is_a_finding_and_defaults_apply() -> None:
    r = _replay(cases.black_dove_repeated_for_two_jobs(), "black-dove-repeat=maybe")
    assert _codes(r) == ["vestige-setup/rulings"]


def test_black_dove_repeat() -> None:
    g = cases.black_dove_repeated_for_two_jobs()
    assert _codes(_replay(g, None)) == []
    r = _replay(g, "black-dove-repeat=adjacency-waiver")
    assert _codes(r) == ["vestige-turn/action-repeated"]
    r = _replay(cases.black_dove_once_for_two_jobs(), None)
    assert r.findings[0].rulings == ("black-dove-repeat=job-per-resolution",)


def _obelisk() -> Game:
    g = Game().opening(blocks={1: {"conviction": 2, "attributes": {"ambition": 2}}})
    g.move(1, [19, 24, 18])
    return g.e("visit", seat=1, position="O6", region="obelisk", spend=["ambition", "ambition"],
               gain=["ambition", "might"])


def test_obelisk_other() -> None:
    assert _codes(_replay(_obelisk(), None)) == ["vestige-visit/wrong-effect"]
    assert _codes(_replay(_obelisk(), "obelisk-other=other-pair")) == []


def _menace_three(leverage: int) -> Game:
    """Solo, Menace; Bone controls the Trench; seat 1 reaches 30 (triggers 1-3, a threat card
    at each): Bone's turn at threat 3 with 1 region."""
    g = Game(seats=1, mode="solo", nemeses=["bone"], difficulty="menace")
    g.setup(reveal_all=True, endgame=False).round(1)
    g.e("nemesis_gain", nemesis="bone", control=["O7"])
    g.turn(1).move(1, [19, 24])
    cases._dispatch(g).e("activate", seat=1, card="Dispatch", gain=["ambition", "ambition"])
    g.e("effect", seat=1, card="Dispatch", via="contact", leverage=29)
    for point in (1, 2, 3):
        g.e("trigger", seat=1, point=point, endgame=f"Cond {point}", threats=[f"Threat {point}"])
        if point in (1, 3):
            g.e("covert_op", seat=1, action="draw", trigger=point)
    g.end(1)
    return g.e("nemesis_turn", nemesis="bone", threat=3, leverage=leverage, cards=["Hired Gun"])


def test_menace_high_threat() -> None:
    # rows 0, 1, 2+: 2 + 2 + 1 region = 5; every level 0..3: 2 + 2 + 1 + 1 = 6
    assert _codes(_replay(_menace_three(5), None)) == []
    assert _codes(_replay(_menace_three(6), None)) == ["vestige-nemesis/leverage"]
    assert _codes(_replay(_menace_three(6), "menace-high-threat=every-level")) == []


def test_bone_endgame() -> None:
    g = cases.jump_point_swap_moves_nemesis_control()  # Bone 9 with the Trench's 4
    assert _codes(_replay(g, None)) == []
    r = _replay(g, "bone-endgame=threat-only")  # threat 0 x 1 region replaces the 4: 5
    assert _codes(r) == ["vestige-final/mismatch"]
    assert r.outcome is not None and r.outcome.details["nemesis_leverage"]["bone"] == 5


def _recover_job() -> Game:
    """Seat 1 draws Dispatch (bounty, artifact), gives Bartholomew the bounty, activates him and
    recovers his block: Dispatch is free to take the job."""
    g = cases._dispatch(Game().opening().move(1, [19, 24]))
    g.e("pickup", seat=1, stack="bounty", card="Marked Courier", at="C", assignee="Bartholomew",
        face_up=True)
    g.replace("bounty", "Old Debt", pickup="archives", top="archives")
    g.e("activate", seat=1, card="Bartholomew", gain=["might"])
    return g.e("recover", seat=1, source="card:Bartholomew", n=1)


def test_recovered_job_reassign() -> None:
    assert _codes(_replay(_recover_job(), None)) == ["vestige-recover/reassign"]
    assert _codes(_replay(_recover_job(), "recovered-job-reassign=may")) == []


def _artifact_other_turn() -> Game:
    g = cases._artifact_in_hand()
    g.e("complete", seat=1, card="Obelisk Heart Shard", face="strain", pay={"intrigue": 2},
        charges=2)
    g.e("effect", seat=1, card="Obelisk Heart Shard", via="artifact").end(1)
    g.turn(2).e("effect", seat=1, card="Obelisk Heart Shard", via="artifact")
    return g


def test_artifact_other_turns() -> None:
    assert _codes(_replay(_artifact_other_turn(), None)) == []
    r = _replay(_artifact_other_turn(), "artifact-other-turns=owner-cycle")
    assert _codes(r) == ["vestige-artifact/twice"]
    assert r.findings[0].rulings == ("artifact-other-turns=owner-cycle",)


def _garage() -> Game:
    g = Game()
    g.e("phase", name="setup")
    for seat, (bot, start) in enumerate((("Bartholomew", 19), ("Rusty", 25)), start=1):
        g.card(bot).e("seat_setup", seat=seat, start=start, chop_bot=bot, speed=8,
                      blocks={"conviction": 1, "attributes": {"might": 3}})
        g.e("covert_op", seat=seat, action="draw")
    g.space = {1: 19, 2: 25}
    g.reveal(["C", "I1", "I2", "I3"]).e("endgame_reveal", card="Network Sprawl")
    g.e("phase", name="setup_end").round(1).turn(1).move(1, [19, 24, 30])
    return g.e("visit", seat=1, position="I5", region="garage")


def test_garage_top_speed() -> None:
    assert _codes(_replay(_garage(), None)) == ["vestige-visit/not-resolved"]
    assert _codes(_replay(_garage(), "garage-top-speed=pay-for-nothing")) == []


def _coop_control() -> Game:
    g = Game(mode="coop", nemeses=["bone"]).setup(reveal_all=True, endgame=False).round(1)
    g.e("turn_start")
    g.e("visit", seat=1, position="C", region="archives", gain=["ambition", "ambition"])
    g.e("control", seat=1, position="C")
    g.e("visit", seat=2, position="C", region="archives", gain=["ambition", "ambition"])
    return g.e("control", seat=2, position="C")


def test_coop_control_twice() -> None:
    assert _codes(_replay(_coop_control(), None)) == ["vestige-control/twice"]
    assert _codes(_replay(_coop_control(), "coop-control-twice=once-per-seat")) == []


@pytest.mark.parametrize("spec", ["default", "before-rulings"])
def test_named_sets_replay_the_golden_clean_games(spec: str) -> None:
    """Every ruling set is usable on a whole game (the Rise game touches none of them)."""
    assert _codes(_replay(cases.rise_scored_at_game_end(), spec)) == []
