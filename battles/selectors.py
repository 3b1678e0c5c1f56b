"""Reads for battle reports: page- and API-shaped querysets, each with what its callers show."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from django.db.models import Exists, OuterRef, Q, QuerySet

from battles.models import BattleReport, ReportStatus
from campaign.models import (
    Battle,
    Campaign,
    Enrolment,
    EnrolmentStatus,
    LogEntry,
    LogKind,
    Registration,
)
from campaign.selectors.rounds import battles_for_api
from core.db import one_or_none

_REPORT_RELATED = (
    "campaign",
    "battle__campaign",
    "battle__round",
    "battle__sector",
    "battle__attacker__player",
    "battle__defender__player",
    "attacker_registration",
    "defender_registration",
    "submitted_by",
    "confirmed_by",
    "resolved_by",
)


def reports_for_campaign(*, campaign: Campaign) -> QuerySet[BattleReport]:
    """Every report of the campaign with what a list of them shows, newest first."""
    return (
        BattleReport.objects.filter(campaign=campaign)
        .select_related(*_REPORT_RELATED)
        .order_by("-submitted_at", "-pk")
    )


def report_for_battle(*, battle: Battle) -> BattleReport | None:
    """The battle's report with both registered lists and everyone named on it, or None."""
    return reports_for_campaign(campaign=battle.campaign).filter(battle=battle).first()


# A registered list's snapshot as a report's answer shows it: its name, total and entries (the costs and the
# unit cards naming them), never the list document, the verdict or the terms it was checked under.
_UNSHOWN_SNAPSHOT = tuple(
    f"{side}_registration__{column}"
    for side in ("attacker", "defender")
    for column in ("document", "verdict", "terms")
)


def sides_listed(battle: str = "") -> dict[str, Exists]:
    """Whether each side of a battle has a current registered list, as ``attacker_listed`` and
    ``defender_listed`` annotations: of a report's battle (``battle="battle__"``) or of the battle itself."""
    # A report and its battle are of one campaign: each row's own campaign_id.
    current = Registration.objects.filter(campaign_id=OuterRef("campaign_id"), superseded_by__isnull=True)
    return {
        f"{side}_listed": Exists(current.filter(enrolment_id=OuterRef(f"{battle}{side}_id")))
        for side in ("attacker", "defender")
    }


# Querysets built once per process and cloned for each call: building the two correlated subqueries of
# ``sides_listed`` costs the ORM about 0.6 ms of CPU a call, on every submission and confirmation.
@functools.cache
def _reports_for_api(with_battle: bool) -> QuerySet[BattleReport]:
    related: tuple[str, ...] = ("attacker_registration", "defender_registration", "resolved_by")
    if with_battle:
        related += ("battle__round", "battle__sector", "battle__attacker__player", "battle__defender__player")
    return (
        BattleReport.objects.select_related(*related)
        .defer(*_UNSHOWN_SNAPSHOT)
        .annotate(**sides_listed("battle__"))
    )


@functools.cache
def _battles_for_report() -> QuerySet[Battle]:
    return Battle.objects.select_related("round", "sector", "attacker__player", "defender__player").annotate(
        **sides_listed()
    )


def battle_for_report(*, pk: int) -> Battle:
    """The battle a report's service acts on (one query, under the campaign's lock): its round, sector, both
    sides and their accounts (whom the players' notices name), whether each side has a current registered
    list (``attacker_listed``, ``defender_listed``: what the API's answer shows), not its campaign."""
    return _battles_for_report().get(pk=pk)


def report_for_api(*, battle: Battle, with_battle: bool = False) -> BattleReport | None:
    """The battle's report as the reports API answers it (one query): both registered lists (the entries it
    lists), the organiser who resolved it, and whether each side has a current registered list
    (``attacker_listed``, ``defender_listed``: the answer's only places); not the campaign (a map document),
    which the caller holds and puts back on the report, nor the battle and its places unless ``with_battle``
    (read afresh after an action, whose status and sector may have moved)."""
    return one_or_none(_reports_for_api(with_battle).filter(battle=battle))


def report_for_battle_page(*, battle: Battle, unshown: Sequence[str] = ()) -> BattleReport | None:
    """The battle's report as its page shows it (one query): both registered lists (its sheets list their
    entries) and who confirmed or resolved it; not the battle, its places and its campaign (a map document)
    once more, which the page already holds and puts back on the report. ``unshown``: columns deferred."""
    return one_or_none(
        BattleReport.objects.filter(battle=battle)
        .select_related("attacker_registration", "defender_registration", "confirmed_by", "resolved_by")
        .defer(*unshown)
    )


# What the report's panel never shows of its two lists (its sheets read the unit cards and AP paid):
# tens of kB of JSON per list in a real campaign.
_LIST_COLUMNS_UNSHOWN = [
    f"{side}_registration__{column}"
    for side in ("attacker", "defender")
    for column in ("document", "terms", "verdict")
]


def report_for_battle_panel(*, battle: Battle) -> BattleReport | None:
    """``report_for_battle_page`` as the battle page's report section shows it: without each list's document,
    terms and verdict (an action on the report reads it whole)."""
    return report_for_battle_page(battle=battle, unshown=_LIST_COLUMNS_UNSHOWN)


def dispute_queue(*, campaign: Campaign) -> QuerySet[BattleReport]:
    """What waits for an organiser: disputed reports, oldest dispute first."""
    return (
        reports_for_campaign(campaign=campaign)
        .filter(status=ReportStatus.DISPUTED)
        .order_by("disputed_at", "pk")
    )


def _place(path: str) -> tuple[str, ...]:
    """The columns naming the place at ``path`` (``Enrolment.display_name``)."""
    return (path, f"{path}__placeholder_name", f"{path}__player", f"{path}__player__username",
            f"{path}__player__display_name")  # fmt: skip


def disputes_for_dashboard(*, campaign: Campaign) -> QuerySet[BattleReport]:
    """``dispute_queue`` as the organisers' dashboard lists it (one query): the battle's round, sector and sides,
    who reported, when, and why it is disputed; never the report's sides and judgement, the registered lists
    or the campaign (a map document per row), which the API's queue carries and the list never shows."""
    related = ("battle__round", "battle__sector", "battle__attacker__player", "battle__defender__player",
               "submitted_by__player")  # fmt: skip
    shown = ("campaign_id", "status", "submitted_at", "disputed_at", "dispute_reason", "battle", "battle__round",
             "battle__round__number", "battle__sector", "battle__sector__name", *_place("battle__attacker"),
             *_place("battle__defender"), *_place("submitted_by"))  # fmt: skip
    return (
        BattleReport.objects.filter(campaign=campaign, status=ReportStatus.DISPUTED)
        .select_related(*related)
        .only(*shown)
        .order_by("disputed_at", "pk")
    )


def report_history(*, report: BattleReport) -> list[LogEntry]:
    """Every change of the report's status, oldest first, with who made it and why."""
    return list(
        LogEntry.objects.filter(
            campaign_id=report.campaign_id, kind=LogKind.REPORT_CHANGED, subject=f"battle:{report.battle_id}"
        )
        .select_related("actor")
        .order_by("id")
    )


# --- For the API (issue 12) ----------------------------------------------------------------------------


def reports_for_api(
    *, campaign: Campaign, visible: Q | None, status: str = "", round_number: int | None = None
) -> QuerySet[BattleReport]:
    """The reports a caller may see (``visible``, from ``battles.permissions.visible_reports``; None: all),
    newest first, filtered by status and round."""
    rows = reports_for_campaign(campaign=campaign)
    if visible is not None:
        rows = rows.filter(visible)
    if status:
        rows = rows.filter(status=status)
    if round_number is not None:
        rows = rows.filter(battle__round__number=round_number)
    return rows


# --- Added for the report pages --------------------------------------------------------------------------


def battles_for_listing(
    *,
    campaign: Campaign,
    drafts: bool,
    round_number: int | None = None,
    status: str = "",
    enrolment_id: int | None = None,
) -> QuerySet[Battle]:
    """The campaign's battles for its battles page (the API's filters), newest round first, each with its
    round, both sides (and their accounts), the sector and the report if any (one query a page)."""
    rows = battles_for_api(
        campaign=campaign, drafts=drafts, round_number=round_number, status=status, enrolment_id=enrolment_id
    )
    return rows.select_related("report").order_by("-round__number", "id")


def places_for_filter(*, campaign: Campaign) -> QuerySet[Enrolment]:
    """The places whose battles the battles page may be narrowed to: players admitted or who left."""
    return (
        Enrolment.objects.filter(
            campaign=campaign, status__in=[EnrolmentStatus.ADMITTED, EnrolmentStatus.LEFT]
        )
        .select_related("player")
        .order_by("bloc", "joined_at", "id")
    )


def registrations_for_report(*, battle: Battle) -> QuerySet[Registration]:
    """Every list each side of ``battle`` registered in the campaign (replaced ones too), newest first."""
    return Registration.objects.filter(
        campaign_id=battle.campaign_id, enrolment_id__in=[battle.attacker_id, battle.defender_id]
    ).order_by("enrolment_id", "-registered_at", "-id")


def battles_by_id(*, campaign: Campaign, ids: Iterable[int]) -> dict[int, Battle]:
    """Some battles of the campaign with their round, sides, sector and report, by id (one query)."""
    rows = Battle.objects.filter(campaign=campaign, pk__in=set(ids)).select_related(
        "round", "sector", "attacker__player", "defender__player", "report"
    )
    return {battle.pk: battle for battle in rows}
