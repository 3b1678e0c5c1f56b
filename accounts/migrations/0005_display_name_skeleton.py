"""Display names get their skeleton (what they look like), so that a display name like another member's
name or username is refused (``accounts.services.user_display_name_check``).

Existing names are kept as they are, look-alikes included (no constraint is added: the check refuses
a new one), and each user's skeleton is filled from their display name.
"""

from django.db import migrations, models

import core.validators
from accounts.usernames import name_skeleton


def fill_skeletons(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    changed = []
    for user in User.objects.exclude(display_name="").only("id", "display_name").iterator(chunk_size=2000):
        user.display_skeleton = name_skeleton(user.display_name)
        changed.append(user)
        if len(changed) == 2000:
            User.objects.bulk_update(changed, ["display_skeleton"])
            changed = []
    User.objects.bulk_update(changed, ["display_skeleton"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_unique_skeleton_and_email"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="display_skeleton",
            field=models.CharField(blank=True, db_index=True, editable=False, max_length=450),
        ),
        migrations.AlterField(
            model_name="user",
            name="display_name",
            field=models.CharField(
                blank=True,
                help_text="Shown to other players instead of your username.",
                max_length=60,
                validators=[core.validators.validate_name],
            ),
        ),
        migrations.RunPython(fill_skeletons, migrations.RunPython.noop),
    ]
