"""The create forms' checks (services/web/create_form.py): every error at once, each named by
its input, in plain words."""

from __future__ import annotations

from services.web import create_form


def test_a_bad_id_and_an_unknown_scenario_are_both_reported() -> None:
    errors, _ = create_form.check_create(
        {"new_id": "Not An Id", "scenario": "atlantis", "turn_hours": "x", "combat_rules": "eia-basic"}
    )
    assert set(errors) == {"new_id", "scenario", "turn_hours", "combat_rules"}
    assert errors["scenario"] == "Scenario: no scenario named 'atlantis'; choose one from the list"
    assert "is not a known rule set (pate, eia-advanced, eia-advanced-revolution)" in errors["combat_rules"]


def test_a_good_form_has_no_error_and_gives_the_solo_humans() -> None:
    errors, humans = create_form.check_create(
        {
            "new_id": "fine-1",
            "scenario": "training",
            "solo": "cornwallis, calder",
            "naval_rules": "eia-operations",
        }
    )
    assert errors == {} and humans == ["cornwallis", "calder"]
    errors, _ = create_form.check_create({"new_id": "fine-1", "scenario": "training", "solo": "nelson"})
    assert errors == {"solo": "Solo players: no player 'nelson' in the scenario training"}


def test_the_solo_seat_is_a_scenarios_player_with_a_state() -> None:
    assert create_form.check_solo({"new_id": "s", "seat": "trafalgar/nelson"})[0] == {}
    errors, _, _ = create_form.check_solo({"new_id": "s", "seat": "training/admin"})
    assert errors == {"seat": "Scenario and your seat: no player 'admin' of a state in the scenario training"}
    errors, _, _ = create_form.check_solo({"new_id": "", "seat": ""})
    assert set(errors) == {"new_id", "seat"}
    offered = {name: dict(seats) for name, seats in create_form.seat_choices()}
    assert all(not value.endswith("/admin") for seats in offered.values() for value in seats)


def test_each_solo_seat_names_its_side_role_and_ships() -> None:
    """A bare player id told a newcomer nothing: each seat says whose side it is, the role,
    and the ships it starts with (the scenario's public start, counted, a few named)."""
    training = dict(dict(create_form.seat_choices())["training"])
    assert (
        training["training/allemand"]
        == "allemand: French commander, 3 ships (Armide, Majestueux and Magnanime)"
    )
    assert training["training/cornwallis"] == (
        "cornwallis: British commander, 4 ships (Ville de Paris, Naiad, Mars and 1 more)"
    )
    assert training["training/barham"].startswith("barham: British naval minister, 3 ships (")
    assert training["training/barham"].endswith("; orders all 9 British ships")


def test_every_error_names_its_field_by_the_label_the_form_shows() -> None:
    """No internal input name ("new_id:", "turn_hours:", "admin_token:"): the label, in words."""
    errors, _ = create_form.check_create(
        {
            "new_id": "Bad Id",
            "scenario": "training",
            "first_deadline": "soon",
            "turn_hours": "0",
            "combat_rules": "x",
            "naval_rules": "y",
            "solo": "a b",
        }
    )
    assert errors == {
        "new_id": "Campaign id: 1 to 40 of a-z, 0-9 and -",
        "first_deadline": "First turn's deadline: give a date and time, YYYY-MM-DDTHH:MM (UTC)",
        "turn_hours": "Hours for each later turn: 1 to 720 hours",
        "combat_rules": "Combat rules: 'x' is not a known rule set"
        " (pate, eia-advanced, eia-advanced-revolution)",
        "naval_rules": "Naval rules: 'y' is not a known rule set (pate, eia-operations)",
        "solo": "Solo players: up to 8 player ids, separated by commas",
    }
    # the orders service's own field name gives way to the label of the input it is shown beside
    assert create_form.reworded("turn_hours", "turn_seconds: at most 2592000") == (
        "Hours for each later turn: at most 2592000"
    )
    assert create_form.reworded("new_id", "id: campaign 'x' already exists") == (
        "Campaign id: campaign 'x' already exists"
    )


def test_an_id_with_a_trailing_newline_is_no_id() -> None:
    """The ids are matched whole: "^...$" with re.match let "x\\n" through."""
    errors, _ = create_form.check_create({"new_id": "fine\n", "scenario": "training"})
    assert set(errors) == {"new_id"}
    assert not create_form.PLAYER_ID.fullmatch("calder\n") and create_form.PLAYER_ID.fullmatch("calder")
