"""HTTP's chunked transfer coding and its other codings (gzip, deflate, br, zstd; as transfer
or content codings), undone in bounded steps for the WARC reader: no read gives more than it is
asked for, whatever a chunk or a compressed stream claims (a 1 GiB chunk is read 64 KiB at a
time), and every coding's output is spent from a Budget (``packed.Capped``), so ``--max-expand``
and the 1000x ratio hold for each layer. Damage is a CorruptData at the point it is met: what came
before it has been given. A body that is not chunked though its header says so is read as it is,
said in the notes ``decoded`` is handed.
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Callable
from typing import Protocol

from ..errors import MissingExtra
from .packed import Budget, Capped, CorruptData, zstd, zstd_options

MAX_CODINGS = 4
"""Codings stacked on one body (``Content-Encoding: gzip, br``, and those of Transfer-Encoding
other than chunked, together); more is damage."""
MAX_CHUNK_LINE = 4096
"""A chunk-size line (its size in hex and any extensions) longer than this is damage."""
MAX_TRAILER = 1 << 16
"""What follows the last chunk: a trailer section longer than this is none."""
_STEP = 1 << 16
_FIRST_PIECE = 1 << 10
# RFC 9112 7.1: chunk-size = 1*HEXDIG; leading zeros are no digits of the size's bound.
_CHUNK_SIZE = re.compile(rb"0*([0-9A-Fa-f]{1,16})")
_NOT_ZERO = re.compile(rb"[^\0]")
_FIELD = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+:")
_NAMES = {"gzip": "gzip", "x-gzip": "gzip", "deflate": "deflate", "br": "br", "zstd": "zstd"}
"""The codings undone, by their HTTP names (RFC 9110 8.4.1, RFC 8878 7.2)."""
_ZSTD_FRAME = re.compile(rb"\(\xb5/\xfd|[\x50-\x5f]\x2a\x4d\x18", re.S)
"""The start of a Zstandard frame, or of a skippable one (RFC 8878 3.1)."""


class CutCoding(CorruptData):
    """A coding whose input ended before its end: the file's end, when the record is cut too
    (``limit``: the record's report says it)."""


class Body(Protocol):
    """A record's bytes (warcio's LimitReader): ``limit`` is what the file ended before."""

    def read(self, size: int = -1, /) -> bytes: ...

    def readline(self, size: int = -1, /) -> bytes: ...


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def codings(header: str | None) -> list[str] | None:
    """The content codings a Content-Encoding header names, in the order they were applied
    (``identity`` left out); None when one of them is not undone here (the body is read as it is,
    as browsers show what they cannot decode)."""
    names = [name.strip().lower() for name in (header or "").split(",")]
    named = [name for name in names if name and name != "identity"]
    if any(name not in _NAMES for name in named):
        return None
    return [_NAMES[name] for name in named]


def transfer_codings(header: str | None) -> tuple[bool, list[str] | None]:
    """Whether a Transfer-Encoding header ends with ``chunked`` (RFC 9112 6.3: else the body is
    not chunked), and the other transfer codings it names, in the order applied (None when one of
    them is not undone here: the body, once unchunked, is read as it is)."""
    names = [name.strip().lower() for name in (header or "").split(",")]
    named = [name for name in names if name and name != "identity"]
    chunked = bool(named) and named[-1] == "chunked"
    rest = named[:-1] if chunked else named
    return chunked, None if "chunked" in rest else codings(",".join(rest))


def decoded(
    body: Body,
    chunked: bool,
    applied: list[str],
    budget: Budget,
    notes: list[str] | None = None,
    transfer: list[str] | None = None,
) -> _Readable:
    """The payload of an HTTP message whose body is ``body``: the chunked coding undone, then the
    other ``transfer`` codings, then the content codings ``applied`` (in each list the last
    applied undone first), each layer's output spent from ``budget``. What was worked around (a
    body not chunked as its header says) is added to ``notes``."""
    transfer = transfer or []
    if len(applied) + len(transfer) > MAX_CODINGS:
        what = "content codings" if not transfer else "content and transfer codings"
        raise CorruptData(f"{len(applied) + len(transfer)} {what} stacked (more than {MAX_CODINGS})")
    stream: _Readable = Chunked(body, [] if notes is None else notes) if chunked else body
    for name in reversed(transfer):
        stream = Capped(_Decoding(stream, name, "transfer"), budget)
    for name in reversed(applied):
        stream = Capped(_Decoding(stream, name), budget)
    return stream


class Chunked(io.RawIOBase):
    """RFC 9112 7.1's chunked coding undone: chunk data is given as it is read, never held (but a
    first chunk of at most 64 KiB, until the line break after it is seen). A body that is not
    chunked though its header says so (its first line no chunk size, its first chunk not followed
    by a line break, bytes after a first chunk of size 0 that are no trailer) is given as it is, as
    browsers and wget read it (a crawler that stored the body unchunked and kept the header), and
    said in ``notes``; damage after the first chunk is a CorruptData, what came before given."""

    def __init__(self, body: Body, notes: list[str]) -> None:
        self._body = body
        self._notes = notes
        self._left = 0  # bytes of the current chunk not yet read
        self._chunks = 0
        self._plain = False  # not chunked after all
        self._ended = False
        self._held = b""  # bytes read ahead, given before any other

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._step(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def _step(self, size: int) -> bytes:
        while not self._held and not self._plain and not self._ended and self._left == 0:
            self._next_chunk()
        if self._held:
            data, self._held = self._held[:size], self._held[size:]
            return data
        if self._plain:
            return self._body.read(size)
        if self._ended:
            return b""
        data = self._body.read(min(size, self._left))
        if not data:
            self._cut()
            return b""
        self._left -= len(data)
        if self._left == 0 and self._body.readline(3).strip(b"\r\n"):
            raise CorruptData("a chunk of the chunked coding is not followed by a line break")
        return data

    def _next_chunk(self) -> None:
        line = self._body.readline(MAX_CHUNK_LINE + 1)
        if not line and self._chunks == 0:  # no body at all (a 304's): nothing is lost
            self._ended = True
            return
        if not line:
            self._cut()
            return
        size = None
        if len(line) <= MAX_CHUNK_LINE:
            size = _CHUNK_SIZE.fullmatch(line.split(b";", 1)[0].strip(b" \t\r\n"))
        if size is None:
            if self._chunks == 0:
                self._unchunked(line, f"its first line is no chunk size ({_shown(line)})")
                return
            raise CorruptData(f"a chunk size line that is none ({_shown(line)})")
        self._chunks += 1
        self._left = int(size.group(1), 16)
        if self._left == 0:
            self._trailer(line)
        elif self._chunks == 1 and self._left <= _STEP:
            self._first_chunk(line)

    def _first_chunk(self, line: bytes) -> None:
        """The first chunk, held until the line break after it says the body is chunked."""
        data = _read(self._body, self._left)
        after = self._body.readline(3) if len(data) == self._left else b""
        if len(data) < self._left and getattr(self._body, "limit", 0) > 0:
            self._held, self._left = data, 0  # the file's end cut it: the record says so
            self._cut()
        elif len(data) < self._left:
            self._unchunked(line + data, "it ends inside its first chunk")
        elif after.strip(b"\r\n"):
            self._unchunked(line + data + after, "its first chunk is not followed by a line break")
        else:
            self._held, self._left = data, 0

    def _trailer(self, line: bytes) -> None:
        """The trailer section after the last chunk (``line``), up to its blank line, then the
        body's end; after a first chunk of size 0, any other bytes say the body is not chunked."""
        read = [line]
        taken = 0
        why = ""
        while not why:
            field = self._body.readline(MAX_TRAILER + 1 - taken)
            read.append(field)
            taken += len(field)
            if not field:
                if len(read) == 2:  # no trailer, and not even its blank line: nothing is lost
                    break
                why = "the trailer after its last chunk has no blank line"
            elif field in (b"\r\n", b"\n"):
                more = self._body.read(1)
                read.append(more)
                if not more:
                    break
                why = "bytes follow its last chunk's trailer"
            elif taken > MAX_TRAILER or not _FIELD.match(field):
                why = f"bytes follow its last chunk that are no trailer field ({_shown(field)})"
        if not why:
            self._ended = True
        elif self._chunks == 1:
            self._unchunked(b"".join(read), why)
        elif read[-1]:
            raise CorruptData(f"the chunked coding is damaged at its end: {why}; not read")
        else:
            self._cut("the chunked coding ends inside its trailer")

    def _unchunked(self, read: bytes, why: str) -> None:
        self._plain, self._held, self._left = True, read, 0
        self._notes.append(f"the body is not chunked, though Transfer-Encoding says so: {why}; read as it is")

    def _cut(self, what: str = "the chunked coding ends before its last chunk") -> None:
        self._ended = True
        if getattr(self._body, "limit", 0) <= 0:  # else the file ended: the record says it
            raise CorruptData(what)


def _read(body: _Readable, size: int) -> bytes:
    """``size`` bytes of ``body``, fewer at its end."""
    pieces: list[bytes] = []
    while size > 0 and (piece := body.read(size)):
        pieces.append(piece)
        size -= len(piece)
    return b"".join(pieces)


def _shown(line: bytes) -> str:
    return repr(line[:40]) + ("..." if len(line) > 40 else "")


class _Decoding(io.RawIOBase):
    """One coding undone, each read one bounded step of its decompressor (a step gives at most
    what was asked; brotli's may give a little more, kept for the next read). gzip members and
    Zstandard frames may follow one another (RFC 1952 2.2, RFC 8878 3.1), each undone in turn;
    zero bytes after a gzip member are padding (as gzip(1) reads them); any other bytes after the
    stream's end are a CorruptData, raised once what came before was given.

    The input is read 64 KiB at a time and handed to the decompressor in pieces that start at
    1 KiB with each member and double: the decompressor copies what follows a member's end, and a
    64 KiB piece for each member of a few bytes would cost 64 KiB a member."""

    def __init__(self, inner: _Readable, name: str, kind: str = "content") -> None:
        self._inner, self._name = inner, name
        self._what = f"the {name} {kind} coding"
        self._kept = b""
        self._read = b""  # input read, handed to the decompressor up to ``_at``
        self._at = 0
        self._piece = _FIRST_PIECE
        self._started = self._ended = False
        self._done = False  # a member has ended: what follows it is looked at next
        self._step: Callable[[int], bytes]
        if name in ("gzip", "deflate"):
            self._zlib: zlib._Decompress | None = None
            self._step = self._inflate
        elif name == "zstd":
            self._zstd_module = zstd()
            self._zstd = self._zstd_module.ZstdDecompressor(options=zstd_options())
            self._zstd_error: type[Exception] = self._zstd_module.ZstdError
            self._step = self._unzstd
        else:
            self._brotli = _brotli()
            self._step = self._unbrotli

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        size = len(buffer)
        while not self._kept and not self._ended:
            if self._done:
                self._next_member()
            else:
                self._kept = self._step(size)
        data, self._kept = self._kept[:size], self._kept[size:]
        buffer[: len(data)] = data
        return len(data)

    def _input(self) -> bytes:
        if self._at == len(self._read):
            self._read, self._at = self._inner.read(_STEP), 0
            if not self._read:
                self._ended = True
                if self._started:  # an empty body is no damage: nothing was coded
                    raise CutCoding(f"{self._what} is cut before its end")
                return b""
        self._started = True
        data = self._read[self._at : self._at + self._piece]
        self._at += len(data)
        self._piece = min(2 * self._piece, _STEP)
        return data

    def _member_end(self, unused: int) -> None:
        """A member has ended, the last ``unused`` bytes handed in after its end."""
        self._at -= unused  # (all handed in since ``_read`` was read: it is read when all were taken)
        self._done = True

    def _next_member(self) -> None:
        """After a member's end: the next member, the input's end, or bytes that are none (a
        CorruptData: what came before has been given). Each byte is looked at once."""
        self._done = False
        need = 4 if self._name == "zstd" else 1
        while True:
            if self._name == "gzip":
                found = _NOT_ZERO.search(self._read, self._at)
                self._at = found.start() if found else len(self._read)
            if len(self._read) - self._at >= need:
                break
            more = self._inner.read(_STEP)
            if not more:
                break
            self._read, self._at = self._read[self._at :] + more, 0
        head = self._read[self._at : self._at + 41]
        if not head:
            self._ended = True
        elif (self._name == "gzip" and head[0] == 0x1F) or (self._name == "zstd" and _ZSTD_FRAME.match(head)):
            self._piece = _FIRST_PIECE
            if self._name == "gzip":
                self._zlib = zlib.decompressobj(31)
            else:
                self._zstd = self._zstd_module.ZstdDecompressor(options=zstd_options())
        else:
            self._ended = True
            raise CorruptData(f"bytes after the end of {self._what} ({_shown(head)}); not read")

    def _inflate(self, size: int) -> bytes:
        if self._zlib is None:
            data = self._input()
            if not data:
                return b""
            # HTTP's deflate is zlib's format; servers that send raw deflate are many (RFC 9110 8.4.1.2).
            wrapped = len(data) < 2 or (data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0)
            self._zlib = zlib.decompressobj(31 if self._name == "gzip" else 15 if wrapped else -15)
        else:
            data = self._zlib.unconsumed_tail or self._input()
            if not data:
                return b""
        try:
            out = self._zlib.decompress(data, size)
        except zlib.error as error:
            raise CorruptData(f"{self._what} is damaged ({error})") from error
        if self._zlib.eof:
            self._member_end(len(self._zlib.unused_data))
        return out

    def _unzstd(self, size: int) -> bytes:
        data = self._input() if self._zstd.needs_input else b""
        if self._ended:
            return b""
        try:
            out: bytes = self._zstd.decompress(data, size)
        except self._zstd_error as error:
            raise CorruptData(f"{self._what} is damaged ({error})") from error
        if self._zstd.eof:
            self._member_end(len(self._zstd.unused_data))
        return out

    def _unbrotli(self, size: int) -> bytes:
        data = self._input() if self._brotli.can_accept_more_data() else b""
        if self._ended:
            return b""
        try:
            out: bytes = self._brotli.process(data, output_buffer_limit=size)
        except Exception as error:  # brotli.error, the module's only one
            raise CorruptData(f"{self._what} is damaged ({error})") from error
        if self._brotli.is_finished():
            self._member_end(0)  # (bytes after its end in the same piece: the decoder's error)
        return out


def _brotli() -> _Brotli:
    """A brotli decompressor that bounds each step's output (the brotli package 1.2 or later)."""
    try:
        import brotli
    except ImportError as error:
        raise MissingExtra(
            "a brotli content coding, not undone without the brotli package", "warc"
        ) from error
    decompressor: _Brotli = brotli.Decompressor()
    if not hasattr(decompressor, "can_accept_more_data"):  # before 1.2: no bound on a step
        raise MissingExtra("a brotli content coding, not undone without brotli 1.2 or later", "warc")
    return decompressor


class _Brotli(Protocol):
    def process(self, data: bytes, output_buffer_limit: int = ...) -> bytes: ...

    def can_accept_more_data(self) -> bool: ...

    def is_finished(self) -> bool: ...
