"""The BattleScribe reader on small invented files: bad input, and mapping rules one at a time."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from armies.importers import CatalogueFormatError, ParsedCatalogue, read_battlescribe, read_battlescribe_file
from armies.importers.bsunits import parse_skill
from armies.importers.types import ParsedSkill

GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"

# An invented game system: one stat profile type, one weapon profile type, a few categories and rules.
GAME_SYSTEM = f"""<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="gs-1" name="Test System" revision="3" xmlns="{GST_NS}">
  <costTypes><costType id="points" name=" pts"/></costTypes>
  <profileTypes>
    <profileType id="pt-stats" name="Vehicle">
      <characteristicTypes>
        <characteristicType id="ct-dt" name="Damage Track"/><characteristicType id="ct-mv" name="Move"/>
        <characteristicType id="ct-mm" name="March Move"/><characteristicType id="ct-ar" name="Armour"/>
        <characteristicType id="ct-fa" name="Faction"/>
      </characteristicTypes>
    </profileType>
    <profileType id="pt-inf" name="Infantry">
      <characteristicTypes>
        <characteristicType id="ci-mv" name="Move"/><characteristicType id="ci-mm" name="March Move"/>
        <characteristicType id="ci-ar" name="Armour"/><characteristicType id="ci-fa" name="Faction"/>
      </characteristicTypes>
    </profileType>
    <profileType id="pt-weapon" name="Weapons">
      <characteristicTypes>
        <characteristicType id="cw-r" name="Range"/><characteristicType id="cw-s1" name="S1"/>
        <characteristicType id="cw-v1" name="V1"/><characteristicType id="cw-a1" name="A1"/>
      </characteristicTypes>
    </profileType>
  </profileTypes>
  <categoryEntries>
    <categoryEntry id="cat-v3" name="Vehicle 3"/><categoryEntry id="cat-i1" name="Infantry 1"/>
  </categoryEntries>
  <sharedRules><rule id="rule-scout" name="Scout"/><rule id="rule-pass" name="Passengers (4)"/></sharedRules>
  <sharedProfiles>
    <profile id="prof-gun" name="Test Cannon" profileTypeId="pt-weapon">
      <characteristics>
        <characteristic name="Range" characteristicTypeId="cw-r" value="12"/>
        <characteristic name="S1" characteristicTypeId="cw-s1" value="*/1"/>
        <characteristic name="V1" characteristicTypeId="cw-v1" value="2/3/"/>
        <characteristic name="A1" characteristicTypeId="cw-a1" value="oops"/>
      </characteristics>
    </profile>
  </sharedProfiles>
</gameSystem>
"""


def _stats(name: str, armour: str, faction: str = "") -> str:
    return f"""<profiles><profile id="p-{name}" name="{name}" profileTypeId="pt-stats"><characteristics>
      <characteristic name="Damage Track" characteristicTypeId="ct-dt" value="5"/>
      <characteristic name="Move" characteristicTypeId="ct-mv" value="2"/>
      <characteristic name="March Move" characteristicTypeId="ct-mm" value="4"/>
      <characteristic name="Armour" characteristicTypeId="ct-ar" value="{armour}"/>
      <characteristic name="Faction" characteristicTypeId="ct-fa" value="{faction}"/>
    </characteristics></profile></profiles>"""


def _limit(kind: str, scope: str, value: int) -> str:
    attributes = f'field="selections" scope="{scope}" value="{value}.0" id="{kind}-{scope}" type="{kind}"'
    return f"<constraints><constraint {attributes}/></constraints>"


# An invented catalogue: a walker with a named-ace variant, and a squad with an optional upgrade.
CATALOGUE = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Axis" revision="7" gameSystemId="gs-1" gameSystemRevision="3" xmlns="{CAT_NS}">
  <selectionEntries>
    <selectionEntry id="e-walker" name="Testwalker" type="model">
      <infoLinks>
        <infoLink id="l1" targetId="rule-scout" type="rule"/>
        <infoLink id="l2" targetId="rule-pass" type="rule"/>
        <infoLink id="l3" targetId="rule-missing" type="rule"/>
      </infoLinks>
      <categoryLinks><categoryLink id="c1" targetId="cat-v3" primary="true"/></categoryLinks>
      <selectionEntries>
        <selectionEntry id="w1" name="Test Cannon (Turret)" type="upgrade">
          <infoLinks><infoLink id="l4" targetId="prof-gun" type="profile"/></infoLinks>
          {_limit("min", "parent", 1)}
        </selectionEntry>
      </selectionEntries>
      <selectionEntryGroups>
        <selectionEntryGroup id="g1" name="Testwalker">
          {_limit("min", "parent", 1)}
          <selectionEntries>
            <selectionEntry id="v-plain" name="Testwalker" type="model">
              {_stats("Testwalker", "V3")}
            </selectionEntry>
            <selectionEntry id="v-ace" name="Ace Walker" type="model">
              {_stats("Ace Walker", "V3", "Test Legion")}
              <rules><rule id="r-pilot" name="Pilot: Test Hero"/></rules>
              {_limit("max", "roster", 1)}
              <costs><cost name=" pts" costTypeId="points" value="2.0"/></costs>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <costs><cost name=" pts" costTypeId="points" value="10.0"/></costs>
    </selectionEntry>
    <selectionEntry id="e-squad" name="Test Squad" type="unit">
      <profiles><profile id="p-sq" name="Test Squad" profileTypeId="pt-inf"><characteristics>
        <characteristic name="Move" characteristicTypeId="ci-mv" value="2"/>
        <characteristic name="March Move" characteristicTypeId="ci-mm" value="5"/>
        <characteristic name="Armour" characteristicTypeId="ci-ar" value="S1"/>
      </characteristics></profile></profiles>
      <categoryLinks><categoryLink id="c2" targetId="cat-i1" primary="true"/></categoryLinks>
      <selectionEntries>
        <selectionEntry id="w2" name="Test Cannon" type="upgrade">
          <infoLinks><infoLink id="l5" targetId="prof-gun" type="profile"/></infoLinks>
          {_limit("min", "parent", 4)}
        </selectionEntry>
        <selectionEntry id="w3" name="Lucky Charm" type="upgrade">
          <costs><cost name=" pts" costTypeId="points" value="1.0"/></costs>
        </selectionEntry>
      </selectionEntries>
      <costs><cost name=" pts" costTypeId="points" value="6.0"/></costs>
    </selectionEntry>
    <selectionEntry id="e-broken" name="Broken Entry" type="model"/>
  </selectionEntries>
</catalogue>
"""


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    gst, cat = tmp_path / "Test.gst", tmp_path / "Axis.cat"
    gst.write_text(GAME_SYSTEM, encoding="utf-8")
    cat.write_text(CATALOGUE, encoding="utf-8")
    return gst, cat


@pytest.fixture
def catalogue(files: tuple[Path, Path]) -> ParsedCatalogue:
    data = read_battlescribe(files)
    assert data.name == "Test System"
    assert len(data.catalogues) == 1
    return data.catalogues[0]


def _write(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


# -- bad files -----------------------------------------------------------------------------------


def test_it_rejects_a_file_that_is_not_xml(tmp_path: Path) -> None:
    path = _write(tmp_path, "notes.cat", b"this is not a catalogue")
    with pytest.raises(CatalogueFormatError, match="not well-formed XML") as caught:
        read_battlescribe_file(path)
    assert caught.value.source == "notes.cat"
    assert str(caught.value).startswith("notes.cat: ")


def test_it_rejects_xml_with_a_foreign_root_element(tmp_path: Path) -> None:
    path = _write(tmp_path, "roster.cat", b'<?xml version="1.0"?><roster id="x" name="y"/>')
    with pytest.raises(CatalogueFormatError, match=r"root element is <roster>"):
        read_battlescribe_file(path)


def test_it_rejects_a_corrupt_zip(tmp_path: Path) -> None:
    path = _write(tmp_path, "Axis.catz", b"PK\x03\x04" + b"\x00" * 40)
    with pytest.raises(CatalogueFormatError, match="corrupt zip"):
        read_battlescribe_file(path)


def test_it_rejects_a_zip_holding_several_catalogues(tmp_path: Path) -> None:
    path = tmp_path / "two.catz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a.cat", CATALOGUE)
        archive.writestr("b.cat", CATALOGUE)
    with pytest.raises(CatalogueFormatError, match="exactly one XML file"):
        read_battlescribe_file(path)


def test_it_rejects_an_empty_file(tmp_path: Path) -> None:
    with pytest.raises(CatalogueFormatError, match="empty"):
        read_battlescribe_file(_write(tmp_path, "empty.gst", b"  \n"))


def test_it_refuses_entity_declarations(tmp_path: Path) -> None:
    bomb = b'<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "aaaa">]><catalogue id="c">&a;</catalogue>'
    with pytest.raises(CatalogueFormatError, match="DTD"):
        read_battlescribe_file(_write(tmp_path, "bomb.cat", bomb))


def test_it_turns_an_unreadable_path_into_a_format_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogueFormatError, match="cannot read"):
        read_battlescribe_file(tmp_path / "missing.cat")


def test_it_reads_a_zipped_catalogue_whatever_its_member_is_called(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    gst, cat = files
    catz = tmp_path / "Axis.catz"
    with zipfile.ZipFile(catz, "w") as archive:
        archive.write(cat, arcname="renamed.xml")
    zipped, plain = read_battlescribe([gst, catz]).catalogues[0], read_battlescribe([gst, cat]).catalogues[0]
    assert zipped.source == "Axis.catz"
    assert zipped.units == plain.units
    assert len(zipped.units) == 3


def test_it_reports_a_missing_game_system(files: tuple[Path, Path]) -> None:
    _, cat = files
    data = read_battlescribe([cat])
    assert data.report.of_kind("missing-game-system")
    assert data.catalogues[0].report.of_kind("unresolved-link")


# -- mapping rules -------------------------------------------------------------------------------


def test_it_expands_a_required_variant_group_into_units(catalogue: ParsedCatalogue) -> None:
    plain, ace = catalogue.unit("Testwalker"), catalogue.unit("Ace Walker")
    assert plain is not None
    assert ace is not None
    assert (plain.cost, ace.cost) == (10, 12)  # the variant's own cost is added
    assert (plain.faction, ace.faction) == (None, "Test Legion")
    assert ace.unique
    assert not plain.unique
    assert ace.named_pilot == "Test Hero"
    assert plain.variant_of == ace.variant_of == "e-walker"
    assert [skill.name for skill in plain.skills] == ["Scout", "Passengers"]
    assert plain.skill("Passengers") == ParsedSkill("Passengers", "4")
    assert (plain.key, ace.key) == ("axis.testwalker", "axis.ace-walker")


def test_it_repairs_or_replaces_bad_weapon_lines_and_says_so(catalogue: ParsedCatalogue) -> None:
    walker = catalogue.unit("Testwalker")
    assert walker is not None
    cannon = walker.weapon("Test Cannon (Turret)")
    assert cannon is not None
    assert (cannon.mount, cannon.range, cannon.count) == ("Turret", "12", 1)
    assert (cannon.lines["infantry-1"], cannon.lines["vehicle-1"], cannon.lines["aircraft-1"]) == (
        "*/1",
        "2/3",
        "-",
    )
    assert cannon.lines["vehicle-7"] == "-"
    kinds = catalogue.report.counts()
    assert kinds["repaired-value"] >= 1
    assert kinds["bad-value"] >= 1


def test_it_estimates_squad_models_from_weapon_counts(catalogue: ParsedCatalogue) -> None:
    squad = catalogue.unit("Test Squad")
    assert squad is not None
    assert (squad.models, squad.damage, squad.unit_type, squad.armour) == (4, 4, "infantry", "S1")
    cannon = squad.weapon("Test Cannon")
    assert cannon is not None
    assert cannon.count == 4
    assert cannon.mount is None


def test_it_reports_instead_of_dropping_silently(catalogue: ParsedCatalogue) -> None:
    by_kind = {issue.what: issue for issue in catalogue.report}
    assert by_kind["unresolved-link"].entry_name == "Testwalker"
    assert "rule-missing" in by_kind["unresolved-link"].detail
    assert "Lucky Charm" in by_kind["unmapped-option"].detail
    assert by_kind["unit-skipped"].entry_name == "Broken Entry"
    assert catalogue.unit("Broken Entry") is None
    assert all(issue.source == "Axis.cat" for issue in catalogue.report)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pilot: Bloody Ace", ParsedSkill("Pilot", "Bloody Ace")),
        ("Sibling: Her Brother", ParsedSkill("Siblings", "Her Brother")),
        ("Passengers (12)", ParsedSkill("Passengers", "12")),
        ("Expert - Flamethrower", ParsedSkill("Expert", "Flamethrower")),
        ("  Move  and Fire ", ParsedSkill("Move and Fire")),
    ],
)
def test_it_parses_skill_parameters(text: str, expected: ParsedSkill) -> None:
    assert parse_skill(text) == expected
