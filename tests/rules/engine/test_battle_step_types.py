"""The step reader over arbitrary JSON (issue 26): any value in any field of any kind of step, and inside
every list and mapping a field holds, is read or refused with a sentence naming the field, never a crash."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.battle.step_shapes import CONDITIONS, FIELDS, WEAPON_USE
from rules.engine.battle.steps import STEP_CODE, STEP_TYPES, step_from_dict
from rules.engine.errors import EngineInputError

JSON: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
# Every (kind, field) a step has, but the kind itself.
KIND_FIELDS = [(kind, item.name) for kind, cls in STEP_TYPES.items() for item in fields(cls)]


def _inside(name: str) -> st.SearchStrategy[Any]:
    """Values shaped like the field's own (a list of things, a mapping of its keys) with anything within."""
    if name == "weapons":
        assert WEAPON_USE.keys is not None
        return st.lists(
            st.dictionaries(st.sampled_from(sorted(WEAPON_USE.keys)), JSON, max_size=4), max_size=3
        )
    if name == "conditions":
        assert CONDITIONS.keys is not None
        return st.dictionaries(st.sampled_from(sorted(CONDITIONS.keys)), JSON, max_size=7)
    if name == "rider_hits":
        return st.lists(st.lists(JSON, max_size=3), max_size=3)
    return st.lists(JSON, max_size=4)


def read(step: dict[str, Any]) -> None:
    """Read ``step``: either it is a step, or the refusal has the step's code, a field and a sentence."""
    try:
        step_from_dict(step)
    except EngineInputError as exc:
        refused = exc
    else:
        return
    assert refused.code == STEP_CODE
    assert refused.field  # the API's
    assert refused.message[0].isalpha()  # the page's sentence


@pytest.mark.parametrize(("kind", "name"), KIND_FIELDS)
@settings(max_examples=30, deadline=None)
@given(value=JSON)
def test_any_json_in_any_field_is_read_or_refused_with_a_sentence(kind, name, value):
    read({"kind": kind, "by": "attacker", name: value})


@pytest.mark.parametrize(("kind", "name"), KIND_FIELDS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_any_json_inside_a_fields_lists_and_mappings_is_read_or_refused_with_a_sentence(kind, name, data):
    read({"kind": kind, "by": "attacker", name: data.draw(_inside(name))})


@pytest.mark.parametrize(
    ("step", "field", "words"),
    [
        ({"kind": "attack", "by": "attacker", "faces": [[]]}, "faces[0]", "die 1 of the faces of the dice"),
        ({"kind": "activate", "by": "attacker", "actions": [{}]}, "actions[0]", "action 1 of the actions"),
        ({"kind": "initiative", "by": "attacker", "attacker_faces": [[]]}, "attacker_faces[0]",
         "die 1 of the attacker's dice"),
        ({"kind": "attack", "by": "attacker", "weapons": [{"index": []}]}, "weapons[0].index",
         "the line number of weapon 1 of the weapons fired"),
        ({"kind": "attack", "by": "attacker", "conditions": {"height": {}}}, "conditions.height",
         "the height in the attack's conditions"),
        ({"kind": "allocate", "by": "attacker", "rider_hits": [[[1]]]}, "rider_hits[0][0]",
         "weapon line 1 of rider 1 of the hits each rider takes"),
        ({"kind": "first", "by": ["attacker"]}, "by", "the side making the step"),
    ],
)  # fmt: skip
def test_a_value_of_the_wrong_type_is_refused_naming_its_field_in_words(step, field, words):
    with pytest.raises(EngineInputError) as refused:
        step_from_dict(step)

    assert refused.value.field == field
    assert refused.value.message.startswith(f"{words[0].upper()}{words[1:]} must be ")
    assert refused.value.message.endswith(".")


def test_every_field_of_every_step_has_its_type_and_words():
    names = {item.name for cls in STEP_TYPES.values() for item in fields(cls)}

    assert names == set(FIELDS)
