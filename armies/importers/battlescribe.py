"""Reading BattleScribe game-system and catalogue files (.gst/.cat and zipped .gstz/.catz).

``read_battlescribe`` reads a game system with its catalogues so that links between files resolve;
``read_battlescribe_file`` reads one file on its own (links into other files are then reported).
Whatever cannot be mapped is listed in each catalogue's ImportReport; only unreadable files raise
``CatalogueFormatError``.

Captured vehicles (Zverograd's ruling, docs/catalogue-format.md): a captured vehicle is its own
bloc's unit, which a list marks captured and pays for at its AP plus the captured surcharge.  The
data's captured-vehicle catalogue repeats each card with the surcharge already in its price; it is
read as the captured-vehicle chart, each line pointing at the bloc's own unit, and its copies of
the cards are dropped.  A copy whose original is missing stays, as a unit of its bloc priced
without the surcharge, so the surcharge is still paid once.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from armies.importers.bsentries import EntryReader, Node, Reporter
from armies.importers.bsunits import UnitContext, UnitMapper
from armies.importers.bsxml import BsDocument, LinkIndex, kids, load_document
from armies.importers.types import (
    KNOWN_BLOCS,
    ImportIssue,
    ImportReport,
    ParsedCapturedVehicle,
    ParsedCatalogue,
    ParsedFaction,
    ParsedGameData,
    ParsedUnit,
)
from armies.validation.types import CAPTURED_SURCHARGE

# Categories the captured-vehicle catalogue files its vehicles under: the bloc that built them.
BLOC_CATEGORIES = ("Allies", "Axis", "SSU")
MERCENARY_BLOC = "Mercenaries"
# Catalogues that are no bloc of the rules, and the bloc their units are fielded under.  The data
# gives the Mythos creatures no bloc, faction or Mercenary rule; Zverograd fields them the way the
# rules field units that belong to no bloc, as mercenaries any bloc may hire.
FIELDED_AS: dict[str, str] = {"Mythos": MERCENARY_BLOC}

__all__ = ["read_battlescribe", "read_battlescribe_file", "unit_key"]


def read_battlescribe(paths: Iterable[Path | str]) -> ParsedGameData:
    """Read a game system (.gst/.gstz) together with its catalogues (.cat/.catz)."""
    documents = [load_document(Path(path)) for path in paths]
    game_report = Reporter("(game data)")
    game_system = _choose_game_system(documents, game_report)
    documents = _drop_duplicates(documents, game_report)
    if game_system is not None:
        _check_catalogues_match(game_system, documents, game_report)
    index = LinkIndex(documents)
    drafts = [_draft(document, index) for document in documents if _has_units(document)]
    _link_captured(drafts)
    return ParsedGameData(
        name=game_system.name if game_system else "",
        revision=game_system.revision if game_system else 0,
        source=game_system.source if game_system else "",
        catalogues=tuple(draft.freeze() for draft in drafts),
        report=ImportReport(tuple(game_report.issues)),
        source_id=game_system.id if game_system else None,
        force_entries=_force_entries(game_system) if game_system else (),
    )


def read_battlescribe_file(path: Path | str) -> ParsedCatalogue:
    """Read one file alone; links to a game system or catalogue not given are reported, not resolved."""
    document = load_document(Path(path))
    draft = _draft(document, LinkIndex([document]))
    _link_captured([draft])
    return draft.freeze()


def unit_key(catalogue: str, name: str) -> str:
    """A stable key: "axis.grenadier-battle-squad"."""
    return f"{_slug(catalogue)}.{_slug(name)}"


# -- the game as a whole -------------------------------------------------------------------------


def _choose_game_system(documents: list[BsDocument], report: Reporter) -> BsDocument | None:
    systems = [document for document in documents if document.is_game_system]
    if not systems:
        report.add(None, "missing-game-system", "no .gst given: links into the game system will not resolve")
        return None
    for extra in systems[1:]:
        report.add(extra.root, "extra-game-system", f"{extra.source} ignored, {systems[0].source} is used")
        documents.remove(extra)
    return systems[0]


def _drop_duplicates(documents: list[BsDocument], report: Reporter) -> list[BsDocument]:
    kept: dict[str, BsDocument] = {}
    for document in documents:
        if document.id in kept:
            report.add(
                document.root, "duplicate-file", f"{document.source} has the id of {kept[document.id].source}"
            )
            continue
        kept[document.id] = document
    return list(kept.values())


def _check_catalogues_match(game_system: BsDocument, documents: list[BsDocument], report: Reporter) -> None:
    for document in documents:
        if document.is_game_system:
            continue
        if document.game_system_id != game_system.id:
            report.add(document.root, "foreign-catalogue", f"{document.source} is not for {game_system.name}")
        wanted = int(document.root.get("gameSystemRevision", "0") or 0)
        if wanted > game_system.revision:
            report.add(
                document.root,
                "old-game-system",
                f"{document.source} wants game system revision {wanted}, {game_system.revision} given",
            )


def _force_entries(game_system: BsDocument) -> tuple[tuple[str, str], ...]:
    """(name, id) of the game system's force entries ("Main Bloc", "Captured Vehicles"), for rosters."""
    return tuple(
        (" ".join((force.get("name") or "").split()), force.get("id", ""))
        for force in kids(game_system.root, "forceEntries", "forceEntry")
    )


def _has_units(document: BsDocument) -> bool:
    """Catalogues always count; a game system only when it defines fieldable entries itself."""
    return not document.is_game_system or bool(_root_entries(document))


def _root_entries(document: BsDocument) -> list[Node]:
    elements = kids(document.root, "selectionEntries", "selectionEntry")
    elements += kids(document.root, "entryLinks", "entryLink")
    return [Node(element, document) for element in elements]


# -- one catalogue -------------------------------------------------------------------------------


@dataclass
class CatalogueDraft:
    document: BsDocument
    bloc: str | None
    reporter: Reporter
    units: list[ParsedUnit] = field(default_factory=list)
    captured: list[ParsedCapturedVehicle] = field(default_factory=list)

    def freeze(self) -> ParsedCatalogue:
        factions = sorted({(unit.bloc, unit.faction) for unit in self.units if unit.bloc and unit.faction})
        return ParsedCatalogue(
            name=self.document.name,
            revision=self.document.revision,
            source=self.document.source,
            bloc=self.bloc,
            units=tuple(self.units),
            report=ImportReport(tuple(self.reporter.issues)),
            factions=tuple(ParsedFaction(name=faction, bloc=bloc) for bloc, faction in factions),
            captured_vehicles=tuple(self.captured),
            source_id=self.document.id,
        )


def _draft(document: BsDocument, index: LinkIndex) -> CatalogueDraft:
    reporter = Reporter(document.source)
    reader = EntryReader(index, reporter)
    category_names = index.names("categoryEntry")
    nodes = [node for node in (_follow_root(reader, node) for node in _root_entries(document)) if node]
    captured_style = any(_bloc_category(reader, node, category_names) for node in nodes)
    draft = CatalogueDraft(document, _catalogue_bloc(document, captured_style, reporter), reporter)
    context = UnitContext(
        bloc=draft.bloc,
        mercenary_catalogue=draft.bloc == MERCENARY_BLOC,
        category_names=category_names,
        bloc_categories=BLOC_CATEGORIES,
    )
    mapper = UnitMapper(reader, context)
    keys: set[str] = set()
    for node in nodes:
        original_bloc = _bloc_category(reader, node, category_names)
        for unit in mapper.map(node):
            unit = dataclasses.replace(unit, key=_unique_key(document.name, unit, keys))
            if original_bloc:
                unit = _captured_copy(draft, unit, original_bloc)
            draft.units.append(unit)
    for add_on in mapper.add_ons.values():
        joiner = mapper.map_add_on(add_on)
        if joiner is not None:
            draft.units.append(dataclasses.replace(joiner, key=_unique_key(document.name, joiner, keys)))
    if mapper.plain_estimates:
        count = len(mapper.plain_estimates)
        reporter.add(
            None,
            "models-estimated",
            f"BattleScribe gives no model count; {count} {'squad' if count == 1 else 'squads'} counted as "
            f"one model per weapon carried: {', '.join(mapper.plain_estimates)}",
        )
    return draft


def _follow_root(reader: EntryReader, node: Node) -> Node | None:
    followed = reader.follow(node.element, node.document)
    if followed is not None and followed.tag != "selectionEntry":
        reader.reporter.add(node.element, "unmapped-entry", f"root link to a <{followed.tag}> is not a unit")
        return None
    return followed


def _catalogue_bloc(document: BsDocument, captured_style: bool, reporter: Reporter) -> str | None:
    if document.name in KNOWN_BLOCS:
        return document.name
    if document.name in FIELDED_AS:
        return FIELDED_AS[document.name]
    if captured_style or document.is_game_system:
        return None  # each captured vehicle carries the bloc it was taken from
    reporter.add(
        document.root,
        "unknown-bloc",
        f"catalogue {document.name!r} is not one of {', '.join(KNOWN_BLOCS)}: its name is used as the bloc",
    )
    return document.name


def _bloc_category(reader: EntryReader, node: Node, names: dict[str, str]) -> str | None:
    links = reader.categories(node, names)
    primary = next((name for name, is_primary in links if is_primary), links[0][0] if links else None)
    return primary if primary in BLOC_CATEGORIES else None


def _captured_copy(draft: CatalogueDraft, unit: ParsedUnit, original_bloc: str) -> ParsedUnit:
    """A card of the captured-vehicle catalogue: a chart line, and a copy priced without the surcharge.

    ``_link_captured`` later points the line at the bloc's own unit and drops the copy.
    """
    draft.captured.append(
        ParsedCapturedVehicle(
            unit=unit.key,
            original_bloc=original_bloc,
            cost=unit.cost,
            captured_by=tuple(bloc for bloc in BLOC_CATEGORIES if bloc != original_bloc),
            entry_path=unit.entry_path,
            source_catalogue=draft.document.id,
        )
    )
    base_cost = max(unit.cost - CAPTURED_SURCHARGE, 0)
    return dataclasses.replace(unit, bloc=original_bloc, capturable=True, cost=base_cost)


def _unique_key(catalogue: str, unit: ParsedUnit, taken: set[str]) -> str:
    key = unit_key(catalogue, unit.name)
    if key in taken:
        key = f"{key}-{_slug(unit.source_id or str(len(taken)))}"
    taken.add(key)
    return key


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "unit"


# -- across catalogues ---------------------------------------------------------------------------


def _link_captured(drafts: list[CatalogueDraft]) -> None:
    """Point each captured-vehicle chart line at its bloc's own unit (same name) and drop the copy."""
    by_bloc = {draft.bloc: draft for draft in drafts if draft.bloc in BLOC_CATEGORIES}
    for draft in drafts:
        if not draft.captured:
            continue
        copies = {unit.key: unit for unit in draft.units}
        lines: list[ParsedCapturedVehicle] = []
        linked: set[str] = set()
        for line in draft.captured:
            copy = copies[line.unit]
            owner = by_bloc.get(line.original_bloc)
            index = _same_name(owner, copy) if owner is not None else None
            if owner is None or index is None:
                where = f"the {line.original_bloc} catalogue was not given"
                if owner is not None:
                    where = f"no unit named {copy.name!r} in {owner.document.source}"
                _issue(
                    draft,
                    copy,
                    "captured-without-original",
                    f"{where}: kept as a {line.original_bloc} unit at the chart's {line.cost} AP less the "
                    f"{CAPTURED_SURCHARGE} AP surcharge, {copy.cost} AP",
                )
                lines.append(line)
                continue
            base = dataclasses.replace(owner.units[index], capturable=True)
            owner.units[index] = base
            linked.add(copy.key)
            if any(kept.unit == base.key for kept in lines):
                _issue(
                    draft,
                    copy,
                    "captured-duplicate",
                    f"{base.key} is on the chart already; this copy is dropped",
                )
                continue
            _compare(draft, owner, copy, base, line)
            lines.append(dataclasses.replace(line, unit=base.key, cost=base.cost + CAPTURED_SURCHARGE))
        draft.captured = lines
        draft.units = [unit for unit in draft.units if unit.key not in linked]


def _same_name(owner: CatalogueDraft, copy: ParsedUnit) -> int | None:
    return next((i for i, unit in enumerate(owner.units) if unit.name == copy.name), None)


def _compare(
    draft: CatalogueDraft,
    owner: CatalogueDraft,
    copy: ParsedUnit,
    base: ParsedUnit,
    line: ParsedCapturedVehicle,
) -> None:
    """Report where the chart's copy disagrees with the bloc's card; the bloc's card is what is used."""
    if line.cost != base.cost + CAPTURED_SURCHARGE:
        _issue(
            draft,
            copy,
            "captured-price-differs",
            f"the chart prices it at {line.cost} AP, but it costs {base.cost} AP in "
            f"{owner.document.source}: captured, it costs {base.cost} + {CAPTURED_SURCHARGE} AP",
        )
    differences = _card_differences(copy, base)
    if differences:
        _issue(
            draft,
            copy,
            "captured-card-differs",
            f"the chart's card differs from {owner.document.source}'s in {'; '.join(differences)}; "
            "the bloc's card is used",
        )


def _issue(draft: CatalogueDraft, unit: ParsedUnit, what: str, detail: str) -> None:
    draft.reporter.issues.append(ImportIssue(draft.document.source, unit.source_id, unit.name, what, detail))


def _card_differences(copy: ParsedUnit, base: ParsedUnit) -> list[str]:
    """What a player would see differ on the two cards (order aside)."""
    found = [
        f"{name} {getattr(copy, name)} / {getattr(base, name)}"
        for name in ("armour", "damage", "move", "march", "faction")
        if getattr(copy, name) != getattr(base, name)
    ]
    if set(copy.skills) != set(base.skills):
        found.append(f"skills {_names(copy.skills)} / {_names(base.skills)}")
    own = {weapon.name: weapon for weapon in copy.weapons}
    theirs = {weapon.name: weapon for weapon in base.weapons}
    if set(own) != set(theirs):
        only_own = sorted(set(own) - set(theirs))
        only_theirs = sorted(set(theirs) - set(own))
        found.append(f"weapons {_names(only_own)} / {_names(only_theirs)}")
    changed = sorted(name for name in set(own) & set(theirs) if own[name] != theirs[name])
    if changed:
        found.append(f"the profile of {', '.join(changed)}")
    return found


def _names(items: Iterable[object]) -> str:
    return ", ".join(str(item) for item in sorted(items, key=str)) or "none"
