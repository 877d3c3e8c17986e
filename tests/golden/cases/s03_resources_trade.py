"""§3 Resources (caps, paying costs) and §6B Immediate resource trade."""

from tests.golden.build import Game, case


def _opening(g: Game) -> None:
    g.setup()
    g.era_start(1)


@case
def trade_second_offer():
    """§6B Immediate resource trade: the active player may make *one* offer to one rival. Seat 1
    offers seat 2 (rejected), then offers seat 3 -> trade/second-offer at the second offer."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.add("trade", seat=1, rival=2, give="runway", accepted=False)
    g.add("trade", seat=1, rival=3, give="runway", accepted=True)
    g.expect("trade/second-offer")
    return g


@case
def trade_with_self():
    """§6B: the offer goes to one *rival*. Seat 1 offers itself -> trade/self."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.add("trade", seat=1, rival=1, give="runway", accepted=True)
    g.expect("trade/self")
    return g


@case
def trade_by_non_active_player():
    """§6B: immediately before resolving *their* selected Action, the active player may offer.
    Seat 2 offers while seat 1 (Initiative) is about to resolve -> trade/not-active-player."""
    g = Game()
    _opening(g)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.add("trade", seat=2, rival=3, give="runway", accepted=True)
    g.expect("trade/not-active-player")
    return g


@case
def trade_cannot_pay():
    """§6B: give exactly one Runway for one Compute. Mirevanta (seat 3, starts Runway 3) builds
    Facility 1 on I1 in cycle 1 (pays 2 -> Runway 1); in cycle 2 trades its last Runway to seat 1
    for a Compute (Runway 0) and Organizes (free); in cycle 3 (Initiative seat 3) it offers
    Runway again and seat 1 accepts, but Mirevanta has none -> trade/cannot-pay."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: ("build", {"to": "I1"})})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "organize"})
    for s in g.order():  # 2, 3, 1
        if s == 3:
            g.add("trade", seat=3, rival=1, give="runway", accepted=True)
        g.play(s, "organize")
    g.headline()
    g.reveal({1: "influence", 2: "influence", 3: "fund"})
    g.add("trade", seat=3, rival=1, give="runway", accepted=True)
    g.expect("trade/cannot-pay")
    return g


@case
def trade_compute_under_export_controls():
    """Headline Compute Borders Harden (export_controls, Era II): Compute cannot be traded
    (§6B: the active Headline may prohibit a named resource). In Era II cycle 1 seat 1 gives one
    Compute to seat 2 for one Runway, accepted -> trade/resource-banned."""
    g = Game()
    g.setup()
    g.filler_era(1)
    g.era_start(2)
    g.headline("export_controls")
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.add("trade", seat=1, rival=2, give="compute", accepted=True)
    g.expect("trade/resource-banned")
    return g


@case
def resource_compute_over_cap_in_checkpoint():
    """§3 Universal costs and caps: Compute is capped at ten immediately after any gain
    (return excess); §6C: apply the caps after every Production gain.

    Seats Kestralyn, Loopfold, Corthaven (Runway 5, Compute 4). Corthaven buys one Compute for one
    Runway before each of its turns: Era I cycle 1 (from seat 1) -> C5, builds Facility 1 on the
    Compute Estate I2 (Runway 4-2=2); cycle 2 (from seat 2) -> C6, Funds; cycle 3 (from seat 1)
    -> C7, Influences. Era I Production: Facility 1 on its starting grid yields 2 Compute -> 9.
    Era II cycle 1 (from seat 2, who still has 1 Compute; seat 1 would be pushed above Runway
    12 by the trade) -> 10. Era II Production: +2 -> 12,
    capped to 10. The table's checkpoint after Production writes Compute 12 -> resource/over-cap
    at the checkpoint (one finding: the over-cap value is the slip)."""
    g = Game(("kestralyn", "loopfold", "corthaven"))
    g.setup()
    g.era_start(1)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "build"})
    g.play(1, "fund")
    g.play(2, "fund")
    g.add("trade", seat=3, rival=1, give="runway", accepted=True)
    g.play(3, ("build", {"to": "I2"}))
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "fund"})
    g.play(2, "organize")
    g.add("trade", seat=3, rival=2, give="runway", accepted=True)
    g.play(3, "fund")
    g.play(1, "organize")
    g.headline()
    g.reveal({1: "influence", 2: "influence", 3: "influence"})
    g.add("trade", seat=3, rival=1, give="runway", accepted=True)
    g.play(3, "influence")
    g.play(1, "influence")
    g.play(2, "influence")
    g.end_era()
    g.era_start(2)
    g.headline()
    g.reveal({1: "fund", 2: "fund", 3: "fund"})
    g.play(1, "fund")
    g.play(2, "fund")
    g.add("trade", seat=3, rival=2, give="runway", accepted=True)
    g.play(3, "fund")
    g.cycle_of({1: "organize", 2: "organize", 3: "organize"})
    g.cycle_of({1: "influence", 2: "influence", 3: "influence"})
    g.production({3: [1]})
    g.add("checkpoint", label="after Era II Production", seats=[{"seat": 3, "compute": 12}])
    g.expect("resource/over-cap")
    return g


@case
def resource_recruit_without_runway():
    """§3: a cost needs the resources to pay it. Mirevanta (Runway 3) builds Facility 1 on I1 in
    cycle 1 (Runway 1), then in cycle 2 recruits a Team on I1 for two Runway (§7 Organize)
    -> resource/insufficient."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: ("build", {"to": "I1"})})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "organize"})
    g.play(2, "organize")
    g.turn(3, "organize", mode="recruit")
    g.expect("resource/insufficient")
    return g


@case
def build_cannot_pay():
    """§7 Build: pay two Runway. Mirevanta (Runway 3) recruits a Team at Frontier in cycle 1
    (Runway 1), then in cycle 2 builds Facility 1 on I1 -> build/cannot-pay."""
    g = Game()
    _opening(g)
    g.cycle_of({1: "fund", 2: "fund", 3: ("organize", {"mode": "recruit"})})
    g.headline()
    g.reveal({1: "organize", 2: "organize", 3: "build"})
    g.play(2, "organize")
    g.turn(3, "build", to="I1")
    g.expect("build/cannot-pay")
    return g
