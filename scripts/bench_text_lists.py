"""The reader of lists typed as text on its costliest admissible input: seconds per shape, printed.

Run from the repository root:  .venv/bin/python scripts/bench_text_lists.py

Each shape is a whole text as large as the bounds let through (``MAX_DOCUMENT_BYTES``
of lines each ``MAX_TEXT_LINE_LENGTH`` characters long, under ``MAX_TEXT_LIST_LINES``
lines) built to hurt a regular expression: long runs of spaces before a name's end
or a cost, brackets and parentheses that never close, separators repeated. Every
line names no unit, so each goes through every pattern of the reader and then the
search for close names. The text is handed to ``armies.textlists.read_text_list``
(plain Python, no database) against a handful of units; the seconds each shape
takes are printed, the worst named. Nothing is asserted: the tests prove the
bounds and the linear patterns by their structure, this shows what they buy.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from armies.textlists import read_text_list  # noqa: E402
from armies.validation import limits  # noqa: E402
from armies.validation.listformat import ListFormatError  # noqa: E402
from armies.validation.types import UnitProfile  # noqa: E402

UNITS = (
    UnitProfile("allies.rattlesnake", "Rattlesnake", "Allies", "vehicle", 3, 8),
    UnitProfile("allies.ranger-squad", "Ranger Squad", "Allies", "infantry", 2, 10),
)
WIDTH = limits.MAX_TEXT_LINE_LENGTH


def _fill(head: str, filler: str, tail: str) -> str:
    room = WIDTH - len(head) - len(tail)
    return head + (filler * room)[:room] + tail


# name -> one line of the text, exactly MAX_TEXT_LINE_LENGTH characters long
SHAPES: dict[str, Callable[[], str]] = {
    "spaces before a letter": lambda: _fill("Rattlesnake", " ", "x"),
    "spaces before a cost": lambda: _fill("Rattlesnake", " ", "(8 AP"),
    "spaces and a dash": lambda: _fill("Rattlesnake", " ", "- x"),
    "open parentheses": lambda: _fill("Rattlesnake ", "( ", "x"),
    "open brackets": lambda: _fill("Rattlesnake ", "[ ", "x"),
    "brackets and colons": lambda: _fill("Rattlesnake ", " [e1]: ", "x"),
    "bars and spaces": lambda: _fill("Allies", " | ", "x"),
    "spaces before x": lambda: _fill("Rattlesnake", " ", "x y"),
    "digits and spaces": lambda: _fill("Rattlesnake", " 1", "x"),
    "export lines": lambda: _fill("", "Rattlesnake [e1]: 8 AP ", "x"),
}


def _text(line: str) -> str:
    count = min(limits.MAX_TEXT_LIST_LINES - 1, (limits.MAX_DOCUMENT_BYTES - 100) // (len(line) + 1))
    return "Allies\n" + "\n".join([line] * count)


def main() -> int:
    worst = ("", 0.0)
    for name, shape in SHAPES.items():
        text = _text(shape())
        started = time.perf_counter()
        try:
            read_text_list(text, UNITS, catalogue_version="bench")
            outcome = "read"
        except ListFormatError as exc:
            outcome = f"refused: {exc.message[:60]}"
        seconds = time.perf_counter() - started
        print(f"{name:<24} {len(text):>8,} characters {seconds:8.3f} s  {outcome}")
        worst = max(worst, (name, seconds), key=lambda item: item[1])
    print(f"worst: {worst[0]} ({worst[1]:.3f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
