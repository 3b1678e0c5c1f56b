"""Reads for rounds, battles, challenges and the economy: page-shaped querysets, one query each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from campaign.models import (
    Battle,
    BattleStatus,
    Bye,
    Campaign,
    Challenge,
    ChallengeStatus,
    Enrolment,
    EnrolmentStatus,
    FortificationPurchase,
    Registration,
    ResourceEntry,
    Round,
    RoundStatus,
    Sector,
)
from campaign.options import ResourceHolder
from campaign.selectors.names import place_name
from core.compiled import CompiledRows, CompiledValues
from core.db import one_or_none


def rounds_for_campaign(*, campaign: Campaign) -> QuerySet[Round]:
    return Round.objects.filter(campaign=campaign).order_by("-number")


def open_round(*, campaign: Campaign) -> Round | None:
    return Round.objects.filter(campaign=campaign, status=RoundStatus.OPEN).first()


def round_by_number(*, campaign: Campaign, number: int) -> Round | None:
    return Round.objects.filter(campaign=campaign, number=number).first()


def battles_for_round(*, round: Round, drafts: bool) -> QuerySet[Battle]:
    """The round's battles with both sides and the sector; ``drafts``: the unpublished pairing too."""
    rows = Battle.objects.filter(round=round).select_related("attacker__player", "defender__player", "sector")
    if not drafts:
        rows = rows.exclude(status=BattleStatus.DRAFT)
    return rows.order_by("id")


@dataclass(frozen=True, slots=True)
class BattleLine:
    """A published battle as a round's table shows it: plain columns, each side named as ``display_name`` does."""

    pk: int
    status: str
    source: str
    attacker_id: int
    defender_id: int
    attacker_player_id: int | None
    defender_player_id: int | None
    attacker_name: str
    defender_name: str
    attacker_bloc: str
    defender_bloc: str
    sector_key: str | None
    sector_name: str | None
    mission: str
    points_limit: int

    @classmethod
    def of(cls, battle: Battle) -> BattleLine:
        """The line of a battle already loaded with both sides and its sector."""
        sector = battle.sector
        return cls(
            battle.pk, battle.status, battle.source, battle.attacker_id, battle.defender_id,
            battle.attacker.player_id, battle.defender.player_id,
            battle.attacker.display_name, battle.defender.display_name, battle.attacker_bloc,
            battle.defender_bloc, sector.key if sector is not None else None,
            sector.name if sector is not None else None, battle.mission, battle.points_limit,
        )  # fmt: skip


_SIDE_COLUMNS = ("_id", "__player_id", "__player__display_name", "__player__username", "__placeholder_name")


def _side_name(
    display_name: str | None, username: str | None, placeholder: str, player_id: int | None
) -> str:
    # Enrolment.display_name over columns: the account's display name, else its username, else the placeholder's.
    return (display_name or str(username)) if player_id is not None else placeholder


def _lines_query(round: int) -> QuerySet[Battle, tuple[Any, ...]]:
    return (
        Battle.objects.filter(round_id=round)
        .exclude(status=BattleStatus.DRAFT)
        .order_by("id")
        .values_list(
            "id", "status", "source", "attacker_bloc", "defender_bloc", "sector__key", "sector__name",
            "mission", "points_limit",
            *(f"{side}{column}" for side in ("attacker", "defender") for column in _SIDE_COLUMNS),
        )
    )  # fmt: skip


_LINES = CompiledRows(_lines_query, "round")


def battle_lines_for_round(*, round: Round) -> list[BattleLine]:
    """The round's published battles as plain columns, in one query (compiled once per thread:
    ``core.compiled``): no model instances for a table of names (a round of 250 battles built 1,500 of them
    per page view)."""
    return [_line(row) for row in _LINES.converted(_LINES.raw(round=round.pk))]


def _line(row: tuple[Any, ...]) -> BattleLine:
    (pk, status, source, a_bloc, d_bloc, sector_key, sector_name, mission, points_limit, a_id, a_player,
     a_display, a_user, a_placeholder, d_id, d_player, d_display, d_user, d_placeholder) = row  # fmt: skip
    return BattleLine(
        pk, status, source, a_id, d_id, a_player, d_player,
        _side_name(a_display, a_user, a_placeholder, a_player), _side_name(d_display, d_user, d_placeholder, d_player),
        a_bloc, d_bloc, sector_key, sector_name, mission, points_limit,
    )  # fmt: skip


def byes_for_round(*, round: Round, drafts: bool) -> QuerySet[Bye]:
    rows = Bye.objects.filter(round=round).select_related("enrolment__player")
    if not drafts:
        rows = rows.filter(published=True)
    return rows.order_by("id")


def battle_for_page(*, campaign: Campaign, pk: int) -> Battle | None:
    """The battle with its round, sector and sides; not its campaign (a map document), which the caller
    holds and puts back on it."""
    return one_or_none(
        Battle.objects.select_related("round", "sector", "attacker__player", "defender__player").filter(
            campaign=campaign, pk=pk
        )
    )


def battles_of(*, enrolment: Enrolment) -> QuerySet[Battle]:
    """A player's published battles, newest round first."""
    return (
        Battle.objects.filter(Q(attacker=enrolment) | Q(defender=enrolment))
        .exclude(status=BattleStatus.DRAFT)
        .select_related("round", "sector", "attacker__player", "defender__player")
        .order_by("-round__number", "id")
    )


def challenges_for_campaign(
    *, campaign: Campaign, round: Round | None = None, open_only: bool = False
) -> QuerySet[Challenge]:
    rows = Challenge.objects.filter(campaign=campaign).select_related(
        "round", "sector", "challenger__player", "challenged__player", "battle"
    )
    if round is not None:
        rows = rows.filter(round=round)
    if open_only:
        rows = rows.filter(status=ChallengeStatus.OPEN)
    return rows.order_by("-created_at")


def challenge_for_page(*, campaign: Campaign, pk: int) -> Challenge | None:
    return challenges_for_campaign(campaign=campaign).filter(pk=pk).first()


@dataclass(frozen=True)
class BalanceLine:
    bloc: str
    enrolment: Enrolment | None
    balance: int

    @property
    def label(self) -> str:
        return self.enrolment.display_name if self.enrolment is not None else self.bloc


def balances(*, campaign: Campaign) -> list[BalanceLine]:
    """Every holder's balance, summed in the database (two queries): every side with admitted players
    (or that once had entries) is listed, at 0 before it earned anything."""
    admitted = Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.ADMITTED)
    entries = ResourceEntry.objects.filter(campaign=campaign)
    if campaign.resources_held_by == ResourceHolder.PLAYER:
        per_player: dict[int, int] = dict(
            entries.filter(enrolment__isnull=False)
            .values_list("enrolment_id")
            .annotate(total=Sum("amount"))
            .values_list("enrolment_id", "total")
        )
        players = Enrolment.objects.filter(campaign=campaign).filter(
            Q(pk__in=per_player) | Q(pk__in=admitted.values("pk"))
        )
        return sorted(
            (BalanceLine(p.bloc, p, int(per_player.get(p.pk, 0))) for p in players.select_related("player")),
            key=lambda line: (line.bloc, line.label),
        )
    per_bloc: dict[str, int] = dict(
        entries.filter(enrolment__isnull=True)
        .values_list("bloc")
        .annotate(total=Sum("amount"))
        .values_list("bloc", "total")
    )
    for bloc in admitted.values_list("bloc", flat=True).distinct():
        per_bloc.setdefault(bloc, 0)
    return [BalanceLine(bloc, None, int(total)) for bloc, total in sorted(per_bloc.items())]


def ledger_entries(*, campaign: Campaign) -> QuerySet[ResourceEntry]:
    return (
        ResourceEntry.objects.filter(campaign=campaign)
        .select_related("enrolment__player", "actor")
        .order_by("-id")
    )


def purchases_for_campaign(*, campaign: Campaign) -> QuerySet[FortificationPurchase]:
    return FortificationPurchase.objects.filter(campaign=campaign).select_related(
        "sector", "bought_by__player"
    )


# --- Added for the round, battle, challenge and economy pages ------------------------------------------

_FIGHTING = (BattleStatus.SCHEDULED, BattleStatus.REPORTED, BattleStatus.CONFIRMED)


@dataclass(frozen=True)
class YourBattle:
    """A player's battle this round as the campaign page says it."""

    pk: int
    round_number: int
    deadline: datetime
    sector: str | None  # its name
    attacker: str  # the sides' names
    defender: str
    attacker_id: int
    points_limit: int
    status: str

    @property
    def status_words(self) -> str:
        """``get_status_display``'s words."""
        return str(_STATUS_WORDS.get(self.status, self.status))


_STATUS_WORDS = dict(BattleStatus.choices)


_THIS_ROUND_COLUMNS = ("id", "round__number", "round__deadline", "sector__name", "attacker_name",
                       "defender_name", "attacker_id", "points_limit", "status")  # fmt: skip


def _this_round(enrolment: int, campaign: int) -> QuerySet[Battle, dict[str, Any]]:
    query: QuerySet[Battle, dict[str, Any]] = (
        Battle.objects.filter(Q(attacker_id=enrolment) | Q(defender_id=enrolment))
        .filter(round__campaign_id=campaign, round__status=RoundStatus.OPEN, status__in=_FIGHTING)
        .annotate(attacker_name=place_name("attacker__"), defender_name=place_name("defender__"))
        .order_by("-id")
        .values(*_THIS_ROUND_COLUMNS)
    )
    return query


# Asked on every campaign page a player opens: compiled once per thread (core.compiled).
_THIS_ROUND = CompiledValues(_this_round, "enrolment", "campaign")


def battle_this_round(*, enrolment: Enrolment) -> YourBattle | None:
    """The player's published battle in the campaign's open round, if they have one (one query), with only
    what the campaign page says of it: the round's number and deadline, the sector's name, the sides' names,
    the AP and the status (the whole battle, round, sector, places and accounts were 110 columns)."""
    row = _THIS_ROUND.first(enrolment=enrolment.pk, campaign=enrolment.campaign_id)
    if row is None:
        return None
    return YourBattle(
        pk=row["id"], round_number=row["round__number"], deadline=row["round__deadline"],
        sector=row["sector__name"], attacker=row["attacker_name"], defender=row["defender_name"],
        attacker_id=row["attacker_id"], points_limit=row["points_limit"], status=row["status"],
    )  # fmt: skip


def battles_at_sector(*, sector: Sector) -> QuerySet[Battle]:
    """The published battles fought (or to be fought) over a sector, newest round first."""
    return (
        Battle.objects.filter(sector=sector)
        .exclude(status=BattleStatus.DRAFT)
        .select_related("round", "attacker__player", "defender__player")
        .order_by("-round__number", "-id")
    )


def current_registrations(*, enrolment_ids: list[int]) -> QuerySet[Registration]:
    """The current (not superseded) registered lists of some places, for choosing one to check: only what
    the choice names (a list's document, cards, costs and verdict are 8 kB and more of JSON each);
    ``registration_to_check`` reads the chosen one whole."""
    return (
        Registration.objects.filter(enrolment_id__in=enrolment_ids, superseded_by__isnull=True)
        .only("id", "campaign_id", "enrolment_id", "name", "total_ap", "registered_at")
        .order_by("enrolment_id", "-registered_at", "-id")
    )


def registration_to_check(*, pk: int) -> Registration:
    """A registered list whole, with its catalogue, to check it for a battle."""
    return Registration.objects.select_related("catalogue").get(pk=pk)


def admitted_players(*, campaign: Campaign) -> QuerySet[Enrolment]:
    """The admitted players with their accounts, in bloc order (opponents, holders to choose from)."""
    return (
        Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.ADMITTED)
        .select_related("player")
        .order_by("bloc", "joined_at", "id")
    )


# --------------------------------------------------------------------------- the API's reads


def _count_of(rows: QuerySet[Battle] | QuerySet[Challenge] | QuerySet[Bye]) -> Subquery:
    # A subquery per count, not Count() over joins: two joined counts multiply each other's rows.
    return Subquery(
        rows.order_by().values("round_id").annotate(total=Count("pk")).values("total"),
        output_field=IntegerField(),
    )


def rounds_with_counts(*, campaign: Campaign) -> QuerySet[Round]:
    """The rounds, newest first, each with its published battles, draft battles, published byes and open
    challenges counted (one query: a subquery per count, so no join multiplies another)."""
    here = OuterRef("pk")
    return (
        Round.objects.filter(campaign=campaign)
        .annotate(
            battle_count=Coalesce(
                _count_of(Battle.objects.filter(round=here).exclude(status=BattleStatus.DRAFT)), 0
            ),
            draft_count=Coalesce(_count_of(Battle.objects.filter(round=here, status=BattleStatus.DRAFT)), 0),
            bye_count=Coalesce(_count_of(Bye.objects.filter(round=here, published=True)), 0),
            open_challenge_count=Coalesce(
                _count_of(Challenge.objects.filter(round=here, status=ChallengeStatus.OPEN)), 0
            ),
        )
        .order_by("-number")
    )


def battles_for_api(
    *,
    campaign: Campaign,
    drafts: bool,
    round_number: int | None = None,
    status: str = "",
    enrolment_id: int | None = None,
) -> QuerySet[Battle]:
    """The campaign's battles, oldest round first, with both sides, the sector and the round (one query)."""
    rows = Battle.objects.filter(campaign=campaign).select_related(
        "round", "sector", "attacker__player", "defender__player"
    )
    if not drafts:
        rows = rows.exclude(status=BattleStatus.DRAFT)
    if round_number is not None:
        rows = rows.filter(round__number=round_number)
    if status:
        rows = rows.filter(status=status)
    if enrolment_id is not None:
        rows = rows.filter(Q(attacker_id=enrolment_id) | Q(defender_id=enrolment_id))
    return rows.order_by("round__number", "id")


def challenges_for_api(
    *,
    campaign: Campaign,
    round_number: int | None = None,
    status: str = "",
    enrolment_id: int | None = None,
) -> QuerySet[Challenge]:
    """``challenges_for_campaign`` filtered by round number, status and a place on either side."""
    rows = challenges_for_campaign(campaign=campaign)
    if round_number is not None:
        rows = rows.filter(round__number=round_number)
    if status:
        rows = rows.filter(status=status)
    if enrolment_id is not None:
        rows = rows.filter(Q(challenger_id=enrolment_id) | Q(challenged_id=enrolment_id))
    return rows


def ledger_for_holder(
    *, campaign: Campaign, bloc: str = "", enrolment_id: int | None = None
) -> QuerySet[ResourceEntry]:
    """``ledger_entries``, newest first, of one holder when a bloc or a place is named."""
    rows = ledger_entries(campaign=campaign)
    if bloc:
        rows = rows.filter(bloc=bloc, enrolment__isnull=True)
    if enrolment_id is not None:
        rows = rows.filter(enrolment_id=enrolment_id)
    return rows


def registration_in_campaign(*, campaign: Campaign, pk: int) -> Registration | None:
    """A registered list of the campaign (current or superseded) with its catalogue, or ``None``."""
    return one_or_none(Registration.objects.select_related("catalogue").filter(campaign=campaign, pk=pk))


def registrations_in_campaign(*, campaign: Campaign, pks: Iterable[int]) -> dict[int, Registration]:
    """``registration_in_campaign`` for several at once (one query), by id; an id not found is left out."""
    rows = (
        Registration.objects.select_related("catalogue").filter(campaign=campaign, pk__in=set(pks)).order_by()
    )
    return {row.pk: row for row in rows}


def _with_a_list(campaign: int) -> QuerySet[Registration, tuple[Any, ...]]:
    # Unordered: the model's ordering would sort the rows and defeat the DISTINCT.
    return (
        Registration.objects.filter(campaign_id=campaign, superseded_by__isnull=True)
        .order_by()
        .values_list("enrolment_id")
        .distinct()
    )


_WITH_A_LIST = CompiledRows(_with_a_list, "campaign")


def places_with_registered_list(*, campaign_id: int) -> frozenset[int]:
    """The places of a campaign with a current (not superseded) registered list (one query, compiled once
    per thread: ``core.compiled``): a place not in it is flagged wherever it is paired, challenged or
    scheduled, before anyone reports."""
    return frozenset(row[0] for row in _WITH_A_LIST.raw(campaign=campaign_id))


def places_fighting(*, round: Round) -> set[int]:
    """The places with a battle in ``round`` (scheduled, reported or confirmed; a draft holds nobody), as the
    schedule form leaves them out (one query)."""
    busy = [BattleStatus.SCHEDULED, BattleStatus.REPORTED, BattleStatus.CONFIRMED]
    rows = Battle.objects.filter(round=round, status__in=busy).values_list("attacker_id", "defender_id")
    return {place for pair in rows for place in pair}
