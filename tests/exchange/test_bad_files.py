"""A bad file is refused whole: every problem named by its path, bounded, and nothing written."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armies.models import Catalogue
from campaign.models import Campaign, LogEntry
from exchange import limits
from exchange.checks import ImportRefusedError, document_check
from exchange.importer import campaign_import
from exchange.reading import document_from_bytes
from exchange.spec import SECTIONS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _refusal(document: Any) -> ImportRefusedError:
    before = (Campaign.objects.count(), LogEntry.objects.count(), Catalogue.objects.count())
    with pytest.raises(ImportRefusedError) as caught:
        campaign_import(document=document, user=UserFactory())
    assert (Campaign.objects.count(), LogEntry.objects.count(), Catalogue.objects.count()) == before
    return caught.value


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        target = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


def _drop(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        target = document
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]

    return change


CASES = {
    "wrong version": (_set(("version",), 2), "version", "wrong-version"),
    "not an export": (_set(("format",), "something-else"), "format", "wrong-format"),
    "missing campaign key": (_drop(("campaign", "points_win")), "campaign.points_win", "missing"),
    "missing section": (_drop(("battles",)), "battles", "missing"),
    "section not a list": (_set(("reports",), {"a": 1}), "reports", "wrong-type"),
    "missing row key": (_drop(("battles", 0, "status")), "battles[0].status", "missing"),
    "wrong type": (_set(("battles", 0, "points_limit"), "many"), "battles[0].points_limit", "wrong-type"),
    "bool for a number": (_set(("enrolments", 0, "mercenary"), 1), "enrolments[0].mercenary", "wrong-type"),
    "unknown choice": (_set(("battles", 0, "status"), "won"), "battles[0].status", "out-of-bounds"),
    "too long": (_set(("campaign", "name"), "x" * 200), "campaign.name", "out-of-bounds"),
    "out of range": (_set(("rounds", 0, "number"), -1), "rounds[0].number", "out-of-bounds"),
    "naive datetime": (_set(("rounds", 0, "deadline"), "2026-01-01T10:00:00"), "rounds[0].deadline", "wrong-type"),
    "dangling reference": (_set(("battles", 0, "attacker"), 999_999), "battles[0].attacker", "dangling"),
    "dangling late reference": (_set(("battles", 0, "result_order"), 999_999), "battles[0].result_order", "dangling"),
    "null where required": (_set(("reports", 0, "battle"), None), "reports[0].battle", "missing"),
    "duplicate id": (lambda d: d["rounds"][1].update(id=d["rounds"][0]["id"]), "rounds[1].id", "duplicate"),
    "bad map": (_set(("campaign", "map_document", "sectors"), []), "campaign.map_document", None),
    "username not text": (_set(("log", 0, "actor"), 12), "log[0].actor", "wrong-type"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
def test_it_refuses_a_bad_file_naming_the_field(good: dict[str, Any], case: str) -> None:
    change, field, code = CASES[case]
    change(good)
    refusal = _refusal(good)
    fields = [problem.field for problem in refusal.problems]
    assert any(found.startswith(field) for found in fields), fields
    if code is not None:
        assert code in [problem.code for problem in refusal.problems if problem.field.startswith(field)]


def test_it_names_every_problem_of_a_file_at_once(good: dict[str, Any]) -> None:
    good["battles"][0]["points_limit"] = "many"
    good["reports"][0]["turns"] = None
    good["ledger"][0]["battle"] = 123_456
    refusal = _refusal(good)
    assert {p.field for p in refusal.problems} >= {
        "battles[0].points_limit",
        "reports[0].turns",
        "ledger[0].battle",
    }


def test_it_bounds_the_problems_it_names(good: dict[str, Any]) -> None:
    good["log"] = [dict(good["log"][0], id=n + 1, kind=7) for n in range(500)]
    refusal = _refusal(good)
    assert len(refusal.problems) == limits.MAX_PROBLEMS
    assert "more problem" in refusal.message


def test_it_refuses_an_oversize_list_before_reading_it(good: dict[str, Any]) -> None:
    rounds = next(s for s in SECTIONS if s.key == "rounds")
    good["rounds"] = [None] * (rounds.max_items + 1)
    refusal = _refusal(good)
    assert [(p.field, p.code) for p in refusal.problems] == [("rounds", "too-many")]


def test_it_refuses_campaign_settings_that_disagree_as_the_settings_page_would(good: dict[str, Any]) -> None:
    good["campaign"].update(points_win=1, points_draw=2, award_win=0, award_draw=3, strongpoint_cost=5,
                            bunker_cost=2)  # fmt: skip
    refusal = _refusal(good)
    assert [(p.field, p.code, p.message) for p in refusal.problems] == [
        ("campaign.points_win", "scores-order",
         "campaign.points_win: a win must score at least as much as a draw (win 1, draw 2)"),
        ("campaign.award_win", "awards-order",
         "campaign.award_win: a win must earn at least the resources a draw does (win 0, draw 3)"),
        ("campaign.bunker_cost", "costs-order",
         "campaign.bunker_cost: a bunker must cost at least as much as a strongpoint (bunker 2, strongpoint 5)"),
    ]  # fmt: skip


def test_it_refuses_campaign_settings_outside_the_bounds_the_settings_page_keeps(
    good: dict[str, Any],
) -> None:
    # Both fit their columns (small integers); the settings' own bounds are narrower.
    good["campaign"].update(points_loss=-11, max_open_challenges=11)
    refusal = _refusal(good)
    assert [(p.field, p.code) for p in refusal.problems] == [
        ("campaign.points_loss", "out-of-range"),
        ("campaign.max_open_challenges", "out-of-range"),
    ]


def test_it_refuses_what_the_database_refuses_and_writes_nothing(good: dict[str, Any]) -> None:
    # Two open rounds pass every check of the file's shape; the database's one-open-round rule refuses them.
    for row in good["rounds"]:
        row["status"] = "open"
    refusal = _refusal(good)
    assert refusal.problems[0].code == "import-conflict"


@pytest.mark.parametrize(
    "text", [b"not json", b"[1, 2]", b'{"format": "zverograd-campaign"}', b"\xff\xfe", b"NaN"]
)
def test_it_refuses_what_is_not_an_export(text: bytes) -> None:
    with pytest.raises(ImportRefusedError):
        document_check(document_from_bytes(text))


def test_the_worker_refuses_a_file_holding_too_many_values_before_parsing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("exchange.reading.MAX_JSON_VALUES", 3)
    document_from_bytes(b'{"log": [1, 2]}')  # a comma and two brackets: three
    with pytest.raises(ImportRefusedError) as caught:
        document_from_bytes(b'{"log": [1, 2, 3]}')
    assert [(p.field, p.code) for p in caught.value.problems] == [("file", "too-many-values")]


def test_it_refuses_a_file_over_the_bound() -> None:
    with pytest.raises(ImportRefusedError) as caught:
        document_from_bytes(b" " * (limits.MAX_FILE_BYTES + 1))
    assert caught.value.problems[0].code == "too-large"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    section=st.sampled_from(["enrolments", "rounds", "battles", "reports", "ledger", "log", "registrations"]),
    value=st.one_of(st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.text(max_size=5),
                    st.lists(st.integers(), max_size=2),
                    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2)),
    pick=st.integers(0, 1000),
)  # fmt: skip
def test_it_never_half_writes_whatever_a_key_holds(
    good: dict[str, Any], section: str, value: Any, pick: int
) -> None:
    """Any key of any row set to any JSON value: imported whole, or refused with named problems and no trace."""
    document = copy.deepcopy(good)
    row = document[section][pick % len(document[section])]
    key = sorted(row)[pick % len(row)]
    row[key] = value
    before = (Campaign.objects.count(), LogEntry.objects.count())
    made: Campaign | None = None
    problems: tuple[Any, ...] = ()
    try:
        made = campaign_import(document=document, user=UserFactory())
    except ImportRefusedError as refusal:
        problems = refusal.problems
    if made is None:
        assert problems
        assert all(p.code and p.message for p in problems)
        assert (Campaign.objects.count(), LogEntry.objects.count()) == before
    else:
        assert made.log.count() >= 1


def test_it_refuses_sectors_that_are_not_the_maps(good: dict[str, Any]) -> None:
    good["sectors"][0]["key"] = "nowhere"
    refusal = _refusal(good)
    assert ("sectors", "map-mismatch") in [(p.field, p.code) for p in refusal.problems]


def test_it_refuses_a_sector_entry_of_the_log_naming_no_sector(good: dict[str, Any]) -> None:
    index = next(n for n, row in enumerate(good["log"]) if row["kind"] == "sector-changed")
    good["log"][index]["subject"] = "sector:nowhere"
    refusal = _refusal(good)
    assert (f"log[{index}].subject", "dangling") in [(p.field, p.code) for p in refusal.problems]
