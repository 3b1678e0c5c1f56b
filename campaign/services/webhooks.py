"""A campaign's outgoing webhook: confirmed results and round changes posted as small JSON messages.

Queued in the transaction of the change (``webhook_queue``: a delivery row,
and the Celery task named after commit), so a committed confirmation always
has its message and a rolled-back one never does; the task
(``campaign.tasks.webhook_deliver``) reads that row and POSTs it. A webhook
that is down, slow or refusing never touches the confirmation: it committed
before anything was sent, and a failed post only updates the delivery row.

The body is JSON with a ``content`` line, which is all a Discord channel's
webhook needs, beside the structured ``event``, ``campaign`` and ``data``.

Security (SSRF): the site makes requests to an address an organiser typed.
Only http and https are accepted, with no user name or password in the URL;
redirects are not followed; and, unless ``settings.DEBUG`` or
``settings.WEBHOOK_ALLOW_PRIVATE`` is on (development and the tests, which
post to a local server), a host that is or resolves to a loopback, private,
link-local, reserved or multicast address is refused, when the URL is set and
again before each post. An IPv6 address that carries an IPv4 one (IPv4-mapped,
IPv4-compatible, 6to4, Teredo, NAT64) is judged by that IPv4 address too, and
so is an IPv4 address written the old ways (``2130706433``, ``127.1``,
``0x7f.1``) that resolvers still read; the local-use NAT64 prefix
(64:ff9b:1::/48, never routed on the internet) is refused whole. Before each
post the host is resolved once, every address of the answer is checked, and
the post connects to the first of them (``webhook_http``): a name server that
answers differently the second time (DNS rebinding) is never asked twice.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from campaign import limits
from campaign.errors import CampaignError
from campaign.models import Battle, Campaign, DeliveryStatus, Round, WebhookDelivery
from campaign.models.webhooks import DELIVERIES_KEPT, ERROR_MAX_LENGTH
from campaign.services.webhook_http import post_json
from core.queue import enqueue_on_commit

TIMEOUT_SECONDS = 5.0  # connect and read, per attempt
MAX_RETRIES = 5  # attempts after the first, with exponential backoff (Celery's retry_backoff)
CONTENT_MAX_LENGTH = 2_000  # Discord refuses a longer "content"
USER_AGENT = "Zverograd-webhook/1 (+https://github.com/zverograd)"

RESULT_CONFIRMED = "result.confirmed"
ROUND_OPENED = "round.opened"
ROUND_CLOSED = "round.closed"
ROUND_REOPENED = "round.reopened"
PAIRINGS_PUBLISHED = "pairings.published"


class WebhookTransientError(Exception):
    """A network error, a timeout or a 5xx answer: worth trying again later."""


def _private_allowed() -> bool:
    return bool(settings.DEBUG or getattr(settings, "WEBHOOK_ALLOW_PRIVATE", False))


# NAT64 (RFC 6052): the well-known prefix carries the IPv4 address in its last 32 bits; the
# local-use prefix (RFC 8215) is never globally reachable, whatever it carries.
_NAT64_WELL_KNOWN = ipaddress.IPv6Network("64:ff9b::/96")
_NAT64_LOCAL_USE = ipaddress.IPv6Network("64:ff9b:1::/48")


def _outside_the_internet(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    # Not global covers private, loopback, link-local, unspecified and (IPv4) reserved addresses. Not
    # ``is_reserved`` for IPv6: it spans ::/8, where NAT64 (a DNS64 resolver's answer) puts public hosts.
    return not ip.is_global or ip.is_multicast


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (6to4, Teredo, NAT64, IPv4-compatible): traffic reaches them."""
    embedded: list[ipaddress.IPv4Address] = []
    if ip.sixtofour is not None:
        embedded.append(ip.sixtofour)
    if ip.teredo is not None:
        embedded.extend(ip.teredo)  # the Teredo server and the client behind it
    if ip in _NAT64_WELL_KNOWN or ip in _NAT64_LOCAL_USE or int(ip) >> 32 == 0:  # the last: ::a.b.c.d
        embedded.append(ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF))
    return embedded


def _is_internal(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d is that IPv4 address, nothing more
            return _outside_the_internet(ip.ipv4_mapped)
        if ip in _NAT64_LOCAL_USE or any(_outside_the_internet(v4) for v4 in _embedded_ipv4(ip)):
            return True
    return _outside_the_internet(ip)


def _legacy_ipv4(host: str) -> str | None:
    """An IPv4 address written as resolvers still read it (``2130706433``, ``127.1``, ``0x7f.1``), or None."""
    try:
        return socket.inet_ntoa(socket.inet_aton(host))
    except OSError:
        return None  # a name


def _internal_host(host: str) -> bool:
    """Whether ``host`` is written as (not resolved to) an address inside the site's network."""
    if host.lower() in {"localhost", "localhost.localdomain"} or host.lower().endswith(".localhost"):
        return True
    try:
        return _is_internal(host)
    except ValueError:
        pass  # not written as an address
    legacy = _legacy_ipv4(host)
    return legacy is not None and _is_internal(legacy)


def _address_to_post(host: str) -> str:
    """The one address a post to ``host`` connects to: the first of its DNS answer, once every address of
    the answer is checked (an ``OSError`` when it does not resolve: a network error, retried)."""
    answers = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    addresses = [str(answer[4][0]) for answer in answers]
    if not addresses:
        raise OSError(f"{host} resolves to no address")
    if not _private_allowed() and (_internal_host(host) or any(_is_internal(a) for a in addresses)):
        raise CampaignError("internal-url", "resolves to an address inside the site's network", "webhook_url")
    return addresses[0]


def webhook_url_check(value: Any, field: str = "webhook_url") -> str:
    """The URL cleaned ("" turns the webhook off), or a CampaignError saying what is wrong with it."""
    if not isinstance(value, str):
        raise CampaignError("invalid", "must be text", field)
    url = value.strip()
    if not url:
        return ""
    if len(url) > limits.WEBHOOK_URL_MAX_LENGTH:
        raise CampaignError("too-long", f"at most {limits.WEBHOOK_URL_MAX_LENGTH} characters", field)
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError as exc:
        raise CampaignError("invalid-url", "is not a web address", field) from exc
    if parts.scheme not in ("http", "https"):
        raise CampaignError("invalid-url", "must start with https:// (or http://)", field)
    if not host or any(char.isspace() for char in url):
        raise CampaignError("invalid-url", "is not a web address", field)
    if parts.username is not None or parts.password is not None:
        raise CampaignError("invalid-url", "may not carry a user name or password", field)
    if not _private_allowed() and _internal_host(host):
        raise CampaignError(
            "internal-url", "must be a public address, not one inside the site's network", field
        )
    return url


def _content(text: str) -> str:
    return text if len(text) <= CONTENT_MAX_LENGTH else text[: CONTENT_MAX_LENGTH - 1] + "…"


def webhook_queue(
    *, campaign: Campaign, event: str, text: str, data: dict[str, Any], url: str | None = None
) -> WebhookDelivery | None:
    """Queue a message for ``campaign``'s webhook, in the caller's transaction; None when it has none.
    ``url``: its address as the caller read it in this transaction (by default it is read here)."""
    if url is None:
        url = Campaign.objects.filter(pk=campaign.pk).values_list("webhook_url", flat=True).first()
    if not url:
        return None
    payload = {
        "content": _content(text),
        "event": event,
        "campaign": {"id": campaign.pk, "name": campaign.name,
                     "url": f"{settings.SITE_URL}{reverse('campaign:detail', args=[campaign.pk])}"},
        "data": data,
    }  # fmt: skip
    delivery = WebhookDelivery.objects.create(campaign=campaign, event=event, payload=payload, url=url)
    # Only settled messages are pruned: one still waiting for the worker is never lost to a burst.
    settled = WebhookDelivery.objects.filter(
        campaign=campaign, status__in=[DeliveryStatus.DELIVERED, DeliveryStatus.FAILED]
    ).order_by("-created_at", "-pk")[DELIVERIES_KEPT:]
    WebhookDelivery.objects.filter(pk__in=list(settled.values_list("pk", flat=True))).delete()
    enqueue_on_commit("campaign.tasks.webhook_deliver", delivery.pk)
    return delivery


def _side(battle: Battle, side: str) -> str:
    place = battle.attacker if side == "attacker" else battle.defender
    return str(place.display_name)


def webhook_result(*, battle: Battle, campaign: Campaign | None = None) -> WebhookDelivery | None:
    """A result took effect (confirmed by the opponent, an organiser or the clock): post it.

    In a campaign that hides results until the round closes, a result takes
    effect (and so is posted) when its round closes, with everyone else's.
    ``campaign``: the battle's campaign as the caller read it in this transaction (else it is read here).
    """
    if campaign is None:
        # Its name and address, not its map document; nothing more is read when it has no webhook.
        campaign = Campaign.objects.only("pk", "name", "webhook_url").get(pk=battle.campaign_id)
    if not campaign.webhook_url:
        return None
    result = battle.result or {}
    vp = result.get("victory_points") or {}
    winner = result.get("winner")
    attacker, defender = _side(battle, "attacker"), _side(battle, "defender")
    score = f"{vp.get('attacker', 0)}–{vp.get('defender', 0)} VP"
    if result.get("draw") or winner not in ("attacker", "defender"):
        outcome = f"{attacker} and {defender} drew ({score})"
    else:
        loser = "defender" if winner == "attacker" else "attacker"
        outcome = f"{_side(battle, winner)} beat {_side(battle, loser)} ({score})"
    sector = f" over {battle.sector.name}" if battle.sector is not None else ""
    text = f"{campaign.name}, round {battle.round.number}: {outcome}{sector}."
    data = {
        "battle": battle.pk, "round": battle.round.number, "attacker": attacker, "defender": defender,
        "winner": winner, "draw": bool(result.get("draw")), "victory_points": vp,
    }  # fmt: skip
    return webhook_queue(
        campaign=campaign, event=RESULT_CONFIRMED, text=text, data=data, url=campaign.webhook_url
    )


_ROUND_TEXT = {
    ROUND_OPENED: "round {number} is open",
    ROUND_CLOSED: "round {number} is closed",
    ROUND_REOPENED: "round {number} is reopened",
    PAIRINGS_PUBLISHED: "the pairings of round {number} are published",
}


def webhook_round(*, round: Round, event: str) -> WebhookDelivery | None:
    """A round opened, closed, reopened or had its pairings published."""
    campaign = Campaign.objects.get(pk=round.campaign_id)
    text = f"{campaign.name}: {_ROUND_TEXT[event].format(number=round.number)}"
    if event == ROUND_OPENED:
        text += f" (battles by {round.deadline:%d %B %Y})"
    data = {"round": round.number, "deadline": round.deadline.isoformat()}
    return webhook_queue(campaign=campaign, event=event, text=f"{text}.", data=data)


def _record(delivery_id: int, status: str, code: int | None, error: str) -> None:
    now = timezone.now()
    WebhookDelivery.objects.filter(pk=delivery_id).update(
        status=status, attempts=F("attempts") + 1, last_status_code=code, last_error=error[:ERROR_MAX_LENGTH],
        last_attempt_at=now, delivered_at=now if status == DeliveryStatus.DELIVERED else None,
    )  # fmt: skip


def webhook_deliver(*, delivery_id: int, last_try: bool = False) -> bool:
    """Post one queued message; True when the webhook took it.

    A network error, a timeout or a 5xx raises ``WebhookTransientError`` (the
    task retries it) unless this is the ``last_try``; any other answer is
    final. Every attempt is recorded on the delivery row.
    """
    delivery = WebhookDelivery.objects.filter(pk=delivery_id).first()
    if delivery is None or delivery.status in (DeliveryStatus.DELIVERED, DeliveryStatus.FAILED):
        return delivery is not None and delivery.status == DeliveryStatus.DELIVERED  # at-least-once: done
    code: int | None = None
    now_set = Campaign.objects.filter(pk=delivery.campaign_id).values_list("webhook_url", flat=True).first()
    if now_set != delivery.url:  # removed or replaced since (a leaked URL, say): the old one is sent nothing
        _record(
            delivery.pk, DeliveryStatus.FAILED, None, "not sent: the campaign's webhook URL changed since"
        )
        return False
    try:
        webhook_url_check(delivery.url)
        address = _address_to_post(urlsplit(delivery.url).hostname or "")
        code = post_json(
            delivery.url, delivery.payload, address=address, timeout=TIMEOUT_SECONDS,
            headers={"User-Agent": USER_AGENT},
        )  # fmt: skip
    except CampaignError as exc:
        _record(delivery.pk, DeliveryStatus.FAILED, None, f"refused: {exc.message}")
        return False
    except (OSError, ValueError) as exc:  # URLError, timeouts and connection resets are OSErrors
        error = f"{type(exc).__name__}: {getattr(exc, 'reason', exc)}"
    else:
        if 200 <= code < 300:
            _record(delivery.pk, DeliveryStatus.DELIVERED, code, "")
            return True
        error = f"HTTP {code}"
        if code < 500 and code != 429:
            _record(delivery.pk, DeliveryStatus.FAILED, code, error)
            return False
    _record(delivery.pk, DeliveryStatus.FAILED if last_try else DeliveryStatus.RETRYING, code, error)
    if last_try:
        return False
    raise WebhookTransientError(error)
