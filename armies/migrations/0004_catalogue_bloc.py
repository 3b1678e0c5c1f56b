from django.db import migrations


class Migration(migrations.Migration):
    """armies.Bloc becomes CatalogueBloc: the bloc vocabulary itself is armies.blocs."""

    dependencies = [
        ("armies", "0003_list_bounds"),
    ]

    operations = [
        migrations.RenameModel(old_name="Bloc", new_name="CatalogueBloc"),
    ]
