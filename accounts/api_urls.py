"""The accounts app's notification endpoints, under /api/notifications/."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from accounts import api_notifications as api

urlpatterns: list[URLPattern | URLResolver] = [
    path("notifications/", api.NotificationCollectionApi.as_view(), name="notifications"),
    path("notifications/count/", api.NotificationCountApi.as_view(), name="notifications-count"),
    path("notifications/read/", api.NotificationReadApi.as_view(), name="notifications-read"),
    path(
        "notifications/preferences/",
        api.NotificationPreferencesApi.as_view(),
        name="notifications-preferences",
    ),
]
