"""The join requests' refuse field, written by hand for an unbound form, is the field Django's form would write."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test.html import parse_html
from django.urls import reverse

from campaign.models import EnrolmentStatus
from campaign.views.dashboard import make_refuse_form
from tests.factories import EnrolmentFactory, UserFactory

pytestmark = pytest.mark.django_db


def _both(refuse_form) -> tuple[object, object]:
    by_hand = render_to_string("campaign/dashboard/_refuse_field.html", {"refuse_form": refuse_form})
    by_form = render_to_string("partials/form.html", {"form": refuse_form})
    return parse_html(by_hand), parse_html(by_form)


def test_it_writes_an_unbound_refuse_field_as_the_form_would(campaign):
    asking = EnrolmentFactory(
        campaign=campaign, player=UserFactory(username="quinn", display_name='Quinn "Q" <&>'),
        status=EnrolmentStatus.PENDING,
    )  # fmt: skip

    by_hand, by_form = _both(make_refuse_form(asking))

    assert by_hand == by_form
    assert "Why refuse Quinn &quot;Q&quot; &lt;&amp;&gt;" in str(by_hand)


def test_it_leaves_a_refusal_sent_without_a_reason_to_the_form(client, campaign, organiser):
    asking = EnrolmentFactory(
        campaign=campaign, player=UserFactory(username="quinn"), status=EnrolmentStatus.PENDING
    )
    client.force_login(organiser)

    response = client.post(
        reverse("campaign:refuse", args=[campaign.pk, asking.pk]), {f"refuse-{asking.pk}-reason": ""}
    )

    by_hand, by_form = _both(make_refuse_form(asking, {f"refuse-{asking.pk}-reason": ""}))
    assert by_hand == by_form
    assert response.status_code == 200
    assert b'aria-invalid="true"' in response.content
