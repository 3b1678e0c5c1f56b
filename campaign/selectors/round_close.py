"""What closing a round would do, read before it is done: the close page and ``GET .../rounds/{n}/close/``.

Nothing here writes. The income is ``income_preview``: what ``income_pay`` will
pay, counted on the map the hidden results leave once they take effect (a test
holds the preview equal to what the close then pays).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from campaign.live_hooks import LiveBattle, live_battles
from campaign.models import Battle, BattleStatus, Campaign, Challenge, ChallengeStatus, Round
from campaign.options import UnplayedPolicy
from campaign.report_hooks import DisputedBattle, round_disputes
from campaign.services.economy import income_preview


@dataclass(frozen=True)
class BattleLine:
    battle_id: int
    label: str  # "Ada attacks Ivan over North Station"
    sector: str = ""
    outcome: str = ""  # a hidden result: "Ada wins", "a draw"


@dataclass(frozen=True)
class ChallengeLine:
    challenge_id: int
    label: str


@dataclass(frozen=True)
class IncomeLine:
    holder: str
    amount: int
    reason: str


@dataclass(frozen=True)
class ClosePreview:
    round_number: int
    is_open: bool
    settled_as: str  # "forfeited" or "unplayed"
    unreported: list[BattleLine]  # settled as ``settled_as``
    drafts: int  # a drafted pairing never published: discarded
    challenges: list[ChallengeLine]  # expire
    hidden_results: list[BattleLine]  # take effect, in the order they were agreed
    reports_unanswered: list[
        BattleLine
    ]  # reported, not yet agreed nor disputed: the clock or an organiser settles
    income: list[IncomeLine]
    disputes: list[DisputedBattle]  # each must be resolved first
    live: list[LiveBattle] = field(default_factory=list)  # being played at the table: closing asks about them

    @property
    def blocked(self) -> bool:
        return bool(self.disputes)


def _label(battle: Battle) -> str:
    where = f" over {battle.sector.name}" if battle.sector is not None else ""
    return f"{battle.attacker.display_name} attacks {battle.defender.display_name}{where}"


def _sector(battle: Battle) -> str:
    return battle.sector.name if battle.sector is not None else ""


def _outcome(battle: Battle) -> str:
    result = battle.pending_result or {}
    if result.get("draw"):
        return "a draw"
    winner = {"attacker": battle.attacker, "defender": battle.defender}.get(str(result.get("winner") or ""))
    return f"{winner.display_name} wins" if winner is not None else "no winner"


def round_close_preview(*, campaign: Campaign, round: Round) -> ClosePreview:
    """What closing ``round`` would do (a constant number of queries: the battles, the disputes, the
    challenges, and for the income the sectors, the hidden results and, where resources are per player,
    the players)."""
    battles = list(
        Battle.objects.filter(
            round=round, status__in=[BattleStatus.DRAFT, BattleStatus.SCHEDULED, BattleStatus.REPORTED]
        )
        .select_related("attacker__player", "defender__player", "sector")
        .order_by("pending_at", "id")
    )
    disputes = round_disputes(round=round)
    disputed = {line.battle_id for line in disputes}
    challenges = (
        Challenge.objects.filter(round=round, status=ChallengeStatus.OPEN)
        .select_related("challenger__player", "challenged__player", "sector")
        .order_by("created_at", "id")
    )
    reported = [b for b in battles if b.status == BattleStatus.REPORTED]
    live = live_battles(campaign_id=round.campaign_id, round_number=round.number)
    at_the_table = {line.battle_id for line in live}
    return ClosePreview(
        round_number=round.number,
        is_open=round.is_open,
        settled_as="forfeited" if campaign.unplayed_battles == UnplayedPolicy.FORFEIT else "unplayed",
        unreported=[
            BattleLine(b.pk, _label(b))
            for b in battles
            if b.status == BattleStatus.SCHEDULED and b.pk not in at_the_table
        ],
        live=live,
        drafts=sum(1 for b in battles if b.status == BattleStatus.DRAFT),
        challenges=[
            ChallengeLine(
                c.pk,
                f"{c.challenger.display_name} challenges {c.challenged.display_name} over {c.sector.name}",
            )
            for c in challenges
        ],
        hidden_results=[
            BattleLine(b.pk, _label(b), _sector(b), _outcome(b))
            for b in reported
            if b.pending_result is not None
        ],
        reports_unanswered=[
            BattleLine(b.pk, _label(b)) for b in reported if b.pending_result is None and b.pk not in disputed
        ],
        income=[
            IncomeLine(holder.label, amount, reason)
            for holder, amount, reason in income_preview(campaign=campaign, closing=round)
        ],
        disputes=disputes,
    )
