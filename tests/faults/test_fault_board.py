"""SIGINT and SIGKILL during a board game's pruned search (issue 34): the process exits within
``EXIT_WITHIN`` seconds (the search polls for Ctrl-C as it goes), raising KeyboardInterrupt on SIGINT.
"""

from __future__ import annotations

import signal

import pytest
from conftest import signal_target

pytestmark = pytest.mark.slow

# 6 x 7 Cram: minutes of search (issue 34: igsolve does not finish it in 5 minutes), with a small table.
CODE = "g = gr.cram(6, 7, memory=1 << 24, progress=False)\nstarted()\ng.value()\n"


@pytest.mark.parametrize("sig", [pytest.param(signal.SIGINT, id="SIGINT"), pytest.param(signal.SIGKILL, id="SIGKILL")])
def test_board_search(tmp_path, sig):
    out = signal_target(tmp_path, CODE, sig, (0.05, 1.0), f"board-{sig.name}")
    if sig == signal.SIGINT:
        assert "KeyboardInterrupt" in out.log
