"""The campaign's webhook, posted to a real HTTP server on 127.0.0.1 (http.server in a thread).

The Celery task runs in this process (``apply``: Celery's eager mode, retries
included, without the backoff's waits); tests/standings/test_reliability.py
has a separate worker post one.
"""
# ruff: noqa: F811 (the battle fixtures are imported below, and named as arguments)

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from battles.services import report_confirm, report_submit
from campaign import limits
from campaign.errors import CampaignError
from campaign.models import Battle, BattleStatus, Campaign, DeliveryStatus, LogEntry, Round, WebhookDelivery
from campaign.models.webhooks import DELIVERIES_KEPT
from campaign.services import webhooks
from campaign.services.campaigns import campaign_update
from campaign.services.pairings import pairings_generate, pairings_publish
from campaign.services.rounds import round_close, round_open, round_reopen
from campaign.tasks import deliver_webhook
from config.celery import app

# The battle workflow's fixtures (a round, one scheduled battle, registered lists, report data).
from tests.battles.conftest import battle, lists_of, report_data, round_one  # noqa: F401


class Hook:
    """What the local server received, and how it answers: ``answers`` in turn (then 200), after ``delay``."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.answers: list[int] = []
        self.delay = 0.0
        self.on_post: Any = None
        self.seen: list[Any] = []
        self.lock = threading.Lock()
        self.url = ""


@pytest.fixture
def hook() -> Iterator[Hook]:
    state = Hook()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with state.lock:
                state.received.append({
                    "path": self.path, "type": self.headers["Content-Type"], "body": body,
                    "host": self.headers["Host"],
                })  # fmt: skip
                status = state.answers.pop(0) if state.answers else 200
            if state.on_post is not None:
                state.seen.append(state.on_post(body))
            time.sleep(state.delay)
            try:
                self.send_response(status)
                self.end_headers()
            except OSError:
                pass  # the client gave up (the timeout test)

        def log_message(self, *_: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hook/abc"
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...]]]:
    """Every task sent to the broker (none is: the tests run the ones they want)."""
    found: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args: found.append((name, tuple(args))))
    return found


def hooked(campaign: Campaign, url: str) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(webhook_url=url)


def deliveries_sent(sent: list[tuple[str, tuple[Any, ...]]]) -> list[int]:
    return [int(args[0]) for name, args in sent if name == "campaign.tasks.webhook_deliver"]


def confirm(battle: Battle, report_data: Any) -> None:
    report = report_submit(battle=battle, actor=battle.attacker.player, side="attacker", data=report_data())
    report_confirm(report=report, actor=battle.defender.player)


# --------------------------------------------------------------------------- the setting


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/hook", "javascript:alert(1)", "file:///etc/passwd", "example.com/hook",
        "https://user:secret@example.com/hook", "https://exa mple.com/", "https://", "https://example.com:99999/",
        "https://example.com/" + "a" * limits.WEBHOOK_URL_MAX_LENGTH,
    ],
)  # fmt: skip
def test_it_refuses_a_url_that_is_not_a_plain_web_address(url):
    with pytest.raises(CampaignError) as refused:
        webhooks.webhook_url_check(url)
    assert refused.value.field == "webhook_url"


@pytest.mark.parametrize(
    "url",
    ["http://localhost:8000/", "http://127.0.0.1/", "http://10.1.2.3/", "http://192.168.0.5/x",
     "http://169.254.169.254/latest/meta-data", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://0.0.0.0/"],
)  # fmt: skip
def test_it_refuses_an_internal_address_unless_allowed(settings, url):
    settings.DEBUG = False
    settings.WEBHOOK_ALLOW_PRIVATE = False
    with pytest.raises(CampaignError) as refused:
        webhooks.webhook_url_check(url)
    assert refused.value.code == "internal-url"
    settings.WEBHOOK_ALLOW_PRIVATE = True
    assert webhooks.webhook_url_check(url) == url


def test_it_accepts_a_public_https_url_and_an_empty_one(settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    url = "https://discord.com/api/webhooks/123/abc-DEF"
    assert webhooks.webhook_url_check(f"  {url} ") == url
    assert webhooks.webhook_url_check("") == ""


@pytest.mark.django_db
def test_it_refuses_at_delivery_a_host_that_resolves_inside_the_network(settings, campaign, monkeypatch):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    answers = {"hooks.example.org": "10.0.0.7"}  # what a hostile DNS server might answer for a public name
    monkeypatch.setattr(
        webhooks.socket, "getaddrinfo", lambda host, *_a, **_k: [(2, 1, 6, "", (answers[host], 0))]
    )
    delivery = queued_delivery(campaign, "http://hooks.example.org/hook")
    assert webhooks.webhook_deliver(delivery_id=delivery.pk) is False
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.FAILED, 1)
    assert delivery.last_error.startswith("refused:")


@pytest.mark.django_db
def test_it_connects_to_the_address_it_checked_when_dns_answers_differently_later(
    settings, campaign, monkeypatch, hook
):
    # DNS rebinding: a public answer for the check, then the local server for whoever asks again.
    settings.WEBHOOK_ALLOW_PRIVATE = False
    asked: list[str] = []
    connected: list[tuple[str, int]] = []

    def rebinding(host: str, *_a: Any, **_k: Any) -> list[Any]:
        asked.append(host)
        return [(2, 1, 6, "", ("93.184.216.34" if len(asked) == 1 else "127.0.0.1", 0))]

    def refuse(address: tuple[str, int], *_a: Any, **_k: Any) -> Any:
        connected.append(address)  # nothing leaves the machine: the connection is refused
        raise ConnectionRefusedError("refused in the test")

    monkeypatch.setattr(webhooks.socket, "getaddrinfo", rebinding)
    monkeypatch.setattr(webhooks.socket, "create_connection", refuse)
    port = int(hook.url.split(":")[2].split("/")[0])
    delivery = queued_delivery(campaign, f"http://hooks.example.org:{port}/hook/abc")

    with pytest.raises(webhooks.WebhookTransientError):
        webhooks.webhook_deliver(delivery_id=delivery.pk)

    assert asked == ["hooks.example.org"]
    assert connected == [("93.184.216.34", port)]
    assert hook.received == []


@pytest.mark.django_db
def test_it_posts_to_the_resolved_address_naming_the_host(settings, campaign, monkeypatch, hook):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    # Every name is the local server (the connection asks too, with the port: ``create_connection``).
    monkeypatch.setattr(
        webhooks.socket,
        "getaddrinfo",
        lambda host, port, *_a, **_k: [(2, 1, 6, "", ("127.0.0.1", port or 0))],
    )
    port = int(hook.url.split(":")[2].split("/")[0])
    delivery = queued_delivery(campaign, f"http://hooks.example.org:{port}/hook/abc")

    assert webhooks.webhook_deliver(delivery_id=delivery.pk) is True

    assert [post["host"] for post in hook.received] == [f"hooks.example.org:{port}"]


@pytest.mark.django_db
def test_it_logs_that_the_url_changed_but_never_the_url(campaign, organiser):
    secret = "https://discord.com/api/webhooks/1/very-secret"
    campaign_update(campaign=campaign, actor=organiser, changes={"webhook_url": secret})

    campaign.refresh_from_db()
    assert campaign.webhook_url == secret
    entry = LogEntry.objects.get(campaign=campaign, field="webhook_url")
    assert (entry.before, entry.after) == ("", "set")
    assert secret not in json.dumps([entry.before, entry.after, entry.reason])


@pytest.mark.django_db
def test_it_shows_the_url_to_organisers_only_in_the_api(api_as, campaign, organiser, player):
    hooked(campaign, "https://discord.com/api/webhooks/1/secret")
    url = f"/api/campaigns/{campaign.pk}/"
    assert api_as(organiser).get(url).json()["webhook_url"] == "https://discord.com/api/webhooks/1/secret"
    assert api_as(player).get(url).json()["webhook_url"] is None


@pytest.mark.django_db
def test_it_sets_the_url_through_the_api_and_refuses_a_bad_one(api_as, campaign, organiser, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    client = api_as(organiser)
    refused = client.patch(f"/api/campaigns/{campaign.pk}/", {"webhook_url": "ftp://x.org/"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "webhook_url"
    url = "https://discord.com/api/webhooks/2/abc"
    assert (
        client.patch(f"/api/campaigns/{campaign.pk}/", {"webhook_url": url}, format="json").status_code == 200
    )
    assert Campaign.objects.get(pk=campaign.pk).webhook_url == url


# --------------------------------------------------------------------------- what is posted


@pytest.mark.django_db
def test_it_posts_a_confirmed_result_after_the_confirmation(hook, battle, report_data, sent):
    hooked(battle.campaign, hook.url)
    confirm(battle, report_data)
    assert deliveries_sent(sent) == []  # nothing before the transaction commits

    delivery = WebhookDelivery.objects.get(campaign=battle.campaign, event="result.confirmed")
    deliver_webhook.apply(args=(delivery.pk,))

    [post] = hook.received
    body = post["body"]
    assert (post["path"], post["type"]) == ("/hook/abc", "application/json")
    assert body["event"] == "result.confirmed"
    assert body["campaign"]["id"] == battle.campaign_id
    assert body["data"]["battle"] == battle.pk
    assert body["data"]["winner"] == "attacker"
    assert "round 1: X1 beat A1 (6–0 VP)" in body["content"]
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == (
        DeliveryStatus.DELIVERED,
        1,
        200,
    )


@pytest.mark.django_db
def test_it_posts_nothing_when_the_campaign_has_no_webhook(
    hook, battle, report_data, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        confirm(battle, report_data)
        round_close(round=battle.round, actor=battle.campaign.organiser)

    assert deliveries_sent(sent) == []
    assert not WebhookDelivery.objects.exists()
    assert hook.received == []


@pytest.mark.django_db
def test_it_posts_no_result_while_results_are_hidden(hook, battle, report_data, sent):
    hooked(battle.campaign, hook.url)
    Campaign.objects.filter(pk=battle.campaign_id).update(hide_results_until_close=True)

    confirm(battle, report_data)

    assert not WebhookDelivery.objects.filter(event="result.confirmed").exists()


@pytest.mark.django_db
def test_it_posts_round_changes(hook, running_campaign, organiser, sent, django_capture_on_commit_callbacks):
    hooked(running_campaign, hook.url)
    with django_capture_on_commit_callbacks(execute=True):
        first = round_open(
            campaign=running_campaign, actor=organiser, deadline=timezone.now() + timedelta(days=5)
        )
        pairings_generate(round=first, actor=organiser)
        pairings_publish(round=first, actor=organiser)
        round_close(round=first, actor=organiser)
        round_reopen(round=first, actor=organiser, reason="a late report")

    queued = deliveries_sent(sent)
    assert len(queued) == 4
    for pk in queued:
        deliver_webhook.apply(args=(pk,))
    assert [post["body"]["event"] for post in hook.received] == [
        "round.opened",
        "pairings.published",
        "round.closed",
        "round.reopened",
    ]
    assert all(post["body"]["data"]["round"] == 1 for post in hook.received)
    assert "round 1 is open" in hook.received[0]["body"]["content"]


@pytest.mark.django_db
def test_it_keeps_the_latest_settled_deliveries_and_every_waiting_one(running_campaign, sent):
    hooked(running_campaign, "http://127.0.0.1:9/hook")
    opened = Round.objects.create(campaign=running_campaign, number=1, deadline=timezone.now())
    for _ in range(25):
        webhooks.webhook_round(round=opened, event=webhooks.ROUND_OPENED)
    waiting = WebhookDelivery.objects.filter(campaign=running_campaign)
    assert waiting.count() == 25  # a burst never drops a message the worker has not sent yet
    waiting.update(status=DeliveryStatus.DELIVERED)

    newest = webhooks.webhook_round(round=opened, event=webhooks.ROUND_CLOSED)

    kept = WebhookDelivery.objects.filter(campaign=running_campaign)
    assert kept.filter(status=DeliveryStatus.DELIVERED).count() == DELIVERIES_KEPT
    assert newest in kept


# --------------------------------------------------------------------------- retries and timeouts


def queued_delivery(campaign: Campaign, url: str) -> WebhookDelivery:
    hooked(campaign, url)
    return WebhookDelivery.objects.create(
        campaign=campaign, event="round.opened", payload={"content": "Round 1 is open."}, url=url
    )


@pytest.mark.django_db
def test_it_retries_a_server_error_until_the_webhook_takes_the_message(hook, campaign):
    hook.answers = [500, 503]
    delivery = queued_delivery(campaign, hook.url)

    deliver_webhook.apply(args=(delivery.pk,))

    assert len(hook.received) == 3
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == (
        DeliveryStatus.DELIVERED,
        3,
        200,
    )
    assert delivery.last_error == ""


@pytest.mark.django_db
def test_it_gives_up_after_the_last_retry_and_says_why(hook, campaign):
    hook.answers = [500] * 20
    delivery = queued_delivery(campaign, hook.url)

    deliver_webhook.apply(args=(delivery.pk,))

    assert len(hook.received) == webhooks.MAX_RETRIES + 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.FAILED, webhooks.MAX_RETRIES + 1)
    assert (delivery.last_status_code, delivery.last_error) == (500, "HTTP 500")


@pytest.mark.django_db
def test_it_sends_nothing_to_a_url_removed_or_replaced_since(hook, campaign):
    delivery = queued_delivery(campaign, hook.url)
    hooked(campaign, "")

    deliver_webhook.apply(args=(delivery.pk,))

    assert hook.received == []
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.FAILED
    assert "changed" in delivery.last_error


@pytest.mark.django_db
def test_it_does_not_retry_a_refusal(hook, campaign):
    hook.answers = [404]
    delivery = queued_delivery(campaign, hook.url)

    deliver_webhook.apply(args=(delivery.pk,))

    assert len(hook.received) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == (DeliveryStatus.FAILED, 1, 404)


@pytest.mark.django_db
def test_it_gives_up_on_a_slow_server_at_the_timeout(hook, campaign, monkeypatch):
    monkeypatch.setattr(webhooks, "TIMEOUT_SECONDS", 0.3)
    hook.delay = 3.0
    delivery = queued_delivery(campaign, hook.url)

    started = time.monotonic()
    with pytest.raises(webhooks.WebhookTransientError, match="timed out"):
        webhooks.webhook_deliver(delivery_id=delivery.pk)
    assert time.monotonic() - started < 2.0  # the timeout, not the server's 3 s
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == (
        DeliveryStatus.RETRYING,
        1,
        None,
    )

    assert webhooks.webhook_deliver(delivery_id=delivery.pk, last_try=True) is False
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.FAILED, 2)


@pytest.mark.django_db
def test_it_retries_when_nothing_listens(campaign):
    with socket_closed() as url:
        delivery = queued_delivery(campaign, url)
    with pytest.raises(webhooks.WebhookTransientError):
        webhooks.webhook_deliver(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.RETRYING
    assert "refused" in delivery.last_error.lower()


class socket_closed:  # noqa: N801 (used as a context manager)
    """A local URL on a port nothing listens on (bound, then closed)."""

    def __enter__(self) -> str:
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        return f"http://127.0.0.1:{port}/hook"

    def __exit__(self, *_: object) -> None:
        pass


# --------------------------------------------------------------------------- never in the way


@pytest.mark.django_db(transaction=True)
def test_the_post_sees_the_confirmation_already_committed(hook, battle, report_data, monkeypatch):
    """The task is sent after commit: the server, reading the database as it is posted to, sees it confirmed."""
    hooked(battle.campaign, hook.url)

    def battle_status(_body: Any) -> str:
        try:
            return str(Battle.objects.get(pk=battle.pk).status)
        finally:
            connection.close()

    hook.on_post = battle_status
    monkeypatch.setattr(app, "send_task", lambda name, args: name == "campaign.tasks.webhook_deliver"
                        and deliver_webhook.apply(args=args))  # fmt: skip

    confirm(battle, report_data)

    assert hook.seen == [BattleStatus.CONFIRMED]


@pytest.mark.django_db(transaction=True)
def test_a_failing_webhook_never_blocks_or_loses_a_confirmation(hook, battle, report_data, monkeypatch):
    hooked(battle.campaign, hook.url)
    hook.answers = [500] * 20

    def broker_down(name: str, args: Any) -> None:
        raise ConnectionError("the broker is down")

    monkeypatch.setattr(app, "send_task", broker_down)
    confirm(battle, report_data)  # the failed send after commit is logged, not raised

    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED
    delivery = WebhookDelivery.objects.get(event="result.confirmed")
    assert delivery.status == DeliveryStatus.PENDING  # kept, to be seen (and sent) later

    deliver_webhook.apply(args=(delivery.pk,))  # the webhook fails every time
    battle.refresh_from_db()
    delivery.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED
    assert delivery.status == DeliveryStatus.FAILED


# --------------------------------------------------------------------------- the settings page


@pytest.mark.django_db
def test_the_settings_page_shows_the_latest_deliveries_to_organisers(client, campaign, organiser):
    WebhookDelivery.objects.create(
        campaign=campaign, event="round.opened", payload={"content": "Round 7 is open."}, url="https://x.org/h",
        status=DeliveryStatus.FAILED, attempts=6, last_status_code=502, last_error="HTTP 502",
    )  # fmt: skip
    client.force_login(organiser)

    content = client.get(f"/campaigns/{campaign.pk}/settings/").content.decode()

    assert 'data-testid="webhook-deliveries"' in content
    assert "Round 7 is open." in content
    assert "Failed, given up (HTTP 502)" in content
    assert "HTTP 502" in content
