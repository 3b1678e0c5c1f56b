"""The pure ranking engine: examples for each tiebreaker, and properties over generated tables."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign.options import Tiebreaker
from standings import engine
from standings.engine import PlayerRecord, Scoring, rank_players, with_result

TIEBREAKERS = list(engine.TIEBREAKERS)
WITHOUT_H2H = [name for name in TIEBREAKERS if name != engine.HEAD_TO_HEAD]


def ranks(records: list[PlayerRecord], tiebreakers: list[str]) -> dict[int, int]:
    return {ranked.record.key: ranked.rank for ranked in rank_players(records, tiebreakers)}


def test_it_knows_exactly_the_campaigns_tiebreakers():
    assert set(engine.TIEBREAKERS) == set(Tiebreaker.values)


def test_it_orders_by_points_and_shares_ranks_for_true_ties():
    records = [
        PlayerRecord(1, points=3),
        PlayerRecord(2, points=6),
        PlayerRecord(3, points=3),
        PlayerRecord(4),
    ]

    ranked = rank_players(records, [])

    assert [(r.record.key, r.rank) for r in ranked] == [(2, 1), (1, 2), (3, 2), (4, 4)]


def test_it_breaks_ties_by_vp_difference_then_vp_for():
    records = [
        PlayerRecord(1, points=3, vp_for=5, vp_against=5),
        PlayerRecord(2, points=3, vp_for=9, vp_against=6),
        PlayerRecord(3, points=3, vp_for=7, vp_against=4),
    ]

    assert ranks(records, [engine.VP_DIFFERENCE]) == {2: 1, 3: 1, 1: 3}
    assert ranks(records, [engine.VP_DIFFERENCE, engine.VP_FOR]) == {2: 1, 3: 2, 1: 3}
    assert ranks(records, [engine.VP_FOR]) == {2: 1, 3: 2, 1: 3}


def test_it_breaks_ties_by_ap_destroyed():
    records = [PlayerRecord(1, points=3, ap_destroyed=40), PlayerRecord(2, points=3, ap_destroyed=90)]

    assert ranks(records, [engine.AP_DESTROYED]) == {2: 1, 1: 2}


def test_head_to_head_counts_only_battles_within_the_tied_group():
    # 1, 2 and 3 are level on 6 points. 1 beat 2, 2 beat 3, 3 drew 1: within the group 1 has 4, 2 has 3,
    # 3 has 1. Their wins over player 4 (not tied) must not count.
    records = [
        PlayerRecord(1, points=6, meetings={2: 3, 3: 1, 4: 2}),
        PlayerRecord(2, points=6, meetings={1: 0, 3: 3, 4: 3}),
        PlayerRecord(3, points=6, meetings={2: 0, 1: 1, 4: 3}),
        PlayerRecord(4, points=1, meetings={1: 1, 2: 0, 3: 0}),
    ]

    ranked = rank_players(records, [engine.HEAD_TO_HEAD])

    assert [(r.record.key, r.rank) for r in ranked] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert [r.tiebreaks.get(engine.HEAD_TO_HEAD) for r in ranked] == [4, 3, 1, None]


def test_head_to_head_leaves_players_who_never_met_tied():
    records = [PlayerRecord(1, points=3, meetings={9: 3}), PlayerRecord(2, points=3, meetings={8: 3})]

    assert ranks(records, [engine.HEAD_TO_HEAD]) == {1: 1, 2: 1}


def test_head_to_head_applies_to_the_group_still_tied_when_its_turn_comes():
    # 1, 2, 3 level on points; VP difference puts 3 last; between 1 and 2 only their own battle counts,
    # even though 3 beat 1 (3 is no longer in the tied group).
    records = [
        PlayerRecord(1, points=3, vp_for=5, meetings={2: 3, 3: 0}),
        PlayerRecord(2, points=3, vp_for=5, meetings={1: 0}),
        PlayerRecord(3, points=3, vp_for=1, meetings={1: 3}),
    ]

    assert ranks(records, [engine.VP_FOR, engine.HEAD_TO_HEAD]) == {1: 1, 2: 2, 3: 3}


def test_strength_of_schedule_sums_the_points_of_each_opponent_once():
    records = [
        PlayerRecord(1, points=3, meetings={3: 3}),
        PlayerRecord(2, points=3, meetings={4: 3, 5: 6}),  # met 5 twice: 5 counts once
        PlayerRecord(3, points=2),
        PlayerRecord(4, points=1),
        PlayerRecord(5, points=2),
    ]

    assert engine.strength_of_schedule(records) == {1: 2, 2: 3, 3: 0, 4: 0, 5: 0}
    ranked = rank_players(records, [engine.STRENGTH_OF_SCHEDULE])
    assert [r.record.key for r in ranked][:2] == [2, 1]
    assert ranked[0].tiebreaks == {engine.STRENGTH_OF_SCHEDULE: 3}


def test_it_refuses_unknown_tiebreakers_and_players_listed_twice():
    with pytest.raises(ValueError, match="unknown"):
        rank_players([PlayerRecord(1)], ["coin_toss"])
    with pytest.raises(ValueError, match="once"):
        rank_players([PlayerRecord(1), PlayerRecord(1)], [])


def test_blocs_rank_by_sectors_held_then_wins_then_vp_difference():
    groups = [
        engine.GroupRecord("Allies", won=5, sectors_held=4),
        engine.GroupRecord("Axis", won=7, sectors_held=4),
        engine.GroupRecord("SSU", won=9, sectors_held=3),
    ]

    assert [(rank, g.key) for rank, g in engine.rank_groups(groups)] == [
        (1, "Axis"),
        (2, "Allies"),
        (3, "SSU"),
    ]
    level = [engine.GroupRecord("b"), engine.GroupRecord("a")]
    assert [(rank, g.key) for rank, g in engine.rank_groups(level)] == [(1, "a"), (1, "b")]


def test_group_totals_sum_the_players_and_list_empty_groups():
    records = [PlayerRecord(1, points=3, won=1, vp_for=4), PlayerRecord(2, points=1, drawn=1, vp_against=2)]

    totals = engine.group_totals(records, {1: "Axis", 2: "Axis"}, keys=["Axis", "SSU"], sectors={"Axis": 2})

    assert totals == [
        engine.GroupRecord(
            "Axis", players=2, points=4, won=1, drawn=1, vp_for=4, vp_against=2, sectors_held=2
        ),
        engine.GroupRecord("SSU", sectors_held=0),
    ]


def test_group_totals_count_each_battle_for_the_group_it_was_fought_for():
    # Player 1 is in the SSU now, with a 2-point adjustment; it won once for the Axis and drew once for the SSU.
    records = [PlayerRecord(1, points=6, won=1, drawn=1, adjustment=2, vp_for=5), PlayerRecord(2)]
    fought = [
        ("Axis", PlayerRecord(1, points=3, won=1, vp_for=4)),
        ("SSU", PlayerRecord(1, points=1, drawn=1, vp_for=1)),
    ]

    totals = engine.group_totals(records, {1: "SSU", 2: "Axis"}, keys=["Axis", "SSU"], fought=fought)

    assert totals == [
        engine.GroupRecord("Axis", players=1, points=3, won=1, vp_for=4),
        engine.GroupRecord("SSU", players=1, points=3, drawn=1, vp_for=1),
    ]


# --- properties -------------------------------------------------------------------------------------

small = st.integers(min_value=0, max_value=4)


@st.composite
def tables(draw: st.DrawFn, tiebreakers: list[str] = TIEBREAKERS) -> tuple[list[PlayerRecord], list[str]]:
    """Up to 12 players with few distinct values, so that ties are common."""
    keys = draw(st.lists(st.integers(min_value=1, max_value=60), min_size=1, max_size=12, unique=True))
    records = []
    for key in keys:
        opponents = draw(st.lists(st.sampled_from(keys), max_size=4, unique=True))
        meetings = {o: draw(small) for o in opponents if o != key}
        records.append(
            PlayerRecord(
                key,
                points=draw(small),
                vp_for=draw(small),
                vp_against=draw(small),
                ap_destroyed=draw(small),
                meetings=meetings,
            )
        )
    chosen = draw(st.lists(st.sampled_from(tiebreakers), unique=True))
    return records, chosen


@given(tables())
def test_the_ranks_are_competition_ranks_of_an_order_by_points(table):
    records, tiebreakers = table
    ranked = rank_players(records, tiebreakers)

    assert sorted(r.record.key for r in ranked) == sorted(r.key for r in records)
    for index, item in enumerate(ranked):
        first_of_rank = next(i for i, other in enumerate(ranked) if other.rank == item.rank)
        assert item.rank == first_of_rank + 1
        if index:
            assert ranked[index - 1].rank <= item.rank
            assert ranked[index - 1].record.points >= item.record.points


@given(tables(WITHOUT_H2H))
def test_without_head_to_head_the_order_is_the_lexicographic_order_of_the_values(table):
    """A total preorder: i before j iff its (points, tiebreaks...) are at least j's; equal means a shared rank."""
    records, tiebreakers = table
    ranked = rank_players(records, tiebreakers)

    def key(item: engine.RankedPlayer) -> tuple[int, ...]:
        return (item.record.points, *(item.tiebreaks[name] for name in tiebreakers))

    for i, first in enumerate(ranked):
        for second in ranked[i + 1 :]:
            assert key(first) >= key(second)
            assert (first.rank == second.rank) == (key(first) == key(second))


@given(tables(), st.randoms(use_true_random=False))
def test_the_ranking_does_not_depend_on_the_input_order(table, random):
    records, tiebreakers = table
    shuffled = list(records)
    random.shuffle(shuffled)

    before = [(r.record.key, r.rank, dict(r.tiebreaks)) for r in rank_players(records, tiebreakers)]
    after = [(r.record.key, r.rank, dict(r.tiebreaks)) for r in rank_players(shuffled, tiebreakers)]

    assert before == after


@given(tables(), st.integers(min_value=2, max_value=5))
def test_players_equal_in_everything_share_a_rank(table, copies):
    records, tiebreakers = table
    # Copies of one record that never met each other: nothing can tell them apart.
    twin = replace(records[0], meetings={})
    clones = [replace(twin, key=1000 + n) for n in range(copies)]

    got = ranks([*records[1:], twin, *clones], tiebreakers)

    assert len({got[twin.key], *(got[c.key] for c in clones)}) == 1


scorings = st.tuples(st.integers(0, 5), st.integers(-3, 5), st.integers(-5, 5)).map(
    lambda t: Scoring(win=t[0], draw=min(t[1], t[0]), loss=min(t[2], t[1], t[0]))
)


@given(tables(), scorings, st.sampled_from(["win", "draw", "loss"]), st.data())
def test_adding_a_win_never_lowers_a_players_points_nor_its_rank(table, scoring, other, data):
    """Against the same record with nothing added, and against the same battle drawn or lost instead."""
    records, tiebreakers = table
    player = data.draw(st.sampled_from(records))
    before = ranks(records, tiebreakers)[player.key]
    won = with_result(player, scoring, result="win")
    not_won = with_result(player, scoring, result=other)
    after = ranks([won if r.key == player.key else r for r in records], tiebreakers)[player.key]

    assert won.points >= player.points
    assert won.points >= not_won.points
    assert won.played == player.played + 1
    assert after <= before


def test_a_negative_score_for_a_win_is_the_one_way_a_win_lowers_points():
    """The campaign settings allow a win to score below zero (SCORE_MIN is -10): then a win costs points."""
    assert with_result(PlayerRecord(1), Scoring(win=-1, draw=-2, loss=-3), result="win").points == -1
