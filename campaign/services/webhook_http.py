"""The webhook's HTTP post, made to the one address that was checked (no DNS rebinding).

``campaign.services.webhooks`` resolves the host once and checks every address of the answer; the post then
connects to the first of them instead of letting ``urllib`` ask DNS again, when a hostile name server
could answer with an address inside the site's network. The request still names the host (its ``Host``
header, and for https the server name sent and the certificate checked), so virtual hosts and TLS work as
with a plain ``urlopen``. Redirects are never followed: a redirect could lead inside the network too.
"""

from __future__ import annotations

import http.client
import json
import socket
import urllib.error
import urllib.request
from functools import partial
from typing import Any


def _connect(address: str, destination: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
    """``socket.create_connection`` to ``address`` on the destination's port, whatever host it names."""
    return socket.create_connection((address, destination[1]), *args, **kwargs)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, *args: Any, address: str, **kwargs: Any) -> None:
        super().__init__(host, *args, **kwargs)
        self._create_connection = partial(_connect, address)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, *args: Any, address: str, **kwargs: Any) -> None:
        super().__init__(host, *args, **kwargs)
        self._create_connection = partial(_connect, address)


class _PinnedHTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(partial(_PinnedHTTPConnection, address=self.address), req)


class _PinnedHTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(partial(_PinnedHTTPSConnection, address=self.address), req)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect could lead the post inside the site's network: it counts as a refusal instead."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def post_json(
    url: str, payload: dict[str, Any], *, address: str, timeout: float, headers: dict[str, str]
) -> int:
    """POST ``payload`` as JSON to ``url``, connecting to ``address``; the HTTP status (an ``OSError`` for a
    network error or a timeout)."""
    opener = urllib.request.build_opener(
        _NoRedirects, _PinnedHTTPHandler(address), _PinnedHTTPSHandler(address)
    )
    body = json.dumps(payload, ensure_ascii=False).encode()
    request = urllib.request.Request(  # noqa: S310 (the scheme is checked: http or https only)
        url, data=body, method="POST", headers={"Content-Type": "application/json", **headers}
    )
    try:
        with opener.open(request, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
