"""A campaign export becoming a new campaign on this site, whole or not at all.

The file is checked first (``exchange.checks``: every problem by path, the
work budgeted by the bounds in ``exchange.limits``), then written in one
transaction, section by section in the order of ``exchange.spec.SECTIONS``
with ``bulk_create``, each row's document id mapped to its new database id.
Rows keep their order, which the campaign's replay depends on (it walks the log
in id order). Three things are written after the rows exist: references to a
later row (``superseded_by``, ``reverses``, a battle's ``result_order`` in the
log), and the rows' own timestamps, which Django would otherwise set to now.

People are never matched to this site's accounts: a file is anyone's to write,
and a username in it says nothing of who has that username here. Only the
importing user is tied to an account, as the organiser. Every player becomes a
placeholder under the name their place is shown under (with a new claim link the
organisers hand out); co-organisers are left out (``people_notes`` says so on the
import's result); every other column naming a user is left empty, and a log
entry keeps the name of who acted in ``actor_name``, which the timeline shows as
an imported name. Registrations carry their snapshot: a catalogue of the same
name and version is used if the site has it, else an empty one is created to
hold the name and version (the campaign's own catalogue is left unset then).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.db import DatabaseError, IntegrityError, connection, models, transaction

from armies.models import Catalogue
from campaign.limits import IMPORTED_NAME_MAX_LENGTH, PLACEHOLDER_NAME_MAX_LENGTH
from campaign.models import Bye, Campaign, LogKind
from campaign.models.players import new_claim_token
from campaign.services.log import log_write
from campaign.services.versions import results_changed
from core.errors import FieldProblem
from exchange.checks import ImportRefusedError, document_check
from exchange.spec import (
    BATTLE_SIDES,
    CAMPAIGN_PLAIN,
    SECTIONS,
    SIDE_COLUMNS,
    SUBJECT_SECTIONS,
    Section,
    column,
    ref_target,
)

_BATCH = 500
# The text (in characters) of the rows written in one batch: a batch's JSON columns are serialized at once,
# so a batch of rows each near MAX_ROW_CHARACTERS must stay small.
_BATCH_CHARACTERS = 4_000_000
# Rows written between two reports of progress.
_CHUNK = 2000
_UPDATE_BATCH = 1000
# Told how far the import is (percent, what it is doing); exchange.jobs passes one to show on the job's page.
Progress = Callable[[int, str], None]
# Checking is the first part of the work, writing the rest (measured: scripts/bench_exchange.py).
_CHECKED_AT = 25
IMPORTED_CATALOGUE_NOTE = (
    "Created by a campaign import to name the catalogue its registered lists were checked with."
)


def _shown_names(document: Mapping[str, Any]) -> dict[str, str]:
    """Each player's username in the file -> the name their place is shown under (the file's own word)."""
    return {
        row["player"]: _place_name(row)
        for row in document["enrolments"]
        if isinstance(row.get("player"), str)
    }


def _place_name(row: Mapping[str, Any]) -> str:
    return str(row.get("placeholder_name") or row.get("player") or "")[:PLACEHOLDER_NAME_MAX_LENGTH]


def _catalogues(document: Mapping[str, Any]) -> tuple[Catalogue | None, dict[tuple[str, str], int]]:
    head = document["campaign"]
    wanted = head.get("catalogue")
    own = None if wanted is None else Catalogue.objects.filter(**wanted).first()
    pairs = {(row["catalogue_name"], row["catalogue_version"]) for row in document["registrations"]}
    ids: dict[tuple[str, str], int] = {}
    for name, version in sorted(pairs):
        catalogue, _ = Catalogue.objects.get_or_create(
            name=name, version=version,
            defaults={"source": Catalogue.Source.JSON, "import_report": [IMPORTED_CATALOGUE_NOTE]},
        )  # fmt: skip
        ids[(name, version)] = catalogue.pk
    return own, ids


def _subject(subject: str, ids: Mapping[str, Mapping[int, int]]) -> str:
    """A subject naming a row by its file id names its new row; one naming a person ("user:@olga") is kept."""
    kind, _, rest = subject.partition(":")
    section = SUBJECT_SECTIONS.get(kind)
    if section is not None and rest.isdigit() and int(rest) in ids[section]:
        return f"{kind}:{ids[section][int(rest)]}"
    return subject


def _held_by(value: Any, enrolments: Mapping[int, int]) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return enrolments.get(value, value)
    return value


def _characters(value: Any) -> int:
    """About how many characters ``value`` takes as JSON text (its texts, and a few for everything else)."""
    total = 0
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            total += len(item) + 2
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        else:
            total += 4
    return total


def _quiet(_percent: int, _stage: str) -> None:
    return None


class _Writer:
    def __init__(self, document: Mapping[str, Any], campaign: Campaign, progress: Progress) -> None:
        self.document = document
        self.campaign = campaign
        self.names = _shown_names(document)
        self.progress = progress
        self.total = max(1, sum(len(document[section.key]) for section in SECTIONS))
        self.written = 0
        self.ids: dict[str, dict[int, int]] = defaultdict(dict)
        self.catalogue_ids: dict[tuple[str, str], int] = {}
        # (model, column) -> [(new pk, value)] written once every row exists.
        self.later: dict[tuple[type[models.Model], str], list[tuple[int, Any]]] = defaultdict(list)
        # Late references: (section, column, new pk, the document id it names), resolved once all rows exist.
        self.pending: list[tuple[Section, str, int, int]] = []
        # The file's enrolments by file id, read only for a battle that lacks what its sides fought as.
        self.places: dict[int, Mapping[str, Any]] | None = None

    def _row(self, section: Section, row: Mapping[str, Any]) -> models.Model | None:
        values: dict[str, Any] = {}
        stamps: list[tuple[str, Any]] = []
        for name in section.plain:
            if name not in row:  # an optional column an older file lacks: ``_adapt`` fills it
                continue
            field = column(section.model, name)
            if getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False):
                stamps.append((name, row[name]))
            values[name] = row[name]
        for name in section.users:
            values[column(section.model, name).attname] = None  # never an account of this site
            if name in section.names and row.get(name):
                named = self.names.get(row[name], row[name])
                values[section.names[name]] = named[:IMPORTED_NAME_MAX_LENGTH]
        for name in section.refs:
            if name in section.late:
                continue
            target, _ = ref_target(section, name)
            value = row[name]
            values[column(section.model, name).attname] = None if value is None else self.ids[target][value]
        if section.model is not Bye:
            values["campaign_id"] = self.campaign.pk
        if not self._adapt(section, row, values):
            return None
        instance = section.model(**values)
        instance._exchange_stamps = stamps  # type: ignore[attr-defined]
        return instance

    def _adapt(self, section: Section, row: Mapping[str, Any], values: dict[str, Any]) -> bool:
        """The few columns that are not copied as they are; False: the row is left out."""
        if section.key == "co_organisers":
            return False  # an organiser's powers are given by this site's organisers, never by a file
        if section.key == "enrolments":
            values["placeholder_name"] = _place_name(row)
            values["claim_token"] = new_claim_token()
        elif section.key == "registrations":
            values["catalogue_id"] = self.catalogue_ids[(row["catalogue_name"], row["catalogue_version"])]
        elif section.key == "battles":
            self._sides(row, values)
        elif section.key == "log":
            values["subject"] = _subject(row["subject"], self.ids)
            if row["field"] == "held_by" and row["kind"] == LogKind.SECTOR_CHANGED:
                values["before"] = _held_by(row["before"], self.ids["enrolments"])
                values["after"] = _held_by(row["after"], self.ids["enrolments"])
        return True

    def _sides(self, row: Mapping[str, Any], values: dict[str, Any]) -> None:
        """A battle of an older file, without what its sides fought as: each side's enrolment in the file."""
        if all(name in row for name in BATTLE_SIDES):
            return
        if self.places is None:
            self.places = {place["id"]: place for place in self.document["enrolments"]}
        for side in ("attacker", "defender"):
            place = self.places[row[side]]
            for name in SIDE_COLUMNS:
                values.setdefault(f"{side}_{name}", place[name])

    def section(self, section: Section) -> None:
        """Write the section's rows a batch at a time: never more than one batch of model instances at once."""
        rows = self.document[section.key]
        texts = [name for name, kind in section.plain.items() if not kind.startswith(("int", "bool", "date"))]
        batch: list[tuple[Mapping[str, Any], models.Model]] = []
        weight = 0
        before = self.written
        for done, row in enumerate(rows, start=1):
            instance = self._row(section, row)
            if instance is not None:
                batch.append((row, instance))
                weight += sum(_characters(row[name]) for name in texts if name in row)  # optional columns
            if len(batch) >= _BATCH or weight >= _BATCH_CHARACTERS or (batch and done == len(rows)):
                self._write(section, batch)
                batch, weight = [], 0
            if done % _CHUNK == 0 or done == len(rows):
                self._advanced(before + done, f"writing {section.key} ({done:,} of {len(rows):,})")
        self.written = before + len(rows)

    def _write(self, section: Section, batch: list[tuple[Mapping[str, Any], models.Model]]) -> None:
        made = section.model._default_manager.bulk_create(
            [instance for _, instance in batch], batch_size=_BATCH
        )
        for (row, _), instance in zip(batch, made, strict=True):
            assert instance.pk is not None
            self.ids[section.key][row["id"]] = int(instance.pk)
            for name, value in getattr(instance, "_exchange_stamps", []):
                self.later[(section.model, name)].append((int(instance.pk), value))
            for name in section.late:
                if row[name] is not None:
                    self.pending.append((section, name, int(instance.pk), row[name]))

    def _advanced(self, written: int, stage: str) -> None:
        self.progress(_CHECKED_AT + (95 - _CHECKED_AT) * written // self.total, stage)

    def finish(self) -> None:
        """Write the late references and the timestamps: one statement per column, run for many rows."""
        for section, name, pk, named in self.pending:
            target, _ = ref_target(section, name)
            self.later[(section.model, name)].append((pk, self.ids[target][named]))
        with connection.cursor() as cursor:
            for (model, name), pairs in self.later.items():
                field = column(model, name)
                quoted = connection.ops.quote_name(field.column or name)
                table = connection.ops.quote_name(model._meta.db_table)
                params = [(field.get_db_prep_value(value, connection), pk) for pk, value in pairs]
                if connection.vendor != "postgresql":
                    cursor.executemany(f"UPDATE {table} SET {quoted} = %s WHERE id = %s", params)  # noqa: S608
                    continue
                # PostgreSQL: a statement per row costs a round trip each; one per thousand rows joins a
                # VALUES list instead (typed by a cast, since its parameters arrive untyped).
                kind = field.db_type(connection)
                for start in range(0, len(params), _UPDATE_BATCH):
                    chunk = params[start : start + _UPDATE_BATCH]
                    rows = ", ".join(["(%s, %s)"] * len(chunk))
                    cursor.execute(
                        f"UPDATE {table} SET {quoted} = CAST(v.value AS {kind}) FROM (VALUES {rows}) "  # noqa: S608
                        f"AS v(value, pk) WHERE {table}.id = CAST(v.pk AS bigint)",
                        [item for pair in chunk for item in pair],
                    )


def _campaign(head: Mapping[str, Any], organiser: Any, catalogue: Catalogue | None) -> Campaign:
    values = {name: head[name] for name in CAMPAIGN_PLAIN if name != "created_at"}
    return Campaign.objects.create(organiser=organiser, catalogue=catalogue, **values)


def campaign_import(*, document: Any, user: Any, progress: Progress = _quiet) -> Campaign:
    """A new campaign organised by ``user`` from an export ``document`` (refused whole: ``ImportRefusedError``).

    ``progress`` is told how far the work is as it goes, from checking the file to its last write.
    """
    progress(1, "checking the file")
    document_check(document)
    progress(_CHECKED_AT, "the file is sound: writing the campaign")
    try:
        with transaction.atomic():
            own, catalogue_ids = _catalogues(document)
            campaign = _campaign(document["campaign"], user, own)
            Campaign.objects.filter(pk=campaign.pk).update(created_at=document["campaign"]["created_at"])
            writer = _Writer(document, campaign, progress)
            writer.catalogue_ids = catalogue_ids
            for section in SECTIONS:
                writer.section(section)
            progress(95, "linking the rows and their dates")
            writer.finish()
            log_write(campaign=campaign, kind=LogKind.CAMPAIGN_CREATED, subject="campaign", actor=user,
                      reason="Imported from a campaign export.")  # fmt: skip
            results_changed(campaign=campaign)
    except (IntegrityError, DatabaseError) as error:
        # A row the checks let through but the database refuses (two enrolments of one player, two open
        # rounds): the transaction is rolled back whole; say which rule, briefly.
        raise ImportRefusedError([FieldProblem("", "import-conflict", _conflict(error))]) from error
    campaign.refresh_from_db()
    return campaign


def people_notes(document: Mapping[str, Any]) -> list[str]:
    """What the import's result tells the importer about the people of an imported ``document``."""
    notes: list[str] = []
    helpers = [str(row.get("user")) for row in document["co_organisers"] if row.get("user")]
    if helpers:
        notes.append(
            f"Co-organisers are not imported ({', '.join(helpers)}): add them again from the campaign's "
            "dashboard if they have accounts here."
        )
    places = len(document["enrolments"])
    if places:
        notes.append(
            f"The file's {places} player{'s' * (places != 1)} became placeholders under their names, none "
            "tied to an account here: give each their claim link from the campaign's dashboard to take the "
            "place with everything kept."
        )
    notes.append(
        "The timeline names who did what by the names in the file, marked “imported”, never as an "
        "account of this site."
    )
    return notes


def _conflict(error: Exception) -> str:
    text = " ".join(str(error).split())[:160]
    return f"The file's rows break a rule of the site's database ({text}); nothing was imported."


def imported_rows(campaign: Campaign) -> Iterable[tuple[str, int]]:
    """How many rows of each section ``campaign`` holds (for the import page's summary)."""
    for section in SECTIONS:
        manager = section.model._default_manager
        rows = (
            manager.filter(round__campaign=campaign)
            if section.model is Bye
            else manager.filter(campaign=campaign)
        )
        yield section.key, rows.count()
