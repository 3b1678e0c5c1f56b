"""Schemathesis over every operation of the published OpenAPI schema: nothing answers a 5xx.

The schema states the real shapes and bounds, so the fuzzer sends what the
schema allows (and, in its negative phase, what it forbids); whatever comes
back must be an answer (2xx, a 4xx naming the problem), never a server error.
Requests are made by a logged-in staff user who organises a campaign and owns
a list, so the operations behind a login are reached too.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
import schemathesis
from django.core.serializers.json import DjangoJSONEncoder
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error, status_code_conformance

from tests.factories import ArmyListFactory, CampaignFactory, UserFactory

# CI runs 25 examples an operation; a deeper run sets ZVEROGRAD_FUZZ_EXAMPLES (e.g. 200).
EXAMPLES_PER_OPERATION = int(os.environ.get("ZVEROGRAD_FUZZ_EXAMPLES", "25"))
HEALTH_PATHS = {"/api/health/"}


@pytest.fixture
def fuzz_user(db: None, demo_catalogue: Any) -> Any:
    user = UserFactory(username="fuzzer", is_staff=True)
    CampaignFactory(organiser=user, catalogue=demo_catalogue)
    ArmyListFactory(owner=user, catalogue=demo_catalogue)
    return user


@pytest.fixture
def keep_test_connection() -> Any:
    """Like Django's test client: the WSGI handler must not close the test's database connection."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _published_schema() -> Any:
    """The schema /api/schema/ serves, built in-process, its requests sent to the WSGI app.

    Built when the module is collected (schemathesis parametrises from it);
    building it reads no database.
    """
    document = SchemaGenerator().get_schema(request=None, public=True)
    loaded = schemathesis.openapi.from_dict(json.loads(json.dumps(document, cls=DjangoJSONEncoder)))
    loaded.app = get_wsgi_application()
    return loaded


schema = _published_schema()


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)
def test_no_operation_answers_a_server_error(case: Any, fuzz_user: Any, keep_test_connection: None) -> None:
    token, _ = Token.objects.get_or_create(user=fuzz_user)
    headers = {"Authorization": f"Token {token.key}"}
    if case.operation.path in HEALTH_PATHS:
        # The health endpoint's documented answer for a degraded site is a 503 (no worker runs here).
        response = case.call(headers=headers)
        assert response.status_code < 500 or response.status_code == 503, case.as_curl_command(
            headers=headers
        )
        return
    case.call_and_validate(headers=headers, checks=[not_a_server_error, status_code_conformance])
