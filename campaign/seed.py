"""The demo campaign (see core.demo): running on the default map, nine players, each with a registered list,
a closed first round and an open second one with its pairings, a fortification bought and a challenge waiting."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from armies.blocs import Bloc
from armies.models import ArmyList
from campaign.models import Bye, Campaign, Enrolment, EnrolmentStatus, Registration, Round, Sector
from campaign.options import Status
from campaign.services.campaigns import campaign_create, campaign_open_registration, campaign_start
from campaign.services.challenges import challenge_issue
from campaign.services.economy import fortification_buy
from campaign.services.map import campaign_map_load
from campaign.services.pairings import fronts, pairings_generate, pairings_publish
from campaign.services.players import enrolment_admit, enrolment_request
from campaign.services.registrations import army_list_register
from campaign.services.rounds import round_close, round_open
from core.demo import DemoData

DEMO_CAMPAIGN = "Demo: The Battle for Zverograd"

# username -> (bloc, the faction the player claims, the list the player registers): a club's players claim the
# factions of the lists they bring, so the standings' factions table has something to say.
PLAYERS: dict[str, tuple[str, str, str]] = {
    "anna": ("Allies", "coastal-raiders", "Coastal Raiders landing party"),
    "mila": ("Allies", "coastal-raiders", "Ridgeback fire base"),
    "tom": ("Allies", "iron-prairie-brigade", "Iron Prairie spearhead"),
    "boris": ("SSU", "volga-shock-guard", "Volga shock group"),
    "dmitri": ("SSU", "volga-shock-guard", "Volga breakthrough"),
    "ivan": ("SSU", "taiga-scouts", "Taiga eyes"),
    "karl": ("Axis", "sturmfalke-legion", "Grauwolf patrol"),
    "greta": ("Axis", "eisenwacht-korps", "Eisenwacht wall"),
    "otto": ("Axis", "sturmfalke-legion", "Sturmfalke strike"),
}


def seed_demo(data: DemoData) -> None:
    """Build the demo campaign through the same services organisers and players use."""
    users = data.users
    organiser = users["organiser"]
    campaign = Campaign.objects.filter(name=DEMO_CAMPAIGN).first()
    if campaign is None:
        campaign = campaign_create(
            creator=organiser, name=DEMO_CAMPAIGN, is_public=True, catalogue=data.objects["catalogue"],
            description="A demonstration campaign: three blocs fight for the sectors of Zverograd.",
        )  # fmt: skip
        campaign_map_load(campaign=campaign, actor=organiser)
        campaign = campaign_open_registration(campaign=campaign, actor=organiser)
    for username, (bloc, faction, list_name) in PLAYERS.items():
        _seat(campaign, organiser, users[username], bloc, faction, list_name)
    if campaign.status == Status.REGISTRATION:
        campaign = campaign_start(campaign=campaign, actor=organiser)
    if not Round.objects.filter(campaign=campaign).exists():
        _play_the_first_rounds(campaign, organiser, users["lena"])
    data.objects["campaign"] = campaign


def _play_the_first_rounds(campaign: Campaign, organiser: Any, latecomer: Any) -> None:
    """Round 1 closed (income paid), round 2 open with published pairings, a fortification, a challenge."""
    soon = timezone.now() + timedelta(days=7)
    first = round_open(campaign=campaign, actor=organiser, deadline=soon)
    pairings_generate(round=first, actor=organiser)
    pairings_publish(round=first, actor=organiser)
    round_close(round=first, actor=organiser)
    second = round_open(campaign=campaign, actor=organiser, deadline=soon)
    pairings_generate(round=second, actor=organiser)
    pairings_publish(round=second, actor=organiser)
    # The Axis spends part of its income on a strongpoint at the sector it holds beside its headquarters.
    campaign.refresh_from_db()
    axis = Enrolment.objects.filter(campaign=campaign, bloc="Axis", status=EnrolmentStatus.ADMITTED).first()
    held = Sector.objects.filter(campaign=campaign, owner="Axis", headquarters_of="").first()
    if axis is not None and held is not None:
        fortification_buy(
            campaign=campaign, buyer=axis, sector_key=held.key, kind="strongpoint", actor=axis.player
        )
    # A player who joined after the pairings challenges the one who sits this round out.
    bye = Bye.objects.filter(round=second, published=True).select_related("enrolment").first()
    if bye is None:
        return
    bloc = next(b.value for b in Bloc if b.value != bye.enrolment.bloc)
    late = enrolment_admit(
        enrolment=enrolment_request(
            campaign=campaign, user=latecomer, bloc=bloc, faction=_first_faction(campaign, bloc)
        ),
        actor=organiser,
    )
    options = fronts(campaign=campaign)[(Bloc(bloc), Bloc(bye.enrolment.bloc))]
    if options:
        challenge_issue(challenger=late, challenged=bye.enrolment, sector_key=options[0], actor=latecomer,
                        message="Nobody paired us: shall we fight for it?")  # fmt: skip


def _seat(campaign: Campaign, organiser: Any, user: Any, bloc: str, faction: str, list_name: str) -> None:
    enrolment = Enrolment.objects.filter(campaign=campaign, player=user).first()
    if enrolment is None:
        enrolment = enrolment_request(campaign=campaign, user=user, bloc=bloc, faction=faction)
    if enrolment.status == EnrolmentStatus.PENDING:
        enrolment = enrolment_admit(enrolment=enrolment, actor=organiser)
    if not Registration.objects.filter(enrolment=enrolment).exists():
        army_list = ArmyList.objects.get(owner=user, name=list_name)
        army_list_register(enrolment=enrolment, army_list=army_list, actor=user)


def _first_faction(campaign: Campaign, bloc: str) -> str:
    """The faction a latecomer claims: the first of their bloc in the campaign's catalogue (none without one)."""
    if campaign.catalogue is None:
        return ""
    return (
        campaign.catalogue.factions.filter(bloc=bloc).order_by("name").values_list("key", flat=True).first()
        or ""
    )
