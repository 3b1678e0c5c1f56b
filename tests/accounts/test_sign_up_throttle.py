"""The sign-up page and the API spend one budget of sign-ups per address (accounts/throttles.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User

pytestmark = pytest.mark.django_db

PAGE = "/accounts/sign-up/"
API = "/api/accounts/sign-up/"
ADDRESS = "203.0.113.40"


@pytest.fixture
def budget(settings: Any) -> int:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "sign-up": "4/hour"},
    }
    return 4


def _fields(n: int) -> dict[str, str]:
    return {
        "username": f"newcomer{n}",
        "display_name": f"Newcomer {n}",
        "email": f"newcomer{n}@example.test",
        "password1": "a-long-passphrase-9",
        "password2": "a-long-passphrase-9",
    }


def _page(n: int, address: str = ADDRESS) -> Any:
    return Client().post(PAGE, _fields(n), REMOTE_ADDR=address)


def _api(n: int, address: str = ADDRESS) -> Any:
    fields = _fields(n)
    body = {"username": fields["username"], "display_name": fields["display_name"],
            "email": fields["email"], "password": fields["password1"]}  # fmt: skip
    return APIClient().post(API, body, format="json", REMOTE_ADDR=address)


def test_the_page_is_throttled_past_the_budget_with_a_sentence(budget: int) -> None:
    made = [_page(n).status_code for n in range(budget)]
    refused = _page(budget)

    assert made == [302] * budget
    assert refused.status_code == 429
    text = refused.content.decode()
    assert "Too many sign-ups from your address: at most 4 an hour." in text
    assert "Try again in" in text
    assert 'value="newcomer4"' in text  # what was typed stays
    assert int(refused["Retry-After"]) > 0
    assert not User.objects.filter(username="newcomer4").exists()


def test_the_page_and_the_api_share_one_budget(budget: int) -> None:
    assert _page(0).status_code == 302
    assert _api(1).status_code == 201
    assert _page(2).status_code == 302
    assert _api(3).status_code == 201

    assert _page(4).status_code == 429
    assert _api(5).status_code == 429
    assert User.objects.filter(username__startswith="newcomer").count() == budget


def test_the_api_spent_the_page_s_budget(budget: int) -> None:
    for n in range(budget):
        assert _api(n).status_code == 201

    assert _page(budget).status_code == 429


def test_another_address_has_its_own_budget(budget: int) -> None:
    for n in range(budget):
        _page(n)

    assert _page(budget, address="203.0.113.41").status_code == 302
