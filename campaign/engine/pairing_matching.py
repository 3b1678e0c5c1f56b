"""Who meets whom in a round: the maximum-weight matching behind ``campaign.engine.pairing``.

The matching is networkx's blossom algorithm (``max_weight_matching`` with
``maxcardinality=True``) on the graph of players of different blocs. Its
integer weights encode, in strict priority order (a level only breaks ties of
the levels above it):

1. the most battles (``maxcardinality``);
2. bye fairness, over the byes so far of the players who play (the sum is
   maximised). What it guarantees: for every ``t``, as few of this round's byes
   go to players who already had ``t`` byes or more as in any pairing with the
   most battles. So a player sits out only if no player with fewer byes could
   have sat out instead in such a pairing, and when any player can sit out (no
   bloc outnumbers the others together) nobody gets a second bye before
   everyone has had one;
3. the fewest repeat opponents;
4. then the oldest repeats: the smallest sum of the rounds the pairs last met;
5. then the seed.

Why a plain sum gives level 2's guarantee (no exponential weights): the sets of
players one matching can cover are the independent sets of a matroid (the
matching matroid), and the covers of the pairings with the most battles are
its bases. A basis ``B`` of largest weight has, for every ``t``, as many
elements of weight ``>= t`` as any independent set can (else an exchange would
raise its weight), whatever the increasing weight function; its complement,
the byes, then has as few as possible.

Levels get units ``U[k]``: with at most ``m`` battles a level's sum over a
matching lies in ``[0, R[k]]``, and ``U[k] = U[k+1] * (R[k+1] + 1)`` gives
``sum(R[j] * U[j] for j > k) < U[k]``, so no gain on lower levels outweighs one
step on a higher level, and integers leave no rounding. Levels 3 and 4 are
scored as first meetings (1 each) and ages (``rounds - round met``, or
``rounds`` for a first meeting), so every weight is non-negative.

Speed: the blossom algorithm is pure Python and cubic; the full graph of 500
players in three blocs takes over a minute, mostly adjusting duals for the many
distinct weights. Rounds with more than ``DENSE_LIMIT`` players who may play
are first matched on sparse samples whose answer is kept only with a
certificate: the most battles possible and the best bye score possible (both
have closed forms, since every cross-bloc pair is allowed, see
``best_cover``), and no repeat at all (samples hold none), hence best on levels
3 and 4 too: optimal on levels 1-4 over the full graph. The first sample sets
aside the byes ``best_cover`` names (ties by the seed's order) and links every
other player to 4 random players of each other bloc it has not met, with equal
weights: a plain maximum matching, which is fast. The second keeps every player
and the level-2 weights, with 12 candidates. Without a certificate the full
graph is matched, so levels 1-4 are always exact. On a sample, level 5 is the
seed's choice of the sample (and of the order the algorithm visits players),
not a random weight per pair: such weights are what make the blossom slow.

Players who surely sit out (a bloc that outnumbers the others together plays
only as many as they have, so those of its players with fewer byes than the
cut sit out in every pairing best on level 2) are left out of the graph.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from armies.blocs import Bloc

PlayerId = int
Pair = tuple[PlayerId, PlayerId]

DENSE_LIMIT = 100
"""Rounds with at most this many players who may play are matched on the full graph directly."""
SAMPLE_SIZES = (4, 12)
"""Candidates per player and other bloc in the first sample (byes set aside) and in the second."""
TIE_RANGE = 16
"""The seed's preference for a pair on the full graph ranges over ``0..TIE_RANGE - 1``."""


@dataclass(frozen=True)
class Player:
    id: PlayerId
    bloc: Bloc
    name: str = ""
    """How explanations name the player (``player <id>`` when empty)."""


@dataclass(frozen=True)
class PastRound:
    """An earlier round: its battles as (attacker id, defender id) and the ids of its byes."""

    battles: tuple[Pair, ...] = ()
    byes: tuple[PlayerId, ...] = ()


@dataclass
class Record:
    """A player's past as the pairing sees it."""

    byes: int = 0
    attacks: int = 0
    defences: int = 0
    last_role: str = ""  # "attack", "defence" or "" before any battle


def pair_key(a: PlayerId, b: PlayerId) -> Pair:
    return (a, b) if a < b else (b, a)


def last_met(history: Sequence[PastRound], blocs: Mapping[PlayerId, Bloc]) -> dict[Pair, int]:
    """The round number (1 = the oldest round of ``history``) in which two current players last met."""
    last: dict[Pair, int] = {}
    for number, past in enumerate(history, start=1):
        for a, b in past.battles:
            if a in blocs and b in blocs and a != b:
                last[pair_key(a, b)] = number
    return last


def records(history: Sequence[PastRound], blocs: Mapping[PlayerId, Bloc]) -> dict[PlayerId, Record]:
    found = {p: Record() for p in blocs}
    for past in history:
        for p in set(past.byes):
            if p in found:
                found[p].byes += 1
        for att, dfn in past.battles:
            if att in found:
                found[att].attacks += 1
                found[att].last_role = "attack"
            if dfn in found:
                found[dfn].defences += 1
                found[dfn].last_role = "defence"
    return found


def by_bloc(ids: Iterable[PlayerId], blocs: Mapping[PlayerId, Bloc]) -> dict[Bloc, list[PlayerId]]:
    members: dict[Bloc, list[PlayerId]] = defaultdict(list)
    for p in ids:
        members[blocs[p]].append(p)
    return dict(members)


@dataclass(frozen=True)
class Split:
    """Who may play in a pairing best on levels 1-2, who surely sits out, and the bloc that forces it."""

    playing: list[PlayerId]
    idle: set[PlayerId]
    outnumbering: Bloc | None = None
    sitting_out: int = 0


def split_idle(
    order: list[PlayerId], blocs: Mapping[PlayerId, Bloc], found: Mapping[PlayerId, Record]
) -> Split:
    members = by_bloc(order, blocs)
    if not members:
        return Split([], set())
    big = max(members, key=lambda bloc: (len(members[bloc]), bloc))
    others = len(order) - len(members[big])
    if len(members[big]) <= others:
        return Split(order, set())
    if others == 0:
        return Split([], set(order), big, len(order))
    cutoff = sorted((found[p].byes for p in members[big]), reverse=True)[others - 1]
    idle = {p for p in members[big] if found[p].byes < cutoff}
    return Split([p for p in order if p not in idle], idle, big, len(members[big]) - others)


def best_cover(
    playing: Sequence[PlayerId], blocs: Mapping[PlayerId, Bloc], score: Mapping[PlayerId, int]
) -> tuple[int, int, list[PlayerId]]:
    """The most battles and the best bye score of any pairing of ``playing`` (every cross-bloc pair
    allowed), and byes that reach both (ties by the order of ``playing``).

    A bloc larger than the others together plays only as many players as they have (its best scores) and
    they all play; otherwise everyone plays, but for one player of the lowest score when the count is odd.
    """
    members = by_bloc(playing, blocs)
    if not members:
        return 0, 0, []
    big = max(members, key=lambda bloc: len(members[bloc]))
    others = len(playing) - len(members[big])
    if len(members[big]) > others:
        sitting = sorted(members[big], key=lambda p: score[p])[: len(members[big]) - others]
    else:
        sitting = [min(playing, key=lambda p: score[p])] if len(playing) % 2 else []
    battles = (len(playing) - len(sitting)) // 2
    return battles, sum(score[p] for p in playing) - sum(score[p] for p in sitting), sitting


@dataclass(frozen=True)
class _Weights:
    """Integer edge weights with separated levels (see the module docstring)."""

    rounds: int
    score: Mapping[PlayerId, int]
    met: Mapping[Pair, int]
    ties: int
    unit_bye: int
    unit_first: int
    unit_age: int

    @classmethod
    def build(
        cls, battles: int, score: Mapping[PlayerId, int], met: Mapping[Pair, int], rounds: int, ties: int
    ) -> _Weights:
        unit_age = battles * (ties - 1) + 1  # more than all the seed's preferences together
        unit_first = unit_age * (battles * rounds + 1)  # more than all the ages together
        unit_bye = unit_first * (battles + 1)  # more than all the first meetings together
        return cls(rounds, score, met, ties, unit_bye, unit_first, unit_age)

    def __call__(self, a: PlayerId, b: PlayerId, rng: random.Random) -> int:
        when = self.met.get(pair_key(a, b))
        # A first meeting scores 1 and the full age; a repeat scores 0 and its age (0 for last round).
        first, age = (1, self.rounds) if when is None else (0, self.rounds - when)
        tie = rng.randrange(self.ties) if self.ties > 1 else 0
        return (
            self.unit_bye * (self.score[a] + self.score[b])
            + self.unit_first * first
            + self.unit_age * age
            + tie
        )


def match(
    playing: list[PlayerId],
    blocs: Mapping[PlayerId, Bloc],
    found: Mapping[PlayerId, Record],
    met: Mapping[Pair, int],
    rounds: int,
    rng: random.Random,
    dense_limit: int = DENSE_LIMIT,
) -> list[Pair]:
    """The battles of a pairing optimal on levels 1-4 (see the module docstring), each as (smaller id, larger id)."""
    floor = min((found[p].byes for p in playing), default=0)
    score = {p: found[p].byes - floor for p in playing}
    if len(playing) > dense_limit:
        most, best, sitting = best_cover(playing, blocs, score)

        def certified(pairs: list[Pair]) -> bool:
            # A sample holds no repeat, so reaching both bounds proves the answer optimal on levels 1-4.
            return len(pairs) == most and sum(score[p] for pair in pairs for p in pair) == best

        # First the byes the bounds call for (ties by the seed's order), then a perfect matching of the rest.
        aside = set(sitting)
        rest = [p for p in playing if p not in aside]
        pairs = _max_weight(_sample_graph(rest, blocs, met, SAMPLE_SIZES[0], None, rng))
        if certified(pairs):
            return pairs
        weight = _Weights.build(len(playing) // 2, score, met, rounds, ties=1)
        for size in SAMPLE_SIZES[1:]:
            pairs = _max_weight(_sample_graph(playing, blocs, met, size, weight, rng))
            if certified(pairs):
                return pairs
    weight = _Weights.build(len(playing) // 2, score, met, rounds, ties=TIE_RANGE)
    return _max_weight(_full_graph(playing, blocs, weight, rng))


def _full_graph(
    playing: list[PlayerId], blocs: Mapping[PlayerId, Bloc], weight: _Weights, rng: random.Random
) -> nx.Graph[PlayerId]:
    graph: nx.Graph[PlayerId] = nx.Graph()
    graph.add_nodes_from(playing)
    for i, a in enumerate(playing):
        for b in playing[i + 1 :]:
            if blocs[a] != blocs[b]:
                graph.add_edge(a, b, weight=weight(a, b, rng))
    return graph


def _sample_graph(
    playing: list[PlayerId],
    blocs: Mapping[PlayerId, Bloc],
    met: Mapping[Pair, int],
    size: int,
    weight: _Weights | None,
    rng: random.Random,
) -> nx.Graph[PlayerId]:
    """Every player linked to ``size`` random players of each other bloc that it has not met.

    Without ``weight`` every edge weighs 1: the matching only has to be as large as possible.
    """
    members = by_bloc(playing, blocs)
    opponents: dict[PlayerId, int] = defaultdict(int)
    for pair in met:
        for p in pair:
            opponents[p] += 1
    graph: nx.Graph[PlayerId] = nx.Graph()
    graph.add_nodes_from(playing)
    for a in playing:
        for bloc, pool in members.items():
            if bloc != blocs[a]:
                drawn = rng.sample(pool, min(len(pool), size + opponents[a]))
                for b in [b for b in drawn if pair_key(a, b) not in met][:size]:
                    if not graph.has_edge(a, b):
                        graph.add_edge(a, b, weight=1 if weight is None else weight(a, b, rng))
    return graph


def _max_weight(graph: nx.Graph[PlayerId]) -> list[Pair]:
    return sorted(pair_key(a, b) for a, b in nx.max_weight_matching(graph, maxcardinality=True))
