"""Partial logs (header.detail "partial", DESIGN.md §5): a facilitator logged only Era
checkpoints and the final record. Missing structure is not an error; the engine still checks the
invariants between checkpoints and the final scoring."""

from tests.golden.build import Game, case

END_OF_ERA = {  # complete_three_players: seat -> (M, R, C, Cap, Cu, T, bag) after each Era
    1: {1: (3, 7, 3, 2, 0, 3, 0), 2: (8, 7, 1, 4, 1, 3, 0), 3: (6, 5, 1, 3, 1, 3, 0)},
    2: {1: (4, 7, 4, 2, 0, 3, 0), 2: (11, 8, 3, 4, 2, 3, 0), 3: (7, 8, 0, 5, 1, 3, 0)},
    3: {1: (9, 10, 3, 5, 0, 4, 0), 2: (18, 10, 3, 7, 3, 4, 0), 3: (12, 11, 0, 5, 2, 4, 0)},
    4: {1: (11, 11, 3, 7, 0, 4, 0), 2: (21, 11, 3, 8, 4, 5, 0), 3: (12, 11, 0, 5, 2, 5, 0)},
}
KEYS = ("mandate", "runway", "compute", "capability", "customers", "trust", "scrutiny")


def _partial(overrides: dict[tuple[int, int], dict] | None = None, final: bool = True) -> Game:
    g = Game(detail="partial", description="partial log: Era checkpoints and the final record")
    mandates = {1: "quarter_humanity_notices", 2: "building_has_weather",
                3: "legibility_offensive", 4: "responsible_acceleration"}
    for era in (1, 2, 3, 4):
        g.era_start(era, mandate=mandates[era])
        rows = []
        for s, v in sorted(END_OF_ERA[era].items()):
            row = {"seat": s, **dict(zip(KEYS, v, strict=True))}
            row.update((overrides or {}).get((era, s), {}))
            rows.append(row)
        g.add("checkpoint", label=f"end of Era {era}", seats=rows)
    if final:
        g.add("phase", name="final_scoring")
        g.add("final_record", offline={1: 0, 2: 0, 3: 0}, collective_trust=14,
              open_threshold=10, systemic_risk=0, provisional_winners=[2], claims=[], agi=False,
              winners=[2], open=True, ending="plural_future")
        g.add("phase", name="game_end")
    return g


@case
def partial_three_players_checkpoints_only():
    """DESIGN.md §5 partial logs: the clean three-player game logged only as four end-of-Era
    checkpoints and the final record. Every value is consistent (Mandate never falls, caps hold,
    Customers within their Capability requirements, thresholds paid), so no error or warning;
    the outcome is that of complete_three_players: provisional and final winner seat 2, no AGI,
    Open, The Plural Future, final Mandate 11 / 21 / 12."""
    g = _partial()
    g.outcome(provisional_winners=[2], winners=[2], agi=False, open=True,
              ending="plural_future", mandate={"1": 11, "2": 21, "3": 12})
    return g


@case
def partial_mandate_decreased():
    """§3: threshold awards are permanent; Mandate only falls at final scoring (offline penalty).
    In the partial log Mirevanta's Mandate is 12 after Era III and 11 after Era IV (it crossed no
    threshold in Era IV) -> mandate/decreased at the Era IV checkpoint."""
    g = _partial({(4, 3): {"mandate": 11}}, final=False)
    g.expect("mandate/decreased", 7)
    return g


@case
def partial_capability_decreased():
    """§3: Capability is permanent model quality; nothing lowers it. Kestralyn's Capability is 2
    after Era II and 1 after Era III (it has no Customer, so no Deploy requirement is touched;
    the log stops there) -> resource/capability-decreased at the Era III checkpoint."""
    g = _partial({(3, 1): {"capability": 1}}, final=False)
    del g.events[6:]
    g.expect("resource/capability-decreased", 5)
    return g


@case
def partial_customers_decreased():
    """§3 Customers: no rule removes a Customer. Loopfold has 2 Customers after Era II and 1
    after Era III -> resource/customers-decreased at the Era III checkpoint."""
    g = _partial({(3, 2): {"customers": 1}}, final=False)
    g.expect("resource/customers-decreased", 5)
    return g


@case
def partial_capability_threshold_not_scored():
    """§3: two Mandate the first time Capability reaches three. After Era I Kestralyn's
    Capability is 3 but its Mandate is still its printed 2: the threshold's Mandate is missing
    -> mandate/threshold-not-scored at the Era I checkpoint."""
    g = _partial({(1, 1): {"capability": 3, "mandate": 2}}, final=False)
    del g.events[2:]
    g.expect("mandate/threshold-not-scored", 1)
    return g
