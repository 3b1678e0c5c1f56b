from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin[User]):
    fieldsets = (*DjangoUserAdmin.fieldsets, ("Zverograd", {"fields": ("display_name",)}))  # type: ignore[misc]
    list_display = ("username", "display_name", "email", "is_staff")
    search_fields = ("username", "display_name", "email")
