"""A path -> its results: rows (``rows.Row``, one per URL or rejected candidate), reports (what
went wrong, with where), and a Tally that adds up; or the same of one unit of work, a few at a time
(``unit_pieces``, what a worker runs; ``pieces`` joins a file's pieces back).

The last stage: it takes what the sources give (messages, text streams, defects), runs the
extraction on it, and says where every result came from.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import replace
from functools import lru_cache, partial
from typing import IO, Any

from ._model import (
    ERROR_KINDS,
    Defect,
    DefectKind,
    Match,
    MessageText,
    Provenance,
    Skipped,
    TextStream,
    www_url,
)
from ._native_mail import MailBatch, MailRows
from ._native_rows import Found, TextRows, in_core, message_block
from .around import StreamText, Text, context, quote_depth
from .dates import iso, timestamp, wayback
from .hosts import ARCHIVED, NO_HOST, host_columns
from .matches import BATCH_WEIGHT, Matcher, extraction, weight
from .rows import Block, Event, FileEvents, Filters, Options, Piece, Report, Row, Tally, place, walked
from .sources import (
    MAX_LINE,
    Counter,
    Item,
    ReadOptions,
    dirs,
    read_message,
    read_path,
    read_piece,
    read_stream,
    reason,
    unwatched,
)
from .sources.faults import unexpected
from .sources.mbox import MailChunk
from .sources.packed import corrupt
from .stream import extract_stream
from .units import Unit
from .validate import validate

__all__ = [  # the records are the rows module's; they are named here too, with what makes them
    "Event",
    "FileEvents",
    "Options",
    "Report",
    "Row",
    "Tally",
    "file_pieces",
    "lost",
    "results",
    "scan_file",
    "unit_pieces",
    "walk",
    "walked",
]

_FILE_LOST: frozenset[DefectKind] = frozenset({"unreadable", "corrupt", "binary", "too-large", "unsupported"})
"""Defects of a whole file that leave it (or its end) unscanned: the file counts as failed (and
``--state`` does not record it: a repository cut by its budget is read again, not skipped)."""

_MESSAGE_LOST: frozenset[DefectKind] = frozenset(
    {"too-large", "bad-record", "corrupt", "not-mail", "internal", "unreadable"}
)
"""Defects of a message that leave none of its text to scan: the message counts as failed."""


_judge = lru_cache(maxsize=4096)(validate)
"""The second opinion on a rejected candidate (the same footer URL recurs in every message)."""


def results(path: str, options: Options, tally: Tally, counter: Counter | None = None) -> Iterator[Event]:
    """The events of one file, in order; ``tally`` is kept up to date as they come."""
    counter = Counter() if counter is None else counter
    return _events(path, read_path(path, options.read, counter), options, tally, _Read(counter))


def stream_results(
    file: IO[bytes], name: str, options: Options, tally: Tally, counter: Counter | None = None
) -> Iterator[Event]:
    """The events of a binary file object, as ``results`` gives a file's (``name`` stands for its
    path: ``sources.read_stream``)."""
    counter = Counter() if counter is None else counter
    return _events(name, read_stream(file, name, options.read, counter), options, tally, _Read(counter))


def _events(
    path: str, items: Generator[Item, None, None], options: Options, tally: Tally, read: _Read
) -> Iterator[Event]:
    return _found(path, items, options, tally, read, False)  # type: ignore[return-value]


def _found(
    path: str, items: Generator[Item, None, None], options: Options, tally: Tally, read: _Read, blocks: bool
) -> Iterator[Event | Block]:
    """``_events``; with ``blocks``, a plain text's rows may come as ``Block``s (``in_core``)."""
    tally.files += 1
    blocks = blocks and in_core(options)
    failed = False
    item: TextStream | Defect | Skipped | list[MessageText] | MailChunk | None = None
    matcher = Matcher(options)  # its set-up once a file, not once a message
    mail: MailRows | None = None  # the core's reader of messages as bytes (``_read_options``)
    filters = options.filters
    narrowed = items if filters.parts == "all" and not filters.dated else _narrowed(items, filters)
    batches = _batched(narrowed)
    try:
        for item in batches:
            read.count(tally)  # the bytes so far, in the counts of a piece cut after them (Ctrl-C)
            if isinstance(item, list):  # messages, which say their own bugs
                yield from _messages(item, options, tally, matcher, blocks)
                continue
            if isinstance(item, MailChunk):  # likewise
                mail = MailRows(options, BATCH_WEIGHT) if mail is None else mail
                yield from _mail(item, options, tally, matcher, mail)
                continue
            try:
                if isinstance(item, TextStream):
                    # A text cut or damaged: a member's end (the rest goes on), or the file's.
                    cut = yield from _text(item, options, tally, blocks)
                    failed = failed or (cut and item.provenance.member is None)
                elif isinstance(item, Skipped):
                    tally.skipped += item.records
                else:
                    whole_file = item.provenance.member is None and item.provenance.message is None
                    failed = failed or (whole_file and item.kind in _FILE_LOST)
                    yield _report(item, tally)
            except Exception as error:  # a bug in reading one item: it is lost, the next ones are read
                failed = failed or (isinstance(item, TextStream) and item.provenance.member is None)
                yield _report(unexpected(error, item.provenance), tally)
    except Exception as error:  # a bug in the reader: the rest of the file cannot be read, say so
        failed = True
        # The message it was reading counts as seen and failed (a plain text is a part, no message).
        if not isinstance(item, TextStream):
            tally.messages += 1
            tally.messages_failed += 1
        said = unexpected(error, Provenance(path))
        detail = f"{said.detail}; the rest of the file is not read (after {read.counter.bytes:,} bytes)"
        yield _report(said._replace(detail=detail), tally)
    finally:
        batches.close()
        items.close()
        tally.files_failed += failed
        read.count(tally)


class _Read:
    """What a file's reader has read (``sources.Counter``), added to its tally as it goes."""

    def __init__(self, counter: Counter) -> None:
        self.counter = counter
        self.bytes, self.unpacked, self.lines = counter.bytes, counter.unpacked, counter.lines

    def count(self, tally: Tally) -> None:
        """What was read since the last time, added to ``tally``."""
        counter = self.counter
        tally.bytes += counter.bytes - self.bytes
        tally.unpacked += counter.unpacked - self.unpacked
        tally.lines += counter.lines - self.lines  # a JSON-lines piece's, for the pieces after it
        self.bytes, self.unpacked, self.lines = counter.bytes, counter.unpacked, counter.lines


def _text(
    item: TextStream, options: Options, tally: Tally, blocks: bool = False
) -> Generator[Event | Block, None, bool]:
    """The rows of a plain text (with ``blocks``, as the native core's blocks of columns:
    ``_native_rows``); returns whether it was cut short (compressed data cut or damaged)."""
    try:
        tally.parts += 1
        text: StreamText | TextRows
        if blocks:
            columns = _where(item.provenance)
            where = (*columns[:_PART], item.provenance.part)
            # The core notes the text's first long line itself: the stream under the line watch
            # is read, and the watch told what the core found (issue 31).
            watched = unwatched(item.file)
            if watched is None:
                text = TextRows(item.file, options, where, columns[_PART])
                yield from text.blocks(tally, PIECE_ROWS)  # (a piece of rows is a block or more)
            else:
                text = TextRows(watched[0], options, where, columns[_PART], MAX_LINE)
                try:
                    yield from text.blocks(tally, PIECE_ROWS)
                finally:  # what was read so far, as the watch would have seen it
                    watched[1].long_line = text.long_line
        else:
            text = StreamText(item.file, options.context or 0)
            found = extract_stream(text, **extraction(options))  # type: ignore[arg-type]
            yield from _rows(found, text, item.provenance, options, tally)
        tally.lines += text.lines
        tally.characters += text.characters
    except corrupt() as error:
        yield _report(Defect("corrupt", item.provenance, reason(error)), tally)
        return True
    return False


def _batched(
    items: Iterator[Item],
) -> Generator[TextStream | Defect | Skipped | list[MessageText] | MailChunk, None, None]:
    """``items``, with each run of messages read (``MessageText``) in lists of up to
    ``BATCH_WEIGHT`` (a heavier message alone), to be scanned together (a ``MailChunk`` is a batch
    of its own already); what the reader read is given before its error is passed on."""
    batch: list[MessageText] = []
    held = 0
    try:
        for item in items:
            if not isinstance(item, MessageText):
                if batch:
                    yield batch
                    batch, held = [], 0
                yield item
                continue
            more = weight(item)
            if batch and (held + more > BATCH_WEIGHT or item.pipermail != batch[0].pipermail):
                yield batch
                batch, held = [], 0
            batch.append(item)
            held += more
    except Exception:
        if batch:
            yield batch
        raise
    if batch:
        yield batch


def _messages(
    batch: list[MessageText], options: Options, tally: Tally, matcher: Matcher, blocks: bool = False
) -> Iterator[Event | Block]:
    """The reports and rows of each message of ``batch`` in turn, their texts scanned together
    (with ``blocks``, the rows of the messages between two that have reports as a block of
    columns: ``_native_rows``)."""
    found: list[list[tuple[int, Match]]] | None = None
    if len(batch) > 1:
        try:
            found = matcher.batch(batch)
        except Exception:  # a bug: each is scanned alone, so that only the message it is in is lost
            found = None
    # The messages whose rows are not given yet: of a batch only (a message scanned alone, a heavy
    # one, gives its matches as they are found: never held all at once).
    held: list[Found] | None = [] if blocks and found is not None and _blocks_pay(batch) else None
    for j, message in enumerate(batch):
        tally.messages += 1  # here, so that one that fails below is counted too
        if held and message.defects:  # its reports come after the rows of the messages before it
            yield from _given(held, options, tally)
        try:
            yield from _message(message, options, tally, matcher, None if found is None else found[j], held)
        except Exception as error:  # a bug in reading one message: it is lost, the next ones are read
            tally.messages_failed += 1
            yield _report(unexpected(error, message.provenance), tally)
        if held and sum(len(pairs) for _, _, pairs in held) >= PIECE_ROWS:  # pieces cut as before
            yield from _given(held, options, tally)
    if held:
        yield from _given(held, options, tally)


def _mail(
    chunk: MailChunk, options: Options, tally: Tally, matcher: Matcher, mail: MailRows
) -> Iterator[Event | Block]:
    """The reports and rows of ``chunk``'s messages in order, read and scanned by the core
    (``_native_mail``) as columns: the rows of the messages between two that have reports as a
    block, cut at ``PIECE_ROWS`` as ``_messages`` cuts them; a message the core leaves to Python
    (or all of them, if the core fails: a bug) read as before. Python steps are taken at those
    messages and at the cuts, not at each message."""
    try:
        read = mail.read(chunk)
    except Exception:  # a bug in the core (a caught panic): Python reads these messages
        for k in range(len(chunk.ends)):
            yield from _messages([_read_whole(chunk, k, options)], options, tally, matcher)
        return
    messages = read.messages
    python = dict(read.python)
    reported: dict[int, list[tuple[DefectKind, str, str]]] = {}
    for k, kind, part, detail in read.defects:
        reported.setdefault(k, []).append((kind, part, detail))
    run = counted = first = 0  # the run's first message, the first not counted, the first row not given
    for k in sorted({*python, *reported}):  # the messages that end a run: Python's, or with reports
        yield from _mail_run(read, (run, k, counted), first, options, tally)
        first = messages.rows_end[k - 1] if k else 0
        run = counted = k + 1
        if k in python:
            yield from _messages([_read_whole(chunk, k, options)], options, tally, matcher)
            continue
        try:
            tally.messages += 1
            headers, texts = messages.headers[k], messages.texts[k]
            if not texts and any(kind in _MESSAGE_LOST for kind, _, _ in reported[k]):
                tally.messages_failed += 1
            tally.headers += headers
            tally.parts += texts - headers
            at = chunk.message(k)[1]
            at = at._replace(
                message_id=messages.ids[k], date=messages.dates[k], newsgroups=messages.groups[k]
            )
            for kind, part, detail in reported[k]:
                yield _report(Defect(kind, at._replace(part=part), detail), tally)
            run = k  # its rows begin the next run
        except Exception as error:  # a bug in one message: it is lost (its rows too), the next ones are read
            tally.messages_failed += 1
            yield _report(unexpected(error, chunk.message(k)[1]), tally)
            first = messages.rows_end[k]
    yield from _mail_run(read, (run, len(chunk.ends), counted), first, options, tally)


def _mail_run(
    read: MailBatch, messages: tuple[int, int, int], first: int, options: Options, tally: Tally
) -> Iterator[Block | Report]:
    """A run of ``read``'s messages with no reports (``messages``: its first, its end, the first
    of it not counted yet) counted, and its rows, from ``first``, as blocks: cut after the
    message that brings a block to ``PIECE_ROWS`` rows, as ``_messages`` cuts them (bisected,
    not walked)."""
    begun, end, counted = messages
    found = read.messages
    rows_end = found.rows_end
    while True:
        cut = bisect_left(rows_end, first + PIECE_ROWS, begun, end)
        last = min(cut + 1, end)  # the block's messages end here
        upto = max(first, rows_end[last - 1] if last else 0)
        try:
            if last > counted:
                tally.messages += last - counted
                headers = sum(found.headers[counted:last])
                tally.headers += headers
                tally.parts += sum(found.texts[counted:last]) - headers
            block = read.block(first, upto, options, tally)
        except Exception as error:  # a bug: these messages' rows are lost, said once, the next ones are read
            tally.messages_failed += max(0, last - counted)
            yield _report(unexpected(error, found.chunk.message(max(0, last - 1))[1]), tally)
        else:
            if block is not None:
                yield block
        first, begun, counted = upto, last, max(counted, last)
        if cut >= end:
            return


def _read_whole(chunk: MailChunk, k: int, options: Options) -> MessageText:
    """A chunk's message read as ``sources`` reads any other (``mime.read``)."""
    data, where = chunk.message(k)
    return read_message(data, where, options.read, chunk.pipermail)


def _read_options(options: Options) -> ReadOptions:
    """What a file is read with: an mbox's messages as their bytes where the core makes their rows."""
    return options.read._replace(mail_bytes=True) if in_core(options, messages=True) else options.read


REPORTS_PER_BLOCK = 1 / 8
"""Messages' rows go as blocks (``_messages``) only when at most this share of them have reports:
a message's reports end the block before it, and blocks of a message or two cost more than its
rows made one by one (docs/performance.md, "The native rows")."""


def _blocks_pay(batch: list[MessageText]) -> bool:
    return sum(bool(message.defects) for message in batch) <= REPORTS_PER_BLOCK * len(batch)


def _given(held: list[Found], options: Options, tally: Tally) -> Iterator[Block | Report]:
    """The rows of the messages ``held`` as a block (``held`` emptied)."""
    try:
        block = message_block(held, options, tally)
    except Exception as error:  # a bug: these messages' rows are lost, said once, the next ones are read
        tally.messages_failed += len(held)
        yield _report(unexpected(error, held[0][0].provenance), tally)
    else:
        if block is not None:
            yield block
    finally:
        held.clear()


def _message(
    message: MessageText,
    options: Options,
    tally: Tally,
    matcher: Matcher | None = None,
    found: Iterable[tuple[int, Match]] | None = None,
    held: list[Found] | None = None,
) -> Iterator[Event]:
    """The reports and rows of one message; ``matcher``: the file's (``Matcher(options)``);
    ``found``: its matches, when they are known (``Matcher.batch``); ``held``: where its matches
    go instead of its rows (made into a block with the next messages': ``_messages``)."""
    if not message.texts and any(defect.kind in _MESSAGE_LOST for defect in message.defects):
        tally.messages_failed += 1
    tally.headers += message.headers
    tally.parts += len(message.texts) - message.headers
    for defect in message.defects:
        yield _report(defect, tally)
    parts, texts = message.parts, message.texts
    columns = _where(message.provenance)
    if found is None:
        found = (matcher or Matcher(options))(message)
    if held is not None:
        held.append((message, columns, list(found)))
        return
    for k, match in found:
        row = _row(match, texts[k], columns, parts[k], options, tally)
        if row is not None:
            yield row


def _rows(
    found: Iterable[Match], text: StreamText, where: Provenance, options: Options, tally: Tally
) -> Iterator[Row]:
    columns = _where(where)
    for match in found:
        row = _row(match, text, columns, where.part, options, tally)
        if row is not None:
            yield row


def _row(
    match: Match, text: Text, columns: tuple[Any, ...], part: str | None, options: Options, tally: Tally
) -> Row | None:
    """The row of ``match``, found in ``text`` (None when it is rejected and not asked for, or
    when a filter leaves it out); ``columns`` are the row's columns of where the text is (source
    ... newsgroups, ``_where``'s, then date_header)."""
    url, alternatives, wrapper, span, pieces, line, column, verdict = match  # one step, not eight
    hosts = host_columns(url, verdict.scheme, verdict.parts) if verdict.valid else NO_HOST
    filters = options.filters
    if filters.hosts and not filters.keeps_host(hosts[0]):
        return None
    depth: int | None = None
    if filters.max_quote_depth is not None:
        depth = quote_depth(text, match) if column else 0
        if depth > filters.max_quote_depth:
            return None
    if verdict.valid:
        tally.urls += 1
        error = None
    else:
        tally.rejected += 1
        # A wrapper never closed (D21) is rejected whatever its text: no other profile takes it.
        unclosed = verdict.error is not None and verdict.error.production == "wrapper"
        if options.second_opinion is not None and not unclosed and _judge(url, options.second_opinion).valid:
            tally.rejected_valid_elsewhere += 1
        if not options.invalid:
            return None
        error = str(verdict.error)
    start, end = (pieces[0][0], pieces[-1][1]) if pieces else (span[0], span[0])
    return _make_row(
        (
            url,
            alternatives,
            verdict.valid,
            verdict.scheme,
            wrapper,
            wrapper is None,
            line,
            column,
            *columns[:_PART],
            part,
            error,
            None,  # canonical, count: the printer's to fill in
            None,
            start,
            end,
            (quote_depth(text, match) if column else 0) if depth is None else depth,  # (none before it: 0)
            None if options.context is None else context(text, start, end, options.context),
            _wayback(match, columns[_DATE]) if options.wayback and verdict.valid else None,
            *hosts,
            columns[_PART],
        )
    )


_make_row = partial(tuple.__new__, Row)
"""A row from a tuple of its 29 columns: what ``Row._make`` does, less its Python call, once per row
(tests/results/test_columns.py checks every row has its columns)."""
_PART = Provenance._fields.index("part")
_DATE = Provenance._fields.index("date")


def _wayback(match: Match, date: str | None) -> str | None:
    # A "www." host with no scheme (modern) is the http URL it stands for. Only the schemes the
    # Wayback Machine holds get an address (D38).
    scheme = match.verdict.scheme
    if scheme is None:
        return wayback(www_url(match.url), date)
    return wayback(match.url, date) if scheme in ARCHIVED else None


def _where(provenance: Provenance) -> tuple[Any, ...]:
    """A text's columns of where it is: source ... newsgroups with ``date`` in UTC ISO 8601, then
    ``date_header``, the Date as written (spaces around it dropped): the same in all its rows."""
    written = provenance.date
    header = written.strip() if written is not None else None
    return (*provenance[:_DATE], iso(written), *provenance[_DATE + 1 : _PART], header)


def _narrowed(items: Generator[Item, None, None], filters: Filters) -> Generator[Item, None, None]:
    """``items`` with what ``filters`` leave unscanned taken out (D38): the messages out of the
    date range (their defects are still said), and the texts ``parts`` does not keep."""
    for item in items:
        if isinstance(item, MessageText):
            dated = filters.keeps_date(timestamp(item.provenance.date))
            yield _parts_of(item, filters.parts if dated else None)
        elif isinstance(item, TextStream):
            # A plain text is a body; with no headers, or out of the range, it is not read.
            if filters.parts != "headers" and filters.keeps_date(timestamp(item.provenance.date)):
                yield item
        else:
            yield item


def _parts_of(message: MessageText, parts: str | None) -> MessageText:
    """``message`` with only the texts of ``parts`` (None: none of them)."""
    headers = message.headers
    if parts == "all":
        return message
    if parts == "headers":
        return message._replace(texts=message.texts[:headers], parts=message.parts[:headers], flowed=None)
    if parts == "body":
        flowed = message.flowed
        shifted = None if flowed is None else {k - headers: v for k, v in flowed.items() if k >= headers}
        return message._replace(
            texts=message.texts[headers:], parts=message.parts[headers:], headers=0, flowed=shifted
        )
    return message._replace(texts=[], parts=[], headers=0, flowed=None)


def _report(defect: Defect, tally: Tally) -> Report:
    lost_input = defect.kind in ERROR_KINDS
    if lost_input:
        tally.errors += 1
    else:
        tally.warnings += 1
    where = defect.provenance
    return Report(place(where), defect.kind, defect.detail, lost_input, where.message, defect.line)


def walk(arguments: Iterable[str]) -> Iterator[str | Report]:
    """The files to read: the arguments, with folders walked (Maildir, MH, news spools); a folder
    that cannot be entered is a report in its place."""
    for path in arguments:
        if path != "-" and os.path.isdir(path):
            for found in dirs.files(path):
                if isinstance(found, tuple):
                    yield Report(found[0], "unreadable", found[1], True)
                else:
                    yield found
        else:
            yield path


def scan_file(path: str, options: Options) -> tuple[list[Event], Tally]:
    """All the events of one file and its tally (what a worker process sends back)."""
    tally = Tally()
    return list(results(path, options, tally)), tally


PIECE_ROWS = 1000
"""A worker sends a unit's events back in pieces of this many (``unit_pieces``), so that neither it
nor the printing process holds more than a few pieces of a unit (a compressed file is one)."""


PIECE_BYTES = 1 << 20
"""... or fewer, once this many bytes have been read for them."""


def unit_pieces(unit: Unit, options: Options) -> Iterator[Piece]:
    """The events of one unit of work (``units.plan``), in pieces of up to ``PIECE_ROWS``: of each
    of its files in turn, or of its piece of one file (messages numbered from 0, lines from 1 and
    characters from 0 in the piece; ``pieces.join_pieces`` numbers them on); each piece carries
    the counts of what was read for it, and says whether it is its file's last. What a worker
    runs (``batches.unit_parts`` makes each piece a ``Batch``)."""
    if unit.kind == "files":
        for path in unit.names:
            yield from file_pieces(path, options)
        return
    tally, counter = Tally(), Counter()
    read = _Read(counter)
    items = read_piece(unit.kind, unit.path, unit.start, unit.end, _read_options(options), counter)
    yield from _in_pieces(unit.path, _found(unit.path, items, options, tally, read, True), tally, read)


Watch = Callable[[Iterator[Event | Block], Counter, Tally], Iterable[Event | Block]]
"""The events of a file read here, watched as they come (the progress bar: ``Progress.watch``)."""


def file_pieces(
    path: str, options: Options, file: IO[bytes] | None = None, watch: Watch | None = None
) -> Iterator[Piece]:
    """The events of one file in pieces, as ``unit_pieces`` gives them: of ``path``, or of the open
    ``file`` named ``path`` (``stream_results``); ``watch`` sees the events as they come."""
    tally, counter = Tally(), Counter()
    read = _Read(counter)
    items = (
        read_path(path, _read_options(options), counter)
        if file is None
        else read_stream(file, path, _read_options(options), counter)
    )
    found: Iterator[Event | Block] = _found(path, items, options, tally, read, True)
    if watch is not None:
        found = iter(watch(found, counter, tally))
    yield from _in_pieces(path, found, tally, read)


def _in_pieces(
    path: str, found: Iterator[Event | Block], tally: Tally, read: _Read
) -> Generator[Piece, None, None]:
    held: list[Event | Block] = []
    rows = 0  # the rows and reports held (a block holds many)
    sent = Tally()  # the counts of the pieces sent
    counter = read.counter
    bytes_sent = counter.bytes
    try:
        for event in found:
            held.append(event)
            rows += event.rows if isinstance(event, Block) else 1
            # A sparse file's rows go on too, once a megabyte has been read for them: rows come as
            # the file is read, not once it is all read (``urlsift.scan`` is lazy).
            if rows >= PIECE_ROWS or counter.bytes - bytes_sent >= PIECE_BYTES:
                bytes_sent = counter.bytes
                read.count(tally)  # (a plain text is one item: its bytes so far)
                counts, sent = tally.since(sent), replace(tally)
                yield path, held, counts, False
                held, rows = [], 0
    finally:
        close = getattr(found, "close", None)
        if close is not None:  # (stopped early: the reader closed now, not when collected)
            close()
    yield path, held, tally.since(sent), True


def lost(path: str, error: BaseException, begun: bool = False) -> Piece:
    """What stands for the rest of a file whose worker failed: its last piece, a report, counting
    one failed file (``begun``: seen already, counted by the pieces of it that came)."""
    detail = f"the worker reading it failed: {type(error).__name__}: {reason(error)}"
    counts = Tally(files=int(not begun), files_failed=1, errors=1)
    return path, [Report(path, "lost", detail, True)], counts, True
