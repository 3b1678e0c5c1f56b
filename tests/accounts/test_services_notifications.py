"""notify, marking read and the e-mail preferences (the services other apps call)."""

from __future__ import annotations

import pytest
from django.db import transaction

from accounts.models import Notification, NotificationPreference
from accounts.notifications import LINK_MAX_LENGTH, MAX_READ_IDS, MESSAGE_MAX_LENGTH
from accounts.services import (
    notification_preferences_set,
    notification_preferences_update,
    notifications_mark_read,
    notify,
)
from config.celery import app
from core.errors import DomainError
from tests.factories import NotificationFactory, UserFactory

pytestmark = pytest.mark.django_db

EMAIL_TASK = "accounts.tasks.notification_email"


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[object, ...]]]:
    """What reached the broker (after commit), instead of a broker."""
    messages: list[tuple[str, tuple[object, ...]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args: messages.append((name, tuple(args))))
    return messages


def test_it_creates_one_notification_per_user_in_one_insert(kind, django_assert_num_queries):
    users = UserFactory.create_batch(4)

    # 1 the insert of every row, 2 the muted users (no savepoint: the test's transaction is the caller's)
    with django_assert_num_queries(2):
        rows = notify(users=users, kind=kind, message="Round 2 is open.", link="/campaigns/1/")

    assert sorted(row.user_id for row in rows) == sorted(user.pk for user in users)
    assert all(row.pk is not None for row in rows)
    stored = Notification.objects.filter(kind=kind)
    assert stored.count() == 4
    assert {(n.message, n.link, n.read_at, n.emailed_at) for n in stored} == {
        ("Round 2 is open.", "/campaigns/1/", None, None)
    }


def test_it_notifies_a_user_listed_twice_once(kind, owner):
    rows = notify(users=[owner, owner], kind=kind, message="Hello")

    assert len(rows) == 1
    assert Notification.objects.filter(user=owner).count() == 1


def test_it_refuses_a_kind_nobody_registered(owner):
    with pytest.raises(DomainError) as refused:
        notify(users=[owner], kind="no-such-kind", message="Hello")

    assert (refused.value.code, refused.value.field) == ("unknown-notification-kind", "kind")
    assert not Notification.objects.exists()


def test_it_refuses_an_empty_message(kind, owner):
    with pytest.raises(DomainError) as refused:
        notify(users=[owner], kind=kind, message="   ")

    assert refused.value.code == "empty-notification"


@pytest.mark.parametrize(
    "link",
    [
        "https://elsewhere.example/",
        "//elsewhere.example/",
        "/\\elsewhere.example/",
        "javascript:alert(1)",
        "campaigns/1/",
        "/campaigns/1/ and more",
        "/" + "a" * LINK_MAX_LENGTH,
    ],
)
def test_it_refuses_a_link_that_is_not_a_path_on_this_site(kind, owner, link):
    with pytest.raises(DomainError) as refused:
        notify(users=[owner], kind=kind, message="Hello", link=link)

    assert (refused.value.code, refused.value.field) == ("invalid-notification-link", "link")
    assert not Notification.objects.exists()


def test_it_shortens_a_message_past_its_bound(kind, owner):
    (row,) = notify(users=[owner], kind=kind, message="x" * (MESSAGE_MAX_LENGTH + 50))

    row.refresh_from_db()
    assert len(row.message) == MESSAGE_MAX_LENGTH
    assert row.message.endswith("…")


def test_it_queues_an_email_only_for_users_who_want_one(
    kind, owner, other, sent, django_capture_on_commit_callbacks
):
    muted = UserFactory(username="muted")
    notification_preferences_set(user=muted, kind=kind, email=False)
    no_address = UserFactory(username="noaddress", email="")
    gone = UserFactory(username="gone", is_active=False)
    # Turning another kind off changes nothing for this one.
    NotificationPreference.objects.create(user=other, kind="another-kind", email=False)

    with django_capture_on_commit_callbacks(execute=True):
        rows = notify(users=[owner, other, muted, no_address, gone], kind=kind, message="Hello")

    by_user = {row.user_id: row.pk for row in rows}
    assert sorted(sent) == sorted([(EMAIL_TASK, (by_user[owner.pk],)), (EMAIL_TASK, (by_user[other.pk],))])


def test_it_queues_the_emails_only_once_the_transaction_commits(
    kind, owner, other, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        rows = notify(users=[owner, other], kind=kind, message="Hello")
        assert sent == []

    assert len(callbacks) == 2
    assert sent == []
    for callback in callbacks:
        callback()
    assert sorted(args for _name, args in sent) == sorted((row.pk,) for row in rows)


@pytest.mark.django_db(transaction=True)
def test_it_queues_nothing_when_the_callers_transaction_rolls_back(kind, owner, sent):
    def notify_then_fail() -> None:
        with transaction.atomic():
            notify(users=[owner], kind=kind, message="Hello")
            raise RuntimeError("the campaign change failed")

    with pytest.raises(RuntimeError):
        notify_then_fail()

    assert sent == []
    assert not Notification.objects.exists()


def test_it_marks_every_unread_notification_of_the_user_read(owner, other):
    NotificationFactory.create_batch(3, user=owner)
    already = NotificationFactory(user=owner, read_at="2026-01-01T00:00:00Z")
    theirs = NotificationFactory(user=other)

    marked = notifications_mark_read(user=owner)

    assert marked == 3
    assert not Notification.objects.filter(user=owner, read_at__isnull=True).exists()
    already.refresh_from_db()
    assert already.read_at.year == 2026  # a second mark does not move the first reading
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_it_marks_only_the_named_notifications_and_ignores_other_users(owner, other):
    mine = NotificationFactory.create_batch(3, user=owner)
    theirs = NotificationFactory(user=other)

    marked = notifications_mark_read(user=owner, ids=[mine[0].pk, theirs.pk, 10**9])

    assert marked == 1
    assert set(Notification.objects.filter(read_at__isnull=True).values_list("pk", flat=True)) == {
        mine[1].pk,
        mine[2].pk,
        theirs.pk,
    }


def test_it_refuses_too_many_ids_at_once(owner):
    with pytest.raises(DomainError) as refused:
        notifications_mark_read(user=owner, ids=range(1, MAX_READ_IDS + 2))

    assert (refused.value.code, refused.value.field) == ("too-many-ids", "ids")


def test_it_stores_a_preference_and_changes_it(kind, owner):
    notification_preferences_set(user=owner, kind=kind, email=False)
    notification_preferences_set(user=owner, kind=kind, email=True)

    assert list(NotificationPreference.objects.values_list("user_id", "kind", "email")) == [
        (owner.pk, kind, True)
    ]


def test_it_refuses_a_preference_for_an_unknown_kind(owner):
    with pytest.raises(DomainError) as refused:
        notification_preferences_set(user=owner, kind="no-such-kind", email=False)

    assert refused.value.code == "unknown-notification-kind"
    assert not NotificationPreference.objects.exists()


def test_it_sets_several_preferences_or_none(kind, owner):
    with pytest.raises(DomainError) as refused:
        notification_preferences_update(user=owner, choices=[(kind, False), ("no-such-kind", False)])

    assert refused.value.field == "[1].kind"
    assert not NotificationPreference.objects.exists()

    notification_preferences_update(user=owner, choices=[(kind, False)])
    assert NotificationPreference.objects.get(user=owner, kind=kind).email is False
