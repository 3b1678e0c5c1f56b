"""The worker reads an upload a piece at a time and a row at a time, within the bounds of exchange/limits.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.base import ContentFile

from exchange.checks import ImportRefusedError
from exchange.jobs import import_run, import_start
from exchange.models import CampaignImport, ImportStatus
from exchange.reading import document_from_bytes
from tests.factories import UserFactory


def _refused(body: bytes) -> list[tuple[str, str, str]]:
    with pytest.raises(ImportRefusedError) as caught:
        document_from_bytes(body)
    return [(p.field, p.code, p.message) for p in caught.value.problems]


@pytest.mark.django_db
@pytest.mark.parametrize("chunk", [7, 1024 * 1024])
def test_it_reads_an_export_as_a_whole_file_parse_does(
    good: dict[str, Any], chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cut into pieces of any size (inside a key, a text, an emoji, a number), the document is the same."""
    monkeypatch.setattr("exchange.reading._CHUNK_BYTES", chunk)
    good["campaign"]["description"] = "Zverograd 🎲 осада, naïve"
    good["log"][0]["before"] = {"nested": [1.5, -2, None, True, "ü" * 50, {"deep": [[]]}]}
    for body in (json.dumps(good).encode(), json.dumps(good, indent=2, ensure_ascii=False).encode()):
        assert document_from_bytes(b"\xef\xbb\xbf \n" + body + b"\n") == json.loads(body)


def test_it_keeps_the_keys_rows_repeat_once() -> None:
    document = document_from_bytes(b'{"log": [{"kind": 1, "reason": 2}, {"kind": 3, "reason": 4}]}')
    first, second = document["log"]
    assert [id(key) for key in first] == [id(key) for key in second]


def test_it_refuses_a_key_no_export_has_before_reading_its_value() -> None:
    problems = _refused(b'{"format": "zverograd-campaign", "pad": [' + b"{}," * 1000 + b"this is not JSON")
    assert problems[0][:2] == ("file", "unknown-key")
    assert 'the file holds "pad", which a campaign export does not' in problems[0][2]


def test_it_refuses_a_key_given_twice() -> None:
    assert _refused(b'{"version": 1, "version": 2}')[0][:2] == ("version", "duplicate")


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"log": [1] x', 'expected "," or "}"'),
        (b'{"log": [1]} {}', "more follows"),
        (b'{"log": [1, ]}', "Expecting value (in log[1])"),
        (b'{"log": [NaN]}', "NaN is not JSON"),
        (b'{"log": [' + b"[" * 5000 + b"]" * 5000 + b"]}", "nested too deeply"),
        (b'{"log": ["' + b"x" * 3_000 + b"]}", "Unterminated string"),
    ],
)
def test_it_refuses_what_is_not_json_saying_where(body: bytes, says: str) -> None:
    problems = _refused(body)
    assert problems[0][1] == "not-json"
    assert says in problems[0][2]


def test_it_refuses_text_no_database_can_store_naming_the_row() -> None:
    problems = _refused(b'{"log": [{"reason": "ok"}, {"reason": "a\\u0000b"}]}')
    assert problems[0][:2] == ("log[1]", "not-storable")
    assert _refused(b'{"campaign": {"x": {"\\ud800": 1}}}')[0][:2] == ("campaign", "not-storable")


def test_it_refuses_a_row_longer_than_the_bound_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("exchange.reading.MAX_ROW_CHARACTERS", 100)
    monkeypatch.setattr("exchange.reading._CHUNK_BYTES", 16)
    document_from_bytes(b'{"log": [{"reason": "' + b"x" * 80 + b'"}]}')
    problems = _refused(b'{"log": [{"reason": "x"}, {"reason": "' + b"x" * 200 + b'"}]}')
    assert problems == [
        ("log[1]", "too-large", "log[1] is more than 100 characters of JSON: at most 100 for one row")
    ]


def test_it_refuses_a_file_whose_values_would_take_more_memory_than_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counted row by row as it is read: a text holding an emoji counts four bytes a character."""
    monkeypatch.setattr("exchange.reading.MAX_DOCUMENT_MEMORY", 1024 * 1024)
    row = b'{"reason": "' + b"x" * 100_000 + b'"}'
    document_from_bytes(b'{"log": [' + b",".join([row] * 8) + b"]}")
    emoji = b'{"reason": "' + b"x" * 100_000 + "😀".encode() + b'"}'
    problems = _refused(b'{"log": [' + b",".join([emoji] * 8) + b"]}")
    assert problems[0][:2] == ("file", "too-much-memory")
    assert "more than 1 MB once read (at log[2]): at most 1 MB" in problems[0][2]


@pytest.mark.django_db
def test_the_worker_refuses_a_file_over_the_memory_bound_and_writes_nothing(
    good: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request admits it (size and values); the worker refuses it while reading, and says which bound."""
    good["log"][0]["before"] = ["an army of words"] * 20_000
    user = UserFactory()
    job = import_start(upload=ContentFile(json.dumps(good).encode(), name="big.json"), user=user)
    monkeypatch.setattr("exchange.reading.MAX_DOCUMENT_MEMORY", 1024 * 1024)
    import_run(job_id=str(job.pk))
    job = CampaignImport.objects.get(pk=job.pk)
    assert job.status == ImportStatus.FAILED
    assert job.campaign is None
    assert [p["code"] for p in job.problems] == ["too-much-memory"]
    assert "at most 1 MB" in job.problems[0]["message"]
