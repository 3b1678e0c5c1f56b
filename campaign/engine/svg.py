"""The map as an SVG picture, drawn on the server: plain Python, no Django, no JavaScript.

Each sector is the Voronoi cell of its position, filled with its holder's
colour and labelled with its name and holder (so colour is never the only
clue), wrapped in a link to its page. Borders between cells that are not
neighbours on the map are drawn as barriers, and neighbours whose cells do not
touch are joined by a dashed line, so the picture never claims an adjacency
the map does not have.

The picture is a named group (``role="group"``, its title and summary) of
sector links, each named by its ``<title>`` and reachable by keyboard like any
link (an image, ``role="img"``, may not hold focusable links); the labels drawn
over the cells are hidden from assistive technology, which reads the links'
names, and the page puts a table of the same facts beside it. Labels are sized
for a map drawn at least about 40rem wide; the page lets a narrower screen
scroll the picture rather than shrink it. The output depends only on the
arguments (same input, same bytes).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from armies.blocs import Bloc
from campaign.engine.geometry import Point, Polygon, shared_border, shared_edges, voronoi_cells
from campaign.engine.map import Fortification, MapState, SectorSpec, SectorState, ZverogradMap
from campaign.engine.svg_marks import fortification_marker, legend, legend_height, star
from campaign.engine.svg_text import INK, PAPER, holder_label, num, points_attr, xml_attr, xml_text

# Okabe & Ito's palette, chosen to stay apart for the common colour-vision
# deficiencies; light enough that dark labels keep a contrast above 4.5:1.
DEFAULT_COLOURS: Mapping[str | None, str] = {
    Bloc.ALLIES.value: "#56B4E9",
    Bloc.AXIS.value: "#E69F00",
    Bloc.SSU.value: "#CC79A7",
    None: "#D9D9D9",
}
# Sizes of the sector labels, in thousandths of the map's larger side: read at
# 11-12 px when the map is drawn 40rem wide.
NAME_SIZE = 18
HOLDER_SIZE = 14
# Shorter shared borders (in thousandths of the map's larger side) are corners
# where cells merely meet, not a front.
MIN_BORDER = 10.0


@dataclass(frozen=True)
class MapBattle:
    """A battle of the open round, as the map shows it: the sector at stake and who attacks whom.

    Only what anyone may see of a scheduled battle: never its result (a campaign may hide results until
    the round closes).
    """

    sector: str
    attacker: str
    attacker_bloc: Bloc
    defender: str
    defender_bloc: Bloc


@dataclass(frozen=True)
class MapLayers:
    """A map's SVG drawn for one state, in pieces around the sector it outlines: ``svg(highlight)`` joins
    them for any sector (or none) without drawing the rest again, the bytes ``render_map_svg`` gives."""

    keys: tuple[str, ...]
    head: tuple[str, ...]  # the <svg> element up to the sectors' group
    sectors: tuple[str, ...]  # each sector's link, in the map's order
    outlined: tuple[str, ...]  # each sector's link as the one outlined (its class and aria-current)
    outlines: tuple[str, ...]  # each sector's outline, drawn over every cell
    tail: tuple[str, ...]  # the borders, battles, labels, legend and the end

    def svg(self, highlight: str | None = None) -> str:
        if highlight is None:
            return "\n".join((*self.head, *self.sectors, "</g>", *self.tail)) + "\n"
        if highlight not in self.keys:
            raise ValueError(f"there is no sector {highlight!r} to highlight")
        at = self.keys.index(highlight)
        sectors = (*self.sectors[:at], self.outlined[at], *self.sectors[at + 1 :])
        return "\n".join((*self.head, *sectors, "</g>", self.outlines[at], *self.tail)) + "\n"


def render_map_svg(
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
    """The SVG document (a string) of ``zmap`` as ``state`` says it stands.

    ``sector_href(key)`` gives each sector's link; ``colours`` overrides the
    fill of a bloc (by name) or of neutral sectors (None); ``highlight`` is a
    sector key to outline; ``id_prefix`` keeps ids apart when a page shows two maps; ``battles`` are
    this round's battles: each sector at stake is outlined in dashes and, where the attacker's bloc holds
    a neighbouring sector (and not the sector itself), an arrow in its colour points from there.
    """
    layers = map_layers(
        zmap,
        state,
        sector_href=sector_href,
        colours=colours,
        title=title,
        id_prefix=id_prefix,
        battles=battles,
    )
    return layers.svg(highlight)


def map_layers(
    zmap: ZverogradMap,
    state: MapState,
    *,
    sector_href: Callable[[str], str],
    colours: Mapping[str | None, str] | None = None,
    title: str = "",
    id_prefix: str = "zverograd-map",
    battles: Sequence[MapBattle] = (),
) -> MapLayers:
    """``render_map_svg``'s drawing with the outlined sector left to ``MapLayers.svg``."""
    missing = [key for key in zmap.keys if key not in state]
    if missing:
        raise ValueError(f"the state has no entry for {', '.join(missing)}")
    strays = [battle.sector for battle in battles if battle.sector not in zmap]
    if strays:
        raise ValueError(f"there is no sector {strays[0]!r} for a battle")
    at_stake: dict[str, list[MapBattle]] = {}
    for battle in battles:
        at_stake.setdefault(battle.sector, []).append(battle)
    palette = {**DEFAULT_COLOURS, **(colours or {})}
    scale = max(zmap.width, zmap.height) / 1000
    below = legend_height(zmap, scale, 8 if at_stake else 7)
    layout = _layout(zmap)
    cells = layout.cells
    heading = title or zmap.name
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {zmap.width} {num(zmap.height + below)}"'
        f' width="100%" role="group" aria-labelledby="{xml_attr(id_prefix)}-title"'
        f' aria-describedby="{xml_attr(id_prefix)}-desc" class="zverograd-map"'
        f' font-family="sans-serif" font-size="{num(15 * scale)}">',
        f'<title id="{xml_attr(id_prefix)}-title">{xml_text(heading)}</title>',
        f'<desc id="{xml_attr(id_prefix)}-desc">{xml_text(_summary(zmap, state, at_stake))}</desc>',
        f'<rect class="background" x="0" y="0" width="{zmap.width}" height="{zmap.height}" fill="{PAPER}"/>',
        '<g class="sectors">',
    )
    drawn: tuple[list[str], list[str]] = ([], [])
    for sector, cell in zip(zmap.sectors, cells, strict=True):
        href, battles_here = sector_href(sector.key), at_stake.get(sector.key, ())
        for outlined in (False, True):
            drawn[outlined].append(
                _sector(sector, state[sector.key], cell, palette, href, outlined, scale, battles_here)
            )
    # Drawn over every cell: the neighbours' own borders would hide half of it.
    outlines = tuple(
        f'<polygon class="highlight-outline" points="{points_attr(cell)}"'
        f' fill="none" stroke="{INK}" stroke-width="{num(5 * scale)}" stroke-linejoin="round"'
        ' pointer-events="none" aria-hidden="true"/>'
        for cell in cells
    )
    tail = [layout.borders]
    if at_stake:
        tail.append(_battles(zmap, state, cells, at_stake, palette, scale))
    tail.append(_labels(zmap, state, scale))
    tail.append(legend(zmap, state, palette, scale, with_battles=bool(at_stake)))
    tail.append("</svg>")
    return MapLayers(zmap.keys, head, tuple(drawn[False]), tuple(drawn[True]), outlines, tuple(tail))


def _summary(zmap: ZverogradMap, state: MapState, at_stake: Mapping[str, list[MapBattle]]) -> str:
    counts = []
    for owner in (*Bloc, None):
        held = sum(1 for key in zmap.keys if state[key].owner == owner)
        counts.append(f"{'neutral' if owner is None else owner.value + ' holds'} {held}")
    summary = f"{len(zmap.sectors)} sectors: {', '.join(counts)}."
    if at_stake:
        count = len(at_stake)
        summary += f" {count} sector{'' if count == 1 else 's'} at stake this round."
    return summary


def _battle_words(battle: MapBattle) -> str:
    return f"{battle.attacker} ({battle.attacker_bloc.value}) attacks {battle.defender} ({battle.defender_bloc.value})"


def _sector_title(sector: SectorSpec, now: SectorState, battles: Sequence[MapBattle] = ()) -> str:
    held = "neutral" if now.owner is None else f"held by {now.owner.value}"
    fortified = "no fortification" if now.fortification is Fortification.NONE else now.fortification.value
    facts = [sector.name, held, f"{now.terrain.value} ground", f"value {now.value}", fortified]
    if sector.headquarters_of is not None:
        facts.append(f"{sector.headquarters_of.value} headquarters")
    if battles:
        facts.append("at stake this round: " + ", and ".join(_battle_words(battle) for battle in battles))
    return "; ".join(facts)


def _sector(
    sector: SectorSpec,
    now: SectorState,
    cell: Polygon,
    palette: Mapping[str | None, str],
    href: str,
    highlighted: bool,
    scale: float,
    battles: Sequence[MapBattle] = (),
) -> str:
    owner = None if now.owner is None else now.owner.value
    classes = "sector highlight" if highlighted else "sector"
    extra = f' data-headquarters="{xml_attr(sector.headquarters_of.value)}"' if sector.headquarters_of else ""
    current = ' aria-current="true"' if highlighted else ""
    if battles:
        extra += ' data-at-stake="true"'
    stroke = f'stroke="{INK}" stroke-width="{num(1.5 * scale)}"'
    return (
        f'<a href="{xml_attr(href)}" class="{classes}" data-sector="{xml_attr(sector.key)}"'
        f' data-owner="{xml_attr(holder_label(now.owner))}" data-fortification="{xml_attr(now.fortification.value)}"'
        f' data-terrain="{xml_attr(now.terrain.value)}" data-value="{now.value}"{extra}{current}>'
        f"<title>{xml_text(_sector_title(sector, now, battles))}</title>"
        f'<polygon points="{points_attr(cell)}" fill="{xml_attr(palette[owner])}" {stroke} stroke-linejoin="round"/>'
        "</a>"
    )


@dataclass(frozen=True)
class _Layout:
    cells: tuple[Polygon, ...]
    borders: str


@lru_cache(maxsize=32)
def _layout(zmap: ZverogradMap) -> _Layout:
    """The cells and borders: they depend on the map alone (not on who holds what), so each map's are worked
    out once (about half the drawing's time) however often it is drawn."""
    sites = tuple((float(sector.x), float(sector.y)) for sector in zmap.sectors)
    cells = voronoi_cells(sites, zmap.width, zmap.height)
    scale = max(zmap.width, zmap.height) / 1000
    return _Layout(cells, _borders(zmap, sites, cells, scale))


def _borders(zmap: ZverogradMap, sites: Sequence[Point], cells: tuple[Polygon, ...], scale: float) -> str:
    """Barriers where cells touch without adjacency; dashed links where neighbours do not touch."""
    parts = ['<g class="borders" aria-hidden="true">']
    for first, sector in enumerate(zmap.sectors):
        for second in range(first + 1, len(sites)):
            neighbours = zmap.sectors[second].key in sector.neighbours
            border = shared_border(cells[first], sites[first], sites[second])
            if neighbours and border < MIN_BORDER * scale:
                (x1, y1), (x2, y2) = sites[first], sites[second]
                parts.append(
                    f'<line class="link" x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}"'
                    f' stroke="{INK}" stroke-width="{num(2 * scale)}" stroke-dasharray="{num(8 * scale)}"/>'
                )
            elif not neighbours and border >= MIN_BORDER * scale:
                for start, end in shared_edges(cells[first], sites[first], sites[second]):
                    parts.append(
                        f'<line class="barrier" x1="{num(start[0])}" y1="{num(start[1])}"'
                        f' x2="{num(end[0])}" y2="{num(end[1])}" stroke="{INK}"'
                        f' stroke-width="{num(6 * scale)}" stroke-linecap="round"/>'
                    )
    parts.append("</g>")
    return "\n".join(parts)


def _label_lines(name: str) -> list[str]:
    """One line, or two balanced at a space for a long name."""
    if len(name) <= 16 or " " not in name:
        return [name]
    spaces = [index for index, char in enumerate(name) if char == " "]
    middle = min(spaces, key=lambda index: (abs(len(name) / 2 - index), index))
    return [name[:middle], name[middle + 1 :]]


def _labels(zmap: ZverogradMap, state: MapState, scale: float) -> str:
    # Labels sit above every cell and its borders, and let clicks through to the link below.
    parts = ['<g class="labels" pointer-events="none" aria-hidden="true">']
    halo = f'stroke="{PAPER}" stroke-width="{num(4 * scale)}" paint-order="stroke" stroke-linejoin="round"'
    for sector in zmap.sectors:
        now = state[sector.key]
        lines = _label_lines(sector.name)
        line_height = (NAME_SIZE + 2) * scale
        # A site near the edge of the box would push its label off the picture:
        # keep the label (and the markers above it) inside, near the site.
        half_width = max(len(line) for line in lines) * NAME_SIZE * scale * 0.31 + 4 * scale
        x = min(max(float(sector.x), half_width), zmap.width - half_width)
        x = x if half_width * 2 < zmap.width else zmap.width / 2
        block = (len(lines) - 1) * line_height
        y = min(max(float(sector.y), block / 2 + 38 * scale), zmap.height - block / 2 - 30 * scale)
        top = y - block / 2
        tspans = "".join(
            f'<tspan x="{num(x)}" y="{num(top + index * line_height)}">{xml_text(line)}</tspan>'
            for index, line in enumerate(lines)
        )
        parts.append(
            f'<text class="sector-name" text-anchor="middle" dominant-baseline="middle" font-weight="bold"'
            f' font-size="{num(NAME_SIZE * scale)}" fill="{INK}" {halo}>{tspans}</text>'
        )
        below = top + (len(lines) - 1) * line_height + (NAME_SIZE + 2) * scale
        parts.append(
            f'<text class="sector-holder" x="{num(x)}" y="{num(below)}" text-anchor="middle"'
            f' dominant-baseline="middle" font-size="{num(HOLDER_SIZE * scale)}" fill="{INK}" {halo}>'
            f"{xml_text(holder_label(now.owner))}</text>"
        )
        above = top - 24 * scale
        if sector.headquarters_of is not None:
            parts.append(
                star(x - (12 * scale if now.fortification is not Fortification.NONE else 0), above, scale)
            )
        if now.fortification is not Fortification.NONE:
            shift = 12 * scale if sector.headquarters_of is not None else 0
            parts.append(fortification_marker(now.fortification, x + shift, above, scale))
    parts.append("</g>")
    return "\n".join(parts)


def _battles(
    zmap: ZverogradMap,
    state: MapState,
    cells: tuple[Polygon, ...],
    at_stake: Mapping[str, list[MapBattle]],
    palette: Mapping[str | None, str],
    scale: float,
) -> str:
    """Each sector at stake outlined in dashes; an arrow from a neighbour the attacker's bloc holds."""
    parts = ['<g class="battles" pointer-events="none" aria-hidden="true">']
    for key in zmap.keys:
        if key not in at_stake:
            continue
        index = zmap.keys.index(key)
        parts.append(
            f'<polygon class="at-stake" data-sector="{xml_attr(key)}" points="{points_attr(cells[index])}" fill="none"'
            f' stroke="{INK}" stroke-width="{num(6 * scale)}" stroke-dasharray="{num(14 * scale)} {num(8 * scale)}"'
            ' stroke-linejoin="round"/>'
        )
        target = zmap.sector(key)
        arrows: set[str] = set()
        for battle in at_stake[key]:
            bloc = battle.attacker_bloc
            # An attacker fighting over its own bloc's sector comes from nowhere else: no arrow.
            if bloc.value in arrows or state[key].owner == bloc:
                continue
            arrows.add(bloc.value)
            sources = [
                zmap.sector(n)
                for n in sorted(target.neighbours)
                if n in zmap and state[n].owner == bloc and n != key
            ]
            if not sources:
                continue
            source = min(sources, key=lambda s: ((s.x - target.x) ** 2 + (s.y - target.y) ** 2, s.key))
            parts.append(_arrow(source, target, palette[bloc.value], bloc, scale))
    parts.append("</g>")
    return "\n".join(parts)


def _arrow(source: SectorSpec, target: SectorSpec, colour: str, bloc: Bloc, scale: float) -> str:
    """A thick arrow across the border, from the attacker's side towards the sector at stake."""
    dx, dy = float(target.x - source.x), float(target.y - source.y)
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    start = (source.x + dx * 0.35, source.y + dy * 0.35)
    tip = (source.x + dx * 0.7, source.y + dy * 0.7)
    head = 16 * scale
    base = (tip[0] - ux * head, tip[1] - uy * head)
    wing = (-uy * head * 0.6, ux * head * 0.6)
    head_points: Polygon = (
        tip,
        (base[0] + wing[0], base[1] + wing[1]),
        (base[0] - wing[0], base[1] - wing[1]),
    )
    return (
        f'<g class="attack-arrow" data-from="{xml_attr(source.key)}" data-to="{xml_attr(target.key)}"'
        f' data-bloc="{xml_attr(bloc.value)}">'
        f'<line x1="{num(start[0])}" y1="{num(start[1])}" x2="{num(base[0])}" y2="{num(base[1])}"'
        f' stroke="{INK}" stroke-width="{num(9 * scale)}" stroke-linecap="round"/>'
        f'<line x1="{num(start[0])}" y1="{num(start[1])}" x2="{num(base[0])}" y2="{num(base[1])}"'
        f' stroke="{xml_attr(colour)}" stroke-width="{num(5 * scale)}" stroke-linecap="round"/>'
        f'<polygon points="{points_attr(head_points)}" fill="{xml_attr(colour)}" stroke="{INK}"'
        f' stroke-width="{num(1.5 * scale)}" stroke-linejoin="round"/>'
        "</g>"
    )
