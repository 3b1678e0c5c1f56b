"""The rows of a round's table of battles, written as HTML in one pass over plain columns.

A round of 250 battles rendered through a per-row template include cost about
40 ms of CPU a view (an include, two ``{% url %}`` reversals and some sixty
variable lookups per row). This writes exactly what that template wrote (the
test ``tests/battles/test_pages_round_rows.py`` pins it, as the viewers see it),
with every value escaped as the template escaped it: one ``reverse`` for the
battle addresses (the id spliced in), one per sector shown, and the
"no registered list yet" badge rendered once from its own template.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from html import escape  # what django.utils.html.escape calls, without its lazy-string wrapper

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import localize
from django.utils.safestring import SafeString, mark_safe

from campaign.battle_terms import mission_named
from campaign.models import Battle, BattleSource, BattleStatus, Campaign, Enrolment, Round
from campaign.selectors.rounds import BattleLine
from campaign.views.sections import battle_statuses, renamed_statuses, status_own_words

# An id no battle has in the address reversed once, replaced by each battle's own.
_SPLICE = 10**17 + 7
_MINE = ' class="mine"'
_YOURS = ' <span class="badge">yours</span>'
_NO_SECTOR = '<span class="muted">none yet</span>'
_CHALLENGE = ' <span class="muted">(challenge)</span>'
_STATUS_FIELDS = ["id", "campaign_id", "round_id", "attacker_id", "defender_id", "status"]
_SIDE_FIELDS = ["id", "player_id"]
_CAMPAIGN, _ROUND, _ATTACKER, _DEFENDER = (
    Battle.campaign.field,
    Battle.round.field,
    Battle.attacker.field,
    Battle.defender.field,
)


def line_statuses(
    request: HttpRequest, campaign: Campaign, round: Round, lines: Sequence[BattleLine]
) -> dict[int, str]:
    """Each line's status in words (by id), as ``battle_statuses`` says it: a battle instance is made only
    for a status some namer may reword (a reported battle), the rest are called by their status."""
    renamed = renamed_statuses()
    words = {line.pk: status_own_words(line.status) for line in lines}
    named = status_battles(campaign, round, [line for line in lines if line.status in renamed])
    words.update(battle_statuses(request, campaign, named))
    return words


def status_battles(campaign: Campaign, round: Round, lines: Iterable[BattleLine]) -> list[Battle]:
    """The battles as ``battle_statuses`` and its namers read them (their status, round and both sides'
    players), made from the lines' columns rather than fetched again."""
    alias = Battle.objects.db
    battles = []
    for line in lines:
        battle = Battle.from_db(
            alias,
            _STATUS_FIELDS,
            [line.pk, campaign.pk, round.pk, line.attacker_id, line.defender_id, line.status],
        )
        # As select_related fills them: the ids are set already, so the descriptors' checks have nothing to do.
        _CAMPAIGN.set_cached_value(battle, campaign)
        _ROUND.set_cached_value(battle, round)
        _ATTACKER.set_cached_value(
            battle, Enrolment.from_db(alias, _SIDE_FIELDS, [line.attacker_id, line.attacker_player_id])
        )
        _DEFENDER.set_cached_value(
            battle, Enrolment.from_db(alias, _SIDE_FIELDS, [line.defender_id, line.defender_player_id])
        )
        battles.append(battle)
    return battles


def _limit(limits: dict[int, str], value: int) -> str:
    # As the template printed a number (localised); a round's battles share a few limits.
    limits[value] = localize(value)
    return limits[value]


def battle_rows_html(
    campaign: Campaign,
    lines: Iterable[BattleLine],
    *,
    statuses: Mapping[int, str],
    mine: int | None,
    registered: Collection[int],
) -> SafeString:
    """The table's rows: ``statuses`` each battle's status in words, ``mine`` the viewer's place (flagged
    "yours"), ``registered`` the places with a registered list (the others flagged while to be fought)."""
    prefix, suffix = reverse("campaign:battle", args=[campaign.pk, _SPLICE]).rsplit(str(_SPLICE), 1)
    prefix, suffix = escape(prefix), escape(suffix)  # as {% url %} escapes what it writes
    no_list = " " + render_to_string("campaign/_no_list.html")
    sectors: dict[str, str] = {}
    limits: dict[int, str] = {}
    out: list[str] = []
    for line in lines:
        is_mine = mine is not None and mine in (line.attacker_id, line.defender_id)
        scheduled = line.status == BattleStatus.SCHEDULED
        if line.sector_key is not None and line.sector_name is not None:
            if line.sector_key not in sectors:
                sectors[line.sector_key] = escape(
                    reverse("campaign:sector", args=[campaign.pk, line.sector_key])
                )
            sector = f'<a href="{sectors[line.sector_key]}">{escape(line.sector_name)}</a>'
        else:
            sector = _NO_SECTOR
        attacker_flags = (_YOURS if is_mine else "") + (
            no_list if scheduled and line.attacker_id not in registered else ""
        )
        defender_flags = no_list if scheduled and line.defender_id not in registered else ""
        out.append(
            f'<tr data-testid="battle-row" data-battle="{line.pk}"{_MINE if is_mine else ""}>\n'
            f'  <td><a href="{prefix}{line.pk}{suffix}">{escape(line.attacker_name)}</a>'
            f' <span class="muted">({escape(line.attacker_bloc)})</span>{attacker_flags}</td>\n'
            f'  <td>{escape(line.defender_name)} <span class="muted">({escape(line.defender_bloc)})</span>'
            f"{defender_flags}</td>\n"
            f"  <td>{sector}</td>\n"
            f"  <td>{escape(mission_named(line.mission).name)}</td>\n"
            f"  <td>{limits.get(line.points_limit) or _limit(limits, line.points_limit)}</td>\n"
            f"  <td>{escape(statuses[line.pk])}{_CHALLENGE if line.source == BattleSource.CHALLENGE else ''}</td>\n"
            "</tr>\n"
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped
