"""A 403's code is the one the docs name: raised with its code, answered with it, and documented.

``PermissionDenied(detail={"code": ...})`` answered ``permission_denied`` where the docs say
``not-a-player``: every code an API module refuses with (``refuse(message, code)`` or
``PermissionDenied(message, code=...)``) must be answered as raised and named in docs/.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "armies", "battles", "campaign", "exchange", "rules", "standings", "core")
_REFUSE = re.compile(r"""refuse\(\s*(?:f?"[^"]*"|[A-Z_]+)\s*,\s*"([a-z-]+)"\s*\)""")
_DENIED = re.compile(r"""PermissionDenied\([^()]*code="([a-z-]+)\"""")


def _raised_codes() -> set[str]:
    codes: set[str] = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            codes |= set(_REFUSE.findall(text)) | set(_DENIED.findall(text))
    return codes


def test_every_403_code_raised_by_the_api_is_named_in_the_docs() -> None:
    pages = [*(ROOT / "docs").glob("*.md"), ROOT / "README.md"]
    docs = " ".join(path.read_text(encoding="utf-8") for path in pages)
    codes = _raised_codes()

    assert "not-a-player" in codes
    assert sorted(code for code in codes if f"`{code}`" not in docs) == []
