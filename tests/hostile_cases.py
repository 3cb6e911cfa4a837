"""bench/hostile_cases/messages.py's cases (name -> a builder writing its files into a folder),
for the tests that hold both cores to the same reading of them."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

CASES_FILE = Path(__file__).resolve().parents[1] / "bench" / "hostile_cases" / "messages.py"


def message_cases() -> dict[str, Any]:
    """The cases, by name (the module is bench's: loaded from its file, not imported)."""
    spec = importlib.util.spec_from_file_location("hostile_cases_messages", CASES_FILE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cases: dict[str, Any] = module.CASES
    return cases
