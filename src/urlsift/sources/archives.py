"""Containers: zip and tar archives, read member by member as streams (never unpacked to disk).

One sniffer (``container``) says whether a file's first bytes start one; ``members`` gives each
member's items through the reader it is handed (``sources._guarded``: a member is read as a file
of its own, so a member may be compressed, or be an archive itself), and ``listing`` says where a
file on disk can be cut between members (``units.plan``).

Every member is read in bounded steps and spends from the archive's Budget (``packed``): a zip
member is decompressed here, whatever its method, with a bound on every step's output (zipfile
decompresses a bzip2 or lzma chunk whole: 3 KB can give 4 GiB at once); a sparse tar member's holes
count as expansion. A zip from a stream is spooled to a temporary file past 1 MiB, so nested zips do
not pile up in memory. A zip whose central directory is gone (a cut download) is read by its local
headers, in order (a walk zipfile does not do). A tar member that claims more bytes than the archive
holds ends the archive with one report, before tarfile would skip them block by block.
"""

from __future__ import annotations

import bz2
import io
import lzma
import os
import stat
import struct
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import IO, NamedTuple, Protocol, cast

from .._model import Defect, MessageText, Provenance, Skipped, TextStream
from ..errors import MissingExtra
from . import faults
from .faults import reason as reason
from .kinds import Kind as Kind
from .kinds import container as container
from .mbox import MailChunk
from .packed import Budget, Capped, Salvaged, ZstdFrames, corrupt, defect, zstd, zstd_options

Item = MessageText | TextStream | Defect | Skipped | MailChunk
Reader = Callable[[IO[bytes], str, Provenance, Budget], Iterator[Item]]
"""How a member is read: (its stream, its name, where it is, the Budget it spends from) -> its items."""

MAX_BUFFERED = 1 << 30
"""A zip archive inside a stream is copied to a temporary file to be opened, up to this size ..."""
SPOOL_IN_MEMORY = 1 << 20
"""... of which this much is held in memory (a zip in a zip in a zip is a file each, not memory)."""
_CHUNK = 1 << 16
_LOCAL = struct.Struct("<4sHHHHHIIIHH")
"""A zip local file header: signature, version, flags, method, time, date, CRC-32, compressed and
uncompressed size, name length, extra length."""


def members(
    kind: Kind, file: IO[bytes], where: Provenance, budget: Budget, read: Reader, chosen: range | None = None
) -> Iterator[Item]:
    """The items of the archive's members, each read by ``read`` (a zip's: only those listed at
    ``chosen``, when given; a tar is given as the bytes of the members wanted)."""
    if kind == "zip":
        return _zip(file, where, budget, read, chosen)
    return _tar(file, where, budget, read)


def listing(kind: Kind, file: IO[bytes]) -> list[int]:
    """Where an archive on disk can be cut: each zip member's compressed size, in the order listed;
    where each tar member's header starts."""
    if kind == "zip":
        with zipfile.ZipFile(file) as archive:
            return [info.compress_size for info in archive.infolist()]
    file.seek(0)
    with tarfile.open(fileobj=file, mode="r:") as archive:
        return [info.offset for info in archive.getmembers()]


def _members(where: Provenance, name: str) -> Provenance:
    """Where a member is: nested members are joined with "!" (``a.zip!inner.tar!x.mbox``)."""
    return where._replace(member=name if where.member is None else f"{where.member}!{name}")


def _read_member(
    stream: io.RawIOBase, name: str, here: Provenance, budget: Budget, read: Reader
) -> Iterator[Item]:
    """A member's items, its stream ending where it fails (then the report: what came before is kept)."""
    ending = Salvaged(stream)
    try:
        yield from read(io.BufferedReader(ending, buffer_size=_CHUNK), name, here, budget)
    except Exception as error:  # a bug (or the machine's fault) loses this member only: faults.py
        yield faults.unexpected(error, here)
        return
    damage = ending.defect(here)
    if damage is not None:
        yield damage


# --- zip ---------------------------------------------------------------------------------------


class _Entry(NamedTuple):
    """A zip member, from the central directory or its local header."""

    name: str
    method: int
    flags: int
    crc: int
    compress_size: int
    header_offset: int


def _zip(
    file: IO[bytes], where: Provenance, budget: Budget, read: Reader, chosen: range | None
) -> Iterator[Item]:
    with ExitStack() as stack:
        if not file.seekable():
            spool = stack.enter_context(tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY))
            if not _copy(file, spool, MAX_BUFFERED):
                yield Defect(
                    "too-large", where, f"a zip archive in a stream, over {MAX_BUFFERED:,} bytes; not read"
                )
                return
            file = spool
        lost: str | None = None
        try:
            with zipfile.ZipFile(file) as archive:
                listed = [
                    _Entry(
                        info.filename,
                        info.compress_type,
                        info.flag_bits,
                        info.CRC,
                        info.compress_size,
                        info.header_offset,
                    )
                    for info in archive.infolist()
                ]
        except corrupt() as error:
            lost = reason(error)
            listed = _walk(file)
            if not listed:
                yield Defect("corrupt", where, f"not a readable zip archive: {lost}")
                return
        for entry in listed if chosen is None else listed[chosen.start : chosen.stop]:
            if budget.spent_out():
                break  # (a bomb before: its report said that nothing after it is read)
            if entry.name.endswith("/"):
                continue  # a folder
            here = _members(where, entry.name)
            if entry.flags & 1:
                yield Defect("unreadable", here, "an encrypted member; not scanned")
                continue
            try:
                stream = _member_stream(file, entry)
            except corrupt() as error:
                yield Defect("corrupt", here, reason(error))
                continue
            except MissingExtra as error:  # a Zstandard member, and no library to read it
                yield defect(error, here)
                continue
            inner = budget.inner(entry.compress_size)
            yield from _read_member(Capped(stream, inner), entry.name, here, inner, read)
        if lost is not None:
            detail = (
                f"no central directory ({lost}); the {len(listed):,} members its local headers give were read"
            )
            yield Defect("corrupt", where, detail)


def _copy(source: IO[bytes], target: IO[bytes], limit: int) -> bool:
    """Copy ``source`` to ``target`` in bounded reads; False when it holds more than ``limit`` bytes."""
    copied = 0
    while chunk := source.read(_CHUNK):
        copied += len(chunk)
        if copied > limit:
            return False
        target.write(chunk)
    target.seek(0)
    return True


def _walk(file: IO[bytes]) -> list[_Entry]:
    """The members of a zip with no central directory, by their local headers, in order: a header
    leads to the next by its compressed size, so the walk ends at the first member that does not say
    it (a data descriptor, zip64) or at anything that is no header. Linear: each header read once."""
    found: list[_Entry] = []
    offset = 0
    while True:
        file.seek(offset)
        header = file.read(_LOCAL.size)
        if len(header) < _LOCAL.size:
            return found
        signature, _, flags, method, _, _, crc, size, _, name_length, extra_length = _LOCAL.unpack(header)
        if signature != b"PK\x03\x04":
            return found
        if flags & 0x08 or size == 0xFFFFFFFF:  # the size is after the data, or in a zip64 extra
            return found
        name = file.read(name_length).decode("utf-8" if flags & 0x800 else "cp437", "replace")
        found.append(_Entry(name, method, flags, crc, size, offset))
        offset += _LOCAL.size + name_length + extra_length + size


def _member_stream(file: IO[bytes], entry: _Entry) -> io.RawIOBase:
    """A member's data, decompressed in bounded steps, its CRC-32 checked at its end."""
    file.seek(entry.header_offset)
    header = file.read(_LOCAL.size)
    if len(header) < _LOCAL.size or header[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile("bad magic number for the member's header")
    name_length, extra_length = _LOCAL.unpack(header)[-2:]
    start = entry.header_offset + _LOCAL.size + name_length + extra_length
    return _Inflating(_Slice(file, start, entry.compress_size), entry)


class _Slice(io.RawIOBase):
    """The ``size`` bytes of ``file`` from ``start`` (it seeks before every read: others read it too);
    EOFError when the file ends before them."""

    def __init__(self, file: IO[bytes], start: int, size: int) -> None:
        self._file, self._at, self._left = file, start, size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._left <= 0:
            return 0
        self._file.seek(self._at)
        data = self._file.read(min(len(buffer), self._left))
        if not data:
            raise EOFError(f"the member's data is cut ({self._left:,} bytes missing)")
        self._at += len(data)
        self._left -= len(data)
        buffer[: len(data)] = data
        return len(data)


class _Decompressor(Protocol):
    @property
    def eof(self) -> bool: ...

    @property
    def needs_input(self) -> bool: ...

    def decompress(self, data: bytes, max_length: int = -1, /) -> bytes: ...


class _Deflate:
    """zlib's raw deflate, with the interface of bz2's and lzma's decompressors."""

    def __init__(self) -> None:
        self._inner = zlib.decompressobj(-15)

    @property
    def eof(self) -> bool:
        return self._inner.eof

    @property
    def needs_input(self) -> bool:
        return not self._inner.unconsumed_tail

    def decompress(self, data: bytes, max_length: int = -1, /) -> bytes:
        return self._inner.decompress(self._inner.unconsumed_tail or data, max(max_length, 0))


def _lzma(raw: io.RawIOBase) -> _Decompressor:
    """A zip member's LZMA: a 4-byte header (version, length of the properties), the properties
    (lc, lp, pb in one byte, the dictionary size), then raw LZMA1 (APPNOTE 5.8.8)."""
    header = raw.read(4) or b""
    if len(header) < 4:
        raise EOFError("the member's LZMA header is cut")
    properties = raw.read(struct.unpack("<H", header[2:])[0]) or b""
    if len(properties) != 5:
        raise zipfile.BadZipFile("the member's LZMA properties are not 5 bytes")
    literal, dictionary = properties[0], int.from_bytes(properties[1:], "little")
    lzma1 = {"id": lzma.FILTER_LZMA1, "lc": literal % 9, "lp": literal // 9 % 5, "pb": literal // 45}
    return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[{**lzma1, "dict_size": dictionary}])


ZIP_ZSTANDARD = 93
"""APPNOTE 4.4.5's method for Zstandard (``zipfile.ZIP_ZSTANDARD`` from Python 3.14): one frame."""


class _Zstd:
    """A Zstandard frame's decompressor, its ZstdError (a corrupt frame) a BadZipFile."""

    def __init__(self) -> None:
        module = zstd()
        self._inner, self._error = module.ZstdDecompressor(options=zstd_options()), module.ZstdError

    @property
    def eof(self) -> bool:
        return bool(self._inner.eof)

    @property
    def needs_input(self) -> bool:
        return bool(self._inner.needs_input)

    def decompress(self, data: bytes, max_length: int = -1, /) -> bytes:
        try:
            found: bytes = self._inner.decompress(data, max_length)
        except self._error as error:
            text = str(error).removeprefix("Unable to decompress Zstandard data: ")
            raise zipfile.BadZipFile(f"the member's Zstandard data: {text}") from error
        return found


class _Inflating(io.RawIOBase):
    """A zip member's data decompressed, at most the size of the caller's buffer per read."""

    def __init__(self, raw: io.RawIOBase, entry: _Entry) -> None:
        self._raw, self._entry, self._crc, self._done = raw, entry, 0, False
        self._inner: _Decompressor | None
        if entry.method == zipfile.ZIP_STORED:
            self._inner = None
        elif entry.method == zipfile.ZIP_DEFLATED:
            self._inner = _Deflate()
        elif entry.method == zipfile.ZIP_BZIP2:
            self._inner = bz2.BZ2Decompressor()
        elif entry.method == zipfile.ZIP_LZMA:
            self._inner = _lzma(raw)
        elif entry.method == ZIP_ZSTANDARD:
            self._inner = _Zstd()
            self._raw = ZstdFrames(raw)  # a bad checksum loses none of the frame (see ZstdFrames)
        else:
            raise NotImplementedError(f"compression method {entry.method} is not one zip readers know")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while not self._done:
            data = self._step(len(buffer))
            if data is None:
                self._finish()
            elif data:
                self._crc = zlib.crc32(data, self._crc)
                buffer[: len(data)] = data
                return len(data)
        return 0

    def _step(self, size: int) -> bytes | None:
        """Some of the data (b"" when none came of this step), None at its end."""
        if self._inner is None:
            return self._raw.read(size) or None
        if self._inner.eof:
            return None
        chunk = b""
        if self._inner.needs_input:
            chunk = self._raw.read(_CHUNK) or b""
            if not chunk:
                if self._entry.method == zipfile.ZIP_LZMA:
                    return None  # LZMA1 need not mark its end: the CRC says whether it is whole
                raise EOFError("the member's compressed data ends before its end marker")
        return self._inner.decompress(chunk, size)

    def _finish(self) -> None:
        self._done = True
        if self._crc != self._entry.crc:
            raise zipfile.BadZipFile(f"bad CRC-32 for the member {self._entry.name!r}")


# --- tar ---------------------------------------------------------------------------------------


class _Ends(io.RawIOBase):
    """A stream that may be read at its end once: tarfile skips a member's claimed size block by
    block whether or not the bytes are there (10**15 of them, in a 10 KB file), so a second read at
    the end is an EOFError."""

    def __init__(self, inner: IO[bytes]) -> None:
        self._inner, self._ended = inner, False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._inner.read(len(buffer))
        if not data:
            if self._ended:
                raise EOFError("the archive ends inside what its last member claims")
            self._ended = True
        buffer[: len(data)] = data
        return len(data)


def _tar(file: IO[bytes], where: Provenance, budget: Budget, read: Reader) -> Iterator[Item]:
    length = _remaining(file)
    try:
        archive = tarfile.open(fileobj=_Ends(file), mode="r|")  # noqa: SIM115 (closed by the with below)
    except corrupt() as error:
        yield Defect("corrupt", where, f"not a readable tar archive: {reason(error)}")
        return
    with archive:
        try:
            for info in archive:
                if budget.spent_out():
                    return  # (a bomb before: its report said that nothing after it is read)
                here = _members(where, info.name)
                sparse = cast("list[tuple[int, int]] | None", info.sparse)  # (offset, size) of each data run
                stored = info.size if sparse is None else sum(size for _, size in sparse)
                skipped = info.isreg() or info.type not in tarfile.SUPPORTED_TYPES  # (by tarfile)
                if skipped and length is not None and info.offset_data + stored > length:
                    detail = f"claims {stored:,} bytes, past the archive's end; the rest of it is not read"
                    yield Defect("corrupt", here, detail)
                    return
                if not info.isfile():
                    continue  # folders, links, devices
                member = archive.extractfile(info)
                if member is None:
                    continue
                inner = budget if sparse is None else budget.inner(stored)  # holes are expansion
                stream: io.RawIOBase = _Plain(member) if sparse is None else Capped(member, inner)
                damage: list[Defect] = []
                for item in _read_member(stream, info.name, here, inner, read):
                    if (
                        isinstance(item, Defect)
                        and item.provenance == here
                        and item.kind in ("corrupt", "unreadable")
                    ):
                        damage.append(item)
                    yield item
                if damage:
                    return  # a cut member: nothing after it can be found (one report, not two)
        except corrupt() as error:
            yield Defect("corrupt", where, f"the tar archive is cut or damaged: {reason(error)}")


class _Plain(io.RawIOBase):
    """A tar member's stream as a raw stream (Salvaged takes any ``read``; this keeps mypy's types)."""

    def __init__(self, inner: IO[bytes]) -> None:
        self._inner = inner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._inner.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _remaining(file: IO[bytes]) -> int | None:
    """How many bytes are left to read in ``file``, when it can say (a file on disk can: asked of
    the system, not by seeking, which would throw the buffer away)."""
    try:
        status = os.fstat(file.fileno())
        return status.st_size - file.tell() if stat.S_ISREG(status.st_mode) else None
    except (OSError, ValueError, AttributeError):  # a member, a range of a file, a pipe
        return None
