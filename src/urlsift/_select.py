"""Which core runs: the native one (``urlsift._core``, built from rust/ by maturin) or the pure-Python
one, which stays complete as its oracle. The one place that decides.

``URLSIFT_CORE=python`` or ``rust``; unset (or empty), the Python one for now: the native core
is loaded when it imports (so that tests and benchmarks can run both), but it becomes the default
only once the whole native path beats the Python one and keeps every memory budget (issue 31,
docs/architecture.md). ``URLSIFT_CORE=rust`` with no native core is an error: whoever asks for it
must get it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Literal

Core = Literal["python", "rust"]
CORES: tuple[Core, ...] = ("python", "rust")
VARIABLE = "URLSIFT_CORE"


def _load() -> tuple[Core, ModuleType | None]:
    wanted = os.environ.get(VARIABLE, "").strip().lower()
    if wanted not in {"", *CORES}:
        raise ImportError(f"{VARIABLE}={wanted!r}: expected one of {', '.join(CORES)}")
    if wanted == "python":
        return "python", None  # the oracle alone: the native module is not even imported
    try:
        from . import _core
    except ImportError as error:
        if wanted == "rust":
            raise ImportError(f"{VARIABLE}=rust, but the native core is not built: {error}") from error
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
