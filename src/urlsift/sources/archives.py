"""Containers: zip and tar archives, read member by member as streams (never unpacked to disk).

One sniffer (``container``) says whether a file's first bytes start one; ``members`` gives each
member's items through the reader it is handed (``sources._guarded``: a member is read as a file
of its own, so a member may be compressed, or be an archive itself), and ``listing`` says where a
file on disk can be cut between members (``units.plan``).
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from typing import IO, Literal

from .._model import Defect, MessageText, Provenance, TextStream
from .packed import CORRUPT, MAX_RATIO, Capped

Item = MessageText | TextStream | Defect
Kind = Literal["zip", "tar"]
Reader = Callable[[IO[bytes], str, Provenance, "int | None"], Iterator[Item]]
"""How a member is read: (its stream, its name, where it is, its size if known) -> its items."""

MAX_BUFFERED = 64 << 20
"""A zip archive inside a stream is read into memory to be opened, up to this size."""


def container(head: bytes) -> Kind | None:
    """Whether ``head`` (a file's first 4 KiB) starts a zip or a tar archive, and which."""
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head[257:262] == b"ustar":
        return "tar"
    return None


def members(
    kind: Kind, file: IO[bytes], where: Provenance, max_expand: int, read: Reader, chosen: range | None = None
) -> Iterator[Item]:
    """The items of the archive's members, each read by ``read`` (a zip's: only those listed at
    ``chosen``, when given; a tar is given as the bytes of the members wanted)."""
    if kind == "zip":
        return _zip(file, where, max_expand, read, chosen)
    return _tar(file, where, read)


def listing(kind: Kind, file: IO[bytes]) -> list[int]:
    """Where an archive on disk can be cut: each zip member's compressed size, in the order listed;
    where each tar member's header starts."""
    if kind == "zip":
        with zipfile.ZipFile(file) as archive:
            return [info.compress_size for info in archive.infolist()]
    file.seek(0)
    with tarfile.open(fileobj=file, mode="r:") as archive:
        return [info.offset for info in archive.getmembers()]


def reason(error: BaseException) -> str:
    """An exception as the few words a user needs."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def _members(where: Provenance, name: str) -> Provenance:
    """Where a member is: nested members are joined with "!" (``a.zip!inner.tar!x.mbox``)."""
    return where._replace(member=name if where.member is None else f"{where.member}!{name}")


def _zip(
    file: IO[bytes], where: Provenance, max_expand: int, read: Reader, chosen: range | None
) -> Iterator[Item]:
    if not file.seekable():
        data = file.read(MAX_BUFFERED + 1)
        if len(data) > MAX_BUFFERED:
            yield Defect("unreadable", where, f"a zip archive in a stream, over {MAX_BUFFERED:,} bytes")
            return
        file = io.BytesIO(data)
    try:
        archive = zipfile.ZipFile(file)
    except CORRUPT as error:
        yield Defect("corrupt", where, f"not a readable zip archive: {reason(error)}")
        return
    with archive:
        listed = archive.infolist()
        for info in listed if chosen is None else listed[chosen.start : chosen.stop]:
            if info.is_dir():
                continue
            here = _members(where, info.filename)
            if info.flag_bits & 1:
                yield Defect("unreadable", here, "an encrypted member; not scanned")
                continue
            try:
                member = archive.open(info)
            except CORRUPT as error:
                yield Defect("corrupt", here, reason(error))
                continue
            with member:
                limit = min(max_expand, MAX_RATIO * max(info.compress_size, 1))
                stream = io.BufferedReader(Capped(member, limit), buffer_size=1 << 16)
                yield from read(stream, info.filename, here, None)


def _tar(file: IO[bytes], where: Provenance, read: Reader) -> Iterator[Item]:
    try:
        archive = tarfile.open(fileobj=file, mode="r|")  # noqa: SIM115 (closed by the with below)
    except CORRUPT as error:
        yield Defect("corrupt", where, f"not a readable tar archive: {reason(error)}")
        return
    with archive:
        try:
            for info in archive:
                if not info.isfile():
                    continue  # folders, links, devices
                member = archive.extractfile(info)
                if member is not None:
                    yield from read(member, info.name, _members(where, info.name), info.size)
        except CORRUPT as error:
            yield Defect("corrupt", where, f"the tar archive is cut or damaged: {reason(error)}")
