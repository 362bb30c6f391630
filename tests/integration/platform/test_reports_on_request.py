"""Reports rendered on first request: the stage stores the
knowledge only; text and HTML come from it alone, are kept, and are the same
bytes however many readers race for them first."""

from __future__ import annotations

from pathlib import Path

from pate.datafiles import load_scenario
from pate.engine.context import turn_context
from pate.engine.pipeline import all_knowledge, reports_for
from services.platform.store import repository as repo
from services.platform.store.db import make_engine, migrate, reader
from services.platform.store.tables import campaigns
from services.reports import rendering


def test_rendered_reports_are_kept_once_and_equal_eager_rendering(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'r.db'}")
    migrate(engine)
    world = load_scenario("training").world
    knowledge = all_knowledge(turn_context(), world, world, [])
    player = sorted(knowledge)[0]
    with engine.begin() as conn:
        conn.execute(
            campaigns.insert().values(
                id="c1", name="c1", scenario="training", seed=1, turns=3, turn=1, status="OPEN"
            )
        )
        repo.save_report(conn, "c1", 0, player, "json", knowledge[player])
    bodies = rendering.render(knowledge[player])
    rendering.keep(engine, "c1", 0, player, bodies)
    rendering.keep(engine, "c1", 0, player, {"text": "other", "html": "other"})  # a late racer
    with reader(engine) as conn:
        stored = {f: repo.load_report(conn, "c1", 0, player, f) for f in ("json", "text", "html")}
    assert stored == reports_for(turn_context(), knowledge[player])
