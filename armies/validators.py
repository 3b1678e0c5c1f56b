"""The Django side of ``armies.validation.names``: the one name validator every name shares (``core.validators``)."""

from __future__ import annotations

from core.validators import validate_name

__all__ = ["validate_name"]
