"""The webhook guard against addresses inside the site's network that hide behind another form:
IPv6 addresses carrying an IPv4 one (6to4, Teredo, NAT64, IPv4-mapped or -compatible) and IPv4
addresses written the old ways, when the URL is set and after DNS resolution before a post."""

from __future__ import annotations

import pytest

from campaign.errors import CampaignError
from campaign.models import DeliveryStatus
from campaign.services import webhooks
from tests.campaign.test_webhooks import queued_delivery

# IPv6 addresses that carry an IPv4 address inside the site's network, and old spellings of IPv4 ones.
EMBEDDED_INTERNAL = {
    "6to4 of loopback": "http://[2002:7f00:1::1]/",
    "6to4 of a private address": "http://[2002:c0a8:1::1]/hook",
    "6to4 of 0.0.0.0": "http://[2002::1]/",
    "6to4 of a multicast address": "http://[2002:e000:1::1]/",
    "6to4 of a reserved address": "http://[2002:f000:1::1]/",
    "NAT64 of loopback": "http://[64:ff9b::7f00:1]/",
    "NAT64 of the metadata service": "http://[64:ff9b::a9fe:a9fe]/latest/meta-data",
    "local-use NAT64, even of a public address": "http://[64:ff9b:1::808:808]/",
    "IPv4-mapped private": "http://[::ffff:10.0.0.1]/",
    "IPv4-compatible loopback": "http://[::7f00:1]/",
    "IPv4-compatible private": "http://[::10.1.2.3]/",
    "Teredo to a loopback client": "http://[2001:0:808:808::80ff:fffe]/",
    "IPv4 as one number": "http://2130706433/",
    "IPv4 with a part left out": "http://127.1/",
    "IPv4 in hexadecimal": "http://0x7f.0.0.1/",
}


@pytest.mark.parametrize("url", EMBEDDED_INTERNAL.values(), ids=EMBEDDED_INTERNAL.keys())
def test_it_refuses_an_address_that_carries_an_internal_ipv4_address(settings, url):
    settings.DEBUG = False
    settings.WEBHOOK_ALLOW_PRIVATE = False
    with pytest.raises(CampaignError) as refused:
        webhooks.webhook_url_check(url)
    assert refused.value.code == "internal-url"


@pytest.mark.parametrize(
    "url",
    ["http://[2002:808:808::1]/hook", "http://[64:ff9b::808:808]/hook", "http://[::ffff:8.8.8.8]/hook",
     "http://[2606:4700:4700::1111]/hook", "http://8.8.8.8/hook"],
)  # fmt: skip
def test_it_accepts_an_address_that_carries_a_public_ipv4_address(settings, url):
    settings.DEBUG = False
    settings.WEBHOOK_ALLOW_PRIVATE = False
    assert webhooks.webhook_url_check(url) == url


@pytest.mark.django_db
@pytest.mark.parametrize("answer", ["2002:a00:7::1", "64:ff9b::a00:7", "::ffff:10.0.0.7"])
def test_it_refuses_at_delivery_a_host_that_resolves_to_an_ipv6_address_carrying_an_internal_one(
    settings, campaign, monkeypatch, answer
):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    monkeypatch.setattr(webhooks.socket, "getaddrinfo", lambda *_a, **_k: [(10, 1, 6, "", (answer, 0, 0, 0))])
    delivery = queued_delivery(campaign, "http://hooks.example.org/hook")
    assert webhooks.webhook_deliver(delivery_id=delivery.pk) is False
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.FAILED, 1)
    assert delivery.last_error == "refused: resolves to an address inside the site's network"
