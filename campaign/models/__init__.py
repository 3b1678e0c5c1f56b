"""The campaign's models, split by sub-domain."""

from campaign.models.campaign import Campaign, CoOrganiser
from campaign.models.log import LogEntry, LogKind
from campaign.models.map import Sector
from campaign.models.players import Enrolment, EnrolmentStatus
from campaign.models.registrations import Registration

__all__ = [
    "Campaign",
    "CoOrganiser",
    "Enrolment",
    "EnrolmentStatus",
    "LogEntry",
    "LogKind",
    "Registration",
    "Sector",
]
