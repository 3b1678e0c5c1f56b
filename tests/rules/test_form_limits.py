"""The odds page refuses what the engine refuses, with the engine's limits, next to the input."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms

from rules.engine import requests as bounds
from rules.forms import OddsForm
from tests.rules.test_pages import typed

pytestmark = pytest.mark.django_db

# Each number input of the typed-in form, and the engine's bound it must read.
FIELDS = {
    "m_count": bounds.MAX_COUNT,
    "m_ammo": bounds.MAX_AMMO,
    "m_volley": bounds.MAX_AMMO,
    "t_models": bounds.MAX_MODELS,
    "t_damage": bounds.MAX_DAMAGE_PER_MODEL,
    "models_left": bounds.MAX_MODELS,
    "damage_taken": bounds.MAX_DAMAGE_PER_MODEL - 1,
    "distance": bounds.MAX_DISTANCE,
}
SQUAD_TARGET = {"t_class": "infantry", "t_armour": "2", "t_models": "1", "t_damage": "1"}


def page(client: Any, **fields: Any) -> Any:
    return client.get("/odds/", typed(**fields))


def test_every_number_input_is_bounded_by_the_engines_constant():
    form = OddsForm()
    for name, limit in FIELDS.items():
        field = form.fields[name]
        assert isinstance(field, forms.IntegerField)
        assert field.max_value == limit, name
    assert form.fields["m_name"].max_length == bounds.MAX_NAME_LENGTH


@pytest.mark.parametrize(
    ("field", "edge", "extra"),
    [
        ("m_count", bounds.MAX_COUNT, {"m_infantry": "1/1", **SQUAD_TARGET}),
        ("t_models", bounds.MAX_MODELS, {"m_infantry": "1/1", **SQUAD_TARGET}),
        ("t_damage", bounds.MAX_DAMAGE_PER_MODEL, {}),
        ("distance", bounds.MAX_DISTANCE, {}),
    ],
)
def test_a_number_at_its_bound_gets_the_odds_and_over_it_an_error_on_that_input(client, field, edge, extra):
    at_edge, over, absurd = (
        page(client, **{**extra, field: str(value)}) for value in (edge, edge + 1, 1_000_000)
    )

    assert at_edge.context["calc"].odds is not None, at_edge.context["form"].errors
    for response in (over, absurd):
        assert f"less than or equal to {edge}" in response.context["form"].errors[field][0]
        assert response.context["calc"].odds is None


def test_a_cell_over_the_bound_is_refused_next_to_the_class_it_was_typed_for(client):
    response = page(client, m_vehicle=f"{bounds.MAX_CELL_DICE + 1}/2")

    assert response.context["form"].errors["m_vehicle"] == [
        f"at most {bounds.MAX_CELL_DICE} dice in a cell, not {bounds.MAX_CELL_DICE + 1}"
    ]


def test_too_many_dice_for_exact_odds_are_refused_next_to_the_models_firing(client):
    response = page(client, m_kind="standard", m_infantry="40/1", m_count="4", **SQUAD_TARGET)

    error = response.context["form"].errors["m_count"][0]
    assert f"at most {bounds.MAX_ODDS_DICE}" in error
    assert "resolve" in error


def test_an_attack_too_big_to_work_out_is_refused_next_to_the_weapon_line(client):
    response = page(
        client, m_vehicle="20/16", t_class="vehicle", t_armour="1", t_damage="24", t_skills="damage_resilient"
    )

    assert "too big to work out exactly" in response.context["form"].errors["m_vehicle"][0]
