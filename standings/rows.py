"""The parts of the standings page that grow with the campaign, written as HTML in Python.

The template engine takes about 0.1 ms a row of the players table (thirteen
cells, a shared rank, a link) and Django's select widget about 0.2 ms an
option, so for 500 players they alone would spend the page's 100 ms budget.
Here the same markup is written with every text escaped (numbers are ints) in
a small fraction of that: escaped by the standard library's ``html.escape``, which
Django's ``escape`` calls, without the lazy-string wrapper and ``SafeString``
that cost as much again on 1,000 texts a table. The table's head and the rest stay in the templates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

from standings.selectors import GroupRow, PlayerRow

PLACEHOLDER = ' <span class="muted">(placeholder)</span>'


def player_rows(rows: Sequence[PlayerRow], player_base: str | None) -> SafeString:
    """One ``<tr>`` a player; a shared rank is written "=n" on every row that shares it; names link when
    ``player_base``."""
    lines = []
    counts = Counter(row.rank for row in rows)
    for row in rows:
        shared = counts[row.rank] > 1
        name = escape(row.name)
        linked = (
            f'<a href="{escape(player_base)}{int(row.enrolment_id)}/">{name}</a>' if player_base else name
        )
        lines.append(
            f'<tr data-testid="player-row" data-player="{name}">'
            f'<td data-testid="rank">{"=" if shared else ""}{int(row.rank)}</td>'
            f'<th scope="row">{linked}{PLACEHOLDER if row.is_placeholder else ""}</th><td>{escape(row.bloc)}</td>'
            f"<td>{int(row.played)}</td><td>{int(row.won)}</td><td>{int(row.drawn)}</td><td>{int(row.lost)}</td>"
            f'<td data-testid="points"><strong>{int(row.points)}</strong></td>'
            f"<td>{int(row.vp_for)}</td><td>{int(row.vp_against)}</td><td>{int(row.vp_difference)}</td>"
            f"<td>{int(row.ap_destroyed)}</td><td>{f'{int(row.adjustment):+d}' if row.adjustment else '–'}</td></tr>"
        )
    return mark_safe("\n".join(lines))  # noqa: S308 - every text above is escaped, every number an int


def options(choices: Sequence[tuple[int | str, str]], chosen: object) -> SafeString:
    """``<option>`` elements for a select, ``chosen`` (a value as posted, or None) selected."""
    wanted = "" if chosen is None else str(chosen)
    return mark_safe(  # noqa: S308 - values and labels escaped
        "".join(
            f'<option value="{escape(str(value))}"{" selected" if str(value) == wanted else ""}>'
            f"{escape(str(label))}</option>"
            for value, label in choices
        )
    )


def _or_dash(value: int | None) -> str:
    return "–" if value is None else str(int(value))


def group_rows(rows: Sequence[GroupRow], kind: str, names: Mapping[str, str] | None = None) -> SafeString:
    """The blocs' or factions' table body as its template loop wrote it (``kind``: "blocs" or "factions"):
    a rank shared with the row above is written "=n"; ``names``: a faction's name by its key (a bloc's key
    is its name)."""
    names = names or {}
    if not rows:
        return mark_safe('\n        <tr><td colspan="14" class="muted">Nothing yet.</td></tr>\n      ')
    lines = []
    previous: int | None = None
    for row in rows:
        rank = f"{'' if row.rank != previous else '='}{int(row.rank)}"
        previous = row.rank
        blocs = (
            f'<td data-testid="sectors-held">{_or_dash(row.sectors_held)}</td><td>{_or_dash(row.resources)}</td>'
            if kind == "blocs"
            else ""
        )
        lines.append(
            f'\n        <tr data-testid="{escape(kind)}-row" data-key="{escape(row.key)}">'
            f"\n          <td>{rank}</td>"
            f'\n          <th scope="row">{escape(names.get(row.key, row.key) or "No faction")}</th>'
            f"<td>{int(row.players)}</td>"
            f"\n          {blocs}"
            f"\n          <td>{int(row.points)}</td><td>{int(row.played)}</td><td>{int(row.won)}</td>"
            f"<td>{int(row.drawn)}</td><td>{int(row.lost)}</td>"
            f"\n          <td>{int(row.vp_for)}</td><td>{int(row.vp_against)}</td><td>{int(row.vp_difference)}</td>"
            f"<td>{int(row.ap_destroyed)}</td>"
            "\n        </tr>\n      "
        )
    return mark_safe("".join(lines))  # noqa: S308 - every text above is escaped, every number an int
