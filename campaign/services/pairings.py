"""A round's generated pairings: generate a draft, let the organiser edit it, publish it.

The draft is stored as battles with status ``draft`` and unpublished byes, so
the organiser sees it on the page and through the API before anyone is told.
Generating again replaces the draft; once published, the round's pairings are
fixed (battles can still change mission or points limit).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from armies.blocs import Bloc
from campaign import limits
from campaign.engine import pairing as engine
from campaign.engine.map import Terrain, attackable_sectors
from campaign.engine.missions import MISSIONS_BY_KEY, suggested_mission
from campaign.errors import CampaignConflictError, CampaignError
from campaign.models import (
    Battle,
    BattleSource,
    BattleStatus,
    Bye,
    Campaign,
    Enrolment,
    EnrolmentStatus,
    LogKind,
    Round,
    Sector,
    sides_recorded,
)
from campaign.selectors import campaign_map, map_state_now, sector_names, sectors_for_map
from campaign.services import notices
from campaign.services.log import log_write
from campaign.services.webhooks import PAIRINGS_PUBLISHED, webhook_round

_FIGHTING = [BattleStatus.SCHEDULED, BattleStatus.REPORTED, BattleStatus.CONFIRMED]
_PLAYED = [BattleStatus.SCHEDULED, BattleStatus.REPORTED, BattleStatus.CONFIRMED, BattleStatus.UNPLAYED,
           BattleStatus.FORFEITED]  # fmt: skip


def fronts(*, campaign: Campaign) -> dict[tuple[Bloc, Bloc], tuple[str, ...]]:
    """For each ordered pair of blocs, the sectors the first may attack on the second's front, now."""
    zmap = campaign_map(campaign=campaign)
    state = map_state_now(sectors=sectors_for_map(campaign=campaign))
    return {
        (att, dfn): attackable_sectors(zmap, state, att, dfn) for att in Bloc for dfn in Bloc if att != dfn
    }


def _history(campaign: Campaign, before: int) -> list[engine.PastRound]:
    """Earlier rounds, oldest first: who fought whom (as attacker, defender), who sat out."""
    rounds: dict[int, tuple[list[tuple[int, int]], list[int]]] = {n: ([], []) for n in range(1, before)}
    for number, att, dfn in Battle.objects.filter(
        campaign=campaign, round__number__lt=before, status__in=_PLAYED
    ).values_list("round__number", "attacker_id", "defender_id"):
        rounds[number][0].append((att, dfn))
    for number, player in Bye.objects.filter(
        round__campaign=campaign, round__number__lt=before, published=True
    ).values_list("round__number", "enrolment_id"):
        rounds[number][1].append(player)
    return [engine.PastRound(tuple(b), tuple(y)) for _n, (b, y) in sorted(rounds.items())]


def _players(campaign: Campaign, round: Round) -> list[engine.Player]:
    """Admitted players not already fighting this round (an accepted challenge counts)."""
    busy = set(
        Battle.objects.filter(round=round, status__in=_FIGHTING).values_list("attacker_id", flat=True)
    ) | set(Battle.objects.filter(round=round, status__in=_FIGHTING).values_list("defender_id", flat=True))
    rows = Enrolment.objects.filter(campaign=campaign, status=EnrolmentStatus.ADMITTED).exclude(pk__in=busy)
    return [
        engine.Player(row.pk, Bloc(row.bloc), row.display_name)
        for row in rows.select_related("player").order_by("id")
    ]


def _open_round(round: Round) -> tuple[Campaign, Round]:
    campaign = Campaign.objects.select_for_update().get(pk=round.campaign_id)
    round.refresh_from_db()
    if not round.is_open:
        raise CampaignConflictError("round-not-open", f"round {round.number} is closed", "round")
    if round.pairings_published_at is not None:
        raise CampaignConflictError(
            "pairings-published", f"round {round.number}'s pairings are published and fixed", "round"
        )
    return campaign, round


def _terrain(sectors: dict[str, Sector], key: str | None) -> Terrain | None:
    return Terrain(sectors[key].terrain) if key is not None else None


def _store(campaign: Campaign, round: Round, pairing: engine.Pairing) -> list[Battle]:
    """Replace the round's draft with ``pairing``."""
    Battle.objects.filter(round=round, status=BattleStatus.DRAFT).delete()
    Bye.objects.filter(round=round, published=False).delete()
    sectors = {s.key: s for s in Sector.objects.filter(campaign=campaign)}
    places = Enrolment.objects.in_bulk([p for b in pairing.battles for p in (b.attacker_id, b.defender_id)])
    battles = Battle.objects.bulk_create(
        Battle(
            campaign=campaign,
            round=round,
            attacker_id=b.attacker_id,
            defender_id=b.defender_id,
            **sides_recorded(attacker=places[b.attacker_id], defender=places[b.defender_id]),
            sector=sectors[b.sector] if b.sector is not None else None,
            mission=suggested_mission(_terrain(sectors, b.sector)).key,
            points_limit=campaign.points_limit,
            status=BattleStatus.DRAFT,
            source=BattleSource.PAIRING,
            notes=[{"code": e.code, "message": e.message} for e in b.explanations]
            + ([{"code": "no-sector", "message": b.no_sector_reason}] if b.no_sector_reason else []),
        )
        for b in pairing.battles
    )
    Bye.objects.bulk_create(
        Bye(round=round, enrolment_id=bye.player_id, note=bye.explanation.message[:300])
        for bye in pairing.byes
    )
    return battles


@transaction.atomic
def pairings_generate(*, round: Round, actor: Any) -> list[Battle]:
    """Pair the round's free players (a draft only the organisers see), replacing an earlier draft."""
    campaign, round = _open_round(round)
    players = _players(campaign, round)
    if len(players) > limits.MAX_PLAYERS_TO_PAIR:
        raise CampaignError(
            "too-many-players", f"at most {limits.MAX_PLAYERS_TO_PAIR} players are paired at once"
        )
    pairing = engine.generate_pairing(
        players, _history(campaign, round.number), fronts(campaign=campaign), seed=round.pairing_seed,
        sector_names=sector_names(campaign=campaign), taken=_sectors_fought_over(round),
    )  # fmt: skip
    battles = _store(campaign, round, pairing)
    log_write(campaign=campaign, kind=LogKind.PAIRING_CHANGED, subject=f"round:{round.number}", actor=actor,
              field="pairings", after={"battles": len(battles), "byes": len(pairing.byes), "draft": True})  # fmt: skip
    return battles


def _sectors_fought_over(round: Round) -> set[str]:
    """The sectors the round's battles outside the draft (challenges accepted, battles scheduled) fight over."""
    rows = Battle.objects.filter(round=round, sector__isnull=False).exclude(
        status__in=[BattleStatus.DRAFT, BattleStatus.VOID]
    )
    return set(rows.values_list("sector__key", flat=True))


def _stored_pairing(campaign: Campaign, round: Round) -> tuple[engine.Pairing, list[Battle]]:
    """The draft read back as the engine's pairing, with the context its edits check against."""
    drafts = list(
        Battle.objects.filter(round=round, status=BattleStatus.DRAFT).select_related("sector").order_by("id")
    )
    byes = list(Bye.objects.filter(round=round, published=False).order_by("id"))
    places = {row.pk: row for row in Enrolment.objects.filter(campaign=campaign).select_related("player")}
    blocs = {pk: place.bloc for pk, place in places.items()}
    ids = {b.attacker_id for b in drafts} | {b.defender_id for b in drafts} | {y.enrolment_id for y in byes}
    players = [engine.Player(pk, Bloc(blocs[pk]), places[pk].display_name) for pk in sorted(ids)]
    context = engine.pairing_context(
        players, _history(campaign, round.number), fronts(campaign=campaign),
        sector_names=sector_names(campaign=campaign),
    )  # fmt: skip
    battles = tuple(
        engine.Battle(
            b.attacker_id,
            b.defender_id,
            Bloc(blocs[b.attacker_id]),
            Bloc(blocs[b.defender_id]),
            b.sector.key if b.sector else None,
            "",
            tuple(engine.Explanation(n["code"], n["message"]) for n in b.notes),
        )
        for b in drafts
    )
    bye_rows = tuple(
        engine.Bye(y.enrolment_id, Bloc(blocs[y.enrolment_id]), engine.Explanation("bye", y.note))
        for y in byes
    )
    return engine.Pairing(battles, bye_rows, (), context), drafts


_EDITED_COLUMNS = ["attacker", "defender", "sector", "mission", "notes", *[
    f"{side}_{name}" for side in ("attacker", "defender") for name in ("bloc", "faction", "mercenary")
]]  # fmt: skip


def _update_draft(campaign: Campaign, round: Round, drafts: list[Battle], edited: engine.Pairing) -> None:
    """Write an edited draft over the stored one, row by row: each drafted battle keeps its id.

    An edit keeps the battles in their places (a swap or a sector changes battle ``i`` into battle ``i``),
    so each row takes what the engine now says of it; a battle whose sides and sector did not change keeps
    the mission the organiser set. Byes carry nothing the organiser set: they are stored again.
    """
    sectors = {s.key: s for s in Sector.objects.filter(campaign=campaign)}
    places = Enrolment.objects.in_bulk([p for b in edited.battles for p in (b.attacker_id, b.defender_id)])
    for row, b in zip(drafts, edited.battles, strict=True):
        sector = sectors[b.sector] if b.sector is not None else None
        unchanged = (row.attacker_id, row.defender_id, row.sector_id) == (
            b.attacker_id, b.defender_id, sector.pk if sector is not None else None,
        )  # fmt: skip
        row.attacker, row.defender, row.sector = places[b.attacker_id], places[b.defender_id], sector
        for name, value in sides_recorded(attacker=row.attacker, defender=row.defender).items():
            setattr(row, name, value)
        if not unchanged:
            row.mission = suggested_mission(_terrain(sectors, b.sector)).key
        row.notes = [{"code": e.code, "message": e.message} for e in b.explanations] + (
            [{"code": "no-sector", "message": b.no_sector_reason}] if b.no_sector_reason else []
        )
    Battle.objects.bulk_update(drafts, _EDITED_COLUMNS)
    Bye.objects.filter(round=round, published=False).delete()
    Bye.objects.bulk_create(
        Bye(round=round, enrolment_id=bye.player_id, note=bye.explanation.message[:300])
        for bye in edited.byes
    )


def _edited(round: Round, actor: Any, change: str, edit: Any) -> list[Battle]:
    campaign, round = _open_round(round)
    pairing, drafts = _stored_pairing(campaign, round)
    if not drafts and not pairing.byes:
        raise CampaignConflictError("no-draft", "generate the round's pairings first", "round")
    _update_draft(campaign, round, drafts, edit(pairing, drafts))
    log_write(campaign=campaign, kind=LogKind.PAIRING_CHANGED, subject=f"round:{round.number}", actor=actor,
              field="pairings", after=change)  # fmt: skip
    return drafts


@transaction.atomic
def pairings_swap(*, round: Round, actor: Any, first: int, second: int) -> list[Battle]:
    """Exchange two players' places in the draft (two of one battle exchange roles)."""
    return _edited(round, actor, f"swapped places {first} and {second}",
                   lambda pairing, _drafts: engine.swap_players(pairing, first, second))  # fmt: skip


@transaction.atomic
def pairings_set_sector(*, round: Round, actor: Any, battle: Battle, sector_key: str | None) -> list[Battle]:
    def edit(pairing: engine.Pairing, drafts: Sequence[Battle]) -> engine.Pairing:
        index = next((i for i, b in enumerate(drafts) if b.pk == battle.pk), None)
        if index is None:
            raise CampaignError("unknown-battle", "this battle is not in the round's draft", "battle")
        return engine.set_sector(pairing, index, sector_key or None)

    return _edited(round, actor, f"battle {battle.pk}: sector {sector_key or 'none'}", edit)


@transaction.atomic
def battle_terms_update(
    *, battle: Battle, actor: Any, mission: str | None = None, points_limit: int | None = None
) -> Battle:
    """Change a battle's mission or points limit (an organiser), until it is reported."""
    from armies.validation import limits as list_limits

    campaign = Campaign.objects.select_for_update().get(pk=battle.campaign_id)
    battle.refresh_from_db()
    if battle.status not in (BattleStatus.DRAFT, BattleStatus.SCHEDULED):
        raise CampaignConflictError(
            "battle-reported", "a battle's terms are fixed once it is reported", "battle"
        )
    before = {"mission": battle.mission, "points_limit": battle.points_limit}
    if mission is not None:
        if mission not in MISSIONS_BY_KEY:
            raise CampaignError("unknown-mission", f"must be one of {', '.join(MISSIONS_BY_KEY)}", "mission")
        battle.mission = mission
    if points_limit is not None:
        if not list_limits.POINTS_LIMIT_MIN <= points_limit <= list_limits.POINTS_LIMIT_MAX:
            raise CampaignError(
                "out-of-range",
                f"from {list_limits.POINTS_LIMIT_MIN} to {list_limits.POINTS_LIMIT_MAX:,}",
                "points_limit",
            )
        battle.points_limit = points_limit
    battle.save(update_fields=["mission", "points_limit"])
    after = {"mission": battle.mission, "points_limit": battle.points_limit}
    log_write(campaign=campaign, kind=LogKind.BATTLE_CHANGED, subject=f"battle:{battle.pk}", actor=actor,
              field="terms", before=before, after=after)  # fmt: skip
    return battle


_SIDE_COLUMNS = [
    f"{side}_{name}" for side in ("attacker", "defender") for name in ("bloc", "faction", "mercenary")
]


def _record_sides(drafts: list[Battle]) -> None:
    """Record each side as it is scheduled (a faction changed since the draft is taken up); a player who has
    changed bloc since the draft was made leaves the draft stale, since it paired the old bloc."""
    for battle in drafts:
        now = sides_recorded(attacker=battle.attacker, defender=battle.defender)
        if (now["attacker_bloc"], now["defender_bloc"]) != (battle.attacker_bloc, battle.defender_bloc):
            raise CampaignConflictError(
                "pairing-stale",
                "a drafted player has since joined another bloc: generate the pairings again",
                "round",
            )
        for name, value in now.items():
            setattr(battle, name, value)
    Battle.objects.bulk_update(drafts, _SIDE_COLUMNS)


@transaction.atomic
def pairings_publish(*, round: Round, actor: Any) -> list[Battle]:
    """Publish the draft: its battles are scheduled and every paired player (and bye) is told."""
    campaign, round = _open_round(round)
    drafts = list(
        Battle.objects.filter(round=round, status=BattleStatus.DRAFT).select_related("attacker", "defender")
    )
    byes = list(Bye.objects.filter(round=round, published=False).select_related("enrolment"))
    if not drafts and not byes:
        raise CampaignConflictError("no-draft", "generate the round's pairings first", "round")
    drafted = {b.attacker_id for b in drafts} | {b.defender_id for b in drafts}
    booked = Battle.objects.filter(round=round, status__in=_FIGHTING).filter(
        Q(attacker_id__in=drafted) | Q(defender_id__in=drafted)
    )
    if booked.exists():
        raise CampaignConflictError(
            "pairing-stale",
            "a drafted player has since accepted a challenge: generate the pairings again",
            "round",
        )
    _record_sides(drafts)
    now = timezone.now()
    Battle.objects.filter(pk__in=[b.pk for b in drafts]).update(
        status=BattleStatus.SCHEDULED, published_at=now
    )
    Bye.objects.filter(pk__in=[y.pk for y in byes]).update(published=True)
    Round.objects.filter(pk=round.pk).update(pairings_published_at=now)
    log_write(campaign=campaign, kind=LogKind.PAIRING_CHANGED, subject=f"round:{round.number}", actor=actor,
              field="pairings", after={"battles": len(drafts), "byes": len(byes), "published": True})  # fmt: skip
    for battle in drafts:
        notices.tell(
            enrolments=[battle.attacker, battle.defender], kind=notices.PAIRINGS_PUBLISHED, actor=actor,
            message=f"Round {round.number}: {battle.attacker.display_name} attacks {battle.defender.display_name}.",
            link=notices.battle_link(battle),
        )  # fmt: skip
    notices.tell(
        enrolments=[y.enrolment for y in byes],
        kind=notices.PAIRINGS_PUBLISHED,
        actor=actor,
        message=f"Round {round.number} of {campaign.name}: you sit this round out.",
        link=notices.campaign_link(campaign),
    )
    webhook_round(round=round, event=PAIRINGS_PUBLISHED)
    return [Battle.objects.get(pk=b.pk) for b in drafts]
