"""The answers every operation may give whatever its view says, added to the schema where a view left them out.

Schemathesis checks that each answer's status is documented (tests/core/test_api_fuzz.py): the
framework answers some of them for any view, and an operation's own ``extend_schema`` names only its
own refusals. This hook adds, where the operation does not document it already:

- 400 ``invalid`` (or a parse error, or a service's refusal) to an operation with a body or query
  parameters, and to every write (a service refuses what the state forbids);
- 403 ``not_authenticated`` to an operation that needs an account;
- 404 ``not_found`` to an operation with an id in its path, and to a paged list (a page past the last);
- 411, 413 and 415 to an operation with a body (no length, over its bound, not a type it reads);
- 429 to an operation its view throttles;
- what a view names in its ``schema_refusals`` (status to sentence), for refusals that come from outside the
  view's own code (a log-in lock-out of django-axes).
"""

from __future__ import annotations

from typing import Any

ERROR_REF = {"$ref": "#/components/schemas/ErrorOutput"}
ERROR_INLINE = {
    "type": "object",
    "properties": {
        "code": {"type": "string"},
        "detail": {"type": "string"},
        "errors": {"type": "array", "items": {"type": "object"}},
    },
    "required": ["code", "detail", "errors"],
}
BODY_ANSWERS = {
    "411": "length-required: a body sent in chunks without its length is not read.",
    "413": "too-large: the body is over this operation's bound (named in detail).",
    "415": "unsupported_media_type: the body is not a type this operation reads.",
}
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
WRITES = ("put", "post", "delete", "patch")


def _throttled(generator: Any) -> set[tuple[str, str]]:
    found = set()
    for path, _regex, method, callback in generator.endpoints or ():
        view = getattr(callback, "cls", None)
        if view is not None and getattr(view, "throttle_classes", None):
            found.add((path, method.lower()))
    return found


def _declared(generator: Any) -> dict[tuple[str, str], dict[str, str]]:
    found = {}
    for path, _regex, method, callback in generator.endpoints or ():
        view = getattr(callback, "cls", None)
        refusals = getattr(view, "schema_refusals", None)
        if refusals:
            found[(path, method.lower())] = dict(refusals)
    return found


def error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    schemas = result.get("components", {}).get("schemas", {})
    error = {"application/json": {"schema": ERROR_REF if "ErrorOutput" in schemas else ERROR_INLINE}}
    throttled = _throttled(generator)
    declared = _declared(generator)
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if method not in METHODS:
                continue
            answers: dict[str, str] = {}
            add = answers.setdefault
            queried = any(p.get("in") == "query" for p in operation.get("parameters", ()))
            if "requestBody" in operation or queried or method in WRITES:
                add(
                    "400",
                    "invalid, parse_error: the body or the query is refused; errors names each problem.",
                )
            if {} not in operation.get("security", [{}]):
                add("403", "not_authenticated: this operation needs an account.")
            paged = any(
                p.get("in") == "query" and p.get("name") == "page" for p in operation.get("parameters", ())
            )
            if "{" in path or paged:
                add("404", "not_found: nothing at this address (an unknown id, or one you may not see).")
            if "requestBody" in operation:
                for status, text in BODY_ANSWERS.items():
                    add(status, text)
            if (path, method) in throttled:
                add(
                    "429",
                    "throttled: too many requests from this address; Retry-After says when to ask again.",
                )
            for status, text in declared.get((path, method), {}).items():
                add(status, text)
            responses = operation.setdefault("responses", {})
            for status, text in answers.items():
                responses.setdefault(status, {"description": text, "content": error})
    return result
