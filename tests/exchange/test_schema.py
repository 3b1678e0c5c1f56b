"""The published JSON Schema is the one the spec gives, and exports conform to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from campaign.models import Campaign
from exchange.export import campaign_export
from exchange.schema import export_schema

pytestmark = pytest.mark.django_db

PUBLISHED = Path(__file__).resolve().parents[2] / "docs" / "schema" / "campaign-export.v1.json"


def test_the_published_schema_is_the_generated_one() -> None:
    assert json.loads(PUBLISHED.read_text(encoding="utf-8")) == export_schema()


def test_an_export_conforms_to_the_schema(played: Campaign) -> None:
    document: Any = json.loads(json.dumps(campaign_export(campaign=played)))
    jsonschema.Draft202012Validator(export_schema()).validate(document)
    document["battles"][0]["status"] = "won"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(export_schema()).validate(document)
