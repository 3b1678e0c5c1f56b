"""Usernames get their skeleton (what they look like); e-mails become unique whatever their case.

Existing data may already break both rules: sign-up refused a taken e-mail only in
its own case-insensitive check, while the profile page, PATCH /api/accounts/me/ and
the admin accepted any; and any two usernames that look alike were accepted. So,
before 0004 adds the unique constraints, this migration:

- gives every user the skeleton of their username (``accounts.usernames``). Where
  older accounts already look alike, every name is kept: the oldest account (by
  date joined, then id) holds the skeleton and each later one gets it followed by
  ``#<id>``, which no new name can have. A new name that looks like any of them is
  still refused, since it looks like the oldest.
- keeps an e-mail on the oldest account that has it (any case) and clears it on
  the later ones, which can no longer reset their password by mail until their
  owner enters an address of their own on the profile page.

Each kept look-alike and each cleared e-mail is printed by username, so the operator
can tell the people concerned. Reversing this migration drops the skeletons and
does not put cleared e-mails back.
"""

import sys

from django.db import migrations, models

from accounts.usernames import SKELETON_MAX_LENGTH, username_skeleton


def _report(line):
    sys.stdout.write(f"\n  accounts 0003: {line}")


def fill_skeletons(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    holders = {}
    for user in User.objects.order_by("date_joined", "id").only("id", "username"):
        skeleton = username_skeleton(user.username)
        if skeleton in holders:
            suffix = f"#{user.pk}"
            _report(f"{user.username!r} looks like the older {holders[skeleton]!r}; both kept")
            skeleton = skeleton[: SKELETON_MAX_LENGTH - len(suffix)] + suffix
        else:
            holders[skeleton] = user.username
        User.objects.filter(pk=user.pk).update(username_skeleton=skeleton)


def clear_repeated_emails(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    owners = {}
    for user in User.objects.exclude(email="").order_by("date_joined", "id").only("id", "username", "email"):
        key = user.email.lower()
        if key in owners:
            _report(f"e-mail {user.email!r} cleared on {user.username!r}; {owners[key]!r} keeps it")
            User.objects.filter(pk=user.pk).update(email="")
        else:
            owners[key] = user.username


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_notifications"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(editable=False, max_length=SKELETON_MAX_LENGTH, null=True),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop, elidable=False),
        migrations.RunPython(clear_repeated_emails, migrations.RunPython.noop, elidable=False),
    ]
