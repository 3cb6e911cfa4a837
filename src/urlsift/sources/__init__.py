"""Sources: a path -> what is in it to scan, each item with where it came from.

A path is opened and looked at (its first bytes and its name): gzip, bzip2, xz, Zstandard and
Unix compress (.Z) streams are read through (``packed``), zip and tar archives member by member, and
what is left is an mbox, one message (``.eml``, a news article), a JSON-lines dump (``jsonl``, when
asked for) or plain text. Mail gives one MessageText per message (its headers and decoded text
parts), a dump one per record; plain text is handed on as a TextStream, to be read in bounded
windows (a 20 GB text is never held). Whatever goes wrong is a Defect, naming the file, member
and message; the items before and after it are still given.
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from array import array
from collections.abc import Generator, Iterator
from importlib import import_module
from typing import IO, TYPE_CHECKING, NamedTuple

from .._model import Defect, MessageText, Provenance, Skipped, TextStream
from . import faults
from .batch import BatchError, articles, is_batch
from .faults import reason
from .kinds import container, is_repository, is_warc
from .mbox import HEAD_BYTES, Chunk, MailChunk, RawMessage, chunks, is_separator, messages
from .packed import (
    MAX_DEPTH,
    MAX_EXPAND,
    ZSTD_WINDOW_LOG,
    Budget,
    DiskError,
    Salvaged,
    corrupt,
    defect,
    is_packed,
    stops,
    unpacked,
    unsupported,
)
from .split import Finder, cuts, range_chunks, range_messages, range_reader

if TYPE_CHECKING:
    from . import archives, jsonl

# The readers of archives, WARC files, JSON-lines dumps and public-inbox repositories (with
# zipfile, tarfile, tempfile and json) are imported where a file of their kind is met: every path
# is asked what it is (``kinds``), and a run of plain text or mail never loads them.
_READERS = frozenset({"archives", "jsonl", "publicinbox", "warc"})


def __getattr__(name: str) -> object:
    """``sources.warc`` and the other readers, as when the package imported them."""
    if name in _READERS:
        return import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


FORMATS = ("auto", "text", "mbox", "eml", "batch", "warc", "jsonl")
SNIFF_BYTES = 4096
MAX_MESSAGE = 100 * 10**6
"""Default cap on one message (bytes): a larger one is reported and skipped, not held."""
MAX_LINE = 1 << 20
"""A line longer than this in a message is reported (mail lines are at most 998 bytes, RFC 5322)."""

Item = MessageText | TextStream | Defect | Skipped | MailChunk

# Two or more header lines at the very start, one of them a header every message or article has.
_HEADERS = re.compile(
    rb"(?:[!-9;-~]+:[^\n]*\n(?:[ \t][^\n]*\n)*){2,}",
)
_MESSAGE_HEADER = re.compile(
    rb"^(?:From|Date|Subject|Message-ID|Received|Return-Path|Path|Newsgroups):", re.IGNORECASE | re.MULTILINE
)


class ReadOptions(NamedTuple):
    input_format: str = "auto"
    """One of FORMATS; zip, tar and compressed files are recognised whatever it says."""
    max_expand: int = MAX_EXPAND
    max_message: int = MAX_MESSAGE
    text_fields: tuple[str, ...] = ()
    """"jsonl": the dotted paths of the fields to scan, each a part."""
    id_field: str | None = None
    """"jsonl": the dotted path of the field that is a record's ``message_id``."""
    zstd_window_log: int = ZSTD_WINDOW_LOG
    """The largest Zstandard window read (a power of two; zip members: the default)."""
    since: tuple[str, ...] = ()
    """public-inbox: read only the commits after the one of these a repository holds ..."""
    until: tuple[str, ...] = ()
    """... up to the one of these it holds (else its HEAD) ..."""
    since_skips_epochs: bool = True
    """... and skip a v2 epoch before the one holding a ``since`` commit (``--since``; a state
    file names each epoch's own)."""
    commits: tuple[tuple[str, str | None, str | None], ...] = ()
    """``--state``: each repository's own (real path, commit recorded, HEAD when the run
    started), in place of ``since`` and ``until``: a commit of one repository says nothing of
    another's, even one that holds it (a clone, objects copied in)."""
    date_field: str | None = None
    """"jsonl": the dotted path of the field that is a record's ``date`` (``jsonl._date``)."""
    mail_bytes: bool = False
    """An mbox's plain messages given as ``MailChunk``s, for the core to read with their rows
    (``_native_rows.in_core``'s to say: ``results`` sets it)."""

    def inbox(self, path: str | None = None) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
        """What ``publicinbox.read`` needs of these, for the repository at ``path``."""
        if not self.commits or path is None:
            return self.since, self.until, self.since_skips_epochs
        real = os.path.realpath(path)
        for name, since, until in self.commits:
            if name == real:
                return (() if since is None else (since,)), (() if until is None else (until,)), False
        return (), (), False


def sniff(head: bytes, name: str) -> str:
    """The format of a file from its first bytes and its name: "mbox", "batch", "eml", "warc" or
    "text"."""
    first_line = head.split(b"\n", 1)[0]
    if is_warc(head, name):
        return "warc"
    if is_batch(head):
        return "batch"
    if is_separator(first_line):
        return "mbox"
    if name.lower().endswith(".eml"):
        return "eml"
    headers = _HEADERS.match(head.replace(b"\r\n", b"\n"))
    if headers and _MESSAGE_HEADER.search(headers.group()):
        return "eml"
    return "text"


class Counter:
    """Bytes read from the files on disk so far (compressed bytes, for a compressed file; a byte
    read again after a seek, as a zip's directory is, counts once), and what came out of their
    compressed streams and zip members (``unpacked``: as the scanner got it, all layers in all), and
    the lines of a piece of a JSON-lines file (``lines``: the next piece numbers its records on)."""

    __slots__ = ("bytes", "lines", "unpacked")

    def __init__(self) -> None:
        self.bytes = 0
        self.unpacked = 0
        self.lines = 0


def read_path(path: str, options: ReadOptions, counter: Counter | None = None) -> Generator[Item, None, None]:
    """The items of the file at ``path`` ("-": standard input), in order."""
    where = Provenance("<stdin>" if path == "-" else path)
    counter = Counter() if counter is None else counter
    if path != "-" and is_repository(path):
        yield from _inbox(path, options, counter)
        return
    try:
        raw: IO[bytes] = sys.stdin.buffer if path == "-" else io.FileIO(path, "rb")
        status = os.fstat(raw.fileno())
        size = status.st_size if stat.S_ISREG(status.st_mode) else None  # a pipe's size says nothing
    except (OSError, ValueError) as error:  # io.UnsupportedOperation: a stdin with no file under it
        if path != "-":
            yield Defect("unreadable", where, reason(error))
            return
        size = None
    yield from _read_open(raw, path, where, options, counter, size, close=path != "-")


def read_stream(
    file: IO[bytes], name: str, options: ReadOptions, counter: Counter | None = None
) -> Generator[Item, None, None]:
    """The items of a binary file object, from where it stands, as ``read_path`` gives a file's:
    ``name`` is its path in the rows and reports (and says what a name says when sniffing: .eml).
    The caller opened it and closes it."""
    counter = Counter() if counter is None else counter
    try:
        size = _length(file)
    except (OSError, ValueError):  # a stream that says it seeks and cannot: measured as it is read
        size = None
    yield from _read_open(file, name, Provenance(name), options, counter, size, close=False)


def _read_open(
    raw: IO[bytes],
    name: str,
    where: Provenance,
    options: ReadOptions,
    counter: Counter,
    size: int | None,
    *,
    close: bool,
) -> Generator[Item, None, None]:
    """The items of ``raw``, open; ``size``: its length, or None when it cannot be known (a pipe)."""
    start = counter.bytes
    # A pipe's output is measured against what was read from it so far; a file's, against its size.
    packed = (lambda: counter.bytes - start) if size is None else (lambda: size)
    budget = Budget(options.max_expand, packed)
    with io.BufferedReader(_Counting(raw, counter, close=close), buffer_size=1 << 16) as file:
        try:
            yield from _guarded(file, name, where, options, budget, 0)
        finally:
            counter.unpacked += budget.spent


class _Counting(io.RawIOBase):
    """A raw file that adds what is read from it to a Counter; seekable when the file is."""

    def __init__(self, raw: IO[bytes], counter: Counter, *, close: bool) -> None:
        self._raw, self._counter, self._close = raw, counter, close
        self._seekable = raw.seekable()
        self._read: list[tuple[int, int]] = []  # the ranges read so far, apart, in order

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        try:
            count = self._into(buffer)
        except OSError as error:  # the disk's (or the pipe's): told apart from corrupt data above it
            raise DiskError(error.errno, error.strerror or str(error)) from error
        if self._seekable:
            end = self._raw.tell()
            self._counter.bytes += self._fresh(end - count, end)
        else:
            self._counter.bytes += count
        return count

    def _into(self, buffer: memoryview) -> int:
        """The raw file's next bytes, read straight into ``buffer`` where it can (a file's
        ``readinto``: no bytes object made and copied for each read)."""
        readinto = getattr(self._raw, "readinto", None)
        if readinto is not None:
            return int(readinto(buffer) or 0)
        data = self._raw.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def _fresh(self, start: int, end: int) -> int:
        """How many of the bytes ``[start, end)`` were not read before (they are now)."""
        ranges, fresh = self._read, end - start
        if len(ranges) > 64:  # reads all over the file: counted as read, not kept (bounded work)
            return fresh
        merged_start, merged_end, kept = start, end, []
        for low, high in ranges:
            if high < start or low > end:
                kept.append((low, high))
            else:  # overlapping or touching: merged into one range
                fresh -= max(0, min(high, end) - max(low, start))
                merged_start, merged_end = min(merged_start, low), max(merged_end, high)
        kept.append((merged_start, merged_end))
        self._read = sorted(kept)
        return fresh

    def seekable(self) -> bool:
        return self._raw.seekable()

    def fileno(self) -> int:
        return self._raw.fileno()

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._raw.seek(offset, whence)

    def tell(self) -> int:
        return self._raw.tell()

    def close(self) -> None:
        if self._close:  # standard input stays open
            self._raw.close()
        super().close()


class _LineWatch(io.RawIOBase):
    """A raw stream that notes the first line longer than MAX_LINE going through it. A reader
    that notes it itself (the native core's, issue 31) reads the stream under it instead
    (``unwatched``) and says what it found."""

    def __init__(self, inner: IO[bytes] | io.RawIOBase) -> None:
        self._inner = inner
        self._lines = 1  # the line being read, 1-based
        self._run = 0  # its bytes so far
        self.long_line: int | None = None  # the number of the first long line

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._inner.read(min(len(buffer), 1 << 16))  # shorter than MAX_LINE: see _check
        first = data.find(b"\n")
        if first < 0:
            self._run += len(data)
        else:
            self._check(self._run + first)
            self._lines += data.count(b"\n")
            self._run = len(data) - data.rfind(b"\n") - 1
        self._check(self._run)
        buffer[: len(data)] = data
        return len(data)

    def _check(self, length: int) -> None:
        # Only the first and last line of a read are checked: one whole inside it is shorter.
        if length > MAX_LINE and self.long_line is None:
            self.long_line = self._lines


def unwatched(file: IO[bytes]) -> tuple[IO[bytes] | io.RawIOBase, _LineWatch] | None:
    """The stream under a plain text's line watch (``_text``'s ``TextStream.file``), and the
    watch, for a reader that notes the first line over MAX_LINE itself and sets ``long_line``
    when done; None when ``file`` is no such stream, or has been read (its buffer may hold bytes)."""
    watch = getattr(file, "raw", None)
    if not isinstance(file, io.BufferedReader) or not isinstance(watch, _LineWatch):
        return None
    if watch._lines != 1 or watch._run != 0:  # (any byte read through it moves one of them)
        return None
    return watch._inner, watch


def _guarded(
    file: IO[bytes], name: str, where: Provenance, options: ReadOptions, budget: Budget, depth: int
) -> Iterator[Item]:
    """``_read``, with what a corrupt or unreadable stream raises while this generator reads it made
    a Defect (it ends this file, or this member; a TextStream's own stream is Salvaged: it ends
    where the damage is, and the Defect comes after it). ``depth``: the containers and compressed
    layers ``file`` is inside."""
    if depth > MAX_DEPTH:
        yield Defect("too-deep", where, f"nested more than {MAX_DEPTH} containers deep; not read")
        return
    try:
        yield from _read(file, name, where, options, budget, depth)
    except stops() as error:
        yield defect(error, where)


def _member_reader(options: ReadOptions, depth: int) -> archives.Reader:
    """How an archive's member is read: as a file of its own, one level deeper."""
    return lambda file, name, where, budget: _guarded(file, name, where, options, budget, depth + 1)


def _read(
    file: IO[bytes], name: str, where: Provenance, options: ReadOptions, budget: Budget, depth: int
) -> Iterator[Item]:
    peek = getattr(file, "peek", None)
    head = peek(SNIFF_BYTES)[:SNIFF_BYTES] if peek is not None else b""
    inner = unpacked(file, head, name, budget, options.zstd_window_log)
    if inner is not None:  # gzip, bzip2, xz, Zstandard: read through, whatever they hold
        stream, inner_name, ending = inner
        held: Defect | None = None  # a corrupt end of what it holds, said once its cause is known
        with stream:  # closed here, where it stops (a .Z reader's thread with it: packed.Lzw)
            for item in _guarded(stream, inner_name, where, options, budget, depth + 1):
                if held is not None:
                    yield held
                held = item if isinstance(item, Defect) and item.kind == "corrupt" else None
                if held is None:
                    yield item
        damage = ending.defect(where)
        if damage is not None:  # what came before it was read; a tar cut by it is not cut twice
            yield damage
        elif held is not None:
            yield held
        return
    kind = container(head)
    if kind is not None:
        from . import archives

        yield from archives.members(kind, file, where, budget, _member_reader(options, depth))
        return
    other = unsupported(head)
    if other is not None:  # named, whatever --input-format says (it says what is inside)
        detail = f"compression {other} is not read (gzip, bzip2, xz, Zstandard, .Z, zip and tar are)"
        yield Defect("unsupported", where, detail)
        return
    fmt = sniff(head, name) if options.input_format == "auto" else options.input_format
    if fmt == "jsonl":
        from . import jsonl

        yield from jsonl.Records(file, where, _fields(options), options.max_message)
        return
    if fmt == "text":
        nul = head.find(b"\x00")
        if nul >= 0:  # as grep: a NUL in the first block means binary data, not text
            yield Defect("binary", where, f"binary data (a NUL byte at offset {nul}); not scanned")
            return
        yield from _text(file, where)
        return
    if fmt == "warc":
        from . import warc

        yield from warc.records(file, where, budget, options.max_message)
        return
    if fmt == "mbox":
        chunked = chunks(file, options.max_message) if options.mail_bytes else None
        yield from _mbox(file, where, options) if chunked is None else _chunked(chunked, where, options)
        return
    if fmt == "batch":
        try:
            for raw in articles(file, options.max_message):
                yield _mbox_message(raw, where, options)
        except BatchError as error:
            yield Defect("corrupt", where, f"news batch: {error}")
        return
    # One message: a file known to be over the limit is measured by its size (its head read for
    # its Message-ID); another is read in blocks up to the limit and no further (/dev/zero, a
    # pipe), and is then "more than" the limit.
    here = where._replace(message=0, offset=0)
    size = _length(file)
    if size is not None and size > options.max_message:
        yield _too_large(file.read(HEAD_BYTES), size, here, options)
        return
    pieces: list[bytes] = []
    taken = 0
    limit = options.max_message
    while taken <= limit and (piece := file.read(min(1 << 20, limit + 1 - taken))):
        pieces.append(piece)
        taken += len(piece)
    if taken > options.max_message:
        yield _too_large(pieces[0], None, here, options)  # (a whole block, or more than the limit)
        return
    data = b"".join(pieces)
    del pieces  # the message is held once
    yield _message(data, len(data), here, options, True)


def _fields(options: ReadOptions) -> jsonl.Fields:
    from . import jsonl

    return jsonl.Fields(options.text_fields, options.id_field, options.date_field)


def _length(file: IO[bytes]) -> int | None:
    """The bytes left in ``file`` when it can tell without reading them (a file on disk, a tar
    member); None for a stream (a pipe, a decompressed stream, a zip member)."""
    if not file.seekable():
        return None
    here = file.tell()
    end = file.seek(0, io.SEEK_END)
    file.seek(here)
    return end - here


def cut_points(
    path: str, read: ReadOptions, split: int, text_cut: Finder
) -> tuple[str, list[int], int] | None:
    """Where a file can be cut, for ``units.plan``: ("mbox", "text" or "jsonl", where each range of
    about ``split`` bytes starts (``split.cuts``; ``text_cut`` finds a text's), the file's length);
    ("zip", each member's compressed size, 0); ("tar", where each member's header starts, the
    file's length); None for a file read from its start only (compressed, another format, one
    that cannot be read or listed: reading it whole reports the problem); ("inbox", where each
    range of a public-inbox repository's commits to read starts, their end)."""
    if is_repository(path):
        from . import publicinbox

        starts = publicinbox.cut_points(path, *read.inbox(path), split)
        return ("inbox", starts[:-1], starts[-1]) if starts else None
    try:
        with open(path, "rb") as file:
            length = os.fstat(file.fileno()).st_size
            head = file.read(SNIFF_BYTES)
            if is_packed(head) or unsupported(head) is not None:
                return None
            kind = container(head)
            if kind is not None:
                from . import archives

                return kind, archives.listing(kind, file), 0 if kind == "zip" else length
            fmt = sniff(head, path) if read.input_format == "auto" else read.input_format
            if fmt == "mbox":
                return "mbox", cuts(file, split, length), length
            if fmt == "jsonl":
                from . import jsonl

                return "jsonl", cuts(file, split, length, jsonl.line_start), length
            if fmt == "text" and b"\x00" not in head:  # a NUL: binary, reported by a whole read
                return "text", cuts(file, split, length, text_cut), length
    except OSError:
        pass
    except corrupt():
        pass
    return None


PIECES = ("mbox", "text", "jsonl", "zip", "tar", "inbox")
"""What ``read_piece`` reads: a byte range of an mbox, a text or a JSON-lines file, a group of
members of a zip (by index) or of a tar (by where their headers lie), a range of a public-inbox
repository's commits."""


def read_piece(
    kind: str, path: str, start: int, end: int, options: ReadOptions, counter: Counter | None = None
) -> Generator[Item, None, None]:
    """The items of one piece of the file at ``path`` (``units.plan`` cut it): an mbox range's
    messages, numbered from 0 in the range, with their offsets in the file; a text range's text
    (its lines numbered from 1); the items of a group of archive members, as a whole read gives
    them."""
    where = Provenance(path)
    counter = Counter() if counter is None else counter
    if kind == "inbox":
        yield from _inbox(path, options, counter, start, end)
        return
    before = counter.bytes
    try:
        raw = io.FileIO(path, "rb")
    except OSError as error:
        yield Defect("unreadable", where, reason(error))
        return
    with io.BufferedReader(_Counting(raw, counter, close=True), buffer_size=1 << 16) as file:
        size = os.fstat(raw.fileno()).st_size
        if kind == "mbox":
            chunked = range_chunks(file, start, end, options.max_message) if options.mail_bytes else None
            if chunked is not None:
                yield from _chunked(chunked, where, options)
            else:
                for message in range_messages(file, start, end, options.max_message):
                    yield _mbox_message(message, where, options)
        elif kind == "text":
            yield from _text(range_reader(file, start, end), where)
        elif kind == "jsonl":  # records numbered by their lines in the range, with offsets in the file
            from . import jsonl

            piece = range_reader(file, start, end)
            records = jsonl.Records(piece, where, _fields(options), options.max_message, start)
            yield from records
            counter.lines += records.lines
        elif kind == "zip":
            from . import archives

            budget = Budget(options.max_expand, lambda: size)
            chosen = range(start, end)
            yield from archives.members("zip", file, where, budget, _member_reader(options, 0), chosen)
            counter.unpacked += budget.spent
        elif kind == "tar":
            from . import archives

            budget = Budget(options.max_expand, lambda: end - start)
            piece = range_reader(file, start, end)
            yield from archives.members("tar", piece, where, budget, _member_reader(options, 0))
            counter.unpacked += budget.spent
        else:
            raise ValueError(f"not a kind of piece: {kind!r} (one of {', '.join(PIECES)})")
        size = min(size, os.fstat(raw.fileno()).st_size)
    # A buffer may read past a range, into the next one's bytes: a range counts its own, as far as
    # the file still holds it (one that shrank since it was cut); a zip's members count what was
    # read, their directory with them.
    if kind != "zip":
        counter.bytes = before + max(0, min(end, size) - start)


def _inbox(
    path: str, options: ReadOptions, counter: Counter, start: int = 0, end: int | None = None
) -> Iterator[Item]:
    """The messages of a public-inbox repository (of its commits ``start`` to ``end``, counted
    from the first to read), with the commit as ``member``, its number as ``message``; a message
    lost (a missing blob) is a message with its report, counted as failed."""
    where = Provenance(path)
    from . import publicinbox

    inbox = options.inbox(path)
    for found in publicinbox.read(path, where, options.max_message, inbox, start, end, options.max_expand):
        if isinstance(found, Defect):
            lost = found.provenance.message is not None
            yield MessageText(found.provenance, [], [], 0, [found]) if lost else found
            continue
        counter.bytes += found.size
        yield _message(found.data, found.size, found.where, options, last_line_ended=True)


def _at_message(where: Provenance, number: int, offset: int) -> Provenance:
    """``where`` (a file's, or an archive member's) with a message's index and offset in it."""
    # Built whole, not by _replace: this runs once a message, and _replace costs a few microseconds.
    return Provenance(where.source, where.member, number, offset, *where[4:])


def _mbox(file: IO[bytes], where: Provenance, options: ReadOptions) -> Iterator[Item]:
    """An mbox's messages, each as a ``MessageText``."""
    for raw in messages(file, options.max_message):
        yield _mbox_message(raw, where, options)


def _mbox_message(raw: RawMessage, where: Provenance, options: ReadOptions) -> MessageText:
    """An mbox's message read (a news batch's article too), as a ``MessageText``."""
    here = _at_message(where, raw.number, raw.offset)
    return _message(raw.data, raw.size, here, options, raw.complete, raw.pipermail)


def _chunked(found: Iterator[Chunk], where: Provenance, options: ReadOptions) -> Iterator[Item]:
    """An mbox's messages, a block's at a time (``mbox.chunks``), as ``MailChunk``s: each run of
    them that no check of ``_read_message`` applies to (over the limit, a line cut by the file's
    end, a line over ``MAX_LINE``) and of one ``pipermail``; any other one as a ``MessageText``,
    in its place. The checks are made on the columns (no Python step a message) but in a chunk
    that has such a message."""
    cap = min(options.max_message, MAX_LINE)
    for data, columns in found:
        count = len(columns) // 6
        if not count:
            continue
        ends, numbers, offsets, sizes, complete, pipermail = (
            columns[k * count : (k + 1) * count] for k in range(6)
        )
        # D32: a chunk is of one kind, pipermail's or not (its addresses are read apart).
        if all(complete) and max(sizes) <= cap and pipermail.count(pipermail[0]) == count:
            yield MailChunk(data, ends, where, numbers, offsets, bool(pipermail[0]))
            continue
        run = 0  # the first message of the run not given yet
        for k in range(count):
            whole = complete[k] and sizes[k] <= cap
            if k > run and (not whole or pipermail[k] != pipermail[run]):
                yield _run(data, columns, count, run, k, where)
                run = k
            if not whole:
                body = data[ends[k - 1] if k else 0 : ends[k]]
                ended, kind = bool(complete[k]), bool(pipermail[k])
                raw = RawMessage(numbers[k], offsets[k], body, sizes[k], ended, kind)
                yield _mbox_message(raw, where, options)
                run = k + 1
        if count > run:
            yield _run(data, columns, count, run, count, where)


def _run(data: bytes, columns: array[int], count: int, first: int, end: int, where: Provenance) -> MailChunk:
    """The messages ``first`` to ``end`` of a block's chunk as a ``MailChunk``."""
    ends = columns[first:end]
    base = columns[first - 1] if first else 0
    shifted = array("q", [at - base for at in ends])
    numbers = columns[count + first : count + end]
    offsets = columns[2 * count + first : 2 * count + end]
    pipermail = bool(columns[5 * count + first])
    return MailChunk(data[base : ends[-1]], shifted, where, numbers, offsets, pipermail)


def read_message(data: bytes, where: Provenance, options: ReadOptions, pipermail: bool) -> MessageText:
    """A whole message (of an mbox, read to its end) as a ``MessageText``, by ``mime.read``."""
    return _message(data, len(data), where, options, True, pipermail)


def _message(
    data: bytes,
    size: int,
    where: Provenance,
    options: ReadOptions,
    last_line_ended: bool,
    pipermail: bool = False,
) -> MessageText:
    try:
        return _read_message(data, size, where, options, last_line_ended, pipermail)
    except Exception as error:  # a bug (or the machine's fault) must not end the file: faults.py
        return faults.lost(error, where, pipermail)


def _read_message(
    data: bytes, size: int, where: Provenance, options: ReadOptions, last_line_ended: bool, pipermail: bool
) -> MessageText:
    from . import mime  # (mail's reader and the email package: a run of plain text never loads them)

    if size > options.max_message:
        found = _too_large(data, size, where, options)
        return found._replace(pipermail=True) if pipermail else found
    found = mime.read(data, where, pipermail)
    if not last_line_ended:
        found.defects.append(Defect("truncated", found.provenance, "the file ends in the middle of a line"))
    if len(data) > MAX_LINE:  # only a message this long can hold a line this long
        longest = _longest_line(data)
        if longest > MAX_LINE:
            detail = f"a line of {longest:,} bytes (over {MAX_LINE:,}); scanned, but it is no mail text"
            found.defects.append(Defect("long-line", found.provenance, detail))
    return found


def _longest_line(data: bytes) -> int:
    """The length of the longest line of ``data``, split a window at a time (a whole split would
    copy the message once more)."""
    longest = run = 0  # run: the length so far of the line the window ends in
    for at in range(0, len(data), MAX_LINE):
        window = data[at : at + MAX_LINE]
        first, last = window.find(b"\n"), window.rfind(b"\n")
        if first < 0:
            run += len(window)
            continue
        inner = max(map(len, window[first + 1 : last].split(b"\n"))) if last > first else 0
        longest = max(longest, run + first, inner)
        run = len(window) - last - 1
    return max(longest, run)


def _too_large(head: bytes, size: int | None, where: Provenance, options: ReadOptions) -> MessageText:
    """A message over the limit, not scanned: named from its ``head`` (its first bytes), with its
    ``size`` (None: not measured, more than the limit)."""
    measured = f"more than {options.max_message:,}" if size is None else f"{size:,}"
    detail = f"a message of {measured} bytes, over the {options.max_message:,}-byte limit; not scanned"
    from . import mime

    where = mime.identified(head[:HEAD_BYTES], where)
    return MessageText(where, [], [], 0, [Defect("too-large", where, detail)])


def _text(file: IO[bytes], where: Provenance) -> Iterator[Item]:
    ending = Salvaged(file)  # a read error of the disk ends the text where it is, then is reported
    watch = _LineWatch(ending)
    yield TextStream(io.BufferedReader(watch, buffer_size=1 << 16), where)
    if watch.long_line is not None:
        yield Defect("long-line", where, long_line(watch.long_line), watch.long_line)
    damage = ending.defect(where)
    if damage is not None:
        yield damage


def long_line(line: int) -> str:
    """What a report on a text's first overlong line says (``line``: its number)."""
    return f"line {line:,} is over {MAX_LINE:,} bytes long; scanned"


__all__ = [
    "FORMATS",
    "MAX_LINE",
    "MAX_MESSAGE",
    "SNIFF_BYTES",
    "Counter",
    "Item",
    "ReadOptions",
    "cut_points",
    "read_message",
    "read_path",
    "read_piece",
    "read_stream",
    "reason",
    "sniff",
    "unwatched",
]
