"""Time the pairing engine: a round of about 500 players in three blocs after 10 earlier rounds.

Run from the repository root:  .venv/bin/python scripts/bench_pairing.py [seeds]
For each seed it builds a campaign (170 Allies, 165 Axis and 165 SSU players;
then 171/165/165, whose odd count forces a bye and makes bye fairness bite)
with a history of 10 rounds played by the engine itself, so byes, roles and
past opponents are what a real campaign would have, and fronts of 6 sectors per
pair of blocs; then it times ``generate_pairing`` for the eleventh round. Prints
the median and 95th percentile over the seeds; the target is under 1 s.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

TARGET_S = 1.0
SHAPES = ((170, 165, 165), (171, 165, 165))
EARLIER_ROUNDS = 10
SECTORS_PER_FRONT = 6


def build_campaign(p: Any, blocs: list[Any], sizes: tuple[int, ...], seed: int) -> tuple[Any, Any, Any]:
    players = [p.Player(10_000 * (i + 1) + n, bloc) for i, bloc in enumerate(blocs) for n in range(sizes[i])]
    fronts = {
        (att, dfn): [f"{att}-{dfn}-{k}" for k in range(SECTORS_PER_FRONT)]
        for att in blocs
        for dfn in blocs
        if att != dfn
    }
    history: list[Any] = []
    for number in range(EARLIER_ROUNDS):
        pairing = p.generate_pairing(players, history, fronts, seed=seed * 1000 + number)
        history.append(p.PastRound(tuple(b.player_ids for b in pairing.battles), pairing.bye_ids))
    return players, history, fronts


def main(seeds: int) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import campaign.engine.pairing as p
    from armies.blocs import Bloc

    worst_p95 = 0.0
    for sizes in SHAPES:
        samples = []
        for seed in range(seeds):
            players, history, fronts = build_campaign(p, list(Bloc), sizes, seed)
            start = time.perf_counter()
            pairing = p.generate_pairing(players, history, fronts, seed=seed)
            samples.append(time.perf_counter() - start)
            repeats = sum(1 for b in pairing.battles if b.explanations[0].code == "repeat")
            assert repeats == 0, "a round this size never needs a repeat"
        median = statistics.median(samples)
        p95 = statistics.quantiles(samples, n=20, method="inclusive")[-1]
        worst_p95 = max(worst_p95, p95)
        shape = "/".join(map(str, sizes))
        print(
            f"pair {sum(sizes)} players ({shape}) after {EARLIER_ROUNDS} rounds, x{seeds} seeds: "
            f"{len(pairing.battles)} battles, {len(pairing.byes)} byes; "
            f"median {median * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms (target < {TARGET_S:.0f} s)"
        )
    return 0 if worst_p95 < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
