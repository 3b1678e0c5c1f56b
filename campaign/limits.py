"""The input bounds of a campaign: one constant each, read by the forms, the serializers and the models.

Sized for the largest campaign a national community would run (500 players)
with a wide margin; text bounds are generous for people and small for storage.
"""

from __future__ import annotations

NAME_MAX_LENGTH = 80
DESCRIPTION_MAX_LENGTH = 4_000
REASON_MAX_LENGTH = 500  # why an organiser refused, changed or removed something
MESSAGE_MAX_LENGTH = 500  # an applicant's note to the organisers
PLACEHOLDER_NAME_MAX_LENGTH = 60
# Who acted, as an imported file named them (a username there: at most Django's 150 characters).
IMPORTED_NAME_MAX_LENGTH = 150
MAX_PLAYERS_PER_BLOC = 500
MAX_CO_ORGANISERS = 10
SCORE_MIN = -10
SCORE_MAX = 100
MAX_TIEBREAKERS = 5
RESOURCE_COST_MAX = 1_000
INCOME_MAX = 100
MAX_REGISTRATIONS_PER_PLAYER = 20
MAX_MAP_BYTES = 256 * 1024
ROUND_MAX_DAYS = 90  # a round's deadline is at most this far ahead
MAX_OPEN_CHALLENGES = 10  # the most a campaign may let a player have open in a round
CHALLENGE_DAYS_MAX = 30
MAX_PLAYERS_TO_PAIR = 2_000
REPORT_CONFIRM_HOURS_MAX = 24 * 30
WEBHOOK_URL_MAX_LENGTH = 500  # a Discord webhook URL is about 120 characters
