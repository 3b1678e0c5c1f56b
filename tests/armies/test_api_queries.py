"""Query counts of the armies list endpoints: pinned, and not growing with the data."""

from __future__ import annotations

import pytest

from tests.factories import ArmyListFactory, CatalogueFactory, UnitFactory

pytestmark = pytest.mark.django_db


def test_it_lists_army_lists_in_a_fixed_number_of_queries(api_as, player, django_assert_num_queries):
    catalogue = CatalogueFactory()
    ArmyListFactory.create_batch(2, owner=player, catalogue=catalogue)
    client = api_as(player)

    # 1 the caller's lists with their catalogue (select_related)
    with django_assert_num_queries(1):
        first = client.get("/api/army-lists/")
    ArmyListFactory.create_batch(5, owner=player, catalogue=CatalogueFactory())
    with django_assert_num_queries(1):
        second = client.get("/api/army-lists/")

    assert (len(first.json()), len(second.json())) == (2, 7)


def test_it_lists_catalogues_in_two_queries(api_client, django_assert_num_queries):
    CatalogueFactory.create_batch(3)

    # 1 the catalogues annotated with their unit count, 2 their blocs (prefetched)
    with django_assert_num_queries(2):
        response = api_client.get("/api/catalogues/")

    assert len(response.json()) == 3


def test_it_lists_catalogue_units_in_a_fixed_number_of_queries(api_client, django_assert_num_queries):
    catalogue = CatalogueFactory()
    UnitFactory.create_batch(3, catalogue=catalogue)
    url = f"/api/catalogues/{catalogue.pk}/units/"

    # 1 the catalogue, 2 its units with their faction (select_related)
    with django_assert_num_queries(2):
        api_client.get(url)
    UnitFactory.create_batch(10, catalogue=catalogue)
    with django_assert_num_queries(2):
        response = api_client.get(url)

    assert len(response.json()) == 13
