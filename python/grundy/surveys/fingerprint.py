"""Fingerprints of a game's values, and which games of a survey are equal, decided from them.

A worker sends back hashes of prefixes of the values it examined (every power of two and the
full length), never the values; the driver compares those to fill ``same_as``.

>>> import numpy as np
>>> fp = fingerprint(np.arange(5, dtype=np.uint64))
>>> [length for length, _ in fp]
[1, 2, 4, 5]
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

#: Games whose fingerprints differ at this prefix length are never compared further.
BUCKET_PREFIX = 1024


def _ladder(n: int) -> list[int]:
    """The prefix lengths a fingerprint hashes: every power of two below n, and n."""
    out, length = [], 1
    while length < n:
        out.append(length)
        length *= 2
    return out + [n]


def fingerprint(values: np.ndarray, lengths: Iterable[int] | None = None) -> list[list[Any]]:
    """Hashes of prefixes of a game's values: ``[[length, hex digest], ...]``.

    The digest of a prefix is BLAKE2b (256 bits) of the values as little-endian 64-bit integers, so
    it does not depend on the array's dtype. By default the prefixes are every power of two below
    ``len(values)`` and the whole array: about 20 digests, whatever the length.

    Parameters
    ----------
    values : numpy.ndarray
        G(0), G(1), ...
    lengths : iterable of int, optional
        Increasing prefix lengths to hash instead (each at most ``len(values)``).

    Returns
    -------
    list of [int, str]

    Examples
    --------
    >>> import grundy as gr
    >>> fp = fingerprint(gr.kayles().values(100))
    >>> [length for length, _ in fp]
    [1, 2, 4, 8, 16, 32, 64, 100]
    >>> fp[-1] == fingerprint(gr.kayles().values(200), [100])[0]
    True
    """
    h = hashlib.blake2b(digest_size=32)
    out: list[list[Any]] = []
    prev = 0
    for length in _ladder(len(values)) if lengths is None else lengths:
        h.update(np.ascontiguousarray(values[prev:length], dtype="<u8").tobytes())
        prev = length
        out.append([length, h.hexdigest()])
    return out


def _compare(a: dict[int, str], b: dict[int, str]) -> tuple[bool | None, int]:
    """Whether two games' values agree over the range both examined.

    True, False, or None when the digest of that whole range is missing for one of them (the length is returned with
    it).
    """
    c = min(max(a), max(b))
    if c == 0:
        return False, c
    p = 1 << (c.bit_length() - 1)  # the largest power of two <= c: both fingerprints hash it
    if a[p] != b[p]:
        return False, c
    if c in a and c in b:
        return a[c] == b[c], c
    return None, c


def _candidates(fps: list[dict[int, str] | None]) -> Iterator[tuple[int, list[int]]]:
    """For each game (index i), the earlier games that may equal it, in order.

    Those with the same digest at ``BUCKET_PREFIX`` values, and those that examined fewer values than that.
    """
    buckets: dict[str, list[int]] = {}
    small: list[int] = []
    seen: list[int] = []
    for i, f in enumerate(fps):
        if f is None:
            yield i, []
            continue
        n = max(f)
        if n >= BUCKET_PREFIX:
            bucket = buckets.setdefault(f[BUCKET_PREFIX], [])
            yield i, list(heapq.merge(bucket, small))
            bucket.append(i)
        else:
            yield i, list(seen)
            small.append(i)
        seen.append(i)


def _same_as(
    codes: list[str],
    fingerprints: list[list[list[Any]] | None],
    digest: Callable[[list[tuple[int, int]]], list[str]],
) -> list[str | None]:
    """For each game, the code of the first earlier game whose values agree over the range both examined.

    This is decided from fingerprints.

    Two games that examined ``n1 <= n2`` values are equal when the digests of G(0..n1-1) agree.
    Both fingerprints hash every power of two below their length, so the digest of the common
    range is at hand when ``n1`` is a power of two or ``n1 == n2``; otherwise ``digest`` computes
    the missing ones, ``[(game index, length), ...] -> [hex digest, ...]`` (a few games: those that
    agree up to the last power of two).
    """
    fps: list[dict[int, str] | None] = [None if f is None else {int(k): v for k, v in f} for f in fingerprints]
    cands = list(_candidates(fps))
    missing: set[tuple[int, int]] = set()
    for i, js in cands:
        for j in js:
            ok, c = _compare(fps[i], fps[j])  # type: ignore[arg-type]
            if ok:
                break
            if ok is None:
                missing.add((i if c not in fps[i] else j, c))  # type: ignore[operator]
    if missing:
        asked = sorted(missing)
        for (k, c), d in zip(asked, digest(asked), strict=True):
            fps[k][c] = d  # type: ignore[index]
    out: list[str | None] = []
    for i, js in cands:
        match = None
        for j in js:
            if _compare(fps[i], fps[j])[0]:  # type: ignore[arg-type]
                match = codes[j]
                break
        out.append(match)
    return out
