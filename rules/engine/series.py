"""Exact truncated probability series, kept as integers over one denominator.

A distribution over counts 0, 1, 2... is the series sum(p_k z^k). The odds code
builds one per die and raises it to the number of dice. Python's Fraction
normalises after every operation, which makes long convolutions slow; here a
series is a tuple of integer numerators sharing one denominator, and the
common factor is divided out once per product, so every value stays exact.

Truncating a product to its first ``size`` terms loses nothing in those terms
(all coefficients are non-negative and only lower terms feed them), so a
truncated result is exact below the cut; what lies beyond is one remainder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice
from math import gcd, lcm
from operator import mul


@dataclass(frozen=True)
class Series:
    nums: tuple[int, ...]
    den: int

    def fractions(self) -> tuple[Fraction, ...]:
        return tuple(Fraction(num, self.den) for num in self.nums)

    def total(self) -> Fraction:
        return Fraction(sum(self.nums), self.den)


ONE = Series((1,), 1)


def from_fractions(values: Sequence[Fraction | int]) -> Series:
    fracs = [Fraction(value) for value in values]
    den = lcm(*(value.denominator for value in fracs)) if fracs else 1
    return normalised([value.numerator * (den // value.denominator) for value in fracs], den)


def normalised(nums: list[int], den: int) -> Series:
    """The series with the numerators' and denominator's common factor divided out."""
    common = gcd(den, *nums)
    if common > 1:
        return Series(tuple(num // common for num in nums), den // common)
    return Series(tuple(nums), den)


def add(a: Series, b: Series) -> Series:
    den = lcm(a.den, b.den)
    fa, fb = den // a.den, den // b.den
    size = max(len(a.nums), len(b.nums))
    nums = [0] * size
    for i, num in enumerate(a.nums):
        nums[i] += num * fa
    for i, num in enumerate(b.nums):
        nums[i] += num * fb
    return normalised(nums, den)


def scale(a: Series, factor: Fraction) -> Series:
    return normalised([num * factor.numerator for num in a.nums], a.den * factor.denominator)


def multiply(a: Series, b: Series, size: int) -> Series:
    """The first ``size`` terms of a * b."""
    length = min(size, len(a.nums) + len(b.nums) - 1)
    nums = [0] * length
    bn = b.nums
    for i, x in enumerate(a.nums[:length]):
        if x:
            for j in range(min(len(bn), length - i)):
                nums[i + j] += x * bn[j]
    return normalised(nums, a.den * b.den)


def power(a: Series, n: int, size: int) -> Series:
    """The first ``size`` terms of a**n, by J. C. P. Miller's recurrence.

    For an integer series A with A[0] != 0, Q = A**n has integer terms with
    m A[0] Q[m] = sum over k >= 1 of ((n + 1) k - m) A[k] Q[m - k]: one pass
    of exact integer sums instead of repeated squaring.
    """
    if n == 0:
        return ONE
    nums = a.nums[:size]
    shift = next((i for i, num in enumerate(nums) if num), None)
    if shift is None:
        return Series((0,), 1)
    if shift * n >= size:
        return Series((0,) * size, 1)
    coeffs = nums[shift:]
    a0 = coeffs[0]
    terms = [a0**n]
    width = len(coeffs) - 1
    # Split the weight ((n + 1) k - m) into two dot products that run in C (map/mul).
    weighted = [(n + 1) * k * coeff for k, coeff in enumerate(coeffs)]
    for m in range(1, size - shift * n):
        top = min(m, width)
        first = sum(map(mul, weighted[1 : top + 1], islice(reversed(terms), top)))
        second = sum(map(mul, coeffs[1 : top + 1], islice(reversed(terms), top)))
        terms.append((first - m * second) // (m * a0))
    return normalised([0] * (shift * n) + terms, a.den**n)


def inverse_power(a: Series, n: int, size: int) -> Series:
    """The first ``size`` terms of a**-n, for a short series with a non-zero constant term.

    With integer terms A (a0 = A[0]), A**-n has terms r_m / a0**(n + m) where
    r_0 = 1 and m r_m = sum over k >= 1 of ((1 - n) k - m) A[k] a0**(k - 1) r_(m - k):
    integers again (Miller's recurrence for a negative power), one short sum per term.
    """
    coeffs = a.nums
    a0 = coeffs[0]
    if a0 <= 0:
        raise ValueError("the series must start with a positive term")
    width = len(coeffs) - 1
    scaled = [coeff * a0 ** (k - 1) for k, coeff in enumerate(coeffs) if k]  # A[k] a0**(k-1), k >= 1
    terms = [1]
    for m in range(1, size):
        top = min(m, width)
        total = sum(((1 - n) * k - m) * scaled[k - 1] * terms[m - k] for k in range(1, top + 1))
        terms.append(total // m)
    # a**-n = den**n / A**n; bring every term over a0**(n + size - 1).
    last = size - 1
    nums = [term * a0 ** (last - m) * a.den**n for m, term in enumerate(terms)]
    return normalised(nums, a0 ** (n + last))


def expand(a: Series, step: int) -> Series:
    """Spread the terms ``step`` apart (a series in z**step written in z)."""
    if step == 1:
        return a
    nums = [0] * ((len(a.nums) - 1) * step + 1)
    for i, num in enumerate(a.nums):
        nums[i * step] = num
    return Series(tuple(nums), a.den)
