"""The digital referee's entry points for the site: one request shape for the API, the page and the command.

A referee request is ``{"attack": <engine attack request>, "ruleset": {...}, "seed": int?}``
(``rules.engine.requests`` documents the attack shape). Bad input raises
``EngineInputError`` naming the field; fields inside the attack are prefixed
``attack.`` so that callers can point at them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import EngineInputError, RuleSet, attack_odds, parse_attack_request, resolve_attack
from rules.engine.requests import MAX_SEED, TOO_LARGE
from rules.engine.ruleset import SWITCHES

_KEYS = frozenset({"attack", "ruleset", "seed"})


def _mapping(data: object, field: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise EngineInputError(field, "must be an object")
    return data


def _in_attack(exc: EngineInputError) -> EngineInputError:
    """The same refusal (code and reason), its field named inside the referee request."""
    return EngineInputError(f"attack.{exc.field}" if exc.field else "attack", exc.reason, exc.code)


def ruleset_from(data: object) -> RuleSet:
    if data is None:
        return RuleSet.rtz()
    try:
        return RuleSet.from_dict(_mapping(data, "ruleset"))
    except EngineInputError as exc:
        field = exc.field if exc.field.startswith("ruleset") else f"ruleset.{exc.field}"
        raise EngineInputError(field, exc.reason, exc.code) from exc


def _parsed(data: object) -> tuple[Any, RuleSet]:
    body = _mapping(data, "request")
    unknown = sorted(str(key) for key in body if key not in _KEYS)
    if unknown:
        raise EngineInputError(unknown[0], "is not a field of a referee request (attack, ruleset, seed)")
    ruleset = ruleset_from(body.get("ruleset"))
    if "attack" not in body:
        raise EngineInputError("attack", "this field is required")
    try:
        request = parse_attack_request(body["attack"], ruleset=ruleset)
    except EngineInputError as exc:
        raise _in_attack(exc) from exc
    return request, ruleset


def seed_from(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise EngineInputError("seed", f"must be a whole number from 0 to {MAX_SEED}")
    if value > MAX_SEED:
        raise EngineInputError("seed", f"at most {MAX_SEED}", code=TOO_LARGE)
    return value


def referee_odds(data: object) -> dict[str, Any]:
    """Exact odds of an attack, as JSON-ready data."""
    request, ruleset = _parsed(data)
    try:
        odds = attack_odds(request=request, ruleset=ruleset)
    except EngineInputError as exc:
        raise _in_attack(exc) from exc
    return {"ruleset": ruleset.to_dict(), **odds.to_dict()}


def referee_resolve(data: object) -> dict[str, Any]:
    """Roll an attack with digital dice; the answer carries the seed and every die, so it can be replayed."""
    request, ruleset = _parsed(data)
    seed = seed_from(_mapping(data, "request").get("seed"))
    try:
        result = resolve_attack(request=request, ruleset=ruleset, seed=seed)
    except EngineInputError as exc:
        raise _in_attack(exc) from exc
    return result.to_dict()


def ruleset_switches() -> list[dict[str, str]]:
    return [{"name": name, "description": description} for name, description in SWITCHES.items()]
