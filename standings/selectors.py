"""Reads of the standings for pages, the API and charts: typed rows, a fixed number of queries each.

Every selector reads what the last recompute stored and never computes: a page
shows the standings as of ``info.computed_at`` and says whether a newer
recompute is due (``info.pending``: the campaign's results changed since).
``None`` means the campaign's standings were never computed (or the round asked
for has no table).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser
from django.db.models import F, QuerySet, TextField
from django.db.models.functions import Cast

from campaign.models import Campaign, Enrolment
from campaign.options import Status
from campaign.permissions import can_view_campaign_row, viewer_annotations
from core.compiled import CompiledRows, CompiledValues
from core.permissions import Actor
from standings.kept import Kept
from standings.models import PLAYER_COLUMNS, Adjustment, Standings, StandingsTable


@dataclass(frozen=True)
class StandingsInfo:
    """When and from what the standings were computed, and whether a recompute is due."""

    computed_at: datetime
    standings_version: int  # the results version they were computed from
    results_version: int  # the campaign's results version now
    round_number: int  # the round whose table is the standings now
    reports_counted: int
    forfeits_counted: int
    adjustments_counted: int
    took_ms: int
    tiebreakers: Sequence[str]

    @property
    def pending(self) -> bool:
        """Results changed since: a recompute is queued or running (the page polls until it lands)."""
        return self.standings_version < self.results_version

    @property
    def rounds(self) -> list[int]:
        """The round numbers with a table (0 alone before the first round)."""
        return list(range(1, self.round_number + 1)) or [0]


@dataclass(frozen=True)
class PlayerRow:
    enrolment_id: int
    name: str
    is_placeholder: bool
    bloc: str
    faction: str
    rank: int
    points: int
    played: int
    won: int
    drawn: int
    lost: int
    forfeited: int
    adjustment: int
    vp_for: int
    vp_against: int
    ap_destroyed: int
    tiebreaks: Mapping[str, int]

    @property
    def vp_difference(self) -> int:
        return self.vp_for - self.vp_against


@dataclass(frozen=True)
class GroupRow:
    """A bloc (``key`` "Allies", "Axis", "SSU") or a faction (its catalogue key; "" for no faction)."""

    key: str
    rank: int
    players: int
    points: int
    played: int
    won: int
    drawn: int
    lost: int
    vp_for: int
    vp_against: int
    ap_destroyed: int
    sectors_held: int | None  # None: a faction, where sectors and resources are kept per bloc
    resources: int | None

    @property
    def vp_difference(self) -> int:
        return self.vp_for - self.vp_against


@dataclass(frozen=True)
class StandingsView:
    info: StandingsInfo
    round_number: int  # the round this table stands at
    players: list[PlayerRow]
    blocs: list[GroupRow]
    factions: list[GroupRow]
    # Every input ``players`` was made of (the stored table and version, its places' names): a page may keep
    # what it draws from the players under it (standings/drawings.py).
    stamp: Hashable = field(default=None, compare=False)

    @property
    def is_now(self) -> bool:
        return self.round_number == self.info.round_number


@dataclass(frozen=True)
class Series:
    key: str  # an enrolment's id or a bloc
    name: str
    values: list[int | None]  # one per round of ``rounds``; None before a player joined


@dataclass(frozen=True)
class History:
    rounds: list[int]
    series: list[Series]


@dataclass(frozen=True)
class PlayerStanding:
    """A player's record now, its points and rank over the rounds, and its adjustments."""

    row: PlayerRow
    rounds: list[int]
    points: list[int | None]
    ranks: list[int | None]
    adjustments: list[Adjustment]


def _info(standings: Standings, campaign: Campaign) -> StandingsInfo:
    return StandingsInfo(
        computed_at=standings.computed_at, standings_version=standings.results_version,
        results_version=campaign.results_version, round_number=standings.round_number,
        reports_counted=standings.reports_counted, forfeits_counted=standings.forfeits_counted,
        adjustments_counted=standings.adjustments_counted, took_ms=standings.took_ms,
        tiebreakers=list(standings.tiebreakers),
    )  # fmt: skip


def standings_status(*, campaign: Campaign) -> StandingsInfo | None:
    """When the standings were computed and whether a recompute is due (one query: the htmx poll's)."""
    standings = Standings.objects.filter(campaign=campaign).defer("history").first()
    return None if standings is None else _info(standings, campaign)


@dataclass(frozen=True)
class StandingsPoll:
    """What the status polls show changes only with these: the campaign's results version, the version
    the standings were computed from and when (none before the first recompute), and the campaign's status
    (whether a first recompute is due). Hidden results change none of them until the round closes."""

    results_version: int
    standings_version: int | None
    computed_at: datetime | None
    status: str

    @property
    def parts(self) -> tuple[object, ...]:
        return (self.results_version, self.standings_version, self.computed_at, self.status)


_POLL_FIELDS = (
    "is_public", "organiser_id", "status", "results_version", "standings__results_version",
    "standings__computed_at",
)  # fmt: skip


class _Viewer:
    """What ``viewer_annotations`` reads of a logged-in user, for a query compiled before any user asks."""

    is_authenticated = True

    def __init__(self, pk: int) -> None:
        self.pk = pk


def _poll_query(campaign: int, user: int | None = None) -> QuerySet[Campaign, dict[str, Any]]:
    viewer = viewer_annotations(cast(Actor, _Viewer(user)) if user is not None else AnonymousUser())
    query: QuerySet[Campaign, dict[str, Any]] = (
        Campaign.objects.filter(pk=campaign).annotate(**viewer).values(*_POLL_FIELDS, *viewer)
    )
    return query


# Built and compiled once per thread: the ORM's work was 0.85 ms of a poll's CPU (core/compiled.py).
_POLL_AS_USER = CompiledValues(_poll_query, "campaign", "user")
_POLL_AS_VISITOR = CompiledValues(_poll_query, "campaign")


def standings_poll(*, campaign_id: int, user: Actor) -> StandingsPoll | None:
    """The status polls' version, or None when there is no such campaign or ``user`` may not see it.

    One query (the campaign joined to its standings, with what the viewer is to it), so a poll
    that brings nothing new answers before anything else is read.
    """
    if user.is_authenticated:
        row = _POLL_AS_USER.first(campaign=campaign_id, user=user.pk)
    else:
        row = _POLL_AS_VISITOR.first(campaign=campaign_id)
    if row is None or not can_view_campaign_row(user, row):
        return None
    return StandingsPoll(
        results_version=row["results_version"], standings_version=row["standings__results_version"],
        computed_at=row["standings__computed_at"], status=row["status"],
    )  # fmt: skip


def standings_pending(*, campaign: Campaign) -> bool:
    """Whether a recompute is due: the standings lag the campaign's results (one query).

    Never computed counts as due once anything was recorded or the campaign is
    under way (the beat job heals those); a draft nobody joined waits for nothing.
    """
    info = standings_status(campaign=campaign)
    if info is None:
        return campaign.results_version > 0 or campaign.status in (Status.RUNNING, Status.FINISHED)
    return info.pending


@dataclass(frozen=True)
class _Place:
    name: str
    is_placeholder: bool
    bloc: str
    faction: str


_PlaceRow = tuple[int, int | None, str | None, str | None, str, str, str]


def _every_place(campaign: int) -> QuerySet[Enrolment, tuple[Any, ...]]:
    return (
        Enrolment.objects.filter(campaign_id=campaign)
        .values_list(
            "pk",
            "player_id",
            "player__display_name",
            "player__username",
            "placeholder_name",
            "bloc",
            "faction",
        )
        .order_by("pk")
    )


# A 500-player table's page reads every place's name: its query is compiled once per thread (core.compiled).
_EVERY_PLACE = CompiledRows(_every_place, "campaign")


def _place_rows(campaign: Campaign, only: int | None = None) -> tuple[_PlaceRow, ...]:
    if only is None:
        return tuple(_EVERY_PLACE.converted(_EVERY_PLACE.raw(campaign=campaign.pk)))
    rows = _every_place(campaign.pk).filter(pk=only)
    return tuple(rows)


def _places_of(rows: Sequence[_PlaceRow]) -> dict[int, _Place]:
    # The same name as Enrolment.display_name: the account's display name, else its username.
    return {
        pk: _Place(
            str(shown or username) if player is not None else placeholder, player is None, bloc, faction
        )
        for pk, player, shown, username, placeholder, bloc, faction in rows
    }


def _places(campaign: Campaign, only: int | None = None) -> dict[int, _Place]:
    """Names, blocs and factions by place id, read as values: a 500-player table's page would otherwise
    build a thousand model instances (places and accounts) for four strings each."""
    return _places_of(_place_rows(campaign, only))


_NOWHERE = _Place("", False, "", "")
# The order ``_player`` unpacks a stored row in; a change to the stored columns must change both.
_UNPACKED = (
    "enrolment", "rank", "points", "played", "won", "drawn", "lost", "forfeited", "adjustment", "vp_for",
    "vp_against", "ap_destroyed", "tiebreaks",
)  # fmt: skip
if PLAYER_COLUMNS != _UNPACKED:  # pragma: no cover - caught at import by any test
    raise ImportError("standings.selectors._player unpacks rows in another order than PLAYER_COLUMNS")


def _player(row: Sequence[Any], places: Mapping[int, _Place], tiebreakers: Sequence[str]) -> PlayerRow:
    # Unpacked by position (PLAYER_COLUMNS' order), not through a dict: 500 rows a page.
    (enrolment, rank, points, played, won, drawn, lost, forfeited, adjustment, vp_for, vp_against,
     ap_destroyed, stored_tiebreaks) = row  # fmt: skip
    place = places.get(enrolment, _NOWHERE)
    tiebreaks = {name: value for name, value in zip(tiebreakers, stored_tiebreaks, strict=True)
                 if value is not None}  # fmt: skip
    return PlayerRow(
        enrolment, place.name, place.is_placeholder, place.bloc, place.faction, rank, points, played, won,
        drawn, lost, forfeited, adjustment, vp_for, vp_against, ap_destroyed, tiebreaks,
    )  # fmt: skip


def _group(row: Mapping[str, Any]) -> GroupRow:
    return GroupRow(
        key=row["key"], rank=row["rank"], players=row["players"], points=row["points"], played=row["played"],
        won=row["won"], drawn=row["drawn"], lost=row["lost"], vp_for=row["vp_for"], vp_against=row["vp_against"],
        ap_destroyed=row["ap_destroyed"], sectors_held=row["sectors_held"], resources=row["resources"],
    )  # fmt: skip


def _table(campaign: Campaign, round_number: int | None, *, history: bool = False) -> StandingsTable | None:
    """The table of ``round_number`` (None: now) with its standings, in one query."""
    tables = StandingsTable.objects.filter(standings__campaign=campaign).select_related("standings")
    if not history:
        tables = tables.defer("standings__history")
    if round_number is None:
        return tables.filter(round_number=F("standings__round_number")).first()
    return tables.filter(round_number=round_number).first()


# A table's players parsed and named, by every input they are made of: a 500-player table is ~1.2 ms of JSON
# and ~2 ms of rows a page, the same until a recompute (a new version and time) or a place's name changes.
_PLAYERS: Kept[tuple[PlayerRow, ...]] = Kept(24)  # up to ~0.5 MB each for 500 players


def standings_for(*, campaign: Campaign, round_number: int | None = None) -> StandingsView | None:
    """Players, blocs and factions in rank order, now or as of the end of ``round_number`` (two queries)."""
    tables = StandingsTable.objects.filter(standings__campaign=campaign).select_related("standings")
    # The players as the stored text: parsed only when this table and these names were not parsed before.
    tables = tables.defer("standings__history", "players").annotate(players_text=Cast("players", TextField()))
    if round_number is None:
        table = tables.filter(round_number=F("standings__round_number")).first()
    else:
        table = tables.filter(round_number=round_number).first()
    if table is None:
        return None
    rows = _place_rows(campaign)
    standings = table.standings
    stamp = (table.pk, standings.results_version, standings.computed_at, rows)
    players = _PLAYERS.get(stamp)
    if players is None:
        places, tiebreakers = _places_of(rows), standings.tiebreakers
        parsed = json.loads(table.players_text)  # type: ignore[attr-defined]
        players = _PLAYERS.put(stamp, tuple(_player(row, places, tiebreakers) for row in parsed))
    return StandingsView(
        info=_info(standings, campaign), round_number=table.round_number, players=list(players),
        blocs=[_group(row) for row in table.blocs], factions=[_group(row) for row in table.factions],
        stamp=stamp,
    )  # fmt: skip


def _cut(history: Mapping[str, Any], round_number: int | None) -> int:
    """How many rounds of the series to show: all of them, or up to ``round_number``."""
    rounds = list(history.get("rounds", []))
    if round_number is None:
        return len(rounds)
    return len([number for number in rounds if number <= round_number])


def player_standing(
    *, campaign: Campaign, enrolment: Enrolment, round_number: int | None = None
) -> PlayerStanding | None:
    """A player's row now (or as of ``round_number``), its series up to then and its adjustments (three queries)."""
    table = _table(campaign, round_number, history=True)
    row = next((r for r in table.players if r[0] == enrolment.pk), None) if table else None
    if table is None or row is None:
        return None
    history = table.standings.history
    shown = _cut(history, table.round_number)
    series = history.get("players", {}).get(str(enrolment.pk), {})
    places = _places(campaign, only=enrolment.pk)
    adjustments = adjustments_for(campaign=campaign, enrolment=enrolment)
    if round_number is not None:
        adjustments = adjustments.filter(round_number__lte=round_number)
    return PlayerStanding(
        row=_player(row, places, table.standings.tiebreakers),
        rounds=list(history.get("rounds", []))[:shown],
        points=list(series.get("points", []))[:shown],
        ranks=list(series.get("rank", []))[:shown],
        adjustments=list(adjustments),
    )


def history_points(
    *, campaign: Campaign, leaders: int = 5, round_number: int | None = None
) -> History | None:
    """Campaign points over the rounds of the ``leaders`` best placed now (or as of ``round_number``): two queries."""
    table = _table(campaign, round_number, history=True)
    if table is None:
        return None
    history = table.standings.history
    shown = _cut(history, table.round_number)
    top = [row[0] for row in table.players[: max(leaders, 0)]]
    names = {pk: place.name for pk, place in _places(campaign).items() if pk in top}
    players = history.get("players", {})
    return History(
        rounds=list(history.get("rounds", []))[:shown],
        series=[
            Series(str(pk), names.get(pk, ""), list(players.get(str(pk), {}).get("points", []))[:shown])
            for pk in top
        ],
    )


def history_sectors(*, campaign: Campaign, round_number: int | None = None) -> History | None:
    """Sectors held by each bloc at the end of every round (up to ``round_number``): one query."""
    standings = Standings.objects.filter(campaign=campaign).only("history").first()
    if standings is None:
        return None
    history = standings.history
    shown = _cut(history, round_number)
    return History(
        rounds=list(history.get("rounds", []))[:shown],
        series=[
            Series(bloc, bloc, list(series["sectors_held"])[:shown])
            for bloc, series in history.get("blocs", {}).items()
        ],
    )


def adjustments_for(*, campaign: Campaign, enrolment: Enrolment | None = None) -> QuerySet[Adjustment]:
    """The campaign's point adjustments, newest first, with the player and who made them (one query)."""
    adjustments = Adjustment.objects.filter(campaign=campaign).select_related("enrolment__player", "actor")
    if enrolment is not None:
        adjustments = adjustments.filter(enrolment=enrolment)
    return adjustments.order_by("-created_at", "-id")


def histories_for_page(
    *, campaign: Campaign, leaders: Sequence[PlayerRow], round_number: int | None = None
) -> tuple[History, History] | None:
    """The series of both charts in one query: the points of ``leaders`` (rows the page already holds, so
    their names cost nothing) and the sectors held per bloc, up to ``round_number``.

    ``history_points`` + ``history_sectors`` give the same series; a page that has read the table with
    ``standings_for`` would pay their table, places and history again.
    """
    standings = Standings.objects.filter(campaign=campaign).only("history").first()
    if standings is None:
        return None
    history = standings.history
    shown = _cut(history, round_number)
    rounds = list(history.get("rounds", []))[:shown]
    players = history.get("players", {})
    points = History(
        rounds=rounds,
        series=[
            Series(str(row.enrolment_id), row.name,
                   list(players.get(str(row.enrolment_id), {}).get("points", []))[:shown])
            for row in leaders
        ],
    )  # fmt: skip
    sectors = History(
        rounds=rounds,
        series=[
            Series(bloc, bloc, list(series["sectors_held"])[:shown])
            for bloc, series in history.get("blocs", {}).items()
        ],
    )
    return points, sectors
