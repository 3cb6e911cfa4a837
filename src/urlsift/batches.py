"""A unit's or a run's results as columns (issue 29, items 2 and 4): a ``Batch`` holds a messages
table (where each message lies: held once, however many URLs it has), a texts table (which message,
which part), a matches table (one entry per row ``urlsift.scan`` gives, pointing at its text), the
reports, and the tally. Columns are plain lists and ``array``s: no pyarrow is needed to make one;
``Batch.to_arrow`` and the Arrow PyCapsule stream protocol (``__arrow_c_stream__``) hand them to
pyarrow, pandas, polars or DuckDB without a Python object per row.

For now a batch is made from the events of the results stage (``results.unit_pieces``, the rows and
reports a worker makes), so ``Batch.to_rows`` gives back exactly what ``urlsift.scan`` gives; a
core that fills the columns itself (issue 29's next step) keeps this face.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

from ._model import DefectKind, Wrapper
from .errors import MissingExtra
from .output import Printing
from .results import unit_pieces
from .rows import Event, Options, Report, Row, Tally
from .units import Unit

if TYPE_CHECKING:
    import pyarrow

    from .execute import Scanned

BATCH_ROWS = 1 << 16
"""``scan_batches`` hands a batch on once it holds this many rows and reports (a batch may hold
several small files, or part of a big one)."""


class Messages(NamedTuple):
    """Where each message (or plain text, ``message`` None) of a batch lies: one entry each."""

    source: list[str]
    member: list[str | None]
    message: list[int | None]
    offset: list[int | None]
    message_id: list[str | None]
    date: list[str | None]
    """In UTC, ISO 8601 (``Row.date``)."""
    newsgroups: list[str | None]
    date_header: list[str | None]
    """The Date as written (``Row.date_header``)."""


class Texts(NamedTuple):
    """The texts of a batch that hold a row: the message each is in (an index into ``Messages``)
    and its part (a header's name, a MIME part's index and type; None for a plain text)."""

    message: array[int]
    part: list[str | None]


class Matches(NamedTuple):
    """One entry per row (``rows.Row``'s columns that are not its text's or message's): ``text``
    is an index into ``Texts``. ``naked`` is not held (it is ``wrapper`` None); ``position`` and
    ``production`` are a rejected candidate's ``error`` apart (``Problem``: where, and which
    production could not be read there), None for a valid URL."""

    text: array[int]
    url: list[str]
    alternatives: list[tuple[str, ...]]
    valid: list[bool]
    scheme: list[str | None]
    wrapper: list[Wrapper | None]
    line: array[int]
    column: array[int]
    start: array[int]
    end: array[int]
    quote_depth: array[int]
    error: list[str | None]
    position: list[int | None]
    production: list[str | None]
    canonical: list[str | None]
    count: list[int | None]  # type: ignore[assignment]  # the column's name; tuple.count is hidden
    context: list[str | None]
    wayback: list[str | None]
    host: list[str | None]
    host_unicode: list[str | None]
    registered_domain: list[str | None]
    surt: list[str | None]


class Reports(NamedTuple):
    """The reports (``rows.Report``'s columns), and where each came among the rows: ``before``
    rows of the batch came before it."""

    before: array[int]
    place: list[str]
    kind: list[DefectKind]
    detail: list[str]
    lost_input: list[bool]
    message: list[int | None]
    line: list[int | None]


@dataclass(frozen=True, eq=False)
class Batch:
    """Rows and reports as columns, normalised: see the module's docstring. ``len(batch)`` is its
    number of rows; ``tally`` counts the files (and folder entries) whose reading ended in it, so
    the tallies of a run's batches add up to the run's."""

    messages: Messages
    texts: Texts
    matches: Matches
    reports: Reports
    tally: Tally = field(default_factory=Tally)

    def __len__(self) -> int:
        return len(self.matches.url)

    def to_rows(self) -> list[Row | Report]:
        """The rows and reports, as ``urlsift.scan`` gives them, in its order."""
        messages, texts, matches, reports = self.messages, self.texts, self.matches, self.reports
        where = list(zip(*messages, strict=True))
        of_text = [(*where[message][:_MESSAGE_COLUMNS], part) for message, part in zip(*texts, strict=True)]
        written = [where[message][_MESSAGE_COLUMNS] for message in texts.message]
        said = [Report(*report) for report in zip(*reports[1:], strict=True)]
        found: list[Row | Report] = []
        before, next_report = reports.before, 0
        columns = zip(
            *(matches.text, matches.url, matches.alternatives, matches.valid, matches.scheme),
            *(matches.wrapper, matches.line, matches.column, matches.error, matches.canonical),
            *(matches.count, matches.start, matches.end, matches.quote_depth, matches.context),
            *(matches.wayback, matches.host, matches.host_unicode, matches.registered_domain, matches.surt),
            strict=True,
        )
        for i, (text, url, alternatives, valid, scheme, wrapper, line, column, *rest) in enumerate(columns):
            while next_report < len(said) and before[next_report] <= i:
                found.append(said[next_report])
                next_report += 1
            naked = wrapper is None
            found.append(
                _make_row(
                    (
                        *(url, alternatives, valid, scheme, wrapper, naked, line, column),
                        *(*of_text[text], *rest, written[text]),
                    )
                )
            )
        found += said[next_report:]
        return found

    def to_arrow(self) -> pyarrow.Table:
        """The rows as an Arrow table of the Parquet output's columns and types (``parquet.SCHEMA``:
        each row with its message's columns, ``date`` a timestamp in UTC); pyarrow is the ``parquet``
        extra (``MissingExtra`` without it). The reports are not in it (``reports``)."""
        pa = _pyarrow("Batch.to_arrow")
        from .dates import utc
        from .parquet import SCHEMA, column

        messages, texts, matches = self.messages, self.texts, self.matches
        kinds = dict(zip(SCHEMA.names, SCHEMA.types, strict=True))
        text = _int64(pa, matches.text)
        # Each message's columns are made once (a date parsed once), then taken for its rows.
        message = _int64(pa, texts.message).take(text)
        where: tuple[list[Any], ...] = messages
        held: dict[str, Any] = {
            name: column(values, kinds[name]).take(message)
            for name, values in zip(Messages._fields, where, strict=True)
            if name != "date"
        }
        held["date"] = column([utc(date) for date in messages.date], kinds["date"]).take(message)
        held["part"] = column(texts.part, kinds["part"]).take(text)
        for name in Matches._fields:
            if name not in _NOT_IN_TABLE:
                values: list[Any] | array[int] = getattr(matches, name)
                made = _int64(pa, values) if isinstance(values, array) else column(values, kinds[name])
                held[name] = made
        held["naked"] = held["wrapper"].is_null()
        return pa.Table.from_arrays([held[name] for name in SCHEMA.names], schema=SCHEMA)

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        """The Arrow PyCapsule stream protocol: ``pyarrow.table(batch)``, ``polars.from_arrow``,
        DuckDB and pandas take the rows of ``to_arrow`` through it."""
        return self.to_arrow().__arrow_c_stream__(requested_schema)


_MESSAGE_COLUMNS = 7
"""source ... newsgroups: the message's columns that come before ``part`` in a row."""

_NOT_IN_TABLE = frozenset({"text", "position", "production"})
"""The matches' columns that the Parquet table has not (``error`` holds the last two)."""

_make_row = partial(tuple.__new__, Row)
"""A row from a tuple of its columns (as ``results._make_row``: no ``Row._make`` call a row)."""

_PROBLEM = re.compile(r"at (\d+) \((.*?)\): ", re.DOTALL)
"""A rejected candidate's ``error``, as ``Problem.__str__`` writes it: its position and production."""


def _pyarrow(needs: str) -> ModuleType:
    try:
        import pyarrow
    except ImportError as error:
        raise MissingExtra(f"{needs} needs pyarrow ({error})", "parquet") from None
    module: ModuleType = pyarrow
    return module


def _int64(pa: ModuleType, values: Iterable[int]) -> pyarrow.Array:
    """An ``array('q')`` as an Arrow int64 array over the same bytes (no Python int a value)."""
    if isinstance(values, array) and values.typecode == "q":
        return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])
    return pa.array(values, pa.int64())


class _Builder:
    """Takes events in order and holds them for the next batch: the rows as they are, each with
    the index of its text, turned into columns in one step when the batch is taken."""

    def __init__(self, printing: Printing | None) -> None:
        self.printing = printing
        self.tally = Tally()
        self._start()

    def _start(self) -> None:
        self.rows: list[Row] = []
        self.text_of = array("q")
        self.messages = Messages([], [], [], [], [], [], [], [])
        self.texts = Texts(array("q"), [])
        self.reports = Reports(array("q"), [], [], [], [], [], [])
        self._messages_at: dict[tuple[Any, ...], int] = {}
        self._texts_at: dict[tuple[Any, ...], int] = {}
        self.held = 0

    def __len__(self) -> int:
        return self.held

    def extend(self, events: Iterable[Event], limit: int | None = None) -> None:
        """Takes ``events`` in, up to ``limit`` rows and reports held (the rest stay in ``events``,
        an iterator then)."""
        rows, text_of, texts_at, selected = self.rows, self.text_of, self._texts_at, None
        if self.printing is not None and (self.printing.schemes is not None or self.printing.canonical):
            selected = self.printing.selected
        last: tuple[Any, ...] | None = None
        index = 0
        held = self.held
        for event in events:
            held += 1
            row = event if selected is None or not isinstance(event, Row) else selected(event)
            if isinstance(row, Row):
                where = row[8:16]  # source ... part: the same in all the rows of a text
                if where != last:
                    last = where
                    found = texts_at.get(where)
                    index = self._text(where, row.date_header) if found is None else found
                text_of.append(index)
                rows.append(row)
            elif isinstance(row, Report):
                self._report(row)
            elif row is not None:  # workers print only when asked to (``render``)
                raise TypeError("a worker sent printed text, not rows")
            if limit is not None and held >= limit:
                break
        self.held = held

    def _text(self, where: tuple[Any, ...], date_header: str | None) -> int:
        """The index of a text not met before in this batch (and of its message, if new)."""
        message = self._messages_at.get(where[:7])
        if message is None:
            message = self._messages_at[where[:7]] = len(self.messages.source)
            columns: tuple[list[Any], ...] = self.messages
            for column, value in zip(columns, (*where[:7], date_header), strict=True):
                column.append(value)
        index = self._texts_at[where] = len(self.texts.part)
        self.texts.message.append(message)
        self.texts.part.append(where[7])
        return index

    def _report(self, report: Report) -> None:
        self.reports.before.append(len(self.rows))
        columns: tuple[list[Any], ...] = self.reports[1:]
        for column, value in zip(columns, report, strict=True):
            column.append(value)

    def take(self) -> Batch:
        """The batch held, and a new one begun."""
        batch = Batch(self.messages, self.texts, _matches(self.rows, self.text_of), self.reports, self.tally)
        self.tally = Tally()
        self._start()
        return batch


def _matches(rows: list[Row], text_of: array[int]) -> Matches:
    """The columns of ``rows`` (transposed in one step, not a row at a time)."""
    transposed = zip(*rows, strict=True) if rows else [()] * len(Row._fields)
    named: dict[str, tuple[Any, ...]] = dict(zip(Row._fields, transposed, strict=True))
    position: list[int | None] = [None] * len(rows)
    production: list[str | None] = [None] * len(rows)
    for i, said in enumerate(named["error"]):
        if said is not None and (problem := _PROBLEM.match(said)) is not None:
            position[i], production[i] = int(problem[1]), problem[2]

    def numbers(name: str) -> array[int]:
        return array("q", named[name])

    def values(name: str) -> list[Any]:
        return list(named[name])

    return Matches(
        *(text_of, values("url"), values("alternatives"), values("valid"), values("scheme")),
        *(values("wrapper"), numbers("line"), numbers("column"), numbers("start"), numbers("end")),
        *(numbers("quote_depth"), values("error"), position, production, values("canonical")),
        *(values("count"), values("context"), values("wayback"), values("host"), values("host_unicode")),
        *(values("registered_domain"), values("surt")),
    )


def run_unit(unit: Unit, options: Options, printing: Printing | None = None) -> Batch:
    """The results of one unit of work (``units.plan``) as one batch: of its files in turn, or of
    its piece of a file (numbered in the piece, as ``results.unit_pieces`` numbers them).
    ``printing``: what ``--schemes`` and ``--canonical`` do to the rows (``output.Printing``)."""
    builder = _Builder(printing)
    for _, events, counts, _ in unit_pieces(unit, options):
        builder.extend(events)
        builder.tally.add(counts)
    return builder.take()


def in_batches(
    found: Iterable[Scanned], printing: Printing | None, rows: int = BATCH_ROWS
) -> Generator[Batch, None, None]:
    """The events of files (``execute.execute``'s), in batches of up to ``rows`` rows and reports
    (and a last one with the rest); a file may span batches, and a batch hold many files."""
    builder = _Builder(printing)
    for _, found_events, tally in found:
        events = iter(found_events)
        while True:
            builder.extend(events, rows)
            if len(builder) < rows:
                break
            yield builder.take()
        if tally is not None:
            builder.tally.add(tally)
        if len(builder) >= rows:
            yield builder.take()
    if len(builder) or builder.tally != Tally():
        yield builder.take()
