from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rules.engine.requests import MAX_COUNT, MAX_ODDS_DICE, MAX_REQUEST_BYTES
from tests.rules.limit_cases import squad_attack
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


def _write(tmp_path, body) -> str:
    path = tmp_path / "attack.json"
    path.write_text(json.dumps(body) if not isinstance(body, str) else body)
    return str(path)


@pytest.mark.parametrize("count", [MAX_COUNT + 1, 1_000_000])
def test_it_refuses_a_bound_broken_naming_the_field_and_the_limit(tmp_path, capsys, count):
    call_command("referee", "odds", _write(tmp_path, squad_attack(count=MAX_COUNT)))
    assert json.loads(capsys.readouterr().out)["p_destroyed"] > 0

    with pytest.raises(CommandError, match=rf"attack\.weapons\[0\]\.count: at most {MAX_COUNT} "):
        call_command("referee", "resolve", _write(tmp_path, squad_attack(count=count)))


def test_it_refuses_exact_odds_too_big_and_says_to_roll(tmp_path, capsys):
    path = _write(tmp_path, squad_attack(count=4, line={"infantry": "40/1"}))

    with pytest.raises(
        CommandError, match=rf"at most {MAX_ODDS_DICE}; roll it with digital dice \(resolve\)"
    ):
        call_command("referee", "odds", path)
    call_command("referee", "resolve", path, "--seed", "1")
    assert json.loads(capsys.readouterr().out)["seed"] == 1


def test_it_reads_a_file_up_to_the_request_limit_and_no_more(tmp_path, capsys):
    body = json.dumps(LASER_ON_TANK)

    call_command("referee", "odds", _write(tmp_path, body.ljust(MAX_REQUEST_BYTES)))
    assert json.loads(capsys.readouterr().out)["p_destroyed"] > 0
    with pytest.raises(CommandError, match=rf"at most {MAX_REQUEST_BYTES} bytes"):
        call_command("referee", "odds", _write(tmp_path, body.ljust(MAX_REQUEST_BYTES + 1)))


def test_it_refuses_json_nested_past_the_decoders_limit(tmp_path):
    with pytest.raises(CommandError, match="cannot read a JSON request"):
        call_command("referee", "odds", _write(tmp_path, "[" * 20_000 + "]" * 20_000))
