"""The one reader of every list a user gives: pasted, uploaded, sent to the API or to the command.

``list_read`` takes bytes or text (or JSON already parsed by the API) and tells the kinds apart by
content, never by a file's name:

- a zip (its first bytes ``PK\\x03\\x04``) is a ``.rosz``: a BattleScribe roster zipped;
- XML is a ``.ros``: a BattleScribe roster;
- JSON with a ``roster`` object is a New Recruit export; other JSON is our list format;
- anything else is a list typed as text: the site's chat export or "Unit name (AP)" lines, matched by
  name against the catalogue (``armies/textlists.py``); so is text that starts like XML or JSON but is
  not well-formed ("<3 my list", "[Allies]" on its first line), when it reads as one.

A roster is matched against a catalogue (the one asked for, else the one our export says the list was
made with, else the newest BattleScribe one) and
comes back as a document of our format, with the warnings of its import; a document of our format
comes back as it was, checked. Both are then taken exactly as before by the import, the validator,
the API and ``validate_list``.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from armies import selectors
from armies import validation as v
from armies.models import Catalogue
from armies.rosters import (
    ImportWarning,
    Roster,
    RosterError,
    resolve_roster,
    roster_from_bytes,
    roster_from_new_recruit,
)
from armies.rosters.notes import read_roster_notes
from armies.rosters.read import check_roster_size, is_zip
from armies.rosters.resolve import bounded
from armies.rosters.text import roster_from_text
from armies.textlists import TextNotAListError, read_text_list
from armies.validation import limits
from armies.validation.listformat import JsonNumberTooLongError, json_document_from_text, json_loads

__all__ = ["ListIntake", "ListTextError", "TextListError", "list_read"]


class ListTextError(v.ListFormatError):
    """Text that is not a list at all: not JSON, broken JSON, or too large to read."""


class TextListError(v.ListFormatError):
    """Text read as a list typed by hand that names no unit, or lines that cannot be read: each sentence
    says which line and why (with close matches for a misspelt name)."""

    default_code = "text-list-unreadable"


def _json_text(text: str) -> Any:
    try:
        return json_document_from_text(text)
    except v.ListFormatError as exc:
        raise ListTextError(exc.path, exc.reason) from exc


@dataclass(frozen=True)
class ListIntake:
    document: dict[str, Any]  # our list format, checked
    plain: v.ArmyList
    warnings: tuple[ImportWarning, ...]
    source: str  # "list", "ros", "rosz", "new-recruit", "roster-text" (shared as text) or "text"
    catalogue: Catalogue | None  # the catalogue a roster or a text was matched against; None for our format

    @property
    def from_roster(self) -> bool:
        """Matched against a catalogue by this reader (a roster or a text), not a document of our format."""
        return self.source != "list"


def list_read(
    *, data: bytes | str | Mapping[str, Any] | list[Any], catalogue: Catalogue | None = None,
    bloc: str | None = None, campaign_ids: Iterable[int] = (),
) -> ListIntake:  # fmt: skip
    """Read any list a user gives, seeing the platoon charts of the whole catalogue and those of
    ``campaign_ids`` (the campaign a list is imported for, one the importer takes part in: the caller
    checks that; never another's). Raises ``ListFormatError`` (a ``RosterError`` for a roster, with
    its own code) with a sentence for what cannot be read, ``CatalogueMissingError`` when a roster
    has no catalogue to be matched against. ``bloc`` is the bloc a mercenaries-only roster fights
    for, when the caller knows it (the form, the campaign); without it such a roster is refused
    with ``roster-bloc-missing``, naming the choice."""
    campaigns = tuple(campaign_ids)
    if isinstance(data, Mapping | list):
        return _from_json(data, catalogue, bloc, campaigns)
    if isinstance(data, str):
        data = _base64_zip(data) or data
    if isinstance(data, bytes):
        if is_zip(data):
            return _from_roster(roster_from_bytes(data), catalogue, bloc, campaigns)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RosterError(
                "list-not-text",
                "This file is neither a list, a roster (.ros, .rosz or a New Recruit .json) nor text.",
            ) from exc
    else:
        text = data.removeprefix("\ufeff")
    start = text.lstrip()[:1]
    if start == "<":
        try:
            roster = roster_from_bytes(text.encode("utf-8"))
        except RosterError as exc:
            if exc.code not in _NOT_WELL_FORMED:
                raise
            return _plain_text(text, catalogue, bloc, campaigns, instead_of=exc)  # "<3 my list"
        return _from_roster(roster, catalogue, bloc, campaigns)
    if start in ("{", "["):
        if len(text) > limits.MAX_DOCUMENT_BYTES and '"roster"' in text[:200]:
            # A New Recruit export repeats every card's text: it may be larger than a list of ours.
            return _from_json(_large_json(text), catalogue, bloc, campaigns)
        try:
            document = _json_text(text)
        except ListTextError as exc:
            return _plain_text(text, catalogue, bloc, campaigns, instead_of=exc)  # "[Allies]\nRanger Squad"
        return _from_json(document, catalogue, bloc, campaigns)
    return _plain_text(text, catalogue, bloc, campaigns)


# A roster's refusals for XML that is not well-formed (or cut short): the text may be a list typed by hand.
_NOT_WELL_FORMED = frozenset({"roster-unreadable", "roster-truncated"})


def _plain_text(
    text: str,
    catalogue: Catalogue | None,
    bloc: str | None,
    campaigns: tuple[int, ...] = (),
    *,
    instead_of: v.ListFormatError | None = None,
) -> ListIntake:
    """Read a list typed as text. ``instead_of`` is the refusal of the document the text starts like
    (XML, JSON) but is not a well-formed one of: raised instead when the text is no typed list either."""
    if len(text) > limits.MAX_DOCUMENT_BYTES:
        if instead_of is not None:
            raise instead_of
        _json_text(text)  # refused with the size it may have, as pasted JSON is
    shared = roster_from_text(text)
    if shared is not None:  # BattleScribe's or New Recruit's roster shared as text
        return _from_roster(shared, catalogue, bloc)
    catalogue = catalogue or selectors.catalogue_default()
    if catalogue is None:
        if instead_of is not None:
            raise instead_of
        raise selectors.CatalogueMissingError("no catalogue imported yet")
    plain_catalogue = selectors.catalogue_for_validation(catalogue=catalogue, campaign_ids=campaigns)
    try:
        read = read_text_list(
            text,
            plain_catalogue.units,
            catalogue_version=plain_catalogue.version,
            charts=plain_catalogue.platoon_charts,
            factions=plain_catalogue.factions,
            bloc=bloc,
        )
    except TextNotAListError as exc:
        if instead_of is not None:  # no line reads as a unit: say why it is not the document it looks like
            raise instead_of from exc
        raise TextListError("$", exc.message, tuple(("$", why) for _where, why in exc.errors)) from exc
    except v.ListFormatError as exc:
        # Each sentence names its line already: the sentences alone, the first as the message.
        raise TextListError("$", exc.message, tuple(("$", why) for _where, why in exc.errors)) from exc
    warnings = bounded(
        [ImportWarning(problem.code, problem.message, problem.field) for problem in read.warnings]
    )
    plain = v.army_list_from_json(read.document)
    return ListIntake(
        document=read.document, plain=plain, warnings=warnings, source="text", catalogue=catalogue
    )


def _large_json(text: str) -> Any:
    check_roster_size(len(text))
    try:
        return json_loads(text)
    except JsonNumberTooLongError as exc:
        raise RosterError(
            "roster-unreadable", f"This New Recruit export cannot be read: {exc.sentence}."
        ) from exc
    except (ValueError, RecursionError) as exc:
        raise RosterError(
            "roster-unreadable", "This New Recruit export cannot be read: it is not whole JSON."
        ) from exc


def _base64_zip(text: str) -> bytes | None:
    """A ``.rosz`` sent to the API as base64 text (JSON cannot carry bytes)."""
    stripped = text.strip()
    if not stripped.startswith("UEsDB") or len(stripped) > limits.MAX_ROSTER_BYTES * 4 // 3 + 4:
        return None
    try:
        return base64.b64decode(stripped, validate=True)
    except (binascii.Error, ValueError):
        return None


def _from_json(
    data: Any, catalogue: Catalogue | None, bloc: str | None, campaigns: tuple[int, ...] = ()
) -> ListIntake:
    if isinstance(data, Mapping) and "roster" in data and "format" not in data:
        return _from_roster(roster_from_new_recruit(data), catalogue, bloc, campaigns)
    plain = v.army_list_from_json(data)
    return ListIntake(document=dict(data), plain=plain, warnings=(), source="list", catalogue=None)


def _from_roster(
    roster: Roster, catalogue: Catalogue | None, bloc: str | None, campaigns: tuple[int, ...] = ()
) -> ListIntake:
    catalogue = catalogue or selectors.catalogue_for_rosters(
        made_with=read_roster_notes(roster.notes).catalogue
    )
    if catalogue is None:
        raise selectors.CatalogueMissingError("no catalogue imported yet")
    resolved = resolve_roster(
        roster,
        selectors.catalogue_for_validation(catalogue=catalogue, campaign_ids=campaigns),
        selectors.roster_index(catalogue=catalogue),
        bloc=bloc,
    )
    plain = v.army_list_from_json(resolved.document)
    return ListIntake(
        document=resolved.document,
        plain=plain,
        warnings=resolved.warnings,
        source=roster.shape,
        catalogue=catalogue,
    )
