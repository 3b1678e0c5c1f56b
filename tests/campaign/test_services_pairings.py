"""Generated pairings: a draft the organiser edits and publishes, over sectors on the front."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.engine.map import can_attack
from campaign.errors import CampaignConflictError
from campaign.models import Battle, BattleStatus, Bye, Round
from campaign.selectors import campaign_map, map_state_now, sectors_for_map
from campaign.services.pairings import (
    battle_terms_update,
    pairings_generate,
    pairings_publish,
    pairings_set_sector,
    pairings_swap,
)
from campaign.services.rounds import round_open
from core.errors import DomainError

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_one(running_campaign, organiser) -> Round:
    return round_open(campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=7))


def test_it_drafts_battles_between_blocs_over_attackable_sectors(round_one, organiser, running_campaign):
    battles = pairings_generate(round=round_one, actor=organiser)

    assert len(battles) == 3
    zmap = campaign_map(campaign=running_campaign)
    state = map_state_now(sectors=sectors_for_map(campaign=running_campaign))
    for battle in Battle.objects.select_related("attacker", "defender", "sector"):
        assert battle.status == BattleStatus.DRAFT
        assert battle.attacker.bloc != battle.defender.bloc
        assert battle.sector is not None
        assert can_attack(zmap, state, battle.attacker.bloc, battle.sector.key)
        assert battle.mission


def test_generating_again_replaces_the_draft(round_one, organiser):
    pairings_generate(round=round_one, actor=organiser)
    pairings_generate(round=round_one, actor=organiser)

    assert Battle.objects.count() == 3


def test_the_organiser_swaps_two_players_and_the_sides_stay_in_different_blocs(
    round_one, organiser, running_campaign
):
    battles = pairings_generate(round=round_one, actor=organiser)
    first = Battle.objects.select_related("attacker").get(pk=battles[0].pk)
    # The other player of the attacker's bloc fights in another battle: exchanging the two is always legal.
    other = next(
        p for p in running_campaign.enrolments.filter(bloc=first.attacker.bloc) if p.pk != first.attacker_id
    )

    pairings_swap(round=round_one, actor=organiser, first=first.attacker_id, second=other.pk)

    for battle in Battle.objects.select_related("attacker", "defender"):
        assert battle.attacker.bloc != battle.defender.bloc
    sides = {frozenset((x.attacker_id, x.defender_id)) for x in Battle.objects.all()}
    assert frozenset((other.pk, first.defender_id)) in sides


def test_a_swap_that_puts_one_bloc_on_both_sides_is_refused(round_one, organiser, running_campaign):
    battles = pairings_generate(round=round_one, actor=organiser)
    first = Battle.objects.select_related("attacker", "defender").get(pk=battles[0].pk)
    # Another player of the defender's bloc: put in the attacker's place, both sides would be one bloc.
    same_bloc = (
        running_campaign.enrolments.filter(bloc=first.defender.bloc).exclude(pk=first.defender_id).get()
    )

    with pytest.raises(DomainError) as caught:
        pairings_swap(round=round_one, actor=organiser, first=first.attacker_id, second=same_bloc.pk)

    assert caught.value.code == "pairing-same-bloc"
    assert Battle.objects.get(pk=first.pk).attacker_id == first.attacker_id


def test_a_sector_the_attacker_cannot_attack_is_refused(round_one, organiser, running_campaign):
    battle = pairings_generate(round=round_one, actor=organiser)[0]
    hq_of_attacker = running_campaign.sectors.get(headquarters_of=battle.attacker.bloc)

    with pytest.raises(DomainError) as caught:
        pairings_set_sector(round=round_one, actor=organiser, battle=battle, sector_key=hq_of_attacker.key)

    assert caught.value.code == "pairing-sector-not-attackable"


def test_publishing_schedules_the_battles_and_fixes_the_pairings(round_one, organiser):
    pairings_generate(round=round_one, actor=organiser)

    pairings_publish(round=round_one, actor=organiser)

    assert set(Battle.objects.values_list("status", flat=True)) == {BattleStatus.SCHEDULED}
    with pytest.raises(CampaignConflictError) as caught:
        pairings_generate(round=round_one, actor=organiser)
    assert caught.value.code == "pairings-published"


def test_an_odd_player_sits_out_with_a_published_bye(round_one, organiser, running_campaign):
    from armies.blocs import Bloc
    from tests.factories import EnrolmentFactory

    EnrolmentFactory(campaign=running_campaign, bloc=Bloc.SSU)
    pairings_generate(round=round_one, actor=organiser)
    pairings_publish(round=round_one, actor=organiser)

    assert Bye.objects.filter(round=round_one, published=True).count() == 1


def test_the_organiser_changes_a_battles_mission_and_points_limit(round_one, organiser):
    battle = pairings_generate(round=round_one, actor=organiser)[0]

    battle_terms_update(battle=battle, actor=organiser, mission="hold-the-line", points_limit=200)

    battle.refresh_from_db()
    assert (battle.mission, battle.points_limit) == ("hold-the-line", 200)
    with pytest.raises(DomainError) as caught:
        battle_terms_update(battle=battle, actor=organiser, mission="tea-party")
    assert caught.value.code == "unknown-mission"


def test_the_draft_explains_itself_with_the_players_names(round_one, organiser, running_campaign):
    battles = pairings_generate(round=round_one, actor=organiser)
    first = Battle.objects.select_related("attacker", "defender").get(pk=battles[0].pk)
    other = next(
        p for p in running_campaign.enrolments.filter(bloc=first.attacker.bloc) if p.pk != first.attacker_id
    )

    pairings_swap(round=round_one, actor=organiser, first=first.attacker_id, second=other.pk)

    swapped = Battle.objects.select_related("attacker", "defender").get(attacker=other)
    messages = " ".join(note["message"] for note in swapped.notes)
    assert f"{first.attacker.display_name} and {other.display_name} swapped by the organiser" in messages
    assert f"player {other.pk}" not in messages.lower()


def test_it_keeps_the_drafted_battles_ids_through_a_swap(round_one, organiser, running_campaign):
    battles = pairings_generate(round=round_one, actor=organiser)
    ids = sorted(b.pk for b in battles)
    first = Battle.objects.select_related("attacker").get(pk=ids[0])
    other = next(
        p for p in running_campaign.enrolments.filter(bloc=first.attacker.bloc) if p.pk != first.attacker_id
    )

    pairings_swap(round=round_one, actor=organiser, first=first.attacker_id, second=other.pk)

    assert sorted(Battle.objects.values_list("pk", flat=True)) == ids
    swapped = Battle.objects.get(pk=ids[0])
    assert swapped.attacker_id == other.pk
    assert swapped.attacker_bloc == other.bloc


def test_it_keeps_a_drafted_battles_id_and_terms_when_its_sector_changes(
    round_one, organiser, running_campaign
):
    pairings_generate(round=round_one, actor=organiser)
    battle = Battle.objects.select_related("sector").order_by("id").first()
    assert battle is not None
    ids = sorted(Battle.objects.values_list("pk", flat=True))
    battle_terms_update(battle=battle, actor=organiser, points_limit=444)

    pairings_set_sector(round=round_one, actor=organiser, battle=battle, sector_key=None)

    assert sorted(Battle.objects.values_list("pk", flat=True)) == ids
    battle.refresh_from_db()
    assert (battle.sector, battle.points_limit) == (None, 444)
