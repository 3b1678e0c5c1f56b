"""Report endpoints: a battle's report (read it, preview, submit, confirm, dispute, resolve, enter) and the
campaign's reports and disputes.

The order of the checks is the campaign API's (``campaign.api.common``): a campaign the caller may not
see, or a drafted battle they may not see, is a 404; an action needing an account is a 403
``not_authenticated``; a caller who may not act gets a 403 with a code saying why
(``battles.permissions`` decides; whether a result is hidden, ``campaign.permissions``); what the
report's state refuses is the service's 400 or 409 (``report-changed``, ``already-reported``,
``round-closed``), mapped by ``core.api``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from battles import permissions as may
from battles import selectors, services
from battles.api.shapes import (
    EnterBody,
    ReasonBody,
    ReportBody,
    ReportOutput,
    ReportSummaryOutput,
    ResolveBody,
    ResultOutput,
    SubmitBody,
    preview_shown,
    report_input,
)
from battles.judging import ReportError
from battles.models import BattleReport, ReportStatus
from campaign.api.campaigns import CampaignApi
from campaign.api.common import (
    UNSEEN,
    CampaignPagination,
    find_campaign,
    logged_in,
    query,
    refusals,
    refuse,
)
from campaign.api.round_shapes import ROUND_MAX, campaign_battle, shape_context
from campaign.models import Battle, Campaign
from campaign.permissions import can_see_result
from core.errors import FieldProblem

REPORTS = ["reports"]
NO_BATTLE = f"{UNSEEN} Or no such battle (a drafted one is the organisers' only)."
NO_REPORT = f"{NO_BATTLE} no-report: the battle has no report yet."
BAD_REPORT = (
    "invalid, unknown-field, out-of-range; unknown-registration, not-their-list, list-not-legal-for-battle, "
    "fortification-not-allowed; and what the rules app refuses, every problem with its field: "
    "unknown-entry, reserve-hero, reserve-strongpoint-unit, too-many-reserves, reserve-without-loss, "
    "lost-too-often, turn-limit-not-reached, elimination-with-units-in-play, objective-not-completed, "
    "battle-not-over, required (conceded_by), not-a-concession."
)
CHANGED = "report-changed: the report moved on meanwhile (someone else answered first); nothing was done."

EXAMPLE_REPORT = {
    "attacker_registration": 41, "defender_registration": 42, "fortification": "none", "turns": 6,
    "ending": "turn_limit", "conceded_by": None,
    "attacker": {"lost": ["e2"], "reserves": [], "objective": False, "scenario_vp": 0},
    "defender": {"lost": ["e1", "e3", "e1"], "reserves": ["e1"], "objective": False, "scenario_vp": 10},
}  # fmt: skip
EXAMPLES = [OpenApiExample("Fought to the turn limit", value=EXAMPLE_REPORT, request_only=True)]

T = TypeVar("T")


def _battle(request: Request, pk: int, battle_id: int) -> tuple[Campaign, Battle]:
    campaign = find_campaign(request, pk)
    return campaign, campaign_battle(request.user, campaign, battle_id)


def _report(campaign: Campaign, battle: Battle) -> BattleReport:
    """The battle's report, carrying the campaign and battle already loaded (404 when there is none)."""
    report = selectors.report_for_api(battle=battle)
    if report is None:
        raise NotFound("this battle has no report yet", code="no-report")
    report.campaign = campaign
    report.battle = battle
    return report


def _checked(body_class: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    body = body_class(data=request.data)
    body.is_valid(raise_exception=True)
    return dict(body.validated_data)


def _under(prefix: str, call: Callable[[], T]) -> T:
    """Run ``call``; a report refused inside a body's ``prefix`` object names its fields from the body."""
    try:
        return call()
    except ReportError as exc:
        raise ReportError(
            [FieldProblem(f"{prefix}.{p.field}", p.code, p.message) for p in exc.problems]
        ) from exc


def shown(
    request: Request, campaign: Campaign, report: BattleReport, code: int = status.HTTP_200_OK
) -> Response:
    """The report as the caller sees it, with its history and what the caller may do."""
    battle = report.battle
    user = request.user
    waiting = report.status == ReportStatus.SUBMITTED and may.can_answer(user, report)
    actions = {"confirm": waiting, "dispute": waiting, "resolve": may.can_resolve(user, battle)}
    context = {
        **shape_context(request, campaign),
        "history": selectors.report_history(report=report),
        "actions": actions,
        # The answer's only places are the battle's two sides: whether they have a registered list came with
        # the report (selectors.report_for_api), not a read of every place of the campaign
        # (campaign.api.round_shapes.registered_places).
        "registered_places": {
            campaign.pk: frozenset(
                place
                for place, side in ((battle.attacker_id, "attacker"), (battle.defender_id, "defender"))
                if getattr(report, f"{side}_listed")
            )
        },
    }
    return Response(ReportOutput(report, context=context).data, status=code)


def written(
    request: Request, campaign: Campaign, report: BattleReport, code: int = status.HTTP_200_OK
) -> Response:
    """The report as a submission, confirmation or dispute just left it, from the service's own objects
    rather than read again: the report it wrote (its status and the columns its conditional update set; its
    registered lists, frozen snapshots, as read before), and its battle with its round, sector, sides and
    whether each side has a current registered list, read under the campaign's lock, with what the action
    wrote set on them (the battle's status and result, the sector's new holder). Its history is read."""
    battle = report.battle
    report.campaign = battle.campaign = campaign
    report.attacker_listed = battle.attacker_listed  # type: ignore[attr-defined]
    report.defender_listed = battle.defender_listed  # type: ignore[attr-defined]
    return shown(request, campaign, report, code)


def after(request: Request, campaign: Campaign, battle: Battle, code: int = status.HTTP_200_OK) -> Response:
    """The report after an action, read afresh with its battle (whose status and sector may have moved), in
    one query: the caller found the battle as the user may see it before acting."""
    report = selectors.report_for_api(battle=battle, with_battle=True)
    if report is None:
        raise NotFound("this battle has no report yet", code="no-report")
    report.campaign = report.battle.campaign = campaign
    return shown(request, campaign, report, code)


class ReportApi(CampaignApi):
    @extend_schema(
        responses={
            200: ReportOutput,
            **refusals(
                s403="result-hidden: the campaign shows this round's results when it closes (to all but "
                "the organisers and the battle's players); report-not-confirmed: until it is confirmed a "
                "report is the two players' and the organisers' only.",
                s404=NO_REPORT,
            ),
        },
        operation_id="reports_retrieve",
        tags=REPORTS,
        description="A battle's report: both registered lists with each entry's name, AP paid, times lost "
        "and placed in reserve; the result and its victory points; its status, dispute and resolution; "
        "its history, oldest first; and what you may do with it.",
    )
    def get(self, request: Request, pk: int, battle_id: int) -> Response:
        campaign, battle = _battle(request, pk, battle_id)
        report = _report(campaign, battle)
        if not may.can_view_report(request.user, report):
            if not can_see_result(request.user, battle):
                raise refuse("this round's results are shown when it closes", "result-hidden")
            raise refuse("a report is shown to all once it is confirmed", "report-not-confirmed")
        return shown(request, campaign, report)

    @extend_schema(
        request=SubmitBody,
        examples=EXAMPLES,
        responses={
            201: ReportOutput,
            **refusals(
                s400=BAD_REPORT,
                s403="not_authenticated; not-a-side: only the battle's two players report it (an organiser "
                "for a placeholder's side); not-that-side: you do not report for the side you named.",
                s404=NO_BATTLE,
                s409="already-reported: the battle has a report (or was settled); round-closed: ask an "
                "organiser to enter it.",
            ),
        },
        operation_id="reports_submit",
        tags=REPORTS,
        description="Report the battle for your side. The rules app judges it; nothing is saved if it "
        "does not add up (400, every problem named by its field). The opponent is told to confirm it.",
    )
    def post(self, request: Request, pk: int, battle_id: int) -> Response:
        campaign, battle = _battle(request, pk, battle_id)
        user = logged_in(request)
        if not may.can_report(user, battle):
            raise refuse("only the battle's two players report it", "not-a-side")
        body = _checked(SubmitBody, request)
        side = body.pop("side", None) or may.side_of(user, battle)
        if side is None or not may.can_report_as(user, battle, side):
            raise refuse(f"you do not report for the {side}", "not-that-side")
        data = report_input(campaign, body)
        report = services.report_submit(battle=battle, actor=user, side=side, data=data)
        return written(request, campaign, report, status.HTTP_201_CREATED)


class ReportPreviewApi(CampaignApi):
    @extend_schema(
        request=ReportBody,
        examples=EXAMPLES,
        responses={
            200: ResultOutput,
            **refusals(
                s400=BAD_REPORT,
                s403="not_authenticated; not-a-side: the battle's players and the organisers preview.",
                s404=NO_BATTLE,
            ),
        },
        operation_id="reports_preview",
        tags=REPORTS,
        description="What the rules app would judge of this report: the winner or a draw and the "
        "victory points. Saves nothing; a report that does not add up is a 400 naming every problem.",
    )
    def post(self, request: Request, pk: int, battle_id: int) -> Response:
        campaign, battle = _battle(request, pk, battle_id)
        user = logged_in(request)
        if not (may.can_report(user, battle) or may.can_resolve(user, battle)):
            raise refuse("only the battle's players and the organisers preview its report", "not-a-side")
        data = report_input(campaign, _checked(ReportBody, request))
        return Response(preview_shown(services.report_preview(battle=battle, data=data), data))


def _answerable(request: Request, pk: int, battle_id: int) -> tuple[Campaign, Battle, BattleReport, Any]:
    campaign, battle = _battle(request, pk, battle_id)
    user = logged_in(request)
    report = _report(campaign, battle)
    if not may.can_answer(user, report):
        raise refuse("only the opponent of who reported confirms or disputes", "not-the-opponent")
    return campaign, battle, report, user


ANSWER_403 = (
    "not_authenticated; not-the-opponent: only the other side confirms or disputes (an organiser for a "
    "placeholder's side)."
)


class ReportConfirmApi(CampaignApi):
    @extend_schema(
        request=None,
        responses={200: ReportOutput, **refusals(s403=ANSWER_403, s404=NO_REPORT, s409=CHANGED)},
        operation_id="reports_confirm",
        tags=REPORTS,
        description="Agree with the report: the result is recorded, the sector, fortification and "
        "awards follow, once however often it is sent.",
    )
    def post(self, request: Request, pk: int, battle_id: int) -> Response:
        campaign, _, report, user = _answerable(request, pk, battle_id)
        return written(request, campaign, services.report_confirm(report=report, actor=user))


class ReportDisputeApi(CampaignApi):
    @extend_schema(
        request=ReasonBody,
        responses={
            200: ReportOutput,
            **refusals(
                s400="invalid, unknown-field; reason-required, too-long.",
                s403=ANSWER_403,
                s404=NO_REPORT,
                s409=CHANGED,
            ),
        },
        operation_id="reports_dispute",
        tags=REPORTS,
        description="Disagree with the report, saying why: the organisers are told and resolve it.",
    )
    def post(self, request: Request, pk: int, battle_id: int) -> Response:
        campaign, _, report, user = _answerable(request, pk, battle_id)
        body = _checked(ReasonBody, request)
        return written(
            request, campaign, services.report_dispute(report=report, actor=user, reason=body["reason"])
        )


ORGANISERS = "not_authenticated; not-organiser: only the campaign's organisers do this."


class ReportResolveApi(CampaignApi):
    @extend_schema(
        request=ResolveBody,
        examples=[
            OpenApiExample(
                "Accept",
                value={"decision": "accepted", "reason": "Both players agreed at the club"},
                request_only=True,
            ),
            OpenApiExample(
                "Amend",
                value={
                    "decision": "amended",
                    "reason": "The Keiler was lost once, not twice",
                    "report": EXAMPLE_REPORT,
                },
                request_only=True,
            ),
        ],
        responses={
            200: ReportOutput,
            **refusals(
                s400=f"required (report, with amended), not-amended (a report without amended); reason-"
                f"required, too-long. In the report: {BAD_REPORT}",
                s403=ORGANISERS,
                s404=NO_REPORT,
                s409=CHANGED,
            ),
        },
        operation_id="reports_resolve",
        tags=REPORTS,
        description="An organiser decides a report, disputed, waiting or already confirmed: accept it as "
        "submitted, amend it (send the report as it should be) or void it; always with a reason. A "
        "confirmed result is taken back and the new one applied in the same transaction.",
    )
    def post(self, request: Request, pk: int, battle_id: int) -> Response:
        campaign, battle = _battle(request, pk, battle_id)
        user = logged_in(request)
        if not may.can_resolve(user, battle):
            raise refuse("only the campaign's organisers resolve reports", "not-organiser")
        report = _report(campaign, battle)
        body = _checked(ResolveBody, request)
        data = _under("report", lambda: report_input(campaign, body["report"])) if "report" in body else None
        _under("report", lambda: services.report_resolve(
            report=report, actor=user, decision=body["decision"], reason=body["reason"], data=data,
            seen=body.get("seen_status"),
        ))  # fmt: skip
        return after(request, campaign, battle)


class ReportEnterApi(CampaignApi):
    @extend_schema(
        request=EnterBody,
        responses={
            201: ReportOutput,
            **refusals(
                s400=f"reason-required, too-long. In the report: {BAD_REPORT}",
                s403=ORGANISERS,
                s404=NO_BATTLE,
                s409="already-reported: the battle has a report: resolve that one.",
            ),
        },
        operation_id="reports_enter",
        tags=REPORTS,
        description="An organiser enters a battle's result directly (a paper slip, a placeholder's "
        "battle): it is recorded at once, with the reason.",
    )
    def post(self, request: Request, pk: int, battle_id: int) -> Response:
        campaign, battle = _battle(request, pk, battle_id)
        user = logged_in(request)
        if not may.can_resolve(user, battle):
            raise refuse("only the campaign's organisers enter results", "not-organiser")
        body = _checked(EnterBody, request)
        data = _under("report", lambda: report_input(campaign, body["report"]))
        _under(
            "report",
            lambda: services.report_enter(battle=battle, actor=user, data=data, reason=body["reason"]),
        )
        return after(request, campaign, battle, status.HTTP_201_CREATED)


class ReportListQuery(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=ReportStatus.choices, required=False)
    round = serializers.IntegerField(
        min_value=1, max_value=ROUND_MAX, required=False, help_text="A round number."
    )


def _page(view: CampaignApi, request: Request, campaign: Campaign, rows: Any) -> Response:
    paginator = CampaignPagination()
    page: list[BattleReport] = list(paginator.paginate_queryset(rows, request, view=view) or [])
    for report in page:
        report.campaign = campaign
        report.battle.campaign = campaign
    return paginator.get_paginated_response(
        ReportSummaryOutput(page, many=True, context={"request": request}).data
    )


class ReportCollectionApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        parameters=[ReportListQuery],
        responses={
            200: ReportSummaryOutput(many=True),
            **refusals(s400="invalid: a filter out of bounds.", s404=UNSEEN),
        },
        operation_id="reports_list",
        tags=REPORTS,
        description="The campaign's reports you may see, newest first: confirmed and resolved ones, your "
        "own battles' whatever their status, every one for the organisers. While the campaign hides "
        "results, the open round's are left out until it closes (but your own).",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        filters = query(ReportListQuery, request)
        rows = selectors.reports_for_api(
            campaign=campaign, visible=may.visible_reports(request.user, campaign),
            status=filters.get("status", ""), round_number=filters.get("round"),
        )  # fmt: skip
        return _page(self, request, campaign, rows)


class DisputeQueueApi(CampaignApi):
    pagination_class = CampaignPagination

    @extend_schema(
        responses={200: ReportSummaryOutput(many=True), **refusals(s403=ORGANISERS, s404=UNSEEN)},
        operation_id="reports_disputes",
        tags=REPORTS,
        description="The disputed reports waiting for an organiser's decision, oldest dispute first.",
    )
    def get(self, request: Request, pk: int) -> Response:
        campaign = find_campaign(request, pk)
        user = logged_in(request)
        if not may.can_see_dispute_queue(user, campaign):
            raise refuse("only the campaign's organisers see the disputes", "not-organiser")
        return _page(self, request, campaign, selectors.dispute_queue(campaign=campaign))
