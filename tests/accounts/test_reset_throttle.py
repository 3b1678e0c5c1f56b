"""Password-reset mails are counted per e-mail and per client; past a limit none is sent, and the page says the same."""

from __future__ import annotations

import pytest
from django.core import mail

pytestmark = pytest.mark.django_db

RESET = "/accounts/password/reset/"
SENT = "/accounts/password/reset/sent/"


def _ask(client, email: str, address: str = "203.0.113.7"):
    return client.post(RESET, {"email": email}, REMOTE_ADDR=address)


@pytest.fixture
def limits(settings):
    settings.PASSWORD_RESET_RATE_PER_EMAIL = "3/hour"
    settings.PASSWORD_RESET_RATE_PER_CLIENT = "100/minute"
    return settings


def test_it_sends_three_mails_an_hour_to_one_address_and_then_none(client, stranger, limits):
    answers = [_ask(client, stranger.email, address=f"203.0.113.{n}") for n in range(5)]

    assert len(mail.outbox) == 3
    assert [(a.status_code, a["Location"]) for a in answers] == [(302, SENT)] * 5


def test_it_counts_an_address_in_any_case(client, stranger, limits):
    for email in ("sasha@example.test", "SASHA@example.test", "Sasha@Example.Test", "sasha@EXAMPLE.test"):
        _ask(client, email)

    assert len(mail.outbox) == 3


def test_it_answers_an_unknown_address_as_a_known_one_throttled_or_not(client, stranger, limits):
    unknown = [_ask(client, "nobody@example.test") for _ in range(4)]
    known = [_ask(client, stranger.email) for _ in range(4)]

    assert [(a.status_code, a["Location"]) for a in unknown] == [
        (a.status_code, a["Location"]) for a in known
    ]
    assert [m.to for m in mail.outbox] == [[stranger.email]] * 3


def test_it_stops_one_client_asking_for_many_addresses(client, settings, organiser, stranger):
    settings.PASSWORD_RESET_RATE_PER_CLIENT = "2/minute"
    settings.PASSWORD_RESET_RATE_PER_EMAIL = "100/hour"

    _ask(client, organiser.email)
    _ask(client, stranger.email)
    last = _ask(client, stranger.email)

    assert len(mail.outbox) == 2
    assert (last.status_code, last["Location"]) == (302, SENT)


def test_another_client_is_not_stopped_by_the_first_ones_count(client, settings, organiser, stranger):
    settings.PASSWORD_RESET_RATE_PER_CLIENT = "1/minute"
    settings.PASSWORD_RESET_RATE_PER_EMAIL = "100/hour"

    _ask(client, organiser.email, address="198.51.100.1")
    _ask(client, stranger.email, address="198.51.100.1")
    _ask(client, stranger.email, address="198.51.100.2")

    assert [m.to for m in mail.outbox] == [[organiser.email], [stranger.email]]


def test_a_client_past_its_limit_does_not_use_up_the_addresss_mails(client, settings, stranger):
    settings.PASSWORD_RESET_RATE_PER_CLIENT = "1/minute"
    settings.PASSWORD_RESET_RATE_PER_EMAIL = "2/hour"

    for _ in range(5):
        _ask(client, stranger.email, address="198.51.100.9")
    _ask(client, stranger.email, address="198.51.100.10")

    assert len(mail.outbox) == 2
