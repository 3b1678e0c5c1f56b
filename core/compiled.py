"""A ``values()`` query built and compiled by the ORM once per thread, then run with each call's values.

The night's most frequent request, the standings status poll, answers from one row; building its
queryset (two correlated subqueries) and compiling it to SQL cost 0.85 ms of CPU a poll, the
database's work 0.02-0.1 ms (scripts/bench_baseline.py). ``CompiledValues`` builds the queryset with
stand-in integers where each call's values go, compiles it once per thread and database connection
(a thread keeps its connection: the SQL and the converters stay valid), and then only binds the
values, runs the SQL and converts the row as the ORM would (datetimes made aware, booleans). The SQL is
the ORM's own, so the query is written once, in the ORM, where the rule it reads lives.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import QuerySet

# Integers no real id or value ever takes (ids are positive): the places a call's values go.
_FIRST_STAND_IN = -7_300_001


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    names: list[str]
    converters: list[tuple[int, list[Callable[..., Any]], Any]]


class CompiledValues:
    """``build(**stand_ins)`` returns the ``values()`` queryset for the given integers; ``first(**values)``
    returns its first row as a dict, or None. Every parameter must be an integer (an id)."""

    def __init__(self, build: Callable[..., QuerySet[Any, dict[str, Any]]], *params: str) -> None:
        self._build = build
        self._stand_ins = {name: _FIRST_STAND_IN - n for n, name in enumerate(params)}
        self._local = threading.local()

    def _compiled(self, alias: str) -> _Compiled:
        found: dict[str, _Compiled] = self._local.__dict__.setdefault("by_alias", {})
        if alias not in found:
            query = self._build(**self._stand_ins)[:1].query
            compiler = query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            used = {value for value in params if value in self._stand_ins.values()}
            if used != set(self._stand_ins.values()):
                raise ValueError("every parameter must reach the SQL as a value of its own")
            names = list(query.selected) if query.selected else [
                *query.extra_select, *query.values_select, *query.annotation_select
            ]  # fmt: skip
            converters = compiler.get_converters(
                [column[0] for column in compiler.select[: compiler.col_count]]
            )
            found[alias] = _Compiled(
                sql, tuple(params), names, [(pos, convs, expr) for pos, (convs, expr) in converters.items()]
            )
        return found[alias]

    def first(self, *, using: str = "default", **values: int | None) -> dict[str, Any] | None:
        if values.keys() != self._stand_ins.keys():
            raise TypeError(f"expected values for {sorted(self._stand_ins)}, got {sorted(values)}")
        compiled = self._compiled(using)
        by_stand_in: Mapping[Any, int | None] = {
            self._stand_ins[name]: value for name, value in values.items()
        }
        params = [
            by_stand_in.get(value, value) if isinstance(value, int) else value for value in compiled.params
        ]
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        converted = list(row)
        for pos, convs, expression in compiled.converters:
            for convert in convs:
                converted[pos] = convert(converted[pos], expression, connection)
        return dict(zip(compiled.names, converted, strict=True))
