"""The one progress bar of every long call (the only module that imports tqdm).

Also the checks of the ``progress=`` and ``threads=`` arguments every long call takes.

The core calls a ``progress(done, total)`` callable about every 50 ms while it computes (with the
GIL taken only for that call); :class:`Bar` turns those calls into a tqdm bar (``tqdm.auto``, so a
widget in Jupyter and text on a terminal).
"""

from __future__ import annotations

import time
from typing import Any

from .. import _core
from .._validate import _short, as_count
from ..exceptions import ArgumentError, ArgumentTypeError

#: With ``progress=None`` a bar appears once a call has run this many seconds.
AUTO_DELAY = 1.0
#: A count with no total (tqdm's own layout for one, with the count in full: ``12,345 nodes``).
COUNT_FORMAT = "{desc}: {n:,}{unit} [{elapsed}, {rate_fmt}{postfix}]"

def _check_threads(threads: Any) -> int | None:
    """None (every core, or RAYON_NUM_THREADS) or a thread count, capped at the usable cores.

    The one check of every ``threads=`` argument: 0 and negatives raise ArgumentError, non-integers
    ArgumentTypeError, and any count above :func:`max_threads` (10**6, 2**70) is capped to it, as
    the core caps every pool (more threads than processors only share them).
    """
    if threads is None:
        return None
    k = as_count(threads, "threads")
    if k == 0:
        raise ArgumentError("threads must be at least 1 (or None for every core)")
    return min(k, max_threads())


def max_threads() -> int:
    """The most threads any computation uses: the processors this process may use."""
    return _core.max_threads()


def _check_progress(progress: Any) -> bool | None:
    if progress is None or isinstance(progress, bool):
        return progress
    raise ArgumentTypeError(
        f"progress must be True (always show a bar), False (never) or None (after {AUTO_DELAY:g} s), "
        f"not {_short(progress)}"
    )


class Bar:
    """The one progress bar of every long call, and the only user of tqdm.

    A tqdm bar (``tqdm.auto``: a widget in Jupyter, text elsewhere), fed by the core's
    ``progress(done, total)`` callbacks through :meth:`update`.
    ``mode`` True shows it at once (``open_now``) or from the first update, None once a call has run
    ``AUTO_DELAY`` seconds (so quick calls print nothing, not even tqdm's notebook warnings; a call
    already done opens none), False never. ``scale``: counts in k, M, ... (False for small counts,
    which tqdm would show as 3.00).
    ``total=None`` counts with no end: an exploration, whose states are not all known until it ends.

    >>> bar = Bar(False, "values", " values", total=10)
    >>> bar.update(5); bar.close(10)
    """

    def __init__(
        self,
        mode: bool | None,
        desc: str,
        unit: str,
        total: int | None = None,
        open_now: bool = True,
        scale: bool = True,
    ) -> None:
        self.mode, self.desc, self.unit, self.total, self.scale = mode, desc, unit, total, scale
        self.bar: Any = None
        self.started = time.monotonic()
        if mode is True and open_now:
            self.open()

    def open(self, done: int = 0) -> None:
        """Show the bar now (unless ``mode`` is False), starting at ``done``."""
        if self.mode is False or self.bar is not None:
            return
        from tqdm.auto import tqdm

        # Redrawn at most twice a second: a notebook without ipywidgets keeps every redraw.
        self.bar = tqdm(total=self.total, initial=done, desc=self.desc, unit=self.unit, unit_scale=self.scale,
                        leave=True, mininterval=0.5, bar_format=self._format())

    def _format(self) -> str | None:
        """The bar's layout: tqdm's own, but a count with no total in full.

        Scaled, a search that ends after 3 nodes read "3.00 nodes" (the rate stays scaled).
        """
        return None if self.total is not None else COUNT_FORMAT

    def update(self, done: int, total: int | None = None, note: str | None = None) -> None:
        """``done`` of ``total`` (None: the total as it was), with a ``note`` after the counts."""
        if total is not None and total != self.total:
            self.total = total
            if self.bar is not None:
                self.bar.total = total
                self.bar.bar_format = self._format()
                self.bar.refresh()
        if self.bar is None:
            if self.mode is None:
                late = time.monotonic() - self.started >= AUTO_DELAY
                if not late or (self.total is not None and done >= self.total):
                    return
            self.open(done)
            if self.bar is None:  # mode False
                return
        if note is not None:
            self.bar.set_postfix_str(note, refresh=False)
        if done > self.bar.n:
            self.bar.update(done - self.bar.n)

    def close(self, done: int | None = None) -> None:
        """Close the bar, first bringing it to ``done`` (and its total up to it) when given."""
        if self.bar is None:
            return
        if done is not None and done > self.bar.n:
            if self.bar.total is None or self.bar.total < done:
                self.bar.total = done
            self.bar.update(done - self.bar.n)
        self.bar.close()
        self.bar = None
