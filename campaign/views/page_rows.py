"""The campaign page's long lists drawn as HTML in Python, and its map's drawing kept while what it shows is unchanged.

A 500-player campaign's page has 500 roster lines, 500 registered lists and 250 battles at stake: drawn by
the template language they cost about 30 ms of CPU (a variable lookup, an escape and a localisation for each
of about 87,000 values). Drawn here they give the same bytes as the templates' loops did (each function
names the template it stands for; tests/campaign/test_page_rows.py renders those loops beside them) at a
fraction of the cost. Every value a visitor may have typed goes through ``html.escape``, as the template's
autoescape did (the values are plain ``str`` from the database, never already-safe strings).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import NamedTuple

from django.urls import get_script_prefix, reverse
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe

from armies.selectors import faction_shown
from campaign.engine.map import Fortification, MapState, SectorState, ZverogradMap
from campaign.engine.svg import MapBattle, MapLayers, map_layers
from campaign.engine.svg_text import holder_label
from campaign.selectors import (
    BlocRoster,
    RegistrationRow,
    RegistrationRows,
    RosterPlace,
    RosterRows,
    registrations_from,
    rosters_from,
)
from campaign.views.common import bloc_colour
from campaign.views.presenters import days_and_times

# Indentation of the loops these rows replace, so the page keeps its bytes.
_ROSTER_LINE = "\n              <li>{}</li>\n            "
_REGISTRATION_ROW = (
    '\n            <tr data-testid="registration-row">'
    '\n              <td><a href="{url}{pk}/">{name}</a>{superseded}</td>'
    '\n              <td>{player} <span class="muted">({bloc})</span></td>'
    "\n              <td>{ap}</td>"
    "\n              <td>{verdict}</td>"
    "\n              <td>{registered}</td>"
    "\n            </tr>\n          "
)
_SECTOR_ROW = (
    '\n              <tr data-sector="{key}">'
    '\n                <th scope="row"><a href="{href}">{name}</a>{headquarters}</th>'
    '\n                <td><span class="bloc-swatch" style="--bloc-colour: {colour}" aria-hidden="true"></span>'
    "{holder}</td>"
    "\n                <td>{terrain}</td>"
    "\n                <td>{value}</td>"
    "\n                <td>{fortification}</td>"
    "\n              </tr>\n            "
)
# Drawings kept per process: a campaign's page now, its past rounds, and its map as its sectors' and battles'
# pages show it (one drawing for every sector outlined) are a drawing each. A 500-player page's is about 75 kB
# of text (250 battles named twice), and each sector is drawn twice (outlined or not), so a few MB.
_DRAWINGS_KEPT = 64
# Tables kept per process (the lists table and the rosters of a campaign's page, the lists page with and
# without the superseded ones): a 500-player campaign's are about 150 kB of text and 100 kB of rows each.
_TABLES_KEPT = 32


def roster_lines(
    places: Iterable[RosterPlace], *, factions: dict[tuple[int, str], str], catalogue_id: int | None
) -> SafeString:
    """A bloc's players as the ``<li>`` lines of its roster (the loop of campaign/detail.html)."""
    lines = []
    for place in places:
        faction = faction_shown(factions, catalogue_id, place.faction)
        text = escape(str(place.name))
        if faction:
            text += f' <span class="muted">· {escape(faction)}</span>'
        if place.mercenary:
            text += ' <span class="badge">mercenary</span>'
        if place.is_placeholder:
            text += ' <span class="badge">no account yet</span>'
        if place.status == "left":
            text += ' <span class="badge">left</span>'
        lines.append(_ROSTER_LINE.format(text))
    return mark_safe("".join(lines))  # noqa: S308 - every value above is escaped


def registration_rows(rows: Sequence[RegistrationRow], *, lists_url: str) -> SafeString:
    """The lists table's rows (the loop of campaign/_registrations.html), each with when it was registered in
    words; empty when there are none. ``lists_url`` is the campaign's lists address, reversed once."""
    url = escape(lists_url)
    drawn = []
    for row, registered in zip(rows, days_and_times(row.registered_at for row in rows), strict=True):
        warnings = row.warnings
        verdict = (
            f'<span class="badge badge-warning">{warnings} warning{"" if warnings == 1 else "s"}</span>'
            if warnings
            else '<span class="badge badge-ok">ok</span>'
        )
        drawn.append(
            _REGISTRATION_ROW.format(
                url=url,
                pk=row.pk,
                name=escape(str(row.name)),
                superseded="" if row.is_current else ' <span class="muted">(superseded)</span>',
                player=escape(str(row.player)),
                bloc=escape(str(row.bloc)),
                ap=row.total_ap,
                verdict=verdict,
                registered=escape(registered),
            )
        )
    return mark_safe("".join(drawn))  # noqa: S308 - every value above is escaped


def map_battle_lines(zmap: ZverogradMap, battles: Iterable[MapBattle]) -> SafeString:
    """The battles at stake as the ``<li>`` lines under the map (the loop of campaign/_map.html); empty when
    there are none."""
    return mark_safe(  # noqa: S308 - every value is escaped
        "".join(
            f"<li>{escape(zmap.sector(battle.sector).name)}: {escape(battle.attacker)}"
            f" ({escape(battle.attacker_bloc.value)}) attacks {escape(battle.defender)}"
            f" ({escape(battle.defender_bloc.value)})</li>"
            for battle in battles
        )
    )


def sector_rows(
    zmap: ZverogradMap, state: MapState, *, campaign_pk: int, hrefs: Mapping[str, str] | None = None
) -> SafeString:
    """The sectors as the table beside the map states them (the loop of campaign/_map.html); ``hrefs``: each
    sector's address, when the caller has reversed them already."""
    hrefs = hrefs or {key: _sector_href(campaign_pk, key) for key in zmap.keys}
    drawn = []
    for spec in zmap.sectors:
        now = state[spec.key]
        hq = spec.headquarters_of
        fortification = "" if now.fortification is Fortification.NONE else now.fortification.value
        drawn.append(
            _SECTOR_ROW.format(
                key=escape(spec.key),
                href=escape(hrefs[spec.key]),
                name=escape(spec.name),
                headquarters=f' <span class="badge">{escape(hq.value)} HQ</span>' if hq else "",
                colour=escape(bloc_colour(now.owner.value if now.owner is not None else None)),
                holder=escape(holder_label(now.owner)),
                terrain=escape(now.terrain.value),
                value=now.value,
                fortification=escape(fortification or "none"),
            )
        )
    return mark_safe("".join(drawn))  # noqa: S308 - every value above is escaped


class MapDrawing(NamedTuple):
    """What the map panel draws from the map, its state and the battles at stake."""

    svg: SafeString
    battle_lines: SafeString  # map_battle_lines
    sector_rows: SafeString  # sector_rows


def map_drawing(
    *,
    campaign_pk: int,
    zmap: ZverogradMap,
    state: MapState,
    title: str,
    highlight: str | None,
    battles: Sequence[MapBattle],
) -> MapDrawing:
    """``render_map_svg`` of the campaign's map with its sectors linked to their pages, the battles at stake
    and the sectors' table, drawn once for each set of inputs (about 10 ms of CPU for a 30-sector map with 250
    battles). The drawing depends only on its arguments (campaign/engine/svg.py says so of the SVG; the two
    others are plain functions of them), and the key holds every one of them whole (the map, each sector's
    state, the battles, the title, and the campaign and script prefix the links are made of): any change to
    what is shown is a new key. The sector outlined is not in it: the drawing keeps it as a layer of its own
    (``MapLayers``), joined in for each request, so the pages of 250 battles on 30 sectors share one drawing.
    Nothing about the viewer is in it either: the drawing is the same for everyone who may see the campaign."""
    drawn = _drawn(campaign_pk, get_script_prefix(), zmap, tuple(state.items()), title, tuple(battles))
    return MapDrawing(
        svg=mark_safe(drawn.layers.svg(highlight)),  # noqa: S308 - the engine escapes every text it writes
        battle_lines=drawn.battle_lines,
        sector_rows=drawn.sector_rows,
    )


class _Drawn(NamedTuple):
    layers: MapLayers
    battle_lines: SafeString
    sector_rows: SafeString


@functools.lru_cache(maxsize=_DRAWINGS_KEPT)
def _drawn(
    campaign_pk: int,
    script_prefix: str,
    zmap: ZverogradMap,
    state_items: tuple[tuple[str, SectorState], ...],
    title: str,
    battles: tuple[MapBattle, ...],
) -> _Drawn:
    del script_prefix  # in the key only: reverse() below reads it
    state = dict(state_items)
    # Each sector's address reversed once, for its link on the map and in the table.
    hrefs = {key: _sector_href(campaign_pk, key) for key in zmap.keys}
    return _Drawn(
        layers=map_layers(zmap, state, sector_href=hrefs.__getitem__, title=title, battles=battles),
        battle_lines=map_battle_lines(zmap, battles),
        sector_rows=sector_rows(zmap, state, campaign_pk=campaign_pk, hrefs=hrefs),
    )


def _sector_href(campaign_pk: int, key: str) -> str:
    return reverse("campaign:sector", args=[campaign_pk, key])


def kept_registration_rows(rows: RegistrationRows, *, lists_url: str) -> SafeString:
    """``registration_rows`` of the lists table's rows, drawn once for each set of inputs and kept per process.

    The key holds every input whole: the rows as the database sent them (every column the table shows, in
    its order), the lists' address (with the script prefix), and the time zone and language the times are
    written in. A list registered, superseded or renamed, a player renamed or a warning more is a new key,
    so the table is never stale; nothing about the viewer is in it (every viewer of the page gets these rows).
    """
    return _registration_rows_drawn(
        rows, lists_url, timezone.get_current_timezone_name(), translation.get_language()
    )


@functools.lru_cache(maxsize=_TABLES_KEPT)
def _registration_rows_drawn(
    rows: RegistrationRows, lists_url: str, zone: str, language: str | None
) -> SafeString:
    del zone, language  # in the key only: days_and_times reads them
    return registration_rows(registrations_from(rows), lists_url=lists_url)


class DrawnRoster(NamedTuple):
    roster: BlocRoster
    colour: str
    lines: SafeString  # roster_lines


def kept_rosters(
    rows: RosterRows, *, factions: dict[tuple[int, str], str], catalogue_id: int | None
) -> tuple[DrawnRoster, ...]:
    """Each bloc's roster with its colour and its lines drawn (``roster_lines``), once for each set of inputs
    and kept per process: the key holds the rows as the database sent them (every column a line shows),
    the factions' names and the catalogue they are read from. Shared between requests: read only."""
    return _rosters_drawn(rows, tuple(sorted(factions.items())), catalogue_id)


@functools.lru_cache(maxsize=_TABLES_KEPT)
def _rosters_drawn(
    rows: RosterRows, faction_items: tuple[tuple[tuple[int, str], str], ...], catalogue_id: int | None
) -> tuple[DrawnRoster, ...]:
    factions = dict(faction_items)
    return tuple(
        DrawnRoster(
            roster,
            bloc_colour(roster.bloc),
            roster_lines(roster.players, factions=factions, catalogue_id=catalogue_id),
        )
        for roster in rosters_from(rows)
    )
