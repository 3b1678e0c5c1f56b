"""The map drawn as SVG: well-formed, one link per sector, coloured by holder, safe with hostile names."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings

from armies.blocs import Bloc
from campaign.engine import (
    DEFAULT_COLOURS,
    Fortification,
    MapBattle,
    SectorSpec,
    Terrain,
    ZverogradMap,
    default_map,
    map_from_json,
    render_map_svg,
)
from tests.campaign.engine.builders import crossroads, map_documents

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert(\"x\")</script> & 'co'"


def href(key: str) -> str:
    return f"/campaigns/7/sectors/{key}/?tab=history&round=2"


def draw(zmap: ZverogradMap, state: Any = None, **options: Any) -> ET.Element:
    svg = render_map_svg(zmap, zmap.initial_state() if state is None else state, sector_href=href, **options)
    return ET.fromstring(svg)  # noqa: S314 - our own output, parsed to check it


def links(root: ET.Element) -> list[ET.Element]:
    return root.findall(f".//{SVG}a")


def of_class(root: ET.Element, css: str) -> list[ET.Element]:
    return [element for element in root.iter() if css in element.get("class", "").split()]


def test_it_draws_an_accessible_svg_with_a_fixed_view_box() -> None:
    zmap = default_map()
    root = draw(zmap, title="Zverograd, round 3")

    assert root.tag == f"{SVG}svg"
    # A named group of links: an image (role="img") may not hold focusable links.
    assert root.get("role") == "group"
    assert root.get("viewBox", "").startswith("0 0 1000 ")
    assert root.get("width") == "100%"
    assert root.get("height") is None
    title = root.find(f"{SVG}title")
    assert title is not None
    assert title.get("id") == root.get("aria-labelledby")
    assert title.text == "Zverograd, round 3"
    desc = root.find(f"{SVG}desc")
    assert desc is not None
    assert desc.get("id") == root.get("aria-describedby")
    assert "14 sectors" in (desc.text or "")


def test_it_links_each_sector_to_its_page_once() -> None:
    zmap = default_map()
    root = draw(zmap)

    anchors = links(root)

    assert [anchor.get("data-sector") for anchor in anchors] == list(zmap.keys)
    assert [anchor.get("href") for anchor in anchors] == [href(key) for key in zmap.keys]
    assert all(anchor.find(f"{SVG}polygon") is not None for anchor in anchors)
    # Each link is a tab stop named by its title (the keyboard reaches every sector from the picture).
    assert all(anchor.get("tabindex") is None for anchor in anchors)
    names = [anchor.findtext(f"{SVG}title") or "" for anchor in anchors]
    assert all(name.startswith(spec.name) for name, spec in zip(names, zmap.sectors, strict=True))


def test_it_fills_each_sector_with_its_holders_colour() -> None:
    zmap = default_map()
    state = zmap.initial_state()
    state["zoo"] = replace(state["zoo"], owner=Bloc.SSU)

    for anchor in links(draw(zmap, state)):
        owner = state[anchor.get("data-sector", "")].owner
        polygon = anchor.find(f"{SVG}polygon")
        assert polygon is not None
        assert anchor.get("data-owner") == ("neutral" if owner is None else owner.value)
        assert polygon.get("fill") == DEFAULT_COLOURS[None if owner is None else owner.value]


def test_it_gives_the_three_blocs_and_neutral_four_different_colours() -> None:
    assert len({DEFAULT_COLOURS[bloc.value] for bloc in Bloc} | {DEFAULT_COLOURS[None]}) == 4


def test_it_takes_other_colours_from_the_caller() -> None:
    zmap = default_map()

    root = draw(zmap, colours={"Axis": "#000000", None: "#eeeeee"})

    fills = {
        anchor.get("data-sector"): polygon.get("fill")
        for anchor in links(root)
        for polygon in anchor.iter(f"{SVG}polygon")
    }
    assert fills["airfield"] == fills["kolkhoz-fields"] == "#000000"
    assert fills["zoo"] == fills["central-station"] == "#eeeeee"
    assert fills["port"] == DEFAULT_COLOURS["Allies"]
    assert fills["tractor-works"] == DEFAULT_COLOURS["SSU"]


def test_it_labels_each_sector_with_its_holder_as_well_as_colour() -> None:
    zmap = default_map()
    root = draw(zmap)

    holders = [element.text for element in of_class(root, "sector-holder")]

    assert holders == ["neutral" if sector.owner is None else sector.owner.value for sector in zmap.sectors]
    legend = " ".join(element.text or "" for element in of_class(root, "legend")[0].iter(f"{SVG}text"))
    assert "Allies (2)" in legend
    assert "Neutral (8)" in legend


def test_it_tells_each_sectors_facts_in_its_tooltip() -> None:
    zmap = default_map()
    state = zmap.initial_state()
    state["zoo"] = replace(state["zoo"], owner=Bloc.AXIS, fortification=Fortification.BUNKER, value=3)

    zoo = next(anchor for anchor in links(draw(zmap, state)) if anchor.get("data-sector") == "zoo")
    airfield = next(anchor for anchor in links(draw(zmap, state)) if anchor.get("data-sector") == "airfield")

    assert zoo.findtext(f"{SVG}title") == "The Zoo; held by Axis; parkland ground; value 3; bunker"
    assert zoo.get("data-fortification") == "bunker"
    assert "Axis headquarters" in (airfield.findtext(f"{SVG}title") or "")
    assert airfield.get("data-headquarters") == "Axis"


def test_it_marks_headquarters_and_fortifications() -> None:
    zmap = default_map()
    state = zmap.initial_state()
    state["zoo"] = replace(state["zoo"], fortification=Fortification.BUNKER)
    state["port"] = replace(state["port"], fortification=Fortification.NONE)

    root = draw(zmap, state)

    assert len(of_class(root, "hq-marker")) == 3
    kinds = sorted(marker.get("data-kind", "") for marker in of_class(root, "fortification-marker"))
    assert kinds == ["bunker", "strongpoint", "strongpoint"]


def test_it_escapes_hostile_names_and_links() -> None:
    document = crossroads()
    document["sectors"][2]["name"] = HOSTILE
    document["name"] = HOSTILE
    zmap = map_from_json(document)

    svg = render_map_svg(zmap, zmap.initial_state(), sector_href=lambda key: f'"><script>{key}</script>')
    root = ET.fromstring(svg)  # noqa: S314

    assert "<script>" not in svg
    assert not list(root.iter(f"{SVG}script"))
    assert root.findtext(f"{SVG}title") == HOSTILE
    anchor = links(root)[2]
    assert anchor.get("href") == '"><script>square</script>'
    assert (anchor.findtext(f"{SVG}title") or "").startswith(HOSTILE)


def test_it_stays_well_formed_with_characters_xml_cannot_carry() -> None:
    # A map built in Python skips the format's name rules; the picture must not break anyway.
    zmap = map_from_json(crossroads())
    broken = replace(zmap.sector("square"), name="Square\x00\x1b\ud800")
    zmap = ZverogradMap(zmap.name, (*zmap.sectors[:2], broken, zmap.sectors[3]), zmap.width, zmap.height)

    root = draw(zmap, title="Bad\x07title")

    assert root.findtext(f"{SVG}title") == "Bad\ufffdtitle"
    assert (links(root)[2].findtext(f"{SVG}title") or "").startswith("Square\ufffd\ufffd\ufffd")


def test_it_outlines_the_highlighted_sector() -> None:
    root = draw(default_map(), highlight="zoo")

    highlighted = [anchor.get("data-sector") for anchor in of_class(root, "highlight")]

    assert highlighted == ["zoo"]
    assert of_class(root, "highlight")[0].get("aria-current") == "true"
    (outline,) = of_class(root, "highlight-outline")
    zoo = of_class(root, "highlight")[0].find(f"{SVG}polygon")
    assert zoo is not None
    assert outline.get("points") == zoo.get("points")


def test_it_refuses_a_highlight_or_a_state_that_does_not_fit_the_map() -> None:
    zmap = default_map()
    state = zmap.initial_state()
    del state["zoo"]

    with pytest.raises(ValueError, match="moon"):
        draw(zmap, highlight="moon")
    with pytest.raises(ValueError, match="zoo"):
        draw(zmap, state)


def test_it_draws_the_same_bytes_for_the_same_input() -> None:
    zmap = default_map()

    first = render_map_svg(zmap, zmap.initial_state(), sector_href=href)
    second = render_map_svg(default_map(), default_map().initial_state(), sector_href=href)

    assert first == second


def test_it_keeps_two_maps_on_one_page_apart() -> None:
    root = draw(default_map(), id_prefix="round-2")

    assert root.get("aria-labelledby") == "round-2-title"


def test_it_draws_no_barrier_or_link_on_the_default_map() -> None:
    root = draw(default_map())

    assert of_class(root, "barrier") == []
    assert of_class(root, "link") == []


def test_it_shows_where_the_drawing_and_the_roads_disagree() -> None:
    # Three sectors in a row, the middle one the SSU HQ: A and C are neighbours
    # (a bridge over it), B touches both cells but is only a neighbour of A.
    def sector(key: str, x: int, neighbours: tuple[str, ...], bloc: Bloc) -> SectorSpec:
        return SectorSpec(key, key.upper(), Terrain.OPEN, 1, neighbours, x, 50, bloc, bloc)

    zmap = ZverogradMap(
        "Bridge",
        (
            sector("a", 50, ("b", "c"), Bloc.AXIS),
            sector("b", 150, ("a",), Bloc.SSU),
            sector("c", 250, ("a",), Bloc.ALLIES),
        ),
        300,
        100,
    )

    root = draw(zmap)

    assert len(of_class(root, "link")) == 1  # a-c: neighbours whose cells do not touch
    assert len(of_class(root, "barrier")) == 1  # b-c: cells that touch without a road


@settings(max_examples=40, deadline=None)
@given(document=map_documents())
def test_it_draws_any_valid_map(document: dict[str, Any]) -> None:
    zmap = map_from_json(document)

    root = draw(zmap, highlight=zmap.keys[-1])

    assert [anchor.get("data-sector") for anchor in links(root)] == list(zmap.keys)
    assert len(of_class(root, "hq-marker")) == 3
    for anchor in links(root):
        polygon = anchor.find(f"{SVG}polygon")
        assert polygon is not None
        assert len(polygon.get("points", "").split()) >= 3


def test_it_marks_this_rounds_battles_with_an_arrow_from_the_attackers_side() -> None:
    zmap = default_map()
    battles = [
        MapBattle("memorial-park", "Karl", Bloc.AXIS, "Ivan", Bloc.SSU),
        MapBattle("brickworks", "Ada", Bloc.ALLIES, "Greta", Bloc.AXIS),
        MapBattle("monastery-hill", "Ada", Bloc.ALLIES, "Boris", Bloc.SSU),
    ]

    root = draw(zmap, battles=battles)

    assert sorted(e.get("data-sector", "") for e in of_class(root, "at-stake")) == [
        "brickworks", "memorial-park", "monastery-hill",
    ]  # fmt: skip
    # The Axis holds the Airfield and Kolkhoz Fields beside Memorial Park: the arrow starts in the nearer,
    # the Airfield; the Allies hold the Port beside the Brickworks; no Allied sector touches the Monastery Hill.
    arrows = {
        (e.get("data-from"), e.get("data-to"), e.get("data-bloc")) for e in of_class(root, "attack-arrow")
    }
    assert arrows == {("airfield", "memorial-park", "Axis"), ("port", "brickworks", "Allies")}
    park = next(a for a in links(root) if a.get("data-sector") == "memorial-park")
    assert park.get("data-at-stake") == "true"
    assert "at stake this round: Karl (Axis) attacks Ivan (SSU)" in (park.findtext(f"{SVG}title") or "")
    assert "3 sectors at stake this round." in (root.findtext(f"{SVG}desc") or "")
    assert len(of_class(root, "legend-at-stake")) == 1


def test_without_battles_it_draws_no_stake_and_no_legend_entry_for_it() -> None:
    root = draw(default_map())

    assert (
        of_class(root, "at-stake")
        == of_class(root, "attack-arrow")
        == of_class(root, "legend-at-stake")
        == []
    )
    assert "at stake" not in (root.findtext(f"{SVG}desc") or "")


def test_it_refuses_a_battle_over_a_sector_the_map_does_not_have() -> None:
    with pytest.raises(ValueError, match="nowhere"):
        draw(default_map(), battles=[MapBattle("nowhere", "Karl", Bloc.AXIS, "Ivan", Bloc.SSU)])


def test_it_draws_no_arrow_for_an_attacker_over_its_own_blocs_sector() -> None:
    zmap = default_map()
    state = zmap.initial_state()
    state["memorial-park"] = replace(state["memorial-park"], owner=Bloc.AXIS)

    root = draw(zmap, state, battles=[MapBattle("memorial-park", "Karl", Bloc.AXIS, "Ivan", Bloc.SSU)])

    assert [e.get("data-sector") for e in of_class(root, "at-stake")] == ["memorial-park"]
    assert of_class(root, "attack-arrow") == []
