from django.urls import path

from rules import api

urlpatterns = [
    path("rules/attacks/resolve/", api.AttackResolveApi.as_view(), name="rules-attack-resolve"),
    path("rules/attacks/odds/", api.AttackOddsApi.as_view(), name="rules-attack-odds"),
    path("rules/switches/", api.RuleSetSwitchesApi.as_view(), name="rules-switches"),
]
