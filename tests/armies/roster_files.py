"""Rosters made at test time from the real BattleScribe data (tests/conftest.py ``BSDATA_DIR``).

A roster is written the way BattleScribe writes one: each selection names its catalogue entry by
``entryId`` (a pick inside a group by the path of ids down to it, joined with ``::``) and carries
that entry's cost from the catalogue file. Nothing of the data is copied into the repository:
names are looked up in the files when a test runs.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from armies.importers.bsxml import local
from tests.conftest import BSDATA_DIR

GAME_SYSTEM_ID = "bacf-9ebb-dbda-57d0"
NS = "http://www.battlescribe.net/schema/rosterSchema"


@cache
def _catalogue(name: str) -> ET.Element:
    return ET.parse(BSDATA_DIR / f"{name}.cat").getroot()  # noqa: S314 - the project's own test data


def catalogue_root(name: str) -> ET.Element:
    """The root element of a catalogue file (Allies, Captured_Vehicles...) or of the game system."""
    return _catalogue(name)


@cache
def game_system_root() -> ET.Element:
    return ET.parse(BSDATA_DIR / "Dust_1947.gst").getroot()  # noqa: S314 - the project's own test data


def force_entry_ids() -> dict[str, str]:
    """The game system's force entries, name -> id."""
    return {
        element.get("name", ""): element.get("id", "")
        for element in game_system_root().iter()
        if local(element.tag) == "forceEntry"
    }


def _cost(element: ET.Element) -> float:
    for holder in element:
        if local(holder.tag) == "costs":
            for cost in holder:
                if cost.get("costTypeId") == "points":
                    return float(cost.get("value", "0"))
    return 0.0


@dataclass(frozen=True)
class Pick:
    """A catalogue entry as a roster selects it: the chain of entries from the root entry down."""

    chain: tuple[ET.Element, ...]
    number: int = 1
    extra: tuple[str, ...] = ()  # names of child entries chosen too (a strongpoint unit's "Bunker")

    @property
    def name(self) -> str:
        return self.chain[-1].get("name", "")

    @property
    def cost(self) -> float:
        return sum(_cost(element) for element in self.chain)


def pick(catalogue: str, name: str, *, number: int = 1, extra: tuple[str, ...] = ()) -> Pick:
    """The innermost entry named ``name`` of a catalogue file (Allies, Axis, Captured_Vehicles...)."""
    root = _catalogue(catalogue)
    parents = {child: parent for parent in root.iter() for child in parent}
    found: list[tuple[bool, Pick]] = []
    for element in root.iter():
        if local(element.tag) == "selectionEntry" and element.get("name") == name:
            chain = [element]
            node = element
            while node in parents:
                node = parents[node]
                if local(node.tag) == "selectionEntry":
                    chain.insert(0, node)
            has_picks = any(local(child.tag) == "selectionEntryGroups" and len(child) for child in element)
            found.append((has_picks, Pick(tuple(chain), number, extra)))
    if not found:
        raise LookupError(f"no entry named {name!r} in {catalogue}")
    return min(found, key=lambda item: item[0])[1]


def _shared_choice(catalogue: str, name: str) -> ET.Element:
    for element in _catalogue(catalogue).iter():
        if local(element.tag) == "selectionEntry" and element.get("name") == name:
            return element
    raise LookupError(name)


def _selection(parent: ET.Element, chosen: Pick, catalogue: str, *, cost: float | None = None) -> None:
    holder = parent
    path: list[str] = []
    for depth, element in enumerate(chosen.chain):
        path.append(element.get("id", ""))
        selections = holder.find(f"{{{NS}}}selections")
        if selections is None:
            selections = ET.SubElement(holder, f"{{{NS}}}selections")
        holder = ET.SubElement(
            selections,
            f"{{{NS}}}selection",
            {"id": f"s{id(element)}-{depth}", "name": element.get("name", ""), "entryId": "::".join(path),
             "number": str(chosen.number), "type": element.get("type", "model")},
        )  # fmt: skip
        value = _cost(element) * chosen.number if cost is None or depth else cost
        costs = ET.SubElement(holder, f"{{{NS}}}costs")
        ET.SubElement(costs, f"{{{NS}}}cost", {"name": " pts", "typeId": "points", "value": f"{value:.1f}"})
    for name in chosen.extra:
        choice = _shared_choice(catalogue, name)
        _selection(holder, Pick((choice,)), catalogue)


def roster_xml(
    forces: list[tuple[str, str, list[Pick]]], *, name: str = "Test roster", points_limit: int | None = 150,
    game_system: str = GAME_SYSTEM_ID, stated: dict[str, float] | None = None,
) -> bytes:  # fmt: skip
    """A ``.ros`` file: ``forces`` are (force name, catalogue file, picks); ``stated`` overrides a
    root selection's cost by its entry's name, as a roster made with other data would say."""
    root = ET.Element(
        f"{{{NS}}}roster",
        {"id": "r1", "name": name, "battleScribeVersion": "2.03", "gameSystemId": game_system,
         "gameSystemName": "Dust 1947" if game_system == GAME_SYSTEM_ID else "Another Game"},
    )  # fmt: skip
    if points_limit is not None:
        limits = ET.SubElement(root, f"{{{NS}}}costLimits")
        ET.SubElement(limits, f"{{{NS}}}costLimit", {"name": " pts", "typeId": "points",
                                                     "value": f"{points_limit:.1f}"})  # fmt: skip
    holder = ET.SubElement(root, f"{{{NS}}}forces")
    for number, (force_name, catalogue, picks) in enumerate(forces):
        force = ET.SubElement(
            holder, f"{{{NS}}}force",
            {"id": f"f{number}", "name": force_name, "entryId": f"force-{number}",
             "catalogueId": catalogue, "catalogueName": catalogue.replace("_", " ")},
        )  # fmt: skip
        for chosen in picks:
            override = (stated or {}).get(chosen.name)
            _selection(force, chosen, catalogue, cost=override)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def zipped(*files: tuple[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for filename, content in files:
            archive.writestr(filename, content)
    return buffer.getvalue()


def _json_node(element: ET.Element) -> dict[str, Any]:
    node: dict[str, Any] = dict(element.attrib)
    for child in element:
        if not len(child) and not child.attrib and (child.text or "").strip():
            node[local(child.tag)] = {"$text": (child.text or "").strip()}  # customNotes
        elif len(child) or not child.attrib:
            node[local(child.tag)] = [_json_node(grandchild) for grandchild in child]
    if element.text and element.text.strip():
        node["$text"] = element.text.strip()
    return node


def new_recruit(xml: bytes) -> str:
    """The New Recruit JSON export of the same roster: ``{"roster": ...}``, element lists as arrays."""
    return json.dumps({"roster": _json_node(ET.fromstring(xml))})  # noqa: S314 - written by roster_xml


def data_present() -> bool:
    return Path(BSDATA_DIR).is_dir()


def ids_stripped(xml: bytes, *, other_revision: bool = False) -> bytes:
    """The same roster with no entry ids (a roster made by hand), or with ids no catalogue of ours has
    (``other_revision``: the data's ids changed): its selections name their units by name alone."""
    root = ET.fromstring(xml)  # noqa: S314 - written by roster_xml
    for number, element in enumerate(root.iter()):
        if local(element.tag) == "selection":
            if other_revision:
                element.set("entryId", f"0000-other-revision-{number}")
            else:
                element.attrib.pop("entryId", None)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _subtree(element: ET.Element) -> float:
    """A roster selection's cost with its children's, as share texts print it."""
    own = sum(
        float(cost.get("value", "0"))
        for holder in element
        if local(holder.tag) == "costs"
        for cost in holder
        if cost.get("typeId") == "points"
    )
    return own + sum(_subtree(child) for child in _children(element))


def _children(element: ET.Element) -> list[ET.Element]:
    return [child for holder in element if local(holder.tag) == "selections" for child in holder]


def _said(element: ET.Element, cost: bool = True) -> str:
    number = int(element.get("number", "1"))
    name = f"{number}x {element.get('name', '')}" if number > 1 else element.get("name", "")
    return f"{name} [{_subtree(element):g}pts]" if cost else name


def _lines(element: ET.Element, shape: str, depth: int) -> list[str]:
    children = _children(element)
    choices = [child for child in children if not _children(child)]
    inner = [child for child in children if _children(child)]
    if shape == "indented":
        lines = [f"{'    ' * depth}+ {_said(element, cost=depth == 0)}"]
        return lines + [line for child in children for line in _lines(child, shape, depth + 1)]
    marker = "" if depth == 0 else (". " * depth if shape == "battlescribe" else "• ")
    said = _said(element, cost=depth == 0 or shape == "new-recruit")
    line = f"{marker}{said}" + (f": {', '.join(_said(c, cost=False) for c in choices)}" if choices else "")
    return [line] + [line for child in inner for line in _lines(child, shape, depth + 1)]


def share_text(xml: bytes, shape: str) -> str:
    """A roster as BattleScribe ("battlescribe") or New Recruit ("new-recruit") share it as text, or
    written one unit a line with its selections indented under it ("indented"): the shapes of
    docs/army-list-format.md, "Rosters shared as text"."""
    root = ET.fromstring(xml)  # noqa: S314 - written by roster_xml
    forces = [element for element in root.iter() if local(element.tag) == "force"]
    total = sum(_subtree(unit) for force in forces for unit in _children(force))
    lines: list[str] = []
    if shape == "new-recruit":
        lines += [f"{forces[0].get('catalogueName')} - {root.get('name')} - [{total:g}pts]", ""]
    for force in forces:
        units = _children(force)
        spent = sum(_subtree(unit) for unit in units)
        if shape == "battlescribe":
            heading = f"++ {force.get('name')} ({force.get('catalogueName')}) [{spent:g}pts] ++"
            lines += [heading, "", "+ Units +", ""]
        elif shape == "new-recruit":
            lines += [f"## {force.get('name')} [{spent:g}pts]", f"### Units [{spent:g}pts]"]
        for unit in units:
            lines += [*_lines(unit, shape, 0), ""]
    if shape == "battlescribe":
        lines += [f"++ Total: [{total:g}pts] ++", "", "Created with BattleScribe (https://battlescribe.net)"]
    return "\n".join(lines) + "\n"
