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
