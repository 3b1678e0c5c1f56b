"""Ranking a campaign's players, blocs and factions: plain Python, no Django.

Players are ordered by campaign points, then by the campaign's tiebreakers in
the order the organiser chose; players still level after all of them share a
rank, and the next rank skips (1, 2, 2, 4). Each tiebreaker is applied once, to
the groups still tied when its turn comes:

- ``vp_difference``: victory points scored minus victory points conceded;
- ``vp_for``: victory points scored;
- ``ap_destroyed``: AP of enemy units eliminated;
- ``head_to_head``: among exactly the players of the tied group, the campaign
  points each earned in its battles against the others of the group (a group
  that never met stays tied);
- ``strength_of_schedule``: the sum of the campaign points of every opponent
  faced, each opponent counted once however often met (a rematch does not
  count a strong opponent twice).

Higher is better for every one of them. Within a shared rank the order is by
key (the enrolment's id), so the result never depends on the input's order.

Blocs and factions are ranked by sectors held, then wins, then VP difference
(a faction holds sectors only where resources are kept per player).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

VP_DIFFERENCE = "vp_difference"
VP_FOR = "vp_for"
AP_DESTROYED = "ap_destroyed"
HEAD_TO_HEAD = "head_to_head"
STRENGTH_OF_SCHEDULE = "strength_of_schedule"
TIEBREAKERS: tuple[str, ...] = (VP_DIFFERENCE, VP_FOR, AP_DESTROYED, HEAD_TO_HEAD, STRENGTH_OF_SCHEDULE)


@dataclass(frozen=True)
class Scoring:
    """Campaign points for a win, a draw and a loss (a forfeit scores as a loss for the side that loses it)."""

    win: int = 3
    draw: int = 1
    loss: int = 0

    def points(self, *, won: int, drawn: int, lost: int) -> int:
        return won * self.win + drawn * self.draw + lost * self.loss


@dataclass(frozen=True)
class PlayerRecord:
    """One player's record over the battles counted so far.

    ``points`` are the campaign points, adjustments included. ``meetings`` maps
    each opponent met to the campaign points this player earned in their
    battles (head to head and strength of schedule read it).
    """

    key: int
    points: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    forfeited: int = 0  # of ``lost``, the battles lost by forfeit
    adjustment: int = 0
    vp_for: int = 0
    vp_against: int = 0
    ap_destroyed: int = 0
    meetings: Mapping[int, int] = field(default_factory=dict)

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def vp_difference(self) -> int:
        return self.vp_for - self.vp_against


def with_result(
    record: PlayerRecord, scoring: Scoring, *, result: str, opponent: int | None = None
) -> PlayerRecord:
    """``record`` with one more battle ("win", "draw" or "loss"), its points and meeting included."""
    won, drawn, lost = (result == "win", result == "draw", result == "loss")
    if not (won or drawn or lost):
        raise ValueError(f"unknown result {result!r}")
    earned = scoring.points(won=won, drawn=drawn, lost=lost)
    meetings = dict(record.meetings)
    if opponent is not None:
        meetings[opponent] = meetings.get(opponent, 0) + earned
    return replace(
        record, points=record.points + earned, won=record.won + won, drawn=record.drawn + drawn,
        lost=record.lost + lost, meetings=meetings,
    )  # fmt: skip


@dataclass(frozen=True)
class RankedPlayer:
    record: PlayerRecord
    rank: int
    # The value of each tiebreaker for the player; head to head only where it was applied to the
    # player's tied group (its value means nothing outside that group).
    tiebreaks: Mapping[str, int]


def strength_of_schedule(records: Iterable[PlayerRecord]) -> dict[int, int]:
    """Each player's sum of the campaign points of the distinct opponents it met."""
    listed = list(records)
    points = {record.key: record.points for record in listed}
    return {record.key: sum(points.get(opponent, 0) for opponent in record.meetings) for record in listed}


def _global_values(records: Sequence[PlayerRecord], tiebreakers: Sequence[str]) -> dict[str, dict[int, int]]:
    values: dict[str, dict[int, int]] = {}
    for name in tiebreakers:
        if name == VP_DIFFERENCE:
            values[name] = {r.key: r.vp_difference for r in records}
        elif name == VP_FOR:
            values[name] = {r.key: r.vp_for for r in records}
        elif name == AP_DESTROYED:
            values[name] = {r.key: r.ap_destroyed for r in records}
        elif name == STRENGTH_OF_SCHEDULE:
            values[name] = strength_of_schedule(records)
    return values


def _buckets(group: Sequence[PlayerRecord], value: Mapping[int, int]) -> list[list[PlayerRecord]]:
    """``group`` split into runs of equal ``value``, best first."""
    ordered = sorted(group, key=lambda r: (-value[r.key], r.key))
    runs: list[list[PlayerRecord]] = []
    for record in ordered:
        if runs and value[runs[-1][0].key] == value[record.key]:
            runs[-1].append(record)
        else:
            runs.append([record])
    return runs


def rank_players(records: Iterable[PlayerRecord], tiebreakers: Sequence[str]) -> list[RankedPlayer]:
    """The players best first, with competition ranks (1, 2, 2, 4) and their tiebreak values."""
    listed = list(records)
    if len({r.key for r in listed}) != len(listed):
        raise ValueError("each player is ranked once")
    unknown = [name for name in tiebreakers if name not in TIEBREAKERS]
    if unknown:
        raise ValueError(f"unknown tiebreakers {unknown}")
    values = _global_values(listed, tiebreakers)
    head_to_head: dict[int, int] = {}

    def split(group: list[PlayerRecord], remaining: Sequence[str]) -> list[list[PlayerRecord]]:
        if len(group) < 2 or not remaining:
            return [sorted(group, key=lambda r: r.key)]
        name, rest = remaining[0], remaining[1:]
        if name == HEAD_TO_HEAD:
            members = {r.key for r in group}
            value = {r.key: sum(p for o, p in r.meetings.items() if o in members) for r in group}
            head_to_head.update(value)
        else:
            value = values[name]
        return [tied for run in _buckets(group, value) for tied in split(run, rest)]

    points = {r.key: r.points for r in listed}
    groups = [tied for run in _buckets(listed, points) for tied in split(run, tiebreakers)]
    ranked: list[RankedPlayer] = []
    for group in groups:
        rank = len(ranked) + 1
        for record in group:
            shown = {name: values[name][record.key] for name in tiebreakers if name in values}
            if record.key in head_to_head:
                shown[HEAD_TO_HEAD] = head_to_head[record.key]
            ranked.append(RankedPlayer(record=record, rank=rank, tiebreaks=shown))
    return ranked


@dataclass(frozen=True)
class GroupRecord:
    """A bloc's or a faction's totals: its players' records summed, and what it holds."""

    key: str
    players: int = 0
    points: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    vp_for: int = 0
    vp_against: int = 0
    ap_destroyed: int = 0
    sectors_held: int | None = None  # None: the group holds no sectors of its own (a faction, per bloc)
    resources: int | None = None

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def vp_difference(self) -> int:
        return self.vp_for - self.vp_against


def group_totals(
    records: Iterable[PlayerRecord],
    group_of: Mapping[int, str],
    *,
    keys: Iterable[str] = (),
    sectors: Mapping[str, int] | None = None,
    resources: Mapping[str, int] | None = None,
    fought: Iterable[tuple[str, PlayerRecord]] | None = None,
) -> list[GroupRecord]:
    """The totals of each group (``keys`` listed even without players), with its sectors and resources.

    Without ``fought``, each player's whole record counts for the player's group. With it, a player
    counts for ``group_of`` as a player and with its adjustment only, and the battles count for the
    group each was fought for: ``fought`` pairs a group with a record of battles fought for it (a group
    may have several).
    """
    names = ("players", "points", "won", "drawn", "lost", "vp_for", "vp_against", "ap_destroyed")
    # Summed in plain lists: building a frozen record per player would dominate a 500-player recompute.
    sums: dict[str, list[int]] = {key: [0] * len(names) for key in keys}
    for r in records:
        total = sums.setdefault(group_of[r.key], [0] * len(names))
        if fought is not None:
            total[0] += 1
            total[1] += r.adjustment
            continue
        for index, value in enumerate(
            (1, r.points, r.won, r.drawn, r.lost, r.vp_for, r.vp_against, r.ap_destroyed)
        ):
            total[index] += value
    for group, r in fought or ():
        total = sums.setdefault(group, [0] * len(names))
        for index, value in enumerate(
            (r.points - r.adjustment, r.won, r.drawn, r.lost, r.vp_for, r.vp_against, r.ap_destroyed), start=1
        ):
            total[index] += value
    return [
        GroupRecord(
            key,
            **dict(zip(names, total, strict=True)),
            sectors_held=None if sectors is None else sectors.get(key, 0),
            resources=None if resources is None else resources.get(key, 0),
        )
        for key, total in sums.items()
    ]


T = TypeVar("T")


def competition_ranks(items: Iterable[T], key: Callable[[T], tuple[int, ...]]) -> list[tuple[int, T]]:
    """``items`` by ``key`` descending with shared ranks for equal keys (1, 2, 2, 4); ties keep input order."""
    ordered = sorted(items, key=key, reverse=True)
    ranked: list[tuple[int, T]] = []
    for index, item in enumerate(ordered):
        rank = ranked[-1][0] if ranked and key(ranked[-1][1]) == key(item) else index + 1
        ranked.append((rank, item))
    return ranked


def rank_groups(groups: Iterable[GroupRecord]) -> list[tuple[int, GroupRecord]]:
    """Blocs or factions by sectors held, then wins, then VP difference; then by key for a stable order."""
    by_key = sorted(groups, key=lambda g: g.key)
    return competition_ranks(by_key, key=lambda g: (g.sectors_held or 0, g.won, g.vp_difference))
