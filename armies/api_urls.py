from django.urls import path

from armies import api, api_builder, api_charts

urlpatterns = [
    path("catalogues/", api.CatalogueListApi.as_view(), name="catalogues"),
    path("catalogues/<id:catalogue_id>/units/", api.CatalogueUnitsApi.as_view(), name="catalogue-units"),
    path(
        "catalogues/<id:catalogue_id>/platoon-charts/",
        api_charts.PlatoonChartsApi.as_view(),
        name="catalogue-platoon-charts",
    ),
    path(
        "catalogues/<id:catalogue_id>/platoon-charts/<str:key>/retire/",
        api_charts.PlatoonChartRetireApi.as_view(),
        name="catalogue-platoon-chart-retire",
    ),
    path(
        "catalogues/<id:catalogue_id>/platoon-charts/export/",
        api_charts.PlatoonChartsExportApi.as_view(),
        name="catalogue-platoon-charts-export",
    ),
    path(
        "catalogues/<id:catalogue_id>/platoon-charts/import/",
        api_charts.PlatoonChartsImportApi.as_view(),
        name="catalogue-platoon-charts-import",
    ),
    path("catalogue-imports/", api.CatalogueImportStartApi.as_view(), name="catalogue-import-start"),
    path(
        "catalogue-imports/<uuid:import_id>/", api.CatalogueImportStatusApi.as_view(), name="catalogue-import"
    ),
    path("army-lists/", api.ArmyListCollectionApi.as_view(), name="army-lists"),
    path("army-lists/import/", api.ArmyListImportApi.as_view(), name="army-list-import"),
    path("army-lists/validate/", api.ValidateListApi.as_view(), name="army-list-validate"),
    path("army-lists/<id:pk>/", api.ArmyListDetailApi.as_view(), name="army-list"),
    path("army-lists/<id:pk>/duplicate/", api.ArmyListDuplicateApi.as_view(), name="army-list-duplicate"),
    path("army-lists/<id:pk>/verdict/", api.ArmyListVerdictApi.as_view(), name="army-list-verdict"),
    path("army-lists/<id:pk>/export/", api.ArmyListExportApi.as_view(), name="army-list-export"),
    path(
        "army-lists/<id:pk>/settings/", api_builder.ArmyListSettingsApi.as_view(), name="army-list-settings"
    ),
    path("army-lists/<id:pk>/entries/", api_builder.ArmyListEntriesApi.as_view(), name="army-list-entries"),
    path(
        "army-lists/<id:pk>/entries/<key:entry_id>/",
        api_builder.ArmyListEntryApi.as_view(),
        name="army-list-entry",
    ),
    path(
        "army-lists/<id:pk>/platoons/", api_builder.ArmyListPlatoonsApi.as_view(), name="army-list-platoons"
    ),
    path(
        "army-lists/<id:pk>/platoons/<key:platoon_id>/",
        api_builder.ArmyListPlatoonApi.as_view(),
        name="army-list-platoon",
    ),
    path(
        "army-lists/<id:pk>/fortifications/",
        api_builder.ArmyListFortificationsApi.as_view(),
        name="army-list-fortifications",
    ),
    path(
        "army-lists/<id:pk>/fortifications/<key:fortification_id>/",
        api_builder.ArmyListFortificationApi.as_view(),
        name="army-list-fortification",
    ),
]
