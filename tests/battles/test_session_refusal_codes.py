"""A battle session's 403 answers the code the docs give (docs/battle-sessions.md, docs/campaign-api.md):
``not-a-player``, not DRF's ``permission_denied`` (tests/core/test_refusal_codes.py holds the docs to the code)."""

from __future__ import annotations

from typing import Any

import pytest

from battles.sessions.services import session_start
from tests.battles.test_api_sessions import initiative

pytestmark = pytest.mark.django_db


def test_a_session_s_403_answers_the_code_the_docs_give(report_world: Any) -> None:
    report_world.publish(True)
    session = session_start(battle=report_world.battle, actor=report_world.attacker)[0]

    acted = initiative(report_world, session, "bystander")
    started = report_world.client("bystander").post(
        report_world.campaign_url(f"battles/{report_world.battle.pk}/session/")
    )

    assert (acted.status_code, acted.json()["code"]) == (403, "not-a-player")
    assert (started.status_code, started.json()["code"]) == (403, "not-a-player")
