"""Lists typed as text: the site's own chat export and the "Unit name (AP)" lines players type.

Plain Python (no Django): ``read_text_list`` turns text into a document of the list
format (docs/army-list-format.md) matched by name against a catalogue's units, or
raises ``ListFormatError`` whose errors are sentences naming the line at fault.
"Reading a list typed as text" in docs/army-list-format.md says what it reads.

Names match case-, space- and accent-insensitively ("gulfport marine SQUAD",
"Barwolf"), and a unit's key matches too. A name is first looked up whole and
only then with a trailing cost taken off, so a name holding digits or
brackets is never cut. A stated AP that differs from the catalogue is a
warning: the catalogue prices the list.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from armies.textnames import CHARTS_SEEN, CHARTS_THEN, MAX_SENTENCES, UnitNames, did_you_mean, norm
from armies.validation import limits
from armies.validation.listformat import FORMAT_NAME, FORMAT_VERSION, ListFormatError
from armies.validation.types import ROLES, Catalogue, Faction, PlatoonChart, UnitProfile
from core.errors import FieldProblem

__all__ = ["TextList", "TextNotAListError", "read_text_list", "read_text_list_for"]

COST_DIFFERS = "text-cost-differs"
NOT_READ = "text-not-read"

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_BULLET = re.compile(r"^(?:[-*•+·>]|\d{1,3}[.)](?=\s))\s*")
_COUNT_BEFORE = re.compile(r"^(\d{1,4})\s*[x×]\s*(?=\S)|^(\d{1,4})\s+(?=\D)", re.IGNORECASE)
_COUNT_AFTER = re.compile(r"\s?(?:[x×]\s?(\d{1,4})|\((\d{1,4})\s?[x×]\))$", re.IGNORECASE)
_RIDER = re.compile(r"^(joined by|piloted by)\s+", re.IGNORECASE)
# The export's unit line: "Name [e1]: 8 + 2 AP captured  (platoon p1/Command, reserve)".
_EXPORTED = re.compile(
    r"^(?P<name>.+?)\s\[(?P<id>[^\]\s]{1,64})\]:\s(?:\?|(?P<ap>\d{1,6})(?:\s\+\s\d{1,3})?)\sAP"
    r"(?P<captured>\scaptured)?(?:\s+\((?P<notes>[^()]*)\))?$"
)
# A cost typed after a name ("(15 AP)", "(15)", "- 15 pts", ": 15", "15 AP") is read by hand from the
# line's end (_trailing_cost): a pattern for it splits a long run of spaces every way, in time cubic in
# the line. The patterns left run in time linear in a line, whose runs of spaces are one space already.
_COST_WORDS = ("points", "point", "pts", "pt", "ap")
_COST_SEPARATORS = "-–—:,="
_COST_DIGITS = 6
_NOTES = re.compile(r"\s?\((?P<notes>[^()]*)\)$")
_EXPORTED_TAIL = re.compile(r"\s?\[[^\]\s]{1,64}\]:.*$")
_PLATOON_NOTE = re.compile(r"^platoon\s+(?P<id>[^/\s]+)/(?P<slot>.+)$")
_EXPORT_POINTS = re.compile(r"^points:\s*-?\d+\s*/\s*(?P<limit>\d{1,6})\s*ap paid", re.IGNORECASE)
_POINTS = re.compile(
    r"^(?:(?:points|points limit|limit|ap)\s*[:=]?\s*)?(?P<limit>\d{1,6})\s*(?:ap|pts|points)?"
    r"(?:\s*(?:limit|game|list))?$",
    re.IGNORECASE,
)
_CATALOGUE = re.compile(r"^catalogue:.*\(list built for (?P<version>[^()]{1,64})\)$", re.IGNORECASE)
_PLATOON_LINE = re.compile(r"^\[(?P<id>[^\]\s]{1,64})\]\s(?P<chart>.+?):\s(?P<members>.*)$")
_FORT_LINE = re.compile(
    r"^\[(?P<id>[^\]\s]{1,64})\]\s(?P<kind>strongpoint|bunker)(?:\sof\s.*\[(?P<unit>[^\]\s]{1,64})\]|,\s(?P<how>.*))$"
)
_SECTIONS = {"units": "units", "platoons": "platoons", "fortifications": "fortifications", "totals": "skip"}
_IGNORED_PARTS = {"faction force", "bloc force", "mercenary force", "role not set", ""}


class TextNotAListError(ListFormatError):
    """Text not read as a list at all: no line of it names a unit (nor comes close), or it is past
    the bounds of a text. A caller trying the text as a list only after another format may then say
    why it is not that format instead."""


@dataclass(frozen=True)
class TextList:
    """A list read from text: a document of the list format and what the reader noticed."""

    document: dict[str, Any]
    warnings: tuple[FieldProblem, ...] = ()


@dataclass
class _Entry:
    line: int
    id: str | None
    unit: UnitProfile | None
    unit_key: str
    stated_ap: int | None = None
    count: int = 1
    rider: str | None = None  # "joined by" / "piloted by": rides on the last unit above it
    captured: bool = False
    reserve: bool = False
    platoon: str | None = None
    slot: str | None = None


@dataclass
class _Reading:
    name: str | None = None
    bloc: str | None = None
    faction: str | None = None
    role: str | None = None
    points_limit: int | None = None
    catalogue_version: str | None = None
    entries: list[_Entry] = field(default_factory=list)
    platoons: list[dict[str, Any]] = field(default_factory=list)
    fortifications: list[dict[str, Any]] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    warnings: list[FieldProblem] = field(default_factory=list)
    lines_read: int = 0
    suggested: int = 0


def read_text_list_for(text: str, catalogue: Catalogue) -> TextList:
    """``read_text_list`` against a whole catalogue of the validator (units, charts, factions)."""
    return read_text_list(
        text,
        catalogue.units,
        catalogue_version=catalogue.version,
        charts=catalogue.platoon_charts,
        factions=catalogue.factions,
    )


def read_text_list(
    text: str,
    units: Iterable[UnitProfile],
    *,
    catalogue_version: str,
    charts: Iterable[PlatoonChart] = (),
    factions: Iterable[Faction] = (),
    bloc: str | None = None,
) -> TextList:
    """Read a list typed as text; ``bloc`` is the bloc to take when the text names none."""
    lines = _lines(text)
    known = UnitNames(units, charts, factions)
    reading = _Reading()
    section = "units"
    for number, line in lines:
        if not line:
            continue
        reading.lines_read += 1
        heading = _SECTIONS.get(line.casefold().rstrip(":"))
        if heading is not None:
            section = heading
        elif line.casefold().startswith(("problems:", "no problems")):
            section = "skip"
        elif section == "skip" or (section == "platoons" and line.casefold().startswith("advantage:")):
            continue
        elif section == "platoons":
            _platoon_line(reading, known, number, line)
        elif section == "fortifications":
            _fortification_line(reading, number, line)
        else:
            _unit_or_heading(reading, known, number, line)
    return _finish(reading, known, text, catalogue_version, bloc)


def _lines(text: str) -> list[tuple[int, str]]:
    if len(text.encode("utf-8", "surrogatepass")) > limits.MAX_DOCUMENT_BYTES:
        raise TextNotAListError(
            "$", f"This text is too large: a list is at most {limits.MAX_DOCUMENT_BYTES // 1024} kB of text."
        )
    lines = text.splitlines()
    if len(lines) > limits.MAX_TEXT_LIST_LINES:
        raise TextNotAListError(
            "$",
            f"This text has {len(lines):,} lines: a list is at most {limits.MAX_TEXT_LIST_LINES:,} lines.",
        )
    for number, line in enumerate(lines, start=1):
        if len(line) > limits.MAX_TEXT_LINE_LENGTH:
            raise TextNotAListError(
                f"line {number}",
                f"line {number} is {len(line):,} characters long: a line of a list is at most "
                f"{limits.MAX_TEXT_LINE_LENGTH:,}.",
            )
    # Each run of spaces (tabs, non-breaking spaces) is one space: names match ignoring spaces anyway,
    # and no pattern then meets a long run of them.
    return [(number, " ".join(line.split())) for number, line in enumerate(lines, start=1)]


def _unit_or_heading(reading: _Reading, known: UnitNames, number: int, line: str) -> None:
    entry = _exported_unit(known, number, line) or _typed_unit(known, number, line)
    if entry is not None:
        reading.entries.append(entry)
    elif _heading(reading, known, line) or (line.endswith(":") and reading.name is not None):
        return  # "Infantry:" and other headings of the player's own
    elif reading.lines_read == 1 and not known.suggest(line, cutoff=0.85):
        reading.name = line[: limits.NAME_MAX_LENGTH]  # the first line, unless a typo of a unit's name
    else:
        _unknown(reading, known, number, line)


def _lookup(known: UnitNames, name: str) -> UnitProfile | None:
    found = known.units.get(norm(name))
    return found[0] if found else None


def _exported_unit(known: UnitNames, number: int, line: str) -> _Entry | None:
    rider = _RIDER.match(line)
    rest = line[rider.end() :] if rider else line
    match = _EXPORTED.match(rest)
    if match is None:
        return None
    name = match["name"]
    unit = _lookup(known, name)
    unknown = re.fullmatch(r"unknown unit '(.+)'", name)
    if unit is None and unknown is None:
        return None
    entry = _Entry(
        line=number,
        id=match["id"],
        unit=unit,
        unit_key=unit.key if unit is not None else (unknown[1] if unknown else name),
        stated_ap=int(match["ap"]) if match["ap"] else None,
        rider=rider[1].lower() if rider else None,
        captured=bool(match["captured"]),
    )
    _apply_notes(entry, match["notes"] or "")
    return entry


def _typed_unit(known: UnitNames, number: int, line: str) -> _Entry | None:
    text = _BULLET.sub("", line, count=1)
    count = 1
    if before := _COUNT_BEFORE.match(text):
        count, text = int(before[1] or before[2]), text[before.end() :]
    elif after := _COUNT_AFTER.search(text):
        count, text = int(after[1] or after[2]), text[: after.start()]
    stated: int | None = None
    notes: list[str] = []
    for _ in range(
        5
    ):  # "Name (captured) (15 AP)", "Name x2 (10 AP)": a count, a cost and notes, in any order
        unit = _lookup(known, text)
        if unit is not None:
            entry = _Entry(number, None, unit, unit.key, stated, count)
            _apply_notes(entry, ", ".join(notes))
            return entry
        if count == 1 and (after := _COUNT_AFTER.search(text)):  # "Name x2 (10 AP)"
            count, text = int(after[1] or after[2]), text[: after.start()]
        elif stated is None and (cost := _trailing_cost(text)):
            stated, text = cost
        elif note := _NOTES.search(text):
            notes.append(note["notes"])
            text = text[: note.start()]
        else:
            return None
    return None


def _trailing_cost(text: str) -> tuple[int, str] | None:
    """The AP typed after a name and the text before them, or None: "Name (15 AP)", "Name (15)",
    "Name [15pts]" (as BattleScribe writes it), "Name - 15 pts", "Name: 15", "Name 15 AP". Each
    character from the end is looked at once."""
    rest = text.rstrip()
    closer = rest[-1:] if rest[-1:] in (")", "]") else ""
    closed = bool(closer)
    rest = rest.removesuffix(closer).rstrip() if closer else rest
    opener = "[" if closer == "]" else "("
    worded = False
    for word in _COST_WORDS:
        before = rest[: len(rest) - len(word)].rstrip()
        if rest[-len(word) :].lower() == word and before[-1:].isdecimal():
            rest, worded = before, True
            break
    start = len(rest)
    while start > 0 and len(rest) - start <= _COST_DIGITS and rest[start - 1].isdecimal():
        start -= 1
    digits = rest[start:]
    if not 1 <= len(digits) <= _COST_DIGITS:
        return None
    before = rest[:start]
    name = before.rstrip()
    spaced = len(name) < len(before)
    opened = name.endswith(opener)
    if opened:
        before = name[:-1]
        name = before.rstrip()
        spaced = len(name) < len(before)
    if name[-1:] in tuple(_COST_SEPARATORS):
        name = name[:-1].rstrip()
    elif not spaced and not (opened and closed and not worded):  # "Name(15)" needs no space
        return None
    return int(digits), name


def _apply_notes(entry: _Entry, notes: str) -> None:
    for note in (part.strip() for part in notes.split(",")):
        lowered = note.casefold()
        platoon = _PLATOON_NOTE.match(note)
        if platoon:
            entry.platoon = platoon["id"]
            entry.slot = None if platoon["slot"] == "?" else platoon["slot"]
        elif lowered == "reserve":
            entry.reserve = True
        elif lowered == "captured":
            entry.captured = True


def _heading(reading: _Reading, known: UnitNames, line: str) -> bool:
    """A line saying what the list is (bloc, faction, role, points limit, catalogue): kept, True."""
    if match := _CATALOGUE.match(line):
        reading.catalogue_version = match["version"].strip()
        return True
    if match := _EXPORT_POINTS.match(line):
        reading.points_limit = int(match["limit"])
        return True
    parts = [part.strip() for part in re.split(r"\s[|–—/-]\s|\s*\|\s*|,\s", line)]
    said: dict[str, Any] = {}
    for part in parts:
        if not _heading_part(said, known, part):
            return False
    for key, value in said.items():
        setattr(reading, key, value)
    return True


def _heading_part(said: dict[str, Any], known: UnitNames, part: str) -> bool:
    label, _, value = part.partition(":")
    if value and norm(label) in {"bloc", "faction", "role"}:
        part = value.strip()
    lowered = part.casefold()
    if lowered in _IGNORED_PARTS or re.fullmatch(r"\d{1,3}(?:\.\d)?%", part):
        return True
    if lowered.startswith("claims "):
        said["faction"] = known.factions.get(norm(part[7:]), part[7:].strip())
        return True
    if lowered in ROLES:
        said["role"] = lowered
        return True
    points = _POINTS.match(part)
    if points and not part.isdigit():  # a bare number is not a limit
        said["points_limit"] = int(points["limit"])
        return True
    if norm(part) in known.blocs:
        said["bloc"] = known.blocs[norm(part)]
        return True
    if re.fullmatch(r".+?\s\d{1,3}\.\d%", part):
        return True  # the faction the export counts the list as, which it need not claim
    if norm(part) in known.factions:
        said["faction"] = known.factions[norm(part)]
        return True
    return False


def _unknown(reading: _Reading, known: UnitNames, number: int, line: str) -> None:
    name = _BULLET.sub("", line, count=1)
    name = _COUNT_BEFORE.sub("", name, count=1)
    name = _EXPORTED_TAIL.sub("", name, count=1)  # an exported line of a unit we do not know
    for _ in range(3):
        stripped = _NOTES.sub("", name, count=1)
        cost = _trailing_cost(stripped)
        stripped = (cost[1] if cost else stripped).strip()
        if stripped == name:
            break
        name = stripped
    name = name or line
    # Past the sentences an answer shows, no suggestion is looked for: each costs a pass over the catalogue.
    suggestions = known.suggest(name) if len(reading.errors) < MAX_SENTENCES else []
    shown = limits.excerpt(name, limits.NAME_MAX_LENGTH).strip("'\"")
    sentence = f'line {number}: no unit called "{shown}" in the catalogue.'
    if suggestions:
        reading.suggested += 1
        sentence += did_you_mean(suggestions)
    reading.errors.append((number, sentence))


def _platoon_line(reading: _Reading, known: UnitNames, number: int, line: str) -> None:
    match = _PLATOON_LINE.match(line)
    if match is None:
        reading.errors.append(
            (number, f'line {number}: a platoon is written "[p1] Chart name: slot: unit [e1]; …".')
        )
        return
    title = match["chart"]
    unknown = re.fullmatch(r"unknown chart '(.+)'", title)
    chart = known.charts.get(norm(title)) or (unknown[1] if unknown else None)
    if chart is None:
        reading.errors.append(
            (
                number,
                f'line {number}: "{limits.excerpt(title).strip(chr(39))}" is not a platoon chart {CHARTS_SEEN}: '
                f"{CHARTS_THEN}.",
            )
        )
        return
    members = re.findall(r"\[([^\]\s]{1,64})\](?=;|$)", match["members"])
    reading.platoons.append({"id": match["id"], "chart": chart, "members": list(dict.fromkeys(members))})


def _fortification_line(reading: _Reading, number: int, line: str) -> None:
    match = _FORT_LINE.match(line)
    if match is None:
        reading.errors.append(
            (
                number,
                f'line {number}: a fortification is written "[f1] bunker, bought" or "[f1] strongpoint of unit [e1]".',
            )
        )
    elif not (match["how"] or "").startswith("granted"):  # granted ones come from the campaign, not the list
        reading.fortifications.append({"id": match["id"], "kind": match["kind"], "unit": match["unit"]})


def _finish(reading: _Reading, known: UnitNames, text: str, version: str, bloc: str | None) -> TextList:
    if not reading.entries and not reading.suggested:
        raise TextNotAListError("$", _nothing_read(text))
    if reading.errors:
        errors = sorted(reading.errors)[:MAX_SENTENCES]
        first = errors[0]
        raise ListFormatError(f"line {first[0]}", first[1], tuple((f"line {n}", why) for n, why in errors))
    total = sum(entry.count for entry in reading.entries)
    if total > limits.MAX_ENTRIES:
        raise ListFormatError(
            "$", f"This list has {total:,} units: a list holds at most {limits.MAX_ENTRIES:,}."
        )
    entries = _expand(reading)
    for entry in reading.entries:
        _check_cost(reading, entry)
    chosen_bloc = reading.bloc or bloc or _bloc_of(reading.entries)
    if chosen_bloc is None:
        raise ListFormatError(
            "$",
            'The text names only mercenaries and no bloc: add a line with the bloc they fight for, such as "Allies".',
        )
    limit = reading.points_limit
    if limit is None:
        limit = max(
            limits.POINTS_LIMIT_MIN, min(limits.POINTS_LIMIT_MAX, sum(_cost(e) for e in reading.entries))
        )
        reading.warnings.append(
            FieldProblem(
                "$",
                NOT_READ,
                f"The text gives no points limit: it is taken as {limit} AP, what the units cost.",
            )
        )
    document = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "name": reading.name or f"{chosen_bloc} list",
        "bloc": chosen_bloc,
        "faction": reading.faction,
        "points_limit": max(limits.POINTS_LIMIT_MIN, min(limits.POINTS_LIMIT_MAX, limit)),
        "catalogue_version": (reading.catalogue_version or version)[: limits.CATALOGUE_VERSION_MAX_LENGTH],
        "role": reading.role,
        "entries": entries,
        "platoons": reading.platoons[: limits.MAX_PLATOONS],
        "fortifications": reading.fortifications[: limits.MAX_FORTIFICATIONS],
    }
    return TextList(document=document, warnings=tuple(reading.warnings))


def _nothing_read(text: str) -> str:
    start = text.lstrip()[:1]
    if start in ("{", "[", "<"):
        return (
            "This looks like a JSON or XML file rather than a list typed as text, and no line of it "
            "names a unit of the catalogue."
        )
    if not start:
        return 'The text is empty: write one unit a line, such as "Rifle Squad (6 AP)".'
    return (
        "No line of this text names a unit of the catalogue: write one unit a line, with its cost if "
        'you like, such as "Rifle Squad (6 AP)" or "2x Rifle Squad".'
    )


def _expand(reading: _Reading) -> list[dict[str, Any]]:
    """The entries with their counts spelled out, given ids, riders joined to the unit above them."""
    used = {entry.id for entry in reading.entries if entry.id and _ID.match(entry.id)}
    fresh = (f"e{n}" for n in range(1, 10**6) if f"e{n}" not in used)
    entries: list[dict[str, Any]] = []
    carrier: str | None = None
    for entry in reading.entries:
        for index in range(entry.count):
            ident = entry.id if entry.id and _ID.match(entry.id) and index == 0 else next(fresh)
            ridden = carrier if entry.rider else None
            entries.append(
                {
                    "id": ident,
                    "unit": entry.unit_key,
                    "joined_to": ridden if entry.rider == "joined by" else None,
                    "pilot_of": ridden if entry.rider == "piloted by" else None,
                    "captured": entry.captured,
                    "reserve": entry.reserve,
                    "platoon": entry.platoon,
                    "slot": entry.slot[: limits.KEY_MAX_LENGTH] if entry.slot else None,
                }
            )
            if not entry.rider:
                carrier = ident
    return entries


def _cost(entry: _Entry) -> int:
    return (entry.unit.ap if entry.unit is not None else 0) * entry.count


def _check_cost(reading: _Reading, entry: _Entry) -> None:
    unit = entry.unit
    if unit is None or entry.stated_ap is None or entry.stated_ap in (unit.ap, unit.ap * entry.count):
        return
    reading.warnings.append(
        FieldProblem(
            f"line {entry.line}",
            COST_DIFFERS,
            f"line {entry.line}: the text says {entry.stated_ap} AP for {unit.name}, the catalogue "
            f"{unit.ap * entry.count if entry.count > 1 else unit.ap} AP; the catalogue's cost is used.",
        )
    )


def _bloc_of(entries: list[_Entry]) -> str | None:
    blocs = Counter(
        e.unit.bloc for e in entries if e.unit is not None and not e.unit.mercenary and not e.captured
    )
    return blocs.most_common(1)[0][0] if blocs else None
