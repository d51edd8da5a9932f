"""Every public function, class, method and property has a numpydoc docstring with its sections.

The checks are numpydoc's own validator (``numpydoc.validate``), run over every name in
``grundy.__all__`` and the public members of its classes (inherited ones included, where the
package defines them). All of numpydoc's checks apply except those in ``IGNORED``, each for the
reason given there.
"""

from __future__ import annotations

import inspect

import pytest
from numpydoc.validate import get_doc_object, validate

import grundy

#: Checks that fight the package's style (the rest of numpydoc's list applies).
IGNORED = {
    # An extended summary is written where it says something: many one-line summaries are complete.
    "ES01": "no extended summary",
    # See Also is given where it helps a reader on, not on every name.
    "SA01": "no See Also section",
    # Summaries of classes, accessors and game constructors are noun phrases ("Kayles (0.77): ...",
    # "The Grundy value of one vertex."), as ruff's D401 is off for: numpydoc's check takes any first
    # word ending in "s" ("Kayles", "Positions") for a verb in the third person.
    "SS05": "summary starts with a verb in the third person",
}

def _is_documented_member(owner: type, name: str) -> bool:
    """Whether ``owner.name`` is a method or property the package defines (not object's or Exception's)."""
    for klass in owner.__mro__:
        if name in vars(klass):
            if not klass.__module__.startswith("grundy"):
                return False
            raw = vars(klass)[name]
            return isinstance(raw, (property, classmethod, staticmethod)) or inspect.isfunction(raw)
    return False


def public_names() -> list[str]:
    """Every public function and class of ``grundy.__all__``, and their public methods and properties."""
    out = []
    for name in grundy.__all__:
        obj = getattr(grundy, name)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue  # constants (DEFAULT_MAX_N, __version__) are documented in the API reference
        out.append(f"grundy.{name}")
        if inspect.isclass(obj):
            members = [m for m in sorted(dir(obj)) if not m.startswith("_") and _is_documented_member(obj, m)]
            out += [f"grundy.{name}.{m}" for m in members]
    return out


NAMES = public_names()


def problems(name: str) -> list[str]:
    """numpydoc's complaints about the docstring of ``name``, less the ignored checks."""
    # Resolved by attribute, as users reach it (``grundy.X.y``: a method or property of a public class).
    obj = grundy
    for part in name.split(".")[1:]:
        obj = getattr(obj, part)
    result = validate(get_doc_object(obj))
    return [f"{code} {message}" for code, message in result["errors"] if code not in IGNORED]


@pytest.mark.parametrize("name", NAMES)
def test_numpydoc_sections(name):
    found = problems(name)
    assert not found, f"{name}:\n  " + "\n  ".join(found)


def test_the_walk_reaches_methods_and_properties():
    # The list above must include inherited members and properties, or the test would check little.
    assert "grundy.Subtraction.values" in NAMES
    assert "grundy.TwoHeapGame.grid" in NAMES
    assert "grundy.Position.grundy" in NAMES
    assert "grundy.SparseSpace.is_rare" in NAMES
    # loopy.py and state_game.py (once exempt) are checked like the rest.
    assert {"grundy.GeneralizedValues.value", "grundy.Infinity.outcome", "grundy.StateGame.loopy"} <= set(NAMES)
    assert not any(n.endswith((".with_traceback", ".add_note", ".args")) for n in NAMES)


def test_the_validator_catches_a_missing_section():
    # The checks this test relies on do fire: a function without Parameters or Returns is reported.
    def undocumented(n: int) -> int:
        """Double n.

        Examples
        --------
        >>> undocumented(1)
        2
        """
        return 2 * n

    import sys

    module = sys.modules[__name__]
    module.undocumented = undocumented  # type: ignore[attr-defined]
    try:
        codes = {code for code, _ in validate(f"{__name__}.undocumented")["errors"]}
    finally:
        del module.undocumented  # type: ignore[attr-defined]
    assert {"PR01", "RT01"} <= codes
