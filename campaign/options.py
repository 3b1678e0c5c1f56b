"""The vocabulary of a campaign's settings, each choice explained in a line for the settings page."""

from __future__ import annotations

from django.db import models


class Status(models.TextChoices):
    DRAFT = "draft", "Draft"
    REGISTRATION = "registration", "Open for registration"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class Tiebreaker(models.TextChoices):
    VP_DIFFERENCE = "vp_difference", "VP difference"
    VP_FOR = "vp_for", "VP for"
    AP_DESTROYED = "ap_destroyed", "AP destroyed"
    HEAD_TO_HEAD = "head_to_head", "Head to head"
    STRENGTH_OF_SCHEDULE = "strength_of_schedule", "Strength of schedule"


TIEBREAKER_HELP: dict[str, str] = {
    Tiebreaker.VP_DIFFERENCE: "Victory points scored minus victory points conceded, over all battles.",
    Tiebreaker.VP_FOR: "Victory points scored, over all battles.",
    Tiebreaker.AP_DESTROYED: "AP of enemy units eliminated, as paid in the lists fought with.",
    Tiebreaker.HEAD_TO_HEAD: "Among the tied players only: campaign points from their battles against each other.",
    Tiebreaker.STRENGTH_OF_SCHEDULE: "The sum of the campaign points of every opponent faced.",
}

DEFAULT_TIEBREAKERS: list[str] = [Tiebreaker.VP_DIFFERENCE, Tiebreaker.VP_FOR, Tiebreaker.HEAD_TO_HEAD]


class ResourceHolder(models.TextChoices):
    BLOC = "bloc", "Each bloc"
    PLAYER = "player", "Each player"


class UnplayedPolicy(models.TextChoices):
    NOT_PLAYED = "not_played", "Not played: no result, no points"
    FORFEIT = "forfeit", "Forfeit: the side that did not report loses"


# The settings page shows this line under each setting.
SETTING_HELP: dict[str, str] = {
    "name": "What players see in the campaign list.",
    "description": "Shown on the campaign page: the story, the schedule, house rules.",
    "is_public": "Anyone may see a public campaign; a private one is a 404 to all but its players "
    "and organisers, and is joined through the invitation link.",
    "catalogue": "The unit catalogue every list of the campaign is checked against, at the version chosen.",
    "points_limit": "The points limit of a battle unless the organiser sets another for it.",
    "points_win": "Campaign points for a win.",
    "points_draw": "Campaign points for a draw.",
    "points_loss": "Campaign points for a loss.",
    "tiebreakers": "How players level on campaign points are ordered, first rule first; "
    "players still level after all of them share the rank.",
    "ruleset": "Return to Zverograd special rules, section by section: off means the rulebook's rule.",
    "resources_held_by": "Who earns sector income and buys fortifications: each bloc as a whole, "
    "or each player for the sectors they took.",
    "strongpoint_cost": "Resource points a strongpoint costs.",
    "bunker_cost": "Resource points a bunker costs (a strongpoint is upgraded for the difference).",
    "income_base": "Resource points each holder earns every round on top of its sectors' values.",
    "max_players_per_bloc": "The most players a bloc may admit (empty: no cap).",
    "unplayed_battles": "What closing a round does with battles nobody reported.",
    "max_open_challenges": "How many challenges a player may have waiting for an answer in a round (0: none).",
    "challenge_days": "Days a challenged player has to answer (never past the round's deadline).",
    "report_confirm_hours": "Hours the opponent has to confirm or dispute a report; "
    "after that it is confirmed for them and both players are told.",
    "award_win": "Resource points the winner of a battle earns for their side when the result is confirmed.",
    "award_draw": "Resource points each side of a drawn battle earns when the result is confirmed.",
    "hide_results_until_close": "Keep confirmed results from players until the round closes, "
    "so the front line moves for everyone at once (organisers always see them).",
    "webhook_url": "Where confirmed results and round changes are posted (a Discord channel's webhook URL, "
    "for instance); empty: nowhere. Only organisers see it. Results are not posted while they are hidden.",
}

# Settings that decide results: fixed once the campaign runs, so standings never change under players.
LOCKED_WHEN_RUNNING: frozenset[str] = frozenset(
    {"catalogue", "points_win", "points_draw", "points_loss", "tiebreakers", "ruleset", "resources_held_by",
     "award_win", "award_draw"}
)  # fmt: skip
