"""The notification pages, at /notifications/."""

from django.urls import path

from accounts.views import notifications as views

app_name = "notifications"

urlpatterns = [
    path("notifications/", views.notification_list, name="list"),
    path("notifications/read/", views.notification_mark_read, name="read"),
    path("notifications/<id:pk>/", views.notification_open_view, name="open"),
    path("notifications/bell/", views.notification_bell, name="bell"),
    path("notifications/settings/", views.notification_settings, name="settings"),
]
