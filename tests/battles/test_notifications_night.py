"""A campaign night played through the services: after each act, everyone's unread count is what needs them.

Nobody is told of their own act, and doing what a notification asked (answering the
report, the request, the challenge) marks it read, for every organiser where any of
them could have answered. The fixtures open round 1 (every player is told) and
schedule x1 (Axis) against a1 (Allies), both with a registered list.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Notification, User
from accounts.selectors import notification_unread_count
from armies.blocs import Bloc
from battles.models import Resolution
from battles.services import (
    ReportInput,
    SideInput,
    report_confirm,
    report_dispute,
    report_resolve,
    report_submit,
)
from campaign.engine.map import attack_refusal
from campaign.errors import CampaignConflictError
from campaign.models import Battle, Campaign
from campaign.selectors import campaign_map, map_state_now, sectors_for_map
from campaign.services.campaigns import co_organiser_add
from campaign.services.challenges import challenge_accept, challenge_issue
from campaign.services.players import enrolment_admit, enrolment_request
from campaign.services.rounds import round_close
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS, register
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PLAYERS = ("a1", "a2", "s1", "s2", "x1", "x2")


class Night:
    """The people of the night and a way to read everyone's bell at once."""

    def __init__(self, campaign: Campaign, organiser: User, place: Any) -> None:
        self.campaign = campaign
        self.place = place
        self.people: dict[str, User] = {name: place(name).player for name in PLAYERS}
        self.people["olga"] = organiser
        self.people["cora"] = UserFactory(username="cora", display_name="Cora")
        co_organiser_add(campaign=campaign, actor=organiser, user=self.people["cora"])

    def user(self, name: str) -> User:
        return self.people[name]

    def counts(self) -> dict[str, int]:
        return {name: notification_unread_count(user=user) for name, user in self.people.items()}

    def unread_kinds(self, name: str) -> list[str]:
        rows = Notification.objects.filter(user=self.people[name], read_at__isnull=True)
        return sorted(rows.values_list("kind", flat=True))


def _attackable(campaign: Campaign, bloc: str, *, besides: str) -> str:
    """A sector ``bloc`` may attack now, other than ``besides``."""
    state = map_state_now(sectors=sectors_for_map(campaign=campaign))
    board = campaign_map(campaign=campaign)
    for sector in campaign.sectors.filter(owner="", headquarters_of="").exclude(key=besides).order_by("key"):
        if attack_refusal(board, state, Bloc(bloc), sector.key) is None:
            return str(sector.key)
    raise AssertionError(f"no sector {bloc} may attack")


def test_a_campaign_night_leaves_each_person_the_count_of_what_needs_them(
    running_campaign, organiser, place, battle, lists_of, report_data
):
    night = Night(running_campaign, organiser, place)
    # Round 1 opened (by Olga, who does not play): every player was told once.
    assert night.counts() == {**dict.fromkeys(PLAYERS, 1), "olga": 0, "cora": 0}

    # A newcomer asks to join: both organisers are told, she is not.
    nadia = UserFactory(username="nadia", display_name="Nadia")
    night.people["nadia"] = nadia
    request = enrolment_request(campaign=running_campaign, user=nadia, bloc=Bloc.ALLIES)
    assert night.counts() == {**dict.fromkeys(PLAYERS, 1), "olga": 1, "cora": 1, "nadia": 0}
    olgas = Notification.objects.get(user=organiser, kind="join-requested")
    assert olgas.message == "Nadia asks to join Siege of the Tractor Works for Allies."
    assert olgas.link == f"/campaigns/{running_campaign.pk}/dashboard/#request-{request.pk}"

    # Cora admits her: the request is answered for both organisers; Nadia hears, Cora is not told of her own act.
    enrolment_admit(enrolment=request, actor=night.user("cora"))
    assert night.counts() == {**dict.fromkeys(PLAYERS, 1), "olga": 0, "cora": 0, "nadia": 1}

    # x1 reports the battle: a1 must answer; x1 is not told of their own report.
    report = report_submit(battle=battle, actor=night.user("x1"), side="attacker", data=report_data())
    assert night.counts()["a1"] == 2
    assert night.counts()["x1"] == 1
    assert night.unread_kinds("a1") == ["report-waiting", "round-opened"]

    # a1 disputes it: their "report waiting" is done; x1 and the organisers are told, a1 is not.
    report_dispute(report=report, actor=night.user("a1"), reason="the keiler never got there")
    counts = night.counts()
    assert (counts["a1"], counts["x1"], counts["olga"], counts["cora"]) == (1, 2, 1, 1)
    assert night.unread_kinds("a1") == ["round-opened"]

    # Olga resolves it: the dispute is over for everyone it was told to (Cora too); the players hear how.
    report_resolve(report=report, actor=organiser, decision=Resolution.ACCEPTED, reason="the photos agree")
    counts = night.counts()
    assert (counts["a1"], counts["x1"], counts["olga"], counts["cora"]) == (2, 2, 0, 0)
    assert night.unread_kinds("x1") == ["report-resolved", "round-opened"]

    # x2 challenges a2: a2 must answer, x2 is not told.
    sector = _attackable(running_campaign, "Axis", besides=battle.sector.key)
    challenge = challenge_issue(challenger=place("x2"), challenged=place("a2"), sector_key=sector,
                                actor=night.user("x2"))  # fmt: skip
    assert (night.counts()["a2"], night.counts()["x2"]) == (2, 1)

    # a2 accepts: the challenge no longer waits on a2; x2 hears of the battle.
    fought = challenge_accept(challenge=challenge, actor=night.user("a2"))
    assert (night.counts()["a2"], night.counts()["x2"]) == (1, 2)
    assert night.unread_kinds("x2") == ["challenge-answered", "round-opened"]

    # The mission and points the fixture's lists are made for (turn limit 6, 150 AP).
    Battle.objects.filter(pk=fought.pk).update(mission="hold-the-line", points_limit=150)
    # x2 reports it: the battle is played, so x2's "accepted" is done; a2 must answer.
    registrations = (
        register(fought.attacker, AXIS_UNITS, "Axis"),
        register(fought.defender, ALLIED_UNITS, "Allies"),
    )
    data = ReportInput(attacker_registration=registrations[0], defender_registration=registrations[1], turns=6,
                       ending="turn_limit", attacker=SideInput(), defender=SideInput(lost=("e1",)))  # fmt: skip
    second = report_submit(
        battle=Battle.objects.get(pk=fought.pk), actor=night.user("x2"), side="attacker", data=data
    )
    assert (night.counts()["a2"], night.counts()["x2"]) == (2, 1)

    # a2 confirms: their "report waiting" is read and they are not told of their own confirmation; x2 is.
    report_confirm(report=second, actor=night.user("a2"))
    assert (night.counts()["a2"], night.counts()["x2"]) == (1, 2)
    assert not Notification.objects.filter(user=night.user("a2"), kind="report-confirmed").exists()
    assert night.unread_kinds("x2") == ["report-confirmed", "round-opened"]

    # Olga closes the round: "round opened" is old news, "round closed" is told to every player.
    round_close(round=battle.round, actor=organiser)
    assert night.counts() == {
        "a1": 2, "a2": 1, "s1": 1, "s2": 1, "x1": 2, "x2": 2, "olga": 0, "cora": 0, "nadia": 2,
    }  # fmt: skip
    assert night.unread_kinds("s1") == ["round-closed"]
    assert night.unread_kinds("a1") == ["report-resolved", "round-closed"]
    assert night.unread_kinds("nadia") == ["join-decided", "round-closed"]


def test_a_report_the_clock_confirms_is_read_for_the_silent_opponent_and_told_to_both(
    battle, report_data, place
):
    report = report_submit(battle=battle, actor=place("x1").player, side="attacker", data=report_data())

    report_confirm(report=report, actor=None, automatic=True)

    for name in ("x1", "a1"):
        assert Notification.objects.filter(user=place(name).player, kind="report-confirmed").count() == 1
    assert not Notification.objects.filter(
        user=place("a1").player, kind="report-waiting", read_at=None
    ).exists()


def test_closing_the_round_reads_the_report_its_opponent_can_no_longer_answer(
    battle, report_data, place, organiser
):
    report_submit(battle=battle, actor=place("x1").player, side="attacker", data=report_data())
    assert (
        Notification.objects.filter(user=place("a1").player, kind="report-waiting", read_at=None).count() == 1
    )

    round_close(round=battle.round, actor=organiser)

    assert not Notification.objects.filter(
        user=place("a1").player, kind="report-waiting", read_at=None
    ).exists()


def test_a_dispute_stays_unread_until_settled_and_the_round_waits_for_it(
    battle, report_data, place, organiser
):
    first = report_submit(battle=battle, actor=place("x1").player, side="attacker", data=report_data())
    report_dispute(report=first, actor=place("a1").player, reason="the keiler never got there")

    with pytest.raises(CampaignConflictError) as refused:
        round_close(round=battle.round, actor=organiser)

    assert refused.value.code == "disputes-open"
    assert Notification.objects.filter(user=organiser, kind="report-disputed", read_at=None).count() == 1
    report_resolve(report=first, actor=organiser, decision="accepted", reason="the photos settle it")
    assert Notification.objects.filter(user=organiser, kind="report-disputed", read_at=None).count() == 0
    round_close(round=battle.round, actor=organiser)
