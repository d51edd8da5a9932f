"""The exception hierarchy: every error grundy raises on purpose is a GrundyError and the builtin a caller catches."""

import os
import pickle

import pytest

import grundy as gr


def test_every_class_is_a_grundy_error_and_a_value_error():
    for cls in (gr.CodeError, gr.NoPeriodError, gr.SearchLimitError, gr.InvalidFileError, gr.CycleError):
        assert issubclass(cls, gr.GrundyError) and issubclass(cls, ValueError)


def test_no_period_past_the_computed_values():
    with pytest.raises(gr.NoPeriodError, match="no period of TakeAndBreak"):
        gr.grundys_game().value(2**40)


def test_damaged_files_and_foreign_checkpoints(tmp_path):
    path = os.fspath(tmp_path / "k.npz")
    g = gr.kayles()
    g.values(100)
    gr.save(g, path)
    with open(path, "r+b") as f:
        f.seek(60)
        f.write(b"\xff\xff\xff\xff")
    with pytest.raises(gr.InvalidFileError, match="not a valid grundy file"):
        gr.load(path)
    other = os.fspath(tmp_path / "s.npz")
    gr.save(gr.Subtraction([1, 2]), other)
    with pytest.raises(gr.InvalidFileError, match="holds values of"):
        gr.kayles().values(10, checkpoint=other)


def test_search_limits_carry_the_limit():
    with pytest.raises(gr.SearchLimitError) as e:
        gr.Position(gr.kayles(), [30, 31, 32]).outcome(misere=True, max_positions=50)
    assert e.value.limit == 50


def test_errors_survive_pickling():
    for err in (
        gr.CodeError("bad digit", code="0.7x", position=3),
        gr.SearchLimitError("too many", limit=7),
        gr.CycleError(["a", "b"]),
        gr.NoPeriodError("none"),
    ):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err) and back.__dict__ == err.__dict__


def test_code_errors_name_the_character():
    with pytest.raises(gr.CodeError) as e:
        gr.TakeAndBreak("0.7x")
    assert (e.value.code, e.value.position) == ("0.7x", 3)


def test_the_argument_classes_survive_pickling():
    for err in (
        gr.ArgumentError("n must be non-negative, got -1"),
        gr.ArgumentTypeError("n must be an integer"),
        gr.TooLargeError("h must be below 2**64"),
        gr.NotFoundError("'z' is not a vertex"),
        gr.MemoryLimitError("this needs about 1 MiB", needed=2**20, available=10),
        gr.ReentrancyError("asked the same game"),
    ):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err) and back.__dict__ == err.__dict__


def test_every_public_exception_is_listed_once_and_documented():
    import grundy.exceptions as ex

    assert len(set(ex.__all__)) == len(ex.__all__)
    for name in ex.__all__:
        cls = getattr(gr, name)
        assert issubclass(cls, gr.GrundyError)
        assert cls.__doc__ and ">>>" in cls.__doc__, f"{name} needs a docstring with an example"
        assert name in (ex.__doc__ or "") or name == "GrundyError", f"the module docstring does not list {name}"


def test_the_file_classes_are_the_os_errors_and_survive_pickling():
    """Issue 32, fault 7: missing files and read-only stores raised plain FileNotFoundError and PermissionError."""
    assert issubclass(gr.MissingFileError, gr.GrundyError) and issubclass(gr.MissingFileError, FileNotFoundError)
    assert issubclass(gr.FilePermissionError, gr.GrundyError) and issubclass(gr.FilePermissionError, PermissionError)
    for err in (gr.MissingFileError("no such file: x.npz"), gr.FilePermissionError("the checkpoint x is read-only")):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err) and back.__dict__ == err.__dict__
        assert (back.errno, back.filename) == (None, None)  # str() is the message alone


def test_missing_files_raise_missing_file_error(tmp_path):
    with pytest.raises(gr.MissingFileError, match="no such file"):
        gr.load(tmp_path / "missing.npz")
    with pytest.raises(gr.MissingFileError, match="no survey store"):
        gr.load_survey(tmp_path / "missing.sqlite")
