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
    "max_players_per_bloc": "The most players a bloc may admit (leave it empty for no cap).",
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

# The settings page groups the settings under these headings, in this order; each setting appears once.
SETTING_SECTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("The campaign", "Its name, who may see it and the catalogue lists are checked against.",
     ("name", "description", "is_public", "catalogue", "points_limit")),
    ("Scoring", "What a result is worth in the standings, and how players level on points are ordered.",
     ("points_win", "points_draw", "points_loss", "tiebreakers")),
    ("Economy", "Resource points: who keeps them, what they earn and what fortifications cost.",
     ("resources_held_by", "income_base", "award_win", "award_draw", "strongpoint_cost", "bunker_cost")),
    ("Rounds and reports", "Who may play, how challenges and reports run, and what an unplayed battle counts.",
     ("max_players_per_bloc", "max_open_challenges", "challenge_days", "report_confirm_hours",
      "unplayed_battles", "hide_results_until_close")),
    ("Special rules", "The Return to Zverograd rule sections the referee and the list checks use.", ("ruleset",)),
    ("Webhook", "Post confirmed results and round changes to a chat channel.", ("webhook_url",)),
)  # fmt: skip

# The standard Return to Zverograd campaign, as this project recommends it: every RtZ rule section on,
# the front line moving for everyone at the round's close, bloc-wide resources. Offered on the create
# page and the settings page; every value is a setting's value, within its bounds, and they agree.
STANDARD_RTZ: dict[str, object] = {
    "points_limit": 150,
    "points_win": 3,
    "points_draw": 1,
    "points_loss": 0,
    "tiebreakers": [Tiebreaker.VP_DIFFERENCE, Tiebreaker.HEAD_TO_HEAD, Tiebreaker.VP_FOR,
                    Tiebreaker.STRENGTH_OF_SCHEDULE],
    "ruleset": {"name": "rtz"},
    "resources_held_by": ResourceHolder.BLOC,
    "income_base": 1,
    "award_win": 2,
    "award_draw": 1,
    "strongpoint_cost": 3,
    "bunker_cost": 5,
    "unplayed_battles": UnplayedPolicy.NOT_PLAYED,
    "max_open_challenges": 1,
    "challenge_days": 3,
    "report_confirm_hours": 48,
    "hide_results_until_close": True,
}  # fmt: skip


def standard_rtz_summary() -> str:
    """The standard campaign in a sentence, read from ``STANDARD_RTZ`` so the words follow the values."""
    values = STANDARD_RTZ
    hidden = "results shown to all when the round closes" if values["hide_results_until_close"] else ""
    parts = [
        "every RtZ rule section on",
        f"{values['points_limit']} AP",
        f"{values['points_win']} points a win, {values['points_draw']} a draw and {values['points_loss']} a loss",
        f"resources kept by {ResourceHolder(str(values['resources_held_by'])).label.lower()}",
        f"{values['report_confirm_hours']} hours to confirm a report",
        hidden,
    ]
    text = ", ".join(part for part in parts if part)
    return text[0].upper() + text[1:] + "."
