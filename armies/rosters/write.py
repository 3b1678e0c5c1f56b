"""Writing a list of ours as a BattleScribe roster (``.ros`` XML, zipped as ``.rosz``).

The roster says what BattleScribe can say: the list's name, its points limit, each unit as a
selection whose ``entryId`` is the unit's BattleScribe id (its key when it has none), priced
from our catalogue, in a "Main Bloc" force of its bloc, mercenaries in a force of their own and
the captured vehicle in the "Captured Vehicles" force; a strongpoint unit's bunker upgrade is its
"Bunker" choice, and a commissar its squad offers inside that squad. Heroes joined to units,
seated pilots, platoons, reserves and bought fortifications have no place in a roster and are
left out. Reading the roster back with ``resolve_roster`` gives the
same units, marks, bloc, name and points limit (docs/army-list-format.md, "Rosters").
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from typing import Any
from xml.etree import ElementTree as ET

from armies.rosters.read import DUST_GAME_SYSTEM_ID, POINTS_COST_TYPE
from armies.rosters.resolve import BUNKER_CHOICE, CAPTURED_FORCE
from armies.validation.fortifications import FREE_COST
from armies.validation.types import CAPTURED_SURCHARGE, Catalogue, UnitProfile

ROSTER_NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
MERCENARY_CATALOGUE = "Mercenaries"
COMMISSAR_SKILL = "Commissar"

__all__ = ["roster_to_rosz", "roster_to_xml"]


def roster_to_xml(document: Mapping[str, Any], catalogue: Catalogue, source_ids: Mapping[str, str]) -> bytes:
    """The list ``document`` (our format) as ``.ros`` XML; ``source_ids`` maps unit keys to BattleScribe ids."""
    profiles = catalogue.unit_by_key
    bunkers = {
        fort["unit"] for fort in document["fortifications"] if fort["kind"] == "bunker" and fort["unit"]
    }
    root = ET.Element(
        "roster",
        {
            "id": "zverograd-list", "name": document["name"], "battleScribeVersion": "2.03",
            "gameSystemId": DUST_GAME_SYSTEM_ID, "gameSystemName": "Dust 1947", "xmlns": ROSTER_NAMESPACE,
        },
    )  # fmt: skip
    forces: dict[str, ET.Element] = {}
    written: dict[str, ET.Element] = {}
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
        if entry["captured"]:
            force_name = catalogue_name = CAPTURED_FORCE.title()
        elif profile.mercenary:
            force_name, catalogue_name = "Main Bloc", MERCENARY_CATALOGUE
        else:
            force_name, catalogue_name = "Main Bloc", document["bloc"]
        force = forces.get(f"{force_name}/{catalogue_name}")
        if force is None:
            force = _force(len(forces) + 1, force_name, catalogue_name)
            forces[f"{force_name}/{catalogue_name}"] = force
        cost = profile.ap + (CAPTURED_SURCHARGE if entry["captured"] else 0)
        parent = written.get(nested.get(entry["id"], ""))
        selection = _selection(
            _child(parent, "selections") if parent is not None else force.find("selections"),
            entry["id"],
            profile.name,
            source_ids.get(profile.key) or profile.key,
            cost,
        )
        written[entry["id"]] = selection
        total += cost
        if entry["id"] in bunkers and profile.strongpoint_unit:
            _selection(_child(selection, "selections"), f"{entry['id']}-bunker", BUNKER_CHOICE.title(),
                       BUNKER_CHOICE, FREE_COST["bunker"], kind="upgrade")  # fmt: skip
            total += FREE_COST["bunker"]
    _cost(_child(root, "costs"), "cost", total)
    _cost(_child(root, "costLimits"), "costLimit", document["points_limit"])
    holder = _child(root, "forces")
    holder.extend(forces.values())
    ET.indent(root)
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True))


def roster_to_rosz(document: Mapping[str, Any], catalogue: Catalogue, source_ids: Mapping[str, str],
                   *, filename: str) -> bytes:  # fmt: skip
    """The ``.rosz`` file: a zip holding the ``.ros`` as ``filename``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(filename, roster_to_xml(document, catalogue, source_ids))
    return buffer.getvalue()


def _is_add_on(profile: UnitProfile | None) -> bool:
    """A unit that joins the unit offering it (the catalogue import's add-on: a commissar, no hero)."""
    return profile is not None and not profile.hero and COMMISSAR_SKILL in profile.skills


def _child(parent: ET.Element, tag: str) -> ET.Element:
    found = parent.find(tag)
    return found if found is not None else ET.SubElement(parent, tag)


def _force(number: int, name: str, catalogue_name: str) -> ET.Element:
    force = ET.Element(
        "force", {"id": f"force-{number}", "name": name, "entryId": name.casefold().replace(" ", "-"),
                  "catalogueId": "", "catalogueName": catalogue_name},
    )  # fmt: skip
    ET.SubElement(force, "selections")
    return force


def _selection(parent: ET.Element | None, selection_id: str, name: str, entry_id: str, cost: int,
               *, kind: str = "model") -> ET.Element:  # fmt: skip
    assert parent is not None
    selection = ET.SubElement(
        parent,
        "selection",
        {"id": selection_id, "name": name, "entryId": entry_id, "number": "1", "type": kind},
    )
    _cost(_child(selection, "costs"), "cost", cost)
    return selection


def _cost(parent: ET.Element, tag: str, value: int) -> None:
    ET.SubElement(parent, tag, {"name": " pts", "typeId": POINTS_COST_TYPE, "value": f"{value:.1f}"})
