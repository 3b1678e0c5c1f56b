"""Platoon charts entered on the site by staff and campaign organisers.

A chart is given in the JSON catalogue format's shape (docs/catalogue-format.md,
"Platoon chart") and checked by that format's own reader, ``read_json_catalogue``,
then against the catalogue it joins (its bloc, faction, units and categories).
An entered chart is never changed or removed afterwards and imports of the
catalogue leave it alone, so a registered list that claims it is always checked
against the chart it was registered with ("Platoon charts entered on the site").
Staff may retire a chart: the builder and the validator then stop offering it for
new claims, while the registered snapshots that claim it keep it.

A chart belongs to the whole catalogue (``campaign_id`` None: entered by staff, or the catalogue's
own data) or to the one campaign whose organiser entered it: only that campaign's lists may claim it
(``armies.selectors.catalogue_for_validation``). Entering and importing are counted per account
(``settings.PLATOON_CHART_RATE``); the whole catalogue holds at most ``limits.MAX_LIVE_CHARTS`` charts
in use, and each campaign at most ``limits.MAX_CAMPAIGN_CHARTS`` of its own, so no account fills the
room that other clubs on the catalogue depend on. Who may enter where is
``armies.permissions.can_enter_chart_into``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.text import slugify

from armies.importers.jsoncatalogue import FORMAT, VERSION, read_json_catalogue, write_json_catalogue
from armies.importers.types import (
    CatalogueFormatError,
    ParsedCatalogue,
    ParsedPlatoonChart,
    ParsedPlatoonSlot,
    SlotRole,
)
from armies.models import Catalogue, Faction, PlatoonChart, Unit
from armies.services import chart_parts
from armies.services.catalogue_store import chart_slots
from armies.validation import limits
from armies.validation.names import NAME_CONTROL_CODE, name_problem
from core.errors import ConflictError, DomainError, FieldProblem, TooManyRequestsError
from core.ratelimit import parse_rate, rate_limit_hit

__all__ = [
    "ChartsExport",
    "ChartsImported",
    "PlatoonChartError",
    "platoon_chart_enter",
    "platoon_chart_retire",
    "platoon_charts_export",
    "platoon_charts_import",
]


class PlatoonChartError(DomainError):
    """A chart that cannot join the catalogue; ``field`` is its path in the chart (``slots[2].units[0]``)."""


@dataclass(frozen=True)
class ChartsImported:
    created: tuple[str, ...]
    unchanged: tuple[str, ...]


def platoon_chart_enter(
    *, catalogue: Catalogue, actor: Any, chart: Mapping[str, Any], campaign_id: int | None = None
) -> PlatoonChart:
    """Add ``chart`` (one chart of the JSON catalogue format; its key may be left out) to ``catalogue``,
    for the whole catalogue (``campaign_id`` None) or for that campaign alone."""
    _count_hit(actor)
    item = dict(chart)
    if not item.get("key") and isinstance(item.get("name"), str) and isinstance(item.get("bloc"), str):
        item["key"] = _free_key(catalogue, item["bloc"], item["name"], campaign_id)
    (parsed,) = _read(catalogue, [item], "")
    with transaction.atomic():
        Catalogue.objects.select_for_update().filter(pk=catalogue.pk).first()
        if _in_scope(catalogue, campaign_id).filter(key=parsed.key).exists():
            raise ConflictError("chart-key-taken", _taken(parsed.key, campaign_id), "key")
        _check_room(catalogue, 1, campaign_id)
        row = _store(catalogue, actor, parsed, campaign_id)
        _bump(catalogue)
    return row


def platoon_charts_import(
    *, catalogue: Catalogue, actor: Any, document: Any, campaign_id: int | None = None
) -> ChartsImported:
    """Enter the platoon charts of a JSON catalogue document (its other parts are not read), for the whole
    catalogue (``campaign_id`` None) or for that campaign alone.

    A chart the catalogue already has, entered exactly so, is left as it is (an import is
    idempotent); one whose key the catalogue holds otherwise refuses the whole import, and so
    does a file that would take the catalogue past ``limits.MAX_LIVE_CHARTS`` charts in use.
    """
    _count_hit(actor)
    if isinstance(document, Mapping) and document.get("units"):
        raise PlatoonChartError(
            "not-charts",
            "this file holds units: a catalogue comes in through the catalogue import, and this import takes "
            "a file of platoon charts as the charts' export writes it",
            "units",
        )
    if isinstance(document, Mapping) and isinstance(document.get("platoon_charts"), list):
        found = len(document["platoon_charts"])
        if found > limits.MAX_CHARTS_IMPORTED:
            raise PlatoonChartError(
                "too-many-charts",
                f"a file may bring at most {limits.MAX_CHARTS_IMPORTED} platoon charts (it has {found:,})",
                "platoon_charts",
            )
        for index, item in enumerate(document["platoon_charts"]):
            _check_sizes(item, _at("platoon_charts", index))
    try:
        parsed_all = read_json_catalogue(document, source="the file")
    except CatalogueFormatError as error:
        raise PlatoonChartError(
            "chart-format", error.reason, (error.path or "$").removeprefix("$.")
        ) from error
    if not parsed_all.platoon_charts:
        raise PlatoonChartError("no-charts", "the file holds no platoon chart", "platoon_charts")
    charts = _read(catalogue, [_chart_json(chart) for chart in parsed_all.platoon_charts], "platoon_charts")
    created: list[str] = []
    unchanged: list[str] = []
    with transaction.atomic():
        Catalogue.objects.select_for_update().filter(pk=catalogue.pk).first()
        existing = {row.key: row for row in _in_scope(catalogue, campaign_id)}
        _check_room(catalogue, sum(1 for parsed in charts if parsed.key not in existing), campaign_id)
        for index, parsed in enumerate(charts):
            row = existing.get(parsed.key)
            if row is None:
                _store(catalogue, actor, parsed, campaign_id)
                created.append(parsed.name)
            elif (
                row.entered
                and row.campaign_id == campaign_id
                and _chart_json(_parsed(row)) == _chart_json(parsed)
            ):
                unchanged.append(parsed.name)
            else:
                raise ConflictError(
                    "chart-key-taken", _taken(parsed.key, campaign_id, row), f"platoon_charts[{index}].key"
                )
        if created:
            _bump(catalogue)
    return ChartsImported(tuple(created), tuple(unchanged))


def platoon_chart_retire(*, chart: PlatoonChart, actor: Any) -> PlatoonChart:
    """Retire ``chart`` (staff decide: ``armies.permissions.can_retire_platoon_chart``): the builder and the
    validator stop offering it for new claims; registered snapshots keep it. Retiring it again does nothing.

    The catalogue's ``charts_revision`` is bumped, so the validator's cached copy is read afresh.
    """
    with transaction.atomic():
        Catalogue.objects.select_for_update().filter(pk=chart.catalogue_id).first()
        row = PlatoonChart.objects.select_for_update().get(pk=chart.pk)
        if row.retired_at is None:
            row.retired_at = timezone.now()
            row.retired_by = actor if getattr(actor, "is_authenticated", False) else None
            row.save(update_fields=["retired_at", "retired_by"])
            _bump(row.catalogue)
    return row


@dataclass(frozen=True)
class ChartsExport:
    """One part of a catalogue's export of charts: a whole document the import takes (``chart_parts``)."""

    document: dict[str, Any]
    part: int
    parts: int


def platoon_charts_export(
    *,
    catalogue: Catalogue,
    campaign_ids: Iterable[int] = (),
    part: int = 1,
    rows: Iterable[PlatoonChart] | None = None,
) -> ChartsExport:
    """The entered charts in use of the whole catalogue and of ``campaign_ids`` (the caller's campaigns: no
    other campaign's own) as JSON catalogue documents (no units: they are the catalogue's), in as many parts
    as the charts' import needs to take each whole; ``platoon_charts`` is written even when empty. Retired
    charts are left out: imported elsewhere they would be offered again. A part past the last is refused
    (``no-such-part``). ``rows``: those charts when the caller has read them already (the charts' page),
    else they are read here."""
    if rows is None:
        scope = Q(campaign__isnull=True) | Q(campaign_id__in=tuple(campaign_ids))
        rows = PlatoonChart.objects.filter(scope, catalogue=catalogue, entered=True, retired_at__isnull=True)
    live = [row for row in rows if row.entered and row.retired_at is None]
    # One chart a key, as the format wants: a campaign's own over the whole catalogue's (what its lists see),
    # of two campaigns' the later campaign's.
    ordered = sorted(live, key=lambda row: (row.campaign_id is not None, row.campaign_id or 0, row.pk))
    by_key = {row.key: row for row in ordered}
    rows = sorted(by_key.values(), key=lambda row: (row.bloc, row.name, row.key))
    document = write_json_catalogue(
        ParsedCatalogue(
            name=f"{catalogue.name} {catalogue.version}"[: limits.CHART_NAME_MAX_LENGTH],
            revision=catalogue.charts_revision,
            source="platoon charts entered on the site",
            bloc=None,
            units=(),
            platoon_charts=tuple(_parsed(row) for row in rows),
        )
    )
    charts = document.pop(chart_parts.KEY, [])
    parts = chart_parts.export_parts(document, charts)
    if not 1 <= part <= len(parts):
        raise PlatoonChartError(
            "no-such-part",
            f"the export has {len(parts)} part{'s' * (len(parts) != 1)}: ask for 1 to {len(parts)}",
            "part",
        )
    return ChartsExport({**document, chart_parts.KEY: parts[part - 1]}, part, len(parts))


# -- checking ------------------------------------------------------------------------------------


def _in_scope(catalogue: Catalogue, campaign_id: int | None) -> QuerySet[PlatoonChart]:
    """The charts a new chart's key must differ from: for the whole catalogue, the whole catalogue's (a key a
    campaign uses is no bar: that campaign's lists keep seeing their own); for a campaign, the whole
    catalogue's (retired or not, as everyone sees them) and that campaign's own, never another campaign's."""
    wide = Q(campaign__isnull=True)
    scope = wide if campaign_id is None else wide | Q(campaign_id=campaign_id)
    return PlatoonChart.objects.filter(scope, catalogue=catalogue)


def _taken(key: str, campaign_id: int | None, row: PlatoonChart | None = None) -> str:
    """The refusal of a key in use (by ``row``, when known: a chart the caller may see); said from what the
    caller may see alone, so it reads the same whatever other campaigns hold."""
    where = "the catalogue" if campaign_id is None else "the catalogue or this campaign"
    other = f"another platoon chart called {key!r} ({row.name})" if row else f"a platoon chart called {key!r}"
    return f"{where} already has {other}: choose another key"


def _count_hit(actor: Any) -> None:
    """One more chart entered or import tried by ``actor``; refused past ``settings.PLATOON_CHART_RATE``."""
    if not rate_limit_hit("platoon-charts", str(getattr(actor, "pk", "") or ""), settings.PLATOON_CHART_RATE):
        count, seconds = parse_rate(settings.PLATOON_CHART_RATE)
        per = {1: "a second", 60: "a minute", 3600: "an hour"}.get(seconds, "a day")
        raise TooManyRequestsError(
            "too-many-chart-entries",
            f"an account may enter or import platoon charts at most {count} time{'s' * (count != 1)} {per}: "
            "try again later",
        )


def _check_room(catalogue: Catalogue, adding: int, campaign_id: int | None) -> None:
    """Refuse charts past ``limits.MAX_LIVE_CHARTS`` in use for the whole catalogue, or past
    ``limits.MAX_CAMPAIGN_CHARTS`` for one campaign (retired ones do not count)."""
    scope = Q(campaign__isnull=True) if campaign_id is None else Q(campaign_id=campaign_id)
    live = PlatoonChart.objects.filter(scope, catalogue=catalogue, retired_at__isnull=True).count()
    if campaign_id is not None and adding and live + adding > limits.MAX_CAMPAIGN_CHARTS:
        raise ConflictError(
            "too-many-campaign-charts",
            f"this campaign has {live:,} platoon charts of its own in use and may have at most "
            f"{limits.MAX_CAMPAIGN_CHARTS:,}: retire the charts it no longer plays to make room",
        )
    if adding and live + adding > limits.MAX_LIVE_CHARTS:
        raise ConflictError(
            "too-many-live-charts",
            f"this catalogue has {live:,} platoon charts in use and may have at most {limits.MAX_LIVE_CHARTS:,}: "
            "staff may retire the charts no longer played to make room",
        )


def _read(catalogue: Catalogue, items: list[dict[str, Any]], prefix: str) -> list[ParsedPlatoonChart]:
    """Check charts with the JSON catalogue format's reader, then against ``catalogue``."""
    for index, item in enumerate(items):
        _check_sizes(item, _at(prefix, index))
    document = {"format": FORMAT, "version": VERSION, "name": "charts", "units": [], "platoon_charts": items}
    try:
        parsed = read_json_catalogue(document, source="the chart").platoon_charts
    except CatalogueFormatError as error:
        where = (error.path or "$").removeprefix("$.platoon_charts")
        field = where.removeprefix("[0]").removeprefix(".") if not prefix else f"{prefix}{where}"
        raise PlatoonChartError("chart-format", _in_words(error.reason, field), field) from error
    facts = _CatalogueFacts(catalogue)
    problems = [
        problem for index, chart in enumerate(parsed) for problem in facts.check(chart, _at(prefix, index))
    ]
    if problems:
        first = problems[0]
        raise PlatoonChartError(first.code, first.message, first.field, problems=problems[:20])
    return [facts.named_faction(chart) for chart in parsed]


def _in_words(reason: str, field: str) -> str:
    """The format's one rule whose schema message quotes the input instead of saying it."""
    if reason.endswith("is not valid under any of the given schemas") and field.rstrip("]").endswith(
        tuple(f"slots[{n}" for n in range(10))
    ):
        return "a slot names the units or the categories that may fill it"
    return reason


def _at(prefix: str, index: int) -> str:
    return f"{prefix}[{index}]" if prefix else ""


def _join(where: str, field: str) -> str:
    return f"{where}.{field}" if where else field


def _check_sizes(item: Any, where: str) -> None:
    """Bounds the JSON catalogue format leaves open, counted before anything is read."""
    slots = item.get("slots") if isinstance(item, Mapping) else None
    if not isinstance(slots, list):
        return
    if len(slots) > limits.MAX_CHART_SLOTS:
        raise PlatoonChartError(
            "too-many-slots", f"a chart has at most {limits.MAX_CHART_SLOTS} slots", _join(where, "slots")
        )
    for index, slot in enumerate(slots):
        slot_name = slot.get("name") if isinstance(slot, Mapping) else None
        if isinstance(slot_name, str) and any(mark in slot_name for mark in limits.SLOT_NAME_FORBIDDEN):
            raise PlatoonChartError(
                "slot-name",
                "a slot's name holds no comma and no line break: a roster's notes could not name it back",
                _join(where, f"slots[{index}].name"),
            )
        if isinstance(slot_name, str) and len(slot_name) > limits.SLOT_NAME_MAX_LENGTH:
            raise PlatoonChartError(
                "slot-name",
                f"a slot's name is at most {limits.SLOT_NAME_MAX_LENGTH} characters, so that a list can name it",
                _join(where, f"slots[{index}].name"),
            )
        for name, bound in (("units", limits.MAX_SLOT_UNITS), ("categories", limits.MAX_SLOT_CATEGORIES)):
            value = slot.get(name) if isinstance(slot, Mapping) else None
            if isinstance(value, list) and len(value) > bound:
                raise PlatoonChartError(
                    f"too-many-{name}",
                    f"a slot names at most {bound} {name}",
                    _join(where, f"slots[{index}].{name}"),
                )
        count = slot.get("count") if isinstance(slot, Mapping) else None
        if isinstance(count, int) and count > limits.MAX_CHART_SLOTS:
            raise PlatoonChartError(
                "too-many-slots", f"a chart has at most {limits.MAX_CHART_SLOTS} slots",
                _join(where, f"slots[{index}].count"),
            )  # fmt: skip


FACTION_COLUMN_LENGTH = PlatoonChart._meta.get_field("faction").max_length or 80


class _CatalogueFacts:
    """What a chart may name in one catalogue: its blocs, factions, units and categories (3 queries)."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.blocs = set(catalogue.bloc_rows.values_list("name", flat=True))
        self.factions = {
            key: (name, bloc)
            for key, name, bloc in Faction.objects.filter(catalogue=catalogue).values_list(
                "key", "name", "bloc"
            )
        }
        self.faction_by_name = {name.casefold(): key for key, (name, _) in self.factions.items()}
        units = Unit.objects.filter(catalogue=catalogue).values_list("key", "category")
        self.units = {key for key, _ in units}
        self.categories = {category for _, category in units if category}

    def faction_key(self, text: str) -> str | None:
        return text if text in self.factions else self.faction_by_name.get(text.casefold())

    def named_faction(self, chart: ParsedPlatoonChart) -> ParsedPlatoonChart:
        """The chart with its faction given by name, as the catalogues give it."""
        key = self.faction_key(chart.faction) if chart.faction else None
        if key is None:
            return chart
        return ParsedPlatoonChart(
            chart.key, chart.name, chart.bloc, chart.slots, self.factions[key][0], chart.advantage
        )

    def check(self, chart: ParsedPlatoonChart, where: str) -> Iterable[FieldProblem]:
        if len(chart.name) > limits.CHART_NAME_MAX_LENGTH:
            yield FieldProblem(
                _join(where, "name"),
                "chart-name",
                f"a chart's name is at most {limits.CHART_NAME_MAX_LENGTH} characters",
            )
        if (problem := name_problem(chart.name)) is not None:
            yield FieldProblem(_join(where, "name"), NAME_CONTROL_CODE, problem)
        if chart.bloc not in self.blocs:
            yield FieldProblem(
                _join(where, "bloc"), "chart-bloc",
                f"{chart.bloc!r} is not a bloc of this catalogue ({', '.join(sorted(self.blocs))})",
            )  # fmt: skip
        if chart.faction:
            key = self.faction_key(chart.faction)
            if key is None or len(self.factions[key][0]) > FACTION_COLUMN_LENGTH:
                yield FieldProblem(
                    _join(where, "faction"),
                    "chart-faction",
                    f"this catalogue has no faction {chart.faction!r}",
                )
            elif self.factions[key][1] != chart.bloc:
                yield FieldProblem(
                    _join(where, "faction"), "chart-faction",
                    f"{self.factions[key][0]} is a faction of {self.factions[key][1]}, not of {chart.bloc}",
                )  # fmt: skip
        roles = [slot.role for slot in chart.slots]
        if roles.count("command") != 1:
            yield FieldProblem(_join(where, "slots"), "chart-command", "a chart has exactly one command slot")
        if "combat" not in roles:
            yield FieldProblem(_join(where, "slots"), "chart-combat", "a chart has at least one combat slot")
        if sum(slot.count for slot in chart.slots) > limits.MAX_CHART_SLOTS:
            yield FieldProblem(
                _join(where, "slots"), "too-many-slots", f"a chart has at most {limits.MAX_CHART_SLOTS} slots"
            )
        for index, slot in enumerate(chart.slots):
            yield from self._check_slot(slot, _join(where, f"slots[{index}]"))

    def _check_slot(self, slot: ParsedPlatoonSlot, where: str) -> Iterable[FieldProblem]:
        if not slot.units and not slot.categories:
            yield FieldProblem(
                where, "slot-empty", "a slot names the units or the categories that may fill it"
            )
        for index, key in enumerate(slot.units):
            if key not in self.units:
                yield FieldProblem(
                    f"{where}.units[{index}]", "slot-unknown-unit", f"this catalogue has no unit {key!r}"
                )
        for index, category in enumerate(slot.categories):
            if category not in self.categories:
                yield FieldProblem(
                    f"{where}.categories[{index}]", "slot-unknown-category",
                    f"no unit of this catalogue is of the category {category!r}",
                )  # fmt: skip


# -- storing -------------------------------------------------------------------------------------


def _store(
    catalogue: Catalogue, actor: Any, chart: ParsedPlatoonChart, campaign_id: int | None
) -> PlatoonChart:
    keys_by_category: dict[str, list[str]] = {}
    for key, category in Unit.objects.filter(catalogue=catalogue).values_list("key", "category"):
        keys_by_category.setdefault(category, []).append(key)
    slots = chart_slots(chart.slots, keys_by_category)
    for slot, listed in zip(slots, _listed(chart.slots), strict=True):
        slot["listed"] = listed  # the units named, apart from those of its categories: for the export
    return PlatoonChart.objects.create(
        catalogue=catalogue, key=chart.key, name=chart.name, bloc=chart.bloc, faction=chart.faction or "",
        slots=slots, advantage=chart.advantage or "", entered=True, campaign_id=campaign_id,
        entered_by=actor if getattr(actor, "is_authenticated", False) else None, entered_at=timezone.now(),
    )  # fmt: skip


def _listed(slots: Iterable[ParsedPlatoonSlot]) -> list[list[str]]:
    """Each stored slot's own units, in the order ``chart_slots`` writes the slots (counts spelled out)."""
    return [sorted(slot.units) for slot in slots for _ in range(max(1, slot.count))]


def _bump(catalogue: Catalogue) -> None:
    Catalogue.objects.filter(pk=catalogue.pk).update(charts_revision=F("charts_revision") + 1)
    catalogue.refresh_from_db(fields=["charts_revision"])


def _free_key(catalogue: Catalogue, bloc: str, name: str, campaign_id: int | None) -> str:
    def slug(text: str) -> str:  # the JSON catalogue format's keys: letters, digits, '-' and '.'
        return re.sub(r"[^a-z0-9]+", "-", slugify(text)).strip("-")

    base = f"{slug(bloc) or 'bloc'}.{slug(name) or 'platoon'}"[:100].strip("-.")
    taken = set(_in_scope(catalogue, campaign_id).filter(key__startswith=base).values_list("key", flat=True))
    return next(key for n in range(1, 10_000) if (key := base if n == 1 else f"{base}-{n}") not in taken)


def _parsed(row: PlatoonChart) -> ParsedPlatoonChart:
    """A stored chart as the JSON catalogue format reads it: one slot per stored slot."""
    return ParsedPlatoonChart(
        key=row.key,
        name=row.name,
        bloc=row.bloc,
        slots=tuple(
            ParsedPlatoonSlot(
                role=_role(slot["role"]),
                required=bool(slot.get("required")),
                units=tuple(slot.get("listed", slot.get("units", ()))),
                categories=tuple(slot.get("categories", ())),
                name=slot.get("name"),
            )
            for slot in row.slots
        ),
        faction=row.faction or None,
        advantage=row.advantage or None,
    )


def _role(role: str) -> SlotRole:
    return "command" if role == "command" else "support" if role == "support" else "combat"


def _chart_json(chart: ParsedPlatoonChart) -> dict[str, Any]:
    document = write_json_catalogue(ParsedCatalogue("x", 0, "", None, (), platoon_charts=(chart,)))
    return dict(document["platoon_charts"][0])
