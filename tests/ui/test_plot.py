"""Plots: the points drawn are the values, the period and rare values are marked."""

import subprocess
import sys
import textwrap

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import grundy as gr  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def _line(ax, prefix):
    lines = [ln for ln in ax.get_lines() if ln.get_label().startswith(prefix)]
    assert len(lines) == 1, [ln.get_label() for ln in ax.get_lines()]
    return lines[0]


def _span(ax, prefix):
    (patch,) = [p for p in ax.patches if p.get_label().startswith(prefix)]
    x = patch.get_path().transformed(patch.get_patch_transform()).vertices[:, 0]
    return x.min(), x.max()


def test_plot_draws_every_value():
    g = gr.TakeAndBreak("0.137")
    ax = g.plot(300)
    line = _line(ax, "G(n)")
    assert np.array_equal(line.get_xdata(), np.arange(300))
    assert np.array_equal(line.get_ydata(), g.values(300))
    assert ax.get_xlabel() == "heap size n" and ax.get_ylabel() == "G(n)"


def test_plot_marks_a_known_period_without_searching_one():
    g = gr.kayles()
    ax = g.plot(200, rare=False)
    assert g.known_periodicity is None  # no search was started
    assert not [ln for ln in ax.get_lines() if ln.get_label().startswith("preperiod")]
    assert not ax.patches
    p = g.periodicity()
    ax = g.plot(200, rare=False)
    pre = _line(ax, "preperiod")
    assert pre.get_label() == f"preperiod {p.preperiod}"
    assert set(pre.get_xdata()) == {p.preperiod}
    lo, hi = _span(ax, "period")
    assert (lo, hi) == (p.preperiod, p.preperiod + p.period)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert f"period {p.period}" in legend


def test_plot_highlights_rare_values():
    g = gr.grundys_game()
    n = 3000
    ax = g.plot(n)
    s = g.sparse_space(n)
    rare = _line(ax, "rare")
    assert np.array_equal(rare.get_xdata(), s.rare_positions)
    assert np.array_equal(rare.get_ydata(), g.values(n)[s.rare_positions])
    # Rare means popcount(G & mask) is even, checked here from the definition.
    v = g.values(n)
    even = np.array([bin(int(x) & s.mask).count("1") % 2 == 0 for x in v])
    if s.parity_dependent:
        even ^= np.arange(n) % 2 == 1
    assert np.array_equal(np.flatnonzero(even), s.rare_positions)


def test_plot_into_an_existing_axes():
    fig, axes = plt.subplots(1, 2)
    g = gr.Subtraction([1, 3, 4])
    out = g.plot(50, ax=axes[1], color="k")
    assert out is axes[1] and not axes[0].get_lines()
    assert _line(out, "G(n)").get_color() == "k"


def test_plot_defaults_to_the_computed_values_and_checks_n():
    g = gr.dawsons_kayles()
    with pytest.raises(ValueError, match="nothing is computed"):
        g.plot()
    g.values(77)
    assert len(_line(g.plot(), "G(n)").get_xdata()) == 77
    with pytest.raises(ValueError):
        g.plot(-1)
    with pytest.raises(TypeError):
        g.plot(2.5)


def test_plot_sparse_positions_and_histogram():
    g = gr.grundys_game()
    n = 2000
    left, right = g.plot_sparse(n)
    s = g.sparse_space(n)
    v = g.values(n)
    common, rare = _line(left, "common"), _line(left, "rare")
    assert np.array_equal(rare.get_xdata(), s.rare_positions)
    assert len(common.get_xdata()) == s.common_count
    assert sorted([*common.get_xdata(), *rare.get_xdata()]) == list(range(n))
    bars = {c.get_label(): [b.get_height() for b in c] for c in right.containers}
    total = np.add(bars["common"], bars["rare"])
    assert np.array_equal(total, np.bincount(v))
    assert sum(bars["rare"]) == s.rare_count


def test_plot_sparse_kinds_and_axes():
    g = gr.kayles()
    fig, (a, b) = plt.subplots(1, 2)
    assert g.plot_sparse(100, ax=(a, b)) == (a, b)
    assert g.plot_sparse(100, kind="histogram", ax=a) is a
    assert g.plot_sparse(100, kind="positions") is not None
    with pytest.raises(ValueError, match="kind"):
        g.plot_sparse(100, kind="pie")
    with pytest.raises(ValueError, match="pair"):
        g.plot_sparse(100, ax=[a])


def test_importing_grundy_does_not_import_matplotlib():
    script = textwrap.dedent(
        """
        import sys, grundy as gr
        g = gr.kayles()
        g.values(10)
        g._repr_html_()
        print("matplotlib" in sys.modules)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_missing_matplotlib_names_the_extra():
    script = textwrap.dedent(
        """
        import sys
        sys.modules["matplotlib"] = None  # as if not installed
        import grundy as gr
        try:
            gr.kayles().plot(10)
        except ImportError as e:
            print(e)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert "grundy[plot]" in out
