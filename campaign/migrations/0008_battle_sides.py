# Each side of a battle records the bloc, faction and mercenary flag it fought as (issue 17, item 2).
#
# Battles made before this migration are filled from their places as they are now: one UPDATE with
# correlated subqueries, the same on SQLite and PostgreSQL, whatever the number of battles. Only then is
# the check that every battle names both sides' blocs added.

from django.db import migrations, models
from django.db.models import OuterRef, Subquery

BLOC_CHOICES = [("Allies", "Allies"), ("Axis", "Axis"), ("SSU", "SSU")]
COLUMNS = ("bloc", "faction", "mercenary")


def record_sides(apps, schema_editor):
    Battle = apps.get_model("campaign", "Battle")
    Enrolment = apps.get_model("campaign", "Enrolment")
    values = {
        f"{side}_{name}": Subquery(Enrolment.objects.filter(pk=OuterRef(f"{side}_id")).values(name)[:1])
        for side in ("attacker", "defender")
        for name in COLUMNS
    }
    Battle.objects.using(schema_editor.connection.alias).update(**values)


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0007_pending_results"),
    ]

    operations = [
        migrations.AddField(
            model_name="battle",
            name="attacker_bloc",
            field=models.CharField(choices=BLOC_CHOICES, default="", max_length=10),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="battle",
            name="defender_bloc",
            field=models.CharField(choices=BLOC_CHOICES, default="", max_length=10),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="battle",
            name="attacker_faction",
            field=models.CharField(blank=True, max_length=128),
        ),
        migrations.AddField(
            model_name="battle",
            name="defender_faction",
            field=models.CharField(blank=True, max_length=128),
        ),
        migrations.AddField(
            model_name="battle",
            name="attacker_mercenary",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="battle",
            name="defender_mercenary",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(record_sides, migrations.RunPython.noop, elidable=False),
        migrations.AddConstraint(
            model_name="battle",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("attacker_bloc__in", ["Allies", "Axis", "SSU"]),
                    ("defender_bloc__in", ["Allies", "Axis", "SSU"]),
                ),
                name="battle-sides-recorded",
            ),
        ),
    ]
