"""Bar charts of distributions: bars that add up, labels people can read, an SVG screen readers can use."""

from __future__ import annotations

from math import comb

import pytest
from django.template.loader import render_to_string

from rules.charts import HEIGHT, MAX_BARS, bar_chart, folded, percent


def binomial(n: int, p: float) -> list[float]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def test_the_bars_add_up_to_one_hundred_percent():
    chart = bar_chart(binomial(6, 1 / 2), title="Hits", x_label="hits")

    assert chart.total == pytest.approx(1.0)
    assert [bar.label for bar in chart.bars] == [str(k) for k in range(len(chart.bars))]


def test_a_long_tail_is_folded_into_a_last_bar_that_keeps_the_sum():
    chart = bar_chart(binomial(60, 1 / 3), title="Hits", x_label="hits")

    assert len(chart.bars) <= MAX_BARS
    assert chart.bars[-1].label.endswith("+")
    assert chart.total == pytest.approx(1.0)


def test_negligible_trailing_values_are_not_drawn():
    bars = folded([0.5, 0.4999, 0.0001, 0.0])

    assert bars == [("0", 0.5), ("1+", pytest.approx(0.5))]


def test_a_tail_entry_is_labelled_as_at_least():
    chart = bar_chart([0.2, 0.3, 0.5], title="Hits", x_label="hits", tail_from=2)

    assert [bar.label for bar in chart.bars] == ["0", "1", "2+"]


@pytest.mark.parametrize(
    ("p", "text"),
    [
        (0, "0%"),
        (1, "100%"),
        (0.0004, "<0.1%"),
        (0.042, "4.2%"),
        (0.3149, "31%"),
        (0.9995, ">99.9%"),
        (0.95, "95.0%"),
    ],
)
def test_percentages_read_as_at_the_table(p, text):
    assert percent(p) == text


def test_each_bar_carries_its_value_and_percentage_for_tooltips():
    chart = bar_chart([0.25, 0.75], title="Models removed", x_label="models")

    assert [bar.tooltip for bar in chart.bars] == ["0 models: 25%", "1 model: 75%"]
    assert chart.summary.startswith("Models removed: most likely 1 model (75%)")


def test_the_bars_stand_on_the_axis_inside_the_plot():
    chart = bar_chart(binomial(6, 1 / 2), title="Hits", x_label="hits")

    tallest = max(chart.bars, key=lambda bar: bar.height)
    assert all(bar.y + bar.height == pytest.approx(chart.baseline) for bar in chart.bars)
    assert tallest.y >= chart.top
    assert all(chart.left <= bar.x and bar.x + bar.width <= chart.right for bar in chart.bars)
    assert chart.ticks[0].label == "0%"
    assert chart.ticks[0].y == chart.baseline
    assert chart.ticks[-1].y == chart.top
    assert chart.baseline < HEIGHT


def test_an_empty_distribution_still_draws():
    chart = bar_chart([], title="Hits", x_label="hits")

    assert [bar.label for bar in chart.bars] == ["0"]
    assert chart.total == 1


def test_the_svg_has_a_title_axis_labels_and_a_tooltip_per_bar():
    chart = bar_chart([0.1, 0.6, 0.3], title="Unsaved hits", x_label="unsaved")

    svg = render_to_string("rules/partials/chart.html", {"chart": chart, "chart_id": 7})

    assert 'role="img"' in svg
    assert '<title id="chart-7-title">Unsaved hits</title>' in svg
    assert 'aria-labelledby="chart-7-title chart-7-desc"' in svg
    assert "<title>1 unsaved: 60%</title>" in svg
    assert ">Unsaved</text>" in svg
    assert ">Chance</text>" in svg
    assert svg.count("<rect") == 3
