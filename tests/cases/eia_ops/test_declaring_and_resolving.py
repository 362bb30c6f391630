"""Rule cases of the EiA new naval rules: declaring and resolving operations,
interception and combined movement (docs/rules/eia-operations.md)."""

from __future__ import annotations

from pate.core.world.ships import InPort
from tests.cases.eia_ops.ops_world import (
    HITS,
    QUIET,
    carrying,
    harbor,
    kinds,
    one,
    op,
    ops_world,
    revealed,
    run,
    ship,
    with_corps,
)


def _fleet(prefix: str, n: int, port: str, type_: str = "SL") -> list:  # type: ignore[type-arg]
    return [
        ship(f"{prefix}{k}{type_}", harbor(port), attached_to=None if k == 1 else f"{prefix}1{type_}")
        for k in range(1, n + 1)
    ]


def test_eia_ops_s27_declared_one_fleet_at_a_time_in_naval_phase_order() -> None:
    """ "Naval Operations are declared one fleet at a time in accordance with
    the Naval Phase order with regards to combined movement."  France, then
    Spain, then Britain (data/rules/eia_operations.toml [phase] order)."""
    w = ops_world(
        ship("BR1SL", harbor("Plymouth")), ship("SP1SL", harbor("Ferrol")), ship("FR1SL", harbor("Brest"))
    )
    ts = run(
        w,
        [
            op(s, "rebase to " + to)
            for s, to in (("BR1SL", "Portsmouth"), ("SP1SL", "Vigo"), ("FR1SL", "St Malo"))
        ],
        dice=QUIET,
    )
    assert revealed(ts) == [("FR1SL", "rebase"), ("SP1SL", "rebase"), ("BR1SL", "rebase")]


def test_eia_ops_s28_britain_may_choose_when_to_declare() -> None:
    """ "This means that, Britain may choose when to declare, and"  PATE's
    orders are written before the turn, so Britain's choice is fixed: last in
    every round, having seen the others (the choice that gives it the most)."""
    w = ops_world(
        *(ship(f"BR{k}SL", harbor("Plymouth")) for k in (1, 2)),
        *(ship(f"FR{k}SL", harbor("Brest")) for k in (1, 2)),
    )
    orders = [
        op(s, "rebase to " + ("Portsmouth" if s[0] == "B" else "St Malo"))
        for s in ("BR1SL", "BR2SL", "FR1SL", "FR2SL")
    ]
    ts = run(w, orders, dice=QUIET)
    assert [f for f, _ in revealed(ts)] == ["FR1SL", "BR1SL", "FR2SL", "BR2SL"]


def test_eia_ops_s29_a_second_fleet_once_every_country_declared_one() -> None:
    """ "once every country has declared one fleet, it is time for each country
    to declare a second fleet (if available) etc."  The round is the fleet's
    Phase Number."""
    w = ops_world(
        ship("FR1SL", harbor("Brest")),
        ship("FR2SL", harbor("Brest")),
        ship("SP1SL", harbor("Ferrol")),
        ship("BR1SL", harbor("Plymouth")),
    )
    orders = [
        op("FR1SL", "rebase to St Malo"),
        op("FR2SL", "rebase to Cherbourg"),
        op("SP1SL", "rebase to Vigo"),
        op("BR1SL", "rebase to Portsmouth"),
    ]
    ts = run(w, orders, dice=QUIET)
    order = [(e.data["fleet"], e.data["phase_number"]) for e in kinds(ts, "operation_revealed")]
    assert order == [("FR1SL", 1), ("SP1SL", 1), ("BR1SL", 1), ("FR2SL", 2)]


def test_eia_ops_s30_resolved_in_order_of_revealing() -> None:
    """ "Naval Operations are resolved in order of revealing."  Each operation's
    effect comes between its revealing and the next one's."""
    w = with_corps(ops_world(carrying("FR1TR", harbor("Brest")), ship("BR1SL", harbor("Plymouth"))))
    ts = run(
        w, [op("FR1TR", "transport FR1IN to Cherbourg"), op("BR1SL", "rebase to Portsmouth")], dice=QUIET
    )
    seq = [e.kind for e in ts.events if e.kind in ("operation_revealed", "transfer_begun")]
    assert seq == ["operation_revealed", "transfer_begun", "operation_revealed"]


def test_eia_ops_s31_effects_come_into_being_immediately() -> None:
    """ "When a Naval Operation is revealed, all of its effects come into being
    immediately."  The French fleet is in Cherbourg before Britain reveals."""
    w = ops_world(ship("FR1SL", harbor("Brest")), ship("BR1SL", harbor("Plymouth")))
    ts = run(w, [op("FR1SL", "rebase to Cherbourg"), op("BR1SL", "patrol")], dice=[1, *QUIET])
    assert ts.world.ships["FR1SL"].location == InPort("Cherbourg", True)
    assert kinds(ts, "interception") == []  # and a rebase that has resolved is not attacked


def test_eia_ops_s32_enemy_operations_in_range_intercepted_immediately() -> None:
    """ "Any enemy Naval Operations within range can be intercepted
    immediately."  A British patrol in ECH meets the French patrol from St
    Malo (ECH) as it is revealed; a French patrol in GOL is out of its range."""
    w = ops_world(
        ship("FR1SL", harbor("Toulon")), ship("FR2SL", harbor("St Malo")), ship("BR1SL", harbor("Plymouth"))
    )
    orders = [op("FR1SL", "patrol"), op("FR2SL", "patrol"), op("BR1SL", "patrol")]
    # FR1SL patrol 1 ship; BR1SL patrol 1; FR2SL patrol (Phase 2): 2 dice; BR intercepts it 6 v 1
    ts = run(w, orders, dice=[1, 1, 1, 1, 6, 1, *QUIET])
    got = [(e.data["by"], e.data["target"]) for e in kinds(ts, "interception")]
    assert got[0] == ("BR1SL", "FR2SL")
    assert ("BR1SL", "FR1SL") not in got


def test_eia_ops_s33_already_resolved_intercepted_on_the_return_to_base() -> None:
    """ "If the Operation has already been resolved, the results of it cannot be
    undone but fleets can still be intercepted on the Return to Base."  The
    French transport has landed its corps in Cherbourg when the British patrol
    is revealed; the patrol wins the battle, but the landing stands."""
    w = with_corps(
        ops_world(
            ship("FR1SL", harbor("Brest")),
            carrying("FR1TR", harbor("Brest"), attached_to="FR1SL"),
            ship("BR1SL", harbor("Plymouth")),
        )
    )
    ts = run(w, [op("FR1SL", "transport FR1IN to Cherbourg"), op("BR1SL", "patrol")], dice=[1, 6, 1, *HITS])
    assert one(ts, "interception")["return_to_base"] is True
    battle = one(ts, "column_battle")
    assert battle["return_to_base"] is True and battle["disabled"]
    assert one(ts, "transfer_begun")["port"] == "Cherbourg"
    assert ts.world.ships["FR1TR"].location == InPort("Cherbourg", True)


def test_eia_ops_s34_interception_succeeds_only_once() -> None:
    """ "Interception can only be successfully done once."  Two British patrols
    could intercept the French patrol; once the first has, the second does not try."""
    w = ops_world(
        ship("FR1SL", harbor("St Malo")),
        ship("FR2SL", harbor("Brest")),
        ship("BR1SL", harbor("Plymouth")),
        ship("BR2SL", harbor("Portsmouth")),
    )
    orders = [
        op("FR1SL", "rebase to Cherbourg"),
        op("FR2SL", "patrol"),
        op("BR1SL", "patrol"),
        op("BR2SL", "patrol"),
    ]
    # round 1: FR1SL rebase, BR1SL patrol (1); round 2: FR2SL patrol (2 dice), BR1SL intercepts 6 v 1
    ts = run(w, orders, dice=[1, 1, 1, 6, 1, *QUIET])
    hits = [(e.data["by"], e.data["target"]) for e in kinds(ts, "interception") if e.data["succeeded"]]
    assert hits.count(("BR1SL", "FR2SL")) == 1 and ("BR2SL", "FR2SL") not in hits


def test_eia_ops_s35_once_done_the_fleet_is_spent() -> None:
    """ "Once an Interception is done, the fleet is spent."  The British patrol
    that intercepted FR2SL does not try FR3SL, revealed after."""
    w = ops_world(
        *(ship(f"FR{k}SL", harbor("St Malo")) for k in (1, 2, 3)), ship("BR1SL", harbor("Plymouth"))
    )
    orders = [
        op("FR1SL", "rebase to Cherbourg"),
        op("FR2SL", "rebase to Brest"),
        op("FR3SL", "rebase to Boulogne"),
        op("BR1SL", "patrol"),
    ]
    # declared: FR1SL, BR1SL (1 ship), FR2SL (intercepted before it resolves: 6 v 1), FR3SL
    ts = run(w, orders, dice=[1, 6, 1, *QUIET])
    targets = [e.data["target"] for e in kinds(ts, "interception")]
    assert targets == ["FR2SL"]


def _two_superiorities(dice: list[int]):  # type: ignore[no-untyped-def]
    w = ops_world(*_fleet("FR", 2, "Brest"), *_fleet("BR", 2, "Plymouth"), ship("FR9SL", harbor("St Malo")))
    orders = [op("FR1SL", "naval-superiority"), op("BR1SL", "naval-superiority"), op("FR9SL", "patrol")]
    return run(w, orders, dice=dice)


# FR NS: 1d6 + 1d6 ships [1, 1]; BR NS: [1, 1]; contest reach 2d6 [3, 3];
# contest ships BR 2d6 [1, 1], FR [1, 1]; initiative [4, 1] (tie of columns):
# Britain; Britain's attack: contest [6, 1], two shots that hit [6, 6].
CONTEST_BRITAIN_WINS = [1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 4, 1, 6, 1, 6, 6]


def test_eia_ops_s36_two_superiority_fleets_at_war_may_fight() -> None:
    """ "If two countries at war with each other both choose Naval Superiority,
    a naval combat may happen between the newly revealed Naval Superiority
    fleet and any of the previously declared hostile Naval Superiority
    fleets."  Allies (France and Spain) never contest."""
    ts = _two_superiorities([*CONTEST_BRITAIN_WINS, *QUIET])
    assert one(ts, "contest")["against"] == "FR1SL"
    allies = ops_world(ship("FR1SL", harbor("Brest")), ship("SP1SL", harbor("Ferrol")))
    ts = run(allies, [op("FR1SL", "naval-superiority"), op("SP1SL", "naval-superiority")], dice=QUIET)
    assert kinds(ts, "contest") == []


def test_eia_ops_s37_within_2d6_steps_both_bring_2d6_ships() -> None:
    """ "If the fleets are within 2d6 steps of each other, a combat is joined
    with both sides bringing their 2d6 ships to the combat."  ECH to ECH is 0
    steps; ECH to GOL (Toulon) is 6, beyond a roll of 2 + 3."""
    ts = _two_superiorities([*CONTEST_BRITAIN_WINS, *QUIET])
    battle = next(e.data for e in kinds(ts, "column_battle") if e.data["why"] == "naval_superiority")
    assert battle["columns"] == [[["BR1SL", "BR2SL"]], [["FR1SL", "FR2SL"]]]
    far = ops_world(ship("FR1SL", harbor("Toulon")), ship("BR1SL", harbor("Plymouth")))
    ts = run(
        far,
        [op("FR1SL", "naval-superiority"), op("BR1SL", "naval-superiority")],
        dice=[1, 1, 1, 1, 2, 3, *QUIET],
    )
    assert one(ts, "contest")["joined"] is False and kinds(ts, "column_battle") == []


def test_eia_ops_s38_the_loser_no_longer_intercepts_or_contests() -> None:
    """ "If a fleet loses in a Naval Superiority combat, it may no longer
    intercept or take part in Naval Superiority contests."  France's beaten
    fleet does not try to intercept anything afterwards."""
    ts = _two_superiorities([*CONTEST_BRITAIN_WINS, *QUIET])
    assert next(e.data["winner"] for e in kinds(ts, "column_battle")) == 0
    assert all(e.data["by"] != "FR1SL" for e in kinds(ts, "interception"))


def test_eia_ops_s39_the_winner_still_contests_and_intercepts() -> None:
    """ "If a fleet wins in a Naval Superiority combat, it still take part in
    Naval Superiority contests or intercept."  Britain's winning fleet goes on
    to intercept the French patrol revealed after (Phase 2: 2d6 ships)."""
    # after the contest: BR tries FR1SL (resolved NS) 1 v 6 fails; FR9SL patrol 2 dice; BR intercepts it 6 v 1
    ts = _two_superiorities([*CONTEST_BRITAIN_WINS, 1, 6, 1, 1, 6, 1, *QUIET])
    assert ("BR1SL", "FR9SL", True) in [
        (e.data["by"], e.data["target"], e.data["succeeded"]) for e in kinds(ts, "interception")
    ]


def test_eia_ops_s40_interceptors_attack_before_or_after_but_not_a_resolved_rebase() -> None:
    """ "Naval superiority, Pirate hunt and Patrol operations can attack enemy
    operations regardless of if they have been performed or not (exception,
    rebase can not attacked after it has resolved)."  A rebase revealed after
    the patrol is attacked; one revealed before it is not."""
    w = ops_world(
        ship("FR1SL", harbor("St Malo")), ship("FR2SL", harbor("Brest")), ship("BR1SL", harbor("Plymouth"))
    )
    orders = [op("FR1SL", "rebase to Cherbourg"), op("FR2SL", "rebase to Boulogne"), op("BR1SL", "patrol")]
    ts = run(w, orders, dice=[1, 1, 6, *QUIET])
    assert [e.data["target"] for e in kinds(ts, "interception")] == ["FR2SL"]


def _patrol_against_transport(kind: str, dice: list[int]):  # type: ignore[no-untyped-def]
    """Britain's interceptor declared before France's second fleet, a transport."""
    w = with_corps(
        ops_world(
            ship("FR1SL", harbor("St Malo")),
            carrying("FR2TR", harbor("Brest")),
            ship("BR1SL", harbor("Plymouth")),
        )
    )
    orders = [
        op("FR1SL", "rebase to Cherbourg"),
        op("BR1SL", kind),
        op("FR2TR", "transport FR1IN to Cherbourg"),
    ]
    return run(w, orders, dice=dice)


def test_eia_ops_s41_interception_by_the_manoeuvre_roll() -> None:
    """ "Interception succeeds if intercepting side wins the manouver roll or on
    a tie if intercepting a preferred kind of operation."  The patrol wins the
    roll 5 v 2 and the battle: the transport never sails."""
    ts = _patrol_against_transport("patrol", [1, 5, 2, *HITS])
    assert one(ts, "interception")["rolls"] == [5, 2] and one(ts, "interception")["succeeded"]
    assert one(ts, "interception")["on_tie"] is False  # what the reports tell of the dice
    assert ts.world.ships["FR2TR"].location == InPort("Brest", True)


def test_eia_ops_s41_interception_on_a_tie_for_a_preferred_kind() -> None:
    """ "Interception succeeds if intercepting side wins the manouver roll or on
    a tie if intercepting a preferred kind of operation."  A tie (4 v 4): Naval
    Superiority prefers a transport and intercepts; a patrol does not."""
    ts = _patrol_against_transport("naval-superiority", [1, 1, 4, 4, *QUIET])
    got = one(ts, "interception")
    assert got["rolls"] == [4, 4] and got["preferred"] and got["succeeded"] and got["on_tie"]
    ts = _patrol_against_transport("patrol", [1, 4, 4, *QUIET])
    assert one(ts, "interception")["succeeded"] is False
    assert ts.world.ships["FR2TR"].location == InPort("Cherbourg", True)


def test_eia_ops_s42_two_nations_in_one_port_make_a_joint_operation() -> None:
    """ "When two or more nations are in combine movement, are based in the
    same port and choose the same operation are automatically assumed to be
    performing a joint operation."  France and Spain (allied) in Cadiz, both
    on patrol: one operation of both."""
    w = ops_world(ship("FR1SL", harbor("Cadiz")), ship("SP1SL", harbor("Cadiz")))
    ts = run(w, [op("FR1SL", "patrol"), op("SP1SL", "patrol")], dice=[1, *QUIET])
    (joint,) = kinds(ts, "operation_revealed")
    assert joint.data["states"] == ["FR", "SP"] and joint.ships == ("FR1SL", "SP1SL")


def test_eia_ops_s43_ships_chosen_from_the_whole_stack_in_proportion() -> None:
    """ "In this case, ships in the operation are chosen from the whole stack
    using above rules and proportional rules."  A joint patrol of 2 French
    and 2 Spanish ships rolls 2 ships: one of each nation."""
    # joint patrol 1d6 = 2; BR1SL's rebase from Gibraltar (on SOA and WMD)
    # intercepted before it resolves: 6 v 1
    w = ops_world(*_fleet("FR", 2, "Cadiz"), *_fleet("SP", 2, "Cadiz"), ship("BR1SL", harbor("Gibraltar")))
    orders = [op("FR1SL", "patrol"), op("SP1SL", "patrol"), op("BR1SL", "rebase to Malta")]
    ts = run(w, orders, dice=[2, 6, 1, *QUIET])
    battle = one(ts, "column_battle")
    assert sorted(battle["columns"][0][0]) == ["FR1SL", "SP1SL"]
