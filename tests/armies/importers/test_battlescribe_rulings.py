"""The BattleScribe reader's rulings, on small invented files: the captured-vehicle chart, add-ons
that join a unit, the strongpoint choice, entry types, uniqueness and catalogues that are no bloc."""

from __future__ import annotations

from pathlib import Path

import pytest

from armies.importers import ParsedCatalogue, ParsedGameData, read_battlescribe

GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"

GAME_SYSTEM = f"""<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="gs-r" name="Rulings System" revision="1" xmlns="{GST_NS}">
  <costTypes><costType id="points" name=" pts"/></costTypes>
  <profileTypes>
    <profileType id="pt-veh" name="Vehicle"/>
    <profileType id="pt-inf" name="Infantry"/>
    <profileType id="pt-hero" name="Heroes"/>
    <profileType id="pt-weapon" name="Weapons"/>
  </profileTypes>
  <categoryEntries>
    <categoryEntry id="cat-axis" name="Axis"/><categoryEntry id="cat-allies" name="Allies"/>
    <categoryEntry id="cat-v3" name="Vehicle 3"/><categoryEntry id="cat-i2" name="Infantry 2"/>
    <categoryEntry id="cat-heroes" name="Heroes"/>
  </categoryEntries>
  <sharedRules>
    <rule id="rule-commissar" name="Commissar"/><rule id="rule-brave" name="Brave"/>
  </sharedRules>
  <sharedProfiles>
    <profile id="prof-mg" name="Machinegun" profileTypeId="pt-weapon"><characteristics>
      <characteristic name="Range" value="6"/><characteristic name="S1" value="4/1"/>
    </characteristics></profile>
    <profile id="prof-mg2" name="Machinegun" profileTypeId="pt-weapon"><characteristics>
      <characteristic name="Range" value="6"/><characteristic name="S1" value="5/1"/>
    </characteristics></profile>
  </sharedProfiles>
</gameSystem>
"""


def _profile(name: str, type_id: str, armour: str, damage: str = "") -> str:
    track = f'<characteristic name="Damage Track" value="{damage}"/>' if damage else ""
    return f"""<profiles><profile id="p-{name}" name="{name}" profileTypeId="{type_id}"><characteristics>
      {track}<characteristic name="Move" value="2"/><characteristic name="March Move" value="4"/>
      <characteristic name="Armour" value="{armour}"/><characteristic name="Faction" value=""/>
    </characteristics></profile></profiles>"""


def _cost(value: float) -> str:
    return f'<costs><cost name=" pts" costTypeId="points" value="{value}"/></costs>'


def _one(kind: str = "min", scope: str = "parent") -> str:
    limit = f'field="selections" scope="{scope}" value="1.0" type="{kind}" id="{kind}"'
    return f"<constraints><constraint {limit}/></constraints>"


def _gun(entry_id: str, profile: str = "prof-mg") -> str:
    return f"""<selectionEntries><selectionEntry id="{entry_id}" name="Machinegun (Front)" type="upgrade">
      <infoLinks><infoLink id="il-{entry_id}" targetId="{profile}" type="profile"/></infoLinks>{_one()}
    </selectionEntry></selectionEntries>"""


def _vehicle(
    entry_id: str, name: str, cost: float, *, category: str, gun: str = "prof-mg", kind: str = "model"
) -> str:
    return f"""<selectionEntry id="{entry_id}" name="{name}" type="{kind}">
      {_profile(name, "pt-veh", "V3", "5")}
      <categoryLinks><categoryLink id="cl-{entry_id}" targetId="{category}" primary="true"/></categoryLinks>
      {_gun(f"g-{entry_id}", gun)}{_cost(cost)}
    </selectionEntry>"""


def _catalogue(cat_id: str, name: str, entries: str, shared: str = "", groups: str = "") -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="{cat_id}" name="{name}" revision="1" gameSystemId="gs-r" gameSystemRevision="1" xmlns="{CAT_NS}">
  <selectionEntries>{entries}</selectionEntries>
  <sharedSelectionEntries>{shared}</sharedSelectionEntries>
  <sharedSelectionEntryGroups>{groups}</sharedSelectionEntryGroups>
</catalogue>
"""


COMMISSAR = f"""<selectionEntry id="nkvd" name="Test Commissar" type="upgrade">
  {_profile("Test Commissar", "pt-inf", "S2")}
  <infoLinks><infoLink id="il-c1" targetId="rule-commissar" type="rule"/>
    <infoLink id="il-c2" targetId="rule-brave" type="rule"/></infoLinks>
  {_gun("g-nkvd")}{_cost(3)}
</selectionEntry>"""


def _fortification(strongpoint: float, bunker: float) -> str:
    return f"""<selectionEntryGroup id="fort" name="Fortification">{_one()}<selectionEntries>
      <selectionEntry id="fort-s" name="Strongpoint" type="upgrade">{_cost(strongpoint)}</selectionEntry>
      <selectionEntry id="fort-b" name="Bunker" type="upgrade">{_cost(bunker)}</selectionEntry>
    </selectionEntries></selectionEntryGroup>"""


def _squad(entry_id: str, name: str) -> str:
    return f"""<selectionEntry id="{entry_id}" name="{name}" type="unit">
      {_profile(name, "pt-inf", "S2")}
      <categoryLinks><categoryLink id="cl-{entry_id}" targetId="cat-i2" primary="true"/></categoryLinks>
      <selectionEntries><selectionEntry id="g-{entry_id}" name="Rifle" type="upgrade">
        <infoLinks><infoLink id="il-{entry_id}" targetId="prof-mg" type="profile"/></infoLinks>
        <constraints><constraint field="selections" scope="parent" value="5.0" type="min" id="m"/></constraints>
      </selectionEntry></selectionEntries>
      <selectionEntryGroups><selectionEntryGroup id="grp-{entry_id}" name="Commissar">{_one("max")}
        <entryLinks><entryLink id="el-{entry_id}" targetId="nkvd" type="selectionEntry"/></entryLinks>
      </selectionEntryGroup></selectionEntryGroups>
      {_cost(10)}
    </selectionEntry>"""


def _gun_emplacement(entry_id: str) -> str:
    return f"""<selectionEntry id="{entry_id}" name="Test Gun" type="unit">
      {_profile("Test Gun", "pt-inf", "S2", "4")}
      <categoryLinks><categoryLink id="cl-{entry_id}" targetId="cat-i2" primary="true"/></categoryLinks>
      {_gun(f"g-{entry_id}")}
      <entryLinks><entryLink id="el-{entry_id}" targetId="fort" type="selectionEntryGroup"/></entryLinks>
      {_cost(20)}
    </selectionEntry>"""


def _hero(entry_id: str, name: str, limit: str = "") -> str:
    return f"""<selectionEntry id="{entry_id}" name="{name}" type="model">
      {_profile(name, "pt-hero", "S1", "4")}{limit}
      <categoryLinks><categoryLink id="cl-{entry_id}" targetId="cat-heroes" primary="true"/></categoryLinks>
      {_cost(6)}
    </selectionEntry>"""


AXIS = _catalogue(
    "cat-ax",
    "Axis",
    _vehicle("ax-luther", "Testluther", 11, category="cat-v3")
    + _vehicle("ax-heinrich", "Testheinrich", 8, category="cat-v3")
    + _gun_emplacement("ax-gun")
    + _hero("ax-wolf", "Testwolf", _one("max", "parent"))
    + _hero("ax-roza", "Testroza")
    + _vehicle("ax-odd", "Oddity", 5, category="cat-v3", kind="widget"),
    groups=_fortification(0, 5),
)
SSU = _catalogue("cat-ssu", "SSU", _squad("ssu-a", "Squad A") + _squad("ssu-b", "Squad B"), shared=COMMISSAR)
CAPTURED = _catalogue(
    "cat-cap",
    "Captured Vehicles",
    # Luther is typed "upgrade" as in the real data; its copy prices the surcharge in, as the data does.
    _vehicle("cap-luther", "Testluther", 13, category="cat-axis", kind="upgrade")
    # Heinrich's copy is priced 3 AP over its original and carries another machinegun profile.
    + _vehicle("cap-heinrich", "Testheinrich", 11, category="cat-axis", gun="prof-mg2")
    # No Axis unit has this name.
    + _vehicle("cap-ghost", "Ghostpanzer", 9, category="cat-axis"),
)
MYTHOS = _catalogue("cat-my", "Mythos", _squad("my-cult", "Cultists"), shared=COMMISSAR)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name, text in (
        ("Rulings.gst", GAME_SYSTEM),
        ("Axis.cat", AXIS),
        ("SSU.cat", SSU),
        ("Captured.cat", CAPTURED),
        ("Mythos.cat", MYTHOS),
    ):
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.fixture
def game(folder: Path) -> ParsedGameData:
    return read_battlescribe(
        [folder / name for name in ("Rulings.gst", "Axis.cat", "SSU.cat", "Captured.cat", "Mythos.cat")]
    )


def _catalogue_named(game: ParsedGameData, name: str) -> ParsedCatalogue:
    found = game.catalogue(name)
    assert found is not None
    return found


def _issues(game: ParsedGameData, what: str) -> dict[str | None, str]:
    return {issue.entry_name: issue.detail for issue in game.full_report().of_kind(what)}


def test_it_points_each_captured_line_at_the_blocs_own_unit(game: ParsedGameData) -> None:
    captured = _catalogue_named(game, "Captured Vehicles")
    axis = _catalogue_named(game, "Axis")
    lines = {line.unit: line for line in captured.captured_vehicles}
    luther = axis.unit("Testluther")
    assert luther is not None
    assert luther.capturable
    assert (lines["axis.testluther"].cost, lines["axis.testluther"].captured_by) == (13, ("Allies", "SSU"))
    # Only the copy without an original is left as a unit of the chart's catalogue.
    assert [unit.name for unit in captured.units] == ["Ghostpanzer"]


def test_it_prices_a_captured_line_by_the_original_and_reports_a_chart_that_disagrees(
    game: ParsedGameData,
) -> None:
    line = next(
        line
        for line in _catalogue_named(game, "Captured Vehicles").captured_vehicles
        if line.unit == "axis.testheinrich"
    )
    assert line.cost == 8 + 2
    assert "prices it at 11 AP" in _issues(game, "captured-price-differs")["Testheinrich"]
    assert "the profile of Machinegun (Front)" in _issues(game, "captured-card-differs")["Testheinrich"]
    assert "Testluther" not in _issues(game, "captured-card-differs")


def test_it_keeps_a_captured_copy_without_original_at_its_price_less_the_surcharge(
    game: ParsedGameData,
) -> None:
    captured = _catalogue_named(game, "Captured Vehicles")
    ghost = captured.unit("Ghostpanzer")
    assert ghost is not None
    assert (ghost.bloc, ghost.cost, ghost.capturable) == ("Axis", 7, True)
    assert any(line.unit == ghost.key and line.cost == 9 for line in captured.captured_vehicles)
    assert (
        "no unit named 'Ghostpanzer' in Axis.cat" in _issues(game, "captured-without-original")["Ghostpanzer"]
    )


def test_it_keeps_every_captured_copy_when_the_blocs_catalogue_is_not_given(folder: Path) -> None:
    alone = read_battlescribe([folder / "Rulings.gst", folder / "Captured.cat"]).catalogues[0]
    costs = {unit.name: unit.cost for unit in alone.units}
    assert costs == {"Testluther": 11, "Testheinrich": 9, "Ghostpanzer": 7}
    assert {line.unit for line in alone.captured_vehicles} == {unit.key for unit in alone.units}
    missing = list(alone.report.of_kind("captured-without-original"))
    assert len(missing) == 3
    assert all("the Axis catalogue was not given" in issue.detail for issue in missing)


def test_it_reads_an_upgrade_typed_root_entry_and_reports_an_unknown_type(game: ParsedGameData) -> None:
    unexpected = _issues(game, "unexpected-entry-type")
    assert list(unexpected) == ["Oddity"]
    assert "'widget'" in unexpected["Oddity"]


def test_it_turns_a_commissar_option_into_one_unit_that_joins(game: ParsedGameData) -> None:
    ssu = _catalogue_named(game, "SSU")
    commissars = [unit for unit in ssu.units if unit.skill("Commissar")]
    assert [unit.key for unit in commissars] == ["ssu.test-commissar"]
    (commissar,) = commissars
    assert (commissar.bloc, commissar.cost, commissar.armour, commissar.models, commissar.hero) == (
        "SSU",
        3,
        "S2",
        1,
        False,
    )
    assert not _issues(game, "unmapped-option")


def test_it_reads_the_strongpoint_choice_at_the_rules_prices(game: ParsedGameData) -> None:
    gun = _catalogue_named(game, "Axis").unit("Test Gun")
    assert gun is not None
    assert gun.strongpoint  # nothing else in the data says so: the choice does
    assert not _issues(game, "fortification-choice-differs")


def test_it_reports_a_strongpoint_choice_priced_against_the_rules(folder: Path) -> None:
    (folder / "Axis.cat").write_text(
        AXIS.replace(_fortification(0, 5), _fortification(0, 6)), encoding="utf-8"
    )
    game = read_battlescribe([folder / "Rulings.gst", folder / "Axis.cat"])
    detail = _issues(game, "fortification-choice-differs")["Test Gun"]
    assert "Bunker offered at 6 AP; the rules' 5 AP is used" in detail


def test_it_makes_heroes_unique_and_reads_one_per_force_on_a_root_entry(game: ParsedGameData) -> None:
    axis = _catalogue_named(game, "Axis")
    uniques = {unit.name: unit.unique for unit in axis.units}
    assert uniques["Testwolf"]
    assert uniques["Testroza"]
    assert not uniques["Testluther"]


def test_it_fields_a_catalogue_that_is_no_bloc_of_the_rules_as_mercenaries(game: ParsedGameData) -> None:
    mythos = _catalogue_named(game, "Mythos")
    assert mythos.bloc == "Mercenaries"
    assert all(unit.mercenary and unit.bloc == "Mercenaries" for unit in mythos.units)
    assert not _issues(game, "unknown-bloc")


def test_it_drops_a_second_captured_copy_of_the_same_unit_and_says_so(folder: Path) -> None:
    twice = _catalogue(
        "cat-cap",
        "Captured Vehicles",
        _vehicle("cap-a", "Testluther", 13, category="cat-axis")
        + _vehicle("cap-b", "Testluther", 13, category="cat-axis"),
    )
    (folder / "Captured.cat").write_text(twice, encoding="utf-8")
    game = read_battlescribe([folder / "Rulings.gst", folder / "Axis.cat", folder / "Captured.cat"])
    captured = _catalogue_named(game, "Captured Vehicles")
    assert [line.unit for line in captured.captured_vehicles] == ["axis.testluther"]
    assert not captured.units
    assert "axis.testluther is on the chart already" in _issues(game, "captured-duplicate")["Testluther"]
