"""A map's drawing kept in layers gives, for every sector outlined (or none), the bytes of the drawing made
whole for that sector, with and without battles at stake, on hostile names too.

``old_render_map_svg`` is ``render_map_svg`` as it was before the outlined sector became a layer of its own
(one drawing per sector outlined), kept here to pin the new one against.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import pytest

from armies.blocs import Bloc
from campaign.engine import (
    MapBattle,
    MapState,
    ZverogradMap,
    default_map,
    render_map_svg,
    svg_marks,
    svg_text,
)
from campaign.engine import svg as engine
from campaign.engine.map import Fortification
from campaign.engine.svg import map_layers

HOSTILE = "<script>alert(\"x\")</script> & 'co'"


def old_render_map_svg(
    zmap: ZverogradMap,
    state: MapState,
    *,
    sector_href: Callable[[str], str],
    colours: Mapping[str | None, str] | None = None,
    title: str = "",
    highlight: str | None = None,
    id_prefix: str = "zverograd-map",
    battles: Sequence[MapBattle] = (),
) -> str:
    at_stake: dict[str, list[MapBattle]] = {}
    for battle in battles:
        at_stake.setdefault(battle.sector, []).append(battle)
    palette = {**engine.DEFAULT_COLOURS, **(colours or {})}
    scale = max(zmap.width, zmap.height) / 1000
    legend_height = svg_marks.legend_height(zmap, scale, 8 if at_stake else 7)
    layout = engine._layout(zmap)
    cells = layout.cells
    heading = title or zmap.name
    num, attr, text = svg_text.num, svg_text.xml_attr, svg_text.xml_text
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {zmap.width} {num(zmap.height + legend_height)}"'
        f' width="100%" role="group" aria-labelledby="{attr(id_prefix)}-title"'
        f' aria-describedby="{attr(id_prefix)}-desc" class="zverograd-map"'
        f' font-family="sans-serif" font-size="{num(15 * scale)}">',
        f'<title id="{attr(id_prefix)}-title">{text(heading)}</title>',
        f'<desc id="{attr(id_prefix)}-desc">{text(engine._summary(zmap, state, at_stake))}</desc>',
        f'<rect class="background" x="0" y="0" width="{zmap.width}" height="{zmap.height}" fill="{engine.PAPER}"/>',
        '<g class="sectors">',
    ]
    for sector, cell in zip(zmap.sectors, cells, strict=True):
        href, outlined, here = sector_href(sector.key), sector.key == highlight, at_stake.get(sector.key, ())
        parts.append(engine._sector(sector, state[sector.key], cell, palette, href, outlined, scale, here))
    parts.append("</g>")
    if highlight is not None:
        parts.append(
            f'<polygon class="highlight-outline" points="{svg_text.points_attr(cells[zmap.keys.index(highlight)])}"'
            f' fill="none" stroke="{engine.INK}" stroke-width="{num(5 * scale)}" stroke-linejoin="round"'
            ' pointer-events="none" aria-hidden="true"/>'
        )
    parts.append(layout.borders)
    if at_stake:
        parts.append(engine._battles(zmap, state, cells, at_stake, palette, scale))
    parts.append(engine._labels(zmap, state, scale))
    parts.append(svg_marks.legend(zmap, state, palette, scale, with_battles=bool(at_stake)))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def href(key: str) -> str:
    return f"/campaigns/7/sectors/{key}/?tab=history&round=2"


def hostile_map() -> tuple[ZverogradMap, dict[str, object]]:
    """The default map with a hostile name, a sector taken and fortified, and battles at stake."""
    zmap = default_map()
    first, second = zmap.sectors[0], zmap.sectors[1]
    zmap = ZverogradMap(zmap.name + HOSTILE, (replace(first, name=HOSTILE), *zmap.sectors[1:]))
    state = dict(zmap.initial_state())
    state[second.key] = replace(state[second.key], owner=Bloc.AXIS, fortification=Fortification.BUNKER)
    battles = (
        MapBattle(first.key, HOSTILE, Bloc.AXIS, "Mila", Bloc.SSU),
        MapBattle(first.key, "Tom", Bloc.ALLIES, "Ivan", Bloc.SSU),
        MapBattle(second.key, "Boris", Bloc.SSU, HOSTILE, Bloc.AXIS),
    )
    return zmap, {"state": state, "battles": battles}


@pytest.mark.parametrize("with_battles", [False, True])
def test_it_gives_the_whole_drawings_bytes_for_every_sector_outlined(with_battles: bool) -> None:
    zmap, made = hostile_map()
    state = made["state"]
    battles = made["battles"] if with_battles else ()
    options = {"sector_href": href, "title": "Round 3 " + HOSTILE, "battles": battles}
    layers = map_layers(zmap, state, **options)  # type: ignore[arg-type]

    for highlight in (None, *zmap.keys):
        old = old_render_map_svg(zmap, state, highlight=highlight, **options)  # type: ignore[arg-type]
        assert layers.svg(highlight) == old, highlight
        assert render_map_svg(zmap, state, highlight=highlight, **options) == old  # type: ignore[arg-type]
    assert layers.svg(zmap.keys[2]) != layers.svg(zmap.keys[3])


def test_it_refuses_to_outline_a_sector_the_map_does_not_have() -> None:
    zmap = default_map()
    layers = map_layers(zmap, zmap.initial_state(), sector_href=href)

    with pytest.raises(ValueError, match="no sector 'moon' to highlight"):
        layers.svg("moon")
