"""The standings charts as HTML, drawn once for each stored standings and kept per process.

Drawing both charts (their geometry, and the SVG and tables through the
templates) took about 12 ms of CPU a page, and reading the stored history
they are drawn from (every player's points in every round) another 2 ms,
though they change only when new standings are stored. So the page asks for
them under a key that holds every input they are drawn from: the campaign,
the stored standings' results version and the time they were computed (a
recompute, forced or not, writes a new time), the round asked for, and the
leaders drawn with their names (read afresh with the table, so a renamed
player is a new key). The colours are the blocs' own and the titles fixed.
Only on a miss is the history read and drawn; nothing about the viewer is in
the key, the charts being the same for everyone who may see the standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from campaign.models import Campaign
from campaign.views.common import bloc_colour
from standings.charts import LineChart, line_chart
from standings.kept import Kept
from standings.rows import player_rows
from standings.selectors import History, PlayerRow, StandingsView, histories_for_page

KEPT = 64  # drawings kept per process (a few KB each): every campaign's latest, and rounds asked for
TABLES_KEPT = 24  # players tables kept per process (up to ~150 KB each for 500 players)


@dataclass(frozen=True)
class Figures:
    """Each chart's SVG (its scrolling region and legend) and its table, as the page writes them."""

    points_svg: SafeString
    points_table: SafeString
    sectors_svg: SafeString
    sectors_table: SafeString


_Key = tuple[int, int, datetime, int | None, tuple[tuple[int, str], ...]]
_kept: Kept[Figures] = Kept(KEPT)


def _bloc_colour(_index: int, key: str) -> str:
    return bloc_colour(key)


def _draw(points: History | None, sectors: History | None) -> Figures:
    # The templates escape what they write (rendered here once rather than included in every page).
    def svg(chart: LineChart, chart_id: str) -> SafeString:
        html = render_to_string("standings/_line_chart.html", {"chart": chart, "chart_id": chart_id})
        return mark_safe(html)  # noqa: S308

    def table(chart: LineChart) -> SafeString:
        return mark_safe(render_to_string("standings/_chart_table.html", {"chart": chart}))  # noqa: S308

    points_chart = line_chart(
        points, title="Campaign points of the leaders", unit="points", y_title="Campaign points"
    )
    sectors_chart = line_chart(
        sectors, title="Sectors held per bloc", unit="sectors", colour=_bloc_colour, y_title="Sectors held"
    )
    return Figures(
        svg(points_chart, "points-chart"), table(points_chart),
        svg(sectors_chart, "sectors-chart"), table(sectors_chart),
    )  # fmt: skip


# A 500-player table's rows are ~150 KB: fewer of them kept (a campaign's now and a few rounds asked for).
_rows: Kept[SafeString] = Kept(TABLES_KEPT)


def players_table_rows(view: StandingsView, player_base: str | None) -> SafeString:
    """The players table's rows (standings/rows.py), drawn once for each table and its players' names."""
    if view.stamp is None:
        return player_rows(view.players, player_base)
    key = (view.stamp, player_base)
    return _rows.get(key) or _rows.put(key, player_rows(view.players, player_base))


def standings_figures(
    *, campaign: Campaign, view: StandingsView | None, leaders: Sequence[PlayerRow], round_number: int | None
) -> Figures:
    """Both charts of ``view`` (the table the page read): from the kept drawings when its standings were
    drawn before with these leaders, else read (one query) and drawn."""
    if view is None:  # never computed: nothing stored to key the drawing on (and nothing much to draw)
        series = histories_for_page(campaign=campaign, leaders=leaders, round_number=round_number)
        return _draw(*(series if series is not None else (None, None)))
    key: _Key = (
        campaign.pk, view.info.standings_version, view.info.computed_at, round_number,
        tuple((row.enrolment_id, row.name) for row in leaders),
    )  # fmt: skip
    kept = _kept.get(key)
    if kept is not None:
        return kept
    # Should a recompute land between the page's table and this read, these charts are the newer
    # standings' and are kept under the older key, which no page asks for once the newer table is read.
    series = histories_for_page(campaign=campaign, leaders=leaders, round_number=round_number)
    return _kept.put(key, _draw(*(series if series is not None else (None, None))))
