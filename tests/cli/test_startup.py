"""Start-up: a run imports what it needs when it needs it (issue 22).

Every run of the command line pays for the modules it imports before it reads a byte, so what a
strict run over one message does not use (the modern profile and IDNA, the progress bar, the worker
pool, the library's API, the optional readers) is imported only by the runs that use it. Counted in
a fresh process by the modules loaded, not timed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

MESSAGE = b"Subject: s\n\nSee <URL:http://example.com/a>, http://www.example.org/ and http://h.example/~u/.\n"

RUN = """
import sys
from urlsift.cli import main
status = main(sys.argv[1:])
sys.stderr.write("\\nMODULES " + " ".join(sorted(sys.modules)) + "\\n")
"""

NOT_FOR_A_STRICT_RUN = (
    "urlsift.grammar.modern",
    "urlsift.grammar.iri",
    "idna",
    "tqdm",
    "urlsift.workers",
    "concurrent.futures.process",
    "urlsift.library",
    "email.message",
    "email.utils",
    "urlsift.parquet",
    "urlsift.dask",
)


def _modules(tmp_path: Path, *arguments: str) -> tuple[str, set[str]]:
    path = tmp_path / "one.eml"
    path.write_bytes(MESSAGE)
    done = subprocess.run(
        [sys.executable, "-c", RUN, *arguments, str(path)], capture_output=True, text=True, check=False
    )
    modules = done.stderr.rpartition("MODULES ")[2].split()
    assert modules, done.stderr
    return done.stdout, set(modules)


def test_a_strict_run_imports_no_more_than_it_uses(tmp_path: Path) -> None:
    out, modules = _modules(tmp_path, "--no-progress")
    assert out.split() == ["http://example.com/a", "http://www.example.org/"]
    assert modules.isdisjoint(NOT_FOR_A_STRICT_RUN), sorted(modules & set(NOT_FOR_A_STRICT_RUN))


@pytest.mark.parametrize(
    ("arguments", "imported"),
    [
        (("--profile", "modern"), {"urlsift.grammar.modern", "idna"}),
        (("--stats",), {"urlsift.grammar.modern"}),  # the second opinion on the rejected
        (("-j", "2"), {"urlsift.workers", "concurrent.futures.process"}),
    ],
)
def test_a_run_that_needs_more_imports_it(
    tmp_path: Path, arguments: tuple[str, ...], imported: set[str]
) -> None:
    out, modules = _modules(tmp_path, *arguments)
    assert "http://example.com/a" in out.split()
    assert imported <= modules


API = """
import sys
import urlsift
assert "urlsift.grammar.modern" not in sys.modules and "urlsift.library" not in sys.modules
assert urlsift.library.scan is urlsift.scan and urlsift.sources.mbox  # as when all were imported
verdict = urlsift.validate("http://example.com/a")
assert verdict.uri == "http://example.com/a", verdict.uri  # grammar.iri imported on demand
assert urlsift.validate("http://b\\u00fccher.example/", urlsift.MODERN).uri == "http://xn--bcher-kva.example/"
assert urlsift.MODERN is urlsift.PROFILES["modern"] is urlsift.grammar.MODERN
assert callable(urlsift.scan) and callable(urlsift.extract_message) and urlsift.Row and urlsift.Report
assert callable(urlsift.canonical) and callable(urlsift.extract) and callable(urlsift.validate)
assert set(urlsift.__all__) <= set(dir(urlsift))
assert [m.canonical for m in urlsift.extract("<URL:HTTP://Example.COM/a>")] == ["http://example.com/a"]
try:
    urlsift.no_such_name
except AttributeError as error:
    assert "no_such_name" in str(error)
else:
    raise AssertionError("no AttributeError")
print("ok")
"""


def test_the_public_names_work_when_imported_on_first_use() -> None:
    done = subprocess.run([sys.executable, "-c", API], capture_output=True, text=True, check=False)
    assert done.stdout == "ok\n", done.stderr
