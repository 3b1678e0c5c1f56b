"""What the round waits on, for the organisers: ``GET /api/campaigns/{id}/dashboard/`` (the dashboard's
panel as counts), and what closing a round would do: ``GET .../rounds/{n}/close/`` (the close page)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from armies.blocs import BLOC_CHOICES
from campaign.api.campaigns import CampaignApi
from campaign.api.common import NOT_ORGANISER, UNSEEN, find_campaign, logged_in, refusals, refuse
from campaign.api.round_shapes import campaign_round
from campaign.options import Status
from campaign.permissions import can_run_rounds, can_see_round_waits
from campaign.selectors import dashboard as waits_selectors
from campaign.selectors.round_close import round_close_preview

NEXT_STEPS = [
    waits_selectors.OPEN_REGISTRATION,
    waits_selectors.START,
    waits_selectors.OPEN_ROUND,
    waits_selectors.GENERATE_PAIRINGS,
    waits_selectors.PUBLISH_PAIRINGS,
    waits_selectors.CLOSE_ROUND,
    waits_selectors.NONE,
]


class RoundWaitsOutput(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=Status.choices)
    round_number = serializers.IntegerField(allow_null=True, help_text="The open round, or null.")
    round_deadline = serializers.DateTimeField(allow_null=True)
    players_admitted = serializers.IntegerField()
    blocs_with_players = serializers.ListField(child=serializers.ChoiceField(choices=BLOC_CHOICES))
    join_requests = serializers.IntegerField(help_text="Players asking to join, waiting for an organiser.")
    players_without_list = serializers.IntegerField(help_text="Admitted players with no registered list.")
    battles_drafted = serializers.IntegerField(
        help_text="The open round's drafted pairing, not yet published."
    )
    battles_unreported = serializers.IntegerField(
        help_text="The open round's scheduled battles nobody reported."
    )
    battles_in_round = serializers.IntegerField(help_text="The open round's published battles, in any state.")
    hidden_results = serializers.IntegerField(
        help_text="Agreed results that take effect when the round closes."
    )
    challenges_open = serializers.IntegerField(help_text="The open round's challenges waiting for an answer.")
    reports_waiting = serializers.IntegerField(
        help_text="Reports waiting for the opponent to confirm or dispute."
    )
    reports_confirm_at = serializers.DateTimeField(
        allow_null=True, help_text="When the soonest of them is confirmed by itself (null when none waits)."
    )
    disputes = serializers.IntegerField(help_text="Disputed reports: each blocks closing its round.")
    next_step = serializers.ChoiceField(choices=NEXT_STEPS, help_text="What the campaign's next step is.")
    close_blocked = serializers.BooleanField(help_text="Closing the open round is refused (open disputes).")


class _BattleLine(serializers.Serializer[Any]):
    battle_id = serializers.IntegerField()
    name = serializers.CharField(source="label", help_text="The battle (or challenge) in words.")
    sector = serializers.CharField()
    outcome = serializers.CharField(help_text="A hidden result: who wins, or a draw; else empty.")


class _ChallengeLine(serializers.Serializer[Any]):
    challenge_id = serializers.IntegerField()
    name = serializers.CharField(source="label", help_text="The battle (or challenge) in words.")


class _IncomeLine(serializers.Serializer[Any]):
    holder = serializers.CharField()
    amount = serializers.IntegerField()
    reason = serializers.CharField()


class _DisputeLine(serializers.Serializer[Any]):
    battle_id = serializers.IntegerField()
    name = serializers.CharField(source="label", help_text="The battle (or challenge) in words.")
    reason = serializers.CharField()
    disputed_at = serializers.DateTimeField(allow_null=True)


class ClosePreviewOutput(serializers.Serializer[Any]):
    round_number = serializers.IntegerField()
    is_open = serializers.BooleanField()
    settled_as = serializers.ChoiceField(choices=["forfeited", "unplayed"])
    unreported = _BattleLine(many=True, help_text="Scheduled battles nobody reported: settled as settled_as.")
    drafts = serializers.IntegerField(help_text="Drafted battles never published: discarded.")
    challenges = _ChallengeLine(many=True, help_text="Challenges waiting for an answer: they expire.")
    hidden_results = _BattleLine(many=True, help_text="Agreed results that take effect, in the order agreed.")
    reports_unanswered = _BattleLine(many=True, help_text="Reports the opponent has not answered: they stay.")
    income = _IncomeLine(
        many=True, help_text="What each holder is paid, on the map the hidden results leave."
    )
    disputes = _DisputeLine(
        many=True, help_text="Disputed reports: the close is refused until each is resolved."
    )
    blocked = serializers.BooleanField()


class DashboardApi(CampaignApi):
    @extend_schema(
        responses={200: RoundWaitsOutput, **refusals(s403=NOT_ORGANISER, s404=UNSEEN)},
        operation_id="campaigns_dashboard",
        tags=["campaigns"],
        description="What the campaign's next step waits on (organisers): the counts the dashboard shows, "
        "in a constant number of queries, cheap enough to poll.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        if not can_see_round_waits(logged_in(request), campaign):
            raise refuse("only the campaign's organisers see what the round waits on", "not-organiser")
        waits = waits_selectors.round_waits_on(campaign=campaign)
        return Response(RoundWaitsOutput({**asdict(waits), "close_blocked": waits.close_blocked}).data)


class RoundClosePreviewMixin:
    @extend_schema(
        responses={
            200: ClosePreviewOutput,
            **refusals(s403=NOT_ORGANISER, s404=f"{UNSEEN} Or no such round."),
        },
        operation_id="rounds_close_preview",
        tags=["rounds"],
        description="What closing the round would do (organisers), without doing it: the battles settled "
        "as unplayed or forfeited, the challenges that expire, the hidden results that take effect, the "
        "income paid, and the disputes that must be resolved first.",
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        campaign = find_campaign(request, pk)
        if not can_run_rounds(logged_in(request), campaign):
            raise refuse("only the campaign's organisers run its rounds", "not-organiser")
        round = campaign_round(campaign, number)
        preview = round_close_preview(campaign=campaign, round=round)
        return Response(ClosePreviewOutput({**asdict(preview), "blocked": preview.blocked}).data)
