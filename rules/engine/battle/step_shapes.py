"""The JSON types of every field of every step, checked before a step's values are read.

``steps.step_from_dict`` reads a step from whatever a phone or a client sent. Its parsers check values
(a face is BLOC, TARGET or SHIELD; a number is within its bounds), and a value test on a list or a mapping
would be a ``TypeError`` (a set holds no list), so the types come first: each field, and each item of a
list and each key of a mapping within it, has the JSON type its step takes, or the step is refused with a
sentence that names the field in words (``EngineInputError``, code ``invalid-step``, the field's path).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.engine.errors import EngineInputError
from rules.engine.state import is_whole


@dataclass(frozen=True)
class Shape:
    """A JSON type: ``text``, ``whole``, ``flag``, ``list`` (of ``item``), ``mapping`` (of ``keys``) or
    ``dice`` (the faces as typed, a text, or a list of ``item``)."""

    type: str
    item: Shape | None = None
    keys: Mapping[str, tuple[str, Shape]] | None = None  # each key's words (of "{}", the mapping) and shape
    optional: bool = False  # null is allowed
    wanted: str = ""  # what it must be, in words, where more can be said than its type
    each: str = "item"  # a list's item, in words


TEXT = Shape("text")
WHOLE = Shape("whole")
FLAG = Shape("flag")
MAYBE_TEXT = Shape("text", optional=True)
MAYBE_WHOLE = Shape("whole", optional=True)
SIDE = Shape("text", wanted="attacker or defender")
FACES = Shape(
    "dice",
    item=Shape("text", wanted="BLOC, TARGET or SHIELD"),
    optional=True,
    each="die",
    wanted="the faces as typed (such as BBT) or a list of BLOC, TARGET or SHIELD",
)
HITS = Shape("list", item=Shape("whole", wanted="a whole number of hits"), each="weapon line")

WEAPON_USE = Shape(
    "mapping",
    keys={
        "index": ("the line number of {}", WHOLE),
        "count": ("the number of models firing {}", MAYBE_WHOLE),
        "fire_salvo": ("whether {} fires a salvo", FLAG),
        "volley": ("the volley of {}", WHOLE),
    },
)
CONDITIONS = Shape(
    "mapping",
    keys={
        "cover": ("the cover in {}", FLAG),
        "smoke": ("the smoke in {}", FLAG),
        "trench": ("the trench in {}", FLAG),
        "fortification": ("the fortification in {}", MAYBE_TEXT),
        "height": ("the height in {}", TEXT),
        "distance": ("the range in {}", MAYBE_WHOLE),
        "aircraft_move": ("the aircraft's move in {}", TEXT),
    },
)

# Every field a step of any kind has, in words, with its JSON type.
FIELDS: Mapping[str, tuple[str, Shape]] = {
    "by": ("the side making the step", SIDE),
    "first": ("the side that goes first", SIDE),
    "unit": ("the unit", TEXT),
    "target": ("the target", TEXT),
    "seed": ("the seed", MAYBE_WHOLE),
    "faces": ("the faces of the dice", FACES),
    "attacker_faces": ("the attacker's dice", FACES),
    "defender_faces": ("the defender's dice", FACES),
    "actions": ("the actions", Shape("list", item=Shape("text", wanted="an action's name"), each="action")),
    "weapons": ("the weapons fired", Shape("list", item=WEAPON_USE, each="weapon")),
    "conditions": ("the attack's conditions", CONDITIONS),
    "command": ("the command", TEXT),
    "sustained": ("whether the attack is sustained", FLAG),
    "sustained_close_combat": ("whether the close combat is sustained", FLAG),
    "blocked": ("whether the pilot is blocked", FLAG),
    "objective": ("whether the objective is held", FLAG),
    "hero_hits": ("the hits the hero takes", HITS),
    "rider_hits": ("the hits each rider takes", Shape("list", item=HITS, each="rider")),
    "scenario_vp": ("the scenario's victory points", WHOLE),
}

_WANTED = {"text": "text", "whole": "a whole number", "flag": "true or false", "list": "a list",
           "mapping": "a mapping of names to values", "dice": "text or a list"}  # fmt: skip


def check_step_types(data: Mapping[str, object], names: set[str], code: str) -> None:
    """Refuse the first value among ``names`` of ``data`` whose JSON type is not its field's."""
    for name in sorted(names & set(FIELDS)):
        if name in data:
            words, shape = FIELDS[name]
            _check(data[name], shape, name, words, code)


def _check(value: object, shape: Shape, path: str, words: str, code: str) -> None:
    if value is None and shape.optional:
        return
    if not _is(value, shape.type):
        wanted = (shape.wanted or _WANTED[shape.type]) + (" or nothing" if shape.optional else "")
        sentence = f"{words} must be {wanted}, not {_found(value)}."
        raise EngineInputError(path, sentence[0].upper() + sentence[1:], code)
    if shape.type in {"list", "dice"} and shape.item is not None and not isinstance(value, str):
        assert isinstance(value, list | tuple)
        for i, item in enumerate(value):
            _check(item, shape.item, f"{path}[{i}]", f"{shape.each} {i + 1} of {words}", code)
    if shape.type == "mapping" and shape.keys is not None:
        assert isinstance(value, Mapping)
        for key, item in value.items():
            if key in shape.keys:
                key_words, key_shape = shape.keys[key]
                _check(item, key_shape, f"{path}.{key}", key_words.format(words), code)


def _is(value: object, kind: str) -> bool:
    if kind == "text":
        return isinstance(value, str)
    if kind == "whole":
        return is_whole(value)
    if kind == "flag":
        return isinstance(value, bool)
    if kind == "list":
        return isinstance(value, list | tuple)
    if kind == "dice":
        return isinstance(value, str | list | tuple)
    return isinstance(value, Mapping)


def _found(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return "something else"
