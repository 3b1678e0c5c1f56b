"""Reads for the armies pages and API: catalogues, lists and verdicts."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Count, F, Q, QuerySet

from accounts.models import User
from armies import validation as v
from armies.models import ArmyList, CapturedVehicle, Catalogue, Faction, PlatoonChart, Unit
from armies.permissions import can_change_army_list, can_view_army_list, member_campaigns
from armies.rosters.resolve import RosterIndex
from armies.rosters.write import RosterIds, roster_to_rosz
from armies.textnames import norm
from core.errors import DomainError

# The validator's view of a catalogue, and each campaign's own charts (retired or not) to add to it; and
# those views with some campaigns' charts added, under the catalogue's key and the campaigns' ids.
_Built = tuple[v.Catalogue, dict[int, list[tuple[bool, v.PlatoonChart]]]]
_CACHE: OrderedDict[tuple[Any, ...], _Built] = OrderedDict()
_CACHE_SIZE = 32


def catalogues_for_listing(*, with_blocs: bool = True) -> QuerySet[Catalogue]:
    """Catalogues with their unit counts (and their blocs, one query more, for pages that show them)."""
    catalogues = Catalogue.objects.annotate(unit_count=Count("units")).order_by("name", "-updated_at")
    return catalogues.prefetch_related("bloc_rows") if with_blocs else catalogues


def catalogue_default() -> Catalogue | None:
    """The catalogue a new list or a pasted list uses unless it says otherwise: the newest."""
    return Catalogue.objects.order_by("-updated_at", "-pk").first()


def catalogue_for_list_document(
    *, document: Any, catalogue_id: int | None = None, version: str | None = None
) -> Catalogue | None:
    """The catalogue named by id, else the one of ``version`` (the terms' version) or of the
    version the list records, else the default."""
    if catalogue_id is not None:
        return Catalogue.objects.filter(pk=catalogue_id).first()
    if version is None and isinstance(document, dict):
        version = document.get("catalogue_version")
    if isinstance(version, str):
        match = Catalogue.objects.filter(version=version).order_by("-updated_at").first()
        if match is not None:
            return match
    return catalogue_default()


def catalogue_for_rosters(*, made_with: tuple[str, str] | None = None) -> Catalogue | None:
    """The catalogue a roster is matched against unless one is named: the one our export says the list
    was made with (``made_with``: its name and version) when the site still has it, else the newest
    BattleScribe one."""
    if made_with is not None:
        name, version = made_with
        found = Catalogue.objects.filter(name=name, version=version).first()
        if found is not None:
            return found
    newest = (
        Catalogue.objects.filter(source=Catalogue.Source.BATTLESCRIBE).order_by("-updated_at", "-pk").first()
    )
    return newest or catalogue_default()


def roster_index(*, catalogue: Catalogue) -> RosterIndex:
    """Our units by a roster's entry ids and by the names a roster picks down to each (what the
    catalogue import kept of its path), and the captured-vehicle chart's units by name (2 queries)."""
    rows = list(
        Unit.objects.filter(catalogue=catalogue).values_list("key", "source_id", "name", "roster_entry")
    )
    by_source = {key: key for key, source_id, _name, _entry in rows if not source_id}
    by_source.update({source_id: key for key, source_id, _name, _entry in rows if source_id})
    charted = set(CapturedVehicle.objects.filter(catalogue=catalogue).values_list("unit_key", flat=True))
    by_name = {name.casefold(): key for key, _source_id, name, _entry in rows if key in charted}
    by_path: dict[tuple[str, ...], str] = {}
    for key, _source_id, _name, entry in rows:
        steps = entry.get("path", []) if isinstance(entry, dict) else []
        if steps:
            by_path.setdefault(tuple(norm(str(step.get("name", ""))) for step in steps), key)
    return RosterIndex(units_by_source=by_source, captured_by_name=by_name, units_by_path=by_path)


def roster_ids(*, catalogue: Catalogue, keys: Iterable[str] | None = None) -> RosterIds:
    """What the catalogue import kept of the BattleScribe files for a roster export, for the units
    ``keys`` (all when None): 2 queries, the catalogue row already at hand."""
    units = Unit.objects.filter(catalogue=catalogue)
    captured = CapturedVehicle.objects.filter(catalogue=catalogue)
    if keys is not None:
        keys = set(keys)
        units, captured = units.filter(key__in=keys), captured.filter(unit_key__in=keys)
    rows = list(units.values_list("key", "source_id", "roster_entry"))
    return RosterIds(
        source_ids={key: source_id for key, source_id, _entry in rows if source_id},
        entries={key: entry for key, _source_id, entry in rows if entry},
        captured={key: entry for key, entry in captured.values_list("unit_key", "roster_entry") if entry},
        files=catalogue.roster_files or {},
    )


def catalogue_units(
    *, catalogue: Catalogue, search: str = "", bloc: str = "", unit_type: str = "", faction: str = ""
) -> QuerySet[Unit]:
    units = catalogue.units.select_related("faction").order_by("bloc", "name")
    if search:
        units = units.filter(Q(name__icontains=search) | Q(key__icontains=search))
    if bloc:
        units = units.filter(Q(bloc=bloc) | Q(mercenary=True) | Q(capturable=True))
    if unit_type:
        units = units.filter(unit_type=unit_type)
    if faction:
        units = units.filter(Q(faction__key=faction) | Q(faction__isnull=True))
    return units


def _profile(unit: Unit, faction_keys: dict[int, str]) -> v.UnitProfile:
    return v.UnitProfile(
        key=unit.key,
        name=unit.name,
        bloc=unit.bloc,
        unit_type=unit.unit_type,  # type: ignore[arg-type]
        armour=unit.armour,
        ap=unit.ap,
        faction=faction_keys.get(unit.faction_id) if unit.faction_id else None,
        mercenary=unit.mercenary,
        hero=unit.hero,
        unique=unit.unique,
        skills={s["name"]: s.get("parameter") for s in unit.skills},
        named_pilot=unit.named_pilot or None,
        capturable=unit.capturable,
        strongpoint_unit=unit.strongpoint_unit,
        models=unit.model_count,
        damage=unit.damage,
    )


def _slot(data: dict[str, Any]) -> v.PlatoonSlot:
    return v.PlatoonSlot(
        name=data["name"],
        unit_keys=frozenset(data.get("units", [])),
        unit_types=frozenset(data.get("unit_types", [])),
    )


def _chart(chart: PlatoonChart) -> v.PlatoonChart | None:
    slots = chart.slots
    command = next((s for s in slots if s["role"] == "command"), None)
    if command is None:
        return None
    return v.PlatoonChart(
        key=chart.key,
        name=chart.name,
        bloc=chart.bloc,
        command=_slot(command),
        combat=tuple(_slot(s) for s in slots if s["role"] == "combat"),
        support=tuple(_slot(s) for s in slots if s["role"] == "support"),
        faction=chart.faction or None,
        advantage=chart.advantage,
    )


def catalogue_for_validation(*, catalogue: Catalogue, campaign_ids: Iterable[int] = ()) -> v.Catalogue:
    """The validator's plain view of a catalogue, built once per catalogue version (4 queries).

    Its platoon charts are the whole catalogue's and those entered for ``campaign_ids`` (a list registered
    in a campaign sees that campaign's; a list's own pages, those of the campaigns its owner takes part in:
    ``catalogue_for_list``); another campaign's own charts are not there.

    Retired charts are left out of ``platoon_charts`` (a claim of one is refused); a registered snapshot
    is checked against ``.with_retired_charts``. Entering or retiring a chart bumps ``charts_revision``,
    which is part of the key, so the copy is read afresh.
    """
    key = (catalogue.pk, catalogue.updated_at.isoformat(), catalogue.charts_revision)
    base = _CACHE.get(key)
    if base is None:
        base = _build_catalogue(catalogue)
        _keep(key, base)
    _CACHE.move_to_end(key)
    plain, scoped = base
    campaigns = tuple(sorted(set(campaign_ids) & set(scoped)))
    if not campaigns:
        return plain
    with_theirs = _CACHE.get((*key, campaigns))
    if with_theirs is None:
        # A campaign's own chart is what its lists see under its key, though staff published a chart of
        # that key for the whole catalogue later (armies/services/platoon_charts.py); of two campaigns'
        # charts of one key (a list's own pages), the later campaign's.
        own: dict[str, tuple[bool, v.PlatoonChart]] = {
            chart.key: (retired, chart) for pk in campaigns for retired, chart in scoped[pk]
        }
        with_theirs = (
            replace(
                plain,
                platoon_charts=tuple(c for c in plain.platoon_charts if c.key not in own)
                + tuple(c for retired, c in own.values() if not retired),
                retired_charts=tuple(c for c in plain.retired_charts if c.key not in own)
                + tuple(c for retired, c in own.values() if retired),
            ),
            {},
        )
        _keep((*key, campaigns), with_theirs)
    return with_theirs[0]


def campaigns_with_charts(*, catalogue: Catalogue) -> tuple[int, ...]:
    """The campaigns that have platoon charts of their own on the catalogue (from the validator's copy)."""
    catalogue_for_validation(catalogue=catalogue)
    return tuple(_CACHE[(catalogue.pk, catalogue.updated_at.isoformat(), catalogue.charts_revision)][1])


def catalogue_for_list(*, army_list: ArmyList) -> v.Catalogue:
    """The validator's catalogue for a list's own pages: the whole catalogue's charts and those of the
    campaigns its owner organises or plays in (asked only when the catalogue has campaigns' charts)."""
    catalogue = army_list.catalogue
    scoped = campaigns_with_charts(catalogue=catalogue)
    theirs = member_campaigns(army_list.owner_id, catalogue.pk) if scoped else ()
    return catalogue_for_validation(catalogue=catalogue, campaign_ids=theirs)


def _keep(key: tuple[Any, ...], built: _Built) -> None:
    _CACHE[key] = built
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)


def _build_catalogue(catalogue: Catalogue) -> _Built:
    """The whole catalogue's view, and each campaign's own charts (retired or not) to add to it."""
    factions = list(Faction.objects.filter(catalogue=catalogue))
    faction_keys = {f.pk: f.key for f in factions}
    rows = list(PlatoonChart.objects.filter(catalogue=catalogue))
    wide = [c for c in rows if c.campaign_id is None]
    charts = [_chart(c) for c in wide if c.retired_at is None]
    retired = [_chart(c) for c in wide if c.retired_at is not None]
    scoped: dict[int, list[tuple[bool, v.PlatoonChart]]] = {}
    for row in rows:
        chart = _chart(row) if row.campaign_id is not None else None
        if chart is not None and row.campaign_id is not None:
            scoped.setdefault(row.campaign_id, []).append((row.retired_at is not None, chart))
    plain = v.Catalogue(
        name=catalogue.name,
        version=catalogue.version,
        blocs=tuple(catalogue.blocs),
        factions=tuple(v.Faction(key=f.key, name=f.name, bloc=f.bloc) for f in factions),
        units=tuple(_profile(u, faction_keys) for u in Unit.objects.filter(catalogue=catalogue)),
        platoon_charts=tuple(c for c in charts if c is not None),
        retired_charts=tuple(c for c in retired if c is not None),
        captured_vehicles=tuple(
            v.CapturedVehicleEntry(unit_key=row.unit_key, captured_by=frozenset(row.captured_by))
            for row in CapturedVehicle.objects.filter(catalogue=catalogue)
        ),
    )
    return plain, scoped


def army_list_for_actor(*, user: Any, pk: int, change: bool) -> ArmyList | None:
    """The list if ``user`` may see it (``change``: may change it); None otherwise, so lists never leak."""
    army_list = ArmyList.objects.select_related("catalogue").filter(pk=pk).first()
    allowed = can_change_army_list if change else can_view_army_list
    if army_list is None or not allowed(user, army_list):
        return None
    return army_list


def army_lists_for_owner(*, owner: User) -> QuerySet[ArmyList]:
    return ArmyList.objects.filter(owner=owner).select_related("catalogue").order_by("-updated_at")


def faction_names(*, catalogue_ids: Iterable[int]) -> dict[tuple[int, str], str]:
    """(catalogue id, faction key) -> the faction's name, for pages that name a list's faction (one query)."""
    rows = Faction.objects.filter(catalogue_id__in=set(catalogue_ids)).values_list(
        "catalogue_id", "key", "name"
    )
    return {(catalogue_id, key): name for catalogue_id, key, name in rows}


def faction_shown(names: dict[tuple[int, str], str], catalogue_id: int | None, key: str) -> str:
    """The faction's name; a key its catalogue no longer has reads as words ("coastal-raiders": "Coastal raiders")."""
    if not key:
        return ""
    return names.get((catalogue_id or 0, key)) or key.replace("-", " ").capitalize()


def army_list_plain(*, army_list: ArmyList) -> v.ArmyList:
    return v.army_list_from_json(army_list.content)


def army_list_verdict(*, army_list: ArmyList) -> v.Verdict:
    catalogue = catalogue_for_list(army_list=army_list)
    return v.validate(army_list_plain(army_list=army_list), catalogue)


def army_list_text(*, army_list: ArmyList) -> str:
    catalogue = catalogue_for_list(army_list=army_list)
    plain = army_list_plain(army_list=army_list)
    return v.army_list_to_text(plain, catalogue, v.validate(plain, catalogue))


def army_list_rosz(*, army_list: ArmyList, filename: str) -> bytes:
    """The list as a ``.rosz`` roster holding ``filename`` (armies/rosters/write.py says what it keeps)."""
    catalogue = catalogue_for_list(army_list=army_list)
    keys = [entry["unit"] for entry in army_list.content["entries"]]
    ids = roster_ids(catalogue=army_list.catalogue, keys=keys)
    return roster_to_rosz(army_list.content, catalogue, ids, filename=filename)


class CatalogueMissingError(DomainError, LookupError):
    """No catalogue to check a list against: none imported yet, or the id names none."""

    def __init__(self, message: str) -> None:
        super().__init__("catalogue-missing", message, "catalogue")


@dataclass(frozen=True)
class DocumentVerdict:
    catalogue: Catalogue
    plain_catalogue: v.Catalogue
    plain: v.ArmyList
    verdict: v.Verdict


def army_list_document_verdict(
    *, document: Any, catalogue_id: int | None = None, terms: v.Terms | None = None
) -> DocumentVerdict:
    """Check a list document the one way the page, the API and the command all use.

    ``terms`` (campaign terms) reach the validator unchanged; their catalogue version,
    if any, picks the catalogue when no id is given. Raises ``ListFormatError`` for a
    document that is not a list, ``CatalogueMissingError`` when there is no catalogue
    to check it against.
    """
    plain = v.army_list_from_json(document)
    catalogue = catalogue_for_list_document(
        document=document, catalogue_id=catalogue_id, version=terms.catalogue_version if terms else None
    )
    if catalogue is None:
        raise CatalogueMissingError(
            "no such catalogue" if catalogue_id is not None else "no catalogue imported yet"
        )
    plain_catalogue = catalogue_for_validation(catalogue=catalogue)
    return DocumentVerdict(
        catalogue=catalogue,
        plain_catalogue=plain_catalogue,
        plain=plain,
        verdict=v.validate(plain, plain_catalogue, terms),
    )


def platoon_charts_for_page(
    *, catalogue: Catalogue, campaign_ids: Iterable[int] = ()
) -> QuerySet[PlatoonChart]:
    """A catalogue's platoon charts (the whole catalogue's and those of ``campaign_ids``), with who entered
    each and the campaign it belongs to (one query)."""
    return (
        PlatoonChart.objects.filter(Q(campaign__isnull=True) | Q(campaign_id__in=tuple(campaign_ids)),
                                    catalogue=catalogue)
        .select_related("entered_by", "campaign")
        .only("key", "name", "bloc", "faction", "slots", "advantage", "entered", "entered_at", "retired_at",
              "catalogue_id", "campaign_id", "campaign__name", "entered_by__display_name",
              "entered_by__username")
        .order_by(F("retired_at").asc(nulls_first=True), "bloc", "name", "key")
    )  # fmt: skip


def category_names(*, catalogue: Catalogue) -> list[str]:
    """The categories of a catalogue's units, which a platoon slot may name."""
    rows = Unit.objects.filter(catalogue=catalogue).exclude(category="").values_list("category", flat=True)
    return sorted(set(rows))
