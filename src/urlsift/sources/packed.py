"""Compressed files as streams: gzip, bzip2 and xz are read through, never unpacked to disk, and a
stream that expands past a limit (a decompression bomb) is stopped with an error."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from typing import IO, Protocol

MAX_EXPAND = 20 * 10**9
"""Default cap on what one compressed stream may expand to (bytes)."""
MAX_RATIO = 1000
"""A stream may also not expand past this many times its packed size, when that size is known."""


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


# The decompressing readers close nothing of their own: the file under them is the caller's.
_OPENERS: list[tuple[bytes, str, Callable[[IO[bytes]], _Readable]]] = [
    (b"\x1f\x8b", ".gz", lambda f: gzip.GzipFile(fileobj=f, mode="rb")),
    (b"BZh", ".bz2", lambda f: bz2.BZ2File(f, mode="rb")),
    (b"\xfd7zXZ\x00", ".xz", lambda f: lzma.LZMAFile(f, mode="rb")),  # noqa: SIM115
]


def is_packed(head: bytes) -> bool:
    """Whether ``head`` starts a gzip, bzip2 or xz stream."""
    return any(head.startswith(magic) for magic, _, _ in _OPENERS)


CORRUPT = (
    EOFError,
    OSError,  # gzip.BadGzipFile among them
    lzma.LZMAError,
    zlib.error,
    zipfile.BadZipFile,  # a CRC that does not match, a cut central directory
    tarfile.TarError,
    NotImplementedError,  # a zip member packed by a method this Python lacks
)
"""What a corrupt or truncated compressed stream or archive raises while it is read."""


class ExpansionLimitError(OSError):
    """A compressed stream expanded past its limit."""


class Capped(io.RawIOBase):
    """A stream that raises ExpansionLimitError once more than ``limit`` bytes came out of it."""

    def __init__(self, inner: _Readable, limit: int) -> None:
        self._inner = inner
        self._limit = limit
        self._count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._inner.read(len(buffer))
        self._count += len(data)
        if self._count > self._limit:
            raise ExpansionLimitError(
                0, f"expands past {self._limit:,} bytes (a decompression bomb?); stopped"
            )
        buffer[: len(data)] = data
        return len(data)


def unpacked(
    file: IO[bytes], head: bytes, name: str, packed_size: int | None, max_expand: int
) -> tuple[IO[bytes], str] | None:
    """The decompressed stream of ``file`` and its name less the suffix, or None when ``head``
    (its first bytes) is no compressed format we read."""
    for magic, suffix, opener in _OPENERS:
        if head.startswith(magic):
            limit = max_expand if packed_size is None else min(max_expand, MAX_RATIO * max(packed_size, 1))
            inner = name[: -len(suffix)] if name.lower().endswith(suffix) else name
            return io.BufferedReader(Capped(opener(file), limit), buffer_size=1 << 16), inner
    return None
