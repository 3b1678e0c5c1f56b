"""The standings' line charts: geometry, late starters, bloc colours and the words for screen readers."""

from __future__ import annotations

from standings.charts import HEIGHT, LEFT, RIGHT, TOP, WIDTH, line_chart
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
