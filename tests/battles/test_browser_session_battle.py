"""Issue 20's test: two phones (two browser contexts at 390 px) play a short battle at the table, from the
initiative to the turn limit, every step tapped on the phone of the side that makes it; then the report the
site wrote is confirmed with one tap and the campaign's map and standings follow (a real Celery worker).

The battle: x1's Grauwolf Rifle Squad and Keiler attack a1's Gulfport Marine Squad, joined by Sergeant Hollis
Crane (one combined unit), and a Prairie Dog, in a sabotage mission: five turns, the shortest. Which step
comes next is read from the engine's legal steps, preferring what the issue asks to see: a pass, an attack
rolled by the site, attacks entered by hand (every attack die a hit, every save failed: the combined unit's
hits are split between the hero and the squad, a vehicle falls), a reactive attack, a reserve placement;
once all of it has happened, the battle goes on quietly to its turn limit. What must have happened is
checked at the end. The site's own dice draw their seeds from a generator seeded here (the live server runs
in this process), so every run plays the same battle: with the system's randomness one run in a few lacked
an event the issue asks to see. A change to the engine or to the choices below may need another ``DICE``.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from armies.services.army_lists import army_list_add_unit, army_list_update_entry
from battles.models import BattleReport, ReportStatus
from battles.sessions import dice as session_dice
from battles.sessions.models import BattleSession, SessionStatus, SessionStep
from battles.sessions.selectors import live_state
from battles.sessions.services import session_start
from campaign.engine.svg import DEFAULT_COLOURS
from campaign.models import Battle, BattleStatus
from campaign.services.registrations import army_list_register
from rules.engine.battle import legal_steps, report_from_state, state_to_dict, step_to_dict
from standings.services import standings_recompute
from tests.battles.conftest import ALLIED_UNITS, AXIS_UNITS
from tests.battles.test_browser_sessions import PHONE, no_sideways_scroll
from tests.campaign.test_browser_campaign import log_in, sector
from tests.factories import ArmyListFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HERO = "allies.sergeant-hollis-crane"
DICE = 1947  # the seed of the site's dice in this test (the module's docstring says why)
TURNS = 5
NOTICED_MS = 4_000
LIVE = "#session-live"
# The form of a legal step on the page: its hidden ``step``, compared as canonical JSON.
FIND_FORM = """(wanted) => {
  const canon = (v) => Array.isArray(v) ? "[" + v.map(canon).join(",") + "]"
    : (v !== null && typeof v === "object")
      ? "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canon(v[k])).join(",") + "}"
      : JSON.stringify(v);
  const forms = [...document.querySelectorAll("#session-live form")];
  return forms.findIndex((form) => {
    const input = form.querySelector("input[name=step]");
    return input !== null && canon(JSON.parse(input.value)) === wanted;
  });
}"""


def canonical(step: dict[str, Any]) -> str:
    return json.dumps(step, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def register(enrolment: Any, units: tuple[str, ...], bloc: str, hero_joins: bool = False) -> Any:
    army_list = ArmyListFactory(owner=enrolment.player, catalogue=enrolment.campaign.catalogue, bloc=bloc)
    for unit in units:
        army_list_add_unit(army_list=army_list, unit_key=unit)
    army_list.refresh_from_db()
    if hero_joins:
        entries = {entry["unit"]: entry["id"] for entry in army_list.content["entries"]}
        army_list_update_entry(
            army_list=army_list, entry_id=entries[HERO], joined_to=entries["allies.gulfport-marine-squad"]
        )
        army_list.refresh_from_db()
    return army_list_register(enrolment=enrolment, army_list=army_list, actor=enrolment.player)


class Table:
    """The two phones and what the battle has shown so far."""

    def __init__(self, session: BattleSession, phones: dict[str, Any]) -> None:
        self.session = session
        self.phones = phones
        self.seen: set[str] = set()
        self.noticed = 0
        self.last: dict[str, Any] = {}

    def at_version(self, side: str, version: int) -> Any:
        """The side's phone showing ``version``: by its own poll for the first few changes (the issue's
        "notices by itself"), then by a reload (the test stays short)."""
        tab = self.phones[side]
        if tab.locator(f'{LIVE}[data-version="{version}"]').count():
            return tab
        if self.noticed < 4:
            tab.wait_for_selector(f'{LIVE}[data-version="{version}"]', timeout=NOTICED_MS)
            self.noticed += 1
            return tab
        tab.goto(
            f"/battle-sessions/{self.session.pk}/", wait_until="load"
        )  # the page after a refusal was a POST's
        tab.wait_for_selector(f'{LIVE}[data-version="{version}"]')
        return tab

    def choose(self) -> tuple[dict[str, Any], str] | None:
        """The next step and how its dice come ("site", "hand" or ""): None once the battle is over."""
        self.session.refresh_from_db()
        if self.session.status != SessionStatus.OPEN:
            return None
        setup, state = live_state(self.session)
        steps = [
            step_to_dict(step)
            for step in legal_steps(setup, state)
            if step.kind not in ("concede", "mission")
        ]
        units = {unit["id"]: unit for unit in state_to_dict(setup, state)["units"]}
        combined = {unit["joined_to"] for unit in units.values() if unit["joined_to"]}
        vehicles = {unit["id"] for side in ("attacker", "defender") for unit in self.session.setup[side]["units"]
                    if unit["unit_class"] == "vehicle"}  # fmt: skip

        def of(kind: str) -> list[dict[str, Any]]:
            return [step for step in steps if step["kind"] == kind]

        if of("reserve"):
            return of("reserve")[0], ""
        if of("allocate"):
            # The hero takes one hit where it may (the rest to the squad): hit, and still standing.
            return min(
                of("allocate"), key=lambda step: (sum(step["hero_hits"]) == 0, sum(step["hero_hits"]))
            ), "site"
        if of("escape"):
            return of("escape")[0], "site"
        if of("reactive") and "reactive" not in self.seen:
            return of("reactive")[0], "site"
        # Once everything the issue asks to see has happened, the rest is quiet (no more attacks), so the battle
        # lasts to the turn limit.
        calm = {"allocate", "reserve", "hand-attack", "site-attack", "reactive", "pass"} <= self.seen
        attacks = [] if calm else of("attack")
        if calm and (of("end-activation") or of("hold-fire")):
            return (of("end-activation") or of("hold-fire"))[0], ""
        if attacks:
            if "site-attack" not in self.seen:
                return attacks[0], "site"
            on_hero = [step for step in attacks if step["target"] in combined]
            if on_hero and "allocate" not in self.seen:
                return on_hero[0], "hand"  # every die a hit: hits for the hero and the squad to split
            on_vehicle = [step for step in attacks if step["target"] in vehicles]
            return (on_vehicle or attacks)[0], "hand"
        if of("pass") and "pass" not in self.seen:
            return of("pass")[0], ""
        activations = of("activate")
        if activations:
            quiet = [step for step in activations if not {"attack", "sustained"} & set(step["actions"])]
            wanted = (
                quiet if calm else [step for step in activations if step["actions"] == ["move", "attack"]]
            )
            return (wanted or activations)[0], "site"
        first = [step for step in of("first") if step["first"] == "attacker"]
        for kind_steps in (
            of("initiative"),
            first,
            of("end-activation"),
            of("hold-fire"),
            of("end-turn"),
            steps,
        ):
            if kind_steps:
                return kind_steps[0], "site"
        return None

    def tap(self, step: dict[str, Any], how: str) -> None:
        """The step on its side's phone: the unit's card, then the step (two taps); an attack's conditions
        and odds, then "Roll" or the dice entered."""
        version = self.session.version
        tab = self.at_version(step["by"], version)
        index = tab.evaluate(FIND_FORM, canonical(step))
        assert index >= 0, f"the page offers no button for {step}"
        form = tab.locator(f"{LIVE} form").nth(index)
        card = form.locator("xpath=ancestor::details[contains(@class, 'unit-card')]")
        taps = 0
        if card.count() and card.get_attribute("open") is None:
            card.locator("summary").first.tap()
            taps += 1
        if step["kind"] == "attack":
            expect(form.get_by_test_id("session-odds")).to_contain_text("Chance to destroy")
            self.seen.add("odds")
        if step["kind"] == "attack" and how == "hand":
            self.enter_dice(tab, form, version)
            self.seen.add("hand-attack")
        else:
            button = form.get_by_test_id("roll") if step["kind"] == "attack" else form.locator("button").first
            button.tap()
            taps += 1
            tab.wait_for_selector(f'{LIVE}[data-version="{version + 1}"]')
            if step["kind"] == "attack":
                self.seen.add("site-attack")
        assert taps <= 2
        self.seen.add(step["kind"])

    def enter_dice(self, tab: Any, form: Any, version: int) -> None:
        """The dice entered roll by roll as the page asks for them: every attack die a hit ([BLOC]) and every
        save die a failure ([TARGET]), so the attack does all it can. The form says before the roll how many
        dice the hit roll wants; after each refusal it comes back open, with the faces typed kept and the
        refusal beside the field, and the faces the next roll wants are added to them."""
        expect(form.get_by_test_id("session-odds")).to_be_visible()
        form.locator("details.by-hand summary").tap()
        said = form.get_by_test_id("dice-wanted").inner_text()
        wanted = re.search(r"Roll (\d+) (?:die|dice) for (.*?)[,.]", said)
        assert wanted is not None, f"the form says how many dice the first roll wants before the roll: {said}"
        typed = ("T" if "save" in wanted.group(2) else "B") * int(wanted.group(1))  # as people type them
        for _ in range(30):
            form.get_by_label(re.compile("Dice, in the order rolled")).fill(typed)
            with tab.expect_navigation(wait_until="load"):
                form.get_by_test_id("enter-dice").tap()
            if tab.locator(f'{LIVE}[data-version="{version + 1}"]').count():
                return
            index = tab.evaluate(FIND_FORM, canonical(self.last))
            form = tab.locator(f"{LIVE} form").nth(index)
            expect(form.get_by_label(re.compile("Dice, in the order rolled"))).to_have_value(typed)
            refusal = form.get_by_test_id("dice-refusal").inner_text()
            more = re.search(r"(\d+) more (?:die is|dice are) needed, for (.*?)[,.]", refusal)
            assert more is not None, refusal
            typed += ("T" if "save" in more.group(2).lower() else "B") * int(more.group(1))
        raise AssertionError("the dice entered by hand were never enough")

    def play(self, most: int = 160) -> None:
        for _ in range(most):
            chosen = self.choose()
            if chosen is None:
                return
            self.last, how = chosen
            self.tap(self.last, how)
        raise AssertionError("the battle did not end")


def test_two_phones_play_a_short_battle_and_the_confirmed_report_moves_the_map_and_standings(
    browser, live_server, celery_worker_process, battle: Battle, monkeypatch
):
    monkeypatch.setattr(session_dice, "_random", random.Random(DICE))
    campaign = battle.campaign
    register(battle.attacker, AXIS_UNITS, "Axis")
    register(battle.defender, (*ALLIED_UNITS, HERO), "Allies", hero_joins=True)
    standings_recompute(campaign_id=campaign.pk)
    Battle.objects.filter(pk=battle.pk).update(mission="sabotage")  # the shortest mission: five turns
    battle.refresh_from_db()
    session = session_start(battle=battle, actor=battle.attacker.player)[0]
    owner_before = battle.sector.owner  # the map before the battle
    assert session.setup["mission"]["turn_limit"] == TURNS
    assert any(unit.get("joined_to") for unit in session.setup["defender"]["units"])

    phones = {}
    for side, place in (("attacker", battle.attacker), ("defender", battle.defender)):
        context = browser.new_context(
            base_url=live_server.url, viewport=PHONE, has_touch=True, is_mobile=True
        )
        context.set_default_timeout(15_000)
        log_in(context, live_server, place.player)
        phones[side] = context.new_page()
        phones[side].goto(f"/battle-sessions/{session.pk}/", wait_until="load")
    table = Table(session, phones)
    try:
        table.play()
        session.refresh_from_db()
        setup_, state = live_state(session)
        final = state_to_dict(setup_, state)
        outcome = report_from_state(setup_, state)
        for tab in phones.values():
            tab.goto(f"/battle-sessions/{session.pk}/", wait_until="load")
            expect(tab.get_by_test_id("session-turn")).to_contain_text("The battle is over")
            assert no_sideways_scroll(tab)

        report = BattleReport.objects.get(battle=battle)
        sender = "attacker" if report.submitted_by_id == battle.attacker_id else "defender"
        opponent = phones["defender" if sender == "attacker" else "attacker"]
        opponent.get_by_test_id("session-confirm").get_by_role("button", name="Confirm the report").tap()
        expect(opponent.get_by_text("Confirmed: the result is recorded.")).to_be_visible()

        # The map follows the result: an attacker's win moves the sector to the attacker's bloc, any other
        # result leaves it with whoever held it before the battle.
        battle.refresh_from_db()
        expected_owner = battle.attacker_bloc if battle.result["winner"] == "attacker" else owner_before
        battle.sector.refresh_from_db()
        assert battle.sector.owner == expected_owner
        opponent.goto(f"/campaigns/{campaign.pk}/")
        expect(sector(opponent, battle.sector.key).locator("polygon")).to_have_attribute(
            "fill", DEFAULT_COLOURS[expected_owner or None]
        )
        opponent.goto(f"/campaigns/{campaign.pk}/standings/")
        expect(opponent.get_by_test_id("standings-status")).to_contain_text("from 1 report", timeout=60_000)
    finally:
        for tab in phones.values():
            tab.context.close()

    battle.refresh_from_db()
    report.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED
    assert report.status == ReportStatus.CONFIRMED
    assert {
        "initiative",
        "first",
        "activate",
        "pass",
        "site-attack",
        "hand-attack",
        "odds",
        "reactive",
    } <= table.seen
    assert "allocate" in table.seen, "the hero and the squad split hits"
    allocations = [
        row.data
        for row in SessionStep.objects.filter(session=session, undone_at__isnull=True)
        if row.data["kind"] == "allocate"
    ]
    hero_hits = [
        sum(data.get("hero_hits") or ()) + sum(sum(row) for row in data.get("rider_hits") or ())
        for data in allocations
    ]
    assert max(hero_hits, default=0) > 0, "the hero took a hit"
    lost = [entry for side in ("attacker", "defender") for entry in outcome[side]["lost"]]
    assert lost, "a unit was eliminated"
    assert "reserve" in table.seen
    assert [entry for side in ("attacker", "defender") for entry in outcome[side]["reserves"]], (
        "placed in reserve"
    )
    assert "turn_limit" in final["ending"]["reasons"]
    assert final["turn"] == TURNS
