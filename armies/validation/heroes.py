"""Heroes and commissars: one of each hero, and who may join whom ("Heroes", "Commissar" and the
joining skills).

Commissars join a unit the way heroes do: an infantry unit of the same armour, before the game, for
the whole game. A commissar is either a hero with the Commissar skill (Commissar Poon) or a plain
commissar, such as the NKVD political commissars that SSU squads may take along; the catalogue holds
those as units of their own, and a list enters one and joins it to its unit. A unit takes at most
one hero (or a pair of Siblings) and, besides, at most one commissar; a hero who is a commissar
counts as both, so nobody else may join Commissar Poon's unit.
"""

from __future__ import annotations

from armies.validation import skills
from armies.validation.context import Context
from armies.validation.types import ListEntry, UnitProfile

# Skills whose holders join only holders of the same skill, in both directions.
# Steel Guard and Gorilla say so outright. For Flying and Airborne the text says a
# unit with the skill takes only a joiner with it; we read it both ways because
# joining forms one combined unit that shares its skills, so a Flying or Airborne
# hero on an ordinary unit would lend the skill to it.
_MATCHING_SKILLS = (
    (skills.STEEL_GUARD, "join-steel-guard", "Steel Guard"),
    (skills.GORILLA, "join-gorilla", "Gorilla"),
    (skills.FLYING, "join-flying", "Flying"),
    (skills.AIRBORNE, "join-airborne", "Airborne"),
)


def check_unique_heroes(ctx: Context) -> None:
    """A hero may appear once; two keys with the same name are the same hero."""
    groups: dict[str, list[ListEntry]] = {}
    for entry, profile in ctx.known:
        if profile.is_hero:
            groups.setdefault(_hero_identity(profile), []).append(entry)
    for entries in groups.values():
        if len(entries) > 1:
            ctx.add(
                "duplicate-hero",
                f"{ctx.labels(entries)} are the same hero; a force may field each hero once",
                (entry.id for entry in entries),
            )


def _hero_identity(profile: UnitProfile) -> str:
    # Variants such as "Koshka (Red Guard)" and "Koshka" are one person.
    return skills.bare_name(profile.name) or profile.key


def check_joins(ctx: Context) -> None:
    for entry in ctx.army.entries:
        if entry.joined_to is None:
            continue
        hero = ctx.unit(entry)
        target_entry = ctx.entry(entry.joined_to)
        target = ctx.unit(target_entry)
        if hero is None or target_entry is None or target is None:
            continue  # unknown units and dangling ids are reported by the references check
        _check_one_join(ctx, entry, hero, target_entry, target)
    _check_heroes_per_unit(ctx)
    _check_commissars_per_unit(ctx)
    _check_commissars(ctx)


def _check_one_join(
    ctx: Context, entry: ListEntry, hero: UnitProfile, target_entry: ListEntry, target: UnitProfile
) -> None:
    who, whom = ctx.label(entry), ctx.label(target_entry)
    ids = (entry.id, target_entry.id)
    if not hero.is_joiner:
        ctx.add(
            "join-not-hero",
            f"{who} is joined to {whom}, but only heroes and commissars join other units",
            ids,
        )
        return
    if hero.has_skill(skills.SUPERHUMANS):
        ctx.add("join-superhuman", f"{who} is a Superhuman and may not join {whom}", ids)
        return
    if hero.has_skill(skills.LONER):
        ctx.add("join-loner", f"{who} is a Loner and may not join {whom}", ids)
        return
    if target.is_joiner or entry.id == target_entry.id:
        what = "a hero" if target.is_hero else "a commissar"
        ctx.add(
            "join-target-hero",
            f"{who} is joined to {whom}, {what}; heroes and commissars join ordinary units",
            ids,
        )
        return
    if target.unit_type != "infantry":
        ctx.add(
            "join-target-not-infantry",
            f"{who} is joined to {whom} ({target.unit_type}); heroes join infantry units "
            "(a hero with a pilot skill pilots a vehicle instead)",
            ids,
        )
        return
    if hero.armour != target.armour:
        ctx.add(
            "join-armour-mismatch",
            f"{who} (armour {hero.armour}) is joined to {whom} (armour {target.armour}); "
            "a hero or commissar joins a unit of the same armour",
            ids,
        )
    for skill_name, code, title in _MATCHING_SKILLS:
        if hero.has_skill(skill_name) != target.has_skill(skill_name):
            holder, other = (who, whom) if hero.has_skill(skill_name) else (whom, who)
            ctx.add(code, f"{holder} is {title} but {other} is not; they may not join", ids)
    _check_zombie_join(ctx, entry, hero, target_entry, target)


def _check_zombie_join(
    ctx: Context, entry: ListEntry, hero: UnitProfile, target_entry: ListEntry, target: UnitProfile
) -> None:
    # Mindless units are zombies too, and the Mindless skill also admits Blutkreuz heroes.
    zombie_hero = hero.has_skill(skills.ZOMBIE)
    zombie_unit = target.has_skill(skills.ZOMBIE) or target.has_skill(skills.MINDLESS)
    who, whom = ctx.label(entry), ctx.label(target_entry)
    ids = (entry.id, target_entry.id)
    if zombie_hero and not zombie_unit:
        ctx.add("join-zombie", f"{who} is a zombie hero and may join only zombie units, not {whom}", ids)
    elif zombie_unit and not zombie_hero:
        if target.has_skill(skills.MINDLESS) and hero.has_skill(skills.BLUTKREUZ):
            return
        extra = " or a Blutkreuz hero" if target.has_skill(skills.MINDLESS) else ""
        ctx.add("join-zombie", f"{whom} takes only a zombie hero{extra}, not {who}", ids)


def _check_heroes_per_unit(ctx: Context) -> None:
    for target_id, joiners in ctx.heroes_by_target.items():
        target_entry = ctx.entry(target_id)
        target = ctx.unit(target_entry)
        if target_entry is None or target is None or target.is_joiner:
            continue
        heroes = [(e, p) for e in joiners if (p := ctx.unit(e)) is not None and p.is_hero]
        if len(heroes) < 2:
            continue
        if len(heroes) == 2 and _siblings(heroes[0][1], heroes[1][1]):
            continue
        names = ctx.labels(e for e, _ in heroes)
        ctx.add(
            "join-too-many-heroes",
            f"{names} all join {ctx.label(target_entry)}; a unit takes one hero, "
            "or a pair of heroes who are Siblings of each other",
            (target_entry.id, *(e.id for e, _ in heroes)),
        )


def _siblings(left: UnitProfile, right: UnitProfile) -> bool:
    """Both carry Siblings and, where the skill names the other sibling, it names this one."""
    if not (left.has_skill(skills.SIBLINGS) and right.has_skill(skills.SIBLINGS)):
        return False
    return _names(left.skill_param(skills.SIBLINGS), right) and _names(
        right.skill_param(skills.SIBLINGS), left
    )


def _names(param: str | None, other: UnitProfile) -> bool:
    if param is None:
        return True
    return skills.same_name(param, other.name) or param.casefold() == other.key.casefold()


def _check_commissars_per_unit(ctx: Context) -> None:
    for target_id, joiners in ctx.heroes_by_target.items():
        target_entry = ctx.entry(target_id)
        target = ctx.unit(target_entry)
        if target_entry is None or target is None or target.is_joiner:
            continue  # joining a hero or commissar is reported on its own
        commissars = [e for e in joiners if (p := ctx.unit(e)) is not None and p.is_commissar]
        if len(commissars) > 1:
            ctx.add(
                "join-too-many-commissars",
                f"{ctx.labels(commissars)} all join {ctx.label(target_entry)}; a unit takes one commissar",
                (target_entry.id, *(e.id for e in commissars)),
            )


def _check_commissars(ctx: Context) -> None:
    # Ruling: a Commissar piloting a vehicle is still not joined, so it is flagged too.
    for entry, profile in ctx.known:
        if not profile.is_commissar or entry.joined_to is not None:
            continue
        ctx.add(
            "commissar-not-joined",
            f"{ctx.label(entry)} is a Commissar and must start the game joined to an infantry unit "
            "of the same armour",
            (entry.id,),
        )
