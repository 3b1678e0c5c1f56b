"""The ETag helpers the polls share: weak comparison of If-None-Match, and the headers of a 304."""

from __future__ import annotations

from django.http import HttpRequest
from django.test import RequestFactory

from core.conditional import etag, matches, not_modified

TAG = etag("standings-status", 3, 2)


def _asking(header: str | None) -> HttpRequest:
    headers = {} if header is None else {"If-None-Match": header}
    return RequestFactory().get("/poll/", headers=headers)


def test_it_makes_a_weak_etag_that_tells_nothing_of_its_parts() -> None:
    assert TAG.startswith('W/"')
    assert TAG.endswith('"')
    assert "standings" not in TAG
    assert etag("standings-status", 3, 2) == TAG
    assert etag("standings-status", 3, 3) != TAG
    assert etag("unread", 1, 23) != etag("unread", 12, 3)  # parts are kept apart


def test_it_matches_the_tag_weakly_in_a_list_or_as_anything() -> None:
    assert matches(_asking(TAG), TAG)
    assert matches(_asking(TAG.removeprefix("W/")), TAG)
    assert matches(_asking(f'"other", {TAG}'), TAG)
    assert matches(_asking("*"), TAG)


def test_it_does_not_match_another_tag_nothing_or_nonsense() -> None:
    assert not matches(_asking(None), TAG)
    assert not matches(_asking('W/"other"'), TAG)
    assert not matches(_asking("not an etag"), TAG)
    assert not matches(_asking(""), TAG)


def test_a_304_has_no_body_and_asks_browsers_to_revalidate() -> None:
    response = not_modified(TAG)
    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == TAG
    assert response["Cache-Control"] == "private, no-cache"
