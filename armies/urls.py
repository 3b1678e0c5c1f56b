from django.urls import path

from armies.views import builder, catalogues, lists, validator

app_name = "armies"

urlpatterns = [
    path("catalogues/", catalogues.catalogue_list, name="catalogues"),
    path("catalogues/import/", catalogues.catalogue_import, name="catalogue_import"),
    path(
        "catalogues/imports/<uuid:import_id>/",
        catalogues.catalogue_import_status,
        name="catalogue_import_status",
    ),
    path("catalogues/<int:pk>/", catalogues.catalogue_detail, name="catalogue"),
    path("lists/", lists.index, name="lists"),
    path("lists/new/", lists.create, name="list_create"),
    path("lists/import/", lists.import_list, name="list_import"),
    path("lists/<int:pk>/", builder.builder, name="builder"),
    path("lists/<int:pk>/duplicate/", lists.duplicate, name="list_duplicate"),
    path("lists/<int:pk>/delete/", lists.delete, name="list_delete"),
    path("lists/<int:pk>/export.json", lists.export_json, name="list_export_json"),
    path("lists/<int:pk>/export.txt", lists.export_text, name="list_export_text"),
    path("lists/<int:pk>/print/", lists.print_list, name="list_print"),
    path("lists/<int:pk>/settings/", builder.update_settings, name="builder_settings"),
    path("lists/<int:pk>/units/add/", builder.add_unit, name="builder_add_unit"),
    path("lists/<int:pk>/entries/<str:entry_id>/", builder.update_entry, name="builder_update_entry"),
    path("lists/<int:pk>/entries/<str:entry_id>/remove/", builder.remove_entry, name="builder_remove_entry"),
    path("lists/<int:pk>/platoons/add/", builder.add_platoon, name="builder_add_platoon"),
    path(
        "lists/<int:pk>/platoons/<str:platoon_id>/remove/",
        builder.remove_platoon,
        name="builder_remove_platoon",
    ),
    path("lists/<int:pk>/fortifications/add/", builder.add_fortification, name="builder_add_fortification"),
    path(
        "lists/<int:pk>/fortifications/<str:fortification_id>/remove/",
        builder.remove_fortification,
        name="builder_remove_fortification",
    ),
    path("validator/", validator.validator, name="validator"),
]
