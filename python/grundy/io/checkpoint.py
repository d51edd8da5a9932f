"""The grundy file format: writing, reading and resuming checkpoints (``grundy.io`` is its public face).

Saving and loading games with their computed values and periodicity; checkpoints.

The file format (version 1) is a numpy ``.npz`` archive (zip, deflate-compressed) with three
entries, readable with ``numpy.load(path, allow_pickle=False)`` alone:

``values``
    G(0..count-1), a 1-d little-endian unsigned array (uint8, uint16 or uint32).
``metadata``
    UTF-8 JSON as a 1-d uint8 array: ``{"format": "grundy.game", "format_version": 1,
    "package_version": "0.1.0", "rule": {...}, "name": "Kayles", "count": 1024, "dtype": "uint8",
    "periodicity": {...} or null, "created": "2025-01-01T00:00:00Z"}``, and for a game whose values
    belong to positions rather than to heaps 0..count-1 (a board game), ``"positions"``: the position
    of each value, as a hex string of its free cells. ``rule`` rebuilds the game:
    ``{"type": "take_and_break", "code": "0.77"}`` or ``{"type": "subtraction", "kind": "finite",
    "members": [1, 2, 3]}`` (kind also ``all_but``, ``squares``, ``at_most_half``,
    ``proper_divisors``) or ``{"type": "board", "kind": "cram", "grid": [4, 5], ...}``.
    ``periodicity`` holds ``preperiod``, ``period``, ``saltus``, ``proven``,
    ``certificate`` and ``checked_to`` of the last :meth:`Game.periodicity` result.
``sha256``
    the hex digest (ASCII, as a uint8 array) of: the metadata's byte length as 8 little-endian
    bytes, the metadata bytes, then the values' bytes.

Loading checks the archive's CRCs, the format name and version, the checksum, the count and
dtype, that the period holds on the stored values, and recomputes the last few values from the
rule (all of them for rules that cannot rebuild their state cheaply); anything wrong raises
:class:`~grundy.InvalidFileError` (a ValueError), so a damaged file is never read as wrong values.
Rules given as Python callables (``Subtraction(allowed=...)``, ``HeapGame``) cannot be rebuilt from a
file, so saving them raises :class:`~grundy.ArgumentTypeError` (a TypeError); save their values with
``numpy.save`` instead. A missing file or folder raises :class:`~grundy.MissingFileError`, one that
may not be written (or read) :class:`~grundy.FilePermissionError`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from typing import IO, Any, Protocol

import numpy as np

from .. import _core
from .._validate import _short
from ..analysis.periodicity import Periodicity
from ..exceptions import ArgumentError, ArgumentTypeError, FilePermissionError, InvalidFileError, MissingFileError


class Game(Protocol):
    """What files ask of a game (all of it is on :class:`~grundy.Game`).

    Its rule as plain data (``_rule``; the game kinds register how to rebuild it in
    :data:`BUILDERS`), its values and its periodicity result, read and written.
    """

    name: str | None

    @property
    def computed(self) -> int:
        """See :class:`~grundy.Game`."""
        ...

    @property
    def known_periodicity(self) -> Periodicity | None:
        """See :class:`~grundy.Game`."""
        ...

    def _rule(self) -> dict[str, Any]: ...

    def _constructor(self) -> str: ...

    def _computed_values(self, k: int | None = None) -> np.ndarray: ...

    def _seed(self, values: np.ndarray) -> None: ...

    def _set_periodicity(self, p: Periodicity) -> None: ...

#: The format written by :func:`save`; :func:`load` reads versions up to this one.
FORMAT_VERSION = 1
FORMAT_NAME = "grundy.game"
_ENTRIES = ("values", "metadata", "sha256")


# -- reading ------------------------------------------------------------------------------------
def _bad(path: Any, why: str) -> InvalidFileError:
    return InvalidFileError(f"{os.fspath(path)!s} is not a valid grundy file: {why}")


def _check_path(path: Any) -> str:
    """``path`` as a str: ArgumentTypeError for anything but a str or path-like."""
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"path must be a file path, not {type(path).__name__}")
    return os.fspath(path)


def _open(path: str) -> IO[bytes]:
    """``path`` opened for reading; a missing or unreadable file in the family (other OS errors as they are)."""
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise MissingFileError(f"no such file: {path}") from None
    except PermissionError as e:
        raise FilePermissionError(f"cannot read {path}: {e.strerror}") from None


def _read(path: str | os.PathLike[str]) -> tuple[dict[str, Any], np.ndarray]:
    """The checked metadata and values of a file."""
    path = _check_path(path)
    with _open(path) as f:
        try:
            z = np.load(f, allow_pickle=False)
            if not isinstance(z, np.lib.npyio.NpzFile):
                raise _bad(path, "not an .npz archive")
            with z:
                missing = [k for k in _ENTRIES if k not in z.files]
                if missing:
                    raise _bad(path, f"entries {missing} are missing (corrupted, or not written by gr.save)")
                entries = {k: z[k] for k in _ENTRIES}
        except InvalidFileError:
            raise
        except MemoryError:
            raise _bad(path, "a damaged header asks for more memory than there is") from None
        except Exception as e:  # zipfile, zlib, numpy and pickle guards: all mean a damaged file
            raise _bad(path, f"{type(e).__name__}: {e} (corrupted or truncated?)") from None
    raw_meta, values, digest = entries["metadata"], entries["values"], entries["sha256"]
    if raw_meta.dtype != np.uint8 or raw_meta.ndim != 1 or digest.dtype != np.uint8 or digest.ndim != 1:
        raise _bad(path, "the metadata or checksum entry has the wrong type")
    meta_bytes = raw_meta.tobytes()
    try:
        meta = json.loads(meta_bytes.decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _bad(path, f"the metadata is not JSON ({e}): corrupted") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT_NAME:
        raise _bad(path, f"the metadata does not describe a {FORMAT_NAME} file")
    version = meta.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _bad(path, f"format version {version!r} is not a version")
    if version > FORMAT_VERSION:
        raise _bad(
            path,
            f"it has format version {version}, newer than the versions this grundy reads "
            f"(up to {FORMAT_VERSION}); upgrade grundy to read it",
        )
    if values.ndim != 1 or values.dtype.kind != "u" or values.dtype.itemsize > 4:
        raise _bad(path, f"the values must be a 1-d unsigned array, not {values.dtype} of shape {values.shape}")
    if digest.tobytes() != _digest(meta_bytes, _le(values)).encode("ascii"):
        raise _bad(path, "the checksum does not match the contents: the file is corrupted")
    if meta.get("count") != values.size or meta.get("dtype") != values.dtype.name:
        raise _bad(path, "the metadata's count or dtype disagrees with the values")
    return meta, values


def _game(rule: Any, name: Any, path: Any) -> Game:
    """A fresh game from a rule description."""
    try:
        return game_from_rule(rule, name=name)
    except (TypeError, ValueError) as e:
        raise _bad(path, f"its rule {rule!r} cannot be rebuilt: {e}") from None


#: How each rule type is rebuilt from its description: ``{"take_and_break": fn(rule, name), ...}``,
#: filled in by the games' module (so that this module needs no game class, and games can import it).
BUILDERS: dict[str, Callable[[dict[str, Any], str | None], Game]] = {}


def game_from_rule(rule: dict[str, Any], name: str | None = None) -> Game:
    """Build a new game (no values yet) from the rule description that :func:`grundy.save` writes.

    Examples
    --------
    >>> game_from_rule({"type": "take_and_break", "code": "0.77"}).values(4).tolist()
    [0, 1, 2, 3]
    """
    if not isinstance(rule, dict):
        raise ArgumentTypeError(f"a rule description is a dict, not {type(rule).__name__}")
    build = BUILDERS.get(rule.get("type"))  # type: ignore[arg-type]
    if build is None:
        raise ArgumentError(f"unknown rule type {_short(rule.get('type'))}")
    if name is not None and not isinstance(name, str):
        raise ArgumentTypeError("a game's name must be a string")
    return build(rule, name)


def _seed(game: Game, values: np.ndarray, path: Any) -> None:
    try:
        game._seed(np.ascontiguousarray(values, dtype=np.uint32))
    except ValueError as e:
        raise _bad(path, str(e)) from None


def _periodicity_fields(p: Periodicity) -> dict[str, Any]:
    return {
        "preperiod": p.preperiod,
        "period": p.period,
        "saltus": p.saltus,
        "proven": p.proven,
        "certificate": p.certificate,
        "checked_to": p.checked_to,
    }


def _restore_periodicity(game: Game, meta: dict[str, Any], values: np.ndarray, path: Any) -> None:
    d = meta.get("periodicity")
    if d is None:
        return
    try:
        p = _periodicity_from(d, values)
    except (TypeError, ValueError, KeyError) as e:
        raise _bad(path, f"its periodicity record is inconsistent: {e}") from None
    game._set_periodicity(p)


def _periodicity_from(d: dict[str, Any], values: np.ndarray) -> Periodicity:
    # Its plain TypeErrors and ValueErrors never leave: _restore_periodicity turns them into InvalidFileError.
    def integer(k: str, none_ok: bool = False) -> Any:
        x = d[k]
        if x is None and none_ok:
            return None
        if not isinstance(x, int) or isinstance(x, bool):
            raise TypeError(f"{k} must be an integer, not {x!r}")
        return x

    n0, p, s = integer("preperiod", True), integer("period", True), integer("saltus")
    proven, cert, checked = d["proven"], d["certificate"], integer("checked_to")
    if not isinstance(proven, bool) or not isinstance(cert, str):
        raise TypeError("proven must be a bool and certificate a string")
    if checked > values.size or checked < 0:
        raise ValueError(f"checked_to = {checked} but only {values.size} values are stored")
    if p is None:
        if n0 is not None or proven:
            raise ValueError("no period but a preperiod or a proof")
        return Periodicity(None, None, s, False, cert, checked)
    if n0 is None or n0 < 0 or p < 1 or n0 + p > checked:
        raise ValueError(f"preperiod {n0} and period {p} do not fit the {checked} values examined")
    g = values[:checked].astype(np.int64)
    if not np.array_equal(g[n0 + p :], g[n0 : checked - p] + s):
        raise ValueError(f"G(n + {p}) = G(n) + {s} fails on the stored values")
    return Periodicity(n0, p, s, proven, cert, checked, values[n0 : n0 + p])  # copied: a view


def _resume(game: Game, path: str) -> int:
    """Brings a checkpoint's values (and periodicity) into ``game``; returns how many it holds.

    ValueError when the file belongs to another rule or disagrees with values already computed.
    """
    meta, values = _read(path)
    mine = game._rule()
    if meta["rule"] != mine:
        try:
            theirs = game_from_rule(meta["rule"])._constructor()
        except (TypeError, ValueError):
            theirs = repr(meta["rule"])
        raise InvalidFileError(
            f"the checkpoint {path} holds values of {theirs}, not of {game._constructor()}: "
            "give another path, or delete the file to start over"
        )
    have = game.computed
    if have:
        common = min(have, values.size)
        if not np.array_equal(game._computed_values(common), values[:common]):
            raise _bad(path, "its values disagree with the values already computed")
    if values.size > have:
        _seed(game, values, path)
    if game.known_periodicity is None:
        _restore_periodicity(game, meta, values, path)
    return int(values.size)


# -- writing ------------------------------------------------------------------------------------
def check_writable(path: str) -> None:
    """FilePermissionError now, before any computing, for a checkpoint that could not be written later.

    A file without write permission (``chmod 444``) is refused even where the folder would let it
    be replaced (and for root): it was made read-only to keep it as it is.
    """
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.exists(path) and not os.stat(path).st_mode & 0o222:
        raise FilePermissionError(
            f"the checkpoint {path} is read-only: give another path, or start from its values with "
            "gr.load(path) and save them elsewhere"
        )
    if not os.access(folder, os.W_OK):
        raise FilePermissionError(f"the checkpoint's folder {folder} cannot be written")



def _le(values: np.ndarray) -> np.ndarray:
    """``values`` as a little-endian contiguous array."""
    return np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("<"))


def _digest(meta_bytes: bytes, values: np.ndarray) -> str:
    h = hashlib.sha256()
    h.update(len(meta_bytes).to_bytes(8, "little"))
    h.update(meta_bytes)
    h.update(values.tobytes())
    return h.hexdigest()


def _write_atomic(path: str | os.PathLike[str], write: Callable[[IO[bytes]], None]) -> None:
    """Write a file so that ``path`` holds either its old or its new contents, even after a crash.

    A temporary file in the same folder, flushed and fsynced, renamed over ``path``.
    """
    path = _check_path(path)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
    except FileNotFoundError:
        raise MissingFileError(f"cannot write {path}: the folder {folder} does not exist") from None
    except PermissionError:
        raise FilePermissionError(f"cannot write {path}: the folder {folder} cannot be written") from None
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # the rename itself reaches the disk (POSIX)
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


__all__ = ["BUILDERS", "FORMAT_NAME", "FORMAT_VERSION", "game_from_rule", "read_game", "write"]


def write(obj: Game, path: str | os.PathLike[str]) -> None:
    """Write a game, its computed values and its last periodicity result to ``path``, atomically."""
    rule = obj._rule()
    values = _le(obj._computed_values())
    p = obj.known_periodicity
    meta = {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "package_version": _core.__version__,
        "rule": rule,
        "name": obj.name,
        "count": int(values.size),
        "dtype": values.dtype.name,
        "periodicity": None if p is None else _periodicity_fields(p),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    keys = getattr(obj, "_computed_keys", None)
    if keys is not None:  # values of positions (a board game's), not of heaps 0..count-1
        meta["positions"] = [hex(k) for k in keys()]
    meta_bytes = json.dumps(meta, sort_keys=True).encode()
    digest = _digest(meta_bytes, values)

    def write(f: IO[bytes]) -> None:
        np.savez_compressed(
            f,
            values=values,
            metadata=np.frombuffer(meta_bytes, dtype=np.uint8),
            sha256=np.frombuffer(digest.encode("ascii"), dtype=np.uint8),
        )

    _write_atomic(path, write)


def read_game(path: str | os.PathLike[str]) -> Game:
    """Read a game written by :func:`write`; its values are cached, not recomputed."""
    meta, values = _read(path)
    game = _game(meta["rule"], meta.get("name"), path)
    if "positions" in meta:
        _seed_positions(game, meta["positions"], values, path)
        return game
    _seed(game, values, path)
    _restore_periodicity(game, meta, values, path)
    return game


def _seed_positions(game: Any, positions: Any, values: np.ndarray, path: Any) -> None:
    """Values of positions (hex strings of free cells) into a game that checks them."""
    try:
        if not isinstance(positions, list) or not all(isinstance(p, str) for p in positions):
            raise TypeError("the positions are not a list of hex strings")
        game._seed_keyed([int(p, 16) for p in positions], values)
    except (TypeError, ValueError) as e:
        raise _bad(path, f"its positions do not fit its game: {e}") from None
