"""RuleSet: the per-call choice between the rulebook and the RtZ special rules."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.errors import EngineInputError
from rules.engine.ruleset import SWITCHES, RuleSet, switch_names

AGREED = (
    "unified_saves",
    "damage_resilient_rtz",
    "suppression_rtz",
    "initiative_rtz",
    "height_advantage_rtz",
    "structural_saves",
)


def test_it_keeps_the_agreed_switch_names_first() -> None:
    """The attacks engine depends on these six names (seed 002 and seed 000)."""
    assert switch_names()[: len(AGREED)] == AGREED


def test_it_builds_the_rulebook_with_every_switch_off() -> None:
    """Seed README: without RtZ rules on, the rulebook (004) applies."""
    ruleset = RuleSet.rulebook()
    assert ruleset.name == "rulebook"
    assert ruleset.enabled() == ()


def test_it_builds_rtz_with_every_switch_on() -> None:
    """Seed 002, introduction: the RtZ special rules are used together by default."""
    ruleset = RuleSet.rtz()
    assert ruleset.name == "rtz"
    assert ruleset.enabled() == switch_names()


def test_it_offers_switches_for_the_rtz_rules_of_seed_002() -> None:
    """Seed 002: scout, pass tokens, height and close combat, barbed wire, trenches."""
    for name in (
        "scout_rtz",
        "pass_tokens_rtz",
        "close_combat_height_rtz",
        "barbed_wire_rtz",
        "trenches_rtz",
    ):
        assert name in switch_names()


def test_it_turns_one_rtz_rule_off_by_override() -> None:
    """Seed 002, introduction: players may drop any of the special rules."""
    ruleset = RuleSet.rtz(scout_rtz=False)
    assert ruleset.scout_rtz is False
    assert ruleset.suppression_rtz is True


def test_it_rejects_an_unknown_override() -> None:
    """Stored campaign settings must only name real switches."""
    with pytest.raises(EngineInputError) as caught:
        RuleSet.rtz(no_such_rule=True)
    assert caught.value.field == "no_such_rule"


def test_it_rejects_a_non_bool_override() -> None:
    """A switch is on or off; 1 or "yes" is a data error."""
    with pytest.raises(EngineInputError) as caught:
        RuleSet.rtz(scout_rtz=1)  # type: ignore[arg-type]
    assert caught.value.field == "scout_rtz"


def test_it_describes_every_switch_for_organisers() -> None:
    """A campaign stores and displays every switch with a description."""
    assert set(SWITCHES) == set(switch_names())
    assert all(isinstance(text, str) and len(text) > 20 for text in SWITCHES.values())


def test_it_writes_every_switch_to_a_dict() -> None:
    """Seed 002: a stored rule set shows every rule, on or off."""
    data = RuleSet.rulebook().to_dict()
    assert data["name"] == "rulebook"
    assert set(data) == {"name", *switch_names()}


@given(st.sampled_from(["rulebook", "rtz"]), st.lists(st.booleans(), min_size=11, max_size=11))
def test_it_round_trips_through_a_dict(name: str, values: list[bool]) -> None:
    """Any rule set read back from its dict is the same rule set."""
    ruleset = RuleSet(name, **dict(zip(switch_names(), values, strict=False)))
    assert RuleSet.from_dict(ruleset.to_dict()) == ruleset


def test_it_starts_from_the_named_preset_when_reading_a_dict() -> None:
    """A partial stored dict means the named preset with those changes."""
    assert RuleSet.from_dict({"name": "rtz", "scout_rtz": False}) == RuleSet.rtz(scout_rtz=False)
    assert RuleSet.from_dict({"name": "rulebook"}) == RuleSet.rulebook()


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({}, "name"),
        ({"name": "house"}, "name"),
        ({"name": "rtz", "unknown": True}, "unknown"),
        ({"name": "rtz", "suppression_rtz": "yes"}, "suppression_rtz"),
        ({"name": "rulebook", "initiative_rtz": 0}, "initiative_rtz"),
    ],
)
def test_it_names_the_field_it_cannot_read(data: dict[str, object], field: str) -> None:
    """from_dict refuses bad stored settings and says which field is wrong."""
    with pytest.raises(EngineInputError) as caught:
        RuleSet.from_dict(data)
    assert caught.value.field == field


def test_it_cannot_be_changed_after_creation() -> None:
    """A rule set is chosen per call and must not change under a resolution."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        RuleSet.rtz().scout_rtz = False  # type: ignore[misc]


def test_it_formats_and_pickles_engine_input_errors() -> None:
    """EngineInputError carries field and reason, also across processes (Celery)."""
    error = EngineInputError("armour", "must be from 1 to 4")
    assert str(error) == "armour: must be from 1 to 4"
    assert isinstance(error, ValueError)
    copy = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own object
    assert (copy.field, copy.reason) == ("armour", "must be from 1 to 4")
