"""mbox files -> RawMessage (index, byte offset, bytes), in one streaming pass over large blocks.

A message starts at a ``From `` line at the start of the file or after an empty line, that looks
like a separator (a date with a time and a year follows): the mboxo/mboxrd form ``From sender
Thu Jan  1 00:00:00 1970`` and pipermail's ``From user at host  Mon May  5 12:34:56 1997``. The
empty line before the next separator belongs to the file, not the message. Body lines that read
``>From ``, ``>>From `` ... lose one ``>`` (mboxrd; in mboxo only ``>From `` occurs, and it was a
quoted ``From `` too). The stdlib's ``mailbox.mbox`` is not used: it reads the file twice, would
create a missing one, and leaves the quoting in place; and a loop over lines costs more than the
rest of the reading (the file is searched in blocks of 64 KiB for ``From `` instead, which finds
the quoted lines too).

A message longer than ``limit`` bytes is not held: its first ``HEAD_BYTES`` are kept (for its
Message-ID) and the rest counted, so one 500 MB message cannot fill memory.

Under the native core (issue 32) the same splitting runs in rust/core/src/mbox.rs, fed the same
blocks; this module stays its reference and oracle.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator
from types import ModuleType
from typing import IO, NamedTuple

from .. import _select
from .._model import Provenance

_SENDER = re.compile(rb"\S+")
_TIME = re.compile(rb"\d\d:\d\d")
_PIPERMAIL_SHAPE = re.compile(rb"From \S+ at \S+ ")  # D32: pipermail's separator
_QUOTED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)
_EMPTY = (b"\n", b"\r\n")
BLOCK_BYTES = 1 << 16
"""Read at a time: a corrupt compressed stream loses at most this much before its error."""
MAX_SEPARATOR_BYTES = 4096
"""A line longer than this is no separator: it is passed on without waiting for its end."""
CHUNK_BYTES = 1 << 20
"""What the native splitter is fed at a time (``chunks``): the blocks read, joined."""
HEAD_BYTES = 1 << 16
"""What is kept of a message over the limit: enough for its headers."""


class RawMessage(NamedTuple):
    number: int
    """0-based, in file order."""
    offset: int
    """Byte offset of its ``From `` line in the file."""
    data: bytes
    """The message without its separator line and the empty line after it; only the first
    HEAD_BYTES when ``size`` is over the limit."""
    size: int
    """Its length in bytes, however much of it was kept."""
    complete: bool
    """False when the file ended in the middle of its last line (a truncated file)."""
    pipermail: bool = False
    """D32: its separator has pipermail's shape (``From user at host  date``): the archiver wrote
    every address in it as ``user at host``."""


class MailChunk(NamedTuple):
    """A run of an mbox's messages left as their bytes, for the core to read, scan and make rows of
    together (``ReadOptions.mail_bytes``, ``_native_mail``): columns, no ``MessageText`` and no
    Python object a message (issue 32). Every one is whole, within ``--max-message`` and
    ``MAX_LINE``, and of one ``pipermail``."""

    data: bytes
    """The messages one after the other."""
    ends: array[int]
    """Where each message ends in ``data``."""
    where: Provenance
    """Their file's (or archive member's) provenance."""
    numbers: array[int]
    offsets: array[int]
    pipermail: bool

    def message(self, k: int) -> tuple[bytes, Provenance]:
        """The ``k``-th message's bytes and provenance (a message Python reads)."""
        ends, where = self.ends, self.where
        data = self.data[ends[k - 1] if k else 0 : ends[k]]
        return data, Provenance(where.source, where.member, self.numbers[k], self.offsets[k], *where[4:])


def is_separator(line: bytes) -> bool:
    """Whether ``line`` (without its line feed) is a separator: shorter than MAX_SEPARATOR_BYTES
    and as the pattern ``From \\S+(?: at \\S+)? .*\\d\\d:\\d\\d(?::\\d\\d)?.* \\d{4}\\s*$`` reads it,
    checked without it: its two ``.*`` backtracked over each other, quadratic in the line (issue
    17: 3 MB of 60 KB lines took 74 s). The pattern holds when the sender (up to the first blank)
    is followed by a space, the line ends in a space and four digits (and blanks), and a time
    lies between the two; the optional `` at host`` only moves where the time may start later."""
    if not line.startswith(b"From ") or len(line) >= MAX_SEPARATOR_BYTES:
        return False
    sender = _SENDER.match(line, 5)
    if sender is None or not line.startswith(b" ", sender.end()):
        return False
    end = len(line.rstrip())  # the blanks that \s takes: space, tab, CR, LF, VT, FF
    if not (line.startswith(b" ", end - 5) and line[end - 4 : end].isdigit()):
        return False
    return _TIME.search(line, sender.end() + 1, end - 5) is not None


class _Message:
    """The message being read: its pieces, kept up to the limit."""

    def __init__(self, index: int, offset: int, limit: int, pipermail: bool = False) -> None:
        self.number, self.offset, self.limit = index, offset, limit
        self.pipermail = pipermail
        self.pieces: list[bytes] = []
        self.size = 0
        self.last = b""
        """Its last 3 bytes: enough to tell whether it ends in an empty line (``\n\r\n``)."""
        self.quoted = False
        """Whether a ``>From `` was seen in it (maybe a quoted line: the one search that finds the
        separators finds these, the message is not searched again)."""

    def add(self, data: bytes) -> None:
        self.size += len(data)
        self.last = (self.last + data[-3:])[-3:]
        # Held whole up to the limit and the empty line that may end it (the file's, not its own): a
        # message cut to its head is over the limit, whatever its last line turns out to be.
        if self.size <= self.limit + len(b"\r\n"):
            self.pieces.append(data)
        elif len(self.pieces) != 1 or len(self.pieces[0]) < HEAD_BYTES:  # over: keep the head only
            self.pieces = [b"".join([*self.pieces, data[:HEAD_BYTES]])[:HEAD_BYTES]]

    def _separating_line(self) -> int:
        """The length of the empty line it ends in, which separates it from the next message (or
        the file's end) and is not its own."""
        if self.last in _EMPTY:  # nothing but that line
            return self.size
        if self.last.endswith(b"\n\n"):
            return 1
        return 2 if self.last.endswith(b"\n\r\n") else 0

    def done(self, complete: bool = True) -> RawMessage:
        size = self.size - self._separating_line()
        data = b"".join(self.pieces)[:size]
        if size > self.limit:
            return RawMessage(self.number, self.offset, data[:HEAD_BYTES], size, complete, self.pipermail)
        if self.quoted:  # the regex costs more than the rest: only where it may find a line
            data = _QUOTED_FROM.sub(rb"\1", data)
        return RawMessage(self.number, self.offset, data, size, complete, self.pipermail)


def _empty_before(data: bytes, at: int, mid_line: bool, after_empty: bool) -> bool:
    """Whether the line before the one starting at ``data[at]`` is empty. ``data[0]`` starts a line
    unless ``mid_line``; ``after_empty`` says whether the line before ``data[0]`` was empty."""
    if at == 0:
        return after_empty and not mid_line
    line_start = data.rfind(b"\n", 0, at - 1) + 1
    return not (line_start == 0 and mid_line) and data[line_start:at] in _EMPTY


def _from_lines(data: bytes, end: int) -> Iterator[tuple[int, bool]]:
    """Where ``From `` starts a line of ``data[:end]`` (True), or follows a ``>`` (False: a quoted
    line, or ``>From `` inside a line; only the first after each line start, as only a line start
    can begin another message), in order."""
    quoted = False  # one was given since the last line start
    at = data.find(b"From ", 0, end)
    while at >= 0:
        before = data[at - 1] if at else 0x0A
        if before == 0x0A:
            yield at, True
            quoted = False
        elif before == 0x3E and not quoted:  # ">"
            yield at, False
            quoted = True
        at = data.find(b"From ", at + 1, end)


def messages(file: IO[bytes], limit: int = 1 << 62, start: int = 0) -> Iterator[RawMessage]:
    """The messages of the mbox ``file``, in order; what comes before the first separator is not
    a message and is skipped. Messages over ``limit`` bytes are given cut (see RawMessage).
    ``start``: the offset of ``file``'s first byte in a larger file the offsets are given in."""
    native = _select.native()
    if native is not None:
        return _native_messages(native, file, limit, start)
    return _messages(file, limit, start)


def _native_messages(native: ModuleType, file: IO[bytes], limit: int, start: int) -> Iterator[RawMessage]:
    """The same, split by the native core: the blocks read here, the messages made there, given
    back a batch (a block's) at a time."""
    splitter = native.MboxSplitter(limit, start)
    while block := file.read(BLOCK_BYTES):
        yield from map(RawMessage._make, splitter.feed(block))
    yield from map(RawMessage._make, splitter.finish())


Chunk = tuple[bytes, "array[int]"]
"""A block's messages as the splitter gives them in columns: their bytes one after the other, and
six columns (where each ends, number, offset, size, complete, pipermail) one after the other."""


def chunks(file: IO[bytes], limit: int = 1 << 62, start: int = 0) -> Iterator[Chunk] | None:
    """``messages``, a block's at a time as one ``Chunk`` (the native splitter's columns, no
    Python object a message); None where the native core does not run."""
    native = _select.native()
    if native is None:
        return None
    return _chunks(native, file, limit, start)


def _chunks(native: ModuleType, file: IO[bytes], limit: int, start: int) -> Iterator[Chunk]:
    """The blocks read as ever (``BLOCK_BYTES``: what a corrupt stream loses), but handed to the
    splitter ``CHUNK_BYTES`` at a time: each chunk is a call of the core's message reader and a
    round of Python steps (``results._mail``), so a few big ones cost less than many small ones.
    The blocks are handed over as they were read, not joined (a copy of every chunk)."""
    splitter = native.MboxSplitter(limit, start)
    held: list[bytes] = []
    size = 0
    while True:
        try:
            block = file.read(BLOCK_BYTES)
        except Exception:  # a read error: the messages of the blocks read before it are given first
            if held:
                yield _laid(*splitter.feed_blocks(held))
            raise
        if not block:
            break
        held.append(block)
        size += len(block)
        if size >= CHUNK_BYTES:
            yield _laid(*splitter.feed_blocks(held))
            held, size = [], 0
    if held:
        yield _laid(*splitter.feed_blocks(held))
    yield _laid(*splitter.finish_chunk())


def _laid(data: bytes, columns: bytes) -> Chunk:
    laid = array("q")
    laid.frombytes(columns)
    return data, laid


def _messages(file: IO[bytes], limit: int, start: int) -> Iterator[RawMessage]:
    """The same, in Python: the oracle of the native splitter."""
    current: _Message | None = None
    index = 0
    position = start  # file offset of data[0]
    mid_line = False  # data[0] continues a long line passed on already
    after_empty = True  # the line before data[0] was empty (the file's start counts as one)
    data = b""
    while True:
        block = file.read(BLOCK_BYTES)
        data = data + block if data else block
        end = data.rfind(b"\n") + 1 if block else len(data)  # whole lines, until the file ends
        if end == 0 and block:
            if len(data) <= MAX_SEPARATOR_BYTES:
                continue
            end = len(data)  # part of a long line, which is no separator: pass it on
        taken = 0
        for at, starts_line in _from_lines(data, end):
            if not starts_line:
                if current is not None:
                    current.quoted = True
                continue
            line_end = data.find(b"\n", at, end)
            line = data[at : end if line_end < 0 else line_end]
            if _empty_before(data, at, mid_line, after_empty) and is_separator(line):
                if current is not None:
                    current.add(data[taken:at])
                    yield current.done()
                    index += 1
                current = _Message(index, position + at, limit, _PIPERMAIL_SHAPE.match(line) is not None)
                taken = at + len(line) + (line_end >= 0)
        if current is not None:
            current.add(data[taken:end])
        if end:
            line_start = data.rfind(b"\n", 0, end - 1) + 1
            ended = data[end - 1] == 0x0A
            after_empty = ended and not (line_start == 0 and mid_line) and data[line_start:end] in _EMPTY
            mid_line = not ended
            if mid_line and current is not None:  # a ">From " may be cut at the edge: look again
                current.quoted = True  # over the joined message (rare: a line of 64 KiB or more)
        position += end
        data = data[end:]
        if not block:
            if current is not None:
                yield current.done(complete=not mid_line)
            return
