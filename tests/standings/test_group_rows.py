"""The blocs' and factions' tables are written in Python (standings/rows.py) into the bytes their template
loop gave: the old loop is rendered beside them here."""

from __future__ import annotations

import pytest
from django.template import engines

from standings.rows import group_rows
from standings.selectors import GroupRow

OLD_LOOP = """
      {% for row in rows %}
        <tr data-testid="{{ kind }}-row" data-key="{{ row.key }}">
          <td>{% ifchanged row.rank %}{{ row.rank }}{% else %}={{ row.rank }}{% endifchanged %}</td>
          <th scope="row">{{ row.key|default:"No faction" }}</th><td>{{ row.players }}</td>
          {% if kind == "blocs" %}<td data-testid="sectors-held">{{ row.sectors_held|default_if_none:"–" }}</td><td>{{ row.resources|default_if_none:"–" }}</td>{% endif %}
          <td>{{ row.points }}</td><td>{{ row.played }}</td><td>{{ row.won }}</td><td>{{ row.drawn }}</td><td>{{ row.lost }}</td>
          <td>{{ row.vp_for }}</td><td>{{ row.vp_against }}</td><td>{{ row.vp_difference }}</td><td>{{ row.ap_destroyed }}</td>
        </tr>
      {% empty %}
        <tr><td colspan="14" class="muted">Nothing yet.</td></tr>
      {% endfor %}
"""  # noqa: E501 - the template's lines as they were


def _row(key: str, rank: int, *, sectors: int | None = 3, resources: int | None = 12) -> GroupRow:
    return GroupRow(
        key=key, rank=rank, players=4, points=-7 + rank, played=9, won=4, drawn=1, lost=4, vp_for=31,
        vp_against=40, ap_destroyed=1250, sectors_held=sectors, resources=resources,
    )  # fmt: skip


ROWS = [
    _row("Allies", 1),
    _row("Axis", 1, sectors=0),  # a shared rank
    _row("SSU", 3, sectors=None, resources=None),
    _row('<b>"Tom" & Jerry\'s</b>', 4),  # escaped
    _row("", 5),  # no faction
]


@pytest.mark.parametrize("kind", ["blocs", "factions"])
@pytest.mark.parametrize("rows", [ROWS, ROWS[:1], []], ids=["five", "one", "none"])
def test_it_draws_a_groups_table_as_its_template_did(kind: str, rows: list[GroupRow]) -> None:
    old = engines["django"].from_string(OLD_LOOP).render({"rows": rows, "kind": kind})
    assert f"\n      {group_rows(rows, kind)}\n" == old
    assert ("=1" in old) == (len(rows) > 1)  # the shared rank is drawn in the cases that have one
