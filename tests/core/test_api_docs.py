from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_it_publishes_an_openapi_3_schema(api_client):
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert "/api/accounts/me/" in schema["paths"]
    assert "/api/health/" in schema["paths"]


def test_it_serves_interactive_docs_from_our_own_static_files(client):
    response = client.get("/api/docs/")

    assert response.status_code == 200
    assert b"drf_spectacular_sidecar/swagger-ui-dist" in response.content
    assert b"cdn" not in response.content.lower()


def test_it_answers_bad_api_input_with_a_code_and_the_field(api_client):
    response = api_client.post("/api/accounts/sign-up/", {"username": "x"}, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    fields = {error["field"] for error in body["errors"]}
    assert {"email", "password"} <= fields
