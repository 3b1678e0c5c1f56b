"""Reading a BattleScribe or New Recruit roster into a plain tree (no Django, no catalogue).

Three shapes hold the same roster: a ``.ros`` file (XML), a ``.rosz`` file (a zip holding one
``.ros``, told by its first bytes, never by its name) and a New Recruit JSON export (the same tree
under ``{"roster": ...}``, each element list as an array, text as ``$text``). Whatever the shape,
the reader keeps only what a list needs: the game system, the name, the points limit (the
``costLimits`` entry of type ``points``) and each force with its selections, nested as the roster
nests them. The bounds of ``armies.validation.limits`` (size, selections, depth, forces) are
checked while reading, so no roster holds the process; XML goes through the catalogue import's
reader, which refuses DTDs and entities.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from xml.etree import ElementTree as ET

from armies.importers.bsxml import ZIP_MAGIC, XmlRefusedError, local, safe_xml
from armies.validation import limits
from armies.validation.listformat import ListFormatError
from core.errors import DomainError, FieldProblem

# The Dust 1947 game system of the BattleScribe data, and the cost type its entries are priced in.
DUST_GAME_SYSTEM_ID = "bacf-9ebb-dbda-57d0"
POINTS_COST_TYPE = "points"
EMPTY_ZIP_MAGIC = b"PK\x05\x06"
# A zip member's flag bit for encryption: zipfile then asks for a password (a RuntimeError).
_ENCRYPTED = 0x1

__all__ = [
    "DUST_GAME_SYSTEM_ID",
    "Roster",
    "RosterError",
    "RosterForce",
    "RosterSelection",
    "roster_from_bytes",
    "roster_from_new_recruit",
]


class RosterError(ListFormatError):
    """A roster the site cannot read: the sentence says why, the code says which refusal.
    ``sentences`` are the faults one by one when there are several (each unit the catalogue lacks)."""

    def __init__(self, code: str, reason: str, path: str = "$", sentences: Sequence[str] = ()) -> None:
        problems = [FieldProblem(path, code, sentence) for sentence in sentences]
        DomainError.__init__(self, code, reason, path, problems=problems)


@dataclass(frozen=True)
class RosterSelection:
    id: str
    name: str
    entry_id: str
    number: int
    type: str
    cost: float  # the roster's own stated points for this selection, its children not included
    selections: tuple[RosterSelection, ...]
    notes: str = ""  # the selection's customNotes (our export says there what a roster cannot)

    @property
    def catalogue_entry_id(self) -> str:
        """The catalogue entry's id: the last ``::`` segment of ``entryId`` (links put theirs before)."""
        return self.entry_id.rsplit("::", 1)[-1]

    def subtree_cost(self) -> float:
        return self.cost + sum(child.subtree_cost() for child in self.selections)


@dataclass(frozen=True)
class RosterForce:
    name: str
    entry_id: str
    catalogue_id: str
    catalogue_name: str
    selections: tuple[RosterSelection, ...]


@dataclass(frozen=True)
class Roster:
    name: str
    game_system_id: str
    game_system_name: str
    points_limit: int | None
    forces: tuple[RosterForce, ...]
    shape: str  # "ros", "rosz" or "new-recruit"
    notes: str = ""  # the roster's customNotes


class _Node(Protocol):
    def attr(self, name: str) -> str: ...
    def text(self, tag: str) -> str: ...
    def children(self, container: str, tag: str) -> list[_Node]: ...


class _XmlNode:
    def __init__(self, element: ET.Element) -> None:
        self.element = element

    def attr(self, name: str) -> str:
        return (self.element.get(name) or "").strip()

    def text(self, tag: str) -> str:
        found = next((child for child in self.element if local(child.tag) == tag), None)
        return (found.text or "").strip() if found is not None else ""

    def children(self, container: str, tag: str) -> list[_Node]:
        found: list[_Node] = []
        for holder in self.element:
            if local(holder.tag) == container:
                found.extend(_XmlNode(child) for child in holder if local(child.tag) == tag)
        return found


class _JsonNode:
    """An element of a New Recruit export: attributes are keys, child lists arrays.

    Some converters keep the XML's wrapper (``"forces": {"force": [...]}``) and write a lone child
    as an object rather than an array of one; both are read.
    """

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data

    def attr(self, name: str) -> str:
        value = self.data.get(name)
        if isinstance(value, Mapping):
            value = value.get("$text")
        if isinstance(value, bool) or value is None:
            return ""
        return str(value).strip() if isinstance(value, str | int | float) else ""

    def text(self, tag: str) -> str:
        return self.attr(tag)

    def children(self, container: str, tag: str) -> list[_Node]:
        value = self.data.get(container)
        if isinstance(value, Mapping):
            value = value.get(tag, [])
        if isinstance(value, Mapping):
            value = [value]
        if not isinstance(value, list):
            return []
        return [_JsonNode(item) for item in value if isinstance(item, Mapping)]


class _Budget:
    def __init__(self) -> None:
        self.selections = 0

    def spend(self) -> None:
        self.selections += 1
        if self.selections > limits.MAX_ROSTER_SELECTIONS:
            raise RosterError(
                "roster-too-many-selections",
                f"This roster has more than {limits.MAX_ROSTER_SELECTIONS:,} selections: "
                "that is far more than any game's list.",
            )


def is_zip(data: bytes) -> bool:
    """A zip's first bytes: a file's header, or the end of an empty archive's directory."""
    return data.startswith((ZIP_MAGIC, EMPTY_ZIP_MAGIC))


def roster_from_bytes(data: bytes) -> Roster:
    """A ``.ros`` or ``.rosz`` file's bytes (a zip is told by its first bytes)."""
    shape = "ros"
    check_roster_size(len(data))
    if is_zip(data):
        data, shape = _unzip(data), "rosz"
    try:
        root = safe_xml(data)
    except XmlRefusedError as error:
        if "no element found" in str(error) or "unclosed token" in str(error):
            raise RosterError(
                "roster-truncated",
                "This roster file stops before its end (it was cut short while saving or copying): "
                "save it again from BattleScribe.",
            ) from error
        if isinstance(error.__cause__, ET.ParseError):  # the parser's own words are no sentence
            line = error.__cause__.position[0]
            raise RosterError(
                "roster-unreadable", f"This is not a BattleScribe roster: its XML is broken at line {line}."
            ) from error
        raise RosterError("roster-unreadable", f"This roster cannot be read: {error}.") from error
    if local(root.tag) != "roster":
        raise RosterError(
            "roster-not-roster",
            f"This XML file is a <{local(root.tag)}>, not a BattleScribe roster (a .ros or .rosz file).",
        )
    return _roster(_XmlNode(root), shape)


def roster_from_new_recruit(data: Mapping[str, Any]) -> Roster:
    """A New Recruit JSON export, already parsed: ``{"roster": {...}}``."""
    inner = data.get("roster")
    if not isinstance(inner, Mapping):
        raise RosterError("roster-not-roster", 'This is not a New Recruit export: "roster" is not an object.')
    return _roster(_JsonNode(inner), "new-recruit")


def check_roster_size(size: int) -> None:
    if size > limits.MAX_ROSTER_BYTES:
        raise RosterError(
            "roster-too-large",
            f"This roster is larger than {limits.MAX_ROSTER_BYTES // 1024:,} kB; a game's roster is much "
            "smaller.",
        )


def _unzip(data: bytes) -> bytes:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [info for info in archive.infolist() if not info.is_dir()]
            if len(members) != 1:
                count = "no file" if not members else f"{len(members)} files"
                raise RosterError(
                    "roster-zip-files",
                    f"This zipped roster holds {count}; a .rosz file holds exactly one roster.",
                )
            check_roster_size(members[0].file_size)
            if members[0].flag_bits & _ENCRYPTED:
                raise RosterError(
                    "roster-encrypted",
                    "This zipped roster is locked with a password: save it again from BattleScribe "
                    "without one.",
                )
            with archive.open(members[0]) as handle:
                # One byte past the bound: the size in the zip's header can lie.
                content = handle.read(limits.MAX_ROSTER_BYTES + 1)
    except (
        zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError, ValueError, RuntimeError,
    ) as error:  # fmt: skip
        if isinstance(error, RosterError):
            raise
        raise RosterError(
            "roster-truncated",
            "This zipped roster is damaged or cut short: save it again from BattleScribe.",
        ) from error
    check_roster_size(len(content))
    return content


def _roster(root: _Node, shape: str) -> Roster:
    game_system_id = root.attr("gameSystemId")
    if game_system_id != DUST_GAME_SYSTEM_ID:
        named = root.attr("gameSystemName") or "another game"
        raise RosterError(
            "roster-game-system",
            f"This roster is for {limits.excerpt(named)}, not Dust 1947: only Dust 1947 rosters can be "
            "read here.",
        )
    forces = root.children("forces", "force")
    if len(forces) > limits.MAX_ROSTER_FORCES:
        raise RosterError(
            "roster-too-many-forces",
            f"This roster has {len(forces):,} forces; a list is read from at most "
            f"{limits.MAX_ROSTER_FORCES}.",
        )
    budget = _Budget()
    return Roster(
        name=root.attr("name"),
        game_system_id=game_system_id,
        game_system_name=root.attr("gameSystemName"),
        points_limit=_points_limit(root),
        forces=tuple(_force(force, budget) for force in forces),
        shape=shape,
        notes=root.text("customNotes")[: limits.MAX_ROSTER_NOTES_LENGTH],
    )


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        return 0.0
    return value if value == value and abs(value) < 1e9 else 0.0  # NaN and absurd values read as none


def _points_limit(root: _Node) -> int | None:
    for limit in root.children("costLimits", "costLimit"):
        if limit.attr("typeId") == POINTS_COST_TYPE:
            value = int(_number(limit.attr("value")))
            return value if value > 0 else None
    return None


def _force(node: _Node, budget: _Budget) -> RosterForce:
    return RosterForce(
        name=node.attr("name"),
        entry_id=node.attr("entryId"),
        catalogue_id=node.attr("catalogueId"),
        catalogue_name=node.attr("catalogueName"),
        selections=tuple(_selections(node, budget, depth=1)),
    )


def _selections(node: _Node, budget: _Budget, *, depth: int) -> Iterator[RosterSelection]:
    children = node.children("selections", "selection")
    if children and depth > limits.MAX_ROSTER_DEPTH:
        raise RosterError(
            "roster-too-deep",
            f"This roster nests selections more than {limits.MAX_ROSTER_DEPTH} deep; no Dust 1947 entry "
            "does.",
        )
    for child in children:
        budget.spend()
        number = int(_number(child.attr("number") or "1"))
        yield RosterSelection(
            id=child.attr("id"),
            name=child.attr("name"),
            entry_id=child.attr("entryId"),
            number=max(number, 1),
            type=child.attr("type"),
            cost=sum(
                _number(cost.attr("value"))
                for cost in child.children("costs", "cost")
                if cost.attr("typeId") == POINTS_COST_TYPE
            ),
            selections=tuple(_selections(child, budget, depth=depth + 1)),
            notes=child.text("customNotes")[: limits.MAX_SELECTION_NOTES_LENGTH],
        )
