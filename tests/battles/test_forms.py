"""The report form on its own: which counts it offers, its bounds, and where a service's problems land."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from battles.forms import ReportForm
from battles.judging import MAX_LOSSES, ReportError
from campaign.engine.missions import MISSIONS_BY_KEY
from campaign.models import Registration
from core.errors import FieldProblem

HOLD = MISSIONS_BY_KEY["hold-the-line"]  # one reserve placement a side


def snapshot(pk: int, *units: tuple[str, str, int, dict[str, bool]]) -> Registration:
    """An unsaved registered list: (entry id, unit name, paid AP, card flags) per entry."""
    return Registration(
        pk=pk, name=f"List {pk}", registered_at=datetime(2026, 11, 1, tzinfo=UTC),
        total_ap=sum(ap for _e, _n, ap, _f in units),
        profiles=[{"key": name.lower(), "name": name, **flags} for _e, name, _ap, flags in units],
        costs={"entries": [{"entry_id": e, "unit": name.lower(), "paid_ap": ap} for e, name, ap, _f in units]},
    )  # fmt: skip


ATTACKER = snapshot(1, ("e1", "Squad", 6, {}), ("e2", "Colonel", 9, {"hero": True}))
DEFENDER = snapshot(2, ("e1", "Flak tower", 18, {"strongpoint_unit": True}), ("e2", "Walker", 8, {}))


def make(data: dict[str, Any] | None = None, **kwargs: Any) -> ReportForm:
    return ReportForm(
        data, mission=HOLD, places={"attacker": "Karl", "defender": "Anna"},
        registrations={"attacker": [ATTACKER], "defender": [DEFENDER]}, modes=[("submit", "Report")], **kwargs,
    )  # fmt: skip


def posted(**changes: Any) -> dict[str, Any]:
    data = {"mode": "submit", "attacker_registration": "1", "defender_registration": "2", "fortification": "none",
            "turns": "6", "ending": "turn_limit", "attacker_scenario_vp": "0", "defender_scenario_vp": "0"}  # fmt: skip
    data.update({key: str(value) for key, value in changes.items()})
    return data


def test_it_offers_no_reserve_to_heroes_and_strongpoint_units_and_says_why():
    form = make()

    rows = {(part.side, row.entry.id): row for part in form.sides() for row in part.rows}

    assert "attacker_reserves_e1" in form.fields
    assert "attacker_reserves_e2" not in form.fields
    assert "defender_reserves_e1" not in form.fields
    assert rows[("attacker", "e2")].no_reserve_reason == "a hero: heroes never go to reserve"
    assert rows[("defender", "e1")].no_reserve_reason == "a strongpoint unit: it never goes to reserve"
    # A unit is lost at most once more than the mission's reserve placements bring it back.
    assert form.fields["attacker_lost_e1"].widget.attrs["max"] == HOLD.attacker_reserves + 1
    assert form.fields["attacker_reserves_e1"].widget.attrs["max"] == HOLD.attacker_reserves


def test_it_turns_counts_into_the_services_lists_an_entry_once_per_loss():
    form = make(posted(defender_lost_e2=2, defender_reserves_e2=1, attacker_scenario_vp=5))

    assert form.is_valid(), form.errors
    data = form.report_input()

    assert (data.defender.lost, data.defender.reserves, data.attacker.lost) == (("e2", "e2"), ("e2",), ())
    assert data.attacker.scenario_vp == 5
    assert form.totals()["attacker"] == {"ap_destroyed": 16, "scenario_vp": 5, "victory_points": 21}


def test_it_bounds_a_sides_losses_by_the_judges_limit():
    form = make(posted(defender_lost_e1=MAX_LOSSES, defender_lost_e2=1))

    assert not form.is_valid()
    assert form.side_errors["defender"] == [f"at most {MAX_LOSSES} lost a side, not {MAX_LOSSES + 1}"]


def test_it_puts_each_problem_of_the_service_by_the_input_it_names():
    form = make(posted(defender_lost_e2=2, attacker_lost_e1=1))
    assert form.is_valid()

    form.add_report_error(ReportError([
        FieldProblem("defender.lost[1]", "lost-too-often", "Walker is lost 2 times"),
        FieldProblem("attacker.reserves", "too-many-reserves", "one placement only"),
        FieldProblem("ending", "objective-not-completed", "nobody completed it"),
        FieldProblem("defender.scenario_vp", "out-of-range", "from 0 to 100"),
        FieldProblem("turn", "engine", "the engine's own complaint"),
    ]))  # fmt: skip

    assert form.errors["defender_lost_e2"] == ["Walker is lost 2 times"]
    assert form.side_errors["attacker"] == ["one placement only"]
    assert form.errors["ending"] == ["nobody completed it"]
    assert form.errors["defender_scenario_vp"] == ["from 0 to 100"]
    assert form.non_field_errors() == ["the engine's own complaint"]
    slots = dict(form.error_slots())
    assert slots["err-attacker-units"] == ["one placement only"]
    assert slots["err-turns"] == []


def test_an_amendment_starts_from_the_report_as_it_stands():
    form = make(initial={"attacker_registration": 1, "defender_registration": 2, "defender_lost_e2": 2,
                         "defender_reserves_e2": 1, "attacker_scenario_vp": 4})  # fmt: skip

    assert form["defender_lost_e2"].value() == 2
    assert form.totals()["attacker"] == {"ap_destroyed": 16, "scenario_vp": 4, "victory_points": 20}
