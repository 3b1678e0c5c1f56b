"""Challenges on the pages: issuing one over an attackable sector, answering, withdrawing, and every refusal."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import Battle, BattleStatus, Campaign, Challenge, ChallengeStatus, Enrolment, Round
from campaign.services.challenges import challenge_decline, challenge_issue
from campaign.services.rounds import round_open

pytestmark = pytest.mark.django_db

# On the default map the SSU holds the Tractor Works (its headquarters) and Workers' Settlement; it may
# attack every neutral sector and the Allies' Riverside next to the Settlement, and nothing of the Axis.
SSU_MAY_ATTACK = [
    "memorial-park", "old-town", "monastery-hill", "central-station", "zoo", "metro-depot", "brickworks",
    "hospital-quarter", "riverside",
]  # fmt: skip


def url(name: str, campaign: Campaign, *args: object) -> str:
    return reverse(f"campaign:{name}", args=[campaign.pk, *args])


@pytest.fixture
def round_one(running_campaign, organiser) -> Round:
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


def issue(client, campaign, challenged, sector: str, message: str = ""):
    return client.post(
        url("challenge_issue", campaign),
        {"challenge-challenged": challenged.pk, "challenge-sector": sector, "challenge-message": message},
    )


def test_the_form_offers_players_of_other_blocs_and_the_sectors_the_bloc_may_attack(
    client, running_campaign, round_one, place
):
    client.force_login(place("s1").player)

    response = client.get(url("challenges", running_campaign))

    form = response.context["form"]
    groups = dict(form.fields["challenged"].widget.choices[1:])
    assert sorted(groups) == ["Allies", "Axis"]
    assert sorted(pk for pk, _name in groups["Allies"] + groups["Axis"]) == sorted(
        place(name).pk for name in ("a1", "a2", "x1", "x2")
    )
    offered = [key for key, _name in form.fields["sector"].widget.choices if key]
    assert offered == SSU_MAY_ATTACK


def test_a_player_challenges_and_the_challenged_accepts(client, running_campaign, round_one, place):
    client.force_login(place("s1").player)

    response = issue(client, running_campaign, place("a1"), "zoo", "At the bear enclosure")

    challenge = Challenge.objects.get()
    assert response["Location"] == url("challenge", running_campaign, challenge.pk)
    assert (challenge.challenger, challenge.challenged, challenge.sector.key) == (
        place("s1"),
        place("a1"),
        "zoo",
    )
    own_page = client.get(url("challenge", running_campaign, challenge.pk)).content.decode()
    assert "Withdraw the challenge" in own_page
    assert "Accept" not in own_page
    client.force_login(place("a1").player)
    page = client.get(url("challenge", running_campaign, challenge.pk)).content.decode()
    assert "At the bear enclosure" in page
    assert "Accept: fight over The Zoo" in page
    assert "Withdraw" not in page

    accepted = client.post(url("challenge_answer", running_campaign, challenge.pk, "accept"))

    battle = Battle.objects.get()
    assert accepted["Location"] == url("battle", running_campaign, battle.pk)
    assert (battle.attacker, battle.defender, battle.status) == (
        place("s1"),
        place("a1"),
        BattleStatus.SCHEDULED,
    )
    listing = client.get(url("challenges", running_campaign)).content.decode()
    assert 'data-testid="past-challenges"' in listing
    assert "Accepted" in listing


@pytest.mark.parametrize(
    ("opponent", "sector", "field", "code"),
    [
        ("x1", "kolkhoz-fields", "sector", "sector-not-attackable"),  # the Axis's, not next to the SSU
        ("a1", "workers-settlement", "sector", "sector-not-attackable"),  # the SSU's own
        ("a1", "tractor-works", "sector", "sector-not-attackable"),  # a headquarters
        ("a1", "kolkhoz-fields", "sector", "sector-not-theirs"),  # the Axis's, and a1 is Allies
        ("s2", "zoo", "challenged", "same-bloc"),
    ],
)
def test_a_challenge_that_breaks_the_rules_is_refused_next_to_the_field_and_nothing_changes(
    client, running_campaign, round_one, place, opponent, sector, field, code
):
    client.force_login(place("s1").player)

    response = issue(client, running_campaign, place(opponent), sector)

    assert response.status_code == 200
    assert response.context["form"].has_error(field, code)
    assert not Challenge.objects.exists()


def test_more_open_challenges_than_the_campaign_allows_are_refused(
    client, running_campaign, round_one, place
):
    client.force_login(place("s1").player)
    issue(client, running_campaign, place("a1"), "zoo")

    response = issue(client, running_campaign, place("x1"), "old-town")

    assert response.context["form"].has_error("__all__", "too-many-challenges")
    assert Challenge.objects.count() == 1


def test_without_an_open_round_no_form_is_offered_and_a_forged_challenge_is_refused(
    client, running_campaign, place
):
    client.force_login(place("s1").player)

    page = client.get(url("challenges", running_campaign))
    forged = issue(client, running_campaign, place("a1"), "zoo")

    assert page.context["form"] is None
    assert b"No round is open" in page.content
    assert forged.context["form"].has_error("__all__", "no-open-round")
    assert not Challenge.objects.exists()


def test_the_challenged_declines_and_the_challenger_withdraws(client, running_campaign, round_one, place):
    first = challenge_issue(challenger=place("s1"), challenged=place("a1"), sector_key="zoo", actor=None)
    second = challenge_issue(
        challenger=place("x1"), challenged=place("s2"), sector_key="old-town", actor=None
    )
    client.force_login(place("a1").player)
    declined = client.post(url("challenge_answer", running_campaign, first.pk, "decline"))
    client.force_login(place("x1").player)
    withdrawn = client.post(url("challenge_answer", running_campaign, second.pk, "withdraw"))

    assert declined["Location"] == url("challenge", running_campaign, first.pk)
    assert withdrawn["Location"] == url("challenge", running_campaign, second.pk)
    assert sorted(Challenge.objects.values_list("status", flat=True)) == [
        ChallengeStatus.DECLINED, ChallengeStatus.WITHDRAWN,
    ]  # fmt: skip
    assert not Battle.objects.exists()


@pytest.mark.parametrize(
    ("who", "answer"),
    [("x1", "accept"), ("s1", "accept"), ("s1", "decline"), ("a1", "withdraw"), ("organiser", "accept")],
)
def test_only_the_challenged_answers_and_only_the_challenger_withdraws(
    client, running_campaign, round_one, place, organiser, who, answer
):
    challenge = challenge_issue(challenger=place("s1"), challenged=place("a1"), sector_key="zoo", actor=None)
    client.force_login(organiser if who == "organiser" else place(who).player)

    response = client.post(url("challenge_answer", running_campaign, challenge.pk, answer))

    assert response.status_code == 403
    challenge.refresh_from_db()
    assert challenge.status == ChallengeStatus.OPEN


def test_an_answer_to_a_challenge_already_answered_is_refused_with_why(
    client, running_campaign, round_one, place
):
    challenge = challenge_issue(challenger=place("s1"), challenged=place("a1"), sector_key="zoo", actor=None)
    challenge_decline(challenge=challenge, actor=None)
    client.force_login(place("a1").player)

    response = client.post(url("challenge_answer", running_campaign, challenge.pk, "accept"))

    assert response.status_code == 200
    assert response.context["error"].code == "challenge-answered"
    assert not Battle.objects.exists()


def test_an_unknown_answer_is_a_404(client, running_campaign, round_one, place):
    challenge = challenge_issue(challenger=place("s1"), challenged=place("a1"), sector_key="zoo", actor=None)
    client.force_login(place("a1").player)

    assert client.post(url("challenge_answer", running_campaign, challenge.pk, "ignore")).status_code == 404


def test_organisers_and_strangers_see_the_challenges_but_get_no_form(
    client, running_campaign, round_one, place, organiser, stranger
):
    challenge_issue(challenger=place("s1"), challenged=place("a1"), sector_key="zoo", actor=None)
    client.force_login(organiser)

    page = client.get(url("challenges", running_campaign))
    forged = issue(client, running_campaign, place("a1"), "zoo")

    assert page.context["form"] is None
    assert page.content.decode().count('data-testid="challenge-row"') == 1
    assert forged.status_code == 403
    client.force_login(stranger)
    assert client.get(url("challenges", running_campaign)).status_code == 404  # a private campaign


def test_an_organiser_answers_for_a_placeholder_who_has_no_account(
    client, running_campaign, round_one, place, organiser
):
    misha = Enrolment.objects.create(
        campaign=running_campaign, player=None, placeholder_name="Misha", bloc="Allies", status="admitted"
    )
    challenge = challenge_issue(challenger=place("s1"), challenged=misha, sector_key="zoo", actor=None)
    client.force_login(place("a1").player)
    refused = client.post(url("challenge_answer", running_campaign, challenge.pk, "accept"))
    client.force_login(organiser)
    page = client.get(url("challenge", running_campaign, challenge.pk)).content.decode()

    accepted = client.post(url("challenge_answer", running_campaign, challenge.pk, "accept"))

    assert refused.status_code == 403
    assert "Accept: fight over The Zoo" in page
    assert accepted.status_code == 302
    assert Battle.objects.get().defender == misha
