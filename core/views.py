from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from core.home import home_sections


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html", {"home_sections": home_sections(request)})
