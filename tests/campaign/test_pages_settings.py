"""The settings page: every setting explained, tiebreakers in order, RtZ rules as checkboxes, locks."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Campaign, LogEntry
from campaign.options import (
    LOCKED_WHEN_RUNNING,
    SETTING_HELP,
    SETTING_SECTIONS,
    STANDARD_RTZ,
    TIEBREAKER_HELP,
    Status,
)
from rules.engine.ruleset import SWITCHES
from tests.factories import CatalogueFactory

pytestmark = pytest.mark.django_db


def url(campaign: Campaign) -> str:
    return reverse("campaign:settings", args=[campaign.pk])


def settings_data(campaign: Campaign, **changes: Any) -> dict[str, Any]:
    """The form as the page posts it: every setting as it is, then ``changes``."""
    data: dict[str, Any] = {
        "name": campaign.name, "description": campaign.description, "catalogue": campaign.catalogue_id or "",
        "points_limit": campaign.points_limit, "points_win": campaign.points_win,
        "points_draw": campaign.points_draw, "points_loss": campaign.points_loss,
        "resources_held_by": campaign.resources_held_by, "strongpoint_cost": campaign.strongpoint_cost,
        "bunker_cost": campaign.bunker_cost, "income_base": campaign.income_base,
        "max_players_per_bloc": campaign.max_players_per_bloc or "", "unplayed_battles": campaign.unplayed_battles,
        "max_open_challenges": campaign.max_open_challenges, "challenge_days": campaign.challenge_days,
        "report_confirm_hours": campaign.report_confirm_hours, "award_win": campaign.award_win,
        "award_draw": campaign.award_draw,
    }  # fmt: skip
    if campaign.is_public:
        data["is_public"] = "on"
    if campaign.hide_results_until_close:
        data["hide_results_until_close"] = "on"
    for index, tiebreaker in enumerate(campaign.tiebreakers):
        data[f"tiebreaker_{index + 1}"] = tiebreaker
    for switch, on in campaign.ruleset.items():
        if switch != "name" and on:
            data[f"rule_{switch}"] = "on"
    if campaign.ruleset == {"name": "rtz"}:
        data.update({f"rule_{switch}": "on" for switch in SWITCHES})
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def test_it_explains_every_setting_in_a_line(client, campaign, organiser):
    client.force_login(organiser)

    content = client.get(url(campaign)).content.decode()

    for key, help_line in SETTING_HELP.items():
        assert f'id="setting-{key}"' in content
        assert help_line.replace("'", "&#x27;") in content
    for help_line in TIEBREAKER_HELP.values():
        assert help_line in content
    for switch, description in SWITCHES.items():
        assert f'name="rule_{switch}"' in content
        assert description.replace("'", "&#x27;") in content


def test_it_shows_the_tiebreakers_in_the_organisers_order(client, campaign, organiser):
    campaign.tiebreakers = ["head_to_head", "vp_for"]
    campaign.save()
    client.force_login(organiser)

    form = client.get(url(campaign)).context["form"]

    assert [form[f"tiebreaker_{n}"].value() for n in range(1, 6)] == [
        "head_to_head",
        "vp_for",
        None,
        None,
        None,
    ]


def test_it_saves_every_setting_and_logs_each_change(client, campaign, organiser):
    catalogue = CatalogueFactory(name="Winter", version="7")
    client.force_login(organiser)
    data = settings_data(
        campaign, name="Renamed", catalogue=catalogue.pk, points_limit=200, points_win=4, max_players_per_bloc=6,
        tiebreaker_1="strength_of_schedule", tiebreaker_2="", tiebreaker_3="ap_destroyed", reason="Club vote",
    )  # fmt: skip
    del data["rule_scout_rtz"], data["rule_trenches_rtz"]

    response = client.post(url(campaign), data)

    assert response.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.name, campaign.catalogue, campaign.catalogue_version) == ("Renamed", catalogue, "7")
    assert (campaign.points_limit, campaign.points_win, campaign.max_players_per_bloc) == (200, 4, 6)
    assert campaign.tiebreakers == ["strength_of_schedule", "ap_destroyed"]
    assert campaign.ruleset["scout_rtz"] is False
    assert campaign.ruleset["trenches_rtz"] is False
    assert campaign.ruleset["unified_saves"] is True
    changed = set(
        LogEntry.objects.filter(campaign=campaign, kind="setting-changed").values_list("field", "reason")
    )
    assert changed == {
        (field, "Club vote")
        for field in (
            "name",
            "catalogue",
            "points_limit",
            "points_win",
            "max_players_per_bloc",
            "tiebreakers",
            "ruleset",
        )
    }


def test_it_refuses_a_tiebreaker_chosen_twice_next_to_the_second(client, campaign, organiser):
    client.force_login(organiser)

    response = client.post(
        url(campaign), settings_data(campaign, tiebreaker_1="vp_for", tiebreaker_2="vp_for")
    )

    form = response.context["form"]
    assert response.status_code == 200
    assert form.errors["tiebreaker_2"] == ["already chosen as the 1st tiebreaker"]
    assert form.has_error("tiebreaker_2", "duplicate")
    assert campaign.tiebreakers == Campaign.objects.get(pk=campaign.pk).tiebreakers


def test_it_shows_a_service_refusal_next_to_its_field_and_keeps_the_input(client, campaign, organiser):
    client.force_login(organiser)

    response = client.post(
        url(campaign), settings_data(campaign, points_win=1, points_draw=2, description="Our story")
    )

    form = response.context["form"]
    assert form.errors["points_win"] == ["a win must score at least as much as a draw (win 1, draw 2)"]
    assert b"Our story" in response.content
    assert form["points_win"].value() == "1"
    assert Campaign.objects.get(pk=campaign.pk).points_win == 3


def test_it_bounds_numbers_with_the_campaign_limits(client, campaign, organiser):
    client.force_login(organiser)

    response = client.post(
        url(campaign), settings_data(campaign, points_win=101, bunker_cost=1001, income_base=-1)
    )

    assert set(response.context["form"].errors) == {"points_win", "bunker_cost", "income_base"}


def test_it_shows_locked_settings_disabled_with_why_once_running(client, open_campaign, organiser):
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING)
    client.force_login(organiser)

    response = client.get(url(open_campaign))

    form = response.context["form"]
    content = response.content.decode()
    for key in LOCKED_WHEN_RUNNING:
        assert f'data-testid="locked-{key}"' in content
    assert form.fields["points_win"].disabled
    assert form.fields["tiebreaker_1"].disabled
    assert form.fields["rule_scout_rtz"].disabled
    assert form.fields["catalogue"].disabled
    assert not form.fields["points_limit"].disabled
    assert not form.fields["name"].disabled


def test_it_changes_only_unlocked_settings_of_a_running_campaign(client, open_campaign, organiser):
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING)
    open_campaign.refresh_from_db()
    client.force_login(organiser)
    # A forged post that also tries the locked ones: a disabled field keeps its value.
    data = settings_data(open_campaign, points_win=9, tiebreaker_1="ap_destroyed", points_limit=250)

    response = client.post(url(open_campaign), data)

    assert response.status_code == 302
    open_campaign.refresh_from_db()
    assert (open_campaign.points_win, open_campaign.tiebreakers[0], open_campaign.points_limit) == (
        3,
        "vp_difference",
        250,
    )


def test_it_keeps_a_finished_campaign_read_only(client, open_campaign, organiser):
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.FINISHED)
    open_campaign.refresh_from_db()
    client.force_login(organiser)

    page = client.get(url(open_campaign))
    post = client.post(url(open_campaign), settings_data(open_campaign, name="Too late"))

    assert b"Save settings" not in page.content
    assert all(field.disabled for name, field in page.context["form"].fields.items() if name != "reason")
    assert post.status_code == 200
    assert post.context["form"].has_error("__all__", "campaign-finished")
    assert Campaign.objects.get(pk=open_campaign.pk).name == open_campaign.name


# --------------------------------------------------------------------------- sections, preset, error summary


def test_it_groups_the_settings_under_headings_each_once(client, campaign, organiser):
    client.force_login(organiser)

    response = client.get(url(campaign))

    content = response.content.decode()
    headings = [heading for heading, _intro, _keys in SETTING_SECTIONS]
    assert headings[:6] == [
        "The campaign",
        "Scoring",
        "Economy",
        "Rounds and reports",
        "Special rules",
        "Webhook",
    ]
    positions = [content.index(f">{heading}</h2>") for heading in headings]
    assert positions == sorted(positions)
    # Each setting sits in its own section, after that section's heading and before the next one.
    for number, (_heading, _intro, keys) in enumerate(SETTING_SECTIONS):
        end = positions[number + 1] if number + 1 < len(positions) else len(content)
        for key in keys:
            assert positions[number] < content.index(f'id="setting-{key}"') < end
    assert sorted(key for _h, _i, keys in SETTING_SECTIONS for key in keys) == sorted(SETTING_HELP)
    assert f'href="#section-{len(headings)}"' in content  # the contents at the top link to each section


def test_it_chooses_the_only_catalogue_for_a_new_campaign(client, campaign, organiser):
    only = CatalogueFactory(name="Winter", version="7")
    client.force_login(organiser)

    page = client.get(url(campaign))
    form = page.context["form"]
    saved = client.post(url(campaign), settings_data(campaign, catalogue=form["catalogue"].value()))

    assert form["catalogue"].value() == only.pk
    assert "is the site's only catalogue, so it is chosen for you" in page.content.decode()
    assert saved.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).catalogue == only


def test_it_leaves_the_catalogue_to_the_organiser_when_there_are_several(client, campaign, organiser):
    CatalogueFactory(name="Winter", version="7")
    CatalogueFactory(name="Summer", version="2")
    client.force_login(organiser)

    page = client.get(url(campaign))

    assert page.context["form"]["catalogue"].value() is None
    assert b'data-testid="catalogue-chosen"' not in page.content


def test_it_fills_in_the_standard_values_without_saving_them(client, campaign, organiser):
    campaign.points_limit, campaign.income_base, campaign.hide_results_until_close = 300, 0, False
    campaign.ruleset = {"name": "rulebook"}
    campaign.save()
    client.force_login(organiser)
    typed = settings_data(campaign, name="Our winter campaign", preset="standard")

    response = client.post(url(campaign), typed)

    form = response.context["form"]
    assert response.status_code == 200
    assert form["name"].value() == "Our winter campaign"  # what was typed stays
    assert int(form["points_limit"].value()) == STANDARD_RTZ["points_limit"]
    assert int(form["income_base"].value()) == STANDARD_RTZ["income_base"]
    assert int(form["report_confirm_hours"].value()) == STANDARD_RTZ["report_confirm_hours"]
    assert form["hide_results_until_close"].value() is True
    assert all(form[f"rule_{switch}"].value() for switch in SWITCHES)
    tiebreakers = [form[f"tiebreaker_{n}"].value() for n in range(1, 6)]
    assert [t for t in tiebreakers if t] == STANDARD_RTZ["tiebreakers"]
    assert b"nothing is saved until you press Save settings" in response.content
    unchanged = Campaign.objects.get(pk=campaign.pk)
    assert (unchanged.name, unchanged.points_limit, unchanged.ruleset) == (
        campaign.name,
        300,
        {"name": "rulebook"},
    )

    saved = client.post(url(campaign), {**form.data.dict(), "preset": ""})

    assert saved.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.points_limit, campaign.income_base, campaign.hide_results_until_close) == (150, 1, True)
    assert campaign.tiebreakers == STANDARD_RTZ["tiebreakers"]


def test_it_keeps_locked_settings_when_filling_in_the_standard_values(client, open_campaign, organiser):
    Campaign.objects.filter(pk=open_campaign.pk).update(status=Status.RUNNING, points_win=5, points_limit=300)
    open_campaign.refresh_from_db()
    client.force_login(organiser)

    form = client.post(url(open_campaign), settings_data(open_campaign, preset="standard")).context["form"]

    assert form["points_win"].value() == 5  # locked: decides results
    assert int(form["points_limit"].value()) == STANDARD_RTZ["points_limit"]


def test_it_opens_a_refused_save_at_a_summary_linking_to_each_field(client, campaign, organiser):
    client.force_login(organiser)

    response = client.post(url(campaign), settings_data(campaign, points_limit=0, challenge_days=""))

    content = response.content.decode()
    start = content.index('id="error-summary"')
    summary = content[start : content.index("</div>", start)]
    assert 'role="alert"' in summary
    assert "autofocus" in summary
    assert "2 settings need a change" in summary
    assert 'href="#id_points_limit"' in summary
    assert 'href="#id_challenge_days"' in summary
    assert summary.index("#id_points_limit") < summary.index("#id_challenge_days")  # page order
    assert 'id="id_points_limit"' in content
    assert 'id="id_challenge_days"' in content
    assert f'action="/campaigns/{campaign.pk}/settings/#error-summary"' in content
    assert content.index('id="error-summary"') < content.index('id="section-1"')


def test_it_shows_no_summary_on_a_fresh_page(client, campaign, organiser):
    client.force_login(organiser)

    content = client.get(url(campaign)).content.decode()

    assert 'id="error-summary"' not in content


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"points_win": 1, "points_draw": 2}, "points_win", "a win must score at least as much as a draw"),
        ({"points_draw": 0, "points_loss": 1}, "points_draw", "a draw must score at least as much as a loss"),
        (
            {"award_win": 0, "award_draw": 2},
            "award_win",
            "a win must earn at least the resources a draw does",
        ),
        ({"strongpoint_cost": 6, "bunker_cost": 5}, "bunker_cost", "a bunker must cost at least as much as"),
    ],
)
def test_it_shows_each_disagreement_beside_its_field_and_in_the_summary(
    client, campaign, organiser, changes, field, words
):
    client.force_login(organiser)

    response = client.post(url(campaign), settings_data(campaign, **changes))

    form = response.context["form"]
    assert [error for error in form.errors[field] if words in error]
    summary = response.context["errors"]
    assert [(id_, message) for id_, _label, message in summary if id_ == f"id_{field}" and words in message]
    assert Campaign.objects.get(pk=campaign.pk).bunker_cost == campaign.bunker_cost


def test_it_shows_every_disagreement_at_once(client, campaign, organiser):
    client.force_login(organiser)

    response = client.post(
        url(campaign), settings_data(campaign, points_win=0, points_draw=1, strongpoint_cost=9, bunker_cost=1)
    )

    assert {"points_win", "bunker_cost"} <= set(response.context["form"].errors)
    content = response.content.decode()
    assert 'href="#id_points_win"' in content
    assert 'href="#id_bunker_cost"' in content
