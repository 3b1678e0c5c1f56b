"""The referee's answers shaped for the calculator's templates: figures, charts, the roll and its dice.

Plain functions over the JSON-ready dicts that ``rules.referee`` returns, so the
page shows exactly what the API would answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import QueryDict

from rules.charts import BarChart, bar_chart, percent

# Query parameters that are not part of the calculator's state.
TRANSIENT = frozenset({"roll", "seed", "refresh", "csrfmiddlewaretoken"})


def odds_figures(odds: dict[str, Any], target: dict[str, Any]) -> list[tuple[str, str]]:
    """The averages, labelled; the critical-hit and cheat-death chances when they can happen."""
    expected = odds["expected"]
    squad = target.get("models", 1) > 1
    figures = [
        ("Hits", f"{expected['hits']:.2f}"),
        ("Saved", f"{expected['saved']:.2f}"),
        ("Unsaved", f"{expected['unsaved']:.2f}"),
        ("Damage", f"{expected['damage']:.2f}"),
        (
            "Models removed" if squad else "Damage removed",
            f"{expected['models_removed' if squad else 'damage_removed']:.2f}",
        ),
    ]
    if odds["p_critical_hit"]:
        figures.append(("Critical hit", percent(odds["p_critical_hit"])))
    if odds["p_cheat_death"]:
        figures.append(("Cheats death", percent(odds["p_cheat_death"])))
    return figures


def odds_charts(odds: dict[str, Any], target: dict[str, Any]) -> list[BarChart]:
    """Hits, unsaved hits, damage dealt, and models (squads) or damage (single models) removed."""
    squad = target.get("models", 1) > 1

    def chart(name: str, title: str, x_label: str) -> BarChart:
        dist = odds[name]
        return bar_chart(dist["probabilities"], title=title, x_label=x_label, tail_from=dist["tail_from"])

    return [
        chart("hits", "Hits", "hits"),
        chart("unsaved", "Unsaved hits", "unsaved"),
        chart("damage", "Damage dealt", "damage"),
        chart("models_removed", "Models removed", "models")
        if squad
        else chart("damage_removed", "Damage removed", "damage"),
    ]


STRIKE_ORDERS = {
    "simultaneous": "The target strikes back at the same time as your close combat.",
    "attacker_first": "You strike first: only the target's survivors strike back.",
    "defender_first": (
        "The target strikes first: your close combat uses only the models it leaves you. "
        "The chance to destroy counts that; hits, saves and damage count every die you declared."
    ),
}


@dataclass(frozen=True)
class StrikeBack:
    """The target's strike back, for the page: when it strikes, the odds, the attacker's losses."""

    order: str
    figures: list[tuple[str, str]]
    chart: BarChart


def strike_back(odds: dict[str, Any], attacker: dict[str, Any] | None) -> StrikeBack | None:
    back = odds.get("strike_back")
    if back is None or attacker is None:
        return None
    squad = attacker.get("models", 1) > 1
    measure = "models_removed" if squad else "damage_removed"
    figures = [
        ("Strikes back", percent(back["p_strikes_back"])),
        ("You are wiped out", percent(back["p_destroyed"])),
        ("Models you lose" if squad else "Damage you take", f"{back[measure]['expected']:.2f}"),
    ]
    if back["p_cheat_death"]:
        figures.append(("Your hero cheats death", percent(back["p_cheat_death"])))
    dist = back[measure]
    chart = bar_chart(
        dist["probabilities"],
        title="Your models lost" if squad else "Your damage taken",
        x_label="models" if squad else "damage",
        tail_from=dist["tail_from"],
    )
    return StrikeBack(order=STRIKE_ORDERS[back["order"]], figures=figures, chart=chart)


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def roll_outcome(rolled: dict[str, Any], target: dict[str, Any]) -> tuple[str, list[str]]:
    """The roll in one sentence, and what else happened (suppression, criticals, ammunition)."""
    if rolled["cheat_death"]:
        headline = "Destroyed, but the hero cheats death!"
    elif rolled["destroyed"]:
        headline = "Target destroyed!"
    elif target.get("models", 1) > 1 and rolled["models_removed"]:
        headline = f"{plural(rolled['models_removed'], 'model')} removed, {rolled['models_left']} left."
    elif rolled["damage_removed"]:
        left = target.get("damage_per_model", 1) - rolled["damage_taken"]
        headline = f"{rolled['damage_removed']} damage: {left} left on the model."
    elif rolled["hits"]:
        headline = "Hit, but no damage."
    else:
        headline = "Missed."
    notes = []
    suppression = rolled["suppression"]
    if suppression["immune"]:
        notes.append("The target is immune to suppression.")
    elif suppression["automatic"]:
        notes.append("The target is suppressed outright.")
    elif suppression["hit"] and not rolled["destroyed"]:
        notes.append("Hit by ranged fire: the target takes suppression.")
    if rolled["stunned"]:
        notes.append("The target is stunned.")
    if rolled["grappled"]:
        notes.append("The target is grappled.")
    if rolled["critical_hit"]:
        notes.append(f"Critical hit: {rolled['critical_hit'].replace('_', ' ')}.")
    for state in rolled["ammo"]:
        if state["ammo"] is not None:
            notes.append(f"{state['name']}: {plural(state['ammo'], 'ammo box')} left.")
        elif state["loaded"] is False:
            notes.append(f"{state['name']} must be reloaded.")
    if rolled.get("retaliation"):
        back = rolled["retaliation"]
        notes.append(
            f"The target strikes back: {plural(back['hits'], 'hit')}, {back['damage']} damage"
            f"{', the attacker is destroyed' if back['destroyed'] else ''}."
        )
    return headline, notes


_TAG = re.compile(r"^weapons\[(\d+)\]\s*")


def log_groups(log: list[dict[str, Any]], weapons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive dice rolled for the same purpose, with the weapon's name in place of its tag."""
    names = {weapon["index"]: weapon["name"] for weapon in weapons}
    groups: list[dict[str, Any]] = []
    for record in log:
        purpose = record["purpose"]
        if groups and groups[-1]["purpose"] == purpose:
            group = groups[-1]
        else:
            match = _TAG.match(purpose)
            weapon = names.get(int(match[1]), "") if match else ""
            what = _TAG.sub("", purpose)
            group = {"purpose": purpose, "weapon": weapon, "what": what, "dice": [], "successes": 0}
            groups.append(group)
        group["dice"].append({"face": record["face"], "success": record["success"]})
        if record["success"]:
            group["successes"] += 1
    return groups


def permalink(data: QueryDict, seed: int) -> str:
    """The calculator's query that replays this roll: the inputs, roll=1 and the seed."""
    pairs = [(key, value) for key, values in data.lists() if key not in TRANSIENT for value in values]
    return "?" + urlencode([*pairs, ("roll", "1"), ("seed", str(seed))])
