"""Admin for catalogues and army lists: for looking, not for editing.

Catalogues change only through imports (corrections go in a JSON supplement,
re-imported) and lists only through their services; an edit here would skip
the checks and leave the validator's cached catalogue stale. So every model is
read-only; catalogues, imports and lists may be deleted, and staff are sent to
the import page to load catalogue files.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from django.contrib import admin
from django.db import models
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from armies.models import ArmyList, Catalogue, CatalogueImport, Faction, PlatoonChart, Unit

M = TypeVar("M", bound=models.Model)


class ReadOnlyAdmin(admin.ModelAdmin[M]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class CatalogueContentAdmin(ReadOnlyAdmin[M]):
    """Rows that belong to a catalogue: deleting one would leave the cached catalogue stale too."""

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Catalogue)
class CatalogueAdmin(ReadOnlyAdmin[Catalogue]):
    change_list_template = "armies/admin/catalogue_change_list.html"
    list_display = ("name", "version", "source", "unit_count", "updated_at", "browse")
    list_filter = ("source",)
    search_fields = ("name", "version")
    fields = ("name", "version", "source", "blocs", "import_report", "created_at", "updated_at", "browse")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Catalogue]:
        return super().get_queryset(request).annotate(unit_count=Count("units"))

    @admin.display(description="units", ordering="unit_count")
    def unit_count(self, obj: Catalogue) -> int:
        return int(getattr(obj, "unit_count", 0))

    @admin.display(description="on the site")
    def browse(self, obj: Catalogue) -> SafeString:
        return format_html('<a href="{}">browse units</a>', reverse("armies:catalogue", args=[obj.pk]))


@admin.register(Faction)
class FactionAdmin(CatalogueContentAdmin[Faction]):
    list_display = ("name", "key", "bloc", "catalogue")
    list_filter = ("catalogue", "bloc")
    search_fields = ("name", "key")
    list_select_related = ("catalogue",)


@admin.register(Unit)
class UnitAdmin(CatalogueContentAdmin[Unit]):
    list_display = (
        "name",
        "key",
        "bloc",
        "faction",
        "unit_type",
        "armour",
        "ap",
        "hero",
        "mercenary",
        "catalogue",
    )
    list_filter = (
        "catalogue",
        "bloc",
        "unit_type",
        "armour",
        "hero",
        "mercenary",
        "capturable",
        "strongpoint_unit",
    )
    search_fields = ("name", "key", "category")
    list_select_related = ("catalogue", "faction")
    ordering = ("catalogue", "bloc", "name")


@admin.register(PlatoonChart)
class PlatoonChartAdmin(CatalogueContentAdmin[PlatoonChart]):
    list_display = ("name", "key", "bloc", "faction", "slot_count", "catalogue")
    list_filter = ("catalogue", "bloc")
    search_fields = ("name", "key")
    list_select_related = ("catalogue",)

    @admin.display(description="slots")
    def slot_count(self, obj: PlatoonChart) -> int:
        return len(obj.slots)


def _progress(obj: CatalogueImport) -> SafeString:
    return format_html(
        '<progress value="{}" max="100">{}%</progress> {}%', obj.progress, obj.progress, obj.progress
    )


@admin.register(CatalogueImport)
class CatalogueImportAdmin(ReadOnlyAdmin[CatalogueImport]):
    list_display = (
        "id",
        "status",
        "progress_bar",
        "stage",
        "catalogue",
        "created_by",
        "created_at",
        "finished_at",
    )
    list_filter = ("status",)
    list_select_related = ("catalogue", "created_by")
    readonly_fields = (
        "id", "status", "progress_bar", "stage", "catalogue", "summary", "error", "files", "created_by",
        "created_at", "finished_at", "status_page",
    )  # fmt: skip
    fields = readonly_fields

    @admin.display(description="progress")
    def progress_bar(self, obj: CatalogueImport) -> SafeString:
        return _progress(obj)

    @admin.display(description="on the site")
    def status_page(self, obj: CatalogueImport) -> SafeString:
        url = reverse("armies:catalogue_import_status", args=[obj.pk])
        return format_html('<a href="{}">progress and report</a>', url)


@admin.register(ArmyList)
class ArmyListAdmin(ReadOnlyAdmin[ArmyList]):
    list_display = ("name", "owner", "bloc", "faction", "points_limit", "role", "catalogue", "updated_at")
    list_filter = ("bloc", "role", "catalogue")
    search_fields = ("name", "owner__username", "owner__display_name")
    list_select_related = ("owner", "catalogue")
    readonly_fields = (
        "name", "owner", "catalogue", "bloc", "faction", "points_limit", "role", "document", "created_at",
        "updated_at",
    )  # fmt: skip
    fields = readonly_fields

    @admin.display(description="content (JSON list format)")
    def document(self, obj: ArmyList) -> SafeString:
        return format_html("<pre>{}</pre>", json.dumps(obj.content, indent=2, ensure_ascii=False))
