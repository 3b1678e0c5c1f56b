"""Reads for the odds calculator page: which catalogues and units its pickers offer, and which are picked."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.http import QueryDict

from armies.models import Catalogue, Unit
from armies.selectors import catalogue_default, catalogue_units, catalogues_for_listing


@dataclass(frozen=True)
class OddsChoices:
    """What the odds form may offer: the catalogues, the chosen one's units, and the units picked."""

    catalogues: list[Catalogue] = field(default_factory=list)
    catalogue: Catalogue | None = None
    units: list[Unit] = field(default_factory=list)
    attacker: Unit | None = None
    target: Unit | None = None


def odds_choices(*, data: QueryDict | None) -> OddsChoices:
    """The pickers' choices for a request (three queries, four with a picked unit or two)."""
    catalogues = list(catalogues_for_listing(with_blocs=False))
    catalogue = _chosen_catalogue(catalogues, data)
    units: list[Unit] = []
    if catalogue is not None:
        rows: QuerySet[Unit] = (
            catalogue_units(catalogue=catalogue)
            .select_related(None)
            .only("pk", "catalogue_id", "name", "bloc", "unit_type", "armour")
        )
        units = list(rows)
    wanted = {
        name: (data.get(name) if data is not None else None) for name in ("attacker_unit", "target_unit")
    }
    known = {str(unit.pk) for unit in units}
    # A catalogue change drops a unit picked from another catalogue.
    picked_ids = [value for value in wanted.values() if value and value in known]
    picked = {str(unit.pk): unit for unit in Unit.objects.filter(pk__in=picked_ids)} if picked_ids else {}
    return OddsChoices(
        catalogues=catalogues,
        catalogue=catalogue,
        units=units,
        attacker=picked.get(wanted["attacker_unit"] or ""),
        target=picked.get(wanted["target_unit"] or ""),
    )


def _chosen_catalogue(catalogues: list[Catalogue], data: QueryDict | None) -> Catalogue | None:
    wanted = data.get("catalogue") if data is not None else None
    for catalogue in catalogues:
        if str(catalogue.pk) == wanted:
            return catalogue
    default = catalogue_default()
    return next((c for c in catalogues if default is not None and c.pk == default.pk), None)
