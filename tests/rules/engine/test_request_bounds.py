"""The bounds of an attack request: each at its edge, just over and absurdly over, and the cell grammar."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import EngineInputError, parse_attack_request
from rules.engine.requests import MAX_SEED, TOO_LARGE
from rules.engine.schema import cell_pattern, whole_number_pattern
from rules.referee import referee_odds, seed_from
from tests.rules.limit_cases import BOUNDS, Bound

from .attack_builders import RTZ

CASES = [pytest.param(bound, id=bound.name) for bound in BOUNDS]


def refusal(data: dict[str, object]) -> EngineInputError:
    with pytest.raises(EngineInputError) as caught:
        parse_attack_request(data["attack"], ruleset=RTZ)
    return caught.value


@pytest.mark.parametrize("bound", CASES)
def test_it_accepts_every_bound_at_its_edge(bound: Bound):
    parse_attack_request(bound.build(bound.edge)["attack"], ruleset=RTZ)


@pytest.mark.parametrize("bound", CASES)
@pytest.mark.parametrize("how_far", ["over", "absurd"])
def test_it_refuses_every_bound_just_over_and_absurdly_over_naming_the_field_and_the_limit(
    bound: Bound, how_far: str
):
    value = getattr(bound, how_far)

    error = refusal(bound.build(value))

    assert error.field == bound.refused_field(value)
    assert error.code == TOO_LARGE
    assert re.search(rf"\bat most {bound.stated_limit(value)}\b", error.message), error.message


def test_the_issues_requests_are_refused_before_any_work():
    """Finding 1: count 1,000,000, a line of 1000000/2 dice, damage_per_model 1,000,000."""
    weapon = {"name": "Gun", "line": {"infantry": "1/1"}}
    target = {"unit_class": "infantry", "armour": 2}
    requests = [
        {"weapons": [{**weapon, "count": 1_000_000}], "target": target},
        {"weapons": [{**weapon, "line": {"infantry": "1000000/2"}}], "target": target},
        {"weapons": [weapon], "target": {**target, "models": 1, "hero": True, "damage_per_model": 1_000_000}},
    ]
    for attack in requests:
        with pytest.raises(EngineInputError) as caught:
            referee_odds({"attack": attack})
        assert caught.value.code == TOO_LARGE


def test_a_seed_is_bounded_too():
    assert seed_from(MAX_SEED) == MAX_SEED
    for seed in (MAX_SEED + 1, 10**40):
        with pytest.raises(EngineInputError) as caught:
            seed_from(seed)
        assert (caught.value.field, caught.value.code) == ("seed", TOO_LARGE)
        assert str(MAX_SEED) in caught.value.message


def test_numbers_in_a_pattern_are_exactly_the_range():
    pattern = re.compile(whole_number_pattern(1, 16))
    accepted = {n for n in range(200) if pattern.fullmatch(str(n))}
    assert accepted == set(range(1, 17))
    assert pattern.fullmatch("0016")
    assert not pattern.fullmatch("0")
    assert not pattern.fullmatch("0000000001"), "ten digits: the parser reads at most nine"


# -- the cell grammar: the parser and the schema's pattern accept the same texts ---------


def _engine_accepts(text: str) -> bool:
    """A cell the whole request parser takes (the cell on infantry, the target a vehicle)."""
    attack = {
        "weapons": [{"name": "Gun", "line": {"infantry": text, "vehicle": "1/1"}}],
        "target": {"unit_class": "vehicle", "armour": 2},
    }
    try:
        parse_attack_request(attack, ruleset=RTZ)
    except EngineInputError as exc:
        refused = exc
    else:
        return True
    assert refused.field.startswith("weapons[0].line.infantry"), refused
    return False


def _schema_accepts(text: str) -> bool:
    from rules.engine.requests import MAX_CELL_LENGTH

    return len(text) <= MAX_CELL_LENGTH and re.fullmatch(cell_pattern().strip("^$"), text) is not None


CELL_ALPHABET = "0123456789Bb/AaKk[]DdEeTtHh -—x#\t٣"
CELL_TEXTS = st.one_of(
    st.text(alphabet=CELL_ALPHABET, max_size=20),
    st.from_regex(cell_pattern(), fullmatch=True),
    st.builds(
        lambda dice, damage, left, right: f"{dice}{left}/{right}{damage}",
        st.one_of(st.integers(-3, 99).map(str), st.integers(0, 7).map(lambda n: "B" * n)),
        st.one_of(st.integers(-3, 99).map(str), st.sampled_from(["AK", "ak", "[DEATH]", "[death]", "#"])),
        st.sampled_from(["", " ", "  "]),
        st.sampled_from(["", " "]),
    ),
)


@settings(max_examples=400, deadline=None)
@given(CELL_TEXTS)
def test_the_parser_and_the_schema_pattern_accept_the_same_cells(text: str):
    assert _engine_accepts(text) == _schema_accepts(text)


@pytest.mark.parametrize("text", ["3/1", "b/2", "BB / 1", " 2/ak ", "1/[death]", "040/016", "-", " — "])
def test_it_reads_cells_as_people_type_them(text: str):
    assert _engine_accepts(text)


@pytest.mark.parametrize("text", ["-0/1", "3/0", "٣/1", "3/1\t", "1 0/1", "B B/1", "0000000003/1"])
def test_it_refuses_cells_outside_the_grammar(text: str):
    assert not _engine_accepts(text)
