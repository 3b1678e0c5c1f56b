"""A round's page: published battles and byes for all; the draft pairing, its edits and publishing for organisers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from armies.blocs import Bloc
from campaign.models import Battle, BattleStatus, Bye, Campaign, Round
from campaign.services.challenges import challenge_accept, challenge_issue
from campaign.services.pairings import fronts, pairings_generate, pairings_publish, pairings_set_sector
from campaign.services.rounds import round_open

pytestmark = pytest.mark.django_db


def url(name: str, campaign: Campaign, *args: object) -> str:
    return reverse(f"campaign:{name}", args=[campaign.pk, *args])


@pytest.fixture
def round_one(running_campaign, organiser) -> Round:
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


def drafts() -> list[Battle]:
    return list(
        Battle.objects.filter(status=BattleStatus.DRAFT).select_related("attacker", "defender", "sector")
    )


def snapshot() -> list[tuple[int, int, int | None, str, int]]:
    return sorted(
        Battle.objects.values_list("attacker_id", "defender_id", "sector_id", "mission", "points_limit")
    )


def test_the_organiser_generates_a_draft_that_players_do_not_see(
    client, running_campaign, organiser, round_one, place
):
    client.force_login(organiser)

    response = client.post(url("pairings_generate", running_campaign, 1))

    assert response["Location"] == url("round", running_campaign, 1)
    page = client.get(url("round", running_campaign, 1)).content.decode()
    assert page.count('data-testid="draft-battle"') == 3
    assert "Drafted 3 battles and 0 byes" in page
    # Each battle says why the engine chose as it did.
    assert page.count('class="draft-notes"') == 3
    client.force_login(place("a1").player)
    seen = client.get(url("round", running_campaign, 1)).content.decode()
    assert 'data-testid="draft"' not in seen
    assert 'data-testid="no-battles"' in seen


def test_the_sector_select_offers_only_sectors_the_attacker_may_attack(
    client, running_campaign, organiser, round_one
):
    pairings_generate(round=round_one, actor=organiser)
    client.force_login(organiser)

    response = client.get(url("round", running_campaign, 1))

    front = fronts(campaign=running_campaign)
    for row in response.context["drafts"]:
        battle = row.battle
        offered = [key for key, _name in row.sector_form.fields["sector"].widget.choices if key]
        assert offered == list(front[(battle.attacker.bloc, battle.defender.bloc)])
        # The mission select marks the mission the sector's ground suggests.
        labels = dict(row.terms_form.fields["mission"].choices)
        assert sum("(suggested for this ground)" in label for label in labels.values()) == 1


def test_the_organiser_changes_a_battles_sector(client, running_campaign, organiser, round_one):
    pairings_generate(round=round_one, actor=organiser)
    battle = drafts()[0]
    options = fronts(campaign=running_campaign)[(battle.attacker.bloc, battle.defender.bloc)]
    other = next(key for key in options if key != battle.sector.key)
    client.force_login(organiser)

    response = client.post(
        url("battle_sector", running_campaign, 1, battle.pk), {f"sector-{battle.pk}-sector": other}
    )

    assert response.status_code == 302
    moved = Battle.objects.get(attacker=battle.attacker, defender=battle.defender)
    assert moved.sector.key == other


def test_a_sector_the_attacker_cannot_attack_is_refused_next_to_the_field(
    client, running_campaign, organiser, round_one
):
    pairings_generate(round=round_one, actor=organiser)
    battle = drafts()[0]
    before = snapshot()
    # Its own headquarters: no bloc ever attacks its own sector.
    own = running_campaign.sectors.get(headquarters_of=battle.attacker.bloc).key
    client.force_login(organiser)

    response = client.post(
        url("battle_sector", running_campaign, 1, battle.pk), {f"sector-{battle.pk}-sector": own}
    )

    assert response.status_code == 200
    row = next(r for r in response.context["drafts"] if r.battle.pk == battle.pk)
    assert row.sector_form.has_error("sector", "pairing-sector-not-attackable")
    assert snapshot() == before


def test_the_organiser_swaps_two_players_of_one_bloc(client, running_campaign, organiser, round_one):
    pairings_generate(round=round_one, actor=organiser)
    first, second = drafts()[:2]
    # Two players of one bloc in different battles: exchanging them keeps every battle between two blocs.
    a, b = next(
        (x, y)
        for x in (first.attacker, first.defender)
        for y in (second.attacker, second.defender)
        if x.bloc == y.bloc
    )
    client.force_login(organiser)

    response = client.post(
        url("pairings_swap", running_campaign, 1), {"swap-first": a.pk, "swap-second": b.pk}
    )

    assert response.status_code == 302
    after = {frozenset((battle.attacker_id, battle.defender_id)) for battle in drafts()}
    partner_a = first.defender_id if first.attacker_id == a.pk else first.attacker_id
    assert frozenset((b.pk, partner_a)) in after


def test_a_swap_that_puts_one_bloc_against_itself_is_refused_and_nothing_changes(
    client, running_campaign, organiser, round_one
):
    pairings_generate(round=round_one, actor=organiser)
    battle = drafts()[0]
    # The attacker's bloc-mate takes the defender's place: the battle would be one bloc against itself.
    mate = next(
        p for p in running_campaign.enrolments.filter(bloc=battle.attacker.bloc) if p.pk != battle.attacker_id
    )
    before = snapshot()
    client.force_login(organiser)

    response = client.post(
        url("pairings_swap", running_campaign, 1), {"swap-first": battle.defender_id, "swap-second": mate.pk}
    )

    assert response.status_code == 200
    assert response.context["swap_form"].has_error("__all__", "pairing-same-bloc")
    assert snapshot() == before


def test_the_organiser_changes_a_drafted_battles_mission_and_points_limit(
    client, running_campaign, organiser, round_one
):
    pairings_generate(round=round_one, actor=organiser)
    battle = drafts()[0]
    client.force_login(organiser)

    response = client.post(
        url("battle_terms", running_campaign, battle.pk),
        {f"terms-{battle.pk}-mission": "meeting-engagement", f"terms-{battle.pk}-points_limit": 200},
    )

    assert response["Location"] == url("round", running_campaign, 1)
    battle.refresh_from_db()
    assert (battle.mission, battle.points_limit) == ("meeting-engagement", 200)


def test_publishing_is_confirmed_then_players_see_their_battles(
    client, running_campaign, organiser, round_one, place
):
    pairings_generate(round=round_one, actor=organiser)
    client.force_login(organiser)

    confirm = client.get(url("pairings_publish", running_campaign, 1)).content.decode()
    response = client.post(url("pairings_publish", running_campaign, 1))

    assert "Publishing schedules 3 battles" in confirm
    assert confirm.count("<li>") >= 3
    assert response["Location"] == url("round", running_campaign, 1)
    assert not Battle.objects.filter(status=BattleStatus.DRAFT).exists()
    client.force_login(place("a1").player)
    page = client.get(url("round", running_campaign, 1)).content.decode()
    assert page.count('data-testid="battle-row"') == 3
    assert page.count('<span class="badge">yours</span>') == 1


def test_publishing_twice_is_refused_and_the_draft_tools_are_gone(
    client, running_campaign, organiser, round_one
):
    pairings_generate(round=round_one, actor=organiser)
    pairings_publish(round=round_one, actor=organiser)
    client.force_login(organiser)

    again = client.post(url("pairings_publish", running_campaign, 1))
    regenerate = client.post(url("pairings_generate", running_campaign, 1))
    page = client.get(url("round", running_campaign, 1)).content.decode()

    assert again.context["error"].code == "pairings-published"
    assert regenerate.context["error"].code == "pairings-published"
    assert 'data-testid="draft"' not in page
    assert Battle.objects.filter(status=BattleStatus.SCHEDULED).count() == 3


def test_byes_are_shown_once_published(client, running_campaign, organiser, round_one, make_player, place):
    make_player("x3", "Axis")
    pairings_generate(round=round_one, actor=organiser)
    assert Bye.objects.count() == 1
    client.force_login(place("a1").player)
    unpublished = client.get(url("round", running_campaign, 1)).content.decode()
    pairings_publish(round=round_one, actor=organiser)

    published = client.get(url("round", running_campaign, 1)).content.decode()

    assert 'data-testid="round-byes"' not in unpublished
    assert 'data-testid="round-byes"' in published
    assert Bye.objects.get().enrolment.display_name in published


def test_a_player_may_not_edit_the_pairing(client, running_campaign, organiser, round_one, place):
    pairings_generate(round=round_one, actor=organiser)
    before = snapshot()
    client.force_login(place("a1").player)

    generate = client.post(url("pairings_generate", running_campaign, 1))
    publish = client.post(url("pairings_publish", running_campaign, 1))
    hidden = client.get(url("battle", running_campaign, drafts()[0].pk))

    assert (generate.status_code, publish.status_code, hidden.status_code) == (403, 403, 404)
    assert snapshot() == before
    assert Battle.objects.filter(status=BattleStatus.DRAFT).count() == 3


def test_a_round_that_does_not_exist_is_a_404(client, running_campaign, organiser):
    client.force_login(organiser)

    assert client.get(url("round", running_campaign, 7)).status_code == 404


def test_a_player_who_sits_out_and_then_accepts_a_challenge_no_longer_sits_out(
    client, running_campaign, organiser, round_one, make_player, place
):
    make_player("x3", "Axis")
    pairings_generate(round=round_one, actor=organiser)
    pairings_publish(round=round_one, actor=organiser)
    sitting = Bye.objects.get().enrolment
    challenger = make_player("late", "SSU" if sitting.bloc != "SSU" else "Allies")
    sector = fronts(campaign=running_campaign)[(Bloc(challenger.bloc), Bloc(sitting.bloc))][0]
    challenge = challenge_issue(
        challenger=challenger, challenged=sitting, sector_key=sector, actor=challenger.player, message=""
    )

    challenge_accept(challenge=challenge, actor=sitting.player)

    assert not Bye.objects.exists()  # nor counted as a bye when the next pairings share byes out
    client.force_login(place("a1").player)
    assert 'data-testid="round-byes"' not in client.get(url("round", running_campaign, 1)).content.decode()


def test_a_bye_stored_before_its_player_got_a_battle_is_not_shown(
    client, running_campaign, organiser, round_one, make_player, place
):
    make_player("x3", "Axis")
    pairings_generate(round=round_one, actor=organiser)
    pairings_publish(round=round_one, actor=organiser)
    fighting = Battle.objects.filter(round=round_one).first().defender
    Bye.objects.all().delete()
    Bye.objects.create(round=round_one, enrolment=fighting, published=True)  # as an older release left it
    client.force_login(place("a1").player)

    page = client.get(url("round", running_campaign, 1)).content.decode()

    assert 'data-testid="round-byes"' not in page


def test_the_draft_says_when_a_battle_shares_its_sector_and_the_organiser_may_move_it(
    client, running_campaign, organiser, round_one
):
    pairings_generate(round=round_one, actor=organiser)
    first, second = drafts()[:2]
    # Another battle of the round over the first one's sector (a challenge accepted, a battle scheduled).
    Battle.objects.filter(pk=second.pk).update(sector=first.sector)
    client.force_login(organiser)

    page = client.get(url("round", running_campaign, 1)).content.decode()

    assert page.count('data-testid="draft-shared-sector"') == 2
    assert f"{first.sector.name} is fought over more than once this round" in page
    assert f"also by {first.attacker.display_name} against {first.defender.display_name}" in page

    # The organiser moves it to another sector of its front before publishing, and the warning is gone.
    others = [key for key in fronts_of(running_campaign, second) if key != first.sector.key]
    pairings_set_sector(round=round_one, actor=organiser, battle=drafts()[1], sector_key=others[0])
    after = client.get(url("round", running_campaign, 1)).content.decode()
    assert 'data-testid="draft-shared-sector"' not in after


def fronts_of(campaign: Campaign, battle: Battle) -> tuple[str, ...]:
    return tuple(fronts(campaign=campaign).get((Bloc(battle.attacker.bloc), Bloc(battle.defender.bloc)), ()))
