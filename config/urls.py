from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts.api import MeApi, SignUpApi, TokenApi
from core.api import HealthAliasApi, HealthApi

api_patterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("health/", HealthApi.as_view(), name="health"),
    path("accounts/sign-up/", SignUpApi.as_view(), name="sign-up"),
    path("accounts/token/", TokenApi.as_view(), name="token"),
    path("accounts/me/", MeApi.as_view(), name="me"),
]

urlpatterns = [
    path("", include("core.urls")),
    path("accounts/", include("accounts.urls")),
    path("health/", HealthAliasApi.as_view(), name="health"),
    path("api/", include((api_patterns, "api"))),
    path("admin/", admin.site.urls),
]
