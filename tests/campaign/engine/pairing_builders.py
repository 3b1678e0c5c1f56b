"""Campaigns for the pairing tests, and brute-force answers to check the engine against."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from armies.blocs import Bloc
from campaign.engine.pairing import Fronts, Pairing, PastRound, Player, PlayerId, generate_pairing

ALLIES, AXIS, SSU = Bloc.ALLIES, Bloc.AXIS, Bloc.SSU
EVERY_FRONT: dict[tuple[Bloc, Bloc], list[str]] = {
    (att, dfn): [f"{att}>{dfn}"] for att in Bloc for dfn in Bloc if att != dfn
}


def players(allies: int = 0, axis: int = 0, ssu: int = 0, *, step: int = 100) -> list[Player]:
    """Allies are numbered from 100, Axis from 200, SSU from 300 (from ``step``, twice and thrice it)."""
    assert max(allies, axis, ssu) <= step
    return [
        Player(base * step + n, bloc)
        for base, bloc, count in ((1, ALLIES, allies), (2, AXIS, axis), (3, SSU, ssu))
        for n in range(count)
    ]


def many_players(allies: int = 0, axis: int = 0, ssu: int = 0) -> list[Player]:
    return players(allies, axis, ssu, step=10_000)


def play_rounds(roster: Sequence[Player], rounds: int, fronts: Fronts = EVERY_FRONT) -> list[PastRound]:
    """A history made by the engine itself, round after round, as a campaign would."""
    history: list[PastRound] = []
    for number in range(rounds):
        pairing = generate_pairing(roster, history, fronts, seed=number)
        history.append(as_past(pairing))
    return history


def as_past(pairing: Pairing) -> PastRound:
    return PastRound(tuple(battle.player_ids for battle in pairing.battles), pairing.bye_ids)


def random_history(roster: Sequence[Player], rounds: int, rng: random.Random) -> list[PastRound]:
    """Rounds of random cross-bloc battles (not the engine's), with random byes and a departed player."""
    history = []
    for _ in range(rounds):
        pool = [*roster, Player(-1, rng.choice(list(Bloc)))]  # a player who has left
        rng.shuffle(pool)
        battles: list[tuple[PlayerId, PlayerId]] = []
        idle: list[PlayerId] = []
        while pool:
            first = pool.pop()
            partner = next((p for p in pool if p.bloc != first.bloc and rng.random() < 0.7), None)
            if partner is None:
                idle.append(first.id)
                continue
            pool.remove(partner)
            battles.append((first.id, partner.id))
        history.append(PastRound(tuple(battles), tuple(p for p in idle if rng.random() < 0.8)))
    return history


# --- brute force ----------------------------------------------------------------------------------------


def matchings(
    ids: Sequence[PlayerId], blocs: Mapping[PlayerId, Bloc]
) -> Iterator[list[tuple[PlayerId, PlayerId]]]:
    """Every matching of the cross-bloc graph on ``ids``, of every size."""
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    yield from matchings(rest, blocs)  # ``first`` sits out
    for i, other in enumerate(rest):
        if blocs[other] != blocs[first]:
            for tail in matchings([*rest[:i], *rest[i + 1 :]], blocs):
                yield [(first, other), *tail]


@dataclass(frozen=True)
class Levels:
    """A pairing's levels; the best pairing has the fewest missing battles, then the smallest rest."""

    missing_battles: int
    bye_counts: tuple[int, ...]  # byes so far of this round's byes, largest first
    repeats: int
    repeat_rounds: int  # sum of the rounds the repeated pairs last met


class Judge:
    """Measures pairings of one round on the engine's levels."""

    def __init__(self, roster: Sequence[Player], history: Sequence[PastRound]) -> None:
        self.ids = [p.id for p in roster]
        self.blocs = {p.id: p.bloc for p in roster}
        self.byes = {p: sum(1 for past in history if p in set(past.byes)) for p in self.ids}
        self.met: dict[frozenset[PlayerId], int] = {}
        for number, past in enumerate(history, start=1):
            for a, b in past.battles:
                self.met[frozenset((a, b))] = number

    def levels(self, pairs: Sequence[tuple[PlayerId, PlayerId]]) -> Levels:
        covered = {p for pair in pairs for p in pair}
        repeated = [self.met[frozenset(pair)] for pair in pairs if frozenset(pair) in self.met]
        return Levels(
            len(self.ids) // 2 - len(pairs),
            tuple(sorted((self.byes[p] for p in self.ids if p not in covered), reverse=True)),
            len(repeated),
            sum(repeated),
        )


def largest_pairings(roster: Sequence[Player], history: Sequence[PastRound]) -> list[Levels]:
    """The levels of every pairing with the most battles."""
    judge = Judge(roster, history)
    found = [judge.levels(m) for m in matchings(judge.ids, judge.blocs)]
    fewest_missing = min(lv.missing_battles for lv in found)
    return [lv for lv in found if lv.missing_battles == fewest_missing]


def best_levels(roster: Sequence[Player], history: Sequence[PastRound]) -> Levels:
    return min(
        largest_pairings(roster, history),
        key=lambda lv: (lv.bye_counts, lv.repeats, lv.repeat_rounds),
    )


def at_least(bye_counts: Sequence[int], threshold: int) -> int:
    return sum(1 for count in bye_counts if count >= threshold)


def engine_levels(pairing: Pairing, roster: Sequence[Player], history: Sequence[PastRound]) -> Levels:
    return Judge(roster, history).levels([battle.player_ids for battle in pairing.battles])


def most_distinct_sectors(options: Sequence[Sequence[str]]) -> int:
    """The largest number of battles that can each get a sector no other battle has (augmenting paths)."""
    owner: dict[str, int] = {}

    def place(battle: int, seen: set[str]) -> bool:
        for key in options[battle]:
            if key not in seen:
                seen.add(key)
                if key not in owner or place(owner[key], seen):
                    owner[key] = battle
                    return True
        return False

    return sum(1 for battle in range(len(options)) if place(battle, set()))
