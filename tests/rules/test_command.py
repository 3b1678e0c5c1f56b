from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.rules.test_api import LASER_ON_TANK


def test_it_prints_exact_odds(tmp_path, capsys):
    path = tmp_path / "attack.json"
    path.write_text(json.dumps(LASER_ON_TANK))

    call_command("referee", "odds", str(path))

    odds = json.loads(capsys.readouterr().out)
    assert 0 < odds["p_destroyed"] < 1


def test_it_resolves_with_a_seed_the_same_way_twice(tmp_path, capsys):
    path = tmp_path / "attack.json"
    path.write_text(json.dumps(LASER_ON_TANK))

    call_command("referee", "resolve", str(path), "--seed", "7")
    first = capsys.readouterr().out
    call_command("referee", "resolve", str(path), "--seed", "7")

    assert capsys.readouterr().out == first
    assert json.loads(first)["seed"] == 7


def test_it_names_the_field_of_bad_input(tmp_path):
    path = tmp_path / "attack.json"
    path.write_text(json.dumps({"attack": {"weapons": [], "target": {"unit_class": "boat"}}}))

    with pytest.raises(CommandError, match=r"attack\."):
        call_command("referee", "odds", str(path))
