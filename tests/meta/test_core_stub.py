"""``_core.pyi`` names what the native module has (issue 31): every name it exports and every member
of its classes, no more and no fewer, so that mypy's view of the core cannot drift from what
rust/py registers."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType

import pytest

from urlsift import _select

STUB = Path(__file__).parents[2] / "src" / "urlsift" / "_core.pyi"

MODULE_OWN = {"__all__", "__doc__", "__file__", "__loader__", "__name__", "__package__", "__spec__"}
"""What every extension module has: not the core's to declare."""
CLASS_OWN = {"__doc__", "__module__", "__weakref__", "__dict__"}
"""What every class has."""


def _native() -> ModuleType:
    if _select.NATIVE is None:
        pytest.skip("the native core is not built (pip install -e .) or URLSIFT_CORE=python")
    return _select.NATIVE


def _declared(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    """The names a stub's module or class body declares (imports are not among them)."""
    names: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef):
            names[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
    return names


def _stub() -> dict[str, ast.stmt]:
    return _declared(ast.parse(STUB.read_text()).body)


def test_the_stub_names_what_the_module_exports() -> None:
    module = _native()
    exported = set(dir(module)) - MODULE_OWN
    assert exported == set(module.__all__) | {"__version__"}
    assert set(_stub()) == exported


def test_each_class_stub_names_its_members() -> None:
    module = _native()
    for name, node in _stub().items():
        if not isinstance(node, ast.ClassDef):
            continue
        members = set(vars(getattr(module, name))) - CLASS_OWN
        # A stub's __init__ is the class's __new__ (PyO3's #[new]).
        stubbed = {"__new__" if member == "__init__" else member for member in _declared(node.body)}
        assert stubbed == members, name


def test_the_stub_says_which_are_exceptions() -> None:
    module = _native()
    for name, node in _stub().items():
        if isinstance(node, ast.ClassDef):
            bases = {ast.unparse(base) for base in node.bases}
            raised = {base for base in bases if base.endswith("Error")}
            assert issubclass(getattr(module, name), BaseException) == bool(raised), name
