from django.urls import path

from armies.views import builder, catalogues, charts, lists, validator

app_name = "armies"

urlpatterns = [
    path("catalogues/", catalogues.catalogue_list, name="catalogues"),
    path("catalogues/import/", catalogues.catalogue_import, name="catalogue_import"),
    path(
        "catalogues/imports/<uuid:import_id>/",
        catalogues.catalogue_import_status,
        name="catalogue_import_status",
    ),
    path("catalogues/<id:pk>/", catalogues.catalogue_detail, name="catalogue"),
    path("catalogues/<id:pk>/platoon-charts/", charts.platoon_charts, name="catalogue_platoon_charts"),
    path(
        "catalogues/<id:pk>/platoon-charts/import/",
        charts.platoon_charts_import,
        name="catalogue_platoon_charts_import",
    ),
    path(
        "catalogues/<id:pk>/platoon-charts/<id:chart_pk>/retire/",
        charts.platoon_chart_retire,
        name="catalogue_platoon_chart_retire",
    ),
    path(
        "catalogues/<id:pk>/platoon-charts.json",
        charts.platoon_charts_export,
        name="catalogue_platoon_charts_export",
    ),
    path("lists/", lists.index, name="lists"),
    path("lists/new/", lists.create, name="list_create"),
    path("lists/import/", lists.import_list, name="list_import"),
    path("lists/<id:pk>/", builder.builder, name="builder"),
    path("lists/<id:pk>/duplicate/", lists.duplicate, name="list_duplicate"),
    path("lists/<id:pk>/delete/", lists.delete, name="list_delete"),
    path("lists/<id:pk>/export.json", lists.export_json, name="list_export_json"),
    path("lists/<id:pk>/export.txt", lists.export_text, name="list_export_text"),
    path("lists/<id:pk>/export.rosz", lists.export_rosz, name="list_export_rosz"),
    path("lists/<id:pk>/print/", lists.print_list, name="list_print"),
    path("lists/<id:pk>/settings/", builder.update_settings, name="builder_settings"),
    path("lists/<id:pk>/units/add/", builder.add_unit, name="builder_add_unit"),
    path("lists/<id:pk>/entries/<key:entry_id>/", builder.update_entry, name="builder_update_entry"),
    path("lists/<id:pk>/entries/<key:entry_id>/remove/", builder.remove_entry, name="builder_remove_entry"),
    path("lists/<id:pk>/platoons/add/", builder.add_platoon, name="builder_add_platoon"),
    path(
        "lists/<id:pk>/platoons/<key:platoon_id>/remove/",
        builder.remove_platoon,
        name="builder_remove_platoon",
    ),
    path("lists/<id:pk>/fortifications/add/", builder.add_fortification, name="builder_add_fortification"),
    path(
        "lists/<id:pk>/fortifications/<key:fortification_id>/remove/",
        builder.remove_fortification,
        name="builder_remove_fortification",
    ),
    path("validator/", validator.validator, name="validator"),
]
