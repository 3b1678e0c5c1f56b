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

# Django tries these in order, every pattern of an include until one matches. The night's polls (the bell,
# the standings status line) and the API come first: they were tried after about 90 page patterns, a
# tenth of a poll's CPU (scripts/bench_baseline.py). Their addresses start with prefixes no other
# pattern takes (notifications/, campaigns/<id>/standings/, api/, health/), so no address changes hands:
# tests/core/test_urls.py resolves every named address back to itself.
urlpatterns = [
    path("", include("accounts.notification_urls")),
    path("", include("standings.urls")),
    path("api/", include((api_patterns, "api"))),
    path("health/", HealthAliasApi.as_view(), name="health"),
    path("", include("core.urls")),
    path("", include("rules.urls")),
    path("", include("armies.urls")),
    path("", include("exchange.urls")),
    path("", include("campaign.urls")),
    path("", include("battles.urls")),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
]

# Under /api/, every error answer is the API's JSON (an address no pattern matches included).
handler400 = "core.errorpages.bad_request"
handler403 = "core.errorpages.permission_denied"
handler404 = "core.errorpages.page_not_found"
handler500 = "core.errorpages.server_error"
