from django.contrib import admin

from campaign.models import Campaign, Enrolment


class EnrolmentInline(admin.TabularInline[Enrolment, Campaign]):
    model = Enrolment
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin[Campaign]):
    list_display = ("name", "organiser", "points_limit", "is_public", "created_at")
    search_fields = ("name",)
    inlines = [EnrolmentInline]
