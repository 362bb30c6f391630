"""The view beside the truth (pate/reports/truth.py): against where every ship
really was, the player's picture of a turn shows what he saw, what he missed
and which of his sightings were stale, and whether those ships were still there."""

from __future__ import annotations

from dataclasses import replace

from intel_world import MAP, intel_events, rules, sea, ship, world

from pate.core.codec import parse_json
from pate.core.intel.knowledge import knowledge_for
from pate.reports.truth import MISSED, STALE, judge_picture, read_truth, truth_frame, truth_json

RULES = rules()


def _turn(ships, previous=(), *, turn=3):
    start = world(ships, turn=turn)
    end = replace(start, turn=turn + 1)
    k = knowledge_for(
        "villeneuve", start, end, intel_events(start, start, seed=3), MAP, RULES, previous=previous
    )
    return k, read_truth(parse_json(truth_json(end.ships.values())))


SEEN = [ship("FR3FL", sea("NOC", 1)), ship("BR2FL", sea("NOC", 1)), ship("BR4SL", sea("BAH", 2))]
LATER = [ship("FR3FL", sea("SOC", 3)), ship("BR2FL", sea("WCA", 2)), ship("BR4SL", sea("BAH", 2))]


def test_seen_missed_and_stale_against_the_truth() -> None:
    k, _ = _turn(SEEN)
    k, truth = _turn(LATER, k.picture, turn=4)
    j = judge_picture(k, truth, MAP)
    assert [t.id for t in j.missed] == ["BR2FL", "BR4SL"]  # BAH was never seen; BR2FL sailed off
    assert [(s.key, really) for s, really in j.stale] == [("BR2FL", "really in WCA")]
    assert [t.id for t in j.seen] == []
    assert all(t.state != "FR" for t in (*j.missed, *j.seen))  # his own side is not judged


def test_a_current_contact_is_seen_not_missed() -> None:
    k, truth = _turn(SEEN)
    j = judge_picture(k, truth, MAP)
    assert [t.id for t in j.seen] == ["BR2FL"] and [t.id for t in j.missed] == ["BR4SL"]
    assert j.stale == ()


def test_the_truth_frame_marks_missed_and_stale() -> None:
    k, _ = _turn(SEEN)
    k, truth = _turn(LATER, k.picture, turn=4)
    frame = truth_frame(k, truth, MAP)
    svg = "".join(svg for _, svg in frame.maps)
    assert MISSED in svg and STALE in svg and 'class="icon stale"' in svg
    assert (
        "stale",
        "BR2FL (British) at sea in NOC, last seen at turn 3, 1 turn ago, not seen since: really in WCA",
    ) in [(e.who, e.text) for e in frame.events]
