"""Every rule of Pig (README §1-§5) on small hand-written games: what the rules give, and the
finding each broken rule produces, once (no cascade)."""

from __future__ import annotations

from conftest import codes, event, header, run, turns

# seat 1 reaches exactly 100 in its 4th turn (4 x 25); seat 2 has 13
RACE = ["1: 6 6 6 5 2 h", "2: 3 h", "1: 6 6 6 5 2 h", "2: 1", "1: 6 6 6 5 2 h", "2: 5 5 h",
        "1: 6 6 6 5 2 h"]
SIXES = " ".join(["6"] * 14)  # 84


def test_hold_banks_the_turn_total_and_passes_the_turn(two) -> None:
    """§3.3, §3.4, §3.6: 4 + 6 banked; then seat 2's turn."""
    r = run(two, turns("1: 4 6 h=10", "2: 3 h=3"))
    assert codes(r) == ["log/partial"]
    assert r.state.scores == {1: 10, 2: 3}
    assert r.state.active == 1 and r.state.round == 2 and r.state.turn_no == 3
    assert [(e.seat, e.amount, e.total, e.source) for e in r.ledger] == [
        (1, 10, 10, "held_turn"), (2, 3, 3, "held_turn")]


def test_a_one_loses_the_turn_total_and_ends_the_turn(two) -> None:
    """§3.2: 5 + 5 are lost; seat 2 plays next."""
    r = run(two, turns("1: 5 5 1", "2: 6 h"))
    assert codes(r) == ["log/partial"]
    assert r.state.scores == {1: 0, 2: 6}
    assert [t.ended for t in r.state.turns] == ["pig_out", "hold"]


def test_first_player_and_rounds() -> None:
    """§2.4: the header's first player starts; §3.6: a round starts again at the first player,
    and after seat N comes seat 1."""
    r = run(header(3, first_player=3), turns("3: 2 h", "1: 2 h", "2: 1", "3: 4 h"))
    assert codes(r) == ["log/partial"]
    assert [(t.seat, t.round) for t in r.state.turns] == [(3, 1), (1, 1), (2, 1), (3, 2)]


def test_reaching_the_target_ends_the_game_at_once(two) -> None:
    """§4.1: the hold that reaches 100 wins; the final record agrees."""
    r = run(two, turns(*RACE) + [event(type="final", scores={1: 100, 2: 13}, winners=[1])])
    assert r.findings == []
    assert r.outcome.complete and r.outcome.winners == [1]
    assert r.outcome.ending == "target_reached"
    assert sum(e.amount for e in r.ledger if e.seat == 1) == 100


def test_play_after_the_end_is_reported_once(two) -> None:
    """§4.1: the game is over; two more rolls make one finding, and are not applied."""
    r = run(two, turns(*RACE, "2: 6 6"))
    assert codes(r) == ["log/event-after-game-end"]
    assert "§4.1" in r.findings[0].rule and r.state.scores[2] == 13


def test_the_target_is_the_headers() -> None:
    """§2.3: a game to 20."""
    r = run(header(2, target=20), turns("1: 6 6 h", "2: 4 h", "1: 6 3 h"))
    assert r.findings == [] and r.outcome.complete and r.outcome.winners == [1]


def test_not_your_turn_is_one_finding_and_the_replay_goes_on(two) -> None:
    """§3.6: seat 2 rolls while seat 1 is on turn (seat 1 never holds): one finding; seat 2's
    turn is then played from the table's record, and seat 1 plays after it."""
    r = run(two, turns("1: 4", "2: 3 h", "1: 5 h"))
    assert codes(r) == ["pig-turn/not-your-turn", "log/partial"]
    f = r.findings[0]
    assert f.where.seat == 2 and f.expected == 1 and f.recorded == 2 and "§3.6" in f.rule
    assert "turn total of 4 is not banked" in f.message
    assert r.state.scores == {1: 5, 2: 3}


def test_a_skipped_seat_is_reported(two) -> None:
    """§3.6: seat 1 plays twice in a row."""
    r = run(two, turns("1: 4 h", "1: 3 h"))
    assert codes(r) == ["pig-turn/not-your-turn", "log/partial"]
    assert r.state.scores == {1: 7, 2: 0}


def test_rolling_on_after_a_one(two) -> None:
    """§3.2: seat 1 rolls a 1 and goes on rolling: one finding, the turn continues from 0."""
    r = run(two, turns("1: 5 1 4 h", "2: 3 h"))
    assert codes(r) == ["pig-turn/rolled-after-one", "log/partial"]
    assert "§3.2" in r.findings[0].rule
    assert r.state.scores == {1: 4, 2: 3}


def test_holding_before_rolling(two) -> None:
    """§3.5: a turn begins with a roll."""
    r = run(two, turns("1: h", "2: 4 h"))
    assert codes(r) == ["pig-hold/before-roll", "log/partial"]
    assert "§3.5" in r.findings[0].rule and r.state.scores == {1: 0, 2: 4}


def test_a_wrong_score_at_a_hold_is_reported_once_and_the_table_value_kept(two) -> None:
    """§3.4 / §5.2: the table writes 12 for 4 + 6; later scores follow the table's value."""
    r = run(two, turns("1: 4 6 h=12", "2: 2 h=2", "1: 3 h=15"))
    assert codes(r) == ["checkpoint/mismatch", "log/partial"]
    f = r.findings[0]
    assert (f.expected, f.recorded, f.where.seat) == (10, 12, 1) and "§3.4" in f.rule
    assert r.state.scores[1] == 15
    assert sum(e.amount for e in r.ledger if e.seat == 1) == 15  # the ledger still adds up


def test_the_final_record_is_compared(two) -> None:
    """§5.2: a wrong score and a wrong winner in the final record."""
    r = run(two, turns(*RACE) + [event(type="final", scores={1: 100, 2: 14}, winners=[2])])
    assert codes(r) == ["checkpoint/mismatch", "pig-end/winner"]
    assert r.findings[1].expected == [1] and r.findings[1].recorded == [2]


def test_a_final_record_before_the_end(two) -> None:
    """§4.1: nobody has 100 yet."""
    r = run(two, turns("1: 6 h") + [event(type="final", winners=[1])])
    assert codes(r) == ["pig-end/not-over"]
    assert r.outcome.complete and r.outcome.ending == "table_record"


def test_equal_turns_plays_the_round_out() -> None:
    """§4.2: seat 1 reaches 100; seat 2 still has its turn in the round and passes it: 103 wins.
    Under the default rule the same rolls end at seat 1's hold (§4.1)."""
    ev = turns(*RACE, f"2: {SIXES} 6 h")
    eq = run(header(2, rulings="equal-turns"), ev)
    assert eq.findings == [] and eq.outcome.complete
    assert eq.outcome.winners == [2] and eq.outcome.ending == "equal_turns"
    assert eq.state.scores == {1: 100, 2: 103}
    immediate = run(header(2), ev)
    assert codes(immediate) == ["log/event-after-game-end"]
    assert immediate.outcome.winners == [1]


def test_equal_turns_tie_shares_the_win() -> None:
    """§4.2: equal highest scores share the win."""
    ev = turns(*RACE, f"2: {SIXES} 1")
    r = run(header(2, rulings="equal-turns"), turns(*RACE, f"2: {SIXES} 3 h"))
    assert r.findings == [] and r.outcome.winners == [1, 2] and r.state.scores == {1: 100, 2: 100}
    # a pig-out ends the round as well
    r2 = run(header(2, rulings="equal-turns"), ev)
    assert r2.findings == [] and r2.outcome.winners == [1]


def test_equal_turns_ends_at_once_for_the_last_seat_of_the_round() -> None:
    """§4.2: the seat before the first player reaching the target ends the round."""
    r = run(header(2, first_player=2, rulings="equal-turns"),
            turns("2: 2 h", *RACE))
    assert r.findings == [] and r.outcome.winners == [1] and r.outcome.ending == "equal_turns"


def test_setup_findings() -> None:
    """§1.2 at least two players; §2.1 seats 1..N; §2.4 the first player sits at the table."""
    assert "pig-setup/players" in codes(run(header(1), []))
    gap = header(2).model_copy(update={"seats": [header(3).seats[0], header(3).seats[2]]})
    assert "pig-setup/seats" in codes(run(gap, []))
    assert "pig-setup/first-player" in codes(run(header(2, first_player=4), []))


def test_a_partial_log_is_information_only(two) -> None:
    """§5.1: the log ends before anyone won."""
    r = run(two, turns("1: 3 h"))
    assert [(f.code, f.severity) for f in r.findings] == [("log/partial", "info")]
    assert not r.outcome.complete and r.outcome.provisional_winners == [1]


def test_every_code_cites_a_section_of_the_readme() -> None:
    """Every rule the catalogue cites names a section that the README has."""
    import re
    from pathlib import Path

    from playtest_pig.codes import PIG_RULES

    readme = (Path(__file__).parents[1] / "README.md").read_text()
    for rule in PIG_RULES:
        for section in re.findall(r"§(\d+\.\d+)", rule.rule):
            assert re.search(rf"^{re.escape(section)} \*\*", readme, re.M), (rule.code, section)


def test_the_end_rule_is_a_ruling_cited_by_its_findings() -> None:
    """§4: the end rule is the table's choice (rulings/traditional-1.json); a finding about the
    end names the ruling it rests on, and an unknown ruling is reported."""
    r = run(header(2), turns(*RACE, "2: 6"))
    assert r.findings[0].rulings == ("end=immediate",)
    eq = run(header(2, rulings="end=equal_turns"), turns(*RACE, "2: 6 h", "1: 3"))
    assert [(f.code, f.rulings) for f in eq.findings] == [
        ("log/event-after-game-end", ("end=equal_turns",))]
    bad = run(header(2, rulings="end=sudden_death"), turns(*RACE))
    assert codes(bad) == ["pig-setup/rulings"] and bad.outcome.winners == [1]
    assert "sudden_death" in bad.findings[0].message
