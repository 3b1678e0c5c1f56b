"""Every list a request body may hold is refused past its bound before its items are read.

The test walks the published schema: every array in every request body must
state its ``maxItems``, and a body holding 100 times that many items, sent by a
user allowed to call the operation, must be answered with a 400 naming the
bound, quickly and briefly. Timing is normally kept out of unit tests; here it
is the point (the issue: 170,000 ids took 4.8 s and answered 27.5 MB), so the
limit is generous, counted in the test process's CPU time (the request runs in
it) rather than on the clock, which a busy machine stretches, and the slowest
answer is printed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.serializers.json import DjangoJSONEncoder
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from accounts.models import User
from armies.models import ArmyList
from battles.services import ReportInput, SideInput, report_submit
from campaign.models import Battle, BattleSource, BattleStatus, Campaign, sides_recorded
from campaign.services.rounds import round_open
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS, register
from tests.factories import ArmyListFactory, CampaignFactory

OVER = 100  # times the bound
MAX_SECONDS = 0.25  # of CPU: "well under 100 ms" on a quiet machine; generous for a busy CI
MAX_ANSWER_BYTES = 4096

_DOCUMENT = json.loads(
    json.dumps(SchemaGenerator().get_schema(request=None, public=True), cls=DjangoJSONEncoder)
)
_COMPONENTS: dict[str, Any] = _DOCUMENT["components"]["schemas"]


@dataclass(frozen=True)
class ListInBody:
    """One array of one operation's request body: where it lies (property names, ``[]`` for an item)."""

    method: str
    path: str
    operation: str
    media_type: str
    steps: tuple[str, ...]
    max_items: int | None
    item: Any

    def __str__(self) -> str:
        where = "".join(step if step == "[]" else f".{step}" for step in self.steps)
        return f"{self.operation}:{where.lstrip('.')}"


def _deref(node: Any) -> Any:
    seen = 0
    while isinstance(node, dict) and "$ref" in node:
        node = _COMPONENTS[node["$ref"].rsplit("/", 1)[-1]]
        seen += 1
        assert seen < 50, "a $ref cycle"
    return node


def _arrays(node: Any, steps: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    node = _deref(node)
    if not isinstance(node, dict):
        return
    if node.get("type") == "array" or "items" in node:
        yield steps, node
        yield from _arrays(node.get("items", {}), (*steps, "[]"))
    for name, sub in node.get("properties", {}).items():
        yield from _arrays(sub, (*steps, name))
    for key in ("allOf", "oneOf", "anyOf"):
        for sub in node.get(key, []):
            yield from _arrays(sub, steps)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        yield from _arrays(extra, (*steps, "*"))


def _lists_in_bodies() -> list[ListInBody]:
    found: dict[str, ListInBody] = {}
    for path, operations in _DOCUMENT["paths"].items():
        for method, operation in operations.items():
            for media_type, content in operation.get("requestBody", {}).get("content", {}).items():
                for steps, array in _arrays(content["schema"], ()):
                    item = ListInBody(
                        method, path, operation["operationId"], media_type, steps, array.get("maxItems"),
                        array.get("items", {}),
                    )  # fmt: skip
                    found.setdefault(str(item), item)
    return list(found.values())


LISTS = _lists_in_bodies()


def _item(schema: Any) -> Any:
    """The smallest item of that shape: the refusal must come before any item is looked at anyway."""
    schema = _deref(schema)
    if not isinstance(schema, dict):
        return "x"
    for key in ("oneOf", "anyOf", "allOf"):
        if schema.get(key):
            return _item(schema[key][0])
    if schema.get("enum"):
        return next(value for value in schema["enum"] if value is not None)
    kind = schema.get("type")
    if kind == "integer" or kind == "number":
        return max(1, schema.get("minimum", 1))
    if kind == "boolean":
        return True
    if kind == "array":
        return []
    if kind == "object" or "properties" in schema:
        return {}
    return "x"


def _nest(steps: tuple[str, ...], leaf: Any) -> Any:
    if not steps:
        return leaf
    inner = _nest(steps[1:], leaf)
    return [inner] if steps[0] == "[]" else {steps[0]: inner}


@dataclass
class World:
    organiser: User  # a superuser who organises both campaigns and owns a list
    attacker: User  # a player of the battle
    running: Campaign
    battle: Battle
    draft: Campaign
    army_list: ArmyList


@pytest.fixture
def world(running_campaign: Campaign, organiser: User, place: Any) -> World:
    User.objects.filter(pk=organiser.pk).update(is_staff=True, is_superuser=True)
    organiser.refresh_from_db()
    round_one = round_open(
        campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7)
    )
    battle = Battle.objects.create(
        campaign=running_campaign, round=round_one, sector=running_campaign.sectors.filter(owner="").first(),
        attacker=place("x1"), defender=place("a1"), **sides_recorded(attacker=place("x1"), defender=place("a1")),
        mission="hold-the-line", points_limit=150, status=BattleStatus.SCHEDULED, source=BattleSource.PAIRING,
    )  # fmt: skip
    attacker = battle.attacker.player
    assert attacker is not None
    report_submit(
        battle=battle, actor=attacker, side="attacker",
        data=ReportInput(
            attacker_registration=register(battle.attacker, AXIS_UNITS, "Axis"),
            defender_registration=register(battle.defender, ALLIED_UNITS, "Allies"),
            turns=6, ending="turn_limit", attacker=SideInput(), defender=SideInput(lost=("e1",)),
        ),
    )  # fmt: skip
    return World(
        organiser=organiser, attacker=attacker, running=running_campaign, battle=battle,
        draft=CampaignFactory(organiser=organiser, catalogue=running_campaign.catalogue),
        army_list=ArmyListFactory(owner=organiser, catalogue=running_campaign.catalogue),
    )  # fmt: skip


def _in_battle(world: World) -> dict[str, int]:
    return {"id": world.running.pk, "battle_id": world.battle.pk}


# Who calls each operation that takes a list, and its path's ids: someone allowed to, so the answer is
# about the body. An operation missing here fails the test: add it.
CALLERS: dict[str, tuple[str, Callable[[World], dict[str, int]]]] = {
    "army_lists_replace": ("organiser", lambda w: {"id": w.army_list.pk}),
    "army_lists_import": ("organiser", lambda w: {}),
    "army_list_validate": ("organiser", lambda w: {}),
    "campaigns_create": ("organiser", lambda w: {}),
    "campaigns_update": ("organiser", lambda w: {"id": w.draft.pk}),
    "map_load": ("organiser", lambda w: {"id": w.draft.pk}),
    "reports_submit": ("attacker", _in_battle),
    "reports_preview": ("attacker", _in_battle),
    "reports_enter": ("organiser", _in_battle),
    "reports_resolve": ("organiser", _in_battle),
    "catalogue_import_start": ("organiser", lambda w: {}),
    "platoon_chart_enter": ("organiser", lambda w: {"catalogue_id": w.running.catalogue_id or 0}),
    "platoon_charts_import": ("organiser", lambda w: {"catalogue_id": w.running.catalogue_id or 0}),
    "notifications_preferences_set": ("organiser", lambda w: {}),
    "notifications_read": ("organiser", lambda w: {}),
    "rules_attack_odds": ("organiser", lambda w: {}),
    "rules_attack_resolve": ("organiser", lambda w: {}),
}

# What else a body needs for its lists to be read at all (an operation answers other faults first).
BASES: dict[str, dict[str, Any]] = {
    "army_list_validate": {"list": {}},
}

_timings: list[tuple[float, str]] = []


@pytest.fixture(scope="module", autouse=True)
def _print_slowest(request: pytest.FixtureRequest) -> Iterator[None]:
    """Shown whether or not pytest captures output: the margin left under the bound."""
    yield
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if _timings and capture is not None:
        with capture.global_and_fixture_disabled():
            print(f"\nslowest refusals of a list {OVER} times its bound:")
            for seconds, name in sorted(_timings, reverse=True)[:5]:
                print(f"  {seconds * 1000:7.1f} ms  {name}")
    _timings.clear()


def test_it_finds_the_lists_of_the_request_bodies() -> None:
    names = {str(item) for item in LISTS}
    assert {
        "notifications_read:ids",
        "campaigns_create:tiebreakers",
        "map_load:sectors[].neighbours",
    } <= names


def test_every_list_in_a_request_body_states_its_bound() -> None:
    unbounded = [str(item) for item in LISTS if item.max_items is None]
    assert unbounded == []


@pytest.mark.parametrize("array", LISTS, ids=str)
def test_it_refuses_a_list_a_hundred_times_its_bound_before_reading_it(
    array: ListInBody, world: World
) -> None:
    assert array.max_items is not None, "the array states no maxItems"
    assert array.operation in CALLERS, f"say who calls {array.operation} and with which ids (CALLERS)"
    persona, ids = CALLERS[array.operation]
    client = APIClient()
    client.force_authenticate(getattr(world, persona))
    url = array.path.format(**ids(world))
    count = array.max_items * OVER
    if array.media_type == "multipart/form-data":
        files = [SimpleUploadedFile(f"part-{index}.json", b"{}") for index in range(count)]
        body, content_type = encode_multipart(BOUNDARY, {array.steps[0]: files}), MULTIPART_CONTENT
    else:
        lists = _nest(array.steps, [_item(array.item)] * count)
        body = json.dumps({**BASES.get(array.operation, {}), **lists}).encode()
        content_type = "application/json"

    started = time.process_time()
    response = client.generic(array.method.upper(), url, body, content_type)
    elapsed = time.process_time() - started
    _timings.append((elapsed, str(array)))

    answer = response.content.decode()
    assert response.status_code == 400, answer[:500]
    assert f"at most {array.max_items}" in answer or f"at most {array.max_items:,}" in answer, answer[:500]
    assert len(response.content) < MAX_ANSWER_BYTES, answer[:500]
    assert elapsed < MAX_SECONDS, f"{elapsed * 1000:.0f} ms"
