"""Admin for campaigns: for looking, not for editing.

A campaign's status, its players, its sectors, its registered lists and its log
change only through services, which check and log every change; an edit here
would skip both. So everything is read-only (the pages and the API are where
organisers work), and only a whole campaign may be deleted.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from campaign.models import Campaign, CoOrganiser, Enrolment, LogEntry, Registration, Sector

M = TypeVar("M", bound=models.Model)
C = TypeVar("C", bound=models.Model)


class ReadOnlyAdmin(admin.ModelAdmin[M]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline[C, Campaign]):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class CoOrganiserInline(ReadOnlyInline[CoOrganiser]):
    model = CoOrganiser
    fields = ("user", "added_by", "added_at")


class EnrolmentInline(ReadOnlyInline[Enrolment]):
    model = Enrolment
    fields = ("player", "placeholder_name", "bloc", "faction", "mercenary", "status", "joined_at")


@admin.register(Campaign)
class CampaignAdmin(ReadOnlyAdmin[Campaign]):
    list_display = ("name", "organiser", "status", "is_public", "points_limit", "created_at")
    list_filter = ("status", "is_public")
    search_fields = ("name",)
    exclude = ("invite_token", "map_document")
    inlines = [CoOrganiserInline, EnrolmentInline]


@admin.register(Sector)
class SectorAdmin(ReadOnlyAdmin[Sector]):
    list_display = ("name", "campaign", "owner", "fortification", "value", "terrain")
    list_filter = ("owner", "fortification", "terrain")
    search_fields = ("name", "campaign__name")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Registration)
class RegistrationAdmin(ReadOnlyAdmin[Registration]):
    list_display = ("name", "campaign", "enrolment", "catalogue_version", "total_ap", "registered_at")
    search_fields = ("name", "campaign__name")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnlyAdmin[LogEntry]):
    list_display = ("at", "campaign", "kind", "subject", "field", "actor", "round_number")
    list_filter = ("kind",)
    search_fields = ("campaign__name", "subject")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
