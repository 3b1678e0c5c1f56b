"""A battle's matchup sheet through the API: ``GET`` its status and, once worked out, the sheet; ``POST`` to
ask for it (``/api/campaigns/<id>/battles/<id>/matchup/``).

Whoever may not see it (an anonymous caller, a campaign or drafted battle they may not see) gets a 404, as
for a battle that does not exist: ``battles.permissions.can_view_matchup`` decides.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from battles.matchup_selectors import SIDES, MatchupLists, matchup_lists, matchup_progress, matchup_sheet_for
from battles.matchup_services import matchup_start
from battles.models import MatchupSheet
from battles.permissions import can_view_matchup
from campaign.api.campaigns import CampaignApi
from campaign.api.common import StrictInput, find_campaign, query, refusals
from campaign.api.round_shapes import campaign_battle
from campaign.models import Battle, Campaign
from core.errors import ConflictError
from core.openapi import MAX_ID

TAGS = ["matchup sheets"]
NOT_SEEN = (
    "not_found: no such campaign or battle, one you may not see, or you may not see its matchup sheet "
    "(an account that sees the campaign may)."
)
NOT_STARTED = "not_started"


def _list_field() -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False,
        help_text="A current registered list of that side (its id); by default the side's newest.",
    )  # fmt: skip


class MatchupChoice(StrictInput):
    attacker_list = _list_field()
    defender_list = _list_field()


class MatchupFiguresOutput(serializers.Serializer[Any]):
    p_destroyed = serializers.FloatField(help_text="The chance to destroy the target in one attack, 0 to 1.")
    expected_damage = serializers.FloatField(help_text="The damage points the target is expected to lose.")


class MatchupCellOutput(serializers.Serializer[Any]):
    weapon = serializers.CharField(allow_null=True, help_text="The best weapon; null when none can fire.")
    open = MatchupFiguresOutput(allow_null=True)
    cover = MatchupFiguresOutput(
        allow_null=True, help_text="Null for a target that cannot take cover (aircraft)."
    )


class MatchupRowOutput(serializers.Serializer[Any]):
    unit = serializers.IntegerField(help_text="The firing unit's index in its side's ``units``.")
    cells = MatchupCellOutput(many=True, help_text="One per unit of the other side, in its ``units`` order.")


class MatchupSidesOutput(serializers.Serializer[Any]):
    attacker = serializers.ListField(child=serializers.CharField())
    defender = serializers.ListField(child=serializers.CharField())


class MatchupFiringOutput(serializers.Serializer[Any]):
    attacker = MatchupRowOutput(many=True, help_text="The attacker's units firing at the defender's.")
    defender = MatchupRowOutput(many=True, help_text="The defender's units firing at the attacker's.")


class MatchupSheetOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    ruleset = serializers.DictField(help_text="The rule set the odds were worked out under.")
    units = MatchupSidesOutput(help_text="Each side's units, named as the sheet shows them.")
    firing = MatchupFiringOutput()
    left_out = MatchupSidesOutput(
        help_text="Each side's units left out: the referee cannot read their cards."
    )


class MatchupListOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    total_ap = serializers.IntegerField()


class MatchupProgressOutput(serializers.Serializer[Any]):
    percent = serializers.IntegerField()
    stage = serializers.CharField()


class MatchupOutput(serializers.Serializer[Any]):
    status = serializers.ChoiceField(
        choices=[NOT_STARTED, "queued", "running", "done", "failed"],
        help_text="not_started until someone asks for it (POST).",
    )
    progress = MatchupProgressOutput()
    attacker_list = MatchupListOutput(allow_null=True)
    defender_list = MatchupListOutput(allow_null=True)
    problem = serializers.CharField(allow_blank=True, help_text="Why it could not be worked out (failed).")
    sheet = MatchupSheetOutput(allow_null=True, help_text="Once done.")


def _shown(lists: MatchupLists, sheet: MatchupSheet | None) -> dict[str, Any]:
    answer: dict[str, Any] = {
        f"{side}_list": None if (chosen := lists.chosen[side]) is None
        else {"id": chosen.pk, "name": chosen.name, "total_ap": chosen.total_ap}
        for side in SIDES
    }  # fmt: skip
    if sheet is None:
        return {**answer, "status": NOT_STARTED, "progress": {"percent": 0, "stage": "not asked for yet"},
                "problem": "", "sheet": None}  # fmt: skip
    progress = matchup_progress(sheet)
    return {
        **answer, "status": sheet.status, "progress": {"percent": progress.percent, "stage": progress.stage},
        "problem": sheet.problem, "sheet": sheet.result if sheet.status == "done" else None,
    }  # fmt: skip


def _battle(request: Request, pk: int, battle_id: int) -> tuple[Campaign, Battle]:
    campaign = find_campaign(request, pk)
    battle = campaign_battle(request.user, campaign, battle_id)
    if not can_view_matchup(request.user, battle):
        raise NotFound("no such battle in this campaign")
    return campaign, battle


def _lists(battle: Battle, choice: dict[str, Any]) -> MatchupLists:
    return matchup_lists(
        battle=battle, attacker_list=choice.get("attacker_list"), defender_list=choice.get("defender_list")
    )


_LIST_PARAMETERS = [
    OpenApiParameter(f"{side}_list", int, description=f"The {side}'s list (by default its newest).")
    for side in SIDES
]


class MatchupApi(CampaignApi):
    @extend_schema(
        parameters=_LIST_PARAMETERS,
        responses={200: MatchupOutput, **refusals(s400="invalid; unknown-list", s404=NOT_SEEN)},
        operation_id="matchup_retrieve",
        tags=TAGS,
        description="A battle's matchup sheet for two of its sides' registered lists: its status and "
        "progress, and once done, for each unit against each enemy unit the best weapon, the chance to "
        "destroy it in one attack and the damage expected, in the open and in cover. Reads only.",
    )
    def get(self, request: Request, pk: int, battle_id: int) -> Response:
        _, battle = _battle(request, pk, battle_id)
        lists = _lists(battle, query(MatchupChoice, request))
        return Response(MatchupOutput(_shown(lists, matchup_sheet_for(battle=battle, lists=lists))).data)

    @extend_schema(
        request=MatchupChoice,
        responses={
            200: MatchupOutput,
            202: MatchupOutput,
            **refusals(
                s400="invalid, unknown-field; unknown-list",
                s404=NOT_SEEN,
                s409="no-registered-list: a side has no registered list yet.",
            ),
        },
        operation_id="matchup_start",
        tags=TAGS,
        description="Ask for the sheet to be worked out by a worker (202), unless it was asked for already "
        "(200: as it stands). It is worked out once per pair of lists; poll the GET for its progress.",
    )
    def post(self, request: Request, pk: int, battle_id: int) -> Response:
        _, battle = _battle(request, pk, battle_id)
        body = MatchupChoice(data=request.data)
        body.is_valid(raise_exception=True)
        lists = _lists(battle, dict(body.validated_data))
        attacker, defender = lists.chosen["attacker"], lists.chosen["defender"]
        if attacker is None or defender is None:
            missing = "attacker" if attacker is None else "defender"
            raise ConflictError(
                "no-registered-list", f"the {missing} has no registered list yet", f"{missing}_list"
            )
        sheet, queued = matchup_start(battle=battle, attacker=attacker, defender=defender, actor=request.user)
        code = status.HTTP_202_ACCEPTED if queued else status.HTTP_200_OK
        return Response(MatchupOutput(_shown(lists, sheet)).data, status=code)
