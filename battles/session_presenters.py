"""A battle session in words for its pages: the two forces as cards, the turn, and each legal step as a
button's label (``battles.sessions.selectors.session_view`` gives the ids and codes; pages never show them).

A step that names a unit (an activation, a roll for a third action, an attack, a reactive attempt, a
reserve placement, a special action's command) is offered on that unit's card, so a step is two taps
away: the card, then the step; a command is one button per command with its target picked from a list
of names. The others (initiative, who goes first, a split of hits, a pilot's escape, pass, end of turn)
are offered under "What now"; a split of hits among a combined unit's parts also as a form with a number
for each rider (``allocation_form``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

SIDES = ("attacker", "defender")
ACTION_WORDS = {
    "nothing": "nothing",
    "move": "move",
    "march": "march",
    "attack": "attack",
    "sustained": "sustained attack",
    "special": "special action",
}
PHASE_WORDS = {
    "initiative": "The turn starts: roll for initiative.",
    "choose_first": "{initiative} won the initiative and chooses who activates first.",
    "activations": "{to_act} activates a unit.",
    "turn_over": "Every unit has activated: end the turn.",
    "ended": "The battle is over.",
}
ENDING_WORDS = {
    "objective": "the objective was completed",
    "elimination": "a side has no unit left",
    "turn_limit": "the mission's last turn was played",
    "concession": "a side conceded",
}
# The special actions' commands (rules.engine.battle.commands), as their buttons say them.
COMMAND_WORDS = {
    "makeshift_repair": "Makeshift repair",
    "heal": "Get up: heal",
    "rally": "Rally",
    "ammo_drop": "Ammo drop",
    "get_moving": "Get moving: reactivate",
}
# The suppression rank (0, 1, 2) in each rule set's words: RtZ's levels, the rulebook's markers.
SUPPRESSION_WORDS = {True: ("", "suppressed", "pinned"), False: ("", "under fire", "suppressed")}


@dataclass
class Choice:
    """One legal step as a button: its label, and the step's JSON the form sends back."""

    label: str
    step: str
    kind: str
    rolls: bool = False
    attack: bool = False
    targets: list[tuple[str, str]] = field(default_factory=list)  # a command's: (the step's JSON, a name)
    dice: str = ""  # what its first roll wants, in words (``battles.session_dice``)
    typed: dict[str, str] = field(default_factory=dict)  # a refused form's fields, given back
    typed_faces: bool = False
    refusal: str = ""


@dataclass
class Card:
    unit: dict[str, Any]
    parts: list[dict[str, Any]] = field(default_factory=list)  # its riders (heroes, commissar) or its pilot
    choices: list[Choice] = field(default_factory=list)
    open: bool = False  # its refused step is given back: the card stays open


def _names(state: dict[str, Any]) -> dict[str, str]:
    return {unit["id"]: unit["name"] for unit in state["units"]}


def _player(state: dict[str, Any], side: str) -> str:
    return str(state["sides"][side]["player"] or side)


def group_weapons(setup: dict[str, Any], unit_id: str, state: dict[str, Any] | None = None) -> list[str]:
    """The weapon names of a unit's group as an attack's ``index`` counts them: its own, then each rider's
    still beside it in ``state`` (heroes and commissar joined to it, in the setup's order)."""
    units = [unit for side in SIDES for unit in setup.get(side, {}).get("units", [])]
    now = {unit["id"]: unit for unit in (state or {}).get("units", [])}

    def rides(unit: dict[str, Any]) -> bool:
        found = now.get(unit["id"])
        if found is None:
            return True
        return found.get("joined_to") == unit_id and not found["eliminated"] and not found["in_reserve"]

    own = [unit for unit in units if unit["id"] == unit_id]
    riders = [unit for unit in units if unit.get("joined_to") == unit_id and rides(unit)]
    return [
        str(weapon.get("name", "a weapon")) for unit in own + riders for weapon in unit.get("weapons", [])
    ]


def step_label(step: dict[str, Any], state: dict[str, Any], setup: dict[str, Any] | None = None) -> str:
    names = _names(state)
    kind = step["kind"]
    unit = names.get(step.get("unit") or "", "")
    if kind == "initiative":
        return "Roll for initiative"
    if kind == "first":
        return f"{_player(state, step['first'])} activates first"
    if kind == "activate":
        return "Declare: " + ", then ".join(ACTION_WORDS.get(action, action) for action in step["actions"])
    if kind == "attack":
        arms = group_weapons(setup or {}, step["unit"], state)
        used = [
            arms[use["index"]] if use["index"] < len(arms) else "a weapon"
            for use in step.get("weapons") or []
        ]
        return f"Attack {names.get(step['target'], 'the target')}" + (
            f" with {', '.join(used)}" if used else ""
        )
    if kind == "special":
        command = COMMAND_WORDS.get(step.get("command") or "", "Special action")
        return f"{command}: {names.get(step.get('target') or '', 'a unit')}"
    if kind == "reactive":
        return "Try a reactive attack (two dice)"
    if kind == "third-action":
        return "Roll for a third action"
    if kind == "hold-fire":
        return "Hold fire"
    if kind == "allocate":
        return _split_label(step, state)
    if kind == "escape":
        return (
            "No free square beside the wreck: the pilot is lost"
            if step.get("blocked")
            else "The pilot gets out"
        )
    if kind == "reserve":
        return "Put it in reserve"
    if kind == "end-activation":
        return "End the activation"
    if kind == "pass":
        return "Pass"
    if kind == "end-turn":
        return "End the turn"
    if kind == "concede":
        return f"Concede the battle for {_player(state, step['by'])}"
    return f"{kind.replace('-', ' ').capitalize()} {unit}".strip()


def _split_label(step: dict[str, Any], state: dict[str, Any]) -> str:
    """ "Give 2 unsaved hits to Wren, the rest to the Rangers", naming the parts of the unit hit."""
    names = _names(state)
    pending: dict[str, Any] = next((item for item in state["pending"] if item.get("kind") == "allocate"), {})
    riders = [names.get(rider, "the hero") for rider in pending.get("riders", [])]
    squad = names.get(pending.get("squad", ""), "the squad")
    rows = step.get("rider_hits") or [step.get("hero_hits") or []]
    given = [(rider, sum(row)) for rider, row in zip(riders or ["the hero"], rows, strict=False) if sum(row)]
    if not given:
        return f"Give every unsaved hit to {squad}"
    shares = ", ".join(f"{count} unsaved hit{'s' if count != 1 else ''} to {rider}" for rider, count in given)
    return f"Give {shares}, the rest to {squad}"


def allocation_form(state: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The split of the waiting hits as a form, when the viewer makes it: for each rider of the unit hit, a
    number of hits from each weapon line (the squad takes the rest); ``step`` is the step it completes."""
    offered = next((step for step in legal if step["kind"] == "allocate"), None)
    pending = state["pending"][0] if state["pending"] else None
    if offered is None or pending is None or pending.get("kind") != "allocate":
        return None
    units = {unit["id"]: unit for unit in state["units"]}
    weapons = pending.get("weapons") or ["a weapon"] * len(pending["unsaved"])
    lines = [
        {"weapon": name, "unsaved": unsaved}
        for name, unsaved in zip(weapons, pending["unsaved"], strict=False)
    ]
    riders = [
        {
            "name": units[rider]["name"],
            "what": _part_word(units[rider]),
            "damage_left": units[rider]["damage_left"],
            "inputs": [{"name": f"hits-{r}-{i}", **line} for i, line in enumerate(lines)],
        }
        for r, rider in enumerate(pending["riders"])
    ]
    template = {"kind": "allocate", "by": offered["by"], "rider_hits": [[0] * len(lines) for _ in riders]}
    squad = units[pending["squad"]]
    return {
        "squad": squad["name"],
        "squad_damage_left": squad["damage_left"],
        "riders": riders,
        "lines": lines,
        "hits": ", ".join(f"{line['unsaved']} from {line['weapon']}" for line in lines if line["unsaved"]),
        "step": json.dumps(template, separators=(",", ":")),
    }


def _part_word(unit: dict[str, Any]) -> str:
    if unit.get("pilot_of"):
        return "Pilot"
    if unit.get("commissar"):
        return "Hero and commissar" if unit.get("hero") else "Commissar"
    return "Hero"


_ROLLING = {"initiative", "attack", "reactive", "allocate", "escape", "special", "third-action"}


def choice_of(step: dict[str, Any], state: dict[str, Any], setup: dict[str, Any] | None = None) -> Choice:
    return Choice(
        label=step_label(step, state, setup),
        step=json.dumps(step, separators=(",", ":")),
        kind=step["kind"],
        rolls=step["kind"] in _ROLLING,
        attack=step["kind"] == "attack",
    )


def _unit_words(unit: dict[str, Any], rtz: bool) -> dict[str, Any]:
    markers = []
    if unit["eliminated"] and unit["in_reserve"]:
        markers.append("in reserve")
    elif unit["eliminated"]:
        markers.append("eliminated")
    words = SUPPRESSION_WORDS[rtz]
    suppression = words[min(unit["suppression"], len(words) - 1)]
    if suppression:
        markers.append(suppression)
    if unit["stunned"]:
        markers.append("stunned")
    if unit["activated"]:
        markers.append("activated this turn")
    ammo = [count for count in unit["ammo"] if count is not None]
    return {
        **unit,
        "markers": markers,
        "ammo_left": ammo,
        "off_table": unit["eliminated"],
        "fortification": str(unit["fortification"]).replace("_", " "),
        # The engine's sentences (each critical hit and what it does now); older states only name them.
        "critical_hits": unit.get("critical_effects")
        or [str(hit).replace("_", " ") for hit in unit["critical_hits"]],
    }


def cards(
    state: dict[str, Any], legal: list[dict[str, Any]], *, setup: dict[str, Any]
) -> dict[str, list[Card]]:
    """Each side's units as cards: the heroes and commissar joined to a squad, or a pilot, ride on the squad's
    or vehicle's card (one combined unit while the link holds), with the legal steps that name any of its
    units."""
    rtz = setup.get("ruleset", {}).get("name") == "rtz"
    units = {unit["id"]: _unit_words(unit, rtz) for unit in state["units"]}
    riders = {
        unit["id"]: unit["joined_to"] or unit["pilot_of"]
        for unit in state["units"]
        if unit["joined_to"] or unit["pilot_of"]
    }
    by_side: dict[str, list[Card]] = {side: [] for side in SIDES}
    found: dict[str, Card] = {}
    for unit in units.values():
        if unit["id"] in riders and riders[unit["id"]] in units:
            continue
        card = Card(unit=unit)
        found[unit["id"]] = card
        by_side[unit["side"]].append(card)
    for rider, lead in riders.items():
        if lead in found:
            found[lead].parts.append({**units[rider], "what": _part_word(units[rider])})
            found[rider] = found[lead]
    commands: dict[tuple[str, str], Choice] = {}
    for step in legal:
        key = step.get("unit")
        if key not in found:
            continue
        if step["kind"] == "special":
            _add_command(found[key], commands, step, state)
        else:
            found[key].choices.append(choice_of(step, state, setup))
    return by_side


def _add_command(
    card: Card, commands: dict[tuple[str, str], Choice], step: dict[str, Any], state: dict[str, Any]
) -> None:
    """One button per command on the unit's card, its targets a list of names."""
    key = (str(step.get("unit")), str(step.get("command")))
    choice = commands.get(key)
    if choice is None:
        label = COMMAND_WORDS.get(key[1], "Special action")
        choice = commands[key] = Choice(label=label, step="", kind="special", rolls=True)
        card.choices.append(choice)
    name = _names(state).get(step.get("target") or "", "a unit")
    choice.targets.append((json.dumps(step, separators=(",", ":")), name))


def general_choices(state: dict[str, Any], legal: list[dict[str, Any]]) -> list[Choice]:
    """The steps no unit card carries (concessions apart: they sit at the foot of the page)."""
    names = _names(state)
    return [choice_of(step, state) for step in legal
            if (step.get("unit") not in names) and step["kind"] != "concede"]  # fmt: skip


def concessions(state: dict[str, Any], legal: list[dict[str, Any]]) -> list[Choice]:
    return [choice_of(step, state) for step in legal if step["kind"] == "concede"]


def turn_words(state: dict[str, Any]) -> str:
    """Whose turn it is and what the rules wait for, in one sentence."""
    if state["ended"]:
        ending = state["ending"] or {}
        reasons = ", ".join(ENDING_WORDS.get(reason, reason) for reason in ending.get("reasons", []))
        if ending.get("draw"):
            return f"The battle is over ({reasons}): a draw."
        winner = ending.get("winner")
        won = f"{_player(state, winner)} wins" if winner else "no winner"
        return f"The battle is over ({reasons}): {won}."
    if state["pending"]:
        pending = state["pending"][0]
        side = pending.get("side", "")
        return f"{_player(state, side)} decides: {_pending_words(pending)}."
    activation = state["activation"]
    if activation is not None:
        names = _names(state)
        reaction = activation.get("reaction")
        if reaction is not None:
            unit = names.get(reaction["unit"], "A unit")
            return f"{unit} of {_player(state, reaction['side'])} may attack in reaction."
        left = activation.get("specials_left") or 0
        still = f" ({left} special action{'s' * (left != 1)} left)" if left else ""
        unit = names.get(activation["unit"], "A unit")
        return f"{unit} of {_player(state, activation['side'])} is activating{still}."
    rolled = state.get("third_action")
    if rolled:
        again = next((item for item in state["units"] if item["id"] == rolled["unit"]), None)
        if again is not None:
            actions = "three actions" if rolled["success"] else "two actions, the roll failed"
            return f"{again['name']} of {_player(state, again['side'])} activates now with {actions}."
    if state.get("reactivating"):
        again = next((item for item in state["units"] if item["id"] == state["reactivating"]), None)
        if again is not None:
            return f"{again['name']} of {_player(state, again['side'])} got moving: it activates again now."
    words = PHASE_WORDS.get(state["phase"], "")
    return words.format(
        initiative=_player(state, state["initiative"]) if state["initiative"] else "",
        to_act=_player(state, state["to_act"]) if state["to_act"] else "",
    )


def _pending_words(pending: dict[str, Any]) -> str:
    if pending.get("kind") == "escape":
        return "the pilot of a destroyed vehicle rolls to escape"
    return "how the unsaved hits are split among the parts of the unit hit"


# What a die was rolled for, as the engine labels it ("initiative: Anna", "reactive: attempt"), said in words;
# "{}" is what follows the colon. A label without a colon ("Trench Sweeper hit") is words already.
DIE_PURPOSES = {
    "initiative": "{}'s initiative",
    "suppression": "suppression, {}",
    "reactive": "reaction, {}",
    "third action": "third action for {}",
    "rally": "rally of {}",
    "makeshift repair": "makeshift repair of {}",
    "get up": "{} getting up",
    "get moving": "{} getting moving",
    "ammo drop": "ammo drop for {}",
    "weather": "the weather's {}",
}
_DIE_REWORDED = {
    "suppression, hit roll": "suppression from the hits",
    "reaction, attempt": "attempt to react",
}


def die_purpose_words(purpose: str) -> str:
    """``reactive: attempt`` as "attempt to react": the engine's label of a die, never shown as a key."""
    head, colon, rest = purpose.partition(": ")
    if not colon:
        return purpose
    said = DIE_PURPOSES.get(head, f"{head}, {{}}").format(rest)
    return _DIE_REWORDED.get(said, said)


def log_words(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The log, newest first, each entry with its dice in words."""
    entries = []
    for number, entry in enumerate(state["log"], start=1):
        dice = [
            {
                "purpose": die_purpose_words(str(die.get("purpose", ""))),
                "face": str(die.get("face", "")).lower(),
                "success": die.get("success"),
            }
            for die in entry.get("dice", [])
        ]
        entries.append(
            {"number": number, "text": entry.get("text") or entry.get("sentence", ""), "dice": dice}
        )
    return list(reversed(entries))
