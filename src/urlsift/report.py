"""``urlsift report PATH... -o report.html`` (issue 33): an archive's links as one HTML page.

The command line (``cli``) parses the command and plans the scan as its own (the same inputs and
options); here the plan is executed and its rows go batch by batch, as Arrow tables
(``Batch.to_arrow``), into a Parquet dataset (a temporary folder, or ``--dataset DIR``), its
reports and counts beside them; then
``report_data`` asks DuckDB for the page's figures and ``report_page`` draws it. No row is ever a
Python object here, so memory holds a batch, not an archive. ``--from DATASET`` makes the page of
a dataset written before (``urlsift --format parquet``, ``--format jsonl``, ``--dataset``).

DuckDB and matplotlib are the ``report`` extra (pyarrow the ``parquet`` one, which it includes):
imported only when a page is made, so ``urlsift --help`` and the man page need none of them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import asdict
from functools import partial
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .errors import MissingExtra
from .escaping import escaped
from .execute import execute
from .plan import Plan
from .progress import Progress
from .report_data import REPORTS_FOLDER, Run
from .rows import Filters, Tally

if TYPE_CHECKING:
    import pyarrow
    import pyarrow.parquet

    from .batches import Batch

TOP = 20
"""``--top``'s default: the length of every list on the page."""
MAX_TOP = 1000
"""``--top``'s most: past it the page is a row dump, not a summary."""
MEMORY = 500 * 10**6
"""``--memory``'s default: what DuckDB may hold before it spills to disk; the rest of the process
(Python, matplotlib, a batch of the scan) stays under 300 MB beside it."""


def check_extras() -> None:
    """MissingExtra (one line, naming ``report``) when DuckDB or matplotlib is not installed."""
    for module in ("duckdb", "matplotlib", "pyarrow"):
        try:
            __import__(module)
        except ImportError as error:
            raise MissingExtra(f"urlsift report needs {module} ({error})", "report") from None


@contextlib.contextmanager
def _terminated_as_interrupted() -> Iterator[None]:
    """SIGTERM (kill, a job's timeout) raises KeyboardInterrupt, as Ctrl-C does, so that the
    temporary dataset is removed on the way out."""

    def interrupt(number: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        before = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # (not the main thread: a library's caller keeps its own handlers)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


@contextlib.contextmanager
def dataset_folder(kept: str | None) -> Iterator[str]:
    """``--dataset DIR`` (new or empty), or a temporary folder removed at the end."""
    if kept is None:
        with _terminated_as_interrupted(), tempfile.TemporaryDirectory(prefix="urlsift-report-") as directory:
            yield directory
        return
    if os.path.isdir(kept) and os.listdir(kept):
        raise FileExistsError(f"{kept}: the dataset folder is not empty")
    os.makedirs(kept, exist_ok=True)
    yield kept


class _Dataset:
    """The rows of a scan as Parquet files (``part-00000.parquet`` ..., as ``--format parquet``
    writes them: ``parquet.FILE_ROWS`` rows a file) and its reports in ``reports/``, written a
    batch at a time; with ``schemes``, only the rows of those schemes (``--schemes LIST``, as
    a scan prints them)."""

    def __init__(self, directory: str, schemes: frozenset[str] | None = None) -> None:
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        from .parquet import FILE_ROWS, SCHEMA

        self.pa, self.pq, self.schema = pa, pq, SCHEMA
        self.kept = None if schemes is None else partial(pc.is_in, value_set=pa.array(sorted(schemes)))
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

    def add(self, batch: Batch, say: _Said) -> bool:
        """The batch's rows and reports written (and ``say``-d); whether one of its reports lost input."""
        if len(batch):
            table = batch.to_arrow()
            if self.kept is not None:  # (a row with no scheme is left out, as the scan leaves it)
                table = table.filter(self.kept(table["scheme"]))
            self._rows(table)
        reports = batch.reports
        if not reports.place:
            return False
        lost = False
        for _, place, kind, detail, lost_input, *_ in zip(*reports, strict=True):
            lost = say(place, kind, detail, lost_input) or lost
        from .parquet import column

        kinds = self.report_schema.types
        columns: tuple[Any, ...] = reports[1:]
        table = self.pa.Table.from_arrays(
            [column(list(values), kind) for values, kind in zip(columns, kinds, strict=True)],
            schema=self.report_schema,
        )
        self.reports.write_table(table)
        return lost

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


class _Said:
    """The problems met, said on standard error as a scan says them (D37): each that lost input,
    and a file's first warning of each kind, then how many more of that kind it had; a binary
    file met in a folder (not ``named``) is skipped unsaid, as ripgrep skips it, and is no failure."""

    def __init__(self, bar: Progress, named: Callable[[str], bool]) -> None:
        self.bar, self.named = bar, named
        self.file: str | None = None
        self.warned: dict[tuple[str, str], int] = {}

    def __call__(self, place: str, kind: str, detail: str, lost_input: bool) -> bool:
        """Whether it lost input, as the exit status counts it."""
        if kind == "binary" and place == self.file and not self.named(place):
            return False
        key = (place.rsplit("#", 1)[0], kind)
        seen = self.warned.get(key, 0)
        if not lost_input:
            self.warned[key] = seen + 1
            if seen:
                return False
        self.bar.say(f"urlsift: {escaped(place)}: {kind}: {escaped(detail)}")
        return lost_input

    def file_done(self) -> None:
        for (file, kind), count in self.warned.items():
            if count > 1:
                more = "warning" if count == 2 else "warnings"
                self.bar.say(
                    f"urlsift: {escaped(file)}: {kind}: {count - 1:,} more {more} of this kind in this file "
                    "(on the page)"
                )
        self.warned.clear()


def scan_to(
    directory: str,
    planned: Plan,
    command: str,
    *,
    size: int | None,
    progress: bool,
    schemes: frozenset[str] | None = None,
    named: Callable[[str], bool] = lambda path: True,
) -> bool:
    """The run of ``planned`` written to ``directory`` (rows, reports, ``run.json``), with a
    progress bar on a terminal (``size``: the bytes to read, when known), keeping the rows of
    ``schemes`` only (None: all); whether some input could not be read (``named``: whether a
    file was named, not met in a folder)."""
    total = Tally()
    lost = False
    dataset = _Dataset(directory, schemes)
    try:
        with Progress(size, enabled=progress and sys.stderr.isatty()) as bar:
            said = _Said(bar, named)
            for path, batches, file_tally in execute(planned, bar.watch):
                said.file = path
                for batch in bar.batches(batches, file_tally):
                    lost = dataset.add(batch, said) or lost
                said.file_done()
                total.add(file_tally)
                bar.done(file_tally)
                if planned.state is not None and path is not None and not file_tally.files_failed:
                    planned.state.done(path)
    finally:
        dataset.close()
    if planned.state is not None:
        planned.state.save()
    Run(planned.options.profile, command, __version__, asdict(total)).save(directory)
    return lost


def write_page(
    dataset: str,
    output: str,
    *,
    profile: str,
    top: int,
    memory: int,
    title: str,
    command: str,
    kept: Filters | None = None,
    schemes: frozenset[str] | None = None,
) -> None:
    """The page of ``dataset`` (``report_data.figures``, of the rows ``kept`` keeps of ``schemes``)
    written to ``output``."""
    check_extras()
    from . import report_data, report_page  # (DuckDB and matplotlib: with the page only)

    figures = report_data.figures(
        dataset, profile=profile, top=top, memory=memory, kept=kept, schemes=schemes
    )
    page = report_page.page(figures, title=title, command=command)
    if output == "-":
        sys.stdout.write(page)
        sys.stdout.flush()
        return
    with open(output, "w", encoding="utf-8") as out:
        out.write(page)
