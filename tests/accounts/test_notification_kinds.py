"""The registry of notification kinds that other apps fill when they load."""

from __future__ import annotations

import pytest

from accounts import notifications
from accounts.notifications import NotificationKind, notification_kind, notification_kinds, register_kind


@pytest.fixture(autouse=True)
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notifications, "_kinds", {})


def test_it_lists_registered_kinds_in_the_order_they_came():
    register_kind("round-opened", "A round opened", "The organisers opened a round.")
    register_kind("challenge-issued", "A challenge", "")

    assert [kind.code for kind in notification_kinds()] == ["round-opened", "challenge-issued"]
    assert notification_kind("round-opened") == NotificationKind(
        "round-opened", "A round opened", "The organisers opened a round."
    )
    assert notification_kind("round-closed") is None


def test_it_accepts_the_same_registration_twice():
    first = register_kind("round-opened", "A round opened")
    second = register_kind("round-opened", "A round opened")

    assert first == second
    assert len(notification_kinds()) == 1


def test_it_refuses_one_code_registered_with_other_words():
    register_kind("round-opened", "A round opened")

    with pytest.raises(ValueError, match="already registered"):
        register_kind("round-opened", "Round open")


@pytest.mark.parametrize("code", ["", "Round", "round opened", "-round", "r" * 41, "round_opened"])
def test_it_refuses_a_code_that_is_not_a_short_slug(code):
    with pytest.raises(ValueError, match="slug"):
        register_kind(code, "Label")


def test_it_refuses_a_kind_without_a_label():
    with pytest.raises(ValueError, match="label"):
        register_kind("round-opened", "  ")
