"""The constraints, in a migration of their own after 0003 filled the data (PostgreSQL alters no table
with the data changes of the same transaction still pending)."""

import django.db.models.functions.text
from django.db import migrations, models

import accounts.models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_username_skeleton_and_unique_email"),
    ]

    operations = [
        migrations.AlterModelManagers(
            name="user",
            managers=[
                ("objects", accounts.models.Users()),
            ],
        ),
        migrations.AlterField(
            model_name="user",
            name="username_skeleton",
            field=models.CharField(editable=False, max_length=450, unique=True),
        ),
        migrations.AddConstraint(
            model_name="user",
            constraint=models.UniqueConstraint(
                django.db.models.functions.text.Lower("email"),
                condition=models.Q(("email", ""), _negated=True),
                name="user_email_unique_any_case",
                violation_error_code="email-taken",
                violation_error_message="An account with this email already exists.",
            ),
        ),
    ]
