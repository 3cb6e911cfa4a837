"""A unit's or a run's results as columns (issue 29, items 2 and 4): a ``Batch`` holds a messages
table (where each message lies: held once, however many URLs it has), a texts table (which message,
which part), a matches table (one entry per row ``urlsift.scan`` gives, pointing at its text), the
reports, and the tally. Columns are plain lists and ``array``s: no pyarrow is needed to make one;
``Batch.to_arrow`` and the Arrow PyCapsule stream protocol (``__arrow_c_stream__``) hand them to
pyarrow, pandas, polars or DuckDB without a Python object per row.

A batch is what every way of running executes (``run_unit``, ``unit_parts``: ``-j 1``, ``-j N``,
Dask, ``urlsift.scan``) and what the writers take (``output.BatchWriter``): a worker sends its
unit's batches, a few rows at a time, and the pieces of a cut file are joined by adding the earlier
pieces' messages (or lines and characters) to a column (``Batch.shifted``). For now a batch is made
from the events of the results stage (``results.unit_pieces``), so ``Batch.events`` gives back
exactly what ``urlsift.scan`` gives; a core that fills the columns itself (issue 31) keeps this face.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import count, islice
from operator import itemgetter
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

from ._model import DefectKind, Wrapper
from .errors import MissingExtra
from .results import Watch, file_pieces, unit_pieces
from .rows import FIELDS, Block, Event, Options, Piece, Report, Row, Tally, moved, taken
from .units import Unit

if TYPE_CHECKING:
    from typing import IO

    import pyarrow

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
    date_header: list[str | None]
    """The message's Date as written (``Row.date_header``: a column added after the message's)."""


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
        return list(self.events())

    def events(self) -> Iterator[Row | Report]:
        """The rows and reports in their order: each row's columns in ``rows.FIELDS``' order, taken
        by name from the matches, its text and its message (a column added to ``Row`` and
        ``Matches`` needs no change here, nor in the writers, which take these)."""
        messages, texts, matches, reports = self.messages, self.texts, self.matches, self.reports
        where = list(zip(*messages, strict=True))
        of_text = [(*where[message], part) for message, part in zip(*texts, strict=True)]
        naked = [wrapper is None for wrapper in matches.wrapper]
        first = [naked if name == "naked" else getattr(matches, name) for name in _FIRST]
        last = [getattr(matches, name) for name in _LAST]
        # In C, not a Python step a row: first columns + the text's + last columns, as a Row.
        joined = map(tuple.__add__, zip(*first, strict=True), map(of_text.__getitem__, matches.text))
        rows: Iterator[Row] = map(_make_row, map(tuple.__add__, joined, zip(*last, strict=True)))
        if not reports.place:
            yield from rows
            return
        given = 0
        for before, report in zip(reports.before, zip(*reports[1:], strict=True), strict=True):
            if before > given:
                yield from islice(rows, before - given)
                given = before
            yield Report(*report)
        yield from rows

    def shifted(self, messages: int, lines: int = 0, characters: int = 0) -> Batch:
        """The batch of a piece of a file numbered as in the whole file (``pieces.Joined``): its
        messages' indexes go on from the ``messages`` of the pieces before, a plain text's lines
        and offsets from their ``lines`` and ``characters``. A column added to, not text rewritten."""
        if not (messages or lines or characters):
            return self
        found, matches, reports = self.messages, self.matches, self.reports
        if messages:
            found = found._replace(message=[None if n is None else n + messages for n in found.message])
            places = [
                place if n is None else f"{place[: place.rindex('#')]}#{n + messages}"
                for place, n in zip(reports.place, reports.message, strict=True)
            ]
            numbers = [None if n is None else n + messages for n in reports.message]
            reports = reports._replace(place=places, message=numbers)
        if lines or characters:
            plain = [found.message[message] is None for message in self.texts.message]
            if all(plain):  # a plain text's piece: every row
                matches = matches._replace(
                    line=array("q", map(lines.__add__, matches.line)),
                    start=array("q", map(characters.__add__, matches.start)),
                    end=array("q", map(characters.__add__, matches.end)),
                )
            else:
                at = [plain[text] for text in matches.text]

                def added(numbers: array[int], more: int) -> array[int]:
                    return array("q", (n + more if p else n for n, p in zip(numbers, at, strict=True)))

                matches = matches._replace(
                    line=added(matches.line, lines),
                    start=added(matches.start, characters),
                    end=added(matches.end, characters),
                )
        return replace(self, messages=found, matches=matches, reports=reports)

    def without(self, kind: DefectKind) -> tuple[Batch, list[Report]]:
        """The batch less its reports of ``kind``, and those reports."""
        if kind not in self.reports.kind:
            return self, []
        kept = Reports(array("q"), [], [], [], [], [], [])
        taken: list[Report] = []
        for before, *report in zip(*self.reports, strict=True):
            if report[1] == kind:
                taken.append(Report(*report))
                continue
            columns: tuple[Any, ...] = kept
            for column, value in zip(columns, (before, *report), strict=True):
                column.append(value)
        return replace(self, reports=kept), taken

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


_FIRST = FIELDS[: FIELDS.index("source")]
"""A row's columns before its message's (url ... column), in order."""
_LAST = FIELDS[FIELDS.index("part") + 1 :]
"""A row's columns after its text's (error ... the last), in order."""
_NUMBERS = frozenset({"text", "line", "column", "start", "end", "quote_depth"})
"""The matches' columns held as ``array('q')``."""
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
    the index of its text, turned into columns in one step when the batch is taken; a block of
    rows the core filled (``rows.Block``) as its columns."""

    def __init__(self) -> None:
        self.tally = Tally()
        self._start()

    def _start(self) -> None:
        self.rows: list[Row] = []
        self.text_of = array("q")
        self.done: list[Matches] = []  # the columns of the rows and blocks before ``rows``
        self.count = 0  # the rows held
        self.wheres: list[tuple[Any, ...]] = []  # each message's columns, transposed when taken
        self.texts = Texts(array("q"), [])
        self.reports = Reports(array("q"), [], [], [], [], [], [])
        self._messages_at: dict[tuple[Any, ...], int] = {}
        self._texts_at: dict[tuple[Any, ...], int] = {}  # a row's text by its columns
        self._parts_at: dict[tuple[int, str | None], int] = {}  # a block's text by its message and part
        self.held = 0

    def __len__(self) -> int:
        return self.held

    def extend(self, events: Iterable[Event | Block], limit: int | None = None) -> None:
        """Takes ``events`` in, up to ``limit`` rows and reports held (the rest stay in ``events``,
        an iterator then; a block is taken whole)."""
        rows, text_of, texts_at = self.rows, self.text_of, self._texts_at
        last: tuple[Any, ...] | None = None
        index = 0
        held = self.held
        for event in events:
            held += 1
            if isinstance(event, Block):
                held += event.rows - 1
                self._block(event)
                rows, text_of = self.rows, self.text_of
            elif isinstance(event, Row):
                # source ... part: the same in all the rows of a text
                where: tuple[Any, ...] = event[_WHERE]  # type: ignore[assignment]
                if where != last:
                    last = where
                    found = texts_at.get(where)
                    index = self._text(where) if found is None else found
                text_of.append(index)
                rows.append(event)
                self.count += 1
            else:
                self._report(event)
            if limit is not None and held >= limit:
                break
        self.held = held

    def _block(self, block: Block) -> None:
        """The rows held so far as columns, then the block's: its messages looked up one by one,
        its texts and rows numbered on in C (no Python step a text or a row)."""
        self._flush()
        if block.fresh:
            self._fresh(block)
            return
        messages_at, wheres, parts_at, texts = self._messages_at, self.wheres, self._parts_at, self.texts
        numbers: list[int] = []
        for where in block.messages:
            number = messages_at.get(where)
            if number is None:
                number = messages_at[where] = len(wheres)
                wheres.append(where)
            numbers.append(number)
        # A text is its message's number and its part: those not met before are added, in order.
        keys = list(zip(taken(numbers, block.message), block.part, strict=True))
        new = dict.fromkeys(keys)
        for met in new.keys() & parts_at.keys():  # (a plain text's next block: its one text)
            del new[met]
        parts_at.update(zip(new, count(len(texts.part))))
        texts.message.extend(map(itemgetter(0), new))
        texts.part.extend(map(itemgetter(1), new))
        local = taken(parts_at, keys)
        columns = block.columns
        position, production = _problems(columns["error"])
        text = array("q", taken(local, block.text)) if len(local) > 1 else array("q", local) * block.rows
        self.done.append(Matches(**columns, text=text, position=position, production=production))
        self.count += block.rows

    def _fresh(self, block: Block) -> None:
        """A block whose messages and texts are met nowhere else (``Block.fresh``): added after
        those held, its indexes moved on by theirs (in C; not at all for a batch's first)."""
        wheres, texts = self.wheres, self.texts
        messages, first = len(wheres), len(texts.part)
        wheres.extend(block.messages)
        texts.message.extend(moved(block.message, messages, len(block.messages)))
        texts.part.extend(block.part)
        columns = block.columns
        position, production = _problems(columns["error"])
        text = moved(block.text, first, len(block.part))
        self.done.append(Matches(**columns, text=text, position=position, production=production))
        self.count += block.rows

    def _flush(self) -> None:
        if self.rows:
            self.done.append(_matches(self.rows, self.text_of))
            self.rows, self.text_of = [], array("q")

    def _text(self, where: tuple[Any, ...]) -> int:
        """The index of a text not met before in this batch (and of its message, if new)."""
        message = self._messages_at.get(where[:-1])
        if message is None:
            message = self._messages_at[where[:-1]] = len(self.wheres)
            self.wheres.append(where[:-1])
        index = self._texts_at[where] = len(self.texts.part)
        self.texts.message.append(message)
        self.texts.part.append(where[-1])
        return index

    def _report(self, report: Report) -> None:
        self.reports.before.append(self.count)
        columns: tuple[list[Any], ...] = self.reports[1:]
        for column, value in zip(columns, report, strict=True):
            column.append(value)

    def take(self) -> Batch:
        """The batch held, and a new one begun."""
        columns = zip(*self.wheres, strict=True) if self.wheres else [()] * len(Messages._fields)
        messages = Messages(*map(list, columns))
        self._flush()
        done = self.done
        matches = done[0] if len(done) == 1 else _joined(done) if done else _matches([], self.text_of)
        batch = Batch(messages, self.texts, matches, self.reports, self.tally)
        self.tally = Tally()
        self._start()
        return batch


_WHERE = slice(FIELDS.index("source"), FIELDS.index("part") + 1)
"""A row's columns of its text: its message's (source ... newsgroups), and its part."""
if Messages._fields != FIELDS[_WHERE][:-1]:
    raise ImportError("batches.Messages is not the message's columns of rows.FIELDS")


def _matches(rows: list[Row], text_of: array[int]) -> Matches:
    """The columns of ``rows`` (transposed in one step, not a row at a time), by name."""
    transposed = zip(*rows, strict=True) if rows else [()] * len(FIELDS)
    named: dict[str, Any] = dict(zip(FIELDS, transposed, strict=True))
    position, production = _problems(named["error"])
    named.update(text=text_of, position=position, production=production)
    columns: list[Any] = [
        named[name] if name == "text" else array("q", named[name]) if name in _NUMBERS else list(named[name])
        for name in Matches._fields
    ]
    return Matches(*columns)


def _problems(errors: list[str | None] | tuple[str | None, ...]) -> tuple[list[int | None], list[str | None]]:
    """The ``position`` and ``production`` columns of rows of these ``error``s."""
    position: list[int | None] = [None] * len(errors)
    production: list[str | None] = [None] * len(errors)
    if errors.count(None) != len(errors):  # (no Python step a row when none is rejected)
        for i, said in enumerate(errors):
            if said is not None and (problem := _PROBLEM.match(said)) is not None:
                position[i], production[i] = int(problem[1]), problem[2]
    return position, production


def _joined(parts: list[Matches]) -> Matches:
    """The columns of ``parts``, one after the other (their ``text`` indexes the same texts)."""
    first, *rest = parts
    columns: list[Any] = [
        array("q", values) if isinstance(values, array) else list(values) for values in first
    ]
    for part in rest:
        for into, values in zip(columns, part, strict=True):
            into.extend(values)
    return Matches(*columns)


def batch_of(events: Iterable[Event | Block], tally: Tally | None = None) -> Batch:
    """``events`` as one batch, with ``tally``."""
    builder = _Builder()
    builder.extend(events)
    if tally is not None:
        builder.tally = tally
    return builder.take()


Part = tuple[str, Batch, bool]
"""What a worker sends back, a few at a time (``unit_parts``): a path, the next of its rows and
reports as a batch (whose ``tally`` counts what was read for them, since the path's part before),
and whether they are its last. The printing process adds each part's counts as it comes, so that
a run stopped between parts (Ctrl-C) counts what it printed; the last part marks the path done
(docs/hostile-input.md, Ctrl-C: what was printed is what is counted)."""


def _parts(pieces: Iterator[Piece]) -> Generator[Part, None, None]:
    try:
        for path, events, counts, last in pieces:
            yield path, batch_of(events, counts), last
    finally:
        close = getattr(pieces, "close", None)
        if close is not None:
            close()


def unit_parts(unit: Unit, options: Options) -> Iterator[Part]:
    """The results of one unit of work (``units.plan``) as batches of up to ``results.PIECE_ROWS``
    rows and reports: of each of its files in turn, or of its piece of a file (numbered in the
    piece; ``pieces.Joined`` numbers them on). What a worker runs (``-j N``, Dask)."""
    return _parts(unit_pieces(unit, options))


def file_parts(
    path: str, options: Options, file: IO[bytes] | None = None, watch: Watch | None = None
) -> Iterator[Part]:
    """The results of one file read here (``-j 1``; ``file``: an open file named ``path``), as
    ``unit_parts`` gives a unit's."""
    return _parts(file_pieces(path, options, file, watch))


def run_unit(unit: Unit, options: Options) -> Batch:
    """The results of one unit of work as one batch: of its files in turn, or of its piece of a
    file (numbered in the piece, as ``unit_parts`` numbers them)."""
    return concat([batch for _, batch, _ in unit_parts(unit, options)])


def concat(batches: list[Batch]) -> Batch:
    """``batches`` as one, in their order (their tallies added)."""
    if len(batches) == 1:
        return batches[0]
    messages = Messages([], [], [], [], [], [], [])
    texts = Texts(array("q"), [])
    empty: list[Any] = [array("q") if name in _NUMBERS else [] for name in Matches._fields]
    matches = Matches(*empty)
    reports = Reports(array("q"), [], [], [], [], [], [])
    tally = Tally()
    for batch in batches:
        rows, held, said = len(matches.url), len(messages.source), len(texts.part)
        into: Any
        values: Any
        for into, values in zip(messages, batch.messages, strict=True):
            into += values
        texts.message.extend(map(held.__add__, batch.texts.message))
        texts.part.extend(batch.texts.part)
        for name, into, values in zip(Matches._fields, matches, batch.matches, strict=True):
            into.extend(map(said.__add__, values) if name == "text" else values)
        reports.before.extend(map(rows.__add__, batch.reports.before))
        for into, values in zip(reports[1:], batch.reports[1:], strict=True):
            into += values
        tally.add(batch.tally)
    return Batch(messages, texts, matches, reports, tally)


Select = Callable[[Row], "Row | None"]
"""What ``--schemes`` and ``--canonical`` do to a row (``output.Printing.selected``): the row
kept (its canonical form filled in), or None."""


def selected(batch: Batch, select: Select) -> Batch:
    """``batch`` with ``select`` done to its rows."""
    kept: list[Event] = []
    for event in batch.events():
        if not isinstance(event, Row):
            kept.append(event)
        elif (row := select(event)) is not None:
            kept.append(row)
    return batch_of(kept, batch.tally)


def in_batches(
    found: Iterable[tuple[str | None, Iterable[Batch], Tally]],
    select: Select | None = None,
    rows: int = BATCH_ROWS,
) -> Generator[Batch, None, None]:
    """The batches of files (``execute.execute``'s), put together in batches of up to ``rows`` rows
    and reports (a file may span batches, and a batch hold many files); their tallies add up to
    the run's."""
    held: list[Batch] = []
    size = 0
    for _, batches, _ in found:
        for whole in batches:
            for batch in _cut(whole if select is None else selected(whole, select), rows):
                more = len(batch) + len(batch.reports.place)
                if held and size + more > rows:
                    yield concat(held)
                    held, size = [], 0
                held.append(batch)
                size += more
    if held:
        yield concat(held)


def _cut(batch: Batch, rows: int) -> Iterator[Batch]:
    """``batch`` in batches of up to ``rows`` rows and reports (its tally with the last)."""
    if len(batch) + len(batch.reports.place) <= rows:
        yield batch
        return
    events = batch.events()
    while cut := list(islice(events, rows)):
        yield batch_of(cut)
    yield batch_of([], batch.tally)
