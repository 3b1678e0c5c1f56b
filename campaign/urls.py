"""The campaign pages."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver

app_name = "campaign"

urlpatterns: list[URLPattern | URLResolver] = []
