"""Resolved views of BattleScribe entries: links followed, profiles, rules, counts and costs read.

BattleScribe spreads one unit card over inline elements and links (``entryLink`` to shared entries,
``infoLink`` to shared profiles and rules, possibly in another file).  ``EntryReader`` hides that: it
answers "which profiles / rules / children does this entry have" with everything already resolved.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

from armies.importers.bsxml import BsDocument, LinkIndex, kids, local
from armies.importers.types import ImportIssue

STAT_CHARACTERISTIC = "Armour"
WEAPON_CHARACTERISTIC = "Range"
POINTS_COST_NAMES = ("pts", "points", "ap")


@dataclass
class Reporter:
    """Collects issues for one catalogue; the catalogue freezes them into its ImportReport."""

    source: str
    issues: list[ImportIssue] = field(default_factory=list)
    # While a unit is mapped, issues found deep inside it (a weapon, a link) are filed under the unit.
    subject: ET.Element | None = None
    _seen: set[ImportIssue] = field(default_factory=set)

    def add(self, entry: ET.Element | None, what: str, detail: str) -> None:
        entry = self.subject if self.subject is not None else entry
        entry_id = entry.get("id") if entry is not None else None
        entry_name = (entry.get("name") or "").strip() or None if entry is not None else None
        issue = ImportIssue(self.source, entry_id, entry_name, what, detail)
        # The same link or value is met again for each variant of a unit: report it once.
        if issue not in self._seen:
            self._seen.add(issue)
            self.issues.append(issue)


@dataclass(frozen=True)
class Node:
    """A selection entry or group, reached directly or through an entryLink (``link``)."""

    element: ET.Element
    document: BsDocument
    link: ET.Element | None = None

    @property
    def tag(self) -> str:
        return local(self.element.tag)

    @property
    def id(self) -> str:
        return self.element.get("id", "")

    @property
    def name(self) -> str:
        return " ".join((self.element.get("name") or "").split())

    @property
    def parts(self) -> tuple[ET.Element, ...]:
        """The elements whose children describe this node: the target, then the link's own additions."""
        return (self.element,) if self.link is None else (self.element, self.link)


@dataclass(frozen=True)
class Profile:
    name: str
    type_name: str
    values: dict[str, str]
    element: ET.Element

    def get(self, name: str) -> str:
        return " ".join((self.values.get(name) or "").split())


@dataclass(frozen=True)
class RuleRef:
    """A rule attached to an entry, with its display name after any name modifiers."""

    name: str
    element: ET.Element


@dataclass
class EntryReader:
    index: LinkIndex
    reporter: Reporter
    _profile_types: dict[str, str] = field(default_factory=dict)
    _characteristic_types: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._profile_types = self.index.names("profileType")
        self._characteristic_types = self.index.names("characteristicType")

    # -- links -----------------------------------------------------------------------------------

    def follow(self, element: ET.Element, document: BsDocument) -> Node | None:
        """A child entry or entryLink as a Node; None (reported) when a link does not resolve."""
        if local(element.tag) != "entryLink":
            return Node(element, document)
        target = self.index.resolve(document, element.get("targetId"))
        if target is None:
            self.reporter.add(
                element, "unresolved-link", f"entryLink target {element.get('targetId')} not found"
            )
            return None
        return Node(target.element, target.document, link=element)

    def children(self, node: Node) -> list[Node]:
        """Child selection entries: inline ones, then linked ones (links to groups are in groups())."""
        found: list[Node] = []
        for part in node.parts:
            elements = kids(part, "selectionEntries", "selectionEntry") + kids(
                part, "entryLinks", "entryLink"
            )
            for element in elements:
                child = self.follow(element, node.document)
                if child is not None and child.tag == "selectionEntry":
                    found.append(child)
        return found

    def groups(self, node: Node) -> list[Node]:
        """Selection entry groups of a node, inline or reached through entryLinks."""
        found = [
            Node(group, node.document) for part in node.parts for group in kids(part, "selectionEntryGroups")
        ]
        for part in node.parts:
            for element in kids(part, "entryLinks", "entryLink"):
                child = self.follow(element, node.document)
                if child is not None and child.tag == "selectionEntryGroup":
                    found.append(child)
        return found

    # -- profiles and rules ----------------------------------------------------------------------

    def _profile(self, element: ET.Element) -> Profile:
        values: dict[str, str] = {}
        for characteristic in kids(element, "characteristics", "characteristic"):
            type_id = characteristic.get("characteristicTypeId", "")
            name = self._characteristic_types.get(type_id) or (characteristic.get("name") or "").strip()
            value = characteristic.get("value")
            values[name] = value if value is not None else (characteristic.text or "")
        type_name = self._profile_types.get(element.get("profileTypeId", ""), element.get("typeName", ""))
        return Profile(" ".join((element.get("name") or "").split()), type_name, values, element)

    def profiles(self, node: Node) -> list[Profile]:
        """Inline profiles and those reached through profile infoLinks."""
        found: list[Profile] = []
        for part in node.parts:
            found.extend(self._profile(element) for element in kids(part, "profiles", "profile"))
            for link in kids(part, "infoLinks", "infoLink"):
                if link.get("type") != "profile":
                    continue
                target = self.index.resolve(node.document, link.get("targetId"))
                if target is None:
                    self.reporter.add(link, "unresolved-link", f"profile {link.get('targetId')} not found")
                    continue
                found.append(self._profile(target.element))
        return found

    def stat_profiles(self, node: Node) -> list[Profile]:
        return [profile for profile in self.profiles(node) if STAT_CHARACTERISTIC in profile.values]

    def weapon_profiles(self, node: Node) -> list[Profile]:
        return [
            profile
            for profile in self.profiles(node)
            if WEAPON_CHARACTERISTIC in profile.values and STAT_CHARACTERISTIC not in profile.values
        ]

    def rules(self, node: Node) -> list[RuleRef]:
        """Inline rules and rule infoLinks, named after their target (link names are often stale)."""
        found: list[RuleRef] = []
        for part in node.parts:
            found.extend(RuleRef(_clean(rule.get("name")), rule) for rule in kids(part, "rules", "rule"))
            for link in kids(part, "infoLinks", "infoLink"):
                kind = link.get("type")
                if kind == "profile":
                    continue
                if kind != "rule":
                    self.reporter.add(link, "unmapped-info-link", f"infoLink of type {kind!r} is not read")
                    continue
                target = self.index.resolve(node.document, link.get("targetId"))
                if target is None:
                    self.reporter.add(link, "unresolved-link", f"rule {link.get('targetId')} not found")
                    continue
                found.append(RuleRef(self._modified_name(link, _clean(target.element.get("name"))), link))
        return found

    def _modified_name(self, link: ET.Element, name: str) -> str:
        """Apply unconditional ``set``/``append`` name modifiers (e.g. Expert + "- Flamethrower")."""
        for modifier in kids(link, "modifiers", "modifier"):
            conditional = any(len(holder) for holder in modifier)
            kind, value = modifier.get("type"), _clean(modifier.get("value"))
            if modifier.get("field") == "name" and not conditional and kind in ("set", "append"):
                name = value if kind == "set" else f"{name} {value}"
            else:
                self.reporter.add(
                    link, "unmapped-modifier", f"modifier {dict(modifier.attrib)} on {name!r} ignored"
                )
        return name

    def report_modifiers(self, node: Node, context: str) -> None:
        """Modifiers change values under conditions the import cannot evaluate: list them."""
        for part in node.parts:
            for modifier in kids(part, "modifiers", "modifier"):
                self.reporter.add(
                    node.element, "unmapped-modifier", f"{context}: modifier {dict(modifier.attrib)}"
                )

    # -- numbers ---------------------------------------------------------------------------------

    def _limit(self, node: Node, kind: str, scopes: tuple[str, ...]) -> int | None:
        """The first ``kind`` (min/max) selection constraint in one of ``scopes``; a link's own wins."""
        for part in reversed(node.parts):
            for constraint in kids(part, "constraints", "constraint"):
                wanted = constraint.get("type") == kind and constraint.get("scope") in scopes
                if wanted and constraint.get("field", "selections") == "selections":
                    value = _number(constraint.get("value"))
                    return None if value is None else int(value)
        return None

    def count(self, node: Node) -> int | None:
        """How many of this entry a unit takes: its minimum per parent (None when optional)."""
        return self._limit(node, "min", ("parent",))

    def is_required(self, node: Node) -> bool:
        count = self.count(node)
        return count is not None and count >= 1

    def is_unique(self, node: Node, *, root: bool = False) -> bool:
        """At most one per roster or force: how BattleScribe marks named heroes and vehicles.

        A root entry's parent is the force itself, so there a max of 1 per parent counts too
        (the data marks Wolfgang and Lilith that way).
        """
        scopes = ("roster", "force", "parent") if root else ("roster", "force")
        return self._limit(node, "max", scopes) == 1

    def cost(self, node: Node) -> float | None:
        """The AP cost (BattleScribe "pts" cost type); None when the entry has no cost at all."""
        for part in reversed(node.parts):
            for cost in kids(part, "costs", "cost"):
                label = (cost.get("name") or cost.get("costTypeId") or "").strip().lower()
                if label in POINTS_COST_NAMES or len(kids(part, "costs", "cost")) == 1:
                    return _number(cost.get("value"))
        return None

    def categories(self, node: Node, names: dict[str, str]) -> list[tuple[str, bool]]:
        """(category name, primary) for each categoryLink, unresolvable ones reported."""
        found: list[tuple[str, bool]] = []
        for part in node.parts:
            for link in kids(part, "categoryLinks", "categoryLink"):
                name = names.get(link.get("targetId", ""))
                if name is None:
                    self.reporter.add(
                        node.element, "unresolved-link", f"category {link.get('targetId')} not found"
                    )
                    continue
                found.append((name, link.get("primary") == "true"))
        return found


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


def _number(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


_LINE_VALUE = re.compile(r"^[^/\s]+/[^/\s]+$")


def is_line_value(text: str) -> bool:
    return bool(_LINE_VALUE.match(text))


def names_of(rules: Iterable[RuleRef]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for rule in rules:
        if rule.name:
            seen.setdefault(rule.name, None)
    return tuple(seen)
