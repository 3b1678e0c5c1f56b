"""Pairings worked out by hand: byes, repeats, roles and sectors."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from campaign.engine.pairing import Pairing, PairingError, PastRound, Player, generate_pairing

from .pairing_builders import ALLIES, AXIS, EVERY_FRONT, SSU, play_rounds, players


def codes(pairing: Pairing) -> set[str]:
    return {e.code for e in pairing.explanations}


def battle_codes(pairing: Pairing) -> set[str]:
    return {e.code for battle in pairing.battles for e in battle.explanations}


def opponents(pairing: Pairing) -> set[frozenset[int]]:
    return {frozenset(battle.player_ids) for battle in pairing.battles}


def test_it_pairs_nobody_in_an_empty_round() -> None:
    pairing = generate_pairing([], [], EVERY_FRONT, seed=1)

    assert pairing.battles == ()
    assert pairing.byes == ()
    assert pairing.explanations == ()


def test_it_gives_every_player_a_bye_when_all_are_of_one_bloc() -> None:
    pairing = generate_pairing(players(allies=2), [], EVERY_FRONT, seed=1)

    assert pairing.battles == ()
    assert pairing.bye_ids == (100, 101)
    assert codes(pairing) == {"no-opponents"}
    assert {bye.explanation.code for bye in pairing.byes} == {"bye-no-opponent"}


def test_it_gives_the_odd_players_bye_to_one_with_the_fewest_byes() -> None:
    roster = players(allies=3, axis=2)
    # 100 and 101 have had a bye; 102 has not.
    history = [PastRound(((102, 200), (101, 201)), (100,)), PastRound(((100, 200), (102, 201)), (101,))]

    pairing = generate_pairing(roster, history, EVERY_FRONT, seed=3)

    assert len(pairing.battles) == 2
    assert pairing.bye_ids == (102,)
    assert pairing.byes[0].explanation.code == "bye"
    assert "0 byes" in pairing.byes[0].explanation.message


def test_it_sits_out_the_surplus_of_a_big_bloc_by_fewest_byes() -> None:
    roster = players(allies=6, axis=2, ssu=1)
    history = [PastRound((), (100, 101, 102))]  # these three have had a bye already

    pairing = generate_pairing(roster, history, EVERY_FRONT, seed=5)

    assert len(pairing.battles) == 3
    assert sorted(pairing.bye_ids) == [103, 104, 105]
    assert all(ALLIES in (b.attacker_bloc, b.defender_bloc) for b in pairing.battles)
    assert codes(pairing) == {"bloc-outnumbers"}


def test_it_shares_byes_so_nobody_has_a_second_before_everyone_had_one() -> None:
    roster = players(allies=2, axis=2, ssu=1)  # five players: one bye a round

    history = play_rounds(roster, 5)

    byes = Counter(p for past in history for p in past.byes)
    assert byes == Counter({p.id: 1 for p in roster})


def test_it_avoids_a_repeat_opponent_when_it_can() -> None:
    roster = players(allies=2, axis=2)
    history = [PastRound(((100, 200), (101, 201)))]

    pairing = generate_pairing(roster, history, EVERY_FRONT, seed=0)

    assert opponents(pairing) == {frozenset((100, 201)), frozenset((101, 200))}
    assert "repeat" not in battle_codes(pairing)


def test_it_repeats_the_oldest_meetings_when_repeats_are_forced() -> None:
    roster = players(allies=2, axis=2)
    history = [PastRound(((100, 200), (101, 201))), PastRound(((100, 201), (101, 200)))]

    pairing = generate_pairing(roster, history, EVERY_FRONT, seed=0)

    assert opponents(pairing) == {frozenset((100, 200)), frozenset((101, 201))}
    assert "repeats-forced" in codes(pairing)
    assert "repeat" in battle_codes(pairing)
    assert any("round 1" in e.message for b in pairing.battles for e in b.explanations)


def test_it_prefers_more_battles_to_fewer_repeats() -> None:
    roster = players(allies=1, axis=1)
    history = [PastRound(((100, 200),))]

    pairing = generate_pairing(roster, history, EVERY_FRONT, seed=0)

    assert opponents(pairing) == {frozenset((100, 200))}


def test_it_lets_the_player_who_attacked_less_attack() -> None:
    roster = players(allies=1, axis=1)
    history = [PastRound(((100, 200),)), PastRound(((100, 200),))]

    pairing = generate_pairing(roster, history, EVERY_FRONT, seed=0)

    assert pairing.battles[0].player_ids == (200, 100)
    assert "roles" in battle_codes(pairing)


def test_it_alternates_roles_over_the_rounds() -> None:
    roster = players(allies=1, axis=1)

    history = play_rounds(roster, 6)

    attackers = [past.battles[0][0] for past in history]
    assert attackers.count(100) == attackers.count(200) == 3
    assert all(a != b for a, b in pairwise(attackers))


def test_it_swaps_roles_when_only_the_defender_has_a_sector_to_attack() -> None:
    roster = players(allies=1, axis=1)
    history = [PastRound(((200, 100),))]  # Axis attacked: Allies' turn
    fronts = {(AXIS, ALLIES): ["station"]}

    pairing = generate_pairing(roster, history, fronts, seed=0)

    battle = pairing.battles[0]
    assert battle.player_ids == (200, 100)
    assert battle.sector == "station"
    assert "roles-swapped" in battle_codes(pairing)


def test_it_leaves_the_sector_empty_with_a_reason_when_two_blocs_share_no_front() -> None:
    roster = players(allies=1, ssu=1)

    pairing = generate_pairing(roster, [], {(ALLIES, AXIS): ["station"]}, seed=0)

    battle = pairing.battles[0]
    assert battle.sector is None
    assert "no front line" in battle.no_sector_reason
    assert "no-sector" in battle_codes(pairing)


def test_it_shares_sectors_only_when_there_are_more_battles_than_sectors() -> None:
    roster = players(allies=3, axis=3)
    fronts = {(ALLIES, AXIS): ["station", "zoo"], (AXIS, ALLIES): ["station", "zoo"]}

    pairing = generate_pairing(roster, [], fronts, seed=2)

    assert Counter(b.sector for b in pairing.battles) in (
        Counter(station=2, zoo=1),
        Counter(station=1, zoo=2),
    )
    assert [e.code for b in pairing.battles for e in b.explanations].count("sector-shared") == 1


@pytest.mark.parametrize("seed", range(6))
def test_it_keeps_off_the_sectors_the_rounds_other_battles_fight_over_while_others_are_free(
    seed: int,
) -> None:
    roster = players(allies=2, axis=2)
    fronts = {(ALLIES, AXIS): ["park", "station", "zoo"], (AXIS, ALLIES): ["park", "station", "zoo"]}

    pairing = generate_pairing(roster, [], fronts, seed=seed, taken={"park"})

    assert sorted(str(b.sector) for b in pairing.battles) == ["station", "zoo"]
    # With every sector of the front taken, one is shared, and its note says so.
    crowded = generate_pairing(roster, [], fronts, seed=seed, taken={"park", "station", "zoo"})
    assert [e.code for b in crowded.battles for e in b.explanations].count("sector-shared") == 2


def test_it_spreads_battles_over_distinct_sectors_when_there_are_enough() -> None:
    roster = players(allies=2, axis=1, ssu=1)
    fronts = {
        (ALLIES, AXIS): ["station"],
        (AXIS, ALLIES): ["station"],
        (ALLIES, SSU): ["station", "zoo"],
        (SSU, ALLIES): ["station", "zoo"],
    }

    pairing = generate_pairing(roster, [], fronts, seed=4)

    assert sorted(str(b.sector) for b in pairing.battles) == ["station", "zoo"]


def test_it_breaks_ties_between_equally_good_pairings_by_the_seed() -> None:
    roster = players(allies=4, axis=4, ssu=4)

    found = {frozenset(opponents(generate_pairing(roster, [], EVERY_FRONT, seed=seed))) for seed in range(8)}

    assert len(found) > 1


def test_it_refuses_a_player_listed_twice() -> None:
    with pytest.raises(PairingError) as refused:
        generate_pairing([Player(1, ALLIES), Player(1, AXIS)], [], EVERY_FRONT, seed=0)

    assert refused.value.code == "pairing-duplicate-player"
    assert refused.value.field == "players[1]"


def test_it_refuses_a_bloc_that_is_not_a_side_of_the_war() -> None:
    with pytest.raises(PairingError) as refused:
        generate_pairing([Player(1, "Mercenaries")], [], EVERY_FRONT, seed=0)  # type: ignore[arg-type]

    assert refused.value.code == "pairing-unknown-bloc"


def test_its_explanations_name_players_by_their_names_when_given() -> None:
    named = [Player(1, ALLIES, "Anya"), Player(2, AXIS, "Pavel"), Player(3, AXIS)]

    pairing = generate_pairing(named, [], EVERY_FRONT, seed=3)

    messages = [e.message for battle in pairing.battles for e in battle.explanations]
    messages += [bye.explanation.message for bye in pairing.byes]
    assert any("Anya" in message for message in messages)
    # A player without a name is still named, by id, never as an empty string.
    assert all("  " not in message and not message.startswith(" ") for message in messages)
    first_meeting = next(m for m in messages if "have not met before" in m)
    assert first_meeting in {
        "Anya and Pavel have not met before.", "Pavel and Anya have not met before.",
        "Anya and player 3 have not met before.", "Player 3 and Anya have not met before.",
    }  # fmt: skip


def test_its_explanations_name_sectors_by_their_names_and_count_in_words() -> None:
    named = [Player(1, ALLIES, "Anya"), Player(2, AXIS, "Pavel")]
    names = {key: f"The {key.title()} Quarter" for keys in EVERY_FRONT.values() for key in keys}
    history = [PastRound(((1, 2),), ())]

    pairing = generate_pairing(named, history, EVERY_FRONT, seed=3, sector_names=names)

    (battle,) = pairing.battles
    messages = [e.message for e in battle.explanations]
    sector_note = next(m for m in messages if m.startswith(names[battle.sector or ""]))
    assert "Sector " not in sector_note
    roles = next(e.message for e in battle.explanations if e.code == "roles")
    assert "1 attack," in roles or "1 defence" in roles  # one battle each so far: singular words
    assert "1 attacks" not in roles
    assert "1 defences" not in roles
    assert "seed" not in roles
