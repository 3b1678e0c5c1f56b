"""Challenge endpoints: the challenges of a campaign, issuing one, and answering or withdrawing it.

A player challenges an admitted player of another bloc over a sector their
bloc may attack; only the challenged player answers (an organiser answers for
a placeholder), only the challenger withdraws. Accepting schedules the battle.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from campaign import limits
from campaign.api.campaigns import CampaignApi
from campaign.api.common import (
    SEE,
    UNSEEN,
    CampaignPagination,
    StrictInput,
    find_campaign,
    logged_in,
    query,
    refusals,
    refuse,
)
from campaign.api.round_shapes import (
    ROUND_MAX,
    PlaceBriefOutput,
    SectorBriefOutput,
    campaign_challenge,
    sector_key_field,
    shape_context,
)
from campaign.errors import CampaignError
from campaign.models import Campaign, Challenge, ChallengeStatus
from campaign.permissions import campaign_access, can_answer_challenge, can_challenge, can_withdraw_challenge
from campaign.selectors import enrolment_in_campaign
from campaign.selectors import rounds as selectors
from campaign.services import challenges as services
from core.openapi import MAX_ID

CHALLENGES = ["challenges"]
SEE_CHALLENGE = refusals(s404=f"{UNSEEN} Or no such challenge.")


class ChallengeOutput(serializers.ModelSerializer[Challenge]):
    """A challenge from ``challenges_for_campaign`` (round, sector and both sides loaded)."""

    round = serializers.IntegerField(source="round.number", min_value=1, max_value=ROUND_MAX)
    status = serializers.ChoiceField(choices=ChallengeStatus.choices)
    challenger = PlaceBriefOutput()
    challenged = PlaceBriefOutput()
    sector = SectorBriefOutput()
    battle = serializers.IntegerField(
        source="battle_id", allow_null=True, help_text="The battle an accepted challenge scheduled."
    )
    url = serializers.SerializerMethodField()

    class Meta:
        model = Challenge
        fields = [
            "id", "url", "round", "status", "challenger", "challenged", "sector", "message", "deadline",
            "created_at", "answered_at", "battle",
        ]  # fmt: skip

    @extend_schema_field(OpenApiTypes.URI)
    def get_url(self, challenge: Challenge) -> str:
        return reverse(
            "api:campaign-challenge",
            kwargs={"pk": challenge.campaign_id, "challenge_id": challenge.pk},
            request=self.context.get("request"),
        )


class ChallengeListQuery(serializers.Serializer[Any]):
    round = serializers.IntegerField(
        min_value=1, max_value=ROUND_MAX, required=False, help_text="A round number."
    )
    status = serializers.ChoiceField(choices=ChallengeStatus.choices, required=False)
    mine = serializers.BooleanField(
        required=False, default=False, help_text="Only the challenges you made or received."
    )


class ChallengeIssueInput(StrictInput):
    challenged = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        help_text="The place (enrolment) id of an admitted player of another bloc.",
    )
    sector = sector_key_field(
        help_text="A sector your bloc may attack: neutral, or theirs next to one your bloc holds."
    )
    message = serializers.CharField(
        max_length=limits.MESSAGE_MAX_LENGTH, allow_blank=True, required=False, help_text="A note to them."
    )


def _out(request: Request, campaign: Campaign, challenge_id: int, code: int = status.HTTP_200_OK) -> Response:
    """The challenge read afresh, as the list shows it."""
    challenge = campaign_challenge(campaign, challenge_id)
    return Response(ChallengeOutput(challenge, context=shape_context(request, campaign)).data, status=code)


class ChallengeCollectionApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        parameters=[ChallengeListQuery],
        responses={
            200: ChallengeOutput(many=True),
            **SEE,
            **refusals(s400="invalid: a filter out of bounds."),
        },
        operation_id="challenges_list",
        tags=CHALLENGES,
        description="The campaign's challenges, newest first.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        filters = query(ChallengeListQuery, request)
        own = campaign_access(request.user, campaign).enrolment if filters["mine"] else None
        rows = selectors.challenges_for_api(
            campaign=campaign,
            round_number=filters.get("round"),
            status=filters.get("status", ""),
            enrolment_id=own.pk if own is not None else None,
        )
        if filters["mine"] and own is None:
            rows = rows.none()
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(
            ChallengeOutput(page, many=True, context=shape_context(request, campaign)).data
        )

    @extend_schema(
        request=ChallengeIssueInput,
        responses={
            201: ChallengeOutput,
            **refusals(
                s400="invalid, unknown-field; unknown-player, not-admitted, same-bloc; unknown-sector, "
                "sector-not-attackable, sector-not-theirs.",
                s403="not_authenticated; not-a-player: only an admitted player challenges, for their own place.",
                s404=UNSEEN,
                s409="no-open-round; already-fighting (either side has a battle this round); "
                "too-many-challenges.",
            ),
        },
        operation_id="challenges_issue",
        tags=CHALLENGES,
        description="Challenge an admitted player of another bloc over a sector your bloc may attack, "
        "in the open round; they are told and answer by the challenge's deadline.",
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        user = logged_in(request)
        if not can_challenge(user, campaign):
            raise refuse("only an admitted player of the campaign challenges", "not-a-player")
        challenger = campaign_access(user, campaign).enrolment
        assert challenger is not None
        data = ChallengeIssueInput(data=request.data)
        data.is_valid(raise_exception=True)
        challenged = enrolment_in_campaign(campaign=campaign, pk=data.validated_data["challenged"])
        if challenged is None:
            raise CampaignError("unknown-player", "there is no such place in this campaign", "challenged")
        challenge = services.challenge_issue(
            challenger=challenger, challenged=challenged, sector_key=data.validated_data["sector"], actor=user,
            message=data.validated_data.get("message", ""),
        )  # fmt: skip
        return _out(request, campaign, challenge.pk, status.HTTP_201_CREATED)


class ChallengeApi(CampaignApi):
    @extend_schema(
        responses={200: ChallengeOutput, **SEE_CHALLENGE},
        operation_id="challenges_retrieve",
        tags=CHALLENGES,
        description="A challenge: who challenged whom, over which sector, its status and the battle it led to.",
    )
    def get(self, request: Request, pk: int, challenge_id: int) -> Response:
        return _out(request, find_campaign(request, pk), challenge_id)


_ANSWER_REFUSALS = refusals(
    s403="not_authenticated; not-challenged: only the challenged player answers (an organiser for a "
    "placeholder).",
    s404=f"{UNSEEN} Or no such challenge.",
)


def _answerable(request: Request, pk: int, challenge_id: int) -> tuple[Campaign, Any, Challenge]:
    campaign = find_campaign(request, pk)
    user = logged_in(request)
    challenge = campaign_challenge(campaign, challenge_id)
    if not can_answer_challenge(user, challenge):
        raise refuse("only the challenged player answers this challenge", "not-challenged")
    return campaign, user, challenge


class ChallengeAcceptApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={
            200: ChallengeOutput,
            **_ANSWER_REFUSALS,
            **refusals(
                s409="challenge-answered, challenge-expired; round-not-open; already-fighting; same-bloc "
                "(one of the two has since joined the other's bloc)."
            ),
        },
        operation_id="challenges_accept",
        tags=CHALLENGES,
        description="Accept: the battle is scheduled at once in the challenge's round (see battle).",
    )
    def post(self, request: Request, pk: int, challenge_id: int) -> Response:
        campaign, user, challenge = _answerable(request, pk, challenge_id)
        services.challenge_accept(challenge=challenge, actor=user)
        return _out(request, campaign, challenge_id)


class ChallengeDeclineApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={
            200: ChallengeOutput,
            **_ANSWER_REFUSALS,
            **refusals(s409="challenge-answered, challenge-expired."),
        },
        operation_id="challenges_decline",
        tags=CHALLENGES,
        description="Decline: the challenger is told.",
    )
    def post(self, request: Request, pk: int, challenge_id: int) -> Response:
        campaign, user, challenge = _answerable(request, pk, challenge_id)
        services.challenge_decline(challenge=challenge, actor=user)
        return _out(request, campaign, challenge_id)


class ChallengeWithdrawApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={
            200: ChallengeOutput,
            **refusals(
                s403="not_authenticated; not-challenger: only the challenger withdraws (an organiser for a "
                "placeholder).",
                s404=f"{UNSEEN} Or no such challenge.",
                s409="challenge-answered, challenge-expired.",
            ),
        },
        operation_id="challenges_withdraw",
        tags=CHALLENGES,
        description="Take back a challenge not yet answered (the challenger).",
    )
    def post(self, request: Request, pk: int, challenge_id: int) -> Response:
        campaign = find_campaign(request, pk)
        user = logged_in(request)
        challenge = campaign_challenge(campaign, challenge_id)
        if not can_withdraw_challenge(user, challenge):
            raise refuse("only the challenger withdraws this challenge", "not-challenger")
        services.challenge_withdraw(challenge=challenge, actor=user)
        return _out(request, campaign, challenge_id)
