"""A session's setup keeps every rider the engine holds: a pair of Siblings and a commissar on one squad."""

from __future__ import annotations

from typing import Any

import pytest

from battles.sessions.friendly import list_snapshot
from battles.sessions.setup import _links_the_engine_takes, snapshot_units
from rules.engine.battle import setup_from_dict
from tests.battles.session_play import army_with_riders
from tests.factories import UserFactory


def army(catalogue: Any, bloc: str, units: tuple[str, ...], joins: dict[str, str]) -> Any:
    return army_with_riders(UserFactory(), catalogue, bloc, units, joins)


@pytest.mark.django_db
def test_it_keeps_a_pair_of_siblings_and_a_hero_commissar_on_their_squads(demo_catalogue: Any) -> None:
    """Seed 004, Heroes (a Siblings pair joins one unit) and Commissar: the referee holds both."""
    raiders = army(
        demo_catalogue,
        "Allies",
        ("allies.gulfport-marine-squad", "allies.wren-calloway", "allies.jude-calloway"),
        {
            "allies.wren-calloway": "allies.gulfport-marine-squad",
            "allies.jude-calloway": "allies.gulfport-marine-squad",
        },
    )
    volga = army(
        demo_catalogue,
        "SSU",
        ("ssu.taiga-scout-squad", "ssu.commissar-yelena-orlova"),
        {"ssu.commissar-yelena-orlova": "ssu.taiga-scout-squad"},
    )
    attacker = snapshot_units("attacker", list_snapshot(raiders))
    defender = snapshot_units("defender", list_snapshot(volga))
    by_name = {unit["name"]: unit for unit in attacker + defender}
    assert by_name["Wren Calloway"]["siblings"]
    assert by_name["Jude Calloway"]["siblings"]
    assert by_name["Commissar Yelena Orlova"]["commissar"]
    assert by_name["Commissar Yelena Orlova"]["hero"]

    setup = setup_from_dict({
        "ruleset": {"name": "rtz"},
        "mission": {"name": "Meeting", "turn_limit": 6},
        "attacker": {"player": "Anna", "units": attacker},
        "defender": {"player": "Boris", "units": defender},
    })  # fmt: skip

    squads = {
        setup.unit(squad).name: [setup.unit(rider).name for rider in riders]
        for squad, riders in setup.riders.items()
    }
    assert squads == {
        "Gulfport Marine Squad": ["Wren Calloway", "Jude Calloway"],
        "Taiga Scout Squad": ["Commissar Yelena Orlova"],
    }


def unit(
    unit_id: str, *, hero: bool = False, commissar: bool = False, joined_to: str | None = None, **more: Any
) -> dict[str, Any]:
    return {
        "id": unit_id, "unit_class": "infantry", "armour": 2, "hero": hero, "commissar": commissar,
        "siblings": False, "joined_to": joined_to, "pilot_of": None, **more,
    }  # fmt: skip


COMMISSAR: dict[str, Any] = {"commissar": True, "joined_to": "sq"}


@pytest.mark.parametrize(
    ("units", "kept"),
    [
        # A pair of Siblings and a commissar: all three ride.
        (
            [unit("sq"), unit("h1", hero=True, siblings=True, joined_to="sq"),
             unit("h2", hero=True, siblings=True, joined_to="sq"), unit("c", commissar=True, joined_to="sq")],
            ["sq", "sq", "sq"],
        ),
        # Two heroes who are not Siblings: the later one in the list fights on its own.
        ([unit("sq"), unit("h1", hero=True, joined_to="sq"), unit("h2", hero=True, joined_to="sq")], ["sq", None]),
        # A second commissar on one squad.
        ([unit("sq"), unit("c1", **COMMISSAR), unit("c2", **COMMISSAR)], ["sq", None]),
        # Nobody beside a hero who is a commissar (Commissar Poon), whichever comes first.
        ([unit("sq"), unit("p", hero=True, **COMMISSAR), unit("h", hero=True, joined_to="sq")], ["sq", None]),
        ([unit("sq"), unit("c", **COMMISSAR), unit("p", hero=True, **COMMISSAR)], ["sq", None]),
        # A commissar of another armour; a squad joined to a squad.
        ([unit("sq"), unit("c", commissar=True, joined_to="sq", armour=3)], [None]),
        ([unit("sq"), unit("s2", joined_to="sq")], [None]),
    ],
)  # fmt: skip
def test_it_drops_only_the_links_the_engine_cannot_hold(
    units: list[dict[str, Any]], kept: list[str | None]
) -> None:
    """Ruling: a link the engine cannot hold leaves the later entry fighting on its own; what is kept sets up."""
    found = _links_the_engine_takes(units)
    assert [item["joined_to"] for item in found[1:]] == kept
    for item in found:
        item.update(name=item["id"], ap=5, models=5 if item["id"].startswith("s") else 1, damage_per_model=1)
    setup_from_dict({
        "ruleset": {"name": "rulebook"}, "mission": {"name": "Meeting", "turn_limit": 3},
        "attacker": {"player": "Anna", "units": found},
        "defender": {"player": "Boris", "units": [unit("d1", name="Rangers", ap=5, models=5, damage_per_model=1)]},
    })  # fmt: skip
