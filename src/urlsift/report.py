"""``urlsift report PATH... -o report.html`` (issue 33): an archive's links as one HTML page.

The scan's inputs and options are the command line's own (``cli.scan_options``, ``plan.build``,
``execute``); its rows go batch by batch, as Arrow tables (``Batch.to_arrow``), into a Parquet
dataset (a temporary folder, or ``--dataset DIR``), its reports and counts beside them; then
``report_data`` asks DuckDB for the page's figures and ``report_page`` draws it. No row is ever a
Python object here, so memory holds a batch, not an archive. ``--from DATASET`` makes the page of
a dataset written before (``urlsift --format parquet``, ``--format jsonl``, ``--dataset``).

DuckDB and matplotlib are the ``report`` extra (pyarrow the ``parquet`` one, which it includes):
imported only when a page is made, so ``urlsift --help`` and the man page need none of them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import sys
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from . import cli
from ._version import __version__
from .errors import MissingExtra
from .execute import execute
from .grammar import PROFILES
from .progress import Progress
from .rows import Options, Tally

if TYPE_CHECKING:
    import pyarrow
    import pyarrow.parquet

    from .batches import Batch

RUN_FILE = "run.json"
"""A dataset's record of the run that wrote it: the counts (``Tally``), the profile, the command."""
REPORTS_FOLDER = "reports"
"""A dataset's reports (``rows.Report``'s columns), in a folder of their own: a query of the rows'
``DIR/*.parquet`` never meets them."""
TOP = 20
"""``--top``'s default: the length of every list on the page."""
MEMORY = 500 * 10**6
"""``--memory``'s default: what DuckDB may hold before it spills to disk; the rest of the process
(Python, matplotlib, a batch of the scan) stays under 300 MB beside it."""

_SHARED_GROUPS = ("what to find", "what to keep", "how to read")
"""The scan's option groups a report takes as they are."""
_NOT_SHARED = frozenset({"invalid", "unique"})
"""Scan options that mean nothing to a report: it always keeps the rejected candidates, counts
every URL."""

_DESCRIPTION = (
    "Scan PATHs as 'urlsift PATH...' does (the same inputs, and the options of its 'what to find', "
    "'what to keep' and 'how to read' groups) and write one HTML page of what their links are: totals, "
    "URLs and hosts per year, top hosts and domains overall and per decade, schemes, headers and "
    "bodies, what the strict profile rejects and why (and what the modern profile would take), quote "
    "depth, the most cited URLs with their Wayback addresses, and the problems met. The page needs no "
    "network and prints well. The rows go to a Parquet dataset (a temporary one unless --dataset DIR) "
    "that DuckDB sums up, so an archive of any size fits in bounded memory; --from DATASET makes the "
    "page of a dataset written before. Needs urlsift[report]. Exit status: 0 when the page is written, "
    "2 if something could not be read (the page is still written) or it could not be."
)

_EXAMPLES = """\
examples:
  urlsift report -o lists.html ~/Mail/lists/
      the page of a folder of mbox files
  urlsift report -j 4 --dataset urls/ -o lists.html lists/
      four processes; the rows kept in urls/ for DuckDB (and for --from)
  urlsift report --from urls/ --top 50 -o lists.html
      the page again from the rows kept, with longer lists
  urlsift --format jsonl --invalid lists/ > urls.jsonl && urlsift report --from urls.jsonl -o lists.html
      the page of a scan's JSON lines"""


def report_parser() -> argparse.ArgumentParser:
    """The parser of ``urlsift report``: the scan's groups of options that say what is read and
    found (the very same actions: one help text each), and the report's own."""
    parser = cli._command(
        "urlsift report",
        _DESCRIPTION,
        "PATH",
        "a file or folder, or - for standard input (as urlsift PATH...)",
        sorted(PROFILES),
        nargs="*",
        epilog=_EXAMPLES,
    )
    for action in parser._actions:
        if action.dest == "profile":
            action.help = (
                "strict: RFC 1738 as written (default); modern: RFC 3986/3987 and later; with --from: the "
                "profile the dataset was scanned with"
            )
    for group in cli._scan_parser()._action_groups:
        if group.title in _SHARED_GROUPS:
            shared = parser.add_argument_group(group.title)
            for action in group._group_actions:
                if action.dest not in _NOT_SHARED:
                    shared._add_action(action)
    own = parser.add_argument_group("the report")
    own.add_argument(
        "-o", "--output", metavar="FILE", required=True, help="the HTML page to write (replaced if it exists)"
    )
    own.add_argument(
        "--from",
        dest="dataset_in",
        metavar="DATASET",
        help="make the page of a dataset written before instead of scanning: a folder of Parquet files "
        "(--format parquet --output DIR, or --dataset DIR), one Parquet file, or a JSON-lines file "
        "(--format jsonl; with --invalid, so that rejected candidates are in it)",
    )
    own.add_argument(
        "--dataset",
        metavar="DIR",
        help="keep the scan's rows in DIR (new or empty): Parquet files as --format parquet writes them, "
        "with the problems met in DIR/reports/ and the run's counts in DIR/run.json",
    )
    own.add_argument(
        "--top", type=cli._count, default=TOP, metavar="N", help=f"N entries in each list (default {TOP})"
    )
    own.add_argument("--title", metavar="TEXT", help="the page's title (default: what was read)")
    own.add_argument(
        "--memory",
        type=cli._positive_size,
        default=MEMORY,
        metavar="SIZE",
        help="the memory DuckDB may use before it spills to a temporary folder (default 500M)",
    )
    own.add_argument("--no-progress", action="store_true", help="no progress bar on a terminal")
    # What the scan's options that a report does not take would say (cli.scan_options reads them).
    parser.set_defaults(invalid=True, stats=False, context=None, wayback=False)
    return parser


@dataclass(frozen=True)
class Run:
    """What ``DIR/run.json`` records of the scan that wrote a dataset."""

    profile: str
    command: str
    version: str
    tally: dict[str, int]

    def save(self, directory: str) -> None:
        with open(os.path.join(directory, RUN_FILE), "w", encoding="utf-8") as out:
            json.dump(asdict(self), out, indent=1)

    @classmethod
    def load(cls, directory: str) -> Run | None:
        path = os.path.join(directory, RUN_FILE)
        if not os.path.isfile(path):
            return None
        with open(path, encoding="utf-8") as held:
            found = json.load(held)
        return cls(str(found["profile"]), str(found["command"]), str(found["version"]), dict(found["tally"]))


def run_report(arguments: list[str]) -> int:
    """``urlsift report ...``: the page written, and the exit status."""
    parser = report_parser()
    args = parser.parse_args(arguments)
    command = shlex.join(["urlsift", "report", *arguments])
    if args.dataset_in is not None:
        if args.paths or args.dataset is not None or args.files_from is not None:
            parser.error("--from reads a dataset written before: no PATH, --files-from or --dataset with it")
        return _page_of(args.dataset_in, args, command)
    if not args.paths and args.files_from is None:
        if not cli._stdin_readable():
            parser.error(
                "the following arguments are required: PATH (or --files-from FILE, or --from DATASET)"
            )
        args.paths = ["-"]
    _extras()  # before the scan, not after it
    options = replace(cli.scan_options(args), invalid=True, second_opinion=None)
    with _folder(args.dataset) as directory:
        with cli._paths(args) as paths:
            lost = _scan_to(directory, paths, options, args, command)
        status = _page_of(directory, args, command)
    return 2 if lost else status


def _extras() -> None:
    """MissingExtra (one line, naming ``report``) when DuckDB or matplotlib is not installed."""
    for module in ("duckdb", "matplotlib", "pyarrow"):
        try:
            __import__(module)
        except ImportError as error:
            raise MissingExtra(f"urlsift report needs {module} ({error})", "report") from None


@contextlib.contextmanager
def _folder(kept: str | None) -> Iterator[str]:
    """``--dataset DIR`` (new or empty), or a temporary folder removed at the end."""
    if kept is None:
        with tempfile.TemporaryDirectory(prefix="urlsift-report-") as directory:
            yield directory
        return
    if os.path.isdir(kept) and os.listdir(kept):
        raise cli._Refused(f"{kept}: the dataset folder is not empty")
    os.makedirs(kept, exist_ok=True)
    yield kept


class _Dataset:
    """The rows of a scan as Parquet files (``part-00000.parquet`` ..., as ``--format parquet``
    writes them: ``parquet.FILE_ROWS`` rows a file) and its reports in ``reports/``, written a
    batch at a time."""

    def __init__(self, directory: str) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        from .parquet import FILE_ROWS, SCHEMA

        self.pa, self.pq, self.schema = pa, pq, SCHEMA
        self.directory, self.file_rows = directory, FILE_ROWS
        self.files = self.in_file = 0
        self.rows: pyarrow.parquet.ParquetWriter | None = None
        os.makedirs(os.path.join(directory, REPORTS_FOLDER), exist_ok=True)
        self.report_schema = pa.schema(
            [
                ("place", pa.string()),
                ("kind", pa.string()),
                ("detail", pa.string()),
                ("lost_input", pa.bool_()),
                ("message", pa.int64()),
                ("line", pa.int64()),
            ]
        )
        name = os.path.join(directory, REPORTS_FOLDER, "part-00000.parquet")
        self.reports = pq.ParquetWriter(name, self.report_schema)

    def add(self, batch: Batch) -> bool:
        """The batch's rows and reports written; whether one of its reports lost input."""
        if len(batch):
            self._rows(batch.to_arrow())
        reports = batch.reports
        if not reports.place:
            return False
        from .parquet import column

        kinds = self.report_schema.types
        columns: tuple[Any, ...] = reports[1:]
        table = self.pa.Table.from_arrays(
            [column(list(values), kind) for values, kind in zip(columns, kinds, strict=True)],
            schema=self.report_schema,
        )
        self.reports.write_table(table)
        return any(reports.lost_input)

    def _rows(self, table: pyarrow.Table) -> None:
        if self.rows is None:
            name = os.path.join(self.directory, f"part-{self.files:05}.parquet")
            self.rows = self.pq.ParquetWriter(name, self.schema)
            self.files += 1
        self.rows.write_table(table)
        self.in_file += table.num_rows
        if self.in_file >= self.file_rows:
            self.rows.close()
            self.rows, self.in_file = None, 0

    def close(self) -> None:
        """The files finished; a scan with no row leaves one file with none (and the columns), so
        that a query of the folder still runs."""
        if self.files == 0:
            self._rows(self.schema.empty_table())
        if self.rows is not None:
            self.rows.close()
        self.reports.close()


def _scan_to(
    directory: str, paths: Iterable[str], options: Options, args: argparse.Namespace, command: str
) -> bool:
    """The scan of ``paths`` written to ``directory``; whether some input could not be read."""
    planned = cli.planned_run(paths, options, args)
    for note in planned.notes:
        print(f"urlsift: {note}", file=sys.stderr)
    total = Tally()
    lost = False
    dataset = _Dataset(directory)
    size = None if args.files_from is not None else cli._total_size(args.paths)
    try:
        with Progress(size, enabled=not args.no_progress and sys.stderr.isatty()) as bar:
            for path, batches, file_tally in execute(planned, bar.watch):
                for batch in bar.batches(batches, file_tally):
                    lost = dataset.add(batch) or lost
                total.add(file_tally)
                bar.done(file_tally)
                if planned.state is not None and path is not None and not file_tally.files_failed:
                    planned.state.done(path)
    finally:
        dataset.close()
    if planned.state is not None:
        planned.state.save()
    Run(options.profile, command, __version__, asdict(total)).save(directory)
    return lost


def _page_of(dataset: str, args: argparse.Namespace, command: str) -> int:
    """The page of ``dataset`` written to ``--output``."""
    _extras()
    from . import report_data, report_page

    try:
        figures = report_data.figures(dataset, profile=args.profile, top=args.top, memory=args.memory)
    except report_data.NoDataset as error:
        raise cli._Refused(str(error)) from None
    title = args.title or _title(args, dataset)
    page = report_page.page(figures, title=title, command=command)
    try:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(page)
    except OSError as error:
        raise cli._OutputError(f"{args.output}: {error.strerror or error}") from None
    return 0


def _title(args: argparse.Namespace, dataset: str) -> str:
    named = [*args.paths] if args.dataset_in is None else [dataset]
    shown = ", ".join(os.path.basename(os.path.normpath(path)) or path for path in named[:3])
    more = f" and {len(named) - 3:,} more" if len(named) > 3 else ""
    return f"The links of {shown}{more}" if shown else "The links of an archive"
