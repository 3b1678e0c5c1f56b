"""A battle's matchup sheet: asked for once, worked out by the worker's code, kept per pair of snapshots,
its progress shown; and who may see it, on the page and through the API.

The battle (tests/battles/conftest.py): x1 (Axis: a Grauwolf rifle squad and a Keiler) attacks a1 (Allies: a
Gulfport marine squad and a Prairie Dog), each with a registered list.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from armies.models import Unit
from battles.matchup_services import matchup_progress_key, matchup_run, matchup_start
from battles.models import MatchupSheet, MatchupStatus
from campaign.models import Campaign, Registration
from config.celery import app
from core.progress import progress_get, progress_set
from rules.catalogue import folded_weapon, unit_target, unit_weapons
from rules.engine import RuleSet, attack_odds, parse_attack_request
from tests.battles.conftest import ALLIED_UNITS, register

pytestmark = pytest.mark.django_db

PERSONAS = ("organiser", "attacker", "defender", "bystander", "stranger", "anonymous")


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """The tasks queued (not run: each test runs the worker's part itself)."""
    messages: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args: messages.append((name, tuple(args))))
    return messages


@pytest.fixture
def people(battle, organiser, place, stranger) -> dict[str, Any]:
    return {
        "organiser": organiser, "attacker": battle.attacker.player, "defender": battle.defender.player,
        "bystander": place("s1").player, "stranger": stranger, "anonymous": None,
    }  # fmt: skip


def api_url(battle: Any) -> str:
    return reverse("api:battle-matchup", args=[battle.campaign_id, battle.pk])


def page_url(battle: Any) -> str:
    return reverse("battles:matchup", args=[battle.campaign_id, battle.pk])


def client_for(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def worked_out(battle: Any, lists_of: dict[str, Registration]) -> MatchupSheet:
    battle.campaign.refresh_from_db()
    sheet, _ = matchup_start(
        battle=battle, attacker=lists_of["attacker"], defender=lists_of["defender"], actor=None
    )
    matchup_run(sheet_id=sheet.pk)
    sheet.refresh_from_db()
    return sheet


# --- asked for once, worked out once ----------------------------------------------------------------------


def test_it_queues_the_sheet_once_for_two_lists(
    battle, lists_of, people, sent, django_capture_on_commit_callbacks
):
    client = client_for(people["attacker"])

    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(api_url(battle), {}, content_type="application/json")
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(api_url(battle), {}, content_type="application/json")

    assert (first.status_code, again.status_code) == (202, 200)
    sheet = MatchupSheet.objects.get()
    assert sent == [("battles.tasks.matchup_sheet_run", (sheet.pk,))]
    assert first.json()["status"] == again.json()["status"] == "queued"
    assert first.json()["attacker_list"]["id"] == lists_of["attacker"].pk
    assert first.json()["sheet"] is None


def test_the_worker_stores_the_exact_engines_numbers_for_a_sampled_pair(battle, lists_of):
    sheet = worked_out(battle, lists_of)

    assert sheet.status == MatchupStatus.DONE
    assert progress_get(matchup_progress_key(sheet.pk)) is None  # the live progress is cleared once done
    result = sheet.result
    assert result["units"]["attacker"] == ["Grauwolf Rifle Squad", "Keiler"]
    assert result["units"]["defender"] == ["Gulfport Marine Squad", "Prairie Dog"]
    cell = result["firing"]["attacker"][0]["cells"][1]  # the rifle squad against the Prairie Dog
    catalogue = battle.campaign.catalogue
    squad = Unit.objects.get(catalogue=catalogue, key="axis.grauwolf-rifle-squad")
    walker = unit_target(Unit.objects.get(catalogue=catalogue, key=ALLIED_UNITS[1]))
    ruleset = RuleSet.from_dict(battle.campaign.ruleset)
    found = {}
    for weapon in unit_weapons(squad):
        if not weapon.can_target(walker["unit_class"], walker["armour"]):
            continue
        line = folded_weapon(dict(weapon.weapon, count=weapon.default_count), squad.model_count)
        for where, target in (("open", walker), ("cover", {**walker, "in_cover": True})):
            request = parse_attack_request({"weapons": [line], "target": target}, ruleset=ruleset)
            odds = attack_odds(request=request, ruleset=ruleset)
            found[(weapon.name, where)] = (float(odds.p_destroyed), float(odds.damage_removed.expected))
    best = max({name for name, _ in found}, key=lambda name: found[(name, "open")])
    assert cell["weapon"] == best
    assert (cell["open"]["p_destroyed"], cell["open"]["expected_damage"]) == found[(best, "open")]
    assert (cell["cover"]["p_destroyed"], cell["cover"]["expected_damage"]) == found[(best, "cover")]


def test_running_the_job_twice_works_the_sheet_out_once(battle, lists_of):
    sheet = worked_out(battle, lists_of)

    matchup_run(sheet_id=sheet.pk)

    again = MatchupSheet.objects.get(pk=sheet.pk)
    assert (again.attempts, again.finished_at, again.result) == (1, sheet.finished_at, sheet.result)


def test_a_new_registration_is_a_new_sheet_and_never_the_one_worked_out_before(
    battle, lists_of, people, sent, django_capture_on_commit_callbacks
):
    worked_out(battle, lists_of)
    newer = register(battle.defender, ALLIED_UNITS[:1], "Allies")
    client = client_for(people["defender"])

    seen = client.get(api_url(battle), {"defender_list": newer.pk}).json()
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(api_url(battle), {"defender_list": newer.pk}, content_type="application/json")
    old = client.get(api_url(battle), {"defender_list": lists_of["defender"].pk}).json()

    assert (seen["status"], seen["sheet"]) == ("not_started", None)
    assert asked.status_code == 202
    assert MatchupSheet.objects.count() == 2
    assert old["status"] == "done"
    assert old["sheet"]["units"]["defender"] == ["Gulfport Marine Squad", "Prairie Dog"]


def test_a_sheet_whose_message_was_lost_is_queued_again_when_asked(battle, lists_of, people, sent):
    sheet, _ = matchup_start(
        battle=battle, attacker=lists_of["attacker"], defender=lists_of["defender"], actor=None
    )
    MatchupSheet.objects.filter(pk=sheet.pk).update(created_at=timezone.now() - timedelta(minutes=5))

    fresh = client_for(people["organiser"]).post(api_url(battle), {}, content_type="application/json")
    matchup_run(sheet_id=sheet.pk)

    assert fresh.status_code == 202
    assert MatchupSheet.objects.get(pk=sheet.pk).status == MatchupStatus.DONE


def test_a_sheet_interrupted_too_often_fails_with_a_sentence(battle, lists_of, people):
    sheet, _ = matchup_start(
        battle=battle, attacker=lists_of["attacker"], defender=lists_of["defender"], actor=None
    )
    MatchupSheet.objects.filter(pk=sheet.pk).update(
        status=MatchupStatus.RUNNING, attempts=2, started_at=timezone.now() - timedelta(hours=1)
    )

    answer = client_for(people["attacker"]).post(api_url(battle), {}, content_type="application/json").json()

    assert answer["status"] == "failed"
    assert answer["problem"] == "The sheet was interrupted 2 times; nothing was worked out."


def test_a_list_too_big_for_a_sheet_is_refused_before_any_work(battle, lists_of):
    crowd = lists_of["defender"]
    entries = [dict(crowd.document["entries"][0], id=f"e{i}") for i in range(81)]
    Registration.objects.filter(pk=crowd.pk).update(document={**crowd.document, "entries": entries})

    sheet = worked_out(battle, lists_of)

    assert sheet.status == MatchupStatus.FAILED
    assert sheet.problem.startswith(
        "The sheet cannot be worked out: a matchup sheet compares at most 80 units"
    )
    assert sheet.result is None


def test_a_unit_whose_card_the_referee_cannot_read_is_left_out_and_named(battle, lists_of, people):
    odd = lists_of["defender"]
    profiles = [dict(card, armour=99) if card["key"] == ALLIED_UNITS[1] else card for card in odd.profiles]
    Registration.objects.filter(pk=odd.pk).update(profiles=profiles)

    sheet = worked_out(battle, lists_of)
    page = client_for(people["attacker"]).get(page_url(battle)).content.decode()

    assert sheet.status == MatchupStatus.DONE
    assert sheet.result["units"]["defender"] == ["Gulfport Marine Squad"]
    assert sheet.result["left_out"] == {"attacker": [], "defender": ["Prairie Dog"]}
    assert "(the referee cannot read their cards): Prairie Dog." in page


# --- progress, then the tables -------------------------------------------------------------------------------


def test_the_page_shows_the_workers_progress_and_polls_until_the_sheet_is_ready(battle, lists_of, people):
    sheet, _ = matchup_start(
        battle=battle, attacker=lists_of["attacker"], defender=lists_of["defender"], actor=None
    )
    MatchupSheet.objects.filter(pk=sheet.pk).update(status=MatchupStatus.RUNNING, started_at=timezone.now())
    progress_set(matchup_progress_key(sheet.pk), 40, "3 of 8 pairs of units worked out")
    client = client_for(people["attacker"])

    page = client.get(page_url(battle)).content.decode()
    polled = client.get(page_url(battle), headers={"HX-Request": "true"}).content.decode()
    api = client.get(api_url(battle)).json()

    assert 'value="40"' in page
    assert "3 of 8 pairs of units worked out" in page
    assert 'hx-trigger="every 1s"' in polled
    assert "<html" not in polled
    assert api["progress"] == {"percent": 40, "stage": "3 of 8 pairs of units worked out"}
    assert api["status"] == "running"


def test_the_page_offers_to_work_it_out_then_shows_the_tables_in_words(battle, lists_of, people, sent):
    client = client_for(people["defender"])
    before = client.get(page_url(battle)).content.decode()
    asked = client.post(page_url(battle))
    matchup_run(sheet_id=MatchupSheet.objects.get().pk)

    page = client.get(page_url(battle)).content.decode()

    assert "Work out the matchup sheet" in before
    assert asked.status_code == 302
    assert asked["Location"] == page_url(battle)
    assert "Work out the matchup sheet" not in page
    assert "every 1s" not in page  # done: no more polling
    # The defender's own units first, named; figures in words; a labelled, focusable scrolling region.
    x1 = battle.attacker.display_name
    assert page.index(f"Your units against {x1}&#x27;s") < page.index(f"{x1}&#x27;s units against yours")
    assert f'role="region" tabindex="0" aria-label="Your units against {x1}&#x27;s"' in page
    assert "<caption>" in page
    assert "Gulfport Marine Squad" in page
    assert "to destroy" in page
    assert "Open: " in page
    assert "Cover: " in page
    assert "%" in page


def test_the_battle_page_links_to_the_sheet_for_whoever_may_see_it(battle, lists_of, people):
    Campaign.objects.filter(pk=battle.campaign_id).update(is_public=True)
    battle_page = reverse("campaign:battle", args=[battle.campaign_id, battle.pk])

    shown = {persona: "Matchup sheet" in client_for(user).get(battle_page).content.decode()
             for persona, user in people.items()}  # fmt: skip

    assert shown == {**dict.fromkeys(PERSONAS[:5], True), "anonymous": False}


@pytest.mark.parametrize("bigger", [False, True], ids=["two units a side", "more units and lists"])
def test_the_page_its_poll_and_the_api_read_a_fixed_number_of_queries(
    battle, lists_of, people, bigger, django_assert_num_queries
):
    if bigger:
        lists_of = {
            "attacker": register(
                battle.attacker, ("axis.grauwolf-rifle-squad",) * 3 + ("axis.keiler",), "Axis"
            ),
            "defender": register(battle.defender, ALLIED_UNITS * 2, "Allies"),
        }
    worked_out(battle, lists_of)
    client = client_for(people["attacker"])
    client.get(page_url(battle))  # the session's first use

    # The campaign, the session, the user, whether they co-organise and their place (one query), the battle
    # with its sides, both sides' current lists (names only), the sheet by its key.
    for url, headers in (
        (page_url(battle), {}),
        (page_url(battle), {"HX-Request": "true"}),
        (api_url(battle), {}),
    ):
        with django_assert_num_queries(7):
            assert client.get(url, headers=headers).status_code == 200


# --- who may see it -------------------------------------------------------------------------------------------


def expected(persona: str, *, private: bool, ok: int) -> int:
    if persona == "anonymous" or (persona == "stranger" and private):
        return 404
    return ok


@pytest.mark.parametrize("private", [True, False], ids=["private", "public"])
@pytest.mark.parametrize("persona", PERSONAS)
def test_the_page_and_the_api_answer_each_person(battle, lists_of, people, sent, persona, private):
    Campaign.objects.filter(pk=battle.campaign_id).update(is_public=not private)
    client = client_for(people[persona])

    answers = (
        client.get(page_url(battle)).status_code,
        client.post(page_url(battle)).status_code,
        client.get(api_url(battle)).status_code,
        client.post(api_url(battle), {}, content_type="application/json").status_code,
    )

    assert answers == (
        expected(persona, private=private, ok=200),
        expected(persona, private=private, ok=302),
        expected(persona, private=private, ok=200),
        expected(persona, private=private, ok=200 if MatchupSheet.objects.count() > 0 else 202),
    )
    assert MatchupSheet.objects.count() == (0 if expected(persona, private=private, ok=1) == 404 else 1)


def test_the_api_refuses_a_list_that_is_not_the_sides(battle, lists_of, people):
    client = client_for(people["attacker"])

    wrong = client.get(api_url(battle), {"attacker_list": lists_of["defender"].pk})
    unknown = client.post(api_url(battle), {"colour": "red"}, content_type="application/json")

    assert (wrong.status_code, wrong.json()["code"]) == (400, "unknown-list")
    assert wrong.json()["errors"][0]["field"] == "attacker_list"
    assert unknown.status_code == 400


def test_the_api_says_when_a_side_has_no_list_yet(battle, people):
    answer = client_for(people["organiser"]).post(api_url(battle), {}, content_type="application/json")

    assert (answer.status_code, answer.json()["code"]) == (409, "no-registered-list")


# The sheet's operations: this file's permission tests cover them (tests/campaign/test_api_permissions.py
# checks that every campaign operation is covered by one matrix or another).
OPERATIONS = frozenset({"matchup_retrieve", "matchup_start"})


def test_the_schema_documents_both_operations(client):
    schema = json.loads(client.get(reverse("api:schema"), {"format": "json"}).content)

    operations = schema["paths"]["/api/campaigns/{id}/battles/{battle_id}/matchup/"]
    assert {operations["get"]["operationId"], operations["post"]["operationId"]} == OPERATIONS
