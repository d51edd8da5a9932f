"""Notebook displays and plain reprs: they show what is known and compute nothing."""

import doctest
import re

import numpy as np

import grundy as gr
import grundy._ui.display
import grundy._ui.plot
import grundy.analysis.periodicity
import grundy.games.heap
import grundy.games.heap.display
import grundy.io


def _cells(html):
    """The numbers in the <td> cells of an HTML fragment, in order."""
    return [int(x) for x in re.findall(r"<td[^>]*>(\d+)</td>", html)]


def test_fresh_game_shows_its_rule_and_computes_nothing():
    g = gr.TakeAndBreak("0.137")
    html = g._repr_html_()
    assert "0.137" in html and "nothing yet" in html and "not searched yet" in html
    assert g.computed == 0 and g.known_periodicity is None
    assert repr(g) == "TakeAndBreak('0.137')"


def test_game_html_shows_values_period_and_sparse_space():
    g = gr.kayles()
    v = g.values(500)
    html = g._repr_html_()
    assert "Kayles" in html and "0.77" in html
    assert f"G(0..499): 500 values, largest {int(v.max())}" in html
    # The first values table: heap sizes 0..29 over G(0..29).
    cells = _cells(html)
    k = grundy._ui.display.HTML_VALUES
    assert cells[:k] == list(range(k)) and cells[k : 2 * k] == v[:k].tolist()
    p = g.periodicity()
    s = g.sparse_space(500)
    html = g._repr_html_()
    assert f"period {p.period} from n = {p.preperiod} (proven)" in html
    assert f"mask {s.mask:#b}" in html and f"{s.rare_count} rare of 500" in html


def test_plain_repr_lists_the_first_values_and_the_period():
    g = gr.Subtraction([1, 2, 4])
    assert repr(g) == "Subtraction([1, 2, 4])"
    v = g.values(40)
    first = " ".join(map(str, v[: grundy._ui.display.REPR_VALUES].tolist()))
    assert repr(g) == f"Subtraction([1, 2, 4])  # 40 values: {first} ..."
    p = g.periodicity()
    assert repr(g).endswith(f"period {p.period} from n = {p.preperiod} (proven)")
    assert str(g) == "Subtraction([1, 2, 4])"


def test_repr_of_unproven_and_missing_periods():
    g = gr.Subtraction.all_but([1])
    p = g.periodicity()
    assert f"period {p.period} from n = {p.preperiod}, saltus {p.saltus} (observed in" in repr(g)
    h = gr.grundys_game()
    h.periodicity(max_n=1024)
    assert repr(h).endswith("no period in the first 1,024 values")


def test_names_are_escaped():
    g = gr.HeapGame(lambda n: [(n - 1,)] if n else [], name="<b>chain</b>")
    g.values(3)
    html = g._repr_html_()
    assert "<b>chain" not in html and "&lt;b&gt;chain&lt;/b&gt;" in html
    assert repr(g).startswith("HeapGame(") and "<b>chain</b>; 3 values: 0 1 0" in repr(g)


def test_periodicity_html():
    p = gr.TakeAndBreak("0.137").periodicity()
    html = p._repr_html_()
    for label, value in [("preperiod", p.preperiod), ("period", p.period), ("saltus", p.saltus)]:
        assert re.search(rf">{label}</th><td[^>]*>{value}<", html)
    assert "proven" in html and "Guy and Smith" in html
    cells = _cells(html.split(">one period<")[1])  # heap sizes, then values
    k = min(p.period, grundy._ui.display.HTML_VALUES)  # 34: cut at 30, with an ellipsis
    assert cells[:k] == list(range(p.preperiod, p.preperiod + k))
    assert cells[k : 2 * k] == p.base[:k].tolist() and "&hellip;" in html
    none = gr.grundys_game().periodicity(max_n=1024)._repr_html_()
    assert "none found in G(0..1023)" in none


def test_sparse_space_html():
    s = gr.grundys_game().sparse_space(2000)
    html = s._repr_html_()
    assert f"{s.mask:#b}" in html
    assert ", ".join(map(str, s.rare_positions[:10].tolist())) in html
    assert f">{s.last_rare}<" in html and f">{s.common_count:,}<" in html


def test_game_graph_html():
    g = gr.GameGraph({"a": ["b", "c"], "b": ["c"], "c": [], "d": ["c"]})
    html = g._repr_html_()
    assert ">4<" in html and ">4<" in html and "not computed yet" in html and "&#x27;a&#x27;" in html
    v = g.values()
    html = g._repr_html_()
    assert f"largest {int(v.max())}; {int(np.count_nonzero(v == 0))} P-positions" in html
    ints = gr.GameGraph([(1, 0), (2, 1), (2, 0)])
    ints.values()
    assert _cells(ints._repr_html_())[-6:] == [0, 1, 2, *ints.values().tolist()]


def test_value_table_text_and_html():
    g = gr.kayles()
    p = g.periodicity()
    t = g.table(150)
    assert t.width == p.period
    # The text grid reads back as the values, row by row.
    rows = str(t).splitlines()[1:]
    back = [int(x) for row in rows for x in row.split()[1:]]
    assert back == g.values(150).tolist()
    assert [int(r.split()[0]) for r in rows] == list(range(0, 150, p.period))
    html = t._repr_html_()
    assert html.count("background") == 150 - p.preperiod  # the periodic part is shaded
    assert gr.Subtraction([1, 2]).table(10, width=4).width == 4


def test_long_tables_are_cut():
    t = grundy._ui.display.ValueTable(np.arange(10_000) % 7, width=10)
    text = str(t)
    assert len(text.splitlines()) == grundy._ui.display.TABLE_ROWS + 2 and "..." in text
    assert text.splitlines()[-1].split()[0] == "9990"


def test_card_helper():
    html = grundy._ui.display.card("T <1>", [("a", "<i>x</i>"), ("skipped", "")], footer="f")
    assert "T &lt;1&gt;" in html and "<i>x</i>" in html and "skipped" not in html and ">f<" in html


def test_docstring_examples():
    for module in (
        grundy._ui.display,
        grundy.games.heap.game,
        grundy.games.heap.display,
        grundy.io,
        grundy.analysis.periodicity,
        grundy._ui.plot,
    ):
        assert doctest.testmod(module).failed == 0, module.__name__
