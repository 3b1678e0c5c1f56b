"""Fixtures for the accounts tests: a notification kind of the tests' own, and its two users."""

from __future__ import annotations

import pytest

from accounts import notifications
from accounts.models import User
from tests.factories import UserFactory

KIND = "test-news"


@pytest.fixture
def kind(monkeypatch: pytest.MonkeyPatch) -> str:
    """A registered kind that exists only for the test (the registry is put back afterwards)."""
    monkeypatch.setattr(notifications, "_kinds", dict(notifications._kinds))
    notifications.register_kind(KIND, "Test news", "Something a test made happen.")
    return KIND


@pytest.fixture
def owner(db: None) -> User:
    return UserFactory(username="nina", display_name="Nina")


@pytest.fixture
def other(db: None) -> User:
    return UserFactory(username="oleg", display_name="Oleg")
