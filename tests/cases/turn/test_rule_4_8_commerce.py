"""Rule 4.8, commerce: raiders, convoys, merchant traffic and the naval
minister's trade summary (docs/rules/orders.md, "Commerce")."""

from __future__ import annotations

from dataclasses import replace

from pate.core.intel.knowledge import knowledge_for
from pate.core.orders.model import Commerce, Contact, ContactMode, ShipOrder
from pate.core.rules.commerce import CommerceRules, TradeSummary, traffic
from pate.core.world.state import Player, Role
from pate.reports.text import render_text
from tests.cases.turn.turn_world import CTX, events, run, sea, ship, world

RULES = CommerceRules.of(CTX.rules)
MINISTERS = {
    f"{s.lower()}_min": Player(f"{s.lower()}_min", f"Minister {s}", s, frozenset({Role.NAVAL_MINISTER}))
    for s in ("BR", "FR")
}


def raid(sid: str) -> ShipOrder:
    return ShipOrder(sid, commerce=Commerce.RAID, contact=Contact(mode=ContactMode.PURSUE))


def convoy(sid: str) -> ShipOrder:
    return ShipOrder(sid, commerce=Commerce.CONVOY)


def _taken(ships: list, orders: list[ShipOrder], seeds: int = 120) -> tuple[int, int]:
    """British merchants taken in the Irish Sea over the seeds, and raids made."""
    w = replace(world(ships), players=MINISTERS)
    lost = raids = 0
    for seed in range(seeds):
        r = run(replace(w, seed=seed), *orders)
        lost += sum(e.data["taken"] for e in events(r, "trade_lost") if e.data["state"] == "BR")
        raids += len(events(r, "merchant_prizes"))
    return lost, raids


def test_rule_4_8_raiders_take_enemy_merchants_frigates_most() -> None:
    """4.8: "Ships can choose to raid enemy commerce".  Decision: each raider
    may take each enemy merchant in its sea area (a frigate 8%, a ship of the
    line 3%); each prize costs it a prize crew of 12 men."""
    merchants = traffic(CTX.map, world([]), RULES)["BR"]["IRS"]
    assert merchants == 6  # Britain's 60 merchants over her 38 ports: six in the Irish Sea
    by_frigate, _ = _taken([ship("FR1FR", sea("IRS"))], [raid("FR1FR")])
    by_liner, _ = _taken([ship("FR1SL", sea("IRS"))], [raid("FR1SL")])
    n = 120 * merchants
    assert abs(by_frigate / n - 0.08) < 4 * (0.08 * 0.92 / n) ** 0.5
    assert by_liner < by_frigate
    w = replace(world([ship("FR1FR", sea("IRS"))]), players=MINISTERS)
    for seed in range(50):
        r = run(replace(w, seed=seed), raid("FR1FR"))
        hits = events(r, "merchant_prizes")
        if hits:
            (e,) = hits
            assert e.ships == ("FR1FR",) and e.data["victim"] == "BR" and e.data["state"] == "FR"
            assert r.state.ships["FR1FR"].crew == 225 - 12 * e.data["prizes"]
            return
    raise AssertionError("no merchant prize in 50 turns")


def test_rule_4_8_convoys_protect_their_own() -> None:
    """4.8: ships can "convoy their own commerce".  Decision: escorts on
    Convoy in the sea area divide each raider's chance by 1 + their weight
    (a frigate 1): one British frigate halves what a French frigate takes."""
    alone, _ = _taken([ship("FR1FR", sea("IRS"))], [raid("FR1FR")], seeds=200)
    escorted, _ = _taken(
        [ship("FR1FR", sea("IRS")), ship("BR1FR", sea("IRS", 2))], [raid("FR1FR"), convoy("BR1FR")], seeds=200
    )
    assert 0.3 * alone < escorted < 0.7 * alone
    w = replace(world([ship("FR1FR", sea("IRS")), ship("BR1FR", sea("IRS", 2))]), players=MINISTERS)
    r = run(w, raid("FR1FR"), convoy("BR1FR"))
    (cover,) = events(r, "convoy_covered")
    assert cover.ships == ("BR1FR",) and cover.data["raiders"] == 1


def test_rule_4_8_only_enemy_trade_is_raided_and_ignore_does_nothing() -> None:
    """4.8: raiders take "enemy commerce"; "ignore commercial shipping
    entirely" takes none.  The United States are at peace in 1805: a French
    raider off the American coast takes nothing, nor does a frigate on Ignore."""
    assert traffic(CTX.map, world([]), RULES)["US"]["CHE"] == 4
    assert _taken([ship("FR1FR", sea("CHE"))], [raid("FR1FR")], seeds=40)[1] == 0
    assert _taken([ship("FR1FR", sea("IRS"))], [ShipOrder("FR1FR")], seeds=40) == (0, 0)


def test_rule_4_8_the_naval_minister_reads_his_trade_summary() -> None:
    """4.8 with 3.11 (the naval minister's report): each turn a minister
    learns his merchants at sea by sea area, those taken, those arrived, and
    the prizes his raiders took (``trade_summary``), and hears of each loss
    (``trade_lost``) though no ship of his saw it."""
    w = replace(world([ship("FR1FR", sea("IRS"))]), players=MINISTERS)
    for seed in range(60):
        r = run(replace(w, seed=seed), raid("FR1FR"))
        if events(r, "trade_lost"):
            break
    br = TradeSummary.from_events(r.events, "BR")
    fr = TradeSummary.from_events(r.events, "FR")
    assert br is not None and fr is not None
    assert br.merchants == 60 and br.taken > 0 and br.arrived == 60 - br.taken
    assert {a.area: a.taken for a in br.areas}["IRS"] == br.taken
    assert fr.prizes == br.taken and fr.merchants == 8
    k = knowledge_for("br_min", replace(w, seed=seed), r.state, r.events, CTX.map, CTX.rules)
    kinds = {e.kind for e in k.events}
    assert {"trade_summary", "trade_lost"} <= kinds
    # and his report's Trade section tells them (docs/formats/reports.md), not "Nothing moved"
    trade = render_text(k, CTX.map).split("Trade: store moves (rule 3.5) and commerce\n", 1)[1]
    assert "Nothing moved or reported this turn" not in trade.split("\n\n")[0]
    assert "Trade this turn" in trade and "merchant ship" in trade.split("\n\n")[0]
