"""Bounded URL path converters: no path segment can name a number the database cannot hold.

Django's ``int`` converter takes any run of digits; a 30-digit id reaches the
query and PostgreSQL fails it (bigint out of range), a 500. ``id`` takes 1 to
18 digits (every bigint id we hand out fits), anything longer is a plain 404.
``key`` is a list-local id or a slug: at most 128 characters, no slash.
"""

from __future__ import annotations

from django.urls import register_converter


class IdConverter:
    regex = "[1-9][0-9]{0,17}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(int(value))


class KeyConverter:
    regex = "[^/]{1,128}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def register() -> None:
    register_converter(IdConverter, "id")
    register_converter(KeyConverter, "key")
