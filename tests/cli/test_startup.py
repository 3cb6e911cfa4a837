"""Start-up: a run imports what it needs when it needs it (issue 22).

Every run of the command line pays for the modules it imports before it reads a byte, so what a
strict run over one message does not use (the modern profile and IDNA, the progress bar, the worker
pool, the library's API, the optional readers) is imported only by the runs that use it. Counted in
a fresh process by the modules loaded, not timed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from urlsift import _select

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
    "urlsift.report",  # urlsift report's modules and DuckDB's queries (start-up, issues 31 and 32)
    "urlsift.report_data",
    "urlsift.report_page",
    "shlex",  # (urlsift report's command line, written on its page: cold3)
    # The readers of other kinds of file, each imported where a file of its kind is met (issue 31):
    *("urlsift.sources.archives", "zipfile", "tarfile", "tempfile", "urlsift.sources.publicinbox"),
    *("urlsift.sources.warc", "urlsift.sources.codings", "urlsift.sources.jsonl"),
    # The regex module (for a pattern Python's re refuses, a text that is not plain ASCII) and the
    # grammar's rendering for the core (shipped rendered: grammar/_rendered.py):
    *("regex", "urlsift.grammar.export", "urlsift.grammar.opaque"),
    "gzip",  # by the first gzip stream (issue 31; bz2 and lzma come with argparse's shutil)
)
NOT_FOR_A_TEXT_RUN = (
    *NOT_FOR_A_STRICT_RUN,
    *("urlsift.sources.mime", "urlsift.sources.page", "email", "html"),  # mail's and pages' readers
    *("socket", "subprocess"),  # (a numeric host's SURT key only; git's processes, public-inbox only)
    "urlsift.grammar._explain",  # (a failure's explanation: the text's URLs are all valid)
    *("queue", "threading"),  # (a .Z stream's reader, the one that runs a thread: cold3, issue 31)
)
NOT_FOR_AN_IMPORT = (
    "urlsift.sources",
    "urlsift.cli",
    "urlsift.hosts",
    "publicsuffixlist",
    "json",
    "argparse",
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


TEXT_RUN = """
import dataclasses, sys
made = []
make = dataclasses._process_class
dataclasses._process_class = lambda kind, *rest: made.append(kind) or make(kind, *rest)
from urlsift import hosts
from urlsift.cli import main
from urlsift.grammar._profile import compile_fullmatcher
status = main(sys.argv[1:])
lists = (hosts._ascii_suffixes.cache_info().currsize, hosts._suffixes.cache_info().currsize)
sys.stderr.write("\\nLISTS %d %d %d" % (*lists, hosts._sessions.cache_info().currsize))
sys.stderr.write("\\nCOMPILED %d" % compile_fullmatcher.cache_info().currsize)
from urlsift.grammar._bnf import Node
sys.stderr.write("\\nNODE DATACLASSES %d" % sum(issubclass(kind, Node) for kind in made))
sys.stderr.write("\\nMODULES " + " ".join(sorted(sys.modules)) + "\\n")
"""


@pytest.mark.parametrize("core", ["python", "rust"])
def test_a_text_run_loads_neither_mails_readers_nor_the_whole_suffix_list(tmp_path: Path, core: str) -> None:
    if core == "rust" and _select.NATIVE is None:
        pytest.skip("the native core is not built (pip install -e .) or URLSIFT_CORE=python")
    path = tmp_path / "one.txt"
    path.write_bytes(
        b"See http://www.example.co.uk/a and <URL:ftp://ftp.example.org/b>.\n"
        b"mailto:someone@lists.example.org.uk ldap://ldap.example.com/o=x news:comp.infosystems.www\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", TEXT_RUN, "--format", "jsonl", str(path)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "URLSIFT_CORE": core},
    )
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    domains = [row["registered_domain"] for row in rows]
    assert domains == ["example.co.uk", "example.org", "example.org.uk", "example.com", None], done.stderr
    lists, _, rest = done.stderr.rpartition("LISTS ")[2].partition("\nCOMPILED ")
    compiled, _, rest = rest.partition("\nNODE DATACLASSES ")
    node_dataclasses, _, modules = rest.partition("\nMODULES ")
    # Python reads the list's ASCII rules alone, the whole list never; the core reads the file itself,
    # and works the SURT keys out: Python compiles no session id's pattern (cold3, issue 31).
    assert lists.split() == (["0", "0", "0"] if core == "rust" else ["1", "0", "1"])
    # The core works out every column of these URLs (issue 31): Python compiles no production.
    assert (int(compiled) == 0) is (core == "rust"), compiled
    # The grammar's node classes are made without dataclass's generated methods (cold4, issue 31).
    assert node_dataclasses == "0", done.stderr
    assert set(modules.split()).isdisjoint(NOT_FOR_A_TEXT_RUN), sorted(
        set(modules.split()) & {*NOT_FOR_A_TEXT_RUN}
    )


def test_importing_urlsift_loads_no_reader_and_no_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import sys, urlsift; print(*sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    )
    modules = set(done.stdout.split())
    assert "urlsift.extract" in modules
    assert modules.isdisjoint(NOT_FOR_AN_IMPORT), sorted(modules & set(NOT_FOR_AN_IMPORT))


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


# A core that cannot run (issue 31): the command says so in one line, as a usage error; the library's
# import raises an ImportError that says the same. Blocking urlsift._core (None in sys.modules) is
# what an install without the native module sees.
COMMAND = """
import sys
sys.modules.update({blocked})
from _urlsift_command import main
sys.exit(main())
"""
LIBRARY = """
import sys
sys.modules.update({blocked})
try:
    import urlsift
except ImportError as error:
    print(error.name, error, sep="\\n")
"""
TAKES = "URLSIFT_CORE takes python or rust (unset or empty: python)"


def _run(program: str, core: str, blocked: str = "") -> subprocess.CompletedProcess[str]:
    blocking = f"{{{blocked!r}: None}}" if blocked else "{}"
    return subprocess.run(
        [sys.executable, "-c", program.format(blocked=blocking), "-"],
        input="http://example.com/\n",
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "URLSIFT_CORE": core},
    )


@pytest.mark.parametrize(
    ("core", "blocked", "said"),
    [
        ("bogus", "", "URLSIFT_CORE='bogus' names no core"),
        (" Rust-ish", "", "URLSIFT_CORE='rust-ish' names no core"),
        (
            "rust",
            "urlsift._core",
            "URLSIFT_CORE=rust, but the native core cannot be loaded: no urlsift._core module is installed",
        ),
    ],
)
def test_a_core_that_cannot_run_is_one_line_and_a_usage_error(core: str, blocked: str, said: str) -> None:
    done = _run(COMMAND, core, blocked)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.startswith(f"urlsift: {said}")
    assert done.stderr.endswith(f"; {TAKES}\n")
    assert done.stderr.count("\n") == 1, done.stderr
    library = _run(LIBRARY, core, blocked)
    name, message = library.stdout.splitlines()
    assert (name, library.returncode) == ("urlsift._select", 0), library.stderr
    assert message == done.stderr.removeprefix("urlsift: ").rstrip("\n")


def test_the_installed_command_is_the_one_that_reports_it() -> None:
    done = subprocess.run(
        [Path(sys.executable).with_name("urlsift"), "-"],
        input="",
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "URLSIFT_CORE": "bogus"},
    )
    assert (done.returncode, done.stderr) == (2, f"urlsift: URLSIFT_CORE='bogus' names no core; {TAKES}\n")


@pytest.mark.parametrize("arguments", [["--version"], ["-"]])
def test_python_dash_m_refuses_it_the_same_way(arguments: list[str]) -> None:
    # The package is imported while ``-m`` looks for its __main__, before the command line runs.
    done = subprocess.run(
        [sys.executable, "-m", "urlsift", *arguments],
        input="",
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "URLSIFT_CORE": "bogus"},
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"urlsift: URLSIFT_CORE='bogus' names no core; {TAKES}\n"


def test_a_broken_install_keeps_its_traceback() -> None:
    # A module of the install missing: not the user's choice. (Not a dependency: a plain run imports
    # none of them at its start, each being loaded when first needed.)
    done = _run(COMMAND, "python", blocked="urlsift.scanner")
    assert done.returncode == 1
    assert "Traceback" in done.stderr
    assert "ModuleNotFoundError" in done.stderr or "ImportError" in done.stderr


@pytest.mark.parametrize("core", ["", "python", "rust"])
def test_a_core_that_runs_runs(core: str) -> None:
    if core == "rust" and _select.NATIVE is None:
        pytest.skip("the native core is not built (pip install -e .) or URLSIFT_CORE=python")
    done = _run(COMMAND, core)
    assert (done.returncode, done.stdout, done.stderr) == (0, "http://example.com/\n", "")


INTERRUPTED_IMPORT = """
import builtins, sys
imported = builtins.__import__
def interrupted(name, *args, **kwargs):
    if name == "urlsift.cli":
        raise KeyboardInterrupt
    return imported(name, *args, **kwargs)
builtins.__import__ = interrupted
from _urlsift_command import main
sys.exit(main())
"""


def test_ctrl_c_while_the_package_is_imported_says_interrupted_not_a_traceback() -> None:
    done = _run(INTERRUPTED_IMPORT, "python")
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "urlsift: interrupted\n")


# What the import makes lives as long as the process: the command freezes it (no collection walks
# it again, nor the one at exit) and collects as before afterwards (cold3, issue 31).
FROZEN = """
import gc, runpy, sys
import urlsift.cli
urlsift.cli.main = lambda: print(gc.get_freeze_count() > 1000, gc.isenabled()) or 0
{start}
"""


@pytest.mark.parametrize(
    "start",
    [
        "from _urlsift_command import main; sys.exit(main())",  # the urlsift command
        "runpy.run_module('urlsift', run_name='__main__')",  # python -m urlsift
    ],
)
def test_the_command_freezes_its_import_and_then_collects(start: str) -> None:
    program = FROZEN.format(start=start)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "True True\n", "")
