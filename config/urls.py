from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts.api import MeApi, SignUpApi, TokenApi
from core.api import HealthAliasApi, HealthApi

api_patterns: list[URLPattern | URLResolver] = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("health/", HealthApi.as_view(), name="health"),
    path("accounts/sign-up/", SignUpApi.as_view(), name="sign-up"),
    path("accounts/token/", TokenApi.as_view(), name="token"),
    path("accounts/me/", MeApi.as_view(), name="me"),
    path("", include("accounts.api_urls")),
    path("", include("armies.api_urls")),
    path("", include("rules.api_urls")),
    path("", include("exchange.api_urls")),
    path("", include("campaign.api_urls")),
    path("", include("battles.api_urls")),
    path("", include("standings.api_urls")),
]

urlpatterns = [
    path("", include("core.urls")),
    path("", include("rules.urls")),
    path("", include("armies.urls")),
    path("", include("exchange.urls")),
    path("", include("campaign.urls")),
    path("", include("battles.urls")),
    path("", include("standings.urls")),
    path("accounts/", include("accounts.urls")),
    path("", include("accounts.notification_urls")),
    path("health/", HealthAliasApi.as_view(), name="health"),
    path("api/", include((api_patterns, "api"))),
    path("admin/", admin.site.urls),
]
