"""Writing a list of ours as a BattleScribe roster (``.ros`` XML, zipped as ``.rosz``).

The roster is written as BattleScribe writes one for the same list, from what the catalogue import
kept of the BattleScribe files (``RosterIds``): the game system's id and revision, a force per
catalogue (its id, revision and name; the game system's "Main Bloc" force entry) with the bloc's
units, one with the mercenaries of each mercenary catalogue, and the captured vehicle as the
captured catalogue's own entry in the "Captured Vehicles" force. A unit picked inside a group is
written as the entry it sits in with the pick inside it, ``entryId`` giving the chain of entry ids
joined by ``::`` and ``entryGroupId`` the group's; each selection carries its own ``costs``, priced
from our catalogue (the pick gets what its parents do not), and the roster its ``costs`` and
``costLimits``. A strongpoint unit's bunker upgrade is its "Bunker" choice, and a commissar its
squad offers sits inside that squad as the squad's own choice.

What a roster has no place for (a hero joined to a unit, a pilot seated, reserves, platoons,
fortifications bought outright, the faction claimed, the side played, the bloc and the catalogue
the list was made with) is said in the
``customNotes`` of the selection or of the roster (``armies.rosters.notes``), and our import reads
it back. A catalogue imported before the ids were kept (or a JSON one) has none: each
unit is then one selection named by its own entry id (its key when it has none) in forces named
only by catalogue name, as the first export wrote them (docs/army-list-format.md, "Export: .rosz").
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree as ET

from armies.rosters import notes
from armies.rosters.read import DUST_GAME_SYSTEM_ID, POINTS_COST_TYPE
from armies.rosters.resolve import BUNKER_CHOICE, CAPTURED_FORCE
from armies.validation.fortifications import FREE_COST
from armies.validation.names import xml_text
from armies.validation.types import CAPTURED_SURCHARGE, Catalogue, UnitProfile

ROSTER_NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
MERCENARY_CATALOGUE = "Mercenaries"
MAIN_FORCE = "Main Bloc"
COMMISSAR_SKILL = "Commissar"
# The order BattleScribe writes an element's children in; the reader does not mind.
_CHILD_ORDER = {"customNotes": 0, "selections": 1, "costs": 2, "costLimits": 3, "forces": 4}

__all__ = ["RosterIds", "roster_to_rosz", "roster_to_xml"]


@dataclass(frozen=True)
class RosterIds:
    """What the catalogue kept of the BattleScribe files (``selectors.roster_ids``).

    ``files`` is ``Catalogue.roster_files``; ``entries`` and ``captured`` map a unit key to its
    ``Unit.roster_entry`` and ``CapturedVehicle.roster_entry``; ``source_ids`` a unit key to its
    BattleScribe id, for units (and catalogues) without the rest."""

    source_ids: Mapping[str, str] = field(default_factory=dict)
    entries: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    captured: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    files: Mapping[str, Any] = field(default_factory=dict)

    def entry(self, key: str, *, captured: bool) -> tuple[Mapping[str, Any] | None, list[Mapping[str, Any]]]:
        """The catalogue file and the chain of entries a roster selects the unit by; (None, []) unknown."""
        entry = (self.captured if captured else self.entries).get(key) or {}
        file = (self.files.get("catalogues") or {}).get(entry.get("catalogue") or "")
        path = entry.get("path") or []
        return (file, list(path)) if file and path else (None, [])

    def offer(self, key: str, choice_id: str = "", *, name: str = "") -> Mapping[str, Any] | None:
        """The choice unit ``key`` offers inside it: by the chosen entry's own id, or by name."""
        for step in (self.entries.get(key) or {}).get("offers") or []:
            own_id = str(step.get("id", "")).rsplit("::", 1)[-1]
            if (choice_id and own_id == choice_id) or (name and str(step.get("name", "")).casefold() == name):
                return dict(step)
        return None


@dataclass
class _Written:
    key: str
    selection: ET.Element  # the unit's own (innermost) selection
    chain: list[str]
    # Whether the unit's choices (its commissars, its Bunker) are those of its own selection: the
    # import reads them from the unit's root entry, so a pick inside a group or the captured
    # catalogue's copy writes them by name and id only.
    offers: bool = False


def roster_to_xml(document: Mapping[str, Any], catalogue: Catalogue, ids: RosterIds) -> bytes:
    """The list ``document`` (our format) as ``.ros`` XML."""
    profiles = catalogue.unit_by_key
    game = ids.files.get("game_system") or {}
    attributes = {
        "id": "zverograd-list", "name": document["name"], "battleScribeVersion": "2.03",
        "gameSystemId": game.get("id") or DUST_GAME_SYSTEM_ID, "gameSystemName": game.get("name") or "Dust 1947",
    }  # fmt: skip
    if game.get("revision"):
        attributes["gameSystemRevision"] = str(game["revision"])
    root = ET.Element("roster", {**attributes, "xmlns": ROSTER_NAMESPACE})
    bunkers = {
        fort["unit"] for fort in document["fortifications"] if fort["kind"] == "bunker" and fort["unit"]
    }
    forces: dict[str, ET.Element] = {}
    written: dict[str, _Written] = {}
    total = 0
    # An add-on (a commissar its squad offers) is written inside the squad it joins, as BattleScribe
    # nests it; so the squads are written first.
    nested = {
        entry["id"]: entry["joined_to"]
        for entry in document["entries"]
        if entry["joined_to"] and _is_add_on(profiles.get(entry["unit"]))
    }
    ordered = [e for e in document["entries"] if e["id"] not in nested]
    ordered += [e for e in document["entries"] if e["id"] in nested]
    for entry in ordered:
        profile = profiles.get(entry["unit"])
        if profile is None:
            continue  # a unit the catalogue lost has no BattleScribe id to write
        cost = profile.ap + (CAPTURED_SURCHARGE if entry["captured"] else 0)
        parent = written.get(nested.get(entry["id"], ""))
        if parent is not None:
            written[entry["id"]] = _add_on(parent, entry["id"], profile, cost, ids)
        else:
            file, path = ids.entry(profile.key, captured=entry["captured"])
            force = _force_for(forces, ids, document, profile, captured=entry["captured"], file=file)
            holder = _child(force, "selections")
            if path:
                written[entry["id"]] = _chain(holder, [], entry["id"], path, cost, profile.key)
                written[entry["id"]].offers = len(path) == 1 and not entry["captured"]
            else:
                selection = _selection(holder, entry["id"], profile.name, ids.source_ids.get(profile.key)
                                       or profile.key, cost)  # fmt: skip
                written[entry["id"]] = _Written(profile.key, selection, [])
        total += cost
        if entry["id"] in bunkers and profile.strongpoint_unit:
            _bunker(written[entry["id"]], entry["id"], ids)
            total += FREE_COST["bunker"]
    _cost(_child(root, "costs"), "cost", total)
    _cost(_child(root, "costLimits"), "costLimit", document["points_limit"])
    _child(root, "forces").extend(forces.values())
    _write_notes(root, document, catalogue, written, nested)
    for element in root.iter():
        element[:] = sorted(element, key=lambda child: _CHILD_ORDER.get(child.tag, 9))
        # Whatever text the list or the catalogue hands in, the file stays well-formed XML.
        element.attrib = {name: xml_text(value) for name, value in element.attrib.items()}
        element.text = xml_text(element.text) if element.text else element.text
    ET.indent(root)
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True))


def roster_to_rosz(
    document: Mapping[str, Any], catalogue: Catalogue, ids: RosterIds, *, filename: str
) -> bytes:
    """The ``.rosz`` file: a zip holding the ``.ros`` as ``filename``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(filename, roster_to_xml(document, catalogue, ids))
    return buffer.getvalue()


def _is_add_on(profile: UnitProfile | None) -> bool:
    """A unit that joins the unit offering it (the catalogue import's add-on: a commissar, no hero)."""
    return profile is not None and not profile.hero and COMMISSAR_SKILL in profile.skills


def _force_for(forces: dict[str, ET.Element], ids: RosterIds, document: Mapping[str, Any], profile: UnitProfile,
               *, captured: bool, file: Mapping[str, Any] | None) -> ET.Element:  # fmt: skip
    name = CAPTURED_FORCE.title() if captured else MAIN_FORCE
    if file is not None:
        handle = f"{name}/{file['id']}"
        entry_id = (ids.files.get("forces") or {}).get(name) or _slug(name)
        attributes = {"entryId": entry_id, "catalogueId": file["id"], "catalogueRevision": str(file["revision"]),
                      "catalogueName": file["name"]}  # fmt: skip
    else:  # a catalogue that kept no ids: the first export's forces, named only by catalogue
        catalogue_name = name if captured else MERCENARY_CATALOGUE if profile.mercenary else document["bloc"]
        handle = f"{name}/{catalogue_name}"
        attributes = {"entryId": _slug(name), "catalogueId": "", "catalogueName": catalogue_name}
    force = forces.get(handle)
    if force is None:
        force = ET.Element("force", {"id": f"force-{len(forces) + 1}", "name": name, **attributes})
        forces[handle] = force
    return force


def _chain(holder: ET.Element, prefix: list[str], selection_id: str, path: list[Mapping[str, Any]], cost: int,
           key: str) -> _Written:  # fmt: skip
    """The entries from ``path[0]`` down to the unit, nested; each its own cost, the unit the rest."""
    chain = list(prefix)
    spent = 0.0
    selection = holder
    for depth, step in enumerate(path):
        last = depth == len(path) - 1
        group = "::".join([*chain, str(step["group"])]) if step.get("group") else ""
        chain.append(str(step["id"]))
        value = cost - spent if last else float(step.get("cost") or 0)
        spent += value
        selection = _selection(
            holder, selection_id if last else f"{selection_id}-{depth + 1}", str(step["name"]), "::".join(chain),
            value, kind=str(step.get("type") or "model"), group=group,
        )  # fmt: skip
        holder = _child(selection, "selections") if not last else holder
    return _Written(key, selection, chain)


def _add_on(parent: _Written, selection_id: str, profile: UnitProfile, cost: int, ids: RosterIds) -> _Written:
    """A commissar inside the squad it joins: the squad's own choice of it, when the catalogue kept it."""
    own_id = ids.source_ids.get(profile.key, "")
    step = ids.offer(parent.key, own_id) if parent.offers and own_id else None
    holder = _child(parent.selection, "selections")
    if step is not None:
        return _chain(holder, parent.chain, selection_id, [step], cost, profile.key)
    selection = _selection(holder, selection_id, profile.name, own_id or profile.key, cost)
    return _Written(profile.key, selection, [])


def _bunker(unit: _Written, entry_id: str, ids: RosterIds) -> None:
    step = ids.offer(unit.key, name=BUNKER_CHOICE) if unit.offers else None
    holder = _child(unit.selection, "selections")
    if step is not None:
        _chain(holder, unit.chain, f"{entry_id}-bunker", [step], FREE_COST["bunker"], "")
    else:
        _selection(holder, f"{entry_id}-bunker", BUNKER_CHOICE.title(), BUNKER_CHOICE, FREE_COST["bunker"],
                   kind="upgrade")  # fmt: skip


def _write_notes(root: ET.Element, document: Mapping[str, Any], catalogue: Catalogue,
                 written: Mapping[str, _Written], nested: Mapping[str, str]) -> None:  # fmt: skip
    """Say in customNotes what the roster has no place for; units are numbered as our import numbers them."""
    by_element = {id(unit.selection): entry_id for entry_id, unit in written.items() if unit.key}
    numbers = {
        by_element[id(element)]: index
        for index, element in enumerate(
            (element for element in _units_in_order(root) if id(element) in by_element), start=1
        )
    }
    profiles = catalogue.unit_by_key
    names = {
        entry["id"]: profiles[entry["unit"]].name
        for entry in document["entries"]
        if entry["unit"] in profiles
    }
    platoons = {platoon["id"]: (number, _chart_name(catalogue, platoon["chart"]))
                for number, platoon in enumerate(document["platoons"], start=1)}  # fmt: skip
    for entry in document["entries"]:
        unit = written.get(entry["id"])
        if unit is None:
            continue
        lines = []
        if entry["joined_to"] in numbers and entry["id"] not in nested:
            lines.append(notes.joins(numbers[entry["joined_to"]], names[entry["joined_to"]]))
        if entry["pilot_of"] in numbers:
            lines.append(notes.pilots(numbers[entry["pilot_of"]], names[entry["pilot_of"]]))
        if entry["reserve"]:
            lines.append(notes.reserve())
        if entry["platoon"] in platoons:
            number, chart = platoons[entry["platoon"]]
            lines.append(notes.platoon_member(number, chart, entry["slot"]))
        if lines:
            _notes(unit.selection, lines)
    # The bloc and the catalogue first: a list of mercenaries alone shows no bloc, and the import
    # prefers the catalogue the list was made with to the newest.
    lines = [notes.bloc(str(document["bloc"])), notes.catalogue(catalogue.name, catalogue.version)]
    faction = catalogue.faction_by_key.get(document["faction"] or "")
    if document["faction"]:
        lines.append(notes.faction(faction.name if faction else str(document["faction"])))
    if document["role"]:
        lines.append(notes.role(str(document["role"])))
    for platoon in document["platoons"]:
        number, chart = platoons[platoon["id"]]
        members = [
            f"unit {numbers[member]} ({names[member]})" for member in platoon["members"] if member in numbers
        ]
        lines.append(notes.platoon(number, chart, members))
    lines += [notes.fortification(fort["kind"]) for fort in document["fortifications"] if not fort["unit"]]
    _notes(root, [notes.ROSTER_HEADING, *lines])


def _units_in_order(root: ET.Element) -> Iterator[ET.Element]:
    """Every selection, force by force, each before the selections inside it (the import's order)."""
    for force in root.iterfind("forces/force"):
        yield from force.iter("selection")


def _chart_name(catalogue: Catalogue, key: str) -> str:
    chart = catalogue.chart_by_key.get(key)
    return chart.name if chart else key.replace("-", " ").capitalize()


def _notes(element: ET.Element, lines: list[str]) -> None:
    ET.SubElement(element, "customNotes").text = "\n".join(lines)


def _slug(name: str) -> str:
    return name.casefold().replace(" ", "-")


def _child(parent: ET.Element, tag: str) -> ET.Element:
    found = parent.find(tag)
    return found if found is not None else ET.SubElement(parent, tag)


def _selection(parent: ET.Element, selection_id: str, name: str, entry_id: str, cost: float,
               *, kind: str = "model", group: str = "") -> ET.Element:  # fmt: skip
    attributes = {"id": selection_id, "name": name, "entryId": entry_id}
    if group:
        attributes["entryGroupId"] = group
    selection = ET.SubElement(parent, "selection", {**attributes, "number": "1", "type": kind})
    _cost(_child(selection, "costs"), "cost", cost)
    return selection


def _cost(parent: ET.Element, tag: str, value: float) -> None:
    ET.SubElement(parent, tag, {"name": " pts", "typeId": POINTS_COST_TYPE, "value": f"{value:.1f}"})
