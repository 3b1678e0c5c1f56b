"""Uploads over their route's bound are refused before they reach the disk (core/uploads.py).

Each body is streamed by a spy that counts what was read of it and, at every read, how many
bytes the temporary folder holds: a refusal must read nothing past the bound and leave the
folder as it was, not delete a whole file once it was written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from armies.validation import limits
from core.uploads import MULTIPART_SLACK
from exchange.limits import MAX_FILE_BYTES
from exchange.models import CampaignImport

BOUNDARY = "spyboundary"
# What the spy serves at most: past every bound but the export's, and far past the memory bound.
SERVED_AT_MOST = 8 * 1024 * 1024


class SpyBody:
    """A multipart body of one file of ``size`` bytes, made as it is read."""

    def __init__(
        self, folder: Path, size: int, field: str = "file", served_at_most: int = SERVED_AT_MOST
    ) -> None:
        head = (
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{field}"; filename="big.json"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        self.tail = f"\r\n--{BOUNDARY}--\r\n".encode()
        self.head = head
        self.size = size
        self.length = len(head) + size + len(self.tail)
        self.folder = folder
        self.served_at_most = served_at_most
        self.read_bytes = 0
        self.most_on_disk = 0

    def _on_disk(self) -> int:
        return sum(p.stat().st_size for p in self.folder.rglob("*") if p.is_file())

    def read(self, size: int = -1) -> bytes:
        self.most_on_disk = max(self.most_on_disk, self._on_disk())
        left = min(self.length, self.served_at_most) - self.read_bytes
        size = left if size is None or size < 0 else min(size, left)
        out = bytearray()
        while len(out) < size:
            at = self.read_bytes + len(out)
            if at < len(self.head):
                out += self.head[at : at + size - len(out)]
            elif at < len(self.head) + self.size:
                out += b" " * min(size - len(out), len(self.head) + self.size - at)
            else:
                start = at - len(self.head) - self.size
                out += self.tail[start : start + size - len(out)]
        self.read_bytes += len(out)
        return bytes(out)

    def readline(self, size: int = -1) -> bytes:
        return self.read(size)


@pytest.fixture
def temp_folder(settings: Any, tmp_path: Path) -> Path:
    folder = tmp_path / "uploads"
    folder.mkdir()
    settings.FILE_UPLOAD_TEMP_DIR = str(folder)
    return folder


def _signed_in(user: Any, *, csrf: bool = False) -> Client:
    # With its CSRF check on, an API call signed in by its session has its form body read by the check.
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def _post(client: Client, url: str, spy: SpyBody, **extra: Any) -> Any:
    meta: dict[str, Any] = {"CONTENT_TYPE": f"multipart/form-data; boundary={BOUNDARY}", "wsgi.input": spy}
    meta.setdefault("CONTENT_LENGTH", str(spy.length))
    meta.update(extra)
    return client.generic("POST", url, b"", **meta)


# (route, who, the file's bound on that route); the API's list routes read JSON, their bound is the default.
ROUTES = [
    ("armies:validator", None, limits.MAX_ROSTER_BYTES),
    ("armies:list_import", "player", limits.MAX_ROSTER_BYTES),
    ("exchange:import", "player", MAX_FILE_BYTES),
    ("api:army-list-validate", "player-csrf", None),
    ("api:army-list-import", "player-csrf", None),
    ("api:campaign-imports", "player-csrf", MAX_FILE_BYTES),
]


def _client(who: str | None, player: Any) -> Client:
    if who is None:
        return Client()
    return _signed_in(player, csrf=who.endswith("csrf"))


@pytest.mark.parametrize(("route", "who", "bound"), ROUTES)
def test_it_refuses_an_upload_over_the_bound_by_its_declared_length_unread(
    route: str, who: str | None, bound: int | None, player: Any, temp_folder: Path, settings: Any
) -> None:
    file_bound = bound or settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    spy = SpyBody(temp_folder, file_bound + 4 * 1024 * 1024)

    response = _post(_client(who, player), reverse(route), spy)

    assert response.status_code == 413
    assert spy.read_bytes == 0
    assert spy.most_on_disk == 0
    assert list(temp_folder.iterdir()) == []
    words = (
        f"{file_bound // (1024 * 1024):,} MB"
        if file_bound >= 10 * 1024 * 1024
        else f"{file_bound // 1024:,} kB"
    )
    if route.startswith("api:"):
        body = response.json()
        assert body["code"] == "too-large"
        assert words in body["detail"]
    else:
        assert words in response.content.decode()
        assert "so it was not read" in response.content.decode()
    assert not CampaignImport.objects.exists()


@pytest.mark.parametrize("route", ["armies:validator", "armies:list_import"])
def test_it_stops_a_file_at_its_bound_as_it_streams(
    route: str, player: Any, temp_folder: Path, settings: Any
) -> None:
    # Every file to the temporary folder, so that what the handlers store is seen on disk.
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 0
    spy = SpyBody(
        temp_folder, limits.MAX_ROSTER_BYTES + 512 * 1024
    )  # within the body's bound, not the file's
    assert spy.length < limits.MAX_ROSTER_BYTES + 4 * limits.MAX_DOCUMENT_BYTES + MULTIPART_SLACK

    response = _post(_client("player" if route.endswith("import") else None, player), reverse(route), spy)

    assert response.status_code == 200
    assert "The file is larger than 1,024 kB" in response.content.decode()
    assert spy.read_bytes == spy.length  # the rest was read and dropped
    assert spy.most_on_disk <= limits.MAX_ROSTER_BYTES + 1
    assert list(temp_folder.iterdir()) == []


def test_a_declared_length_of_thousands_of_digits_is_refused_as_too_large_unread(
    player: Any, temp_folder: Path
) -> None:
    spy = SpyBody(temp_folder, 1024)

    response = _post(_signed_in(player), reverse("armies:list_import"), spy, CONTENT_LENGTH="9" * 5000)

    assert response.status_code == 413
    assert spy.read_bytes == 0
    assert "so it was not read" in response.content.decode()


@pytest.mark.parametrize(("route", "who", "bound"), ROUTES)
def test_it_refuses_a_body_sent_in_chunks_without_its_length(
    route: str, who: str | None, bound: int | None, player: Any, temp_folder: Path
) -> None:
    spy = SpyBody(temp_folder, 5 * 1024 * 1024)

    response = _post(
        _client(who, player), reverse(route), spy, CONTENT_LENGTH="", HTTP_TRANSFER_ENCODING="chunked"
    )

    assert response.status_code == 411
    assert spy.read_bytes == 0
    text = response.json()["detail"] if route.startswith("api:") else response.content.decode()
    assert "Send the body with its length" in text


@pytest.mark.parametrize(("route", "who", "bound"), ROUTES)
def test_a_length_declared_short_reads_no_more_than_it_declares(
    route: str, who: str | None, bound: int | None, player: Any, temp_folder: Path
) -> None:
    spy = SpyBody(temp_folder, 5 * 1024 * 1024)

    response = _post(_client(who, player), reverse(route), spy, CONTENT_LENGTH="4096")

    assert response.status_code < 500
    assert spy.read_bytes <= 4096
    assert spy.most_on_disk == 0


def test_a_page_s_htmx_form_is_shown_the_refusal_in_place_of_the_page(temp_folder: Path) -> None:
    spy = SpyBody(temp_folder, limits.MAX_ROSTER_BYTES * 3)

    response = _post(Client(), reverse("armies:validator"), spy, HTTP_HX_REQUEST="true")

    assert response.status_code == 413
    assert (response["HX-Retarget"], response["HX-Reswap"]) == ("body", "innerHTML")
    assert "a list or roster may be at most 1,024 kB" in response.content.decode()
