"""A campaign's life: states and their checks, settings and their locks, co-organisers, the invitation."""

from __future__ import annotations

import pytest

from armies.blocs import Bloc
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import Campaign, LogEntry, LogKind
from campaign.options import Status
from campaign.permissions import can_manage_campaign, is_organiser
from campaign.services import campaigns as services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_it_creates_a_draft_with_the_default_settings_and_logs_it(organiser):
    campaign = services.campaign_create(creator=organiser, name="  Winter offensive ")

    assert campaign.status == Status.DRAFT
    assert campaign.name == "Winter offensive"
    assert (campaign.points_win, campaign.points_draw, campaign.points_loss) == (3, 1, 0)
    assert campaign.ruleset == {"name": "rtz"}
    assert LogEntry.objects.filter(campaign=campaign, kind=LogKind.CAMPAIGN_CREATED).count() == 1


@pytest.mark.parametrize(
    ("changes", "field", "code"),
    [
        ({"name": ""}, "name", "required"),
        ({"name": "x" * 81}, "name", "too-long"),
        ({"points_limit": 0}, "points_limit", "out-of-range"),
        ({"points_limit": 10_001}, "points_limit", "out-of-range"),
        ({"points_win": 0, "points_draw": 1}, "points_win", "scores-order"),
        ({"points_draw": -1, "points_loss": 0}, "points_draw", "scores-order"),
        ({"points_win": -10, "points_draw": -10, "points_loss": -9}, "points_draw", "scores-order"),
        ({"award_win": 1, "award_draw": 2}, "award_win", "awards-order"),
        ({"award_draw": -1}, "award_draw", "out-of-range"),
        ({"tiebreakers": ["vp_for", "vp_for"]}, "tiebreakers", "duplicate"),
        ({"tiebreakers": ["coin_toss"]}, "tiebreakers[0]", "invalid-choice"),
        ({"ruleset": {"name": "rtz", "scout_rtz": "yes"}}, "ruleset.scout_rtz", "invalid-ruleset"),
        ({"bunker_cost": 1, "strongpoint_cost": 2}, "bunker_cost", "costs-order"),
        ({"colour": "red"}, "colour", "unknown-setting"),
    ],
)
def test_it_refuses_a_bad_setting_by_name_and_changes_nothing(campaign, organiser, changes, field, code):
    with pytest.raises(CampaignError) as caught:
        services.campaign_update(campaign=campaign, actor=organiser, changes=changes)

    assert (caught.value.field, caught.value.code) == (field, code)
    campaign.refresh_from_db()
    assert campaign.points_win == 3
    assert not LogEntry.objects.filter(kind=LogKind.SETTING_CHANGED).exists()


def test_it_accepts_settings_in_order_even_level_and_down_to_the_lowest_scores(campaign, organiser):
    changes = {"points_win": 0, "points_draw": -5, "points_loss": -10, "award_win": 2, "award_draw": 2,
               "strongpoint_cost": 4, "bunker_cost": 4}  # fmt: skip

    services.campaign_update(campaign=campaign, actor=organiser, changes=changes)

    campaign.refresh_from_db()
    assert {field: getattr(campaign, field) for field in changes} == changes


def test_it_checks_one_changed_setting_against_those_already_stored(campaign, organiser):
    assert (campaign.award_win, campaign.strongpoint_cost) == (1, 3)

    with pytest.raises(CampaignError) as awards:
        services.campaign_update(campaign=campaign, actor=organiser, changes={"award_draw": 2})
    with pytest.raises(CampaignError) as costs:
        services.campaign_update(campaign=campaign, actor=organiser, changes={"bunker_cost": 2})

    assert (awards.value.field, awards.value.code) == ("award_win", "awards-order")
    assert awards.value.message == "a win must earn at least the resources a draw does (win 1, draw 2)"
    assert (costs.value.field, costs.value.code) == ("bunker_cost", "costs-order")
    assert (
        costs.value.message
        == "a bunker must cost at least as much as a strongpoint (bunker 2, strongpoint 3)"
    )


def test_it_logs_each_changed_setting_with_before_and_after(campaign, organiser):
    services.campaign_update(
        campaign=campaign,
        actor=organiser,
        changes={"points_limit": 200, "name": campaign.name},
        reason="bigger games",
    )

    entry = LogEntry.objects.get(kind=LogKind.SETTING_CHANGED)
    assert (entry.field, entry.before, entry.after, entry.reason, entry.actor) == (
        "points_limit", 150, 200, "bigger games", organiser,
    )  # fmt: skip


def test_it_locks_the_settings_that_decide_results_once_running(open_campaign, organiser, make_player):
    make_player("a", Bloc.AXIS)
    make_player("b", Bloc.SSU)
    services.campaign_start(campaign=open_campaign, actor=organiser)

    with pytest.raises(CampaignConflictError) as caught:
        services.campaign_update(campaign=open_campaign, actor=organiser, changes={"points_win": 4})
    assert (caught.value.code, caught.value.field) == ("setting-locked", "points_win")

    # What does not change results still may.
    services.campaign_update(campaign=open_campaign, actor=organiser, changes={"points_limit": 250})
    open_campaign.refresh_from_db()
    assert open_campaign.points_limit == 250


def test_it_opens_registration_only_with_a_catalogue_and_a_map(campaign, organiser):
    with pytest.raises(CampaignError) as caught:
        services.campaign_open_registration(campaign=campaign, actor=organiser)

    assert caught.value.code == "catalogue-missing"
    assert Campaign.objects.get(pk=campaign.pk).status == Status.DRAFT


def test_it_starts_only_when_two_blocs_have_players(open_campaign, organiser, make_player):
    make_player("a", Bloc.AXIS)
    make_player("b", Bloc.AXIS)
    with pytest.raises(CampaignError) as caught:
        services.campaign_start(campaign=open_campaign, actor=organiser)
    assert caught.value.code == "too-few-blocs"
    assert "Axis" in caught.value.message

    make_player("c", Bloc.ALLIES)
    started = services.campaign_start(campaign=open_campaign, actor=organiser)
    assert started.status == Status.RUNNING
    assert started.started_at is not None


def test_it_counts_only_admitted_players_towards_starting(open_campaign, organiser, make_player):
    make_player("a", Bloc.AXIS)
    make_player("b", Bloc.SSU, status="pending")

    with pytest.raises(CampaignError):
        services.campaign_start(campaign=open_campaign, actor=organiser)


def test_it_refuses_a_transition_from_the_wrong_state_with_a_conflict(campaign, organiser):
    with pytest.raises(CampaignConflictError) as caught:
        services.campaign_finish(campaign=campaign, actor=organiser)

    assert caught.value.code == "wrong-status"


def test_a_finished_campaign_is_read_only(open_campaign, organiser, make_player):
    make_player("a", Bloc.AXIS)
    make_player("b", Bloc.SSU)
    services.campaign_start(campaign=open_campaign, actor=organiser)
    services.campaign_finish(campaign=open_campaign, actor=organiser)

    with pytest.raises(CampaignConflictError) as caught:
        services.campaign_update(campaign=open_campaign, actor=organiser, changes={"description": "x"})
    assert caught.value.code == "campaign-finished"


def test_the_creator_adds_a_co_organiser_who_then_manages(campaign, organiser):
    helper = UserFactory(username="helper")
    assert not can_manage_campaign(helper, campaign)

    services.co_organiser_add(campaign=campaign, actor=organiser, user=helper)

    assert is_organiser(helper, campaign)
    with pytest.raises(CampaignConflictError):
        services.co_organiser_add(campaign=campaign, actor=organiser, user=helper)
    with pytest.raises(CampaignError):
        services.co_organiser_add(campaign=campaign, actor=organiser, user=organiser)


def test_regenerating_the_invitation_changes_the_token_and_keeps_it_out_of_the_log(campaign, organiser):
    old = campaign.invite_token

    renewed = services.campaign_invite_regenerate(campaign=campaign, actor=organiser)

    assert renewed.invite_token != old
    entry = LogEntry.objects.get(kind=LogKind.INVITE_REGENERATED)
    assert old not in str(entry.before) + str(entry.after)
    assert renewed.invite_token not in str(entry.after)
