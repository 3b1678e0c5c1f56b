"""Exact distributions of counts summed over every die of an attack.

Every die of a weapon line behaves alike and independently: it becomes a hit
with probability ``first_hit``; a laser or cutting hit then starts a chain in
which each new die adds a hit on [BLOC] (probability f) and the chain stops at
the first miss. Each hit then turns into some amount of the quantity we count
(1 for hits, 1 if saved for saved hits, its damage for damage...), described
by a small "per-hit" distribution h. As generating functions, one die is

    (1 - p) + p * h                              for an ordinary weapon,
    (1 - p) + p * (1 - f) h / (1 - f h)          for a chain weapon,

and the whole line is that raised to the number of dice. Chain weapons have no
largest outcome, so their distributions are cut at a size chosen from the mean
and spread, and the last entry holds everything from there on ("tail"). The
entries before the cut are exact either way, and the expected values are
worked out separately, exactly, so the cut never touches them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, reduce

from rules.engine import series
from rules.engine.dice import DUST_DIE
from rules.engine.plan import FOLLOW_UP_FACES
from rules.engine.series import Series

FOLLOW_UP: Fraction = DUST_DIE.probability(FOLLOW_UP_FACES)
# How many spreads beyond the mean a cut distribution reaches, plus a margin
# for small, skewed cases (a single laser die).
SPREADS = 9
MARGIN = 12
# Finite distributions up to this many entries are computed whole, without a cut.
WHOLE_LIMIT = 400

PerHit = tuple[Fraction, ...]  # P(one hit counts k), k = 0..len-1


@dataclass(frozen=True)
class LineSpec:
    """One weapon line as the distributions see it."""

    dice: int
    first_hit: Fraction
    chain: bool
    per_hit: PerHit


@dataclass(frozen=True)
class Counted:
    """A distribution over 0..len-1; with ``tail`` the last entry is P(value >= len-1)."""

    probabilities: tuple[Fraction, ...]
    tail: bool
    expected: Fraction


def hits_per_die(first_hit: Fraction, chain: bool) -> Fraction:
    """Expected hits from one die: a chain adds f/(1-f) hits per hit it starts."""
    return first_hit / (1 - FOLLOW_UP) if chain else first_hit


def expected(lines: Sequence[LineSpec]) -> Fraction:
    return sum(
        (line.dice * hits_per_die(line.first_hit, line.chain) * _mean(line.per_hit) for line in lines),
        Fraction(0),
    )


def distribution(lines: Sequence[LineSpec]) -> Counted:
    """The exact distribution of the total over every die of ``lines``."""
    mean = expected(_live(lines))
    work = planned(lines)
    if not work.lines:
        return Counted((Fraction(1),), False, mean)
    size = work.size
    product = reduce(
        lambda acc, line: series.multiply(acc, line_series(line, size), size),
        work.lines[1:],
        line_series(work.lines[0], size),
    )
    probs = list(series.expand(product, work.step).fractions())
    if work.tail:
        probs.extend([Fraction(0)] * (size * work.step - len(probs)))
        probs.append(1 - sum(probs, Fraction(0)))
    return Counted(tuple(probs), work.tail, mean)


@dataclass(frozen=True)
class Planned:
    """What ``distribution`` multiplies: the live lines on their common step, to ``size`` entries."""

    lines: list[LineSpec]
    step: int
    size: int
    tail: bool


def planned(lines: Sequence[LineSpec]) -> Planned:
    live = _live(lines)
    if not live:
        return Planned([], 1, 1, False)
    step = _common_step(live)
    if step > 1:
        live = [LineSpec(line.dice, line.first_hit, line.chain, line.per_hit[::step]) for line in live]
    size, tail = _size(live)
    return Planned(live, step, size, tail)


def _live(lines: Sequence[LineSpec]) -> list[LineSpec]:
    """Lines that can count anything: dice that can hit, hits that can count."""
    return [line for line in lines if line.dice and line.first_hit and any(line.per_hit[1:])]


def truncated(line: LineSpec, size: int) -> tuple[tuple[Fraction, ...], Fraction]:
    """P(total = k) for k < size, and P(total >= size), for one line."""
    if not line.dice or not line.first_hit or not any(line.per_hit[1:]):
        return (Fraction(1),) + (Fraction(0),) * (size - 1), Fraction(0)
    probs = list(line_series(line, size).fractions())
    probs.extend([Fraction(0)] * (size - len(probs)))
    return tuple(probs), 1 - sum(probs, Fraction(0))


def clear_series_cache() -> None:
    _line_series.cache_clear()


def line_series(line: LineSpec, size: int) -> Series:
    return _line_series(line.first_hit, line.chain, line.per_hit, line.dice, size)


@lru_cache(maxsize=4096)
def _line_series(first_hit: Fraction, chain: bool, per_hit: PerHit, dice: int, size: int) -> Series:
    """One die's series to the power ``dice``, written as N**dice / M**dice.

    A chain die is N/M with N = (1 - p)(1 - f h) + p (1 - f) h and M = 1 - f h,
    both as short as h, so both powers are cheap; an ordinary die is N alone.
    """
    h = series.from_fractions(per_hit)
    miss = series.from_fractions([1 - first_hit])
    if not chain:
        return series.power(series.add(miss, series.scale(h, first_hit)), dice, size)
    stop = series.add(series.ONE, series.scale(h, -FOLLOW_UP))
    top = series.add(series.multiply(miss, stop, size), series.scale(h, first_hit * (1 - FOLLOW_UP)))
    return series.multiply(series.power(top, dice, size), series.inverse_power(stop, dice, size), size)


def _mean(per_hit: PerHit) -> Fraction:
    return sum((k * p for k, p in enumerate(per_hit)), Fraction(0))


def _common_step(lines: Sequence[LineSpec]) -> int:
    """The largest step every possible value is a multiple of (damage 2 per hit: 2)."""
    support = [k for line in lines for k, p in enumerate(line.per_hit) if k and p]
    return math.gcd(*support)


def _size(lines: Sequence[LineSpec]) -> tuple[int, bool]:
    """How many entries to compute, and whether the last one is a tail."""
    most = (
        0 if any(line.chain for line in lines) else sum(line.dice * (len(line.per_hit) - 1) for line in lines)
    )
    if most and most + 1 <= WHOLE_LIMIT:
        return most + 1, False
    mean = var = 0.0
    for line in lines:
        mu = float(_mean(line.per_hit))
        sigma2 = sum(k * k * float(p) for k, p in enumerate(line.per_hit)) - mu * mu
        p = float(line.first_hit)
        f = float(FOLLOW_UP)
        # Hits per die: Bernoulli(p), or p times a chain whose length is geometric.
        e_n, e_n2 = (p / (1 - f), p * (1 + f) / (1 - f) ** 2) if line.chain else (p, p)
        mean += line.dice * e_n * mu
        var += line.dice * (e_n * sigma2 + (e_n2 - e_n * e_n) * mu * mu)
    size = math.ceil(mean + SPREADS * math.sqrt(var)) + MARGIN
    if most and size >= most + 1:
        return most + 1, False
    return size, True
