"""Computing a campaign's standings from the database: the same few aggregate queries whatever its size.

The battles are never loaded as objects: the database sums them per player and
round (one query for the attackers' side, one for the defenders'), and, when a
tiebreaker needs who met whom, per pair of players and round. Adjustments and
the ledger are summed the same way; the sector log is read once and replayed
round by round. Python then only adds up these sums round after round and
ranks each round with the pure engine (``standings.engine``).

What counts:

- a confirmed battle: a win, a draw or a loss as its result says, with its
  victory points and the AP each side destroyed (stored on the battle when the
  result was recorded: ``Battle.result``);
- a forfeited battle (the campaign settles unplayed battles as forfeits when a
  round closes): a loss for each side that did not report it, a win for a side
  that did; no victory points. As rounds are closed today nobody has reported a
  forfeited battle, so both sides lose it;
- battles not played (the other setting), void, drafted, scheduled or waiting
  for confirmation: nothing;
- an adjustment: its points, from the round it was made in.

A bloc's and a faction's table count each battle for the bloc and faction its
side fought for, as the battle recorded them (``Battle.attacker_bloc``...), not
for the place's bloc now; a player counts as a player of their bloc and faction
now, with their adjustments.

The table of round N counts the battles of rounds 1 to N, the adjustments and
ledger entries made up to round N and the sectors as the log has them at the
end of round N (``campaign.selectors.map_state_at``). It lists the admitted
players (and those who left) who had joined by round N, plus anyone with a
result counted.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, IntegerField, Q, QuerySet, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from armies.blocs import Bloc
from campaign.engine.map import SectorState, apply_change
from campaign.models import Battle, BattleStatus, Campaign, Enrolment, EnrolmentStatus, ResourceEntry, Round
from campaign.options import ResourceHolder
from campaign.selectors import campaign_map, sector_changes
from standings import engine
from standings.models import Adjustment

SIDES = ("attacker", "defender")
OTHER = {"attacker": "defender", "defender": "attacker"}
COUNTED = (BattleStatus.CONFIRMED, BattleStatus.FORFEITED)
_CONFIRMED = Q(status=BattleStatus.CONFIRMED)
_FORFEITED = Q(status=BattleStatus.FORFEITED)
# Who won is read from the winner column the result recorded (a confirmed battle without one is a draw),
# not from the result's JSON: the database compares two columns much faster than it parses documents.
_DRAW = _CONFIRMED & Q(winner__isnull=True)
# Standing players: admitted, or gone after playing (their battles still count for their opponents).
_LISTED = (EnrolmentStatus.ADMITTED, EnrolmentStatus.LEFT)


def _reported_by(side: str) -> Q:
    return Q(report__submitted_by=F(side))


def _forfeit_lost(side: str) -> Q:
    return _FORFEITED & ~_reported_by(side)


def _won(side: str) -> Q:
    return (_CONFIRMED & Q(winner=F(side))) | (_FORFEITED & _reported_by(side))


def _lost(side: str) -> Q:
    return (_CONFIRMED & Q(winner=F(OTHER[side]))) | _forfeit_lost(side)


def _result_int(path: str) -> Cast:
    return Cast(KT(f"result__{path}"), IntegerField())


def _battles(campaign: Campaign) -> QuerySet[Battle]:
    return Battle.objects.filter(campaign=campaign, status__in=COUNTED).order_by()


def side_totals(campaign: Campaign, side: str) -> QuerySet[Battle, Any]:
    """Per player of ``side``, the bloc and faction it fought for, and round: results, forfeits, VP for and
    against, AP destroyed (one query)."""
    other = OTHER[side]
    totals: QuerySet[Battle, Any] = (
        _battles(campaign)
        .values(side, f"{side}_bloc", f"{side}_faction", "round__number")
        .annotate(
            won=Count("pk", filter=_won(side)),
            drawn=Count("pk", filter=_DRAW),
            lost=Count("pk", filter=_lost(side)),
            forfeited=Count("pk", filter=_forfeit_lost(side)),
            confirmed=Count("pk", filter=_CONFIRMED),
            forfeits=Count("pk", filter=_FORFEITED),
            vp_for=Sum(_result_int(f"victory_points__{side}"), filter=_CONFIRMED),
            vp_against=Sum(_result_int(f"victory_points__{other}"), filter=_CONFIRMED),
            ap_destroyed=Sum(_result_int(f"ap_destroyed__{side}"), filter=_CONFIRMED),
        )
    )
    return totals


def meeting_totals(campaign: Campaign) -> QuerySet[Battle, Any]:
    """Per pair of players and round: each side's wins, draws and losses against the other (one query)."""
    return (
        _battles(campaign)
        .values("attacker", "defender", "round__number")
        .annotate(
            attacker_won=Count("pk", filter=_won("attacker")),
            attacker_lost=Count("pk", filter=_lost("attacker")),
            defender_won=Count("pk", filter=_won("defender")),
            defender_lost=Count("pk", filter=_lost("defender")),
            drawn=Count("pk", filter=_DRAW),
        )
    )


@dataclass
class Tally:
    """A player's running totals while the rounds are added up."""

    won: int = 0
    drawn: int = 0
    lost: int = 0
    forfeited: int = 0
    adjustment: int = 0
    vp_for: int = 0
    vp_against: int = 0
    ap_destroyed: int = 0
    meetings: dict[int, int] = field(default_factory=dict)

    def record(self, key: int, scoring: engine.Scoring) -> engine.PlayerRecord:
        points = scoring.points(won=self.won, drawn=self.drawn, lost=self.lost) + self.adjustment
        return engine.PlayerRecord(
            key=key, points=points, won=self.won, drawn=self.drawn, lost=self.lost, forfeited=self.forfeited,
            adjustment=self.adjustment, vp_for=self.vp_for, vp_against=self.vp_against,
            ap_destroyed=self.ap_destroyed, meetings=dict(self.meetings),
        )  # fmt: skip


@dataclass(frozen=True)
class Table:
    round_number: int
    players: list[list[Any]]  # rows of standings.models.PLAYER_COLUMNS
    blocs: list[dict[str, Any]]
    factions: list[dict[str, Any]]


@dataclass(frozen=True)
class Computed:
    round_number: int
    tables: list[Table]
    history: dict[str, Any]
    reports_counted: int
    forfeits_counted: int
    adjustments_counted: int
    tiebreakers: list[str]


@dataclass(frozen=True)
class _Place:
    bloc: str
    faction: str
    listed: bool
    joined: int  # the first round whose table lists the player (0: from the start)


class _Rounds:
    """The tables' round numbers (1..current, or just 0 before the first round) and where a delta lands."""

    def __init__(self, current: int) -> None:
        self.numbers = list(range(1, current + 1)) or [0]

    def of(self, round_number: int | None) -> int:
        return min(max(round_number or 0, self.numbers[0]), self.numbers[-1])


# A bloc and a faction, as battles recorded what a side fought for. The blocs' and factions' tables count
# each battle for these, not for the place's bloc now.
FoughtFor = tuple[str, str]


def _count(tally: Tally, row: Mapping[str, Any]) -> None:
    tally.won += row["won"]
    tally.drawn += row["drawn"]
    tally.lost += row["lost"]
    tally.forfeited += row["forfeited"]
    tally.vp_for += row["vp_for"] or 0
    tally.vp_against += row["vp_against"] or 0
    tally.ap_destroyed += row["ap_destroyed"] or 0


def _player_deltas(
    campaign: Campaign, rounds: _Rounds, needs_meetings: bool
) -> tuple[dict[int, dict[int, Tally]], dict[int, dict[FoughtFor, Tally]], Counter[str]]:
    """Per round: what it adds to each player's totals and to the battles fought for each bloc and faction;
    and the battles counted."""
    deltas: dict[int, dict[int, Tally]] = defaultdict(lambda: defaultdict(Tally))
    fought: dict[int, dict[FoughtFor, Tally]] = defaultdict(lambda: defaultdict(Tally))
    counted: Counter[str] = Counter()
    for side in SIDES:
        for row in side_totals(campaign, side):
            number = rounds.of(row["round__number"])
            _count(deltas[number][row[side]], row)
            _count(fought[number][(row[f"{side}_bloc"], row[f"{side}_faction"])], row)
            if side == "attacker":  # each battle has one attacker: count it once
                counted["reports"] += row["confirmed"]
                counted["forfeits"] += row["forfeits"]
    if needs_meetings:
        scoring = _scoring(campaign)
        for row in meeting_totals(campaign):
            number = rounds.of(row["round__number"])
            for side in SIDES:
                other = OTHER[side]
                earned = scoring.points(won=row[f"{side}_won"], drawn=row["drawn"], lost=row[f"{side}_lost"])
                meetings = deltas[number][row[side]].meetings
                meetings[row[other]] = meetings.get(row[other], 0) + earned
    adjustments = (
        Adjustment.objects.filter(campaign=campaign)
        .values("enrolment", "round_number")
        .annotate(total=Sum("points"), made=Count("pk"))
        .order_by()
    )
    for row in adjustments:
        deltas[rounds.of(row["round_number"])][row["enrolment"]].adjustment += row["total"]
        counted["adjustments"] += row["made"]
    return deltas, fought, counted


def _scoring(campaign: Campaign) -> engine.Scoring:
    return engine.Scoring(win=campaign.points_win, draw=campaign.points_draw, loss=campaign.points_loss)


def _resources(
    campaign: Campaign, rounds: _Rounds, places: Mapping[int, _Place]
) -> dict[int, tuple[Counter[str], Counter[str]]]:
    """Per round, what the ledger adds to each bloc's and each faction's balance."""
    per_round: dict[int, tuple[Counter[str], Counter[str]]] = defaultdict(lambda: (Counter(), Counter()))
    rows = (
        ResourceEntry.objects.filter(campaign=campaign)
        .values("bloc", "enrolment", "round_number")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    for row in rows:
        blocs, factions = per_round[rounds.of(row["round_number"])]
        place = places.get(row["enrolment"]) if row["enrolment"] is not None else None
        blocs[place.bloc if place is not None else row["bloc"]] += row["total"]
        if place is not None:
            factions[place.faction] += row["total"]
    return per_round


def _sectors(campaign: Campaign, rounds: _Rounds) -> dict[int, dict[str, SectorState]]:
    """The sectors at the end of each round, replaying the sector log (read once) from the map as loaded."""
    if campaign.map_document is None:
        return {number: {} for number in rounds.numbers}
    state = dict(campaign_map(campaign=campaign).initial_state())
    entries = list(
        sector_changes(campaign=campaign)
        .filter(field__in=["owner", "held_by"])
        .order_by("round_number", "id")
        .values_list("subject", "field", "after", "round_number")
    )
    states: dict[int, dict[str, SectorState]] = {}
    index = 0
    for number in rounds.numbers:
        while index < len(entries) and (number == rounds.numbers[-1] or entries[index][3] <= number):
            subject, name, after, _round = entries[index]
            key = subject.removeprefix("sector:")
            state[key] = apply_change(state[key], name, None if after == "" else after)
            index += 1
        states[number] = dict(state)
    return states


def _player_row(ranked: engine.RankedPlayer, tiebreakers: list[str]) -> list[Any]:
    """The row, in the order of ``PLAYER_COLUMNS`` (enrolment first, tiebreaks last)."""
    r = ranked.record
    tiebreaks = [ranked.tiebreaks.get(name) for name in tiebreakers]
    return [r.key, ranked.rank, r.points, r.played, r.won, r.drawn, r.lost, r.forfeited, r.adjustment, r.vp_for,
            r.vp_against, r.ap_destroyed, tiebreaks]  # fmt: skip


def _group_row(rank: int, g: engine.GroupRecord) -> dict[str, Any]:
    return {
        "key": g.key, "rank": rank, "players": g.players, "points": g.points, "played": g.played, "won": g.won,
        "drawn": g.drawn, "lost": g.lost, "vp_for": g.vp_for, "vp_against": g.vp_against,
        "ap_destroyed": g.ap_destroyed, "sectors_held": g.sectors_held, "resources": g.resources,
    }  # fmt: skip


def _group_rows(groups: Iterable[engine.GroupRecord]) -> list[dict[str, Any]]:
    return [_group_row(rank, g) for rank, g in engine.rank_groups(groups)]


def standings_compute(*, campaign: Campaign) -> Computed:
    """Every round's table from the campaign's results (the caller holds the campaign's lock)."""
    rounds = _Rounds(campaign.current_round)
    tiebreakers = [name for name in campaign.tiebreakers if name in engine.TIEBREAKERS]
    needs_meetings = bool({engine.HEAD_TO_HEAD, engine.STRENGTH_OF_SCHEDULE} & set(tiebreakers))
    # A player admitted while round N was open (or after it closed) is listed from round N's table on.
    opened = list(Round.objects.filter(campaign=campaign).values_list("opened_at", flat=True))
    places = {
        pk: _Place(bloc, faction, status in _LISTED, sum(at <= decided for at in opened) if decided else 0)
        for pk, bloc, faction, status, decided in Enrolment.objects.filter(campaign=campaign).values_list(
            "pk", "bloc", "faction", "status", "decided_at"
        )
    }
    deltas, fought_deltas, counted = _player_deltas(campaign, rounds, needs_meetings)
    resources = _resources(campaign, rounds, places)
    sectors = _sectors(campaign, rounds)
    per_player = campaign.resources_held_by == ResourceHolder.PLAYER
    scoring = _scoring(campaign)
    running: dict[int, Tally] = {}
    fought: dict[FoughtFor, Tally] = {}
    bloc_balance: Counter[str] = Counter()
    faction_balance: Counter[str] = Counter()
    tables: list[Table] = []
    history: dict[str, Any] = {"rounds": rounds.numbers, "players": {}, "blocs": {}}
    for position, number in enumerate(rounds.numbers):
        for pk, place in places.items():
            if place.listed and place.joined <= number and pk not in running:
                running[pk] = Tally()
        for pk, delta in deltas.get(number, {}).items():
            _add(running.setdefault(pk, Tally()), delta)
        for key, delta in fought_deltas.get(number, {}).items():
            _add(fought.setdefault(key, Tally()), delta)
        blocs_added, factions_added = resources.get(number, (Counter(), Counter()))
        bloc_balance.update(blocs_added)
        faction_balance.update(factions_added)
        ranked = engine.rank_players(
            [tally.record(pk, scoring) for pk, tally in running.items()], tiebreakers
        )
        state = sectors[number]
        owned = Counter(s.owner.value for s in state.values() if s.owner is not None)
        held = Counter(places[s.held_by].faction for s in state.values() if s.held_by in places)
        records = [r.record for r in ranked]
        battles = [(key, tally.record(0, scoring)) for key, tally in fought.items()]
        blocs = engine.group_totals(records, {pk: places[pk].bloc for pk in running},
                                    keys=[b.value for b in Bloc], sectors=owned, resources=bloc_balance,
                                    fought=[(bloc, record) for (bloc, _faction), record in battles])  # fmt: skip
        factions = engine.group_totals(
            records, {pk: places[pk].faction for pk in running},
            sectors=held if per_player else None, resources=faction_balance if per_player else None,
            fought=[(faction, record) for (_bloc, faction), record in battles],
        )  # fmt: skip
        table = Table(number, [_player_row(r, tiebreakers) for r in ranked], _group_rows(blocs),
                      _group_rows(factions))  # fmt: skip
        tables.append(table)
        _extend_history(history, table, position)
    return Computed(
        round_number=rounds.numbers[-1], tables=tables, history=history, reports_counted=counted["reports"],
        forfeits_counted=counted["forfeits"], adjustments_counted=counted["adjustments"], tiebreakers=tiebreakers,
    )  # fmt: skip


def _add(total: Tally, delta: Tally) -> None:
    total.won += delta.won
    total.drawn += delta.drawn
    total.lost += delta.lost
    total.forfeited += delta.forfeited
    total.adjustment += delta.adjustment
    total.vp_for += delta.vp_for
    total.vp_against += delta.vp_against
    total.ap_destroyed += delta.ap_destroyed
    for opponent, points in delta.meetings.items():
        total.meetings[opponent] = total.meetings.get(opponent, 0) + points


def _extend_history(history: dict[str, Any], table: Table, position: int) -> None:
    """Add one round to the series the charts draw (a player who joined late has None for earlier rounds)."""
    for key, rank, points, *_rest in table.players:
        series = history["players"].setdefault(
            str(key), {"points": [None] * position, "rank": [None] * position}
        )
        series["points"].append(points)
        series["rank"].append(rank)
    for row in table.blocs:
        series = history["blocs"].setdefault(row["key"], {"sectors_held": [], "points": [], "resources": []})
        for name in ("sectors_held", "points", "resources"):
            series[name].append(row[name])
