"""The examples in docstrings are part of the documentation: they must run and be right."""

import doctest
import importlib
import pkgutil

import pytest

import grundy

# Every module of every package (walk_packages goes into grundy.games, grundy.play, ...).
MODULES = sorted(m.name for m in pkgutil.walk_packages(grundy.__path__, "grundy.") if m.name != "grundy._core")


@pytest.mark.parametrize("name", ["grundy", *MODULES])
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_public_api_has_docstrings():
    for name in grundy.__all__:
        obj = getattr(grundy, name)
        if callable(obj):
            assert obj.__doc__, f"grundy.{name} has no docstring"
