"""Notification pages: the list, opening one, marking read, the bell's count and the e-mail preferences.

A notification's link goes through ``notification_open_view``, which marks it read
and sends the reader on to what it is about, so opening one is reading it (the
e-mails link there too).

The bell in the site header is filled by htmx from ``notification_bell`` after
the page loads, so rendering a page costs no query for it; marking read from
the list answers an htmx request with the ``notifications-changed`` event,
which makes the bell ask again at once.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.forms import MarkReadForm, NotificationPreferencesForm
from accounts.models import User
from accounts.notifications import notification_kinds
from accounts.selectors import (
    notification_preferences_for,
    notification_unread_count,
    notifications_for_list,
    unread_etag,
)
from accounts.services import notification_open, notification_preferences_update, notifications_mark_read
from core.conditional import matches, not_modified, revalidate
from core.http import HtmxHttpRequest, acting_user

NOTIFICATIONS_PER_PAGE = 25
CHANGED_EVENT = "notifications-changed"
# htmx stops polling an element whose request is answered with this status.
HTMX_STOP_POLLING = 286


def _never_cached(response: HttpResponse) -> HttpResponse:
    add_never_cache_headers(response)
    return response


def _list_response(request: HtmxHttpRequest, user: User, page_number: str | None) -> HttpResponse:
    page = Paginator(notifications_for_list(user=user), NOTIFICATIONS_PER_PAGE).get_page(page_number)
    labels = {kind.code: kind.label for kind in notification_kinds()}
    items = [(row, labels.get(row.kind, row.kind)) for row in page.object_list]
    return render(request, "accounts/notifications/list.html", {"page": page, "items": items})


@login_required
@require_safe
def notification_list(request: HtmxHttpRequest) -> HttpResponse:
    return _list_response(request, acting_user(request), request.GET.get("page"))


@login_required
@require_POST
def notification_mark_read(request: HtmxHttpRequest) -> HttpResponse:
    user: User = acting_user(request)
    form = MarkReadForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That is not one of your notifications.")
        return redirect("notifications:list")
    one = form.cleaned_data["id"]
    notifications_mark_read(user=user, ids=None if one is None else [one])
    page_number = request.GET.get("page")
    if request.htmx:
        response = _list_response(request, user, page_number)
        response["HX-Trigger"] = CHANGED_EVENT
        return response
    suffix = f"?page={page_number}" if page_number and page_number.isdigit() else ""
    return redirect(f"{reverse('notifications:list')}{suffix}")


@login_required
@never_cache
@require_safe
def notification_open_view(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Open one of your notifications: it is read, and you are taken to what it is about (or the list)."""
    notification = notification_open(user=acting_user(request), notification_id=pk)
    if notification is None:
        raise Http404("no such notification of yours")
    # The link was checked to be a path on this site when the notification was made.
    return redirect(notification.link or reverse("notifications:list"))


@require_safe
def notification_bell(request: HtmxHttpRequest) -> HttpResponseBase:
    """The unread count for the header's bell; empty for a visitor whose session ended (and no more polls).

    Labelled with the count's ETag and revalidated on every poll: while the count is the same the
    browser's ``If-None-Match`` gets a 304 and hands htmx the body it kept, which shows that count.
    """
    if not request.user.is_authenticated:
        return _never_cached(HttpResponse("", status=HTMX_STOP_POLLING))
    user: User = acting_user(request)
    count = notification_unread_count(user=user)
    tag = unread_etag(user, count)
    if matches(request, tag):
        return not_modified(tag)
    return revalidate(render(request, "accounts/notifications/_bell.html", {"count": count}), tag)


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request: HtmxHttpRequest) -> HttpResponse:
    user: User = acting_user(request)
    form = NotificationPreferencesForm(
        request.POST if request.method == "POST" else None, lines=notification_preferences_for(user=user)
    )
    if request.method == "POST" and form.is_valid():
        notification_preferences_update(user=user, choices=form.choices())
        messages.success(request, "Your e-mail choices were saved.")
        return redirect("notifications:settings")
    return render(request, "accounts/notifications/settings.html", {"form": form})
