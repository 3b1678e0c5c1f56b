"""Invariants of every generated pairing, over random campaigns, checked against brute force where small."""

from __future__ import annotations

import random
from collections import Counter

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armies.blocs import Bloc
from campaign.engine.pairing import Fronts, PastRound, Player, generate_pairing

from .pairing_builders import (
    at_least,
    best_levels,
    engine_levels,
    largest_pairings,
    most_distinct_sectors,
    players,
    random_history,
)

SECTOR_POOL = ("airfield", "station", "park", "zoo", "hill", "port")


@st.composite
def campaigns(
    draw: st.DrawFn, most: int = 12, total: int = 36
) -> tuple[list[Player], list[PastRound], Fronts]:
    sizes = [draw(st.integers(0, most)) for _ in Bloc]
    while sum(sizes) > total:
        sizes[sizes.index(max(sizes))] -= 1
    roster = players(*sizes)
    history = random_history(roster, draw(st.integers(0, 6)), draw(st.randoms(use_true_random=False)))
    fronts: dict[tuple[Bloc, Bloc], list[str]] = {}
    for att in Bloc:
        for dfn in Bloc:
            if att != dfn:
                fronts[(att, dfn)] = draw(st.lists(st.sampled_from(SECTOR_POOL), max_size=3))
    return roster, history, fronts


SEEDS = st.integers(0, 2**32)


@given(campaigns(), SEEDS)
@settings(max_examples=150, deadline=None)
def test_it_pairs_everyone_once_across_blocs_with_as_many_battles_as_possible(
    campaign: tuple[list[Player], list[PastRound], Fronts], seed: int
) -> None:
    roster, history, fronts = campaign
    pairing = generate_pairing(roster, history, fronts, seed=seed)
    blocs = {p.id: p.bloc for p in roster}

    placed = Counter([p for battle in pairing.battles for p in battle.player_ids] + list(pairing.bye_ids))
    assert placed == Counter(list(blocs))  # every player once: in one battle or a bye
    for battle in pairing.battles:
        assert battle.attacker_bloc == blocs[battle.attacker_id] != blocs[battle.defender_id]
        assert battle.defender_bloc == blocs[battle.defender_id]
    # An independent maximum: networkx's plain maximum-cardinality matching of the cross-bloc graph.
    graph: nx.Graph[int] = nx.Graph()
    graph.add_edges_from((a, b) for a in blocs for b in blocs if a < b and blocs[a] != blocs[b])
    assert len(pairing.battles) == len(nx.max_weight_matching(graph, maxcardinality=True))


@given(campaigns(most=4, total=10), SEEDS)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_it_gives_byes_fairly_and_as_few_and_old_repeats_as_brute_force(
    campaign: tuple[list[Player], list[PastRound], Fronts], seed: int
) -> None:
    roster, history, fronts = campaign
    pairing = generate_pairing(roster, history, fronts, seed=seed)
    ours = engine_levels(pairing, roster, history)
    largest = largest_pairings(roster, history)
    best = best_levels(roster, history)

    assert ours.missing_battles == largest[0].missing_battles
    # Fairness, for every threshold: as few of this round's byes go to players who already had that many
    # byes as in any pairing with the most battles. So no player sits out while one with fewer byes could
    # have sat out instead.
    for threshold in range(1, len(history) + 1):
        fewest = min(at_least(lv.bye_counts, threshold) for lv in largest)
        assert at_least(ours.bye_counts, threshold) == fewest
    assert ours == best  # then the fewest repeats, then the oldest


@given(campaigns(), SEEDS)
@settings(max_examples=150, deadline=None)
def test_it_gives_attackable_sectors_shared_only_when_needed(
    campaign: tuple[list[Player], list[PastRound], Fronts], seed: int
) -> None:
    roster, history, fronts = campaign
    pairing = generate_pairing(roster, history, fronts, seed=seed)

    uses = Counter(battle.sector for battle in pairing.battles if battle.sector is not None)
    options = []
    for battle in pairing.battles:
        attackable = fronts.get((battle.attacker_bloc, battle.defender_bloc), [])
        reverse = fronts.get((battle.defender_bloc, battle.attacker_bloc), [])
        options.append(list(dict.fromkeys(attackable)))
        if battle.sector is None:
            assert not attackable, "a battle is left without a sector only when neither side has one"
            assert not reverse
            assert battle.no_sector_reason
        else:
            assert battle.sector in attackable
            assert not battle.no_sector_reason
        if "sector-shared" in {e.code for e in battle.explanations}:
            # Shared only when every sector it could attack is fought over by another battle too.
            assert all(uses[key] - (key == battle.sector) >= 1 for key in attackable)
    assert len(uses) == most_distinct_sectors(options)


@given(campaigns(), SEEDS)
@settings(max_examples=150, deadline=None)
def test_it_lets_the_player_who_attacked_less_attack_unless_only_the_other_side_has_a_sector(
    campaign: tuple[list[Player], list[PastRound], Fronts], seed: int
) -> None:
    roster, history, fronts = campaign
    pairing = generate_pairing(roster, history, fronts, seed=seed)
    balance: Counter[int] = Counter()
    for past in history:
        for att, dfn in past.battles:
            balance[att] += 1
            balance[dfn] -= 1

    for battle in pairing.battles:
        if balance[battle.attacker_id] > balance[battle.defender_id]:
            assert not fronts.get((battle.defender_bloc, battle.attacker_bloc))
            assert fronts.get((battle.attacker_bloc, battle.defender_bloc))
            assert "roles-swapped" in {e.code for e in battle.explanations}


@given(campaigns(), SEEDS)
@settings(max_examples=60, deadline=None)
def test_it_gives_the_same_pairing_for_the_same_seed(
    campaign: tuple[list[Player], list[PastRound], Fronts], seed: int
) -> None:
    roster, history, fronts = campaign
    first = generate_pairing(roster, history, fronts, seed=seed)
    shuffled = list(roster)
    random.Random(seed).shuffle(shuffled)
    again = generate_pairing(shuffled, history, dict(reversed(list(fronts.items()))), seed=seed)

    assert again == first
    assert again.explanations == first.explanations
