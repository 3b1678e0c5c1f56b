"""Database expressions the selectors share, written for both engines the site runs on (SQLite, PostgreSQL)."""

from __future__ import annotations

from typing import Any

from django.db.models import Func, IntegerField
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Coalesce


class _ArrayLength(Func):
    function = "JSON_ARRAY_LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)


def json_array_length(column: str, key: str) -> Coalesce:
    """The length of the array under ``key`` of a JSON column (0 without one), counted by the database: a page
    that shows only how many problems a verdict holds never fetches and decodes the whole document."""
    return Coalesce(_ArrayLength(KeyTransform(key, column)), 0, output_field=IntegerField())
