"""terms_from_mapping: the one reader of terms for the API, the page and the command."""

from __future__ import annotations

from typing import Any

import pytest

from armies.validation import Terms, TermsError, limits, terms_from_mapping
from core.errors import DomainError


def fields_of(data: Any) -> dict[str, str]:
    with pytest.raises(TermsError) as caught:
        terms_from_mapping(data)
    return {problem.field: problem.code for problem in caught.value.problems}


def test_it_reads_every_term() -> None:
    terms = terms_from_mapping(
        {
            "points_limit": 200,
            "role": "defender",
            "granted_fortifications": ["bunker"],
            "fortification_purchases": ["strongpoint"],
            "rtz": False,
            "reserve_limit": 2,
            "catalogue_version": " 2026.1 ",
        }
    )

    assert terms == Terms(
        points_limit=200,
        role="defender",
        granted_fortifications=("bunker",),
        fortification_purchases=("strongpoint",),
        rtz=False,
        reserve_limit=2,
        catalogue_version="2026.1",
    )


@pytest.mark.parametrize(
    "data", [{}, dict.fromkeys(("points_limit", "role", "rtz", "granted_fortifications"))]
)
def test_it_leaves_missing_and_null_terms_unset(data: dict[str, Any]) -> None:
    assert terms_from_mapping(data) == Terms()


def test_it_tells_an_empty_offer_from_no_offer() -> None:
    assert terms_from_mapping({"fortification_purchases": []}).fortification_purchases == ()
    assert terms_from_mapping({}).fortification_purchases is None


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        (limits.POINTS_LIMIT_MIN, True),
        (limits.POINTS_LIMIT_MIN - 1, False),
        (limits.POINTS_LIMIT_MAX, True),
        (limits.POINTS_LIMIT_MAX + 1, False),
    ],
)
def test_it_bounds_the_points_limit(value: int, ok: bool) -> None:
    if ok:
        assert terms_from_mapping({"points_limit": value}).points_limit == value
    else:
        assert fields_of({"points_limit": value}) == {"points_limit": "out-of-range"}


@pytest.mark.parametrize(
    ("value", "ok"),
    [(0, True), (-1, False), (limits.RESERVE_LIMIT_MAX, True), (limits.RESERVE_LIMIT_MAX + 1, False)],
)
def test_it_bounds_the_reserve_limit(value: int, ok: bool) -> None:
    if ok:
        assert terms_from_mapping({"reserve_limit": value}).reserve_limit == value
    else:
        assert fields_of({"reserve_limit": value}) == {"reserve_limit": "out-of-range"}


def test_it_bounds_the_granted_fortifications() -> None:
    at_most = ["bunker"] * limits.MAX_GRANTED_FORTIFICATIONS
    assert terms_from_mapping({"granted_fortifications": at_most}).granted_fortifications == tuple(at_most)
    assert fields_of({"granted_fortifications": [*at_most, "strongpoint"]}) == {
        "granted_fortifications": "too-many"
    }


def test_it_bounds_the_catalogue_version() -> None:
    longest = "v" * limits.CATALOGUE_VERSION_MAX_LENGTH
    assert terms_from_mapping({"catalogue_version": longest}).catalogue_version == longest
    assert fields_of({"catalogue_version": longest + "v"}) == {"catalogue_version": "too-long"}
    assert fields_of({"catalogue_version": "  "}) == {"catalogue_version": "not-a-string"}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"points_limit": "200"}, {"points_limit": "not-an-integer"}),
        ({"points_limit": True}, {"points_limit": "not-an-integer"}),
        ({"points_limit": 200.5}, {"points_limit": "not-an-integer"}),
        ({"role": "referee"}, {"role": "unknown-choice"}),
        ({"rtz": "no"}, {"rtz": "not-a-boolean"}),
        ({"rtz": 0}, {"rtz": "not-a-boolean"}),
        ({"granted_fortifications": "bunker"}, {"granted_fortifications": "not-a-list"}),
        ({"granted_fortifications": ["bunker", "moat"]}, {"granted_fortifications[1]": "unknown-choice"}),
        ({"fortification_purchases": ["bunker", "bunker"]}, {"fortification_purchases[1]": "duplicate"}),
        (
            {"fortification_purchases": ["bunker", "strongpoint", "bunker"]},
            {"fortification_purchases": "too-many"},
        ),
        ({"catalogue_version": 3}, {"catalogue_version": "not-a-string"}),
        ({"point_limit": 200}, {"point_limit": "unknown-term"}),
    ],
)
def test_it_names_the_field_at_fault(data: dict[str, Any], expected: dict[str, str]) -> None:
    assert fields_of(data) == expected


def test_it_reports_every_field_at_fault_at_once() -> None:
    assert fields_of({"points_limit": 0, "role": "x", "rtz": "y"}) == {
        "points_limit": "out-of-range",
        "role": "unknown-choice",
        "rtz": "not-a-boolean",
    }


def test_it_refuses_what_is_not_an_object() -> None:
    assert fields_of(["points_limit", 200]) == {"": "not-an-object"}


def test_it_refuses_fortifications_for_an_attacker_under_rtz() -> None:
    data = {
        "role": "attacker",
        "granted_fortifications": ["bunker"],
        "fortification_purchases": ["strongpoint"],
    }

    assert fields_of(data) == {
        "granted_fortifications": "attacker-fortification",
        "fortification_purchases": "attacker-fortification",
    }
    # The rulebook leaves fortifications to the mission: the same terms are fine with RtZ off.
    assert terms_from_mapping({**data, "rtz": False}).granted_fortifications == ("bunker",)


def test_it_raises_a_domain_error_with_a_stable_code() -> None:
    with pytest.raises(DomainError) as caught:
        terms_from_mapping({"points_limit": 0})

    assert caught.value.code == "terms-invalid"
    assert caught.value.field == "points_limit"
    assert "1 to 10,000" in caught.value.message
    prefixed = caught.value.with_field_prefix("terms")
    assert prefixed.problems[0].field == "terms.points_limit"


def test_it_quotes_only_an_excerpt_of_a_huge_value() -> None:
    with pytest.raises(TermsError) as caught:
        terms_from_mapping({"role": "x" * 10_000})

    assert len(caught.value.message) < 200
