"""What the round, battle, challenge and economy endpoints share: the shapes of a place, a sector, a battle
and a round, and finding each as the caller may see it (404 otherwise, like a campaign)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.reverse import reverse

from armies.blocs import BLOC_CHOICES
from campaign.api.common import find_campaign, logged_in, refuse
from campaign.engine import map as engine
from campaign.engine.map import Fortification, Terrain
from campaign.engine.missions import MISSIONS
from campaign.models import (
    Battle,
    BattleSide,
    BattleSource,
    BattleStatus,
    Campaign,
    Challenge,
    Enrolment,
    Round,
    RoundStatus,
    Sector,
)
from campaign.permissions import can_run_rounds, can_see_draft_pairings, can_see_result
from campaign.selectors import rounds as selectors
from core.permissions import Actor

# Round numbers are a PositiveSmallIntegerField: a larger one names no round, and is not asked.
ROUND_MAX = 32_767
MISSION_CHOICES = [(mission.key, mission.name) for mission in MISSIONS]
TERRAIN_CHOICES = [(terrain.value, terrain.value) for terrain in Terrain]
FORTIFICATION_CHOICES = [(kind.value, kind.value) for kind in Fortification]
BOUGHT_CHOICES = [(kind.value, kind.value) for kind in (Fortification.STRONGPOINT, Fortification.BUNKER)]
NOT_RUNNER = "not_authenticated; not-organiser: you see the campaign but do not run it."


def sector_key_field(**extra: Any) -> serializers.RegexField:
    return serializers.RegexField(engine.KEY_PATTERN, min_length=1, max_length=engine.MAX_KEY_LENGTH, **extra)


class PlaceBriefOutput(serializers.Serializer[Any]):
    """A place in the campaign: its id (the enrolment), who holds it and for which bloc."""

    id = serializers.IntegerField(help_text="The place (enrolment) id: filters and swaps name it.")
    name = serializers.CharField(source="display_name")
    bloc = serializers.ChoiceField(choices=BLOC_CHOICES)
    username = serializers.SerializerMethodField(help_text="The account, or null for a placeholder.")
    has_registered_list = serializers.SerializerMethodField(
        help_text="Whether the place has a current registered list in the campaign: without one it cannot "
        "report a battle, so it is flagged wherever it is paired, challenged or scheduled."
    )

    def get_username(self, place: Enrolment) -> str | None:
        return place.player.get_username() if place.player is not None else None

    def get_has_registered_list(self, place: Enrolment | BattleSide) -> bool:
        enrolment = place.place if isinstance(place, BattleSide) else place
        return enrolment.pk in registered_places(self.context, enrolment.campaign_id)


def registered_places(context: Mapping[str, Any], campaign_id: int) -> frozenset[int]:
    """The campaign's places with a registered list, read once per answer (one query) and kept in the
    serializers' context, which every nested shape of the answer shares (DRF types it as a mapping; the
    root serializer holds it as a dict)."""
    known: dict[int, frozenset[int]] = cast(dict[str, Any], context).setdefault("registered_places", {})
    if campaign_id not in known:
        known[campaign_id] = selectors.places_with_registered_list(campaign_id=campaign_id)
    return known[campaign_id]


class BattleSideOutput(PlaceBriefOutput):
    """A side of a battle: the place, and the bloc, faction and mercenary flag it fought as (recorded on the
    battle when it was made: the place's bloc now may differ)."""

    bloc = serializers.ChoiceField(choices=BLOC_CHOICES, help_text="The bloc this side fought for.")
    faction = serializers.CharField(help_text="The faction key this side fought as; empty for none.")
    mercenary = serializers.BooleanField(help_text="This side fought as mercenaries for its bloc.")


class SectorBriefOutput(serializers.Serializer[Any]):
    key = serializers.CharField(max_length=engine.MAX_KEY_LENGTH)
    name = serializers.CharField(max_length=engine.MAX_NAME_LENGTH)
    terrain = serializers.ChoiceField(choices=TERRAIN_CHOICES)
    fortification = serializers.ChoiceField(
        choices=FORTIFICATION_CHOICES, help_text="Built there now; a defender fields it for free."
    )
    owner = serializers.ChoiceField(
        choices=BLOC_CHOICES, allow_null=True, help_text="The bloc holding it now; null for neutral."
    )

    def to_representation(self, sector: Sector) -> Any:
        shown = super().to_representation(sector)
        shown["owner"] = sector.owner or None
        return shown


def shape_context(request: Request, campaign: Campaign) -> dict[str, Any]:
    """The serializers' context: the request (whose user decides what a battle shows of its report)."""
    return {"request": request}


class BattleResultOutput(serializers.Serializer[Any]):
    winner = serializers.ChoiceField(
        choices=[("attacker", "attacker"), ("defender", "defender")], allow_null=True,
        help_text="null for a draw.",
    )  # fmt: skip
    draw = serializers.BooleanField()
    decided_by = serializers.CharField(help_text="objective, elimination, victory_points or concession.")
    victory_points = serializers.DictField(child=serializers.IntegerField(), help_text="By side.")


class BattleOutput(serializers.ModelSerializer[Battle]):
    """A battle with its round number, sector and sides already loaded (``battles_for_api``)."""

    round = serializers.IntegerField(source="round.number", min_value=1, max_value=ROUND_MAX)
    sector = SectorBriefOutput(
        allow_null=True, help_text="The sector at stake; null when no sector lies on the front."
    )
    attacker = BattleSideOutput(source="attacker_side")
    defender = BattleSideOutput(source="defender_side")
    mission = serializers.ChoiceField(choices=MISSION_CHOICES)
    status = serializers.ChoiceField(choices=BattleStatus.choices)
    # The serializer metaclass takes declared fields off the class, so this does not replace Field.source.
    source = serializers.ChoiceField(choices=BattleSource.choices)  # type: ignore[assignment]
    notes = serializers.ListField(
        child=serializers.DictField(child=serializers.CharField()),
        help_text="Why the pairing was drafted so (code, message): repeat opponents, roles, sector.",
    )
    url = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()
    result_hidden = serializers.SerializerMethodField()
    report_url = serializers.SerializerMethodField()

    class Meta:
        model = Battle
        fields = [
            "id", "url", "round", "status", "source", "sector", "attacker", "defender", "mission",
            "points_limit", "notes", "created_at", "published_at", "result", "result_hidden", "report_url",
        ]  # fmt: skip

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, battle: Battle) -> str:
        return reverse(
            "api:campaign-battle",
            kwargs={"pk": battle.campaign_id, "battle_id": battle.pk},
            request=self.context.get("request"),
        )

    @extend_schema_field(OpenApiTypes.URI)
    def get_report_url(self, battle: Battle) -> str:
        return reverse(
            "api:battle-report",
            kwargs={"pk": battle.campaign_id, "battle_id": battle.pk},
            request=self.context.get("request"),
        )

    def _hidden(self, battle: Battle) -> bool:
        request = self.context.get("request")
        return request is not None and not can_see_result(request.user, battle)

    @extend_schema_field(BattleResultOutput(allow_null=True, help_text="The confirmed result; null before."))
    def get_result(self, battle: Battle) -> Any:
        if battle.result is None or self._hidden(battle):
            return None
        keys = ("winner", "draw", "decided_by", "victory_points")
        return BattleResultOutput({key: battle.result.get(key) for key in keys}).data

    @extend_schema_field(
        serializers.BooleanField(
            help_text="The campaign keeps this round's results hidden from you until it closes: its reports "
            "are the battle's players' and the organisers' until then (every battle of the open round says so)."
        )
    )
    def get_result_hidden(self, battle: Battle) -> bool:
        return self._hidden(battle)


class ByeOutput(serializers.Serializer[Any]):
    place = PlaceBriefOutput(source="enrolment")
    published = serializers.BooleanField(help_text="False while the pairing is a draft.")
    note = serializers.CharField(help_text="Why this player sits out.")


class RoundOutput(serializers.ModelSerializer[Round]):
    """A round from ``rounds_with_counts`` (its counts annotated)."""

    status = serializers.ChoiceField(choices=RoundStatus.choices)
    pairings_published = serializers.SerializerMethodField()
    battle_count = serializers.IntegerField(min_value=0, help_text="Published battles (drafts not counted).")
    bye_count = serializers.IntegerField(min_value=0, help_text="Published byes.")
    open_challenge_count = serializers.IntegerField(min_value=0)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = [
            "number", "url", "status", "deadline", "opened_at", "closed_at", "pairings_published",
            "pairings_published_at", "battle_count", "bye_count", "open_challenge_count",
        ]  # fmt: skip

    def get_pairings_published(self, round: Round) -> bool:
        return round.pairings_published_at is not None

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, round: Round) -> str:
        return reverse(
            "api:campaign-round",
            kwargs={"pk": round.campaign_id, "number": round.number},
            request=self.context.get("request"),
        )


class RoundDetailOutput(serializers.Serializer[Any]):
    """A round whole: its battles and byes; the drafted pairing too for its organisers."""

    number = serializers.IntegerField(min_value=1, max_value=ROUND_MAX)
    status = serializers.ChoiceField(choices=RoundStatus.choices)
    deadline = serializers.DateTimeField()
    opened_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    pairings_published = serializers.BooleanField()
    pairings_published_at = serializers.DateTimeField(allow_null=True)
    drafts_shown = serializers.BooleanField(
        help_text="Whether the drafted pairing is in battles and byes (you run the campaign)."
    )
    battles = BattleOutput(many=True, help_text="Drafts (status draft) only for the organisers.")
    byes = ByeOutput(many=True)


def round_detail(request: Request, campaign: Campaign, round: Round) -> Any:
    """The round as ``RoundDetailOutput`` shows it to the caller, its battles and byes read afresh."""
    drafts = can_see_draft_pairings(request.user, campaign)
    shown = {
        "number": round.number, "status": round.status, "deadline": round.deadline,
        "opened_at": round.opened_at, "closed_at": round.closed_at,
        "pairings_published": round.pairings_published_at is not None,
        "pairings_published_at": round.pairings_published_at, "drafts_shown": drafts,
        "battles": attach_campaign(selectors.battles_for_round(round=round, drafts=drafts), campaign, round),
        "byes": selectors.byes_for_round(round=round, drafts=drafts),
    }  # fmt: skip
    return RoundDetailOutput(shown, context=shape_context(request, campaign)).data


def attach_campaign(battles: Any, campaign: Campaign, round: Round | None = None) -> list[Battle]:
    """Give each battle the campaign (and its round) already loaded, so reading them costs no query."""
    rows = list(battles)
    for battle in rows:
        battle.campaign = campaign
        if round is not None:
            battle.round = round
    return rows


def campaign_round(campaign: Campaign, number: int) -> Round:
    """The round numbered ``number`` of this campaign, or 404."""
    found = selectors.round_by_number(campaign=campaign, number=number) if number <= ROUND_MAX else None
    if found is None:
        raise NotFound("no such round in this campaign")
    found.campaign = campaign
    return found


def campaign_battle(user: Actor, campaign: Campaign, battle_id: int) -> Battle:
    """A battle of this campaign; a drafted one is a 404 to all but the organisers, as if it did not exist."""
    battle = selectors.battle_for_page(campaign=campaign, pk=battle_id)
    if battle is None or (battle.status == BattleStatus.DRAFT and not can_see_draft_pairings(user, campaign)):
        raise NotFound("no such battle in this campaign")
    battle.campaign = campaign
    return battle


def campaign_challenge(campaign: Campaign, challenge_id: int) -> Challenge:
    challenge = selectors.challenge_for_page(campaign=campaign, pk=challenge_id)
    if challenge is None:
        raise NotFound("no such challenge in this campaign")
    challenge.campaign = campaign
    return challenge


def round_runner(request: Request, pk: int) -> tuple[Campaign, Any]:
    """The campaign and an organiser calling: 404 if unseen, 403 if seen but not run by the caller."""
    campaign = find_campaign(request, pk)
    user = logged_in(request)
    if not can_run_rounds(user, campaign):
        raise refuse("only the campaign's organisers run its rounds", "not-organiser")
    return campaign, user
