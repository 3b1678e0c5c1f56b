"""The campaign's refusals: a stable code, a message for people, the field at fault."""

from __future__ import annotations

from core.errors import ConflictError, DomainError


class CampaignError(DomainError):
    """A campaign change the rules of the site refuse (400)."""


class CampaignConflictError(ConflictError):
    """A change refused because of the campaign's current state, or lost to another request (409)."""
