"""Campaign imports in the admin: read-only, for whoever runs the site to see what workers did."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from exchange.models import CampaignImport


@admin.register(CampaignImport)
class CampaignImportAdmin(admin.ModelAdmin[CampaignImport]):
    list_display = ("id", "created_by", "file_name", "size", "status", "stage", "campaign", "created_at")
    list_filter = ("status",)
    list_select_related = ("created_by", "campaign")
    search_fields = ("created_by__username", "file_name")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
