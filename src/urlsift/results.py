"""A path -> its results: rows (one per URL or rejected candidate, in FIELDS order), reports (what
went wrong, with where), and a Tally that adds up.

The last stage: it takes what the sources give (messages, text streams, defects), runs the
extraction on it, and says where every result came from. Rows and reports are plain tuples, so a
worker process can hand them to the one that prints (``cli -j``) in the order ``-j 1`` prints them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import IO, Any, NamedTuple

from ._lines import Lines
from ._model import ERROR_KINDS, Defect, DefectKind, Match, MessageText, Provenance, Skipped, TextStream
from .extract import extract_each
from .flowed import original, unflow
from .grammar import STRICT
from .scanner import KNOWN_SCHEMES
from .sources import Counter, Item, ReadOptions, dirs, read_path, read_piece, read_stream, reason
from .sources import long_line as long_line_detail
from .sources.packed import CORRUPT
from .stream import extract_stream
from .units import Unit
from .validate import validate

Row = tuple[Any, ...]
"""url, alternatives, valid, scheme, wrapper, naked, line, column, source, member, message,
offset, message_id, date, newsgroups, part, error: ``output.FIELDS``, in that order."""


class Report(NamedTuple):
    """A defect, as it is printed: where, what, and whether it makes the exit status 2."""

    place: str
    """``path``, ``path[member]``, with ``#message`` when it is one message's."""
    kind: DefectKind
    detail: str
    error: bool
    message: int | None = None
    """The message's index in its file, when it is one message's (as in ``place``)."""
    line: int | None = None
    """The line of a plain text it is about (``Defect.line``)."""


@dataclass(frozen=True)
class Rendered:
    """Rows a worker has printed already (``output.Printing.render``), standing for them among a
    unit's events, so the process that prints only copies text. The text is cut where a number
    goes on from the earlier pieces of the file (a piece's messages and lines are numbered from its
    start): ``texts[0]``, ``numbers[0] + shift``, ``texts[1]`` ..."""

    texts: tuple[str, ...]
    numbers: tuple[int, ...] = ()
    rows: int = 0
    valid: bool = False
    """Whether any of the rows is a valid URL (what the exit status needs)."""
    shift: int = 0

    def text(self) -> str:
        if not self.numbers:
            return self.texts[0]
        pieces = [self.texts[0]]
        for number, text in zip(self.numbers, self.texts[1:], strict=True):
            pieces += (str(number + self.shift), text)
        return "".join(pieces)


Event = Row | Report | Rendered
Render = Callable[[list[Event], "int | None"], list[Event]]
"""Rows -> ``Rendered``, the other events kept; the int is the column whose numbers the
``Rendered`` leaves to fill in (``Rendered.shift``), if any."""
_MESSAGE_COLUMN = 10
"""Where a row has the message's index (``output.FIELDS``) ..."""
_LINE_COLUMN = 6
"""... and its line."""

_FILE_LOST: frozenset[DefectKind] = frozenset({"unreadable", "corrupt", "binary"})
"""Defects of a whole file that leave it (or its end) unscanned: the file counts as failed."""


_judge = lru_cache(maxsize=4096)(validate)
"""The second opinion on a rejected candidate (the same footer URL recurs in every message)."""


@dataclass
class Tally:
    """Counts that add up: files seen = scanned + failed, messages seen = scanned + failed."""

    files: int = 0
    files_failed: int = 0
    messages: int = 0
    messages_failed: int = 0
    parts: int = 0
    """MIME text parts scanned (a plain text file counts as one)."""
    headers: int = 0
    """Mail headers scanned (those with a colon in them)."""
    bytes: int = 0
    """Read from the files on disk (compressed, for compressed files)."""
    unpacked: int = 0
    """Come out of their compressed streams and zip members (``sources.Counter.unpacked``)."""
    lines: int = 0
    """Lines of plain text scanned (line breaks read: a last line with none is not counted); the
    lines of a JSON-lines file read in pieces."""
    urls: int = 0
    rejected: int = 0
    rejected_valid_elsewhere: int = 0
    """Of the rejected, those ``Options.second_opinion`` accepts (strict rejects, modern takes)."""
    errors: int = 0
    warnings: int = 0
    skipped: int = 0
    """Records that hold nothing to scan (a WARC's requests, metadata, images ...): not messages."""
    unwalked: int = 0
    """Folders not entered and folder entries not read (a link loop, a link to nowhere, a FIFO):
    each is reported, and counted in ``errors`` too (``walk``)."""

    def add(self, other: Tally) -> None:
        for count in fields(self):
            setattr(self, count.name, getattr(self, count.name) + getattr(other, count.name))


@dataclass(frozen=True)
class Options:
    profile: str = STRICT.name
    naked: bool = True
    invalid: bool = False
    """Yield the rejected candidates as rows too (they are counted either way)."""
    schemes: frozenset[str] = KNOWN_SCHEMES
    read: ReadOptions = field(default_factory=ReadOptions)
    second_opinion: str | None = None
    """A profile that judges every rejected candidate again, to count those it would take."""


def place(where: Provenance) -> str:
    """How a report names where it happened."""
    name = where.source if where.member is None else f"{where.source}[{where.member}]"
    return name if where.message is None else f"{name}#{where.message}"


def results(path: str, options: Options, tally: Tally, counter: Counter | None = None) -> Iterator[Event]:
    """The events of one file, in order; ``tally`` is kept up to date as they come."""
    counter = Counter() if counter is None else counter
    return _events(path, read_path(path, options.read, counter), options, tally, counter)


def stream_results(
    file: IO[bytes], name: str, options: Options, tally: Tally, counter: Counter | None = None
) -> Iterator[Event]:
    """The events of a binary file object, as ``results`` gives a file's (``name`` stands for its
    path: ``sources.read_stream``)."""
    counter = Counter() if counter is None else counter
    return _events(name, read_stream(file, name, options.read, counter), options, tally, counter)


def _events(
    path: str, items: Generator[Item, None, None], options: Options, tally: Tally, counter: Counter
) -> Iterator[Event]:
    before, unpacked, lines = counter.bytes, counter.unpacked, counter.lines
    tally.files += 1
    failed = False
    item: Item | None = None
    try:
        for item in items:
            try:
                if isinstance(item, MessageText):
                    tally.messages += 1  # here, so that one that fails below is counted too
                    yield from _message(item, options, tally)
                elif isinstance(item, TextStream):
                    # A text cut or damaged: a member's end (the rest goes on), or the file's.
                    cut = yield from _text(item, options, tally)
                    failed = failed or (cut and item.provenance.member is None)
                elif isinstance(item, Skipped):
                    tally.skipped += item.records
                else:
                    whole_file = item.provenance.member is None and item.provenance.message is None
                    failed = failed or (whole_file and item.kind in _FILE_LOST)
                    yield _report(item, tally)
            except Exception as error:  # a bug in reading one item: it is lost, the next ones are read
                failed = failed or (isinstance(item, TextStream) and item.provenance.member is None)
                tally.messages_failed += isinstance(item, MessageText)
                yield _report(Defect("internal", item.provenance, _internal(error)), tally)
    except Exception as error:  # a bug in the reader: the rest of the file cannot be read, say so
        failed = True
        # The message it was reading counts as seen and failed (a plain text is a part, no message).
        if not isinstance(item, TextStream):
            tally.messages += 1
            tally.messages_failed += 1
        detail = f"{_internal(error)}; the rest of the file is not read (after {counter.bytes:,} bytes)"
        yield _report(Defect("internal", Provenance(path), detail), tally)
    finally:
        items.close()
        tally.files_failed += failed
        tally.bytes += counter.bytes - before
        tally.unpacked += counter.unpacked - unpacked
        tally.lines += counter.lines - lines  # a JSON-lines piece's, for the pieces after it


def _text(item: TextStream, options: Options, tally: Tally) -> Generator[Event, None, bool]:
    """The rows of a plain text; returns whether it was cut short (compressed data cut or damaged)."""
    try:
        tally.parts += 1
        text = _LineCount(item.file)
        matches = extract_stream(text, **_extraction(options))  # type: ignore[arg-type]
        yield from _rows(matches, item.provenance, options, tally)
        tally.lines += text.lines
    except CORRUPT as error:
        yield _report(Defect("corrupt", item.provenance, reason(error)), tally)
        return True
    return False


def _internal(error: Exception) -> str:
    return f"internal error, please report it: {type(error).__name__}: {error}"


class _LineCount:
    """A binary file that counts the line breaks read from it."""

    def __init__(self, file: IO[bytes]) -> None:
        self.file, self.lines = file, 0

    def read(self, size: int = -1) -> bytes:
        data = self.file.read(size)
        self.lines += data.count(b"\n")
        return data


def _extraction(options: Options) -> dict[str, Any]:
    return {"profile": options.profile, "naked": options.naked, "invalid": True, "schemes": options.schemes}


def _message(message: MessageText, options: Options, tally: Tally) -> Iterator[Event]:
    if not message.texts and any(defect.kind in ("too-large", "bad-record") for defect in message.defects):
        tally.messages_failed += 1
    tally.headers += message.headers
    tally.parts += len(message.texts) - message.headers
    for defect in message.defects:
        yield _report(defect, tally)
    parts = message.parts
    fields = tuple(message.provenance)[:-1]
    for k, match in _matches(message, options):
        row = _row(match, fields, parts[k], options, tally)
        if row is not None:
            yield row


_HEADER_MATCHES: dict[tuple[Options, bool], dict[str, tuple[Match, ...]]] = {}
"""The matches of recent header values: every message of a list archive repeats the same
List-Unsubscribe, List-Archive and List-Post, and their matches are most of an archive's."""
_HEADER_CACHE_SIZE = 1024
_HEADER_CACHE_CHARS = 2048  # longer values (Received, DKIM-Signature) seldom recur


def _matches(message: MessageText, options: Options) -> Iterator[tuple[int, Match]]:
    """``extract_each`` over the message's texts (its flowed parts unflowed, D31), with recurring
    header values not scanned again. Lazy: a message of a million candidates is never held as a
    million matches."""
    flowed = {k: unflow(message.texts[k], delsp) for k, delsp in (message.flowed or {}).items()}
    unflowed = {k: found for k, found in flowed.items() if len(found.segments) > 1}  # some joined
    if not unflowed:
        yield from _scanned(message.texts, message, options)
        return
    texts = [unflowed[k].text if k in unflowed else text for k, text in enumerate(message.texts)]
    lines = {k: Lines(message.texts[k]) for k in unflowed}
    for k, match in _scanned(texts, message, options):
        yield k, (original(match, unflowed[k], message.texts[k], lines[k]) if k in unflowed else match)


def _scanned(texts: list[str], message: MessageText, options: Options) -> Iterator[tuple[int, Match]]:
    """The matches of ``texts`` in order: the header values' from the cache where they recur, the
    rest from one pass of ``extract_each`` over the texts not known."""
    headers = message.headers
    extraction = {**_extraction(options), "pipermail": message.pipermail}
    cache = _HEADER_MATCHES.get((options, message.pipermail))
    if cache is None:
        cache = _HEADER_MATCHES[options, message.pipermail] = {}
    known = {
        k: hit
        for k, text in enumerate(texts[:headers])
        if len(text) <= _HEADER_CACHE_CHARS and (hit := cache.get(text)) is not None
    }
    todo = [k for k in range(len(texts)) if k not in known] if known else range(len(texts))
    fresh: dict[int, list[Match]] = {}  # the header values' matches, to remember
    scanned_headers = [k for k in todo if k < headers]
    remembered = not scanned_headers
    given = 0  # the texts before this one have all been given
    for j, match in extract_each([texts[k] for k in todo] if known else texts, **extraction):
        k = todo[j]
        if k < headers:
            fresh.setdefault(k, []).append(match)
        elif not remembered:
            _remember(cache, texts, scanned_headers, fresh)
            remembered = True
        while given < k:  # the known texts before this one
            for cached in known.get(given, ()):
                yield given, cached
            given += 1
        yield k, match
    if not remembered:
        _remember(cache, texts, scanned_headers, fresh)
    for k, hits in known.items():  # in order, as they were found
        if k >= given:
            for cached in hits:
                yield k, cached


def _remember(
    cache: dict[str, tuple[Match, ...]],
    texts: list[str],
    scanned: Iterable[int],
    found: dict[int, list[Match]],
) -> None:
    """Keep the matches (none, often) of the header values just scanned, the oldest forgotten."""
    for k in scanned:
        if len(texts[k]) <= _HEADER_CACHE_CHARS:
            cache[texts[k]] = tuple(found.get(k, ()))
            if len(cache) > _HEADER_CACHE_SIZE:
                del cache[next(iter(cache))]


def _rows(matches: Iterable[Match], where: Provenance, options: Options, tally: Tally) -> Iterator[Row]:
    fields = tuple(where)[:-1]
    for match in matches:
        row = _row(match, fields, where.part, options, tally)
        if row is not None:
            yield row


def _row(
    match: Match, fields: tuple[Any, ...], part: str | None, options: Options, tally: Tally
) -> Row | None:
    verdict = match.verdict
    if verdict.valid:
        tally.urls += 1
        error = None
    else:
        tally.rejected += 1
        # A wrapper never closed (D21) is rejected whatever its text: no other profile takes it.
        unclosed = verdict.error is not None and verdict.error.production == "wrapper"
        if (
            options.second_opinion is not None
            and not unclosed
            and _judge(match.url, options.second_opinion).valid
        ):
            tally.rejected_valid_elsewhere += 1
        if not options.invalid:
            return None
        error = str(verdict.error)
    return (
        match.url,
        match.alternatives,
        verdict.valid,
        verdict.scheme,
        match.wrapper,
        match.wrapper is None,
        match.line,
        match.column,
        *fields,
        part,
        error,
    )


def _report(defect: Defect, tally: Tally) -> Report:
    error = defect.kind in ERROR_KINDS
    if error:
        tally.errors += 1
    else:
        tally.warnings += 1
    return Report(
        place(defect.provenance), defect.kind, defect.detail, error, defect.provenance.message, defect.line
    )


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


def walked() -> Tally:
    """The count of a ``walk`` report: a folder not entered, or an entry of a folder not read."""
    return Tally(errors=1, unwalked=1)


def scan_file(path: str, options: Options) -> tuple[list[Event], Tally]:
    """All the events of one file and its tally (what a worker process sends back)."""
    tally = Tally()
    return list(results(path, options, tally)), tally


FileEvents = tuple[str, list[Event], Tally]
"""A path, the events of all or one piece of it, and their tally (what a worker sends back)."""


def scan_unit(unit: Unit, options: Options, render: Render | None = None) -> list[FileEvents]:
    """The events of one unit of work (``units.plan``): of each of its files, or of its piece of
    one file (messages numbered from 0 and lines from 1 in the piece; ``join_pieces`` numbers them
    on). The one function a worker runs, in a process pool or on a Dask cluster; with ``render``,
    it prints the rows too (the printing process then only copies text)."""
    if unit.kind == "files":
        found = [(path, *scan_file(path, options)) for path in unit.names]
        if render is None:
            return found
        return [(path, render(events, None), tally) for path, events, tally in found]
    tally, counter = Tally(), Counter()
    items = read_piece(unit.kind, unit.path, unit.start, unit.end, options.read, counter)
    events = list(_events(unit.path, items, options, tally, counter))
    if render is not None:
        events = render(events, _slot(unit))
    return [(unit.path, events, tally)]


def _slot(unit: Unit) -> int | None:
    """The column whose numbers go on from the file's earlier pieces (``_renumbered``)."""
    if unit.start == 0:
        return None
    return {"mbox": _MESSAGE_COLUMN, "jsonl": _MESSAGE_COLUMN, "text": _LINE_COLUMN}.get(unit.kind)


def lost(path: str, error: BaseException) -> FileEvents:
    """What stands for a file whose worker failed: a report, and a tally of one failed file."""
    detail = f"the worker reading it failed: {type(error).__name__}: {reason(error)}"
    return path, [Report(path, "lost", detail, True)], Tally(files=1, files_failed=1, errors=1)


def in_files(
    done: Iterator[tuple[Unit, list[FileEvents]] | Report],
) -> Iterator[tuple[str, Iterator[Event], Tally] | Report]:
    """The results of units, in order, as the results of files: each file's events and tally, its
    pieces joined (``join_pieces``); reports between units are passed on. A file's events must be
    read before the next file is asked for (its pieces are read from ``done`` as they are needed);
    its tally is whole when they have been."""
    for item in done:
        if isinstance(item, Report):
            yield item
            continue
        unit, found = item
        if unit.kind == "files":
            for path, events, tally in found:
                yield path, iter(events), tally
            continue
        tally = Tally()
        joined = join_pieces(unit, found[0], done, tally)
        yield unit.path, joined, tally
        for _ in joined:  # a reader that stopped early: the file's other pieces are skipped
            pass


def join_pieces(
    first: Unit, found: FileEvents, more: Iterator[tuple[Unit, list[FileEvents]] | Report], tally: Tally
) -> Iterator[Event]:
    """The events of a file read in pieces, as one read of the whole file gives them: from ``first``
    and ``found``, then the pieces taken from ``more`` up to the file's last (``Joined`` says how).
    ``tally`` gets the pieces' counts as they come."""
    unit, joined = first, Joined()
    while True:
        events, piece_tally, joined = joined.piece(unit, found)
        yield from events
        tally.add(piece_tally)
        if unit.last:
            return
        following = next(more)
        if isinstance(following, Report):  # a file's pieces come one after the other
            raise RuntimeError(f"a report came between the pieces of {unit.path}")
        unit, found = following[0], following[1][0]


@dataclass(frozen=True)
class Joined:
    """What the pieces of a file read so far say to the ones after them: an mbox's messages and a
    text's lines (numbers go on from them), whether the file failed, and a text's first overlong
    line (a whole read reports it once, at the text's end)."""

    messages: int = 0
    lines: int = 0
    failed: bool = False
    long_line: Report | None = None

    def piece(self, unit: Unit, found: FileEvents) -> tuple[list[Event], Tally, Joined]:
        """The events of the next piece as a whole read gives them, its counts (the file counted
        once, by its first piece; failed once, by the first piece that failed), and what the
        pieces after it need."""
        _, raw, tally = found
        tally = replace(tally, files=int(unit.start == 0))
        failed = self.failed or bool(tally.files_failed)
        tally.files_failed = int(failed and not self.failed)
        long_line = self.long_line
        events: list[Event] = []
        for event in raw:
            if unit.kind == "text" and isinstance(event, Report) and event.kind == "long-line":
                if long_line is None and event.line is not None:
                    line = self.lines + event.line
                    long_line = event._replace(detail=long_line_detail(line), line=line)
                elif event.error:  # a whole read reports a text's first only
                    tally.errors -= 1
                else:
                    tally.warnings -= 1
                continue
            events.append(_renumbered(event, self.messages, self.lines))
        if unit.kind == "text" and unit.start:
            tally.parts -= 1  # a text is one part, however many pieces
        if unit.last and long_line is not None:
            events.append(long_line)
        after = Joined(
            # An mbox's messages go on from its messages, a JSON-lines file's from its lines.
            self.messages + tally.messages * (unit.kind == "mbox") + tally.lines * (unit.kind == "jsonl"),
            self.lines + tally.lines * (unit.kind == "text"),
            failed,
            long_line,
        )
        return events, tally, after


def _renumbered(event: Event, messages: int, lines: int) -> Event:
    """An event of a piece, numbered as in the whole file."""
    if isinstance(event, Rendered):  # its numbers are the piece's messages or lines (``_slot``)
        return replace(event, shift=messages + lines) if event.numbers else event
    if isinstance(event, Report):
        if not messages or event.message is None:
            return event
        number = event.message + messages
        return event._replace(place=f"{event.place[: event.place.rindex('#')]}#{number}", message=number)
    if messages and event[_MESSAGE_COLUMN] is not None:
        event = (*event[:_MESSAGE_COLUMN], event[_MESSAGE_COLUMN] + messages, *event[_MESSAGE_COLUMN + 1 :])
    if lines and event[_MESSAGE_COLUMN] is None:  # a plain text's row: lines go on
        event = (*event[:_LINE_COLUMN], event[_LINE_COLUMN] + lines, *event[_LINE_COLUMN + 1 :])
    return event
