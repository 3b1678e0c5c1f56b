"""The dice of a battle session's forms in words, and a refused form given back as it was sent.

Before a roll, each form that takes dice by hand says how many dice its first roll wants, what for and
which faces count ("Roll 8 dice for the hit roll of Rifles, where a bloc or a target counts"): the
engine's ``first_roll``. After a refusal the page comes back with the form that was sent still filled in
(the faces typed, the table's conditions), its card and its fold open, and the refusal beside its field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from battles.session_presenters import Card, Choice, group_weapons
from core.http import Refusal
from rules.engine.battle import DiceWanted, counting, purpose_words

FACE_FIELDS = ("faces", "attacker_faces", "defender_faces")
CONDITION_FIELDS = ("cover", "height", "distance")


@dataclass
class Posted:
    """What a refused form sent: the step's JSON as the page gave it, what was typed, and the refusal."""

    step: str
    typed: dict[str, str] = field(default_factory=dict)
    refusal: str = ""
    short: DiceWanted | None = None  # the dice still wanted, when too few were typed


def posted_from(post: Mapping[str, Any], refusal: Any, most: int, short: DiceWanted | None = None) -> Posted:
    typed = {name: str(post.get(name, ""))[:most] for name in (*FACE_FIELDS, *CONDITION_FIELDS)}
    typed.update({name: str(value)[:8] for name, value in post.items() if str(name).startswith("hits-")})
    return Posted(step=str(post.get("step", ""))[:most], typed=typed, refusal=refusal, short=short)


def _weapon_names(step: dict[str, Any], state: dict[str, Any], setup: dict[str, Any]) -> dict[int, str]:
    """The lines of an attack as its dice are tagged (``weapons[i]``: the i-th weapon the step fires)."""
    if step.get("kind") != "attack":
        return {}
    arms = group_weapons(setup, str(step.get("unit", "")), state)
    uses = step.get("weapons") or []
    return {i: arms[use["index"]] for i, use in enumerate(uses) if use.get("index", len(arms)) < len(arms)}


def dice_words(
    wanted: tuple[DiceWanted, ...], step: dict[str, Any], state: dict[str, Any], setup: dict[str, Any]
) -> str:
    """What to roll before the roll, in one or two sentences ("" when the step rolls nothing now)."""
    if not wanted:
        return ""
    if step.get("kind") == "initiative":
        players = {side: str(state["sides"][side]["player"] or side) for side in ("attacker", "defender")}
        each = " and ".join(f"{roll.count} {'die' if roll.count == 1 else 'dice'} for {players[roll.side]}"
                            for roll in wanted)  # fmt: skip
        return f"Roll {each}, where a bloc counts."
    names = _weapon_names(step, state, setup)
    roll, later = wanted[0], [roll for roll in wanted[1:] if roll.purpose.endswith("] hit")]
    said = f"Roll {_dice(roll.count)} for {purpose_words(roll.purpose, names)}{counting(roll.success)}."
    if step.get("kind") == "attack":
        then = "".join(f", then {_dice(hit.count)} for {purpose_words(hit.purpose, names)}" for hit in later)
        said += f" The page then asks for the saves and the damage, in order{then}."
    elif step.get("kind") == "reactive" and len(wanted) > 1:
        rally_then = wanted[1]
        attempt = (
            f"{_dice(rally_then.count)} for {purpose_words(rally_then.purpose)}{counting(rally_then.success)}"
        )
        said = f"{said[:-1]}; once it rallies, {attempt}."
    elif step.get("kind") == "allocate":
        said += " The page then asks for the rolls that follow, in order."
    return said


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def short_words(short: DiceWanted, step: dict[str, Any], state: dict[str, Any], setup: dict[str, Any]) -> str:
    """Too few dice typed, with the weapon line named ("3 more dice are needed, for the hit roll of MG 42")."""
    more = f"{short.count} more {'die is' if short.count == 1 else 'dice are'} needed"
    return f"{more}, for {purpose_words(short.purpose, _weapon_names(step, state, setup))}{counting(short.success)}."


def _read(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def sent(posted: Posted | None, step: str) -> bool:
    """Whether the refused form sent ``step`` (the same JSON, however it was spaced or ordered)."""
    if posted is None or not posted.step or not step:
        return False
    return posted.step == step or _read(posted.step) == _read(step)


def _matches(choice: Choice, posted: Posted | None) -> bool:
    return sent(posted, choice.step) or any(sent(posted, value) for value, _name in choice.targets)


def annotate(
    forces: Mapping[str, list[Card]],
    loose: Iterable[Choice],
    wanted: Mapping[str, tuple[DiceWanted, ...]],
    state: dict[str, Any],
    setup: dict[str, Any],
    posted: Posted | None,
) -> bool:
    """Give each choice its dice in words, and the refused one what was typed (its card opened).

    Returns whether a choice took the refusal (else the page shows it at the top only)."""
    placed = False
    if posted is not None and posted.short is not None:  # too few dice: name the weapon line, top and beside
        named = short_words(posted.short, _read(posted.step) or {}, state, setup)
        posted.refusal = Refusal(named, getattr(posted.refusal, "code", "dice-too-few"))
    pairs: list[tuple[Card | None, Choice]] = [
        (card, choice) for side in forces.values() for card in side for choice in card.choices
    ]
    for card, choice in pairs + [(None, choice) for choice in loose]:
        key = choice.step or (choice.targets[0][0] if choice.targets else "")
        if key in wanted:
            choice.dice = dice_words(wanted[key], json.loads(key), state, setup)
        if _matches(choice, posted):
            assert posted is not None
            choice.typed, choice.refusal = posted.typed, posted.refusal
            choice.typed_faces = any(posted.typed.get(name) for name in FACE_FIELDS)
            if card is not None:
                card.open = True
            placed = True
    return placed
