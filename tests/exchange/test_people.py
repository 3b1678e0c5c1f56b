"""An import never acts in the names of this site's people: a file is anyone's to write.

A stranger's file names two accounts of this site, ``olaf`` as a co-organiser and ``mila`` as a player
who confirmed a report. Neither is tied to the imported campaign: its players are placeholders with
claim links, its co-organisers are left out, and its timeline names who acted by the file's names,
marked as imported. Only the importer is tied to an account, as the organiser.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.models import Notification
from battles.models import BattleReport
from campaign.models import Campaign, CoOrganiser, Enrolment, LogEntry, ResourceEntry, Round, RoundStatus
from campaign.permissions import can_manage_campaign, is_enrolled
from campaign.services.players import placeholder_claim
from campaign.services.rounds import round_close
from core.errors import DomainError
from exchange.checks import ImportRefusedError
from exchange.importer import campaign_import, people_notes
from exchange.jobs import import_run, import_start
from exchange.models import CampaignImport
from exchange.spec import SECTIONS
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NAME = "The stranger's siege"


def _rename(document: dict[str, Any], old: str, new: str) -> None:
    """Every column of the file naming the user ``old`` names ``new`` instead."""
    for section in SECTIONS:
        for row in document[section.key]:
            for column in section.users:
                if row[column] == old:
                    row[column] = new


@pytest.fixture
def accounts(db: None) -> dict[str, Any]:
    return {
        "olaf": UserFactory(username="olaf", display_name="Olaf Account"),
        "mila": UserFactory(username="mila", display_name="Mila Account"),
    }


@pytest.fixture
def strangers_file(good: dict[str, Any], accounts: dict[str, Any]) -> dict[str, Any]:
    """``good`` as a stranger might write it: olaf helps run it, mila plays and confirmed its first report."""
    document = json.loads(json.dumps(good))
    document["campaign"].update(name=NAME, is_public=False)
    document["co_organisers"][0]["user"] = "olaf"
    confirmer = document["reports"][0]["confirmed_by"]
    assert confirmer is not None
    _rename(document, confirmer, "mila")
    place = next(row for row in document["enrolments"] if row["player"] == "mila")
    place["placeholder_name"] = "Mila"
    return document


@pytest.fixture
def imported(strangers_file: dict[str, Any], stranger: Any) -> Campaign:
    return campaign_import(document=json.loads(json.dumps(strangers_file)), user=stranger)


def _page(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_it_makes_the_importer_the_organiser_and_nobody_else(
    imported: Campaign, stranger: Any, accounts: dict[str, Any]
) -> None:
    olaf, mila = accounts["olaf"], accounts["mila"]
    assert imported.organiser == stranger
    assert can_manage_campaign(stranger, imported)
    assert not CoOrganiser.objects.filter(campaign=imported).exists()
    assert not can_manage_campaign(olaf, imported)
    assert not is_enrolled(mila, imported)
    assert not Enrolment.objects.filter(campaign=imported).exclude(player=None).exists()
    report = BattleReport.objects.filter(battle__campaign=imported).order_by("id").first()
    assert report is not None
    assert report.confirmed_at is not None
    assert report.confirmed_by is None
    assert not ResourceEntry.objects.filter(campaign=imported).exclude(actor=None).exists()
    assert list(
        LogEntry.objects.filter(campaign=imported).exclude(actor=None).values_list("actor", "kind")
    ) == [(stranger.pk, "campaign-created")]


def test_it_keeps_who_acted_by_the_files_name_and_never_names_the_account(
    imported: Campaign, stranger: Any
) -> None:
    confirmed = LogEntry.objects.get(
        campaign=imported, kind="report-changed", before="submitted", after__status="confirmed",
        actor_name="Mila",
    )  # fmt: skip
    assert confirmed.actor is None
    assert confirmed.actor_shown == "Mila (imported)"

    timeline = _page(stranger).get(reverse("campaign:timeline", args=[imported.pk])).content.decode()

    assert "Mila (imported) confirmed the report of" in timeline
    assert "Mila Account" not in timeline
    assert "Olaf Account" not in timeline
    assert "for the silent opponent" not in timeline  # a person's confirmation is not the site's


def test_the_ledger_names_who_moved_resources_by_the_files_name(imported: Campaign, stranger: Any) -> None:
    adjusted = ResourceEntry.objects.get(campaign=imported, reason="Supply drop")
    assert (adjusted.actor, adjusted.actor_name) == (None, "olga")  # the file's organiser: no account here

    economy = _page(stranger).get(reverse("campaign:economy", args=[imported.pk])).content.decode()

    assert "olga (imported)" in economy


def test_the_accounts_the_file_names_see_nothing_of_the_campaign(
    imported: Campaign, stranger: Any, accounts: dict[str, Any]
) -> None:
    # One place claimed by an account: the notifications below reach the campaign's real players.
    claimer = UserFactory(username="claimer")
    first = Enrolment.objects.filter(campaign=imported).order_by("id").first()
    assert first is not None
    placeholder_claim(token=first.claim_token or "", user=claimer)
    open_round = Round.objects.get(campaign=imported, status=RoundStatus.OPEN)
    round_close(round=open_round, actor=stranger)  # tells every player with an account

    assert Notification.objects.filter(user=claimer, link__contains=f"/{imported.pk}/").exists()
    for account in accounts.values():
        assert not Notification.objects.filter(user=account).exists()
        client = _page(account)
        assert NAME not in client.get(reverse("campaign:list")).content.decode()
        assert client.get(reverse("campaign:detail", args=[imported.pk])).status_code == 404


def test_the_organiser_hands_out_claim_links_and_a_claim_ties_the_place_to_its_account(
    imported: Campaign, stranger: Any, accounts: dict[str, Any]
) -> None:
    mila = accounts["mila"]
    place = Enrolment.objects.get(campaign=imported, placeholder_name="Mila")
    assert place.player is None
    assert place.claim_token
    claim = reverse("campaign:claim", args=[place.claim_token])
    dashboard = _page(stranger).get(reverse("campaign:dashboard", args=[imported.pk])).content.decode()
    assert claim in dashboard

    response = _page(mila).post(claim)

    assert response.status_code == 302
    place.refresh_from_db()
    assert (place.player, place.claim_token) == (mila, None)
    assert is_enrolled(mila, imported)
    # The place keeps what the file recorded for it: its results, and the log naming it as imported.
    assert LogEntry.objects.filter(campaign=imported, actor_name="Mila").exists()
    with pytest.raises(DomainError, match="not valid"):
        placeholder_claim(token=place.claim_token or "used", user=UserFactory())


def test_the_imports_result_says_what_became_of_the_files_people(
    strangers_file: dict[str, Any], stranger: Any
) -> None:
    upload = SimpleUploadedFile("siege.json", json.dumps(strangers_file).encode())
    job = import_start(upload=upload, user=stranger)
    import_run(job_id=str(job.pk))

    job = CampaignImport.objects.get(pk=job.pk)
    assert job.campaign is not None
    assert job.notes == people_notes(strangers_file)
    assert "Co-organisers are not imported (olaf)" in job.notes[0]
    assert f"The file's {len(strangers_file['enrolments'])} players became placeholders" in job.notes[1]
    page = _page(stranger).get(reverse("exchange:import_job", args=[job.pk])).content.decode()
    assert "Co-organisers are not imported (olaf)" in page
    assert "claim link" in page
    answer = _page(stranger).get(reverse("api:campaign-import", args=[job.pk])).json()
    assert answer["notes"] == job.notes


def test_it_refuses_a_file_giving_one_person_two_places(
    strangers_file: dict[str, Any], stranger: Any
) -> None:
    rows = strangers_file["enrolments"]
    rows[1]["player"] = rows[0]["player"]
    with pytest.raises(ImportRefusedError) as refused:
        campaign_import(document=strangers_file, user=stranger)
    assert ("enrolments[1].player", "duplicate") in [(p.field, p.code) for p in refused.value.problems]
