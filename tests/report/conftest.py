"""The report of a corpus, made once per test process: the page and the dataset it was made from."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ("corpora/mail", "corpora/news", "corpora/rfc/rfc1738.txt")
"""Mail with headers, quoting, MIME parts and bad charsets; news spools; a plain text."""


class Made(NamedTuple):
    page: Path
    dataset: Path
    stderr: str
    status: int


Run = Callable[..., subprocess.CompletedProcess[str]]


def _report(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``urlsift report ARGUMENTS`` run from the repository's root."""
    return subprocess.run(
        [sys.executable, "-m", "urlsift", "report", *arguments],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Made:
    folder = tmp_path_factory.mktemp("report")
    page, dataset = folder / "report.html", folder / "dataset"
    done = _report("--no-progress", "--dataset", str(dataset), "-o", str(page), *CORPUS)
    return Made(page, dataset, done.stderr, done.returncode)


@pytest.fixture(scope="session")
def report() -> Run:
    """``urlsift report ARGUMENTS`` run from the repository's root, as a user runs it."""
    return _report
