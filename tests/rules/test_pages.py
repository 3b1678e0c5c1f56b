"""The odds calculator page: public, htmx or plain forms, the API's numbers, errors next to their input."""

from __future__ import annotations

from typing import Any

import pytest

from armies.models import Catalogue
from rules.calculator import BuiltRequest, form_field
from rules.charts import percent
from rules.engine.ruleset import SWITCHES
from rules.presenters import log_groups, roll_outcome
from tests.rules.test_api import LASER_ON_TANK

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
BASE = {
    "ruleset": "rtz",
    **dict.fromkeys(SWITCHES, "on"),
    "action": "attack",
    "fortification": "none",
    "height": "level",
    "weather": "none",
    "aircraft_move": "none",
}


def picked(catalogue: Catalogue, attacker: str, target: str, **extra: Any) -> dict[str, Any]:
    """The form as a player leaves it after picking two units of the catalogue."""
    units = {unit.name: unit.pk for unit in catalogue.units.all()}
    return {
        **BASE,
        "catalogue": catalogue.pk,
        "attacker_source": "catalogue",
        "attacker_unit": units[attacker],
        "target_source": "catalogue",
        "target_unit": units[target],
        **extra,
    }


def typed(**extra: Any) -> dict[str, Any]:
    """The form with the weapon line and the target typed in."""
    return {
        **BASE,
        "attacker_source": "manual",
        "target_source": "manual",
        "m_name": "Laser cannon",
        "m_kind": "laser",
        "m_count": "1",
        "m_vehicle": "3/2",
        "t_class": "vehicle",
        "t_armour": "4",
        "t_models": "1",
        "t_damage": "5",
        **extra,
    }


def test_it_shows_the_calculator_to_anonymous_visitors(client, demo):
    response = client.get("/odds/")

    assert response.status_code == 200
    content = response.content.decode()
    assert 'id="odds-form"' in content
    assert "Zverograd Demo" in content
    assert "Grauwolf Rifle Squad" in content
    assert "Pick the attacking unit" in content


def test_without_any_catalogue_it_starts_with_typed_profiles(client, db):
    response = client.get("/odds/")

    assert response.status_code == 200
    assert response.context["form"]["attacker_source"].value() == "manual"


def test_it_answers_htmx_with_the_result_panel_only(client, demo):
    response = client.post("/odds/", picked(demo, "Grauwolf Rifle Squad", "Volga Rifle Squad"), **HTMX)

    content = response.content.decode()
    assert response.status_code == 200
    assert "chance to destroy" in content
    assert "<html" not in content
    assert 'id="err-m_ammo"' in content, "the error slots come along, out of band"
    assert content.count('class="chart"') == 4


def test_a_plain_get_form_works_without_javascript(client, demo):
    response = client.get("/odds/", picked(demo, "Grauwolf Rifle Squad", "Volga Rifle Squad"))

    content = response.content.decode()
    assert "<html" in content
    assert "chance to destroy" in content
    assert 'value="Grauwolf Rifle Squad' not in content
    assert "Brandt Light MG" in content
    assert content.count('class="chart-svg"') == 4


def test_the_pages_odds_are_the_apis_odds_for_the_same_request(client, api_client, demo):
    response = client.get(
        "/odds/", picked(demo, "Bärwolf", "Donnerkeil", action="sustained_attack", in_cover="on")
    )
    calc = response.context["calc"]

    api = api_client.post("/api/rules/attacks/odds/", calc.built.data, format="json")

    assert api.status_code == 200
    assert api.json() == calc.odds
    assert f">{percent(api.json()['p_destroyed'])}<" in response.content.decode()


def test_typed_in_lines_give_the_odds_the_api_gives_for_the_same_attack(client, api_client):
    form = typed(action="sustained_attack", in_cover="on", t_skills="damage_resilient")

    page = client.get("/odds/", form).context["calc"].odds
    api = api_client.post("/api/rules/attacks/odds/", LASER_ON_TANK, format="json").json()

    assert page == api


def test_bad_input_shows_the_referees_reason_next_to_the_input_and_keeps_what_was_typed(client):
    response = client.get("/odds/", typed(m_name="Rocket rack", m_kind="standard", m_traits="volley"))

    form = response.context["form"]
    content = response.content.decode()
    assert form.errors["m_ammo"] == ["a limited-ammo or volley weapon needs its unmarked ammo boxes"]
    slot = content.split('id="err-m_ammo"', 1)[1].split("</div>", 1)[0]
    assert "needs its unmarked ammo boxes" in slot
    assert 'value="Rocket rack"' in content
    assert 'value="3/2"' in content
    assert response.context["calc"].odds is None


def test_htmx_puts_the_error_in_the_inputs_slot(client):
    response = client.post("/odds/", typed(m_vehicle="x/2"), **HTMX)

    content = response.content.decode()
    slot = content.split('id="err-m_vehicle"', 1)[1].split("</div>", 1)[0]
    assert 'hx-swap-oob="true"' in slot
    assert "cannot read" in slot
    assert "chance to destroy" not in content


def test_a_condition_the_target_cannot_be_in_is_refused_next_to_it(client, demo):
    response = client.get("/odds/", picked(demo, "Longhorn", "Zubr", in_trench="on"))

    assert response.context["form"].errors["in_trench"] == ["only infantry can stay in a trench"]


def test_weather_asks_for_the_range(client, demo):
    response = client.get("/odds/", picked(demo, "Longhorn", "Volga Rifle Squad", weather="moderate"))

    assert "give the distance" in response.context["form"].errors["distance"][0]


def test_fighting_spirit_needs_a_firing_unit_when_typed_in(client):
    response = client.get("/odds/", typed(fighting_spirit="on"))

    assert response.context["form"].errors["m_attacker_class"]


def test_a_unit_with_fighting_spirit_can_spend_it(client, bsdata):
    response = client.get("/odds/", picked(bsdata, "Kurt", "Zombie Squad", fighting_spirit="on"))
    calc = response.context["calc"]

    assert calc.built.data["attack"]["fighting_spirit"] is True
    assert calc.odds is not None


def test_weapons_that_cannot_hit_the_target_are_left_out_with_a_note(client, demo):
    rifles = demo.units.get(name="Grauwolf Rifle Squad")
    form = picked(demo, "Grauwolf Rifle Squad", "Keiler", weapons_for=rifles.pk, w0_use="on", w1_use="on")
    form |= {"w0_count": "2", "w1_count": "3"}

    calc = client.get("/odds/", form).context["calc"]

    assert [w["name"] for w in calc.built.data["attack"]["weapons"]] == ["Brandt Light MG"]
    assert calc.built.notes == ("Kessler Carbine cannot fire at this target, so it is left out.",)


def test_the_weapon_rows_start_from_the_card_when_the_unit_changes(client, demo):
    other = demo.units.get(name="Longhorn")
    form = picked(demo, "Grauwolf Rifle Squad", "Volga Rifle Squad", weapons_for=other.pk, w0_count="9")

    form = client.get("/odds/", form).context["form"]

    assert form["w0_count"].value() == "2", "the Brandt Light MG card count"
    assert form["w0_use"].value() is True


def test_it_rolls_and_the_permalink_replays_the_same_dice(client, demo):
    first = client.get("/odds/", picked(demo, "Longhorn", "Medved", roll="1")).context["calc"]

    again = client.get("/odds/" + first.permalink).context["calc"]

    assert first.roll["log"], "every die is in the log"
    assert f"seed={first.roll['seed']}" in first.permalink
    assert again.roll == first.roll
    assert {group["weapon"] for group in first.roll_groups} >= {"Longhorn Cannon"}


def test_the_roll_answers_htmx_with_the_die_log(client, demo):
    response = client.get("/odds/roll/", picked(demo, "Longhorn", "Medved", seed="1947"), **HTMX)

    content = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="die-log"' in content
    assert ">1947<" in content
    assert "roll=1&amp;seed=1947" in content


def test_a_plain_visit_to_the_roll_goes_to_the_page(client, demo):
    response = client.get("/odds/roll/", {"target_source": "manual"})

    assert response.status_code == 302
    assert response.url.startswith("/odds/?")
    assert "roll=1" in response.url


def test_the_rulebook_turns_the_switches_the_player_leaves_off(client, demo):
    form = picked(demo, "Longhorn", "Medved", ruleset="rulebook")
    for name in SWITCHES:
        form.pop(name)

    odds = client.get("/odds/", form).context["calc"].odds

    assert odds["ruleset"] == {"name": "rulebook", **dict.fromkeys(SWITCHES, False)}


def test_a_calculation_reads_the_catalogue_in_three_queries(client, demo, django_assert_num_queries):
    form = picked(demo, "Longhorn", "Medved")

    # catalogues (with unit counts), the catalogue's units, the attacking and target units together
    with django_assert_num_queries(3):
        response = client.get("/odds/", form)

    assert response.context["calc"].odds is not None


@pytest.mark.parametrize(
    ("path", "source", "field"),
    [
        ("attack.weapons[0].ammo", "manual", "m_ammo"),
        ("attack.weapons[0].line.vehicle[2]", "manual", "m_vehicle"),
        ("attack.weapons[0].line", "manual", "m_vehicle"),
        ("attack.weapons[1].count", "catalogue", "w5_count"),
        ("attack.weapons[1].line", "catalogue", "w5_use"),
        ("attack.target.in_smoke", "catalogue", "in_smoke"),
        ("attack.target.armour", "catalogue", "target_unit"),
        ("attack.target.armour", "manual", "t_armour"),
        ("attack.target.structural_save", "manual", "fortification"),
        ("attack.conditions.distance", "catalogue", "distance"),
        ("attack.fighting_spirit", "catalogue", "fighting_spirit"),
        ("attack.attacker.armour", "manual", "m_attacker_armour"),
        ("ruleset.scout_rtz", "catalogue", "scout_rtz"),
        ("ruleset.name", "catalogue", "ruleset"),
        ("request", "catalogue", None),
    ],
)
def test_referee_error_paths_point_at_form_inputs(path, source, field):
    built = BuiltRequest(
        data={"attack": {"target": {"unit_class": "vehicle"}}},
        weapon_fields=("m",) if source == "manual" else ("w0", "w5"),
        attacker_source=source,
        target_source=source,
        models_left=False,
    )

    assert form_field(path, built) == field


def test_the_die_log_is_grouped_by_purpose_with_the_weapons_name():
    log = [
        {"purpose": "weapons[0] hit", "face": "BLOC", "success": True},
        {"purpose": "weapons[0] hit", "face": "SHIELD", "success": False},
        {"purpose": "weapons[0] cover save", "face": "SHIELD", "success": True},
        {"purpose": "critical hit check", "face": "TARGET", "success": False},
    ]

    groups = log_groups(log, [{"index": 0, "name": "Laser cannon"}])

    assert [(g["weapon"], g["what"], len(g["dice"]), g["successes"]) for g in groups] == [
        ("Laser cannon", "hit", 2, 1),
        ("Laser cannon", "cover save", 1, 1),
        ("", "critical hit check", 1, 0),
    ]


def test_the_roll_is_told_in_one_sentence():
    quiet = {"immune": False, "automatic": False, "hit": True, "close_combat": False}
    rolled = {
        "cheat_death": None, "destroyed": False, "models_removed": 2, "models_left": 3, "damage_removed": 2,
        "damage_taken": 0, "hits": 4, "suppression": quiet, "stunned": True, "grappled": False,
        "critical_hit": None, "ammo": [{"name": "Rockets", "ammo": 1, "loaded": None}], "retaliation": None,
    }  # fmt: skip

    headline, notes = roll_outcome(rolled, {"models": 5, "damage_per_model": 1})

    assert headline == "2 models removed, 3 left."
    assert notes == [
        "Hit by ranged fire: the target takes suppression.",
        "The target is stunned.",
        "Rockets: 1 ammo box left.",
    ]


def test_close_combat_shows_the_targets_strike_back_as_the_api_gives_it(client, api_client, demo):
    volga = demo.units.get(name="Volga Close Assault Squad")
    spades_only = {"weapons_for": volga.pk, "w1_use": "on", "w1_count": "5"}
    response = client.get("/odds/", picked(demo, volga.name, "Ironside Heavy Squad", **spades_only))
    calc = response.context["calc"]
    assert [weapon["name"] for weapon in calc.built.data["attack"]["weapons"]] == ["Entrenching Spade"]

    back = calc.odds["strike_back"]
    api = api_client.post("/api/rules/attacks/odds/", calc.built.data, format="json").json()

    assert api["strike_back"] == back
    assert back["order"] == "simultaneous"
    assert back["p_strikes_back"] == 1  # three Ironsides stand when they strike: nothing came before
    # They strike back with the gauntlets on their card, not improvised weapons.
    cc_weapons = calc.built.data["attack"]["target"]["cc_weapons"]
    assert [(weapon["name"], weapon["count"]) for weapon in cc_weapons] == [("Piston Gauntlet", 3)]
    page = response.content.decode()
    assert 'data-testid="strike-back"' in page
    assert f"<dd>{percent(back['p_destroyed'])}</dd>" in page
    assert "Your models lost" in page


def test_a_ranged_attack_has_no_strike_back_section(client, demo):
    response = client.get("/odds/", picked(demo, "Bärwolf", "Donnerkeil"))

    assert response.context["calc"].odds["strike_back"] is None
    assert 'data-testid="strike-back"' not in response.content.decode()
