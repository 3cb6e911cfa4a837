"""Which core runs: the native one (``urlsift._core``, built from rust/ by maturin) or the pure-Python
one, which stays complete as its oracle. The one place that decides.

``URLSIFT_CORE=python`` or ``rust``; unset (or empty), the Python one for now: the native core
is loaded when it imports (so that tests and benchmarks can run both), but it becomes the default
only once the whole native path beats the Python one and keeps every memory budget (issue 31,
docs/architecture.md). ``URLSIFT_CORE=rust`` with no native core is an error: whoever asks for it
must get it. Either refusal is an ImportError of this module (its ``name`` is this module's), one line
naming the variable and what it takes: the ``urlsift`` command (``_urlsift_command``) prints it as
a usage error, and so does ``python -m urlsift`` (the package is imported while ``-m`` locates its
``__main__``, before any code of the command line runs).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Literal

Core = Literal["python", "rust"]
CORES: tuple[Core, ...] = ("python", "rust")
VARIABLE = "URLSIFT_CORE"


TAKES = f"{VARIABLE} takes {' or '.join(CORES)} (unset or empty: python)"
"""What the variable takes, said with each refusal."""


def _refused(why: str) -> ImportError:
    """One line (a command line's usage error), marked as this module's refusal."""
    line = " ".join(f"{why}; {TAKES}".split())
    if sys.argv[:1] == ["-m"]:  # ``python -m urlsift``: this import is the command line's start
        print(f"urlsift: {line}", file=sys.stderr)
        raise SystemExit(2)
    return ImportError(line, name=__name__)


def _missing() -> str:
    """Why the native module did not import: not built, or what its import raised."""
    try:
        from . import _core  # noqa: F401
    except ImportError as error:
        if importlib.util.find_spec(f"{__package__}._core") is None:
            return "no urlsift._core module is installed (pip install . builds it)"
        return str(error)
    return "it imported on a second try"


def _load() -> tuple[Core, ModuleType | None]:
    wanted = os.environ.get(VARIABLE, "").strip().lower()
    if wanted not in {"", *CORES}:
        raise _refused(f"{VARIABLE}={wanted!r} names no core")
    if wanted == "python":
        return "python", None  # the oracle alone: the native module is not even imported
    try:
        from . import _core
    except ImportError as error:
        if wanted == "rust":
            # (Python's own wording for a missing submodule speaks of a circular import)
            raise _refused(f"{VARIABLE}=rust, but the native core cannot be loaded: {_missing()}") from error
        return "python", None
    return ("rust" if wanted == "rust" else "python"), _core


CORE, NATIVE = _load()
"""The core in use, and the native module (None when it is not loaded)."""


def native() -> ModuleType | None:
    """The native module when the Rust core is the one in use, else None."""
    return NATIVE if CORE == "rust" else None


@contextmanager
def using(core: Core) -> Iterator[None]:
    """Run with ``core`` (the tests run each ported stage under both); the native one must be
    loaded. Not for concurrent use: the choice is the process's."""
    global CORE
    if core == "rust" and NATIVE is None:
        raise RuntimeError("the native core is not loaded")
    before, CORE = CORE, core
    try:
        yield
    finally:
        CORE = before
