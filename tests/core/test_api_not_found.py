"""Every 404 under /api/ is the API's JSON, an address no pattern matches included; pages keep theirs."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    ["/api/army-lists/abc/", "/api/campaigns/1x/", "/api/army-lists/" + "9" * 40 + "/", "/api/no-such-thing/",
     "/api/battle-sessions/%E2%80%AE/"],
)  # fmt: skip
def test_an_address_no_pattern_matches_is_a_json_404(api_client: Any, path: str) -> None:
    response = api_client.get(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "code": "not_found",
        "detail": "Nothing is at this address: check the path and the id in it.",
        "errors": [],
    }


def test_a_page_s_404_stays_a_page(client: Any) -> None:
    response = client.get("/campaigns/abc/")

    assert response.status_code == 404
    assert "text/html" in response["Content-Type"]
    assert "Lost in the rubble" in response.content.decode()
