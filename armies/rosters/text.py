"""BattleScribe's and New Recruit's rosters shared as text, read into a roster (no Django, no catalogue).

The shapes read (docs/army-list-format.md, "Rosters shared as text"):

- BattleScribe: ``++ Main Bloc (Allies) [150pts] ++`` opens a force (its catalogue in brackets),
  ``+ Infantry +`` a category, ``Unit [25pts]: choice, 2x choice`` is a unit with its choices, and
  ``. Picked: choice`` (one dot a level) a selection inside the unit above it; ``++ Total: ... ++``
  and ``Created with BattleScribe`` close it.
- New Recruit: a first line ``Catalogue - Roster name - [150pts]``, ``## Force [150pts]``,
  ``### Category [25pts]``, then ``Unit [25pts]: choices`` and ``• Picked [5pts]: choices`` inside it.
- Units written one a line as ``+ Unit [25pts]`` with their selections indented under them
  (``  + Choice``), as some tools and players share them.

The stated cost of a line is its whole subtree's (BattleScribe prints it so). A selection carries
no id, so every unit is matched by name (``armies.rosters.byname``). A line with neither a cost nor
lines under it, and each choice after a colon, is read as one of its unit's choices (an upgrade).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from armies.rosters.read import DUST_GAME_SYSTEM_ID, Roster, RosterError, RosterForce, RosterSelection
from armies.validation import limits

__all__ = ["roster_from_text"]

# A cost in brackets: "[25pts]", "[25 pts]", "[1,990pts]", "[27pts, 6PL]", "[6 AP]". Its body is
# bounded, and every pattern here runs in time linear in the line (the text comes from a user).
_COST = re.compile(
    r"\[\s*(?P<value>\d{1,6}(?:,\d{3}){0,2}(?:\.\d{1,3})?)\s*(?:pts?|points?|ap)?\b[^\[\]]{0,60}\]", re.I
)
_FORCE = re.compile(r"^\+\+\s(?P<body>.+)\s\+\+$")
_TITLE = re.compile(r"^\+\+\+\s(?P<body>.+)\s\+\+\+$")
_CATEGORY = re.compile(r"^\+\s(?P<body>.+)\s\+$")
_NR_FORCE = re.compile(r"^##\s(?P<body>.+)$")
_NR_CATEGORY = re.compile(r"^###\s")
_DOTS = re.compile(r"^((?:\.\s?)+)\s*")
_BULLET = re.compile(r"^[+\-*•·]\s+")
_NUMBER = re.compile(r"^(?P<n>\d{1,4})\s?[x×]\s+", re.I)
_CATALOGUE = re.compile(r"\((?P<name>[^()]{1,80})\)\s*$")
_CREATED = ("created with battlescribe", "created with new recruit")
_MAX_CHOICES = 100  # choices after one unit's colon: a real unit has a handful


@dataclass
class _Node:
    name: str
    number: int
    stated: float | None  # the line's cost, its subtree's
    kind: str  # "" for a line, "upgrade" for a choice
    children: list[_Node] = field(default_factory=list)

    def selection(self) -> RosterSelection:
        children = tuple(child.selection() for child in self.children)
        under = sum(child.subtree_cost() for child in children)
        own = (self.stated - under) if self.stated is not None else 0.0
        kind = self.kind or ("" if self.stated is not None or self.children else "upgrade")
        return RosterSelection(
            id="", name=self.name, entry_id="", number=self.number, type=kind, cost=own, selections=children
        )


@dataclass
class _Force:
    name: str
    catalogue: str
    units: list[_Node] = field(default_factory=list)


def looks_shared(text: str) -> bool:
    """Whether a text is a roster shared as text by BattleScribe or New Recruit (or written in their
    shape), rather than a list typed one unit a line."""
    for raw in text.splitlines()[: limits.MAX_TEXT_LIST_LINES]:
        line = raw.strip()
        if line.casefold().startswith(_CREATED) or _FORCE.match(line) or _TITLE.match(line):
            return True
        if line.startswith(("## ", "+ ")) and _COST.search(line):
            return True
    return False


def roster_from_text(text: str) -> Roster | None:
    """The roster a shared text holds, or None when the text is not in one of these shapes."""
    if not looks_shared(text):
        return None
    forces: list[_Force] = []
    name = ""
    stack: list[tuple[int, _Node]] = []  # (depth, node) of the lines above, for the ones inside them
    count = 0
    first = True
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.casefold().startswith(_CREATED) or line.startswith("++ Total"):
            continue
        opening, first = first, False
        if title := _TITLE.match(line):
            name = _without_cost(title["body"])
            continue
        if (force := _FORCE.match(line)) or (force := _NR_FORCE.match(line)):
            forces.append(_force(force["body"]))
            stack = []
            continue
        if _CATEGORY.match(line) or _NR_CATEGORY.match(line):
            stack = []
            continue
        if opening and " - " in line and _COST.search(line) and not line.startswith(("+ ", ". ")):
            name = _nr_title(line)  # "Allies - Zoo run - [150pts]"
            continue
        depth, body = _depth(raw, line)
        node = _node(body, number)
        count += 1 + len(node.children)
        if count > limits.MAX_ROSTER_SELECTIONS:
            raise RosterError(
                "roster-too-many-selections",
                f"This roster has more than {limits.MAX_ROSTER_SELECTIONS:,} selections: that is far more "
                "than any game's list.",
            )
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack:
            if len(stack) >= limits.MAX_ROSTER_DEPTH:
                raise RosterError(
                    "roster-too-deep",
                    f"This roster nests selections more than {limits.MAX_ROSTER_DEPTH} deep; no Dust 1947 "
                    "entry does.",
                )
            stack[-1][1].children.append(node)
        else:
            if not forces:
                forces.append(_Force("Main Bloc", ""))
            forces[-1].units.append(node)
        stack.append((depth, node))
    forces = [force for force in forces if force.units]  # a heading with nothing under it holds nothing
    if len(forces) > limits.MAX_ROSTER_FORCES:
        raise RosterError(
            "roster-too-many-forces",
            f"This roster has {len(forces):,} forces; a list is read from at most {limits.MAX_ROSTER_FORCES}.",
        )
    if not name and forces and forces[0].catalogue:
        name = f"{forces[0].catalogue} roster"  # BattleScribe's text does not say the roster's name
    return Roster(
        name=name[: limits.NAME_MAX_LENGTH],
        game_system_id=DUST_GAME_SYSTEM_ID,
        game_system_name="Dust 1947",
        points_limit=None,
        forces=tuple(
            RosterForce(
                name=force.name,
                entry_id="",
                catalogue_id="",
                catalogue_name=force.catalogue,
                selections=tuple(unit.selection() for unit in force.units),
            )
            for force in forces
        ),
        shape="roster-text",
    )


def _depth(raw: str, line: str) -> tuple[int, str]:
    """How deep a line is (dots, a New Recruit bullet, or its indentation) and its text without them."""
    indent = len(raw.expandtabs(4)) - len(raw.expandtabs(4).lstrip())
    if dots := _DOTS.match(line):
        return 1000 * dots[1].count("."), line[dots.end() :]
    if line.startswith("• "):
        return 1000 + indent, line[2:].strip()
    bullet = _BULLET.match(line)
    return indent, line[bullet.end() :] if bullet else line


def _node(body: str, number: int) -> _Node:
    count, name, stated, rest = _parts(body)
    if not name:
        raise RosterError("roster-unreadable", f"Line {number} of this roster names nothing.")
    choices = [part.strip() for part in rest.split(",") if part.strip()] if rest else []
    node = _Node(name, count, stated, "")
    for choice in choices[:_MAX_CHOICES]:
        times, choice_name, choice_cost, _more = _parts(choice)
        if choice_name:
            node.children.append(_Node(choice_name, times, choice_cost, "upgrade"))
    return node


def _parts(text: str) -> tuple[int, str, float | None, str]:
    """ "2x Name [25pts]: a, b" -> (2, "Name", 25.0, "a, b"); the cost and the choices are optional."""
    count = 1
    if numbered := _NUMBER.match(text):
        count, text = max(int(numbered["n"]), 1), text[numbered.end() :]
    stated: float | None = None
    rest = ""
    if cost := _COST.search(text):
        stated = float(cost["value"].replace(",", ""))
        stated = stated if stated < 1e9 else None  # an absurd cost reads as none, as in a roster file
        name, rest = text[: cost.start()], text[cost.end() :].strip().removeprefix(":")
    else:
        name, _, rest = text.partition(": ")
    return count, name.strip()[: limits.NAME_MAX_LENGTH], stated, rest.strip()


def _without_cost(text: str) -> str:
    cost = _COST.search(text)
    return (text[: cost.start()] if cost else text).strip()


def _force(body: str) -> _Force:
    """ "Main Bloc (Allies) [150pts]" -> the force "Main Bloc" of the catalogue "Allies"."""
    text = _without_cost(body)
    catalogue = _CATALOGUE.search(text)
    if catalogue is None:
        return _Force(text or "Main Bloc", "")
    return _Force(text[: catalogue.start()].strip() or "Main Bloc", catalogue["name"].strip())


def _nr_title(line: str) -> str:
    """The list's name: the last part of "Catalogue - Name - [37pts]" (a catalogue's name may hold " - ")."""
    parts = [part.strip() for part in _without_cost(line).rstrip(" -").split(" - ") if part.strip()]
    return parts[-1] if parts else ""
