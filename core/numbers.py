"""Whole numbers in JSON text, bounded in digits before Python turns them into ints.

Python refuses to convert more than 4,300 digits to an int, in its own words ("Exceeds the
limit (4300 digits) for integer string conversion ... use sys.set_int_max_str_digits()"), which
are no sentence for a person and would reach them through any JSON parser's error. No number
this site reads has more than a few dozen digits, so every JSON reader passes ``bounded_int`` as
``parse_int``: a longer number is refused with ``NUMBER_TOO_LONG`` first (and costs no
quadratic conversion). Plain Python, for the pure engines too.
"""

from __future__ import annotations

MAX_JSON_NUMBER_DIGITS = 100
NUMBER_TOO_LONG = f"a number in it is longer than {MAX_JSON_NUMBER_DIGITS:,} digits"


class JsonNumberTooLongError(ValueError):
    """A number in JSON text longer than ``MAX_JSON_NUMBER_DIGITS`` digits; ``sentence`` says so."""

    sentence = NUMBER_TOO_LONG

    def __str__(self) -> str:
        return self.sentence


def bounded_int(digits: str) -> int:
    """``parse_int`` for ``json.loads``: the int, or ``JsonNumberTooLongError`` past the bound."""
    if len(digits.lstrip("-")) > MAX_JSON_NUMBER_DIGITS:
        raise JsonNumberTooLongError(digits[:20])
    return int(digits)


def whole_number(text: str, *, digits: int) -> int | None:
    """``text`` as a whole number of at most ``digits`` ASCII digits, else None (``"²".isdigit()`` is
    true, and ``int`` refuses it; a query's 5,000 digits are no number here either)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= digits else None
