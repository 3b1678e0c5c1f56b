"""The standings' line charts: geometry, late starters, bloc colours and the words for screen readers."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

from django.template.loader import render_to_string

from standings.charts import HEIGHT, LABEL_GAP, LEFT, RIGHT, TOP, WIDTH, LineChart, line_chart, spread_labels
from standings.rows import options, player_rows
from standings.selectors import History, PlayerRow, Series


def test_it_draws_a_line_a_series_across_the_rounds() -> None:
    chart = line_chart(
        History([1, 2, 3], [Series("1", "Anna", [3, 6, 9]), Series("2", "Boris", [None, 0, 3])]),
        title="Points", unit="points",
    )  # fmt: skip
    anna, boris = chart.lines
    assert [p.x for p in anna.points] == [LEFT, round(LEFT + (WIDTH - LEFT - RIGHT) / 2, 2), WIDTH - RIGHT]
    assert anna.points[-1].y == min(p.y for line in chart.lines for p in line.points)  # the highest on top
    assert [p.round_number for p in boris.points] == [2, 3]  # a late player's line starts when they joined
    assert anna.points[0].y < boris.points[0].y  # 3 above 0
    assert chart.table == ((1, (3, None)), (2, (6, 0)), (3, (9, 3)))
    assert chart.summary == "Points, rounds 1 to 3: after round 3, Anna 9, Boris 3 points."


def test_negative_points_stay_inside_the_plot() -> None:
    chart = line_chart(History([1, 2], [Series("1", "Anna", [-4, 2])]), title="Points", unit="points")
    ys = [p.y for p in chart.lines[0].points]
    assert all(TOP <= y <= HEIGHT for y in ys)
    assert chart.y_ticks[0].label.startswith("-")


def test_it_paints_blocs_in_the_colours_it_is_given() -> None:
    colours = {"Axis": "#111111", "SSU": "#222222"}
    chart = line_chart(
        History([1], [Series("Axis", "Axis", [4]), Series("SSU", "SSU", [2])]), title="Sectors", unit="sectors",
        colour=lambda _i, key: colours[key],
    )  # fmt: skip
    assert [line.colour for line in chart.lines] == ["#111111", "#222222"]


def test_without_history_it_says_so() -> None:
    chart = line_chart(None, title="Points", unit="points")
    assert chart.empty
    assert chart.summary == "Points: nothing to draw yet."


def _row(pk: int, name: str, rank: int, points: int) -> PlayerRow:
    return PlayerRow(
        enrolment_id=pk, name=name, is_placeholder=False, bloc="Axis", faction="", rank=rank, points=points,
        played=1, won=1, drawn=0, lost=0, forfeited=0, adjustment=0, vp_for=3, vp_against=1, ap_destroyed=10,
        tiebreaks={},
    )  # fmt: skip


def test_player_rows_escape_names_and_mark_shared_ranks() -> None:
    html = player_rows(
        [_row(1, "<b>Ivan</b>", 1, 3), _row(2, "Olga", 1, 3)], "/campaigns/7/standings/players/"
    )
    assert "&lt;b&gt;Ivan&lt;/b&gt;" in html
    assert "<b>Ivan" not in html
    assert '<td data-testid="rank">=1</td>' in html
    assert '<a href="/campaigns/7/standings/players/2/">Olga</a>' in html


def test_options_escape_labels_and_select_the_posted_value() -> None:
    html = options([("", "Choose…"), (4, "A & B"), (5, "C")], "5")
    assert 'value="4">A &amp; B</option>' in html
    assert '<option value="5" selected>C</option>' in html


def test_every_tick_sits_inside_the_plot_whatever_the_values() -> None:
    for values in ([2, 2], [0, 1], [-7, 13], [0, 999], [-3, -1]):
        chart = line_chart(History([1, 2], [Series("1", "Anna", list(values))]), title="P", unit="points")
        assert all(TOP <= tick.position <= chart.baseline for tick in chart.y_ticks), values
        assert all(TOP <= p.y <= chart.baseline for p in chart.lines[0].points), values


def _drawn(chart: LineChart) -> ET.Element:
    return ET.fromstring(  # noqa: S314 - our own template's output
        render_to_string("standings/_line_chart.html", {"chart": chart, "chart_id": "c"}).split("<ul")[0]
    )


TIED = History(
    [1, 2, 3],
    [
        Series("1", "Tom", [3, 6, 9]),
        Series("2", "Greta", [3, 6, 9]),
        Series("3", "Anna", [3, 6, 9]),
        Series("4", "Boris", [0, 3, 9]),
        Series("5", "Lena", [None, None, 0]),
    ],
)


def test_it_keeps_tied_players_apart_with_their_own_markers() -> None:
    chart = line_chart(TIED, title="Points", unit="points", y_title="Campaign points")

    assert len({line.shape for line in chart.lines}) == len(chart.lines)
    last_points = [(line.points[-1].x, line.points[-1].y) for line in chart.lines]
    assert len(set(last_points)) == len(last_points)  # four players on 9 points, none drawn on another
    tom, greta, anna = chart.lines[:3]
    assert tom.points[0].y < greta.points[0].y < anna.points[0].y  # nudged a little, in their order
    # ... but never as far as the next value: a tie stays nearer its value than to any other.
    step = (chart.baseline - chart.top) / 12
    assert all(abs(line.points[0].y - tom.points[0].y) < step / 2 for line in (greta, anna))


def test_it_names_every_line_at_its_end_and_titles_both_axes() -> None:
    root = _drawn(line_chart(TIED, title="Points", unit="points", y_title="Campaign points"))

    labels = [e for e in root.iter("text") if e.get("class") == "end-label"]
    assert [e.text for e in labels] == ["Tom 9", "Greta 9", "Anna 9", "Boris 9", "Lena 0"]
    ys = [float(e.get("y", "")) for e in labels]
    assert len(set(ys)) == len(ys)
    assert min(b - a for a, b in itertools.pairwise(sorted(ys))) >= LABEL_GAP
    titles = {e.get("data-axis"): e.text for e in root.iter("text") if e.get("class") == "axis-title"}
    assert titles == {"x": "Round", "y": "Campaign points"}


def test_it_grows_to_give_thirty_tied_players_a_label_each() -> None:
    many = History([1], [Series(str(n), f"Player {n}", [4]) for n in range(30)])
    chart = line_chart(many, title="Points", unit="points")

    ys = sorted(line.label_y for line in chart.lines)
    assert min(b - a for a, b in itertools.pairwise(ys)) >= LABEL_GAP
    assert chart.top <= ys[0]
    assert ys[-1] <= chart.baseline
    assert chart.height > HEIGHT
    assert chart.y_title == "Points"


def test_labels_spread_apart_stay_within_the_plot_and_near_their_lines() -> None:
    assert spread_labels([50.0, 50.0, 50.0], top=10, bottom=200, gap=10) == [50.0, 60.0, 70.0]
    assert spread_labels([200.0, 200.0], top=10, bottom=200, gap=10) == [190.0, 200.0]
    assert spread_labels([120.0, 20.0], top=10, bottom=200, gap=10) == [120.0, 20.0]
