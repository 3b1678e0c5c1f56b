from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from accounts.forms import AdminNewUserForm, AdminUserForm
from accounts.models import Notification, NotificationPreference, User


@admin.register(User)
class UserAdmin(DjangoUserAdmin[User]):
    form = AdminUserForm
    add_form = AdminNewUserForm
    fieldsets = (*DjangoUserAdmin.fieldsets, ("Zverograd", {"fields": ("display_name",)}))  # type: ignore[misc]
    list_display = ("username", "display_name", "email", "is_staff")
    search_fields = ("username", "display_name", "email")


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin[Notification]):
    list_display = ("user", "kind", "message", "created_at", "read_at", "emailed_at")
    list_filter = ("kind",)
    list_select_related = ("user",)
    search_fields = ("user__username", "message")
    raw_id_fields = ("user",)
    date_hierarchy = "created_at"


@admin.register(NotificationPreference)
class NotificationPreferenceAdmin(admin.ModelAdmin[NotificationPreference]):
    list_display = ("user", "kind", "email")
    list_select_related = ("user",)
    raw_id_fields = ("user",)
