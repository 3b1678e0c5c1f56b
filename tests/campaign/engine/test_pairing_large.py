"""Large rounds: the certified sample gives the full graph's answer on every level but the seed's."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.engine import pairing_matching
from campaign.engine.pairing import PastRound, generate_pairing

from .pairing_builders import EVERY_FRONT, engine_levels, many_players, play_rounds, players, random_history

ROOT = Path(__file__).resolve().parents[3]


@given(
    st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30)),
    st.integers(0, 8),
    st.randoms(use_true_random=False),
    st.integers(0, 2**32),
)
@settings(max_examples=40, deadline=None)
def test_it_reaches_the_full_graphs_levels_on_the_sample(
    sizes: tuple[int, int, int], rounds: int, rng: random.Random, seed: int
) -> None:
    roster = players(*sizes)
    history = random_history(roster, rounds, rng)

    full = generate_pairing(roster, history, EVERY_FRONT, seed=seed, dense_limit=10_000)
    sampled = generate_pairing(roster, history, EVERY_FRONT, seed=seed, dense_limit=0)

    assert engine_levels(sampled, roster, history) == engine_levels(full, roster, history)


def test_it_falls_back_to_the_full_graph_when_a_repeat_is_forced() -> None:
    roster = players(allies=2, axis=2)
    history = [PastRound(((100, 200), (101, 201))), PastRound(((100, 201), (101, 200)))]

    pairing = generate_pairing(roster, history, EVERY_FRONT, seed=0, dense_limit=0)

    assert {frozenset(b.player_ids) for b in pairing.battles} == {
        frozenset((100, 200)),
        frozenset((101, 201)),
    }


@pytest.mark.parametrize("sizes", [(170, 165, 165), (171, 165, 165), (300, 60, 40), (150, 150, 0)])
def test_it_pairs_a_big_round_from_the_sample_alone(
    sizes: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = many_players(*sizes)
    history = random_history(roster, 6, random.Random(7))

    def no_full_graph(*args: object) -> None:
        raise AssertionError("the sample should have been certified")

    monkeypatch.setattr(pairing_matching, "_full_graph", no_full_graph)
    pairing = generate_pairing(roster, history, EVERY_FRONT, seed=3)

    ours = engine_levels(pairing, roster, history)
    assert ours.repeats == 0
    assert len(pairing.battles) == min(len(roster) // 2, len(roster) - max(sizes))


def test_it_gives_the_same_pairing_whatever_the_process_hash_seed() -> None:
    script = (
        "from campaign.engine.pairing import generate_pairing\n"
        "from tests.campaign.engine.pairing_builders import EVERY_FRONT, many_players, play_rounds\n"
        "roster = many_players(160, 150, 141)\n"
        "history = play_rounds(roster, 2)\n"
        "pairing = generate_pairing(roster, history, EVERY_FRONT, seed=5)\n"
        "print(pairing.battles, pairing.byes, pairing.explanations)\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("1", "2")
    }
    assert len(outputs) == 1
    assert "Battle(" in outputs.pop()


def test_it_pairs_a_history_made_by_the_engine_without_repeats() -> None:
    roster = many_players(allies=120, axis=110, ssu=100)

    history = play_rounds(roster, 4)

    met = [frozenset(pair) for past in history for pair in past.battles]
    assert len(met) == len(set(met))
