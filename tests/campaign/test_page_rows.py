"""The campaign page's long lists drawn in Python give the bytes the templates' loops gave, and its map's SVG
is drawn again whenever anything it shows changes.

Each ``OLD_*`` below is the loop as campaign/detail.html, campaign/_registrations.html and campaign/_map.html
had it before the rows were drawn in Python, rendered by the template engine beside the function that
replaced it, on values that need escaping and on every branch (factions, badges, warnings, superseded lists,
headquarters, fortifications, neutral sectors).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.template import engines
from django.urls import reverse
from django.utils import timezone

from armies.blocs import Bloc
from campaign.engine.map import Fortification, SectorSpec, SectorState, Terrain, ZverogradMap
from campaign.engine.svg import MapBattle, render_map_svg
from campaign.selectors import RegistrationRow, RosterPlace
from campaign.views.page_rows import (
    map_battle_lines,
    map_drawing,
    registration_rows,
    roster_lines,
    sector_rows,
)
from campaign.views.presenters import day_and_time

OLD_ROSTER = """<ul class="roster">
            {% for place, faction_name in players %}
              <li>{{ place.name }}{% if faction_name %} <span class="muted">· {{ faction_name }}</span>{% endif %}{% if place.mercenary %} <span class="badge">mercenary</span>{% endif %}{% if place.is_placeholder %} <span class="badge">no account yet</span>{% endif %}{% if place.status == "left" %} <span class="badge">left</span>{% endif %}</li>
            {% endfor %}
          </ul>"""  # noqa: E501
NEW_ROSTER = """<ul class="roster">
            {{ players }}
          </ul>"""

OLD_REGISTRATIONS = """<tbody>
          {% for registration, registered in registrations %}
            <tr data-testid="registration-row">
              <td><a href="{{ lists_url }}{{ registration.pk }}/">{{ registration.name }}</a>{% if not registration.is_current %} <span class="muted">(superseded)</span>{% endif %}</td>
              <td>{{ registration.player }} <span class="muted">({{ registration.bloc }})</span></td>
              <td>{{ registration.total_ap }}</td>
              <td>{% with warnings=registration.warnings %}{% if warnings %}<span class="badge badge-warning">{{ warnings }} warning{{ warnings|pluralize }}</span>{% else %}<span class="badge badge-ok">ok</span>{% endif %}{% endwith %}</td>
              <td>{{ registered }}</td>
            </tr>
          {% endfor %}
        </tbody>"""  # noqa: E501
NEW_REGISTRATIONS = """<tbody>
          {{ registrations }}
        </tbody>"""

OLD_BATTLES = """<ul class="map-battles" data-testid="map-battles">{% for sector_name, battle in map_battles %}<li>{{ sector_name }}: {{ battle.attacker }} ({{ battle.attacker_bloc.value }}) attacks {{ battle.defender }} ({{ battle.defender_bloc.value }})</li>{% endfor %}</ul>"""  # noqa: E501
NEW_BATTLES = """<ul class="map-battles" data-testid="map-battles">{{ map_battles }}</ul>"""

OLD_SECTORS = """<tbody>
            {% for row in sector_rows %}
              <tr data-sector="{{ row.key }}">
                <th scope="row"><a href="{% url 'campaign:sector' campaign.pk row.key %}">{{ row.name }}</a>{% if row.headquarters_of %} <span class="badge">{{ row.headquarters_of }} HQ</span>{% endif %}</th>
                <td><span class="bloc-swatch" style="--bloc-colour: {{ row.colour }}" aria-hidden="true"></span>{{ row.holder }}</td>
                <td>{{ row.terrain }}</td>
                <td>{{ row.value }}</td>
                <td>{{ row.fortification|default:"none" }}</td>
              </tr>
            {% endfor %}
          </tbody>"""  # noqa: E501
NEW_SECTORS = """<tbody>
            {{ sector_rows }}
          </tbody>"""

AWKWARD = '<b>O\'Neil & "Sons"</b>'


def _render(source: str, **context: object) -> str:
    return engines["django"].from_string(source).render(context)


def _map() -> ZverogradMap:
    return ZverogradMap(
        name="Test ground",
        sectors=(
            SectorSpec("depot", AWKWARD, Terrain.URBAN, 2, ("river",), 100, 100, headquarters_of=Bloc.AXIS),
            SectorSpec("river", "The river", Terrain.OPEN, 1, ("depot",), 600, 400),
        ),
    )


def _state(owner: Bloc | None = None) -> dict[str, SectorState]:
    return {
        "depot": SectorState(Bloc.AXIS, Fortification.BUNKER, 2, Terrain.URBAN),
        "river": SectorState(owner, Fortification.NONE, 1000, Terrain.OPEN),
    }


def test_it_draws_the_roster_as_its_template_did():
    places = [
        RosterPlace(AWKWARD, "", False, False, "admitted"),
        RosterPlace("Anna", "coastal-raiders", True, False, "admitted"),
        RosterPlace("Boris", "gone-faction", False, True, "left"),
        RosterPlace("Karl", "<script>", True, True, "admitted"),
    ]
    factions = {(3, "coastal-raiders"): "Coastal <Raiders> & co"}
    old = [(place, "" if not place.faction else factions.get((3, place.faction))
            or place.faction.replace("-", " ").capitalize()) for place in places]  # fmt: skip

    drawn = _render(NEW_ROSTER, players=roster_lines(places, factions=factions, catalogue_id=3))

    assert drawn == _render(OLD_ROSTER, players=old)
    assert "&lt;b&gt;O&#x27;Neil &amp; &quot;Sons&quot;&lt;/b&gt;" in drawn
    assert "· Coastal &lt;Raiders&gt; &amp; co" in drawn
    assert roster_lines([], factions={}, catalogue_id=None) == ""


@pytest.mark.parametrize("zone", ["UTC", "Europe/Moscow"])
def test_it_draws_the_registered_lists_as_their_template_did(zone):
    moment = datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    rows = [
        RegistrationRow(11, AWKWARD, "Anna", "Allies", 150, 0, moment, True),
        RegistrationRow(12, "Second", AWKWARD, "<SSU>", 1500, 1, moment, False),
        RegistrationRow(13, "Third", "Karl", "Axis", 75, 2, moment, True),
    ]
    url = reverse("campaign:registrations", args=[7])
    with timezone.override(zone):
        drawn = _render(NEW_REGISTRATIONS, registrations=registration_rows(rows, lists_url=url))
        old = [(row, day_and_time(row.registered_at)) for row in rows]  # as the view handed them before
        expected = _render("{% url 'campaign:registrations' 7 as lists_url %}" + OLD_REGISTRATIONS,
                           registrations=old)  # fmt: skip

    assert drawn == expected
    assert ">1 warning<" in drawn
    assert ">2 warnings<" in drawn
    assert "(superseded)" in drawn
    assert registration_rows([], lists_url=url) == ""


def test_it_draws_the_battles_at_stake_as_their_template_did():
    zmap = _map()
    battles = [
        MapBattle("depot", AWKWARD, Bloc.ALLIES, "Karl", Bloc.AXIS),
        MapBattle("river", "Anna", Bloc.SSU, "<i>Otto</i>", Bloc.AXIS),
    ]

    drawn = _render(NEW_BATTLES, map_battles=map_battle_lines(zmap, battles))

    assert drawn == _render(OLD_BATTLES, map_battles=[(zmap.sector(b.sector).name, b) for b in battles])
    assert map_battle_lines(zmap, []) == ""


@pytest.mark.parametrize("owner", [None, Bloc.SSU])
def test_it_draws_the_sectors_table_as_its_template_did(owner):
    zmap = _map()
    # The rows as the view handed them to the template before (campaign.views.pages.SectorRow).
    old = [
        {"key": "depot", "name": AWKWARD, "holder": "Axis", "colour": "#E69F00", "terrain": "urban", "value": 2,
         "fortification": "bunker", "headquarters_of": "Axis"},
        {"key": "river", "name": "The river", "holder": owner.value if owner else "neutral",
         "colour": "#CC79A7" if owner else "#D9D9D9", "terrain": "open", "value": 1000, "fortification": "",
         "headquarters_of": ""},
    ]  # fmt: skip

    drawn = _render(NEW_SECTORS, sector_rows=sector_rows(zmap, _state(owner), campaign_pk=7))

    assert drawn == _render(OLD_SECTORS, sector_rows=old, campaign={"pk": 7})
    assert "<td>none</td>" in drawn
    assert "<td>1000</td>" in drawn


def _href(key: str) -> str:
    return reverse("campaign:sector", args=[7, key])


def test_it_draws_the_map_again_whenever_what_it_shows_changes():
    zmap = _map()
    battle = MapBattle("river", "Anna", Bloc.SSU, "Karl", Bloc.AXIS)
    other = MapBattle("river", "Mila", Bloc.SSU, "Karl", Bloc.AXIS)
    # name: (state, battles, title, sector outlined)
    cases: dict[str, tuple[dict[str, SectorState], list[MapBattle], str, str | None]] = {
        "as loaded": (_state(), [], "Now", None),
        "the river taken": (_state(Bloc.SSU), [], "Now", None),
        "a battle over the river": (_state(), [battle], "Now", None),
        "another attacker": (_state(), [other], "Now", None),
        "the depot outlined": (_state(), [], "Now", "depot"),
        "another title": (_state(), [], "At the end of round 1", None),
    }
    drawn = {}
    for name, (state, battles, title, highlight) in cases.items():
        first = map_drawing(
            campaign_pk=7, zmap=zmap, state=state, title=title, highlight=highlight, battles=battles
        )
        again = map_drawing(
            campaign_pk=7, zmap=zmap, state=state, title=title, highlight=highlight, battles=battles
        )
        fresh = render_map_svg(
            zmap, state, sector_href=_href, title=title, highlight=highlight, battles=battles
        )
        assert first.svg == fresh, name
        assert first.battle_lines == map_battle_lines(zmap, battles), name
        assert first.sector_rows == sector_rows(zmap, state, campaign_pk=7), name
        assert again.sector_rows is first.sector_rows, name  # drawn once
        drawn[name] = first.svg
    elsewhere = map_drawing(campaign_pk=8, zmap=zmap, state=_state(), title="Now", highlight=None, battles=[])

    assert len(set(drawn.values())) == len(cases)
    assert "/campaigns/8/sectors/depot/" in elsewhere.svg
    assert "/campaigns/8/sectors/depot/" in elsewhere.sector_rows
    assert "/campaigns/7/" not in elsewhere.svg + elsewhere.sector_rows


def test_it_draws_the_map_once_for_every_sector_outlined():
    zmap = _map()
    plain = map_drawing(campaign_pk=7, zmap=zmap, state=_state(), title="Now", highlight=None, battles=[])
    for key in zmap.keys:
        outlined = map_drawing(
            campaign_pk=7, zmap=zmap, state=_state(), title="Now", highlight=key, battles=[]
        )

        assert outlined.sector_rows is plain.sector_rows, key  # the same drawing, found again
        assert outlined.svg == render_map_svg(zmap, _state(), sector_href=_href, title="Now", highlight=key)
        assert outlined.svg != plain.svg
