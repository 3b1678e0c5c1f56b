"""Battle results and what they change: the sector, the fortification there, the resource awards.

The battles app records a confirmed (or amended, or voided) result here, in
the confirmation's transaction. What the results do to the map is never
patched step by step: after every change the sectors are recomputed from a
replay of the campaign's history (``campaign_state_replay``) and only the
differences are written, as sector log entries with the cause "result". So
the map after any sequence of confirmations, amendments and voids is, by
construction, what replaying the confirmed results gives; ``campaign_check``
(and ``manage.py replay_campaign``) compares the two and the ledger too.

The replay: start from the map as loaded; walk the log in order, applying
every sector change an organiser or a purchase made (changes with the cause
"result" are derived, so skipped) and, at the entry that first recorded it,
each battle's result if the battle is still confirmed: an attacker's win
moves the sector to the attacker's bloc (and, where resources are per player,
to the attacker), keeping its fortification, which falls to the winner; a
headquarters never changes hands.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Sum
from django.utils import timezone

from armies.blocs import Bloc
from campaign.engine.map import SectorState, ZverogradMap, apply_change
from campaign.models import (
    Battle,
    BattleStatus,
    Campaign,
    EntryKind,
    LogEntry,
    LogKind,
    ResourceEntry,
    Round,
    RoundStatus,
    Sector,
)
from campaign.options import ResourceHolder
from campaign.selectors import campaign_map, map_state_now, sectors_for_map
from campaign.services.economy import Holder, holder_of_side
from campaign.services.log import log_write
from campaign.services.map import sector_changes_derive
from campaign.services.versions import results_changed
from campaign.services.webhooks import webhook_result

RESULT = "result"
_CONFIRMED = BattleStatus.CONFIRMED


def _bump(campaign: Campaign) -> None:
    results_changed(campaign=campaign)


def _awards(campaign: Campaign, battle: Battle) -> list[tuple[Holder, int]]:
    result = battle.result or {}
    sides = {"attacker": battle.attacker_side, "defender": battle.defender_side}
    if result.get("draw"):
        return [(holder_of_side(campaign, side), campaign.award_draw) for side in sides.values()]
    winner = result.get("winner")
    return [(holder_of_side(campaign, sides[winner]), campaign.award_win)] if winner in sides else []


def result_waits_for_close(battle: Battle, *, locked: Campaign | None = None) -> bool:
    """Whether a result agreed now for ``battle`` waits for its round to close: the campaign hides results
    and the round is open. (A closed round's results are public: one agreed later takes effect at once.)
    ``locked``: the campaign's row as the caller read it under its lock (else it is read here)."""
    # Read now, under the caller's lock, not from objects loaded before it: the round may have just closed.
    if locked is not None:
        hides = locked.hide_results_until_close
    else:
        hidden = Campaign.objects.filter(pk=battle.campaign_id).values_list(
            "hide_results_until_close", flat=True
        )
        hides = bool(hidden.first())
    return hides and Round.objects.filter(pk=battle.round_id, status=RoundStatus.OPEN).exists()


def battle_result_settle(
    *, battle: Battle, result: dict[str, Any], actor: Any, reason: str, locked: Campaign | None = None
) -> Battle:
    """A result is agreed (confirmed, resolved or entered; the caller holds the campaign's lock).

    It takes effect at once, or, where the campaign hides results and the round
    is open, it waits on the battle (which stays "reported") for the round's
    close: then no sector, award, standing, version, log entry or webhook
    changes now, so nothing anyone else sees can give it away. ``locked``: the
    campaign's row the caller read under that lock, used rather than read again.
    """
    if not result_waits_for_close(battle, locked=locked):
        return battle_result_record(battle=battle, result=result, actor=actor, reason=reason, locked=locked)
    battle.pending_result = {**result, "reason": reason}
    battle.pending_at = timezone.now()
    battle.save(update_fields=["pending_result", "pending_at"])
    return battle


def battle_result_unsettle(*, battle: Battle, actor: Any, reason: str, to: BattleStatus) -> Battle:
    """Take an agreed result back (amended or voided): revoked if it took effect, else dropped unseen."""
    if battle.status == _CONFIRMED:
        return battle_result_revoke(battle=battle, actor=actor, reason=reason, to=to)
    battle.pending_result = None
    battle.pending_at = None
    battle.status = to
    battle.save(update_fields=["pending_result", "pending_at", "status"])
    return battle


def round_results_apply(*, round: Round, actor: Any) -> int:
    """At a round's close, the results that waited for it take effect, in the order they were agreed."""
    waiting = (
        Battle.objects.filter(round=round, status=BattleStatus.REPORTED, pending_result__isnull=False)
        .select_related("campaign", "round", "sector", "attacker", "defender")
        .order_by("pending_at", "id")
    )
    applied = 0
    for battle in waiting:
        result = dict(battle.pending_result or {})
        why = str(result.pop("reason", "") or "result agreed")
        battle.pending_result = None
        battle.pending_at = None
        battle.save(update_fields=["pending_result", "pending_at"])
        battle_result_record(
            battle=battle,
            result=result,
            actor=actor,
            reason=f"{why}; took effect as round {round.number} closed",
        )
        applied += 1
    return applied


def battle_result_record(
    *, battle: Battle, result: dict[str, Any], actor: Any, reason: str, locked: Campaign | None = None
) -> Battle:
    """Record ``battle``'s confirmed result and apply what it changes (the caller holds the campaign's lock;
    ``locked``: the row it read under it, else the campaign is read here)."""
    campaign = locked if locked is not None else Campaign.objects.get(pk=battle.campaign_id)
    sides = {"attacker": battle.attacker, "defender": battle.defender}
    battle.result = result
    battle.winner = sides.get(result.get("winner") or "")
    battle.status = _CONFIRMED
    battle.confirmed_at = timezone.now()
    marker = log_write(campaign=campaign, kind=LogKind.RESULT_RECORDED, subject=f"battle:{battle.pk}", actor=actor,
                       after=result, reason=reason)  # fmt: skip
    if battle.result_order is None:
        battle.result_order = marker.pk
    battle.save(update_fields=["result", "winner", "status", "confirmed_at", "result_order"])
    for holder, amount in _awards(campaign, battle):
        if amount:
            ResourceEntry.objects.create(
                campaign=campaign, bloc=holder.bloc if holder.enrolment is None else "", enrolment=holder.enrolment,
                amount=amount, kind=EntryKind.AWARD, reason=f"Award for battle {battle.pk}: {reason}"[:500],
                round_number=battle.round.number, battle=battle,
                actor=actor if getattr(actor, "is_authenticated", False) else None,
            )  # fmt: skip
    _bump(campaign)
    # The battle's sector, where the caller read it with the battle (under the lock), shows what is written.
    shown = battle.sector if Battle.sector.is_cached(battle) else None
    campaign_map_recompute(
        campaign=campaign, actor=actor, reason=f"battle {battle.pk}: {reason}", mirror=shown
    )
    # Posted after the confirmation commits; a webhook that fails cannot take the confirmation back.
    webhook_result(battle=battle, campaign=campaign)
    return battle


def battle_result_revoke(*, battle: Battle, actor: Any, reason: str, to: BattleStatus) -> Battle:
    """Take a confirmed result back (an amendment or a void): awards reversed, the map recomputed."""
    campaign = Campaign.objects.get(pk=battle.campaign_id)
    for entry in ResourceEntry.objects.filter(battle=battle, kind=EntryKind.AWARD, reversed_by__isnull=True):
        ResourceEntry.objects.create(
            campaign=campaign, bloc=entry.bloc, enrolment=entry.enrolment, amount=-entry.amount,
            kind=EntryKind.REVERSAL, reason=f"Battle {battle.pk} result taken back: {reason}"[:500],
            round_number=campaign.current_round, battle=battle, reverses=entry,
            actor=actor if getattr(actor, "is_authenticated", False) else None,
        )  # fmt: skip
    battle.status = to
    battle.result = None
    battle.winner = None
    battle.confirmed_at = None
    battle.save(update_fields=["status", "result", "winner", "confirmed_at"])
    log_write(campaign=campaign, kind=LogKind.RESULT_RECORDED, subject=f"battle:{battle.pk}", actor=actor,
              before="confirmed", after=str(to), reason=reason)  # fmt: skip
    _bump(campaign)
    campaign_map_recompute(campaign=campaign, actor=actor, reason=f"battle {battle.pk}: {reason}")
    return battle


def campaign_state_replay(*, campaign: Campaign, zmap: ZverogradMap | None = None) -> dict[str, SectorState]:
    """The sectors as the campaign's history says they should be (see the module docstring); ``zmap``: the
    campaign's map, when the caller has it."""
    zmap = zmap or campaign_map(campaign=campaign)
    state = zmap.initial_state()
    # Only a confirmed attacker's win over a sector moves it: the others are never read (columns, no rows
    # decoded), and the result markers only for their order (ids), so a confirmation late in a night of
    # results reads no more than it uses.
    wins = {
        order: (key, bloc, attacker)
        for order, key, bloc, attacker in Battle.objects.filter(
            campaign=campaign, status=_CONFIRMED, result_order__isnull=False, sector__isnull=False,
            result__winner="attacker",
        ).order_by().values_list("result_order", "sector__key", "attacker_bloc", "attacker_id")
    }  # fmt: skip
    player_mode = campaign.resources_held_by == ResourceHolder.PLAYER
    entries = LogEntry.objects.filter(campaign=campaign, map_version=campaign.map_version).order_by()
    # The organisers' and purchases' sector changes, whole (the derived ones, "result", are skipped), and
    # the entries recording results as ids: a battle's win applies at the one that first recorded it.
    steps: list[tuple[int, str, str, Any]] = list(
        entries.filter(kind=LogKind.SECTOR_CHANGED)
        .exclude(cause=RESULT)
        .values_list("id", "subject", "field", "after")
    )
    markers = entries.filter(kind=LogKind.RESULT_RECORDED).values_list("id", flat=True)
    steps.extend((pk, "", "", None) for pk in markers if pk in wins)
    for pk, subject, field, after in sorted(steps, key=lambda step: step[0]):
        if pk not in wins:
            key = subject.removeprefix("sector:")
            state[key] = apply_change(state[key], field, None if after == "" else after)
            continue
        key, bloc, attacker = wins[pk]
        if zmap.is_headquarters(key):
            continue
        state[key] = replace(state[key], owner=Bloc(bloc), held_by=attacker if player_mode else None)
    return state


def campaign_map_recompute(
    *, campaign: Campaign, actor: Any, reason: str, mirror: Sector | None = None
) -> int:
    """Write the differences between the sectors and the replay as derived changes; returns how many.

    The caller holds the campaign's lock and passes the row it read under it: every writer of a sector takes
    that lock first, so the sectors read here are written as they are, without reading them or the campaign
    again, and only their columns that change. ``mirror``: the caller's instance of one sector, on which
    the columns written to that sector are set too (an answer shows it as it now is)."""
    zmap = campaign_map(campaign=campaign)
    expected = campaign_state_replay(campaign=campaign, zmap=zmap)
    # What map_state_now reads of each sector and what a change checks (a headquarters), not its name, place
    # and neighbours.
    shown = ("campaign_id", "key", "owner", "fortification", "value", "terrain", "held_by", "headquarters_of")
    sectors = {
        sector.key: sector for sector in Sector.objects.filter(campaign=campaign).order_by().only(*shown)
    }
    current = map_state_now(sectors=list(sectors.values()))
    written = 0
    for key, want in expected.items():
        have = current[key]
        changes: dict[str, Any] = {}
        if have.owner != want.owner:
            changes["owner"] = want.owner.value if want.owner else ""
        if have.held_by != want.held_by:
            changes["held_by"] = want.held_by or ""
        if have.fortification != want.fortification:
            changes["fortification"] = want.fortification.value
        if have.value != want.value:
            changes["value"] = want.value
        if have.terrain != want.terrain:
            changes["terrain"] = want.terrain.value
        if changes:
            sector = sectors[key]
            columns = sector_changes_derive(campaign=campaign, zmap=zmap, sector=sector, changes=changes,
                                            actor=actor, reason=reason, cause=RESULT)  # fmt: skip
            if mirror is not None and mirror.pk == sector.pk:
                for column in columns:
                    setattr(mirror, column, getattr(sector, column))
            written += len(changes)
    return written


@dataclass(frozen=True)
class CheckReport:
    sector_differences: list[str]
    ledger_differences: list[str]

    @property
    def ok(self) -> bool:
        return not self.sector_differences and not self.ledger_differences


def campaign_check(*, campaign: Campaign) -> CheckReport:
    """Compare the campaign's state with a replay of its history: the sectors and the awards paid."""
    expected = campaign_state_replay(campaign=campaign)
    current = map_state_now(sectors=sectors_for_map(campaign=campaign))
    sectors = [f"{key}: is {current[key]}, the history gives {expected[key]}" for key in expected
               if current[key] != expected[key]]  # fmt: skip
    ledger = []
    for battle in Battle.objects.filter(campaign=campaign).select_related("attacker", "defender", "round"):
        paid = ResourceEntry.objects.filter(battle=battle).aggregate(total=Sum("amount"))["total"] or 0
        due = (
            sum(amount for _holder, amount in _awards(campaign, battle)) if battle.status == _CONFIRMED else 0
        )
        if paid != due:
            ledger.append(f"battle {battle.pk}: awards paid {paid}, the confirmed result gives {due}")
    return CheckReport(sectors, ledger)
