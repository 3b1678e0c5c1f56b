"""A battle's setup from plain dicts, with its bounds; and the report it writes for the report flow."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from battles.api.shapes import ReportBody, SideInputBody
from battles.judging import Entry, ReportFacts, SideFacts, judge_report
from rules.engine.battle import report_from_state, setup_from_dict
from rules.engine.battle.setup import MAX_UNITS
from rules.engine.errors import EngineInputError

from .battle_builders import battle, hero, mixed_battle, random_battle, setup_of, squad, walker


def refused_field(data: dict[str, Any]) -> str:
    with pytest.raises(EngineInputError) as caught:
        setup_from_dict(data)
    return caught.value.field


def test_it_builds_the_two_forces_with_their_heroes_and_pilots() -> None:
    """Seed 004, Heroes and Piloting vehicles: a joined hero and a pilot belong to their host's group."""
    setup = setup_of(mixed_battle())
    assert setup.riders == {"a1": ("a2",), "d1": ("d2",)}
    assert setup.pilot == {"a3": "a4", "d3": "d4"}
    assert setup.mission.reserves == (2, 2)
    assert setup.unit("d5").base.armour == 3


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["mission"].update(turn_limit=0), "mission.turn_limit"),
        (lambda d: d["mission"].update(turn_limit=21), "mission.turn_limit"),
        (lambda d: d["mission"]["reserves"].update(attacker=11), "mission.reserves.attacker"),
        (lambda d: d["attacker"].update(units=[]), "attacker.units"),
        (
            lambda d: d["attacker"].update(units=[squad(f"a{i}", "S") for i in range(MAX_UNITS + 1)]),
            "attacker.units",
        ),
        (lambda d: d["attacker"]["units"][0].update(name="x" * 81), "attacker.units[0].name"),
        (lambda d: d["attacker"]["units"][0].update(ap=501), "attacker.units[0].ap"),
        (lambda d: d["attacker"]["units"][0].update(armour=9), "attacker.units[0].armour"),
        (lambda d: d["attacker"]["units"][0].update(surprise=True), "attacker.units[0].surprise"),
        (
            lambda d: d["attacker"]["units"][0].update(weapons=[{"name": "W", "line": {}}] * 11),
            "attacker.units[0].weapons",
        ),
        (lambda d: d["defender"]["units"][0].update(id="a1"), "units"),
        (
            lambda d: d["attacker"]["units"].append(squad("a9", "Thugs", joined_to="a1")),
            "attacker.a9.joined_to",
        ),
        (lambda d: d["attacker"]["units"].append(hero("a9", "Jo", joined_to="d1")), "attacker.a9.joined_to"),
        (
            lambda d: d["attacker"]["units"].append(hero("a9", "Jo", armour=3, joined_to="a1")),
            "attacker.a9.joined_to",
        ),
        (lambda d: d["attacker"]["units"].append(hero("a9", "Jo", pilot_of="a1")), "attacker.a9.pilot_of"),
        (
            lambda d: d["attacker"]["units"].append(walker("a9", "W", fortification="bunker")),
            "attacker.units[1].fortification",
        ),
    ],
)
def test_it_refuses_a_setup_beyond_its_bounds_or_the_rules_by_field(change: Any, field: str) -> None:
    """Every number, list and text of a setup is bounded; heroes join or pilot only as the rules allow."""
    data = copy.deepcopy(battle())
    change(data)
    assert refused_field(data) == field


def test_it_writes_the_report_in_the_report_forms_own_fields() -> None:
    """The report's fields are the names the report flow takes (``battles``' ReportBody)."""
    setup = setup_of(mixed_battle())
    _, states = random_battle(setup, 21)
    report = report_from_state(setup, states[-1])
    assert {"turns", "ending", "conceded_by"} <= set(ReportBody().fields)
    assert {"turns", "ending", "conceded_by", "attacker", "defender"} <= set(report)
    for side in ("attacker", "defender"):
        assert set(report[side]) == set(SideInputBody().fields)


@pytest.mark.django_db
@pytest.mark.parametrize(("seed", "riders"), [(1, False), (2, False), (3, False), (4, False), (5, False),
                                             (6, False), (3, True), (5, True), (6, True)])  # fmt: skip
def test_it_writes_a_report_the_judge_accepts_with_the_same_winner(seed: int, riders: bool) -> None:
    """A battle played to its end gives a report that adds up, judged as the battle ended; with riders too
    (seed 6: a commissar lost, back with his squad from reserve, and lost again)."""
    setup = setup_of(mixed_battle(rtz=seed % 2 == 0, riders=riders))
    _, states = random_battle(setup, seed, concede=seed == 3)
    final = states[-1]
    report = report_from_state(setup, final)
    entries = {
        side: [
            Entry(unit.entry, unit.name, unit.ap, unit.hero, unit.strongpoint_unit, unit.commissar)
            for unit in setup.side(side).units
        ]
        for side in ("attacker", "defender")
    }
    facts = ReportFacts(
        attacker=SideFacts(entries=entries["attacker"], **report["attacker"]),
        defender=SideFacts(entries=entries["defender"], **report["defender"]),
        turns=report["turns"],
        ending=report["ending"],
        conceded_by=report["conceded_by"],
    )
    judged = judge_report(
        facts, turn_limit=setup.mission.turn_limit, reserve_limits={"attacker": 2, "defender": 2}
    )
    assert (judged.winner, judged.draw) == (report["winner"], report["draw"])
    assert dict(judged.victory_points) == report["victory_points"]
