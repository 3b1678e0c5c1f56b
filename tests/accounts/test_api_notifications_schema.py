"""The notification API's OpenAPI schema states the real bounds, read from the same constants."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from accounts.api_notifications import MAX_PREFERENCES
from accounts.notifications import KIND_MAX_LENGTH, LINK_MAX_LENGTH, MAX_READ_IDS, MESSAGE_MAX_LENGTH
from core.openapi import MAX_ID


@pytest.fixture(scope="module")
def components() -> dict[str, Any]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return dict(schema["components"]["schemas"])


def test_it_bounds_the_ids_to_mark_read(components):
    ids = components["ReadInput"]["properties"]["ids"]

    assert (ids["minItems"], ids["maxItems"]) == (1, MAX_READ_IDS)
    assert (ids["items"]["minimum"], ids["items"]["maximum"]) == (1, MAX_ID)


def test_it_bounds_the_preferences_and_their_kinds(components):
    preferences = components["PreferencesInput"]["properties"]["preferences"]
    kind = components["PreferenceInput"]["properties"]["kind"]

    assert (preferences["minItems"], preferences["maxItems"]) == (1, MAX_PREFERENCES)
    assert kind["maxLength"] == KIND_MAX_LENGTH
    assert kind["pattern"].startswith("^[a-z]")


def test_it_states_the_bounds_of_what_a_notification_holds(components):
    fields = components["NotificationOutput"]["properties"]

    assert fields["message"]["maxLength"] == MESSAGE_MAX_LENGTH
    assert fields["link"]["maxLength"] == LINK_MAX_LENGTH
    assert fields["read_at"]["nullable"] is True
