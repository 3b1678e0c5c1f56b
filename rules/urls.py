from django.urls import path

from rules import views

app_name = "rules"

urlpatterns = [
    path("odds/", views.odds, name="odds"),
    path("odds/roll/", views.roll, name="roll"),
]
