"""HTTP's chunked transfer coding and its content codings (gzip, deflate, br, zstd), undone in
bounded steps for the WARC reader: no read gives more than it is asked for, whatever a chunk or a
compressed stream claims (a 1 GiB chunk is read 64 KiB at a time), and every coding's output is
spent from a Budget (``packed.Capped``), so ``--max-expand`` and the 1000x ratio hold for each
layer. Damage is a CorruptData at the point it is met: what came before it has been given.
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
"""Content codings stacked on one body (``Content-Encoding: gzip, br``); more is damage."""
MAX_CHUNK_LINE = 4096
"""A chunk-size line (its size in hex and any extensions) longer than this is damage."""
_STEP = 1 << 16
_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,16}")
_NAMES = {"gzip": "gzip", "x-gzip": "gzip", "deflate": "deflate", "br": "br", "zstd": "zstd"}
"""The content codings undone, by their HTTP names (RFC 9110 8.4.1, RFC 8878 7.2)."""


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


def decoded(body: Body, chunked: bool, applied: list[str], budget: Budget) -> _Readable:
    """The payload of an HTTP message whose body is ``body``: the chunked coding undone, then
    each of the content codings ``applied`` (the last applied undone first), each layer's output
    spent from ``budget``."""
    if len(applied) > MAX_CODINGS:
        raise CorruptData(f"{len(applied)} content codings stacked (more than {MAX_CODINGS})")
    stream: _Readable = Chunked(body) if chunked else body
    for name in reversed(applied):
        stream = Capped(_Decoding(stream, name), budget)
    return stream


class Chunked(io.RawIOBase):
    """RFC 9112 7.1's chunked coding undone: chunk data is given as it is read, never held. A body
    whose first line is no chunk size is given as it is (a crawler that stored the body unchunked
    and kept the header: warcio read it so); a bad size line after it is damage."""

    def __init__(self, body: Body) -> None:
        self._body = body
        self._left = 0  # bytes of the current chunk not yet read
        self._chunks = 0
        self._plain = False  # not chunked after all
        self._ended = False
        self._first = b""  # the first line, when it turned out to be data

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._step(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def _step(self, size: int) -> bytes:
        if self._first:
            data, self._first = self._first[:size], self._first[size:]
            return data
        if self._plain:
            return self._body.read(size)
        while not self._ended and self._left == 0:
            self._next_chunk()
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
        if not line:
            self._cut()
            return
        size = _CHUNK_SIZE.fullmatch(line.split(b";", 1)[0].strip(b" \t\r\n"))
        if size is None or len(line) > MAX_CHUNK_LINE:
            if self._chunks == 0:
                self._plain, self._first = True, line
                return
            raise CorruptData(f"a chunk size line that is none ({_shown(line)})")
        self._chunks += 1
        self._left = int(size.group(), 16)
        self._ended = self._left == 0  # the last chunk; its trailer is not read

    def _cut(self) -> None:
        self._ended = True
        if getattr(self._body, "limit", 0) <= 0:  # else the file ended: the record says it
            raise CorruptData("the chunked coding ends before its last chunk")


def _shown(line: bytes) -> str:
    return repr(line[:40]) + ("..." if len(line) > 40 else "")


class _Decoding(io.RawIOBase):
    """One content coding undone, each read one bounded step of its decompressor (a step gives at
    most what was asked; brotli's may give a little more, kept for the next read)."""

    def __init__(self, inner: _Readable, name: str) -> None:
        self._inner, self._name = inner, name
        self._kept = b""
        self._started = self._ended = False
        self._step: Callable[[int], bytes]
        if name in ("gzip", "deflate"):
            self._zlib: zlib._Decompress | None = None
            self._step = self._inflate
        elif name == "zstd":
            module = zstd()
            self._zstd = module.ZstdDecompressor(options=zstd_options())
            self._zstd_error: type[Exception] = module.ZstdError
            self._step = self._unzstd
        else:
            self._brotli = _brotli()
            self._step = self._unbrotli

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        size = len(buffer)
        while not self._kept and not self._ended:
            self._kept = self._step(size)
        data, self._kept = self._kept[:size], self._kept[size:]
        buffer[: len(data)] = data
        return len(data)

    def _input(self) -> bytes:
        data = self._inner.read(_STEP)
        if not data:
            self._ended = True
            if self._started:  # an empty body is no damage: nothing was coded
                raise CutCoding(f"the {self._name} content coding is cut before its end")
        self._started = True
        return data

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
            raise CorruptData(f"the {self._name} content coding is damaged ({error})") from error
        self._ended = self._ended or self._zlib.eof  # what follows its end is ignored, as browsers do
        return out

    def _unzstd(self, size: int) -> bytes:
        data = self._input() if self._zstd.needs_input else b""
        if self._ended:
            return b""
        try:
            out: bytes = self._zstd.decompress(data, size)
        except self._zstd_error as error:
            raise CorruptData(f"the zstd content coding is damaged ({error})") from error
        self._ended = bool(self._zstd.eof)
        return out

    def _unbrotli(self, size: int) -> bytes:
        data = self._input() if self._brotli.can_accept_more_data() else b""
        if self._ended:
            return b""
        try:
            out: bytes = self._brotli.process(data, output_buffer_limit=size)
        except Exception as error:  # brotli.error, the module's only one
            raise CorruptData(f"the br content coding is damaged ({error})") from error
        self._ended = bool(self._brotli.is_finished())
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
