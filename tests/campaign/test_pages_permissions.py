"""Who gets what on every campaign page and page action: the permission matrix.

Six people ask every page and action of a private and of a public campaign:
its creator, a co-organiser, an admitted player, a pending applicant, a
logged-in stranger and an anonymous visitor. The answers:

- 200: the page; 302: done (or sent on, e.g. a player already in goes to the campaign page);
- 403: may see the campaign but not do this;
- 404: may not see the campaign (a private campaign never admits it exists);
- "login": sent to log in (the same for any id, so that says nothing either).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import resolve, reverse
from django.utils import timezone

from accounts.models import User
from armies.blocs import Bloc
from armies.models import ArmyList
from armies.services.army_lists import army_list_add_unit
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Campaign,
    Challenge,
    CoOrganiser,
    Enrolment,
    EnrolmentStatus,
    Registration,
    Round,
    RoundStatus,
    sides_recorded,
)
from campaign.options import Status
from campaign.services.economy import Holder, ledger_adjust
from campaign.services.map import campaign_map_load
from campaign.services.pairings import fronts, pairings_generate
from campaign.services.registrations import army_list_register
from campaign.urls import urlpatterns
from tests.campaign.engine.builders import crossroads
from tests.factories import (
    ArmyListFactory,
    CampaignFactory,
    CatalogueFactory,
    EnrolmentFactory,
    UnitFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

PERSONAS = ("creator", "co_organiser", "player", "applicant", "stranger", "anonymous")
LOGIN = "login"
Expected = dict[str, int | str]


@dataclass
class World:
    campaign: Campaign
    people: dict[str, User | None]
    target: Enrolment  # a pending request organisers decide on
    placeholder: Enrolment
    newcomer: User  # someone to add as a co-organiser
    player_place: Enrolment
    player_list: ArmyList  # a legal list of the player's, on the campaign's catalogue
    registration: Registration  # the player's list, registered once
    # In a running campaign only: a scheduled battle of round 1 (the player attacks alan), and alan's
    # challenge to the player, waiting.
    battle: Battle | None
    challenge: Challenge | None
    # In a running campaign only: bert, an Allies player free to be paired (with Misha, the Axis placeholder).
    bert: Enrolment | None = None
    # Set by an action's ``prepare``: the round's drafted battle, a challenge the player made.
    draft: Battle | None = None
    own_challenge: Challenge | None = None


def _seen(private: bool) -> Expected:
    """Pages anyone who may see the campaign gets."""
    hidden: int | str = 404 if private else 200
    return {
        "creator": 200,
        "co_organiser": 200,
        "player": 200,
        "applicant": 200,
        "stranger": hidden,
        "anonymous": hidden,
    }


def _organisers(ok: int, private: bool, *, co: int | None = None) -> Expected:
    """Organisers' pages and actions: ``ok`` for them, 403 for who sees but may not, 404 for who may not see."""
    return {
        "creator": ok,
        "co_organiser": ok if co is None else co,
        "player": 403,
        "applicant": 403,
        "stranger": 404 if private else 403,
        "anonymous": LOGIN,
    }


def _anyone_logged_in(ok: int) -> Expected:
    return {
        "creator": ok,
        "co_organiser": ok,
        "player": ok,
        "applicant": ok,
        "stranger": ok,
        "anonymous": LOGIN,
    }


def _join_page(ok: int, private: bool, *, invited: bool) -> Expected:
    # Those already in are sent to the campaign page; a stranger needs the invitation to a private one.
    stranger: int | str = 404 if private and not invited else ok
    return {
        "creator": ok,
        "co_organiser": ok,
        "player": 302,
        "applicant": 302,
        "stranger": stranger,
        "anonymous": LOGIN,
    }


def _register(private: bool) -> Expected:
    # Everyone posts the player's list for the player's place: only the player may. Organisers are
    # offered their placeholders only, so the place is not a choice of theirs (the form again, 200);
    # who has no place to register for may not (403); who may not see the campaign gets a 404.
    return {
        "creator": 200,
        "co_organiser": 200,
        "player": 302,
        "applicant": 403,
        "stranger": 404 if private else 403,
        "anonymous": 404 if private else LOGIN,
    }


def _players_only(ok: int, private: bool, *, applicant: int) -> Expected:
    return {
        "creator": 403,
        "co_organiser": 403,
        "player": ok,
        "applicant": applicant,
        "stranger": 404 if private else 403,
        "anonymous": LOGIN,
    }


@dataclass(frozen=True)
class Action:
    name: str
    method: str
    url: Callable[[World], str]
    expected: Callable[[bool], Expected]
    data: Callable[[World], dict[str, Any]] = lambda _w: {}
    status: str = Status.REGISTRATION
    # Puts the world in the state the action needs (a closed round to reopen, a draft to publish...).
    prepare: Callable[[World], None] | None = None


def _pk(name: str, *extra: Callable[[World], Any]) -> Callable[[World], str]:
    return lambda w: reverse(f"campaign:{name}", args=[w.campaign.pk, *(get(w) for get in extra)])


def _map_file(_w: World) -> dict[str, Any]:
    return {
        "document": SimpleUploadedFile(
            "crossroads.json", json.dumps(crossroads()).encode(), "application/json"
        )
    }


def _close_round(w: World) -> None:
    Round.objects.filter(campaign=w.campaign, number=1).update(
        status=RoundStatus.CLOSED, closed_at=timezone.now()
    )


def _front(w: World, attacker: Bloc, defender: Bloc) -> str:
    """A sector ``attacker``'s bloc may attack on ``defender``'s front now."""
    return fronts(campaign=w.campaign)[(attacker, defender)][0]


def _draft(w: World) -> None:
    """The round's draft: Misha (Axis) and bert (Allies) are the only players not already fighting."""
    creator = w.people["creator"]
    pairings_generate(round=Round.objects.get(campaign=w.campaign, number=1), actor=creator)
    w.draft = Battle.objects.get(campaign=w.campaign, status=BattleStatus.DRAFT)


def _free_the_player(w: World) -> None:
    """The player's scheduled battle is void, so they may challenge or accept a challenge."""
    Battle.objects.filter(pk=w.battle.pk).update(status=BattleStatus.VOID)


def _player_challenges_bert(w: World) -> None:
    _free_the_player(w)
    w.own_challenge = Challenge.objects.create(
        campaign=w.campaign, round=w.battle.round, challenger=w.player_place, challenged=w.bert,
        sector=w.campaign.sectors.get(key="old-town"), deadline=w.battle.round.deadline,
    )  # fmt: skip


def _fund_the_ssu(w: World) -> None:
    ledger_adjust(campaign=w.campaign, holder=Holder(bloc="SSU"), amount=10, reason="War chest",
                  actor=w.people["creator"])  # fmt: skip


def _in_days(days: int) -> str:
    return (timezone.localtime() + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M")


RUNNING = Status.RUNNING
ROUND_ACTIONS = [
    Action("rounds page", "get", _pk("rounds"), _seen, status=RUNNING),
    Action("round page", "get", _pk("round", lambda _w: 1), _seen, status=RUNNING),
    Action("round open", "post", _pk("round_open"), lambda p: _organisers(302, p), status=RUNNING,
           data=lambda _w: {"deadline": _in_days(5)}, prepare=_close_round),
    Action("round close page", "get", _pk("round_close", lambda _w: 1), lambda p: _organisers(200, p), status=RUNNING),
    Action("round close", "post", _pk("round_close", lambda _w: 1), lambda p: _organisers(302, p), status=RUNNING),
    Action("round reopen page", "get", _pk("round_reopen", lambda _w: 1), lambda p: _organisers(200, p),
           status=RUNNING, prepare=_close_round),
    Action("round reopen", "post", _pk("round_reopen", lambda _w: 1), lambda p: _organisers(302, p),
           status=RUNNING, data=lambda _w: {"reason": "Closed by mistake"}, prepare=_close_round),
    Action("pairings generate", "post", _pk("pairings_generate", lambda _w: 1), lambda p: _organisers(302, p),
           status=RUNNING),
    Action("pairings swap", "post", _pk("pairings_swap", lambda _w: 1), lambda p: _organisers(302, p),
           status=RUNNING, data=lambda w: {"swap-first": w.placeholder.pk, "swap-second": w.bert.pk},
           prepare=_draft),
    Action("battle sector", "post", _pk("battle_sector", lambda _w: 1, lambda w: w.draft.pk),
           lambda p: _organisers(302, p), status=RUNNING,
           data=lambda w: {f"sector-{w.draft.pk}-sector": "old-town"}, prepare=_draft),
    Action("battle schedule page", "get", _pk("battle_schedule", lambda _w: 1), lambda p: _organisers(200, p),
           status=RUNNING),
    Action("battle schedule", "post", _pk("battle_schedule", lambda _w: 1), lambda p: _organisers(302, p),
           status=RUNNING, data=lambda w: {"attacker": w.placeholder.pk, "defender": w.bert.pk,
                                           "sector": _front(w, Bloc.AXIS, Bloc.ALLIES)}),
    Action("pairings publish page", "get", _pk("pairings_publish", lambda _w: 1), lambda p: _organisers(200, p),
           status=RUNNING, prepare=_draft),
    Action("pairings publish", "post", _pk("pairings_publish", lambda _w: 1), lambda p: _organisers(302, p),
           status=RUNNING, prepare=_draft),
    Action("battle terms", "post", _pk("battle_terms", lambda w: w.battle.pk), lambda p: _organisers(302, p),
           status=RUNNING,
           data=lambda w: {f"terms-{w.battle.pk}-mission": "landing", f"terms-{w.battle.pk}-points_limit": 200}),
    Action("battle list check", "get",
           lambda w: _pk("battle", lambda w: w.battle.pk)(w) + f"?attacker-list={w.registration.pk}", _seen,
           status=RUNNING),
    Action("challenges page", "get", _pk("challenges"), _seen, status=RUNNING),
    Action("challenge issue", "post", _pk("challenge_issue"), lambda p: _players_only(302, p, applicant=403),
           status=RUNNING, prepare=_free_the_player,
           data=lambda w: {"challenge-challenged": w.bert.pk, "challenge-sector": "old-town"}),
    Action("challenge accept", "post", _pk("challenge_answer", lambda w: w.challenge.pk, lambda _w: "accept"),
           lambda p: _players_only(302, p, applicant=403), status=RUNNING, prepare=_free_the_player),
    Action("challenge decline", "post", _pk("challenge_answer", lambda w: w.challenge.pk, lambda _w: "decline"),
           lambda p: _players_only(302, p, applicant=403), status=RUNNING),
    Action("challenge withdraw", "post",
           _pk("challenge_answer", lambda w: w.own_challenge.pk, lambda _w: "withdraw"),
           lambda p: _players_only(302, p, applicant=403), status=RUNNING, prepare=_player_challenges_bert),
    Action("economy page", "get", _pk("economy"), _seen, status=RUNNING),
    Action("fortification buy", "post", _pk("fortification_buy"), lambda p: _players_only(302, p, applicant=403),
           status=RUNNING, prepare=_fund_the_ssu,
           data=lambda _w: {"buy-sector": "workers-settlement", "buy-kind": "strongpoint"}),
    Action("ledger adjust", "post", _pk("ledger_adjust"), lambda p: _organisers(302, p), status=RUNNING,
           data=lambda _w: {"adjust-holder": "bloc:Axis", "adjust-amount": 5, "adjust-reason": "Supply drop"}),
]  # fmt: skip


ACTIONS = [
    Action("list", "get", lambda _w: reverse("campaign:list"), lambda _p: dict.fromkeys(PERSONAS, 200)),
    Action("create page", "get", lambda _w: reverse("campaign:create"), lambda _p: _anyone_logged_in(200)),
    Action("create", "post", lambda _w: reverse("campaign:create"), lambda _p: _anyone_logged_in(302),
           data=lambda _w: {"name": "Winter offensive"}),
    Action("campaign page", "get", _pk("detail"), _seen),
    Action("timeline", "get", _pk("timeline"), _seen),
    Action("sector page", "get", _pk("sector", lambda _w: "airfield"), _seen),
    Action("sector edit", "post", _pk("sector", lambda _w: "zoo"), lambda p: _organisers(302, p),
           data=lambda _w: {"owner": "Axis", "fortification": "none", "value": 2, "terrain": "parkland",
                            "reason": "Taken in a raid"}),
    Action("settings page", "get", _pk("settings"), lambda p: _organisers(200, p)),
    Action("settings save", "post", _pk("settings"), lambda p: _organisers(302, p),
           data=lambda w: {"name": "Renamed", "points_limit": 200, "points_win": 3, "points_draw": 1,
                           "points_loss": 0, "resources_held_by": "bloc", "strongpoint_cost": 3,
                           "bunker_cost": 5, "income_base": 0, "unplayed_battles": "not_played",
                           "max_open_challenges": 1, "challenge_days": 3,
                           "report_confirm_hours": 72, "award_win": 1, "award_draw": 0,
                           "catalogue": w.campaign.catalogue_id, "tiebreaker_1": "vp_for"}),
    Action("dashboard", "get", _pk("dashboard"), lambda p: _organisers(200, p)),
    Action("dashboard's polled panel", "get", _pk("dashboard_waits"), lambda p: _organisers(200, p)),
    Action("map page", "get", _pk("map"), lambda p: _organisers(200, p)),
    Action("map default", "post", _pk("map_default"), lambda p: _organisers(302, p)),
    Action("map upload", "post", _pk("map_upload"), lambda p: _organisers(302, p), data=_map_file),
    Action("status page", "get", _pk("status", lambda _w: "start"), lambda p: _organisers(200, p)),
    Action("status start", "post", _pk("status", lambda _w: "start"), lambda p: _organisers(302, p)),
    Action("status finish", "post", _pk("status", lambda _w: "finish"), lambda p: _organisers(302, p),
           status=Status.RUNNING),
    Action("admit", "post", _pk("admit", lambda w: w.target.pk), lambda p: _organisers(302, p)),
    Action("refuse", "post", _pk("refuse", lambda w: w.target.pk), lambda p: _organisers(302, p),
           data=lambda w: {f"refuse-{w.target.pk}-reason": "The Axis is full"}),
    Action("invite regenerate", "post", _pk("invite_regenerate"), lambda p: _organisers(302, p)),
    Action("co-organiser add", "post", _pk("co_organiser_add"), lambda p: _organisers(302, p, co=403),
           data=lambda w: {"co-username": w.newcomer.username}),
    # The creator removes a co-organiser; the co-organiser may step down themselves.
    Action("co-organiser remove", "post", _pk("co_organiser_remove", lambda w: w.people["co_organiser"].pk),
           lambda p: _organisers(302, p)),
    Action("placeholder add", "post", _pk("placeholder_add"), lambda p: _organisers(302, p),
           data=lambda _w: {"placeholder-name": "Grisha", "placeholder-bloc": "SSU"}),
    Action("claim link", "post", _pk("claim_link", lambda w: w.placeholder.pk), lambda p: _organisers(302, p)),
    Action("join page", "get", _pk("join"), lambda p: _join_page(200, p, invited=False)),
    Action("join", "post", _pk("join"), lambda p: _join_page(302, p, invited=False), data=lambda _w: {"bloc": "Axis"}),
    Action("join page by invitation", "get", _pk("join_invite", lambda w: w.campaign.invite_token),
           lambda p: _join_page(200, p, invited=True)),
    Action("join by invitation", "post", _pk("join_invite", lambda w: w.campaign.invite_token),
           lambda p: _join_page(302, p, invited=True), data=lambda _w: {"bloc": "Axis"}),
    Action("withdraw", "post", _pk("withdraw"), lambda p: _players_only(302, p, applicant=302)),
    Action("leave page", "get", _pk("leave"), lambda p: _players_only(200, p, applicant=403), status=Status.RUNNING),
    Action("leave", "post", _pk("leave"), lambda p: _players_only(302, p, applicant=403), status=Status.RUNNING),
    Action("registered lists", "get", _pk("registrations"), _seen),
    Action("register a list", "post", _pk("registrations"), _register,
           data=lambda w: {"enrolment": w.player_place.pk, "army_list": w.player_list.pk}),
    Action("registration", "get", _pk("registration", lambda w: w.registration.pk), _seen),
    Action("battle", "get", _pk("battle", lambda w: w.battle.pk), _seen, status=Status.RUNNING),
    Action("challenge", "get", _pk("challenge", lambda w: w.challenge.pk), _seen, status=Status.RUNNING),
    Action("claim page", "get", lambda w: reverse("campaign:claim", args=[w.placeholder.claim_token]),
           lambda _p: _anyone_logged_in(200)),
    # Someone who already has a place is told so on the page (200) and nothing changes.
    Action("claim", "post", lambda w: reverse("campaign:claim", args=[w.placeholder.claim_token]),
           lambda _p: {**_anyone_logged_in(302), "player": 200, "applicant": 200}),
    *ROUND_ACTIONS,
]  # fmt: skip


def build_world(*, public: bool, status: str) -> World:
    creator = UserFactory(username="olga")
    campaign = CampaignFactory(organiser=creator, is_public=public, catalogue=CatalogueFactory())
    UnitFactory(catalogue=campaign.catalogue, key="ssu-squad", bloc=Bloc.SSU, ap=20)
    campaign_map_load(campaign=campaign, actor=creator)
    co = UserFactory(username="cora")
    CoOrganiser.objects.create(campaign=campaign, user=co, added_by=creator)
    player_place = EnrolmentFactory(campaign=campaign, player=UserFactory(username="pavel"), bloc=Bloc.SSU)
    player = player_place.player
    player_list = ArmyListFactory(owner=player, catalogue=campaign.catalogue, bloc=Bloc.SSU)
    army_list_add_unit(army_list=player_list, unit_key="ssu-squad")
    player_list.refresh_from_db()
    Campaign.objects.filter(pk=campaign.pk).update(status=Status.REGISTRATION)
    registration = army_list_register(enrolment=player_place, army_list=player_list, actor=player)
    alan = EnrolmentFactory(campaign=campaign, player=UserFactory(username="alan"), bloc=Bloc.ALLIES)
    applicant = EnrolmentFactory(
        campaign=campaign, player=UserFactory(username="anya"), bloc=Bloc.AXIS, status=EnrolmentStatus.PENDING
    ).player
    target = EnrolmentFactory(
        campaign=campaign,
        player=UserFactory(username="tomas"),
        bloc=Bloc.AXIS,
        status=EnrolmentStatus.PENDING,
    )
    placeholder = EnrolmentFactory(
        campaign=campaign,
        player=None,
        placeholder_name="Misha",
        bloc=Bloc.AXIS,
        claim_token="claim-me-please",
    )
    Campaign.objects.filter(pk=campaign.pk).update(status=status)
    campaign.refresh_from_db()
    people: dict[str, User | None] = {
        "creator": creator,
        "co_organiser": co,
        "player": player,
        "applicant": applicant,
        "stranger": UserFactory(username="sasha"),
        "anonymous": None,
    }
    battle = challenge = bert = None
    if status == Status.RUNNING:
        bert = EnrolmentFactory(campaign=campaign, player=UserFactory(username="bert"), bloc=Bloc.ALLIES)
        first = Round.objects.create(campaign=campaign, number=1, deadline=timezone.now() + timedelta(days=7))
        Campaign.objects.filter(pk=campaign.pk).update(current_round=1)
        campaign.refresh_from_db()
        zoo = campaign.sectors.get(key="zoo")
        battle = Battle.objects.create(
            campaign=campaign, round=first, sector=zoo, attacker=player_place, defender=alan, mission="breakthrough",
            **sides_recorded(attacker=player_place, defender=alan),
            points_limit=150, status=BattleStatus.SCHEDULED, source=BattleSource.PAIRING,
        )  # fmt: skip
        challenge = Challenge.objects.create(
            campaign=campaign, round=first, challenger=alan, challenged=player_place, sector=zoo,
            deadline=first.deadline,
        )  # fmt: skip
    return World(
        campaign, people, target, placeholder, UserFactory(username="newbie"), player_place, player_list,
        registration, battle, challenge, bert,
    )  # fmt: skip


CASES = [
    pytest.param(action, persona, private, id=f"{action.name}-{'private' if private else 'public'}-{persona}")
    for action in ACTIONS
    for private in (True, False)
    for persona in PERSONAS
]


@pytest.mark.parametrize(("action", "persona", "private"), CASES)
def test_it_answers_each_person_as_the_matrix_says(action: Action, persona: str, private: bool) -> None:
    world = build_world(public=not private, status=action.status)
    if action.prepare is not None:
        action.prepare(world)
    client = Client()
    user = world.people[persona]
    if user is not None:
        client.force_login(user)
    url = action.url(world)

    response = getattr(client, action.method)(url, action.data(world))

    expected = action.expected(private)[persona]
    if expected == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))
    else:
        assert response.status_code == expected
        if expected == 302:
            assert not response["Location"].startswith(reverse("accounts:login"))


def test_it_covers_every_page_and_action_of_the_campaign_urls():
    def names(actions: list[Action]) -> set[str | None]:
        # Each world is rolled back after use: worlds share usernames and claim tokens.
        with transaction.atomic():
            world = build_world(public=False, status=Status.RUNNING)
            for action in actions:
                if action.prepare is not None:
                    action.prepare(world)
            found = {resolve(action.url(world).split("?")[0]).url_name for action in actions}
            transaction.set_rollback(True)
        return found

    # Actions that need a state of their own (a draft battle's id in the URL) get a world of their own.
    covered = names([a for a in ACTIONS if a.prepare is None])
    for action in ACTIONS:
        if action.prepare is not None:
            covered |= names([action])

    assert covered == {pattern.name for pattern in urlpatterns}


@pytest.mark.parametrize("persona", ["creator", "stranger", "anonymous"])
@pytest.mark.parametrize(
    "path",
    ["/campaigns/{pk}/", "/campaigns/{pk}/settings/", "/campaigns/{pk}/dashboard/", "/campaigns/{pk}/join/"],
)
def test_it_answers_a_campaign_that_does_not_exist_as_a_private_one(client, persona, path):
    world = build_world(public=False, status=Status.REGISTRATION)
    user = world.people[persona]
    if user is not None:
        client.force_login(user)
    missing = Campaign.objects.order_by("-pk").first().pk + 100

    hidden = client.get(path.format(pk=world.campaign.pk))
    absent = client.get(path.format(pk=missing))

    if persona == "creator":
        assert (hidden.status_code, absent.status_code) == (200, 404)
    else:
        assert hidden.status_code == absent.status_code
        assert hidden.status_code in {302, 404}
