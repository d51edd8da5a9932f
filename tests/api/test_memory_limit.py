"""``GRUNDY_MEMORY_LIMIT``: bytes that cap the memory grundy counts as available; anything else is refused, named."""

import pytest

import grundy as gr

REQUESTS = {
    "board game": lambda: gr.cram(3, 4, memory=1 << 20),
    "heap values": lambda: gr.kayles().values(10**6),
    "two-heap grid": lambda: gr.wythoff().grid(3000, 3000),
}


@pytest.mark.parametrize("text", ["abc", "1G", "-5", "1e9", "12 MB"])
@pytest.mark.parametrize("ask", sorted(REQUESTS))
def test_a_limit_that_is_not_bytes_is_refused_naming_the_variable(monkeypatch, text, ask):
    monkeypatch.setenv("GRUNDY_MEMORY_LIMIT", text)
    with pytest.raises(gr.ArgumentError, match=f'GRUNDY_MEMORY_LIMIT = "{text}" is not a number of bytes'):
        REQUESTS[ask]()


def test_a_limit_under_a_mib_is_shown_in_bytes(monkeypatch):
    monkeypatch.setenv("GRUNDY_MEMORY_LIMIT", "1000")
    with pytest.raises(gr.MemoryLimitError, match=r"needs about \d[\d ]*(bytes|MiB) but only 0 bytes") as e:
        gr.kayles().values(10**6)
    assert e.value.available == 0 and "0 MiB" not in str(e.value)


def test_an_empty_or_unset_limit_is_no_limit(monkeypatch):
    monkeypatch.setenv("GRUNDY_MEMORY_LIMIT", "")
    assert gr.cram(2, 2, memory=1 << 20).value() == 0
    monkeypatch.delenv("GRUNDY_MEMORY_LIMIT")
    assert gr.kayles().values(100).size == 100


def _resident() -> int:
    """The resident set as the core counts it against the limit: Linux's ``VmRSS``, 0 where unknown."""
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
    except OSError:
        return 0


@pytest.mark.parametrize(
    "what",
    [
        # The regions of Cram 5 x 6 for the misère search: 246,348 shapes, about 600 MiB at the peak.
        "board regions",
        # Kayles 20 + 21 + 22 in misère play: the exhaustive search's memo of positions (20 s in all).
        "misere memo",
    ],
)
def test_the_exhaustive_misere_searches_stop_at_the_memory_limit_not_at_their_entry_count(monkeypatch, what):
    # Their limit, max_positions, counts entries, not bytes: the memory is checked as they grow.
    p = gr.cram(5, 6).position() if what == "board regions" else gr.Position(gr.kayles(), [20, 21, 22])
    monkeypatch.setenv("GRUNDY_MEMORY_LIMIT", str(_resident() + (64 << 20)))
    with pytest.raises(gr.MemoryLimitError) as e:
        p.outcome(misere=True, max_positions=10**9)
    assert e.value.available < 64 << 20
