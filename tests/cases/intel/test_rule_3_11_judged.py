"""Rule 3.11 through the real pipeline: the event report tells each player
what their ships observed, a battle's strength "as the player could judge
it", the damage their own ships took, and prizes under their new ids; and
nothing their ships could not have known (dice, an enemy's crew or damage)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from real_turns import Turn, engine_turns

from pate.core.codec import canonical_json, to_plain
from pate.core.events import Event
from pate.core.intel.judged import PUBLIC, SECRET, SHIP_SEEN, judged_strength
from pate.core.intel.knowledge import knowledge_for, own_ships
from pate.core.intel.model import PlayerKnowledge
from pate.engine.context import turn_context
from pate.reports.events import event_sentence
from pate.reports.words import adjective

STEP = 50  # data/rules/intel.toml [judging] enemy_strength_step


def _reports() -> Iterator[tuple[Turn, PlayerKnowledge]]:
    ctx = turn_context()
    for turn in engine_turns():
        for player in sorted(turn.after.players):
            yield turn, knowledge_for(player, turn.before, turn.after, turn.events, ctx.map, ctx.rules)


@pytest.fixture(scope="module")
def reports() -> list[tuple[Turn, PlayerKnowledge]]:
    return list(_reports())


def _source(turn: Turn, kind: str, ships: tuple[str, ...]) -> Event:
    return next(e for e in turn.events if e.kind == kind and set(ships) <= set(e.ships))


def test_rule_3_11_strength_at_battle_as_the_player_could_judge_it(reports) -> None:
    """3.11: "strength at battle as the player could judge it": the
    player's own side exactly, the enemy's rounded to the step of
    data/rules/intel.toml (the enemy's ships are seen, not their crews)."""
    checked = 0
    for turn, k in reports:
        for ev in (e for e in k.events if e.kind == "battle"):
            true_sides = _source(turn, "battle", ev.ships).data["sides"]
            ours = ev.data["our_side"]
            for i, side in enumerate(ev.data["sides"]):
                exact = true_sides[i]["strength"]
                expected = exact if i == ours else judged_strength(exact, STEP)
                assert side["strength"] == expected
                assert side.get("judged", False) is (i != ours)
                checked += 1
    assert checked > 0


def test_rule_3_11_damage_taken_by_the_players_ships(reports) -> None:
    """3.11: "damage taken": every detail for the player's own ships, for
    anyone else's only what is seen (outcome, close quarters)."""
    checked = 0
    for turn, k in reports:
        mine = set(own_ships(turn.after.players[k.player], turn.before)) | {r.id for r in k.ships}
        for ev in (e for e in k.events if e.kind == "battle"):
            engine = {s["id"]: s for s in _source(turn, "battle", ev.ships).data["ships"]}
            for entry in ev.data["ships"]:
                if entry["id"] in mine:
                    assert entry == engine[entry["id"]]
                    checked += 1
                else:
                    assert set(entry) <= set(SHIP_SEEN)
    assert checked > 0


def test_rule_3_11_no_dice_and_no_hidden_numbers_in_any_report(reports) -> None:
    """Rule 5 with 3.11: a report holds nothing the player's ships could not
    know: no die nor chance anywhere, no crew, damage or strength of anyone
    else's ships in the events they witnessed."""
    for _, k in reports:
        plain = canonical_json(to_plain(k))
        assert '"roll"' not in plain and '"chance"' not in plain
        own = {r.id for r in k.ships} | set(k.lost)
        for ev in k.events:
            if ev.kind in PUBLIC and not set(ev.ships) & own:
                assert not set(ev.data) & (SECRET - {"strength"}), (ev.kind, ev.data)
        json.loads(plain)


def test_rule_7_8_prizes_told_with_their_new_id(reports) -> None:
    """7.8: "the prize receives a new ship ID based on her new state": the
    loser hears which of their ships was taken, by whom, and her new id."""
    ctx = turn_context()
    checked = 0
    for turn, k in reports:
        lost = set(k.lost)
        for ev in (e for e in k.events if e.kind == "captured"):
            old = next(s for s in ev.ships if s not in (ev.data["prize"], ev.data["captor"]))
            if old not in lost:
                continue
            name = turn.before.ships[old].name
            flag = adjective(k, ev.data["state"])
            text = event_sentence(k, ev, ctx.map)
            assert text.startswith(f"{old} {name} was taken as a prize by the {flag} ({ev.data['captor']})")
            assert f"and is now {ev.data['prize']} (rule 7.8)." in text
            checked += 1
    assert checked > 0
