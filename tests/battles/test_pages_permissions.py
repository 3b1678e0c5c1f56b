"""Who gets what on every battle report page and action: the permission matrix.

Seven people ask every page and action of a private and of a public campaign:
its creator, a co-organiser, the battle's attacker and defender, an enrolled
player not in the battle, a logged-in stranger and an anonymous visitor. The
battle: x1 (Axis) attacks a1 (Allies), each with a registered list. The answers:

- 200: the page; 302: done (sent back to the battle's page, or to the battle session's);
- 400 or 409: a battle session's step or undo the rules refuse (someone who plays or corrects it);
- 403: may see the campaign but not do this;
- 404: may not see the campaign (a private campaign never admits it exists);
- "login": sent to log in (the same for any id, so that says nothing either).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import resolve, reverse

from battles.models import BattleReport
from battles.services import report_confirm, report_dispute, report_submit
from battles.sessions.models import BattleSession
from battles.sessions.services import session_start
from battles.urls import urlpatterns
from campaign.models import Battle, Campaign, CoOrganiser
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PERSONAS = ("creator", "co_organiser", "attacker", "defender", "player", "stranger", "anonymous")
ORGANISERS = ("creator", "co_organiser")
LOGIN = "login"
Expected = dict[str, int | str]


@dataclass
class World:
    campaign: Campaign
    battle: Battle
    people: dict[str, Any]
    form: Callable[..., dict[str, Any]]
    report_data: Callable[..., Any]


def _outsiders(private: bool, *, login: bool) -> Expected:
    return {
        "stranger": 404 if private else 403 if login else 200,
        "anonymous": LOGIN if login else 404 if private else 200,
    }


def seen(private: bool) -> Expected:
    """Pages anyone who may see the campaign gets."""
    return {**dict.fromkeys(PERSONAS[:5], 200), **_outsiders(private, login=False)}


def only(ok: int, who: tuple[str, ...]) -> Callable[[bool], Expected]:
    """An action for ``who`` (``ok``); 403 for the others who see the campaign; outsiders as ever."""

    def expected(private: bool) -> Expected:
        inside = {persona: ok if persona in who else 403 for persona in PERSONAS[:5]}
        return {**inside, **_outsiders(private, login=True)}

    return expected


def accounts_seeing(private: bool) -> Expected:
    """What any account that sees the campaign gets (the matchup sheet): 404 for everyone else."""
    return {**dict.fromkeys(PERSONAS[:5], 200), "stranger": 404 if private else 200, "anonymous": 404}


REPORTERS = (*ORGANISERS, "attacker", "defender")  # the sides report; organisers enter a result


def session_seen(private: bool) -> Expected:
    """A battle session (issue 20): its players and organisers; any account when the campaign is public."""
    outside = 404 if private else 200
    return {**dict.fromkeys(REPORTERS, 200), "player": outside, "stranger": outside, "anonymous": 404}


def session_acts(ok: int, who: tuple[str, ...], others: int) -> Callable[[bool], Expected]:
    """A session's write: ``ok`` for ``who``, ``others`` (the engine's refusal) for the rest of its players
    and organisers; spectators of a public campaign 403, outsiders of a private one 404."""

    def expected(private: bool) -> Expected:
        inside = {persona: ok if persona in who else others for persona in REPORTERS}
        outside = 404 if private else 403
        return {**inside, "player": outside, "stranger": outside, "anonymous": LOGIN}

    return expected


@dataclass(frozen=True)
class Action:
    name: str
    method: str
    url: str  # a URL name; "battle" is the battle's own page
    expected: Callable[[bool], Expected]
    data: Callable[[World, str], dict[str, Any]] = lambda _w, _p: {}
    prepare: Callable[[World], None] | None = None
    extra: tuple[str, ...] = ()


def _submit(w: World) -> None:
    report_submit(battle=w.battle, actor=w.people["attacker"], side="attacker", data=w.report_data())


def _dispute(w: World) -> None:
    _submit(w)
    report_dispute(report=BattleReport.objects.get(battle=w.battle), actor=w.people["defender"], reason="No")


def _confirm(w: World) -> None:
    _submit(w)
    report_confirm(report=BattleReport.objects.get(battle=w.battle), actor=w.people["defender"])


def _start_session(w: World) -> None:
    session_start(battle=w.battle, actor=w.people["attacker"])


def _initiative(_w: World, _persona: str) -> dict[str, Any]:
    return {"expected": 0, "step": json.dumps({"kind": "initiative", "by": "attacker"})}


def _report_form(w: World, persona: str) -> dict[str, Any]:
    # Organisers are offered one way to report a battle between two players: entering it, with a reason.
    if persona in ORGANISERS:
        return w.form(mode="enter", reason="Score sheet")
    return w.form()


ACTIONS = [
    Action("battles list", "get", "list", seen),
    Action("battle page with its report", "get", "battle", seen, prepare=_submit),
    Action("report form", "get", "report", only(200, REPORTERS)),
    Action("matchup sheet", "get", "matchup", accounts_seeing),
    Action("report submit", "post", "report", only(302, REPORTERS), data=_report_form),
    Action("report preview", "post", "preview", only(200, REPORTERS), data=_report_form),
    Action("confirm", "post", "confirm", only(302, ("defender",)), prepare=_submit),
    Action("dispute", "post", "dispute", only(302, ("defender",)), prepare=_submit,
           data=lambda _w, _p: {"dispute-reason": "The marines held out"}),
    Action("resolve: accept", "post", "resolve", only(302, ORGANISERS), prepare=_dispute, extra=("accepted",),
           data=lambda _w, _p: {"accepted-reason": "Photos agree", "accepted-seen": "disputed"}),
    Action("resolve: void a dispute", "post", "resolve", only(302, ORGANISERS), prepare=_dispute,
           extra=("voided",), data=lambda _w, _p: {"voided-reason": "Never played", "voided-seen": "disputed"}),
    Action("resolve: void a confirmed report", "post", "resolve", only(302, ORGANISERS), prepare=_confirm,
           extra=("voided",), data=lambda _w, _p: {"voided-reason": "Wrong lists", "voided-seen": "confirmed"}),
    Action("amend page", "get", "amend", only(200, ORGANISERS), prepare=_dispute),
    Action("amend a dispute", "post", "amend", only(302, ORGANISERS), prepare=_dispute,
           data=lambda w, _p: w.form(mode="amend", seen="disputed", reason="Recount")),
    Action("change a confirmed report", "post", "amend", only(302, ORGANISERS), prepare=_confirm,
           data=lambda w, _p: w.form(mode="amend", seen="confirmed", reason="Score sheet swapped",
                                     defender_lost_e1=0, attacker_lost_e1=1)),
    Action("session start", "post", "session-start", only(302, REPORTERS)),
    Action("session join page", "get", "session-join", lambda _p: {
        **dict.fromkeys(PERSONAS[:6], 200), "anonymous": LOGIN}),
    Action("friendly game page", "get", "session-friendly", lambda _p: {
        **dict.fromkeys(PERSONAS[:6], 200), "anonymous": LOGIN}),
    Action("session page", "get", "session", session_seen, prepare=_start_session),
    Action("session replay", "get", "session-replay", session_seen, prepare=_start_session),
    Action("session poll", "get", "session-poll", session_seen, prepare=_start_session,
           data=lambda _w, _p: {"tag": ""}),
    Action("session odds", "post", "session-odds", session_seen, prepare=_start_session, data=_initiative),
    Action("session step", "post", "session-step", session_acts(302, ("attacker",), 400),
           prepare=_start_session, data=_initiative),
    Action("session abandon", "post", "session-abandon", session_acts(302, REPORTERS, 302), prepare=_start_session,
           data=lambda _w, _p: {"confirm": "1"}),
    Action("session public", "post", "session-public", session_acts(302, REPORTERS, 302), prepare=_start_session,
           data=lambda _w, _p: {"public": "0"}),
    Action("session undo", "post", "session-undo", session_acts(409, (), 409), prepare=_start_session,
           data=lambda _w, _p: {"expected": 0}),
]  # fmt: skip


def url_of(action: Action, w: World) -> str:
    if action.url in ("session-join", "session-friendly"):
        return reverse(f"battles:{action.url}")
    if action.url.startswith("session") and action.url != "session-start":
        session = BattleSession.objects.get(battle=w.battle)
        return reverse(f"battles:{action.url}", args=[session.pk])
    if action.url == "list":
        return reverse("battles:list", args=[w.campaign.pk])
    namespace = "campaign" if action.url == "battle" else "battles"
    return reverse(f"{namespace}:{action.url}", args=[w.campaign.pk, w.battle.pk, *action.extra])


@pytest.fixture
def world(running_campaign, battle, lists_of, form_data, report_data, organiser, place, stranger) -> Any:
    def make(*, public: bool) -> World:
        Campaign.objects.filter(pk=running_campaign.pk).update(is_public=public)
        running_campaign.refresh_from_db()
        co = UserFactory(username="cora")
        CoOrganiser.objects.create(campaign=running_campaign, user=co, added_by=organiser)
        people = {
            "creator": organiser, "co_organiser": co, "attacker": battle.attacker.player,
            "defender": battle.defender.player, "player": place("s1").player, "stranger": stranger,
            "anonymous": None,
        }  # fmt: skip
        return World(running_campaign, battle, people, form_data, report_data)

    return make


CASES = [
    pytest.param(action, persona, private, id=f"{action.name}-{'private' if private else 'public'}-{persona}")
    for action in ACTIONS
    for private in (True, False)
    for persona in PERSONAS
]


@pytest.mark.parametrize(("action", "persona", "private"), CASES)
def test_it_answers_each_person_as_the_matrix_says(
    world, action: Action, persona: str, private: bool
) -> None:
    w = world(public=not private)
    if action.prepare is not None:
        action.prepare(w)
    client = Client()
    user = w.people[persona]
    if user is not None:
        client.force_login(user)

    response = getattr(client, action.method)(url_of(action, w), action.data(w, persona))

    expected = action.expected(private)[persona]
    if expected == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))
    else:
        assert response.status_code == expected, response.content.decode()[:2000]
        if expected == 302 and action.url.startswith("session"):
            session = BattleSession.objects.get(battle=w.battle)
            assert response["Location"] == reverse("battles:session", args=[session.pk])
        elif expected == 302:
            assert response["Location"] == reverse("campaign:battle", args=[w.campaign.pk, w.battle.pk])


def test_it_covers_every_page_and_action_of_the_battles_urls(world):
    with transaction.atomic():
        w = world(public=False)
        _start_session(w)
        covered = {resolve(url_of(action, w)).url_name for action in ACTIONS if action.url != "battle"}
        transaction.set_rollback(True)

    assert covered == {pattern.name for pattern in urlpatterns}


@pytest.mark.parametrize("private", [True, False], ids=["private", "public"])
def test_a_report_waiting_for_agreement_is_shown_to_the_organisers_and_its_two_players_only(world, private):
    w = world(public=not private)
    _submit(w)
    shown = {}
    for persona, user in w.people.items():
        client = Client()
        if user is not None:
            client.force_login(user)
        response = client.get(reverse("campaign:battle", args=[w.campaign.pk, w.battle.pk]))
        page = response.content.decode()
        shown[persona] = (
            "report" if 'data-testid="report-status"' in page
            else "hidden" if 'data-testid="report-hidden"' in page
            else response.status_code
        )  # fmt: skip

    outsiders = 404 if private else "hidden"
    assert shown == {"creator": "report", "co_organiser": "report", "attacker": "report", "defender": "report",
                     "player": "hidden", "stranger": outsiders, "anonymous": outsiders}  # fmt: skip


@pytest.mark.parametrize("persona", ["creator", "stranger", "anonymous"])
def test_a_hidden_battle_answers_as_one_that_does_not_exist(world, persona):
    w = world(public=False)
    user = w.people[persona]
    client = Client()
    if user is not None:
        client.force_login(user)
    missing = Battle.objects.order_by("-pk").first().pk + 100

    hidden = client.get(reverse("battles:report", args=[w.campaign.pk, w.battle.pk]))
    absent = client.get(reverse("battles:report", args=[w.campaign.pk, missing]))

    if persona == "creator":
        assert (hidden.status_code, absent.status_code) == (200, 404)
    else:
        # A stranger gets the same 404 for both; an anonymous visitor is sent to log in for both.
        assert hidden.status_code == absent.status_code
        assert hidden.status_code in {302, 404}
