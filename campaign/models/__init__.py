"""The campaign's models, split by sub-domain."""

from campaign.models.campaign import Campaign, CoOrganiser
from campaign.models.economy import EntryKind, FortificationPurchase, ResourceEntry
from campaign.models.log import LogEntry, LogKind
from campaign.models.map import Sector
from campaign.models.players import Enrolment, EnrolmentStatus
from campaign.models.registrations import Registration
from campaign.models.rounds import (
    Battle,
    BattleSide,
    BattleSource,
    BattleStatus,
    Bye,
    Challenge,
    ChallengeStatus,
    Round,
    RoundStatus,
    sides_recorded,
)
from campaign.models.webhooks import DeliveryStatus, WebhookDelivery

__all__ = [
    "Battle",
    "BattleSide",
    "BattleSource",
    "BattleStatus",
    "Bye",
    "Campaign",
    "Challenge",
    "ChallengeStatus",
    "CoOrganiser",
    "DeliveryStatus",
    "Enrolment",
    "EnrolmentStatus",
    "EntryKind",
    "FortificationPurchase",
    "LogEntry",
    "LogKind",
    "Registration",
    "ResourceEntry",
    "Round",
    "RoundStatus",
    "Sector",
    "WebhookDelivery",
    "sides_recorded",
]
