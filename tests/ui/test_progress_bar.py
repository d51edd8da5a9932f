"""The one progress bar (grundy._ui.progress.Bar): when it shows, what it counts, and that every long
call goes through it."""

import pytest

import grundy as gr
from grundy._ui.progress import AUTO_DELAY, Bar

pytest.importorskip("tqdm")


def test_never_shown_with_mode_false():
    bar = Bar(False, "x", " values", total=10)
    bar.started -= 10 * AUTO_DELAY
    bar.update(3)
    bar.open()
    assert bar.bar is None
    bar.close(10)


def test_auto_mode_waits_and_a_finished_call_opens_none():
    bar = Bar(None, "x", " values", total=10)
    bar.update(3)
    assert bar.bar is None  # too early
    bar.started -= 2 * AUTO_DELAY
    bar.update(10)
    assert bar.bar is None  # late, but done: nothing to show
    bar.update(4, 20)
    try:
        assert (bar.bar.n, bar.bar.total) == (4, 20)
    finally:
        bar.close()
    assert bar.bar is None


def test_shown_from_the_first_update_and_totals_follow():
    bar = Bar(True, "x", " values", open_now=False)
    assert bar.bar is None
    bar.update(5, 100)
    shown = bar.bar
    try:
        assert (shown.n, shown.total) == (5, 100)  # starts where the work already is
        bar.update(50, 400, note="half")
        assert (shown.n, shown.total) == (50, 400)
        bar.update(20)  # never backwards
        assert shown.n == 50
    finally:
        bar.close(500)
    assert (shown.n, shown.total) == (500, 500)  # closing at more than the total raises it


def test_a_count_with_no_total_reads_in_full():
    bar = Bar(True, "search", " nodes", open_now=False)
    bar.update(3)
    try:
        assert "search: 3 nodes [" in str(bar.bar)  # scaled, it read "3.00 nodes"
        bar.update(1_234_567)
        assert "1,234,567 nodes" in str(bar.bar)
        assert "nodes/s" in str(bar.bar)
        bar.update(1_300_000, 2_000_000)  # a total known later: tqdm's own x/y layout
        assert "1.30M/2.00M" in str(bar.bar)
    finally:
        bar.close()


@pytest.mark.parametrize(
    "call",
    [
        lambda: gr.TakeAndBreak("0.77").values(300, progress=True),
        lambda: gr.GameGraph([(0, 1), (1, 0)]).generalized_values(progress=True),
        lambda: gr.StateGame(lambda n: range(n), progress=True).value(20),
        lambda: gr.misere_quotient(gr.kayles(), 5, progress=True),
        lambda: gr.survey(["0.7", "0.6"], max_n=64, progress=True),
    ],
    ids=["values", "generalized_values", "StateGame", "misere_quotient", "survey"],
)
def test_every_long_call_shows_the_one_bar(monkeypatch, call):
    opened = []
    real_open = Bar.open

    def open_(self, done=0):
        opened.append(self.desc)
        real_open(self, done)

    monkeypatch.setattr(Bar, "open", open_)
    call()
    assert opened, "no progress bar was opened"
