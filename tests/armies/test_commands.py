"""The management commands: import_catalogue and validate_list (exit status on errors)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from armies.models import Catalogue
from armies.services.demo import demo_documents
from tests.conftest import DEMO_CATALOGUE

pytestmark = pytest.mark.django_db


def test_it_imports_a_catalogue_and_reports_counts(capsys):
    call_command("import_catalogue", str(DEMO_CATALOGUE))

    out = capsys.readouterr()
    assert "created" in out.out
    assert "[100%]" in out.err or "stored" in out.err
    assert Catalogue.objects.filter(name="Zverograd Demo").exists()


def test_it_refuses_a_missing_path():
    with pytest.raises(CommandError, match="no such file"):
        call_command("import_catalogue", "/nowhere/at/all.cat")


def _write(tmp_path, document) -> str:
    path = tmp_path / "list.json"
    path.write_text(json.dumps(document))
    return str(path)


def test_it_prints_the_verdict_of_a_legal_list(demo_catalogue, tmp_path, capsys):
    path = _write(tmp_path, demo_documents(demo_catalogue)["anna"][0])

    call_command("validate_list", path)

    assert "Coastal Raiders landing party" in capsys.readouterr().out


def test_it_exits_non_zero_on_a_list_with_errors(demo_catalogue, tmp_path, capsys):
    path = _write(tmp_path, demo_documents(demo_catalogue)["karl"][0])

    with pytest.raises(SystemExit) as exit_info:
        call_command("validate_list", path, "--json")

    assert exit_info.value.code == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["ok"] is False


def test_it_exits_2_on_a_file_that_is_not_a_list(demo_catalogue, tmp_path):
    path = tmp_path / "list.json"
    path.write_text("{not json")

    with pytest.raises(CommandError) as error:
        call_command("validate_list", str(path))

    assert error.value.returncode == 2


def test_it_gives_the_same_verdict_as_the_api(demo_catalogue, tmp_path, capsys, api_client):
    document = demo_documents(demo_catalogue)["karl"][0]
    with pytest.raises(SystemExit):
        call_command("validate_list", _write(tmp_path, document), "--json")
    from_command = json.loads(capsys.readouterr().out)

    from_api = api_client.post("/api/army-lists/validate/", {"list": document}, format="json").json()

    assert from_api["problems"] == from_command["problems"]
    assert from_api["totals"] == from_command["totals"]
