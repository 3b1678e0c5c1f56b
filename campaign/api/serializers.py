"""The shapes the campaign API reads and writes, bounded by the same constants as the services.

Inputs refuse unknown fields (``StrictInput``); every bound comes from
``campaign.limits``, ``armies.validation.limits`` or the map engine, so the
schema says what the services accept. The services check everything again:
these serializers describe and pre-check, they decide nothing.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.reverse import reverse

from armies.blocs import BLOC_CHOICES, Bloc
from armies.models import Catalogue
from armies.validation import limits as list_limits
from campaign import limits, permissions
from campaign.api.common import StrictInput, UserBriefOutput
from campaign.models import Campaign, CoOrganiser, Enrolment, EnrolmentStatus
from campaign.options import SETTING_HELP, ResourceHolder, Status, Tiebreaker, UnplayedPolicy
from campaign.services.webhooks import webhook_url_check
from core.errors import DomainError
from core.fields import BoundedListField
from rules.engine.ruleset import NAMES, SWITCHES, RuleSet, switch_names


def _ruleset_serializer(name: str, *, base: type[serializers.Serializer[Any]], required: bool) -> Any:
    """One boolean per RtZ switch, each with its line of help: the schema lists every section by name."""
    fields: dict[str, serializers.Field[Any, Any, Any, Any]] = {
        "name": serializers.ChoiceField(
            choices=list(NAMES), help_text="The preset the switches start from: every RtZ rule on, or none."
        )
    }
    for switch in switch_names():
        fields[switch] = serializers.BooleanField(required=required, help_text=SWITCHES[switch])
    return type(name, (base,), fields)


RulesetInput = _ruleset_serializer("RulesetInput", base=StrictInput, required=False)
RulesetOutput = _ruleset_serializer("RulesetOutput", base=serializers.Serializer, required=True)


def _score(field: str) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=limits.SCORE_MIN, max_value=limits.SCORE_MAX, required=False, help_text=SETTING_HELP[field]
    )


class CampaignSettingsInput(StrictInput):
    """Every setting of a campaign; each is optional, and only those sent change."""

    name = serializers.CharField(
        max_length=limits.NAME_MAX_LENGTH, required=False, help_text=SETTING_HELP["name"]
    )
    description = serializers.CharField(
        max_length=limits.DESCRIPTION_MAX_LENGTH, allow_blank=True, required=False,
        help_text=SETTING_HELP["description"],
    )  # fmt: skip
    is_public = serializers.BooleanField(required=False, help_text=SETTING_HELP["is_public"])
    catalogue = serializers.PrimaryKeyRelatedField(
        queryset=Catalogue.objects.all(), allow_null=True, required=False, help_text=SETTING_HELP["catalogue"]
    )
    points_limit = serializers.IntegerField(
        min_value=list_limits.POINTS_LIMIT_MIN, max_value=list_limits.POINTS_LIMIT_MAX, required=False,
        help_text=SETTING_HELP["points_limit"],
    )  # fmt: skip
    points_win = _score("points_win")
    points_draw = _score("points_draw")
    points_loss = _score("points_loss")
    tiebreakers = BoundedListField(
        child=serializers.ChoiceField(choices=Tiebreaker.choices), max_length=limits.MAX_TIEBREAKERS,
        required=False, help_text=SETTING_HELP["tiebreakers"],
    )  # fmt: skip
    ruleset = RulesetInput(required=False, help_text=SETTING_HELP["ruleset"])
    resources_held_by = serializers.ChoiceField(
        choices=ResourceHolder.choices, required=False, help_text=SETTING_HELP["resources_held_by"]
    )
    strongpoint_cost = serializers.IntegerField(
        min_value=0,
        max_value=limits.RESOURCE_COST_MAX,
        required=False,
        help_text=SETTING_HELP["strongpoint_cost"],
    )
    bunker_cost = serializers.IntegerField(
        min_value=0, max_value=limits.RESOURCE_COST_MAX, required=False, help_text=SETTING_HELP["bunker_cost"]
    )
    income_base = serializers.IntegerField(
        min_value=0, max_value=limits.INCOME_MAX, required=False, help_text=SETTING_HELP["income_base"]
    )
    max_players_per_bloc = serializers.IntegerField(
        min_value=1, max_value=limits.MAX_PLAYERS_PER_BLOC, allow_null=True, required=False,
        help_text=SETTING_HELP["max_players_per_bloc"],
    )  # fmt: skip
    unplayed_battles = serializers.ChoiceField(
        choices=UnplayedPolicy.choices, required=False, help_text=SETTING_HELP["unplayed_battles"]
    )
    max_open_challenges = serializers.IntegerField(
        min_value=0, max_value=limits.MAX_OPEN_CHALLENGES, required=False,
        help_text=SETTING_HELP["max_open_challenges"],
    )  # fmt: skip
    challenge_days = serializers.IntegerField(
        min_value=1,
        max_value=limits.CHALLENGE_DAYS_MAX,
        required=False,
        help_text=SETTING_HELP["challenge_days"],
    )
    report_confirm_hours = serializers.IntegerField(
        min_value=1, max_value=limits.REPORT_CONFIRM_HOURS_MAX, required=False,
        help_text=SETTING_HELP["report_confirm_hours"],
    )  # fmt: skip
    award_win = serializers.IntegerField(
        min_value=0, max_value=limits.RESOURCE_COST_MAX, required=False, help_text=SETTING_HELP["award_win"]
    )
    award_draw = serializers.IntegerField(
        min_value=0, max_value=limits.RESOURCE_COST_MAX, required=False, help_text=SETTING_HELP["award_draw"]
    )
    hide_results_until_close = serializers.BooleanField(
        required=False, help_text=SETTING_HELP["hide_results_until_close"]
    )
    webhook_url = serializers.CharField(
        max_length=limits.WEBHOOK_URL_MAX_LENGTH, allow_blank=True, required=False,
        help_text=SETTING_HELP["webhook_url"],
    )  # fmt: skip

    def validate_webhook_url(self, value: str) -> str:
        try:
            return webhook_url_check(value)
        except DomainError as exc:
            raise serializers.ValidationError(exc.message, code=exc.code) from exc


class CampaignCreateInput(CampaignSettingsInput):
    name = serializers.CharField(max_length=limits.NAME_MAX_LENGTH, help_text=SETTING_HELP["name"])


class CampaignUpdateInput(CampaignSettingsInput):
    reason = serializers.CharField(
        max_length=limits.REASON_MAX_LENGTH, allow_blank=True, required=False,
        help_text="Why the settings change; the campaign log shows it with each change.",
    )  # fmt: skip


class CampaignListQuery(serializers.Serializer[Any]):
    scope = serializers.ChoiceField(
        choices=[("public", "public"), ("mine", "mine")], required=False,
        help_text="public: public campaigns only; mine: those you run, help run, play in or asked to join.",
    )  # fmt: skip
    status = serializers.ChoiceField(choices=Status.choices, required=False)


class CatalogueBriefOutput(serializers.ModelSerializer[Catalogue]):
    class Meta:
        model = Catalogue
        fields = ["id", "name", "version"]


class CampaignSummaryOutput(serializers.ModelSerializer[Campaign]):
    organiser = UserBriefOutput()
    player_count = serializers.IntegerField(min_value=0, help_text="Admitted players.")
    url = serializers.SerializerMethodField()

    class Meta:
        model = Campaign
        fields = [
            "id",
            "url",
            "name",
            "status",
            "is_public",
            "organiser",
            "points_limit",
            "player_count",
            "created_at",
        ]

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, campaign: Campaign) -> str:
        return reverse("api:campaign", kwargs={"pk": campaign.pk}, request=self.context.get("request"))


class CoOrganiserOutput(serializers.ModelSerializer[CoOrganiser]):
    user = UserBriefOutput()

    class Meta:
        model = CoOrganiser
        fields = ["user", "added_at"]


class MapSummaryOutput(serializers.Serializer[Any]):
    name = serializers.CharField()
    version = serializers.IntegerField(min_value=1, help_text="Goes up each time a map is loaded.")
    sectors = serializers.IntegerField(min_value=0)


class ViewerOutput(serializers.Serializer[Any]):
    """What the caller is to the campaign and may do there (campaign.permissions, asked once)."""

    is_creator = serializers.BooleanField()
    is_organiser = serializers.BooleanField()
    enrolment = serializers.IntegerField(allow_null=True, help_text="Your place in the campaign, if any.")
    enrolment_status = serializers.ChoiceField(choices=EnrolmentStatus.choices, allow_null=True)
    can_manage = serializers.BooleanField()
    can_add_co_organisers = serializers.BooleanField()
    can_join = serializers.BooleanField()
    can_withdraw = serializers.BooleanField()
    can_leave = serializers.BooleanField()


class LinksOutput(serializers.Serializer[Any]):
    """Where the campaign's parts are."""

    enrolments = serializers.URLField()
    co_organisers = serializers.URLField()
    sectors = serializers.URLField()
    map = serializers.URLField(help_text="The loaded map document (GET), or load one (PUT).")
    map_svg = serializers.URLField()
    log = serializers.URLField()
    registrations = serializers.URLField()
    rounds = serializers.URLField()
    battles = serializers.URLField()
    challenges = serializers.URLField()
    balances = serializers.URLField()
    ledger = serializers.URLField()
    purchases = serializers.URLField()


PlayersPerBlocOutput = type(
    "PlayersPerBlocOutput",
    (serializers.Serializer,),
    {bloc.value: serializers.IntegerField(min_value=0) for bloc in Bloc},
)

# The URL names of the campaign's parts, by the key they have in ``links``.
_LINKS = {
    "enrolments": "api:campaign-enrolments",
    "co_organisers": "api:campaign-co-organisers",
    "sectors": "api:campaign-sectors",
    "map": "api:campaign-map",
    "map_svg": "api:campaign-map-svg",
    "log": "api:campaign-log",
    "registrations": "api:campaign-registrations",
    "rounds": "api:campaign-rounds",
    "battles": "api:campaign-battles",
    "challenges": "api:campaign-challenges",
    "balances": "api:campaign-balances",
    "ledger": "api:campaign-ledger",
    "purchases": "api:campaign-purchases",
    # Served by the apps built on the campaign (reversed by name: the campaign imports neither).
    "reports": "api:campaign-reports",
    "standings": "api:standings",
}


class CampaignDetailOutput(serializers.ModelSerializer[Campaign]):
    """A campaign from ``selectors.campaign_for_api``; the request is in the context as ``request``."""

    organiser = UserBriefOutput()
    co_organisers = serializers.SerializerMethodField()
    catalogue = CatalogueBriefOutput(allow_null=True)
    tiebreakers = serializers.ListField(child=serializers.ChoiceField(choices=Tiebreaker.choices))
    ruleset = serializers.SerializerMethodField()
    map = serializers.SerializerMethodField()
    players_per_bloc = serializers.SerializerMethodField()
    pending_count = serializers.IntegerField(min_value=0, help_text="Join requests waiting for a decision.")
    invite_token = serializers.SerializerMethodField(
        help_text="The invitation (join with it as invite_token); null unless you organise the campaign."
    )
    webhook_url = serializers.SerializerMethodField(
        help_text="Where results and round changes are posted; null unless you organise the campaign."
    )
    viewer = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()

    class Meta:
        model = Campaign
        fields = [
            "id", "name", "description", "status", "is_public", "organiser", "co_organisers",
            "catalogue", "catalogue_version", "points_limit", "points_win", "points_draw", "points_loss",
            "tiebreakers", "ruleset", "resources_held_by", "strongpoint_cost", "bunker_cost", "income_base",
            "max_players_per_bloc", "unplayed_battles", "max_open_challenges", "challenge_days",
            "report_confirm_hours", "award_win", "award_draw", "hide_results_until_close", "results_version",
            "webhook_url", "current_round", "map", "players_per_bloc",
            "pending_count", "invite_token", "viewer", "links", "created_at", "started_at", "finished_at",
        ]  # fmt: skip

    @property
    def _request(self) -> Request:
        request: Request = self.context["request"]
        return request

    @extend_schema_field(CoOrganiserOutput(many=True))
    def get_co_organisers(self, campaign: Campaign) -> Any:
        return CoOrganiserOutput(campaign.co_organisers.all(), many=True).data

    @extend_schema_field(RulesetOutput)
    def get_ruleset(self, campaign: Campaign) -> dict[str, object]:
        return RuleSet.from_dict(campaign.ruleset).to_dict()

    @extend_schema_field(MapSummaryOutput(allow_null=True))
    def get_map(self, campaign: Campaign) -> dict[str, Any] | None:
        document = campaign.map_document
        if document is None:
            return None
        return {
            "name": document["name"],
            "version": campaign.map_version,
            "sectors": len(document["sectors"]),
        }

    @extend_schema_field(PlayersPerBlocOutput)
    def get_players_per_bloc(self, campaign: Campaign) -> dict[str, int]:
        return {bloc.value: getattr(campaign, f"players_{bloc.value.lower()}") for bloc in Bloc}

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_invite_token(self, campaign: Campaign) -> str | None:
        return campaign.invite_token if permissions.can_see_invite(self._request.user, campaign) else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_webhook_url(self, campaign: Campaign) -> str | None:
        return campaign.webhook_url if permissions.can_manage_campaign(self._request.user, campaign) else None

    @extend_schema_field(ViewerOutput)
    def get_viewer(self, campaign: Campaign) -> dict[str, Any]:
        user = self._request.user
        access = permissions.campaign_access(user, campaign)
        return {
            "is_creator": access.is_creator,
            "is_organiser": access.is_organiser,
            "enrolment": access.enrolment.pk if access.enrolment is not None else None,
            "enrolment_status": access.status,
            "can_manage": permissions.can_manage_campaign(user, campaign),
            "can_add_co_organisers": permissions.can_add_co_organisers(user, campaign),
            "can_join": permissions.can_join(user, campaign),
            "can_withdraw": permissions.can_withdraw(user, campaign),
            "can_leave": permissions.can_leave(user, campaign),
        }

    @extend_schema_field(LinksOutput)
    def get_links(self, campaign: Campaign) -> dict[str, str]:
        return {
            key: reverse(name, kwargs={"pk": campaign.pk}, request=self._request)
            for key, name in _LINKS.items()
        }


class UsernameInput(StrictInput):
    username = serializers.CharField(max_length=150, help_text="The account to add, by its username.")


class InviteOutput(serializers.Serializer[Any]):
    invite_token = serializers.CharField()


# --------------------------------------------------------------------------- players


class EnrolmentOutput(serializers.ModelSerializer[Enrolment]):
    """A place; ``message`` and ``decision_reason`` only for its player and the organisers (else "")."""

    player = UserBriefOutput(allow_null=True, help_text="The account, or null for a placeholder.")
    name = serializers.CharField(source="display_name")
    is_placeholder = serializers.BooleanField()
    bloc = serializers.ChoiceField(choices=BLOC_CHOICES)
    message = serializers.SerializerMethodField()
    decision_reason = serializers.SerializerMethodField()

    class Meta:
        model = Enrolment
        fields = [
            "id", "campaign", "player", "name", "is_placeholder", "bloc", "faction", "mercenary", "status",
            "message", "decision_reason", "joined_at", "decided_at", "left_at",
        ]  # fmt: skip

    def _notes_shown(self, enrolment: Enrolment) -> bool:
        request: Request = self.context["request"]
        return permissions.can_see_enrolment_notes(request.user, enrolment)

    def get_message(self, enrolment: Enrolment) -> str:
        return enrolment.message if self._notes_shown(enrolment) else ""

    def get_decision_reason(self, enrolment: Enrolment) -> str:
        return enrolment.decision_reason if self._notes_shown(enrolment) else ""


class EnrolmentListQuery(serializers.Serializer[Any]):
    bloc = serializers.ChoiceField(choices=BLOC_CHOICES, required=False)
    status = serializers.ChoiceField(choices=EnrolmentStatus.choices, required=False)


class JoinInput(StrictInput):
    bloc = serializers.ChoiceField(
        choices=BLOC_CHOICES, help_text="The bloc you fight for (a mercenary player's too)."
    )
    faction = serializers.CharField(
        max_length=list_limits.KEY_MAX_LENGTH, allow_blank=True, required=False,
        help_text="A faction key of the campaign's catalogue, of that bloc; none for a mercenary.",
    )  # fmt: skip
    mercenary = serializers.BooleanField(required=False, default=False)
    message = serializers.CharField(
        max_length=limits.MESSAGE_MAX_LENGTH, allow_blank=True, required=False,
        help_text="A note to the organisers.",
    )  # fmt: skip
    invite_token = serializers.CharField(
        max_length=40, allow_blank=True, required=False,
        help_text="The invitation of a private campaign; without it a private campaign answers 404.",
    )  # fmt: skip


class LeaveInput(StrictInput):
    reason = serializers.CharField(max_length=limits.REASON_MAX_LENGTH, allow_blank=True, required=False)


class RefuseInput(StrictInput):
    reason = serializers.CharField(
        max_length=limits.REASON_MAX_LENGTH, help_text="Why: the player is told.",
    )  # fmt: skip


class PlaceholderInput(StrictInput):
    name = serializers.CharField(max_length=limits.PLACEHOLDER_NAME_MAX_LENGTH)
    bloc = serializers.ChoiceField(choices=BLOC_CHOICES)
    faction = serializers.CharField(max_length=list_limits.KEY_MAX_LENGTH, allow_blank=True, required=False)
    mercenary = serializers.BooleanField(required=False, default=False)


class ClaimLinkOutput(serializers.Serializer[Any]):
    enrolment = serializers.IntegerField()
    claim_token = serializers.CharField(help_text="Give it to the member: they claim the place with it.")
    claim_url = serializers.URLField(help_text="Where the member's account POSTs the token.")


class ClaimInput(StrictInput):
    token = serializers.CharField(max_length=40)
