"""Property tests: any document the JSON Schema admits validates without crashing."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armies.validation import army_list_from_json, army_list_to_json, army_list_to_text, limits, validate
from armies.validation.listformat import army_list_schema

from .builders import BLOCS, FACTIONS, VERSION, catalogue, hero, legal_army, unit

# The standard units plus one holder of each joining skill, so random joins hit every rule.
CATALOGUE = catalogue(
    *(
        unit(f"{skill.lower()}-unit", skills={skill: None})
        for skill in ("Zombie", "Gorilla", "Flying", "Airborne")
    ),
    *(
        hero(f"{skill.lower()}-hero", skill_names=[skill])
        for skill in ("Zombie", "Gorilla", "Flying", "Loner")
    ),
    unit("superhuman", skills={"Superhumans": None}),
)
SCHEMA = army_list_schema()
SCHEMA_VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

# Draw most values from small pools so references collide and rules fire; keep
# some free text so odd keys, names and ids are covered as well.
ids = st.one_of(
    st.sampled_from(["e1", "e2", "e3", "e4", "p1", "f1", "x"]),
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,8}", fullmatch=True),
)
keys = st.text(min_size=1, max_size=12)
unit_keys = st.one_of(st.sampled_from([unit.key for unit in CATALOGUE.units]), keys)
chart_keys = st.one_of(st.sampled_from([chart.key for chart in CATALOGUE.platoon_charts]), keys)
slot_names = st.one_of(st.sampled_from(["command", "combat-1", "combat-2", "support"]), keys)


def optional(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), strategy)


entries = st.fixed_dictionaries(
    {
        "id": ids,
        "unit": unit_keys,
        "joined_to": optional(ids),
        "pilot_of": optional(ids),
        "captured": st.booleans(),
        "reserve": st.booleans(),
        "platoon": optional(ids),
        "slot": optional(slot_names),
    }
)
platoons = st.fixed_dictionaries(
    {"id": ids, "chart": chart_keys, "members": st.lists(ids, max_size=6, unique=True)}
)
fortifications = st.fixed_dictionaries(
    {"id": ids, "kind": st.sampled_from(["strongpoint", "bunker"]), "unit": optional(ids)}
)
documents = st.fixed_dictionaries(
    {
        "format": st.just("zverograd-army-list"),
        "version": st.just(1),
        "name": st.text(min_size=1, max_size=40),
        "bloc": st.one_of(st.sampled_from(BLOCS), keys),
        "faction": optional(st.one_of(st.sampled_from([f.key for f in FACTIONS]), keys)),
        "points_limit": st.integers(min_value=limits.POINTS_LIMIT_MIN, max_value=limits.POINTS_LIMIT_MAX),
        "catalogue_version": st.one_of(st.just(VERSION), keys),
        "role": st.sampled_from(["attacker", "defender", None]),
        "entries": st.lists(entries, max_size=14),
        "platoons": st.lists(platoons, max_size=3),
        "fortifications": st.lists(fortifications, max_size=3),
    }
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_it_never_crashes_on_a_document_the_schema_admits(document: dict[str, Any]) -> None:
    SCHEMA_VALIDATOR.validate(document)  # the generator must stay inside the schema
    army = army_list_from_json(document)
    verdict = validate(army, CATALOGUE)

    json.dumps(verdict.to_dict())
    assert army_list_to_text(army, CATALOGUE, verdict)
    assert army_list_to_json(army) == document
    totals = verdict.totals
    assert totals.paid_ap == totals.gross_ap - totals.bonus_used
    assert 0 <= totals.bonus_used <= totals.bonus_pool
    assert verdict.ok is all(p.severity == "warning" for p in verdict.problems)
    if totals.army_type == "faction":
        assert totals.faction_share is not None
        assert totals.faction_share >= Fraction(3, 4)


@settings(max_examples=100, deadline=None)
@given(st.permutations(list(legal_army().entries)))
def test_it_judges_a_list_the_same_whatever_the_entry_order(order: list[Any]) -> None:
    base = legal_army()
    shuffled = type(base)(**{**base.__dict__, "entries": tuple(order)})
    verdict = validate(shuffled, CATALOGUE)
    assert verdict.problems == ()
    assert verdict.totals.paid_ap == validate(base, CATALOGUE).totals.paid_ap
