"""The project's own promises: README's test command is what CI runs; the flow goes one way."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "urlsift"


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^```sh\n(.+?)\n```", text, flags=re.MULTILINE | re.DOTALL)


def test_ci_runs_the_readme_test_command() -> None:
    commands = _readme_commands()
    assert len(commands) >= 2, "README opens with the main-job command and the test command"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci


def test_main_job_command_uses_a_corpus_file_that_exists() -> None:
    main_job = _readme_commands()[0]
    for path in re.findall(r"corpora/\S+", main_job):
        assert (ROOT / path.rstrip(")'\";")).exists(), path


def _imports(path: Path, functions: bool | None = None) -> set[str]:
    """The urlsift modules ``path`` imports: anywhere in it, or (``functions`` True or False) only
    inside functions or only outside them."""
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside = {
        id(node)
        for function in ast.walk(tree)
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
        for node in ast.walk(function)
    }
    for node in ast.walk(tree):
        if functions is not None and (id(node) in inside) != functions:
            continue
        if isinstance(node, ast.ImportFrom) and node.level:
            base = path.parent.relative_to(PACKAGE).parts[
                : len(path.parent.relative_to(PACKAGE).parts) - node.level + 1
            ]
            found.add(".".join((*base, node.module or "")).strip("."))
            if node.module is None:  # "from . import rfc1738": the names are the modules
                found.update(".".join((*base, alias.name)) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("urlsift"):
            found.add(node.module.removeprefix("urlsift").strip("."))
    return found


def test_the_core_does_no_io_and_the_grammar_knows_no_later_stage() -> None:
    for path in (PACKAGE / "grammar").glob("*.py"):
        imported = _imports(path)
        assert not any(name.startswith(("validate", "cli")) for name in imported), (path, imported)
        assert "open(" not in path.read_text(encoding="utf-8"), path
    for name in ("validate.py", "_model.py"):
        text = (PACKAGE / name).read_text(encoding="utf-8")
        assert "open(" not in text
        assert "import cli" not in text
    assert "cli" not in _imports(PACKAGE / "validate.py")


STAGES = frozenset(path.stem for path in PACKAGE.glob("*.py")) | {"grammar", "sources"}
"""Every top-level module and package of urlsift."""
NOTHING = STAGES
"""For the modules that import nothing of urlsift (the records every stage shares)."""

RESULTS = {"results", "rows", "matches", "pieces", "around", "_native_rows", "_native_mail"}
"""The results stage's modules."""
PRINTING = {"cli", "output", "progress", "dask", "parquet", "workers", "batches"}
"""What comes after the results stage."""

LATER_STAGES = {
    # module: the stages it must not import (it would reach forward, or back past its input)
    "_model.py": NOTHING,
    "_lines.py": NOTHING,
    # The public face names what it offers; the archive-reading stages come to it through
    # ``library`` (urlsift.scan, extract_message), which may use them all but the command line's.
    "__init__.py": {"cli", "output", "results", "units", "workers", "dask", "parquet", "progress", "sources"},
    "library.py": {"cli", "progress", "parquet", "dask", "__init__"},
    # Results as columns (issue 29): the results stage's events as batches, what every way of
    # running executes and the writers take; pyarrow's only in a method.
    "batches.py": {
        "cli",
        "progress",
        "dask",
        "library",
        "__init__",
        "output",
        "workers",
        "pieces",
        "execute",
    },
    "__main__.py": STAGES - {"cli"},
    "scanner.py": {
        "rejoin",
        "validate",
        "extract",
        "cli",
        "canonical",
        "stream",
        "results",
        "rows",
        "matches",
        "pieces",
        "output",
        "units",
    },
    "rejoin.py": {"scanner", "validate", "extract", "cli", "grammar"},
    "validate.py": STAGES - {"_model", "grammar", "_select"},
    "extract.py": {
        *("cli", "canonical", "stream", "sources", "results", "rows", "matches", "pieces", "output"),
        *("units", "workers", "dask"),
    },
    "shapes.py": STAGES - {"_model", "_iana", "grammar", "_select"},  # (the core's shapes, when it runs)
    "flowed.py": STAGES - {"_model", "_lines"},
    "_iana.py": NOTHING,
    "_version.py": NOTHING,
    "_select.py": NOTHING,  # which core runs (issue 31): the native module is no stage
    "_punctuation.py": NOTHING,  # the Python scanner's table, rendered by _unicode_tables
    "_unicode_tables.py": NOTHING,  # renders rust/core/src/scan_tables.rs from this Python's str (issue 31)
    "_html_tables.py": NOTHING,  # renders rust/core/src/mime/html_tables.rs from html (issue 32)
    "errors.py": NOTHING,  # the exceptions every stage may raise (issue 29)
    "canonical.py": {
        *("scanner", "rejoin", "extract", "stream", "cli", "sources", "results", "rows", "matches"),
        *("pieces", "output"),
    },
    "stream.py": {"cli", *RESULTS, "output", "units", "workers", "dask", "parquet", "progress"},
    # The results stage: its records (rows), a message's matches, a file's or unit's results, pieces joined.
    "rows.py": PRINTING | RESULTS - {"rows"} | {"units", "around", "dates"},
    "around.py": PRINTING | RESULTS | {"units", "extract", "stream", "sources"},
    "dates.py": NOTHING,
    # A valid URL's host columns (D38): from its verdict's parts; nothing of the stages after.
    "hosts.py": STAGES - {"_model", "grammar", "_select"},  # (the core's Public Suffix List, when it runs)
    "escaping.py": NOTHING,
    # The text output's file names and colour (D37): escaping only; the writers call it.
    "marks.py": STAGES - {"escaping"},
    "matches.py": PRINTING | RESULTS - {"matches", "rows"} | {"units"},
    # A plain text's rows as the native core fills them: the records, the extraction and the hosts.
    "_native_rows.py": PRINTING | RESULTS - {"rows", "_native_rows", "around"} | {"units", "sources"},
    # An mbox's messages' rows as the core makes them (issue 32): the plain text's columns, the bytes.
    "_native_mail.py": PRINTING | RESULTS - {"rows", "_native_rows", "_native_mail"} | {"units"},
    "results.py": PRINTING | {"pieces"},
    "pieces.py": PRINTING - {"batches"} | {"results", "matches"},
    "output.py": {"cli", "scanner", "rejoin", "validate", "extract", "sources", "units", "workers", "dask"}
    | RESULTS - {"rows"},
    "units.py": {"cli", "output", "progress", *RESULTS, "dask", "parquet", "extract", "validate", "workers"},
    "parquet.py": {"cli", "scanner", "rejoin", "validate", "extract", "sources", "units"}
    | RESULTS - {"rows"},
    "_work.py": {"cli", "output", "progress", "parquet", "workers", "dask"},
    "workers.py": {"cli", "output", "progress", "parquet", "scanner", "rejoin", "extract", "sources"},
    # workers imports dask (for a cluster): dask may not import it back
    "dask.py": {"cli", "progress", "workers"},
    "progress.py": {"cli", "output", "parquet", "workers", "dask", "results", "matches", "pieces"},
    # What a run reads (plan) and the one way it is run (execute): the faces' shared stage.
    "plan.py": {"cli", "output", "progress", "parquet", "dask", "workers", "library", "__init__", "execute"},
    "execute.py": {"cli", "output", "progress", "parquet", "dask", "library", "__init__"},
    "cli.py": {"__main__"},
    # urlsift report (issue 33): a run executed into a Parquet dataset (report), summed up by DuckDB
    # (report_data) and drawn (report_page); the command line plans it and calls it.
    "report.py": {"cli", "output", "workers", "dask", "library", "__init__"}
    | {"scanner", "rejoin", "extract", "validate", "results", "sources", "units"},
    "report_data.py": {"cli", "output", "progress", "workers", "dask", "library", "__init__", "report"}
    | {"report_page"}
    | {"execute", "plan", "scanner", "rejoin", "extract", "results", "sources", "units", "batches"},
    "report_page.py": STAGES - {"_version", "report_data"},
    # The man page and completions, made from the parsers cli.py hands it: it needs no stage.
    "manual.py": STAGES - {"_version"},
    # The grammar knows the records and itself only.
    **{
        f"grammar/{path.name}": STAGES - {"_model", "grammar", "_select"}
        for path in (PACKAGE / "grammar").glob("*.py")
    },
    # Sources come first in the flow: they hand text on and know nothing of what is done with it.
    **{
        f"sources/{name}": {"cli", "scanner", "rejoin", "validate", "extract", "stream", "output", "results"}
        | {"rows", "matches", "pieces"}
        for name in (
            *("__init__.py", "mbox.py", "batch.py", "mime.py", "packed.py", "dirs.py", "split.py"),
            "faults.py",
            "archives.py",
            "page.py",
            "warc.py",
            "codings.py",
            "jsonl.py",
            "publicinbox.py",
            "kinds.py",
        )
    },
}
LAZY = {
    # module: the later stages it imports inside a function, where one is used, and nowhere else:
    # a record's derived form is worked out by a later stage (issue 29: no registry written at import).
    "_model.py": {"grammar.iri", "canonical"},  # Verdict.uri, Match.canonical
}


READS_FILES = {
    "sources/__init__.py",  # the I/O stage: it opens the files
    "sources/archives.py",  # and zip and tar members
    "sources/publicinbox.py",  # and public-inbox repositories (through git), and --state's file
    "cli.py",  # the command line: it points stdout at os.devnull once the reader has gone
    "report.py",  # urlsift report: its page, and its dataset's run.json
    "report_data.py",  # and reads the run.json back
    "hosts.py",  # the publicsuffixlist package's own copy of the list (its ASCII rules read alone)
}


@pytest.mark.parametrize("name", sorted(LATER_STAGES))
def test_each_stage_imports_only_what_comes_before_it(name: str) -> None:
    lazy = LAZY.get(name, set())
    assert lazy <= _imports(PACKAGE / name, functions=True), "a lazy import named here is not in a function"
    at_top = _imports(PACKAGE / name, functions=False)
    assert not at_top & lazy, (name, "imports at its top what it may only import lazily")
    imported = {module.split(".")[0] for module in at_top | _imports(PACKAGE / name, functions=True) - lazy}
    assert not imported & LATER_STAGES[name], (name, imported)
    text = (PACKAGE / name).read_text(encoding="utf-8")
    assert name in READS_FILES or "open(" not in text, f"{name} opens files"


def test_every_module_has_its_place_in_the_layers() -> None:
    modules = {str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")}
    assert modules == set(LATER_STAGES)


def _edges(path: Path) -> set[str]:
    """The urlsift modules ``path`` imports, anywhere in it (in functions, under TYPE_CHECKING), as
    dotted names relative to the package; ``from . import x`` imports x, not the package."""
    here = path.relative_to(PACKAGE).with_suffix("").parts
    package = here[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[: len(package) - node.level + 1]
        elif node.module and node.module.startswith("urlsift"):
            base = ()
            node = ast.ImportFrom(node.module.removeprefix("urlsift").strip(".") or None, node.names, 1)
        else:
            continue
        if node.module:
            found.add(".".join((*base, *node.module.split("."))))
        else:
            found.update(".".join((*base, alias.name)) for alias in node.names)
    return found


def _module_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        graph[name] = _edges(path)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import cycle of ``graph``, as the modules along it; None when there is none."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for other in sorted(graph.get(name, ())):
            if state.get(other) == 1:
                return [*path[path.index(other) :], other]
            if other not in state and (found := visit(other)) is not None:
                return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (found := visit(name)) is not None:
            return found
    return None


def test_the_records_reach_a_later_stage_only_where_the_layers_name_it() -> None:
    # Nothing is written into the records' module from outside it (the registry issue 29 removed).
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\bLATER\.\w+\s*=", text), path
    assert _imports(PACKAGE / "_model.py") == LAZY["_model.py"]


def test_no_module_imports_itself_through_others() -> None:
    graph = _module_graph()
    assert LAZY["_model.py"] <= graph["_model"]  # (the graph sees them)
    graph["_model"] -= LAZY["_model.py"]  # a lazy import, in the method that needs it, is no cycle
    assert {"dask", "workers", "_work", "grammar.strict"} <= set(graph)
    assert "dask" in graph["workers"]  # the graph sees imports inside functions
    assert _cycle(graph) is None
    assert _cycle({**graph, "_work": graph["_work"] | {"dask"}}) == ["_work", "dask", "_work"]


def test_py_typed_is_shipped() -> None:
    assert (PACKAGE / "py.typed").exists()


def test_the_strict_grammar_knows_nothing_of_the_modern_one() -> None:
    """D29: the modern profile lives in modules of its own; no "if profile == ..." in strict."""
    modern = {"grammar.rfc3986", "grammar.schemes", "grammar.modern", "grammar.iri"}
    for name in ("rfc1738.py", "strict.py", "_bnf.py", "_chars.py", "_profile.py", "_shared.py"):
        imported = _imports(PACKAGE / "grammar" / name)
        assert not imported & modern, (name, imported)
    assert "grammar.rfc3986" in _imports(PACKAGE / "grammar" / "modern.py")  # (the check sees them)
    for name in ("rfc3986.py", "schemes.py", "modern.py", "iri.py"):
        assert not {"grammar.rfc1738", "grammar.strict"} & _imports(PACKAGE / "grammar" / name), name
