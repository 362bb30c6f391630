"""The final account and the result of a campaign (docs/rules/result.md; the rule
book's victory conditions are lost, so each test quotes the project's decision)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pate.core.events import Event, Phase
from pate.core.result import DECISIVE, DRAW, MARGINAL, campaign_result, campaign_sides, final_account
from pate.core.ruledata import RulesDataError, parse_rules
from pate.core.world.diplomacy import Diplomacy
from pate.core.world.state import WorldState
from pate.datafiles import data_dir, load_rule_data, load_scenario, read_toml

SCORING = load_rule_data().result_scoring()


def _start() -> WorldState:
    return load_scenario("training").world


def _sunk(ship: str, *seen: str) -> Event:
    return Event(Phase.COMBAT, "sunk", (ship,), "NOC", seen, {"state": ship[:2], "type": ship[-2:]})


def _captured(ship: str, prize: str, captor: str) -> Event:
    data = {"prize": prize, "captor": captor, "state": prize[:2]}
    return Event(Phase.COMBAT, "captured", (ship, prize, captor), "NOC", (), data)


def _taken_as(world: WorldState, ship: str, prize: str) -> WorldState:
    old = world.ships[ship]
    new = replace(old, id=prize, state=prize[:2], number=int(prize[2:-2]))
    return world.with_ships({prize: new}, (ship,))


def test_a_ship_sunk_in_battle_is_the_loser_s_loss_and_the_enemy_s_credit() -> None:
    """Decision (result.md): "a ship sunk in battle is its side's loss and counts for
    the enemy side with most ships in the battle"; it is worth its rule 7.7 base
    strength, FL 135, SL 100, FR 25."""
    start = _start()
    final = start.with_ships({}, ("FR1SL",))
    fr, br = _by_key(final_account(start, final, {1: [_sunk("FR1SL", "BR1FL", "BR2SL")]}, SCORING))
    assert fr.sunk["SL"] == 1 and fr.lost == 100 and fr.ships_end["SL"] == fr.ships_start["SL"] - 1
    assert br.sank["SL"] == 1 and br.won == 100 and br.lost == 0
    assert fr.unrecorded == br.unrecorded == {"FL": 0, "SL": 0, "FR": 0, "TR": 0}


def test_a_ship_lost_to_a_storm_counts_for_no_enemy() -> None:
    """Decision: "a ship that foundered or was wrecked is its side's loss and no
    enemy's gain"."""
    start = _start()
    final = start.with_ships({}, ("BR1FR",))
    storm = Event(Phase.MOVEMENT, "foundered", ("BR1FR",), "NOC", ("FR1FL",), {"roll": 3})
    fr, br = _by_key(final_account(start, final, {4: [storm]}, SCORING))
    assert br.lost_to_sea["FR"] == 1 and br.lost == 25
    assert fr.won == 0 and fr.sank["FR"] == 0


def test_a_prize_is_the_captor_s_ship_and_both_sides_counts_add_up() -> None:
    """Decision: "a prize is the loser's ship taken and the captor's prize; the
    world's end counts are the start counts less losses plus prizes"."""
    start = _start()
    final = _taken_as(start, "BR2SL", "FR6SL")
    fr, br = _by_key(final_account(start, final, {2: [_captured("BR2SL", "FR6SL", "FR1FL")]}, SCORING))
    assert br.taken["SL"] == 1 and fr.prizes["SL"] == 1
    assert fr.ships_end["SL"] == fr.ships_start["SL"] + 1
    assert br.ships_end["SL"] == br.ships_start["SL"] - 1
    assert fr.unrecorded["SL"] == br.unrecorded["SL"] == 0


def test_a_ship_gone_with_no_event_is_shown_unrecorded_not_explained_away() -> None:
    """Decision: "the account claims no more than the events show: a ship missing with no
    event is counted as unrecorded, not as a loss"."""
    start = _start()
    final = start.with_ships({}, ("FR2FR",))
    fr, _br = _by_key(final_account(start, final, {}, SCORING))
    assert fr.unrecorded["FR"] == -1 and fr.lost == 0


def test_merchants_taken_and_lost_by_rule_4_8_raiding() -> None:
    """Rule 4.8 ("raid enemy commerce"); decision: a merchant taken is worth 5 points
    (data/rules/result.toml [points] merchant)."""
    start = _start()
    data = {"area": "NOC", "victim": "BR", "state": "FR", "prizes": 3, "prize_crew": 36}
    prizes = Event(Phase.FINAL_AMPHIBIOUS, "merchant_prizes", ("FR1FR",), "NOC", (), data)
    fr, br = _by_key(final_account(start, start, {1: [prizes]}, SCORING))
    assert (fr.merchants_taken, br.merchants_lost) == (3, 3)
    assert (fr.won, br.lost) == (15, 15)


def test_troops_landed_on_an_enemy_shore_and_lost_at_sea() -> None:
    """Decision: "a land unit put ashore in a port an enemy held at the start scores 50;
    one lost at sea costs 50"."""
    start = _start()
    land = {"transfer": "t", "direction": "unload", "port": "Brest", "units": ["BR1IN"], "supplies": 0}
    landed = Event(Phase.FINAL_AMPHIBIOUS, "transfer_completed", ("BR1TR",), "Brest", (), land)
    lost_data = {"transport": "FR1TR", "units": ["FR2IN"], "supplies": 0, "captor": ""}
    lost = Event(Phase.COMBAT, "cargo_lost", ("FR1TR",), "NOC", (), lost_data)
    told_again = Event(Phase.COMBAT, "cargo_captured", ("FR1TR",), "NOC", (), {**lost_data, "captor": "BR"})
    fr, br = _by_key(final_account(start, start, {3: [landed, lost, told_again]}, SCORING))
    assert (br.troops_landed, br.troops_landed_on_enemy, br.won) == (1, 1, 50)
    assert (fr.troops_lost, fr.men_lost, fr.lost) == (1, 4700, 50)  # a unit is lost once, however often told


def test_a_port_counts_where_it_ended_against_where_it_began() -> None:
    """Decision: "ports taken: held by another side at the end than at the start, 100 points"."""
    start = _start()
    ports = dict(start.ports)
    ports["Malta"] = replace(ports["Malta"], controller="FR")
    fr, br = _by_key(final_account(start, replace(start, ports=ports), {}, SCORING))
    assert fr.ports_taken == ("Malta",) and br.ports_lost == ("Malta",)
    assert (fr.won, br.lost) == (100, 100)


def test_a_side_is_a_state_and_its_active_allies() -> None:
    """ "A side = a state and its active allies as the world's diplomacy says"."""
    start = _start()
    states = dict(start.diplomacy.states)
    allied = Diplomacy.build(states, wars=[("BR", "FR")], alliances=[("FR", "SP")])
    world = replace(start, diplomacy=allied)
    ship = replace(start.ships["FR1FR"], id="SP1FR", state="SP", number=1)
    world = world.with_ships({"SP1FR": ship})
    keys = [s.key for s in campaign_sides(world, world)]
    assert "FR+SP" in keys and "BR" in keys and "SP" not in keys


@pytest.mark.parametrize(
    ("sunk", "kind"),
    [
        (("FR1SL",), DRAW),
        (("FR1SL", "FR2SL"), MARGINAL),
        (("FR1SL", "FR2SL", "FR3SL", "FR4SL", "FR5SL"), DECISIVE),
    ],
)
def test_the_result_names_no_more_than_the_margin_shows(sunk: tuple[str, ...], kind: str) -> None:
    """Decision: "a margin below 250 points is a draw; 1000 or more that is also half of the
    points in play is a decisive victory; between, a marginal victory"."""
    start = _start()
    final = start.with_ships({}, sunk)
    result = campaign_result(start, final, {1: [_sunk(s, "BR1FL") for s in sunk]}, SCORING)
    assert result.verdict.kind == kind
    assert result.verdict.margin == 200 * len(sunk)
    assert (result.verdict.winner == "BR") is (kind != DRAW)
    assert "by the account" in result.verdict.sentence


def test_the_scoring_is_checked_when_the_rules_are_loaded() -> None:
    """The result section is validated by the rules loader: a negative weight is refused."""
    raw = {p.stem: read_toml(p) for p in sorted((data_dir() / "rules").glob("*.toml"))}
    raw["result"] = {**raw["result"], "ships": {**raw["result"]["ships"], "SL": -1}}
    with pytest.raises(RulesDataError, match=r"result\.ships\.SL"):
        parse_rules(raw)


def _by_key(sides: list) -> tuple:  # type: ignore[type-arg]
    found = {a.side: a for a in sides}
    return found["FR"], found["BR"]
