"""The odds calculator page: exact odds of an attack, and a roll with digital dice. No account needed.

Every state of the page is a plain GET address (so a roll can be shared and
replayed from its seed); htmx asks the same view for the result panel only.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from rules.calculator import calculate
from rules.forms import OddsForm
from rules.selectors import odds_choices

REFRESHES = {"catalogue", "attacker", "target"}


def _data(request: HttpRequest) -> QueryDict | None:
    data = request.POST if request.method == "POST" else request.GET
    return data if data else None


def _seed(data: QueryDict | None) -> int | None:
    raw = data.get("seed", "") if data is not None else ""
    return int(raw) if raw.isdigit() and len(raw) < 20 else None


@require_http_methods(["GET", "POST"])
def odds(request: HttpRequest) -> HttpResponse:
    data = _data(request)
    form = OddsForm(data, choices=odds_choices(data=data))
    rolling = data is not None and data.get("roll") == "1"
    calculation = calculate(form, roll=rolling, seed=_seed(data) if rolling else None)
    context = {"calc": calculation, "form": form}
    if getattr(request, "htmx", False):
        refresh = data.get("refresh", "") if data is not None else ""
        context["refresh"] = refresh if refresh in REFRESHES else ""
        return render(request, "rules/partials/odds_response.html", context)
    return render(request, "rules/odds.html", context)


@require_http_methods(["GET", "POST"])
def roll(request: HttpRequest) -> HttpResponse:
    """Roll the attack on the form (htmx swaps the roll panel); a plain visit goes to the full page."""
    data = _data(request)
    if not getattr(request, "htmx", False):
        query = data.copy() if data is not None else QueryDict(mutable=True)
        query["roll"] = "1"
        return redirect(f"{reverse('rules:odds')}?{query.urlencode()}")
    form = OddsForm(data, choices=odds_choices(data=data))
    calculation = calculate(form, roll=True, seed=_seed(data))
    return render(request, "rules/partials/roll_response.html", {"calc": calculation, "form": form})
