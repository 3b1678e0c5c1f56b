"""A campaign export becoming a new campaign on this site, whole or not at all.

The file is checked first (``exchange.checks``: every problem by path, the
work budgeted by the bounds in ``exchange.limits``), then written in one
transaction, section by section in the order of ``exchange.spec.SECTIONS``
with ``bulk_create``, each row's document id mapped to its new database id.
Rows keep their order, which the campaign's replay depends on (it walks the log
in id order). Three things are written after the rows exist: references to a
later row (``superseded_by``, ``reverses``, a battle's ``result_order`` in the
log), and the rows' own timestamps, which Django would otherwise set to now.

People are matched by username: the importing user becomes the organiser;
a co-organiser missing here is left out; a player missing here becomes a
placeholder with their name (and a new claim link); an actor missing here
becomes "the site". Registrations carry their snapshot: a catalogue of the same
name and version is used if the site has it, else an empty one is created to
hold the name and version (the campaign's own catalogue is left unset then).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, connection, models, transaction

from armies.models import Catalogue
from campaign.models import Bye, Campaign, LogKind
from campaign.models.players import new_claim_token
from campaign.services.log import log_write
from campaign.services.versions import results_changed
from core.errors import FieldProblem
from exchange.checks import ImportRefusedError, document_check
from exchange.spec import CAMPAIGN_PLAIN, SECTIONS, SUBJECT_SECTIONS, Section, column, ref_target

_BATCH = 500
# The text (in characters) of the rows written in one batch: a batch's JSON columns are serialized at once,
# so a batch of rows each near MAX_ROW_CHARACTERS must stay small.
_BATCH_CHARACTERS = 4_000_000
# Rows written between two reports of progress.
_CHUNK = 2000
_UPDATE_BATCH = 1000
_USER_SUBJECT = "user:@"
# Told how far the import is (percent, what it is doing); exchange.jobs passes one to show on the job's page.
Progress = Callable[[int, str], None]
# Checking is the first part of the work, writing the rest (measured: scripts/bench_exchange.py).
_CHECKED_AT = 25
IMPORTED_CATALOGUE_NOTE = (
    "Created by a campaign import to name the catalogue its registered lists were checked with."
)


def _users(document: Mapping[str, Any]) -> dict[str, int]:
    """Every username the file names that exists here, to its id."""
    names: set[str] = set()
    for section in SECTIONS:
        for row in document[section.key]:
            names.update(row[name] for name in section.users if row.get(name))
    for row in document["log"]:
        if row["subject"].startswith(_USER_SUBJECT):
            names.add(row["subject"].removeprefix(_USER_SUBJECT))
    found: dict[str, int] = {}
    users = get_user_model()._default_manager
    ordered = sorted(names)
    for start in range(0, len(ordered), 900):
        chunk = ordered[start : start + 900]
        found.update(users.filter(username__in=chunk).values_list("username", "id"))
    return found


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


def _subject(subject: str, ids: Mapping[str, Mapping[int, int]], users: Mapping[str, int]) -> str:
    kind, _, rest = subject.partition(":")
    if subject.startswith(_USER_SUBJECT):
        user_id = users.get(subject.removeprefix(_USER_SUBJECT))
        return subject if user_id is None else f"user:{user_id}"
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
    def __init__(
        self, document: Mapping[str, Any], campaign: Campaign, users: Mapping[str, int], progress: Progress
    ) -> None:
        self.document = document
        self.campaign = campaign
        self.users = users
        self.progress = progress
        self.total = max(1, sum(len(document[section.key]) for section in SECTIONS))
        self.written = 0
        self.ids: dict[str, dict[int, int]] = defaultdict(dict)
        self.catalogue_ids: dict[tuple[str, str], int] = {}
        # (model, column) -> [(new pk, value)] written once every row exists.
        self.later: dict[tuple[type[models.Model], str], list[tuple[int, Any]]] = defaultdict(list)
        # Late references: (section, column, new pk, the document id it names), resolved once all rows exist.
        self.pending: list[tuple[Section, str, int, int]] = []

    def _row(self, section: Section, row: Mapping[str, Any]) -> models.Model | None:
        values: dict[str, Any] = {}
        stamps: list[tuple[str, Any]] = []
        for name in section.plain:
            field = column(section.model, name)
            if getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False):
                stamps.append((name, row[name]))
            values[name] = row[name]
        for name in section.users:
            username = row.get(name)
            values[column(section.model, name).attname] = self.users.get(username) if username else None
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
            user_id = values["user_id"]
            return user_id is not None and user_id != self.campaign.organiser_id
        if section.key == "enrolments":
            if values["player_id"] is None:
                values["placeholder_name"] = values["placeholder_name"] or str(row.get("player") or "")[:60]
                values["claim_token"] = new_claim_token()
        elif section.key == "registrations":
            values["catalogue_id"] = self.catalogue_ids[(row["catalogue_name"], row["catalogue_version"])]
        elif section.key == "log":
            values["subject"] = _subject(row["subject"], self.ids, self.users)
            if row["field"] == "held_by" and row["kind"] == LogKind.SECTOR_CHANGED:
                values["before"] = _held_by(row["before"], self.ids["enrolments"])
                values["after"] = _held_by(row["after"], self.ids["enrolments"])
        return True

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
                weight += sum(_characters(row[name]) for name in texts)
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
            users = _users(document)
            own, catalogue_ids = _catalogues(document)
            campaign = _campaign(document["campaign"], user, own)
            Campaign.objects.filter(pk=campaign.pk).update(created_at=document["campaign"]["created_at"])
            writer = _Writer(document, campaign, users, progress)
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
