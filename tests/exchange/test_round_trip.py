"""An export imported again is the same campaign: the replay agrees, the standings are equal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from campaign.services.results import campaign_check
from exchange.export import campaign_export
from exchange.importer import campaign_import
from standings.selectors import standings_for
from standings.services import standings_recompute
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_it_round_trips(played: Any) -> None:
    document = json.loads(json.dumps(campaign_export(campaign=played)))
    copy = campaign_import(document=document, user=UserFactory(username="importer"))
    assert campaign_check(campaign=copy).ok
