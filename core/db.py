"""Database expressions the selectors share, written for both engines the site runs on (SQLite, PostgreSQL)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Func, IntegerField, Model, QuerySet
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Coalesce

M = TypeVar("M", bound=Model)


class _ArrayLength(Func):
    function = "JSON_ARRAY_LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)


def json_array_length(column: str, key: str) -> Coalesce:
    """The length of the array under ``key`` of a JSON column (0 without one), counted by the database: a page
    that shows only how many problems a verdict holds never fetches and decodes the whole document."""
    return Coalesce(_ArrayLength(KeyTransform(key, column)), 0, output_field=IntegerField())


def one_or_none(rows: QuerySet[M]) -> M | None:
    """The row of a query that matches one at most (a primary key), or None: ``first()`` without its
    ordering. Django builds a map of every selected column to compile any ORDER BY, which costs more than
    the query itself for a wide ``select_related``; one row needs no order."""
    return next(iter(rows.order_by()[:1]), None)
