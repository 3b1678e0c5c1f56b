"""Reads for choosing a campaign's catalogue."""

from __future__ import annotations

from armies.models import Catalogue


def only_catalogue() -> Catalogue | None:
    """The catalogue an organiser has no choice but: the site's only one, if it has exactly one (one query)."""
    catalogues = list(Catalogue.objects.order_by("pk")[:2])
    return catalogues[0] if len(catalogues) == 1 else None
