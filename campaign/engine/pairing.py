"""The pairings of a campaign round: who fights whom, who attacks, over which sector.

Plain Python (networkx, no Django), deterministic for a given seed. The
organiser generates a pairing, may edit it (``swap_players``, ``set_sector``)
and publishes it; the Django layer stores it.

Who meets whom: a maximum-weight matching whose weights put, in strict order,
the most battles, fair byes, the fewest then oldest repeat opponents, then the
seed (``campaign.engine.pairing_matching`` documents the weights and what is
guaranteed).

Roles: the player with the lower balance (attacks minus defences) attacks; on
a tie, the one who did not attack in their latest battle (one who defended
before one who never played), else the seed. So a player's roles alternate and
the attacker's balance is never above the defender's, except when the
attacker's bloc has no sector to attack on the defender's front but the reverse
has: then the roles are swapped.

Sectors: a battle gets a sector its attacker's bloc can attack on the
defender's front (``fronts[(attacker bloc, defender bloc)]``). Sectors may be
shared, since a big campaign has more battles than its map has sectors, but only
when needed: first a maximum bipartite matching of battles to sectors (one
battle per sector), so the round uses as many distinct sectors as any
assignment could; a battle left out of it has every sector it could attack
already taken (else the matching would grow), and goes to the least used one.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar

import networkx as nx

from armies.blocs import Bloc
from campaign.engine import pairing_matching as matching
from campaign.engine.pairing_matching import DENSE_LIMIT, Pair, PastRound, Player, PlayerId, Record, pair_key
from core.errors import DomainError

__all__ = [
    "Battle",
    "Bye",
    "Explanation",
    "Fronts",
    "Pairing",
    "PairingContext",
    "PairingError",
    "PastRound",
    "Player",
    "PlayerId",
    "SectorKey",
    "generate_pairing",
    "pairing_context",
    "set_sector",
    "swap_players",
]

SectorKey = str
Fronts = Mapping[tuple[Bloc, Bloc], Sequence[SectorKey]]


class PairingError(DomainError):
    """A pairing input or edit the engine refuses (``pairing-same-bloc``, ``pairing-sector-not-attackable``...)."""

    default_code: ClassVar[str] = "pairing-invalid"


@dataclass(frozen=True)
class Explanation:
    """Why the engine (or the organiser) decided something: ``code`` is stable, ``message`` is for people."""

    code: str
    message: str


@dataclass(frozen=True)
class Battle:
    attacker_id: PlayerId
    defender_id: PlayerId
    attacker_bloc: Bloc
    defender_bloc: Bloc
    sector: SectorKey | None
    no_sector_reason: str
    """Why ``sector`` is None; empty when a sector is set."""
    explanations: tuple[Explanation, ...]

    @property
    def player_ids(self) -> Pair:
        return (self.attacker_id, self.defender_id)


@dataclass(frozen=True)
class Bye:
    player_id: PlayerId
    bloc: Bloc
    explanation: Explanation


@dataclass(frozen=True)
class PairingContext:
    """What the organiser's edits need to check themselves: the blocs, the fronts, who met when."""

    blocs: Mapping[PlayerId, Bloc]
    fronts: Mapping[tuple[Bloc, Bloc], tuple[SectorKey, ...]]
    last_met: Mapping[Pair, int]
    """Keyed by (smaller id, larger id): the round (1 = the oldest of the history) two players last met."""
    names: Mapping[PlayerId, str] = field(default_factory=dict)
    sector_names: Mapping[SectorKey, str] = field(default_factory=dict)

    def who(self, player: PlayerId) -> str:
        """The player as explanations name them: their name, else ``player <id>``."""
        return self.names.get(player) or f"player {player}"

    def where(self, sector: SectorKey) -> str:
        """The sector as explanations name it: its name, else its key."""
        return self.sector_names.get(sector) or sector

    def both(self, a: PlayerId, b: PlayerId) -> str:
        return f"{_capital(self.who(a))} and {self.who(b)}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _count(number: int, thing: str) -> str:
    """``1 attack``, ``2 attacks``."""
    return f"{number} {thing}{'' if number == 1 else 's'}"


@dataclass(frozen=True)
class Pairing:
    battles: tuple[Battle, ...]
    byes: tuple[Bye, ...]
    explanations: tuple[Explanation, ...]
    """About the round as a whole: why some must sit out, forced repeats."""
    context: PairingContext = field(repr=False, compare=False)

    @property
    def bye_ids(self) -> tuple[PlayerId, ...]:
        return tuple(bye.player_id for bye in self.byes)


def generate_pairing(
    players: Sequence[Player],
    history: Sequence[PastRound],
    fronts: Fronts,
    *,
    seed: int,
    dense_limit: int = DENSE_LIMIT,
    sector_names: Mapping[SectorKey, str] | None = None,
    taken: Collection[SectorKey] = (),
) -> Pairing:
    """Pair a round; ``history`` is oldest first, ``fronts`` maps (attacker, defender) blocs to sector keys.

    ``dense_limit``: rounds with more players who may play are first matched on a certified sample.
    ``sector_names``: how the explanations name the sectors (else by their keys).
    ``taken``: the sectors the round's other battles (a challenge accepted, a battle scheduled) already
    fight over: shared only as the pairing's own sectors are, when every other is taken.
    """
    context = pairing_context(players, history, fronts, sector_names=sector_names)
    blocs = dict(context.blocs)
    records = matching.records(history, blocs)
    rng = random.Random(seed)  # noqa: S311 - reproducible pairings, not secrets
    order = sorted(blocs)
    rng.shuffle(order)

    split = matching.split_idle(order, blocs, records)
    pairs = matching.match(split.playing, blocs, records, context.last_met, len(history), rng, dense_limit)
    notes = _round_notes(split, len(order), sum(1 for pair in pairs if pair in context.last_met))
    oriented = [_orient(a, b, records, context, rng) for a, b in pairs]
    sectors = _assign_sectors([(att, dfn) for att, dfn, _ in oriented], context, rng, frozenset(taken))
    battles = tuple(
        Battle(
            att,
            dfn,
            blocs[att],
            blocs[dfn],
            sector,
            reason,
            (_meeting_note(att, dfn, context, True), role, note),
        )
        for (att, dfn, role), (sector, reason, note) in zip(oriented, sectors, strict=True)
    )
    covered = {p for pair in pairs for p in pair}
    byes = tuple(
        Bye(p, blocs[p], _bye_note(p, records[p].byes, split, context))
        for p in sorted(blocs, key=lambda p: (blocs[p], p))
        if p not in covered
    )
    return Pairing(battles, byes, notes, context)


def pairing_context(
    players: Sequence[Player],
    history: Sequence[PastRound],
    fronts: Fronts,
    *,
    sector_names: Mapping[SectorKey, str] | None = None,
) -> PairingContext:
    """The context edits check against, for a pairing stored and read back (not just generated)."""
    blocs = _blocs_of(players)
    return PairingContext(
        blocs, _normalise_fronts(fronts), matching.last_met(history, blocs), _names_of(players),
        dict(sector_names or {}),
    )  # fmt: skip


def swap_players(pairing: Pairing, a: PlayerId, b: PlayerId) -> Pairing:
    """Exchange the places of two players (in battles or byes); two players of one battle swap roles."""
    ctx = pairing.context
    for field_name, player in (("a", a), ("b", b)):
        if player not in ctx.blocs:
            raise PairingError(
                "pairing-unknown-player", f"{_capital(ctx.who(player))} is not in this round.", field_name
            )
    if a == b:
        raise PairingError("pairing-same-player", "Choose two different players to swap.", "b")
    swap = {a: b, b: a}
    battles = list(pairing.battles)
    uses = _sector_uses(battles)
    for index, battle in enumerate(pairing.battles):
        if a not in battle.player_ids and b not in battle.player_ids:
            continue
        att, dfn = (swap.get(p, p) for p in battle.player_ids)
        if ctx.blocs[att] == ctx.blocs[dfn]:
            raise PairingError(
                "pairing-same-bloc",
                f"{ctx.both(att, dfn)} are both {ctx.blocs[att]}: a battle needs two blocs.",
                f"battles[{index}]",
            )
        if battle.sector is not None:
            uses[battle.sector] -= 1
        sector, reason, sector_note = _sector_after_edit(
            battle.sector, ctx.blocs[att], ctx.blocs[dfn], ctx, uses
        )
        if sector is not None:
            uses[sector] += 1
        note = Explanation("organiser-swap", f"{ctx.both(a, b)} swapped by the organiser.")
        notes = (_meeting_note(att, dfn, ctx, False), note, sector_note)
        battles[index] = Battle(att, dfn, ctx.blocs[att], ctx.blocs[dfn], sector, reason, notes)
    byes = tuple(_swapped_bye(bye, swap, ctx) for bye in pairing.byes)
    return replace(pairing, battles=tuple(battles), byes=byes)


def _swapped_bye(bye: Bye, swap: Mapping[PlayerId, PlayerId], ctx: PairingContext) -> Bye:
    if bye.player_id not in swap:
        return bye
    player = swap[bye.player_id]
    note = Explanation(
        "organiser-swap",
        f"{_capital(ctx.who(player))} sits out: swapped with {ctx.who(bye.player_id)} by the organiser.",
    )
    return Bye(player, ctx.blocs[player], note)


def set_sector(pairing: Pairing, battle: int, sector: SectorKey | None) -> Pairing:
    """Fight ``battles[battle]`` over ``sector`` (None: no sector), if its attacker's bloc can attack it."""
    if not 0 <= battle < len(pairing.battles):
        raise PairingError("pairing-unknown-battle", f"This round has no battle {battle}.", "battle")
    current = pairing.battles[battle]
    if sector is None:
        note = Explanation("organiser-sector", "No sector: cleared by the organiser.")
        updated = replace(current, sector=None, no_sector_reason="cleared by the organiser")
    else:
        options = pairing.context.fronts.get((current.attacker_bloc, current.defender_bloc), ())
        if sector not in options:
            raise PairingError(
                "pairing-sector-not-attackable",
                f"{current.attacker_bloc} cannot attack {pairing.context.where(sector)} "
                f"on the {current.defender_bloc} front.",
                f"battles[{battle}].sector",
            )
        note = Explanation("organiser-sector", f"{pairing.context.where(sector)} chosen by the organiser.")
        updated = replace(current, sector=sector, no_sector_reason="")
    kept = tuple(
        e for e in current.explanations if not e.code.startswith(("sector", "no-sector", "organiser-sector"))
    )
    battles = list(pairing.battles)
    battles[battle] = replace(updated, explanations=(*kept, note))
    return replace(pairing, battles=tuple(battles))


# --- inputs ---------------------------------------------------------------------------------------------


def _names_of(players: Sequence[Player]) -> dict[PlayerId, str]:
    return {player.id: player.name for player in players if player.name}


def _blocs_of(players: Sequence[Player]) -> dict[PlayerId, Bloc]:
    blocs: dict[PlayerId, Bloc] = {}
    for index, player in enumerate(players):
        if player.id in blocs:
            raise PairingError(
                "pairing-duplicate-player", f"Player {player.id} is listed twice.", f"players[{index}]"
            )
        if player.bloc not in _BLOCS:
            raise PairingError(
                "pairing-unknown-bloc", f"{player.bloc} is not a bloc of the war.", f"players[{index}].bloc"
            )
        blocs[player.id] = Bloc(player.bloc)
    return blocs


_BLOCS = frozenset(bloc.value for bloc in Bloc)


def _normalise_fronts(fronts: Fronts) -> dict[tuple[Bloc, Bloc], tuple[SectorKey, ...]]:
    for att, dfn in fronts:
        for bloc in (att, dfn):
            if bloc not in _BLOCS:
                raise PairingError("pairing-unknown-bloc", f"{bloc} is not a bloc of the war.", "fronts")
    return {
        (Bloc(att), Bloc(dfn)): tuple(dict.fromkeys(keys))
        for (att, dfn), keys in fronts.items()
        if att != dfn and keys
    }


# --- roles and sectors ----------------------------------------------------------------------------------


_TURN = {"defence": 0, "": 1, "attack": 2}


def _orient(
    a: PlayerId, b: PlayerId, records: Mapping[PlayerId, Record], context: PairingContext, rng: random.Random
) -> tuple[PlayerId, PlayerId, Explanation]:
    """Attacker, defender and why: the lower balance attacks, then who did not attack last, then the seed."""
    blocs = context.blocs
    ra, rb = records[a], records[b]
    # Alternate: a player who defended in their latest battle attacks before one who never played,
    # who attacks before one who attacked last.
    balance_a, balance_b = ra.attacks - ra.defences, rb.attacks - rb.defences
    turn_a, turn_b = _TURN[ra.last_role], _TURN[rb.last_role]
    if balance_a != balance_b:
        att, dfn = (a, b) if balance_a < balance_b else (b, a)
        why = "the lower balance of attacks minus defences"
    elif turn_a != turn_b:
        att, dfn = (a, b) if turn_a < turn_b else (b, a)
        why = "the same balance, and not the attacker of their latest battle"
    else:
        att, dfn = (a, b) if rng.random() < 0.5 else (b, a)
        why = "the same balance and latest role: drawn by lot"
    ratt, rdfn = records[att], records[dfn]
    note = Explanation(
        "roles",
        f"{_capital(context.who(att))} attacks, {why} ({_count(ratt.attacks, 'attack')}, "
        f"{_count(ratt.defences, 'defence')} so far; {context.who(dfn)}: {_count(rdfn.attacks, 'attack')}, "
        f"{_count(rdfn.defences, 'defence')}).",
    )
    if (blocs[att], blocs[dfn]) not in context.fronts and (blocs[dfn], blocs[att]) in context.fronts:
        note = Explanation(
            "roles-swapped",
            f"{_capital(context.who(dfn))} attacks: {blocs[att]} has no sector to attack on the {blocs[dfn]} front, "
            f"{blocs[dfn]} has.",
        )
        att, dfn = dfn, att
    return att, dfn, note


def _assign_sectors(
    battles: Sequence[tuple[PlayerId, PlayerId]],
    context: PairingContext,
    rng: random.Random,
    taken: frozenset[SectorKey] = frozenset(),
) -> list[tuple[SectorKey | None, str, Explanation]]:
    """A sector per battle: a maximum bipartite matching first, then the least used ones (module docstring)."""
    blocs, fronts = context.blocs, context.fronts
    options = [fronts.get((blocs[att], blocs[dfn]), ()) for att, dfn in battles]
    keys = sorted({key for found in options for key in found})
    rng.shuffle(keys)
    rank = {key: len(battles) + i for i, key in enumerate(keys)}  # int nodes keep networkx's sets ordered
    graph: nx.Graph[int] = nx.Graph()
    open_battles = [i for i, found in enumerate(options) if found]
    graph.add_nodes_from(open_battles)
    graph.add_edges_from((i, rank[key]) for i in open_battles for key in options[i] if key not in taken)
    first = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=open_battles) if open_battles else {}
    chosen = {i: keys[first[i] - len(battles)] for i in range(len(battles)) if i in first}
    uses = dict.fromkeys(keys, 0) | dict.fromkeys(taken & set(keys), 1) | dict.fromkeys(chosen.values(), 1)
    shared: set[int] = set()
    for i in open_battles:
        if i not in chosen:
            # Every option is taken (the first matching is maximum): spread over the least used.
            chosen[i] = min(options[i], key=lambda key: (uses[key], rank[key]))
            uses[chosen[i]] += 1
            shared.add(i)
    result: list[tuple[SectorKey | None, str, Explanation]] = []
    for i, (att, dfn) in enumerate(battles):
        front = f"the {blocs[att]} attack on the {blocs[dfn]} front"
        if i not in chosen:
            reason = f"{blocs[att]} and {blocs[dfn]} share no front line"
            result.append((None, reason, Explanation("no-sector", f"No sector: {reason}.")))
        elif i not in shared:
            result.append((chosen[i], "", Explanation("sector", f"{context.where(chosen[i])}: {front}.")))
        else:
            key = chosen[i]
            note = f"{context.where(key)}, shared: every sector open to {front} is already fought over this round."
            result.append((key, "", Explanation("sector-shared", note)))
    return result


def _sector_uses(battles: Iterable[Battle]) -> dict[SectorKey, int]:
    uses: dict[SectorKey, int] = defaultdict(int)
    for battle in battles:
        if battle.sector is not None:
            uses[battle.sector] += 1
    return uses


def _sector_after_edit(
    sector: SectorKey | None, att: Bloc, dfn: Bloc, ctx: PairingContext, uses: Mapping[SectorKey, int]
) -> tuple[SectorKey | None, str, Explanation]:
    """Keep the sector if the new attacker can still attack it, else the least used one it can."""
    options = ctx.fronts.get((att, dfn), ())
    if sector in options:
        return sector, "", Explanation("sector", f"{ctx.where(sector)} kept.")
    if not options:
        reason = f"{att} has no sector to attack on the {dfn} front"
        return None, reason, Explanation("no-sector", f"No sector: {reason}.")
    best = min(options, key=lambda key: uses.get(key, 0))
    return (
        best,
        "",
        Explanation(
            "sector", f"{ctx.where(best)}: the least used sector {att} can attack on the {dfn} front."
        ),
    )


# --- explanations ---------------------------------------------------------------------------------------


def _round_notes(split: matching.Split, players: int, repeats: int) -> tuple[Explanation, ...]:
    notes = []
    if split.outnumbering is not None and not split.playing:
        notes.append(Explanation("no-opponents", f"Every player is {split.outnumbering}: nobody to fight."))
    elif split.outnumbering is not None:
        notes.append(
            Explanation(
                "bloc-outnumbers",
                f"{split.outnumbering} has more players than the other blocs together: "
                f"{split.sitting_out} of its players sit out, those with the fewest byes so far.",
            )
        )
    elif players % 2:
        notes.append(Explanation("odd-players", "The number of players is odd: one sits out."))
    if repeats:
        notes.append(
            Explanation(
                "repeats-forced",
                f"{_count(repeats, 'repeat opponent')}: no fair pairing with as many battles has fewer.",
            )
        )
    return tuple(notes)


def _meeting_note(a: PlayerId, b: PlayerId, ctx: PairingContext, by_engine: bool) -> Explanation:
    met = ctx.last_met.get(pair_key(a, b))
    if met is None:
        return Explanation("first-meeting", f"{ctx.both(a, b)} have not met before.")
    if by_engine:
        return Explanation(
            "repeat",
            f"{ctx.both(a, b)} met in round {met}: no fair pairing with as many battles "
            "has fewer repeats, or older ones.",
        )
    return Explanation("repeat", f"{ctx.both(a, b)} met in round {met}; paired again by the organiser.")


def _bye_note(p: PlayerId, byes: int, split: matching.Split, ctx: PairingContext) -> Explanation:
    who = _capital(ctx.who(p))
    if split.outnumbering is not None and not split.playing:
        why = f"every player of this round is {split.outnumbering}"
        return Explanation("bye-no-opponent", f"{who} sits out: {why}.")
    if p in split.idle:
        why = f"{split.outnumbering} outnumbers the other blocs and its players who play have had more byes"
    else:
        why = "nobody with fewer byes could have sat out instead in a pairing with as many battles"
    return Explanation("bye", f"{who} sits out ({_count(byes, 'bye')} before this round): {why}.")
