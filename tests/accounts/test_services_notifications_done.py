"""Nobody is told of their own act, and what a notification asked for, once done, marks it read."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from accounts.models import Notification
from accounts.services import notification_open, notifications_done, notify
from tests.factories import NotificationFactory

pytestmark = pytest.mark.django_db


def test_it_leaves_the_actor_out_of_those_it_tells(kind, owner, other):
    rows = notify(users=[owner, other], kind=kind, message="Oleg confirmed the report.", actor=other)

    assert [row.user for row in rows] == [owner]
    assert not Notification.objects.filter(user=other).exists()


@pytest.mark.parametrize("actor", [None, AnonymousUser()], ids=["the-site", "anonymous"])
def test_it_tells_everyone_of_what_no_one_of_them_did(kind, owner, other, actor):
    rows = notify(users=[owner, other], kind=kind, message="The clock confirmed the report.", actor=actor)

    assert {row.user for row in rows} == {owner, other}


def test_it_writes_nothing_when_the_actor_was_the_only_one_to_tell(
    kind, owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as queued:
        rows = notify(users=[owner], kind=kind, message="You reported your battle.", actor=owner)

    assert rows == []
    assert not Notification.objects.exists()
    assert queued == []  # no e-mail either


def test_it_marks_read_the_users_notifications_of_those_kinds_about_that_subject(owner, other):
    asked = NotificationFactory(user=owner, kind="report-waiting", link="/campaigns/1/battles/7/")
    theirs = NotificationFactory(user=other, kind="report-waiting", link="/campaigns/1/battles/7/")
    other_battle = NotificationFactory(user=owner, kind="report-waiting", link="/campaigns/1/battles/8/")
    other_kind = NotificationFactory(user=owner, kind="report-confirmed", link="/campaigns/1/battles/7/")

    done = notifications_done(users=[owner], kinds=["report-waiting"], links=["/campaigns/1/battles/7/"])

    assert done == 1
    unread = set(Notification.objects.filter(read_at__isnull=True))
    assert asked not in unread
    assert {theirs, other_battle, other_kind} <= unread


def test_it_marks_them_for_several_users_kinds_and_links_in_one_update(
    owner, other, django_assert_num_queries
):
    rows = [
        NotificationFactory(user=owner, kind="report-disputed", link="/campaigns/1/battles/7/"),
        NotificationFactory(user=other, kind="report-waiting", link="/campaigns/1/battles/9/"),
    ]

    with django_assert_num_queries(1):  # the UPDATE of the users' unread rows
        done = notifications_done(
            users=[owner, other],
            kinds=["report-waiting", "report-disputed"],
            links=["/campaigns/1/battles/7/", "/campaigns/1/battles/9/"],
        )

    assert done == 2
    assert not Notification.objects.filter(pk__in=[row.pk for row in rows], read_at__isnull=True).exists()


def test_it_keeps_the_time_a_notification_was_first_read(owner):
    row = NotificationFactory(user=owner, kind="report-waiting", link="/campaigns/1/battles/7/")
    notifications_done(users=[owner], kinds=["report-waiting"], links=[row.link])
    row.refresh_from_db()
    first = row.read_at

    again = notifications_done(users=[owner], kinds=["report-waiting"], links=[row.link])

    row.refresh_from_db()
    assert (again, row.read_at) == (0, first)


@pytest.mark.parametrize(
    ("users", "kinds", "links"),
    [([], ["report-waiting"], ["/x/"]), (["owner"], [], ["/x/"]), (["owner"], ["report-waiting"], [])],
    ids=["no-users", "no-kinds", "no-links"],
)
def test_it_asks_nothing_of_the_database_when_nothing_is_named(
    owner, django_assert_num_queries, users, kinds, links
):
    NotificationFactory(user=owner, kind="report-waiting", link="/x/")

    with django_assert_num_queries(0):
        done = notifications_done(users=[owner for _ in users], kinds=kinds, links=links)

    assert done == 0
    assert Notification.objects.filter(read_at__isnull=True).count() == 1


def test_opening_a_notification_reads_it_for_its_owner_only(owner, other):
    row = NotificationFactory(user=owner)

    assert notification_open(user=other, notification_id=row.pk) is None
    row.refresh_from_db()
    assert row.read_at is None

    opened = notification_open(user=owner, notification_id=row.pk)

    row.refresh_from_db()
    assert opened == row
    assert row.read_at is not None


def test_opening_one_again_keeps_when_it_was_read(owner):
    row = NotificationFactory(user=owner)
    notification_open(user=owner, notification_id=row.pk)
    row.refresh_from_db()
    first = row.read_at

    notification_open(user=owner, notification_id=row.pk)

    row.refresh_from_db()
    assert row.read_at == first
