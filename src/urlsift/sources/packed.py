"""Compressed streams and the budget every reader keeps: gzip, bzip2, xz, Zstandard and Unix
compress (``.Z``, ``.tar.Z``: ``Lzw``) are read through (never unpacked to disk), and what comes
out of decompression is counted against a ``Budget``.

Three limits hold for every file (``docs/hostile-input.md``): what comes out of decompression,
through every layer (``.gz.gz``, a zip member in a zip, a sparse tar member), at most ``max_expand``
bytes and at most ``MAX_RATIO`` times the packed bytes it came from (the file's size, a zip member's
compressed size, or, for a pipe, the bytes read from it so far); at most ``MAX_DEPTH`` containers
and compressed layers nested. Past one, the stream ends there (what came out before it is kept and
scanned) and one report says why (``defect``): ``too-large`` or ``too-deep``. A stream that is cut or
damaged ends the same way, as ``corrupt``; a read error of the disk or pipe under it, as
``unreadable``.

Zstandard is read by the standard library's ``compression.zstd`` (Python 3.14+) or its backport,
``backports.zstd`` (the ``zstd`` extra), imported when a Zstandard stream is first met: it reads
across frames, reports a stream cut inside a frame (``zstandard``'s stream reader ends there as if
the stream were whole), and bounds each step's output (zip members, ``archives``).
"""

from __future__ import annotations

import atexit
import io
import re
import sys
import weakref
import zlib
from collections.abc import Callable
from types import ModuleType
from typing import IO, TYPE_CHECKING, Protocol

from .._model import Defect, Provenance
from ..errors import MissingExtra

if TYPE_CHECKING:
    import queue  # (imported by the first .Z stream: no other reader runs a thread)
    import threading

MAX_EXPAND = 20 * 10**9
"""Default cap on what decompression may give for one file (bytes)."""
MAX_RATIO = 1000
"""What comes out of decompression may also not pass this many times the packed bytes it came from."""
MAX_DEPTH = 16
"""How many containers and compressed layers may be nested (``a.zip!b.tar.gz!c.gz`` is 4)."""
ZSTD_WINDOW_LOG = 27
"""The largest Zstandard window read, as a power of two (``--zstd-window-log``): zstd's own default
(128 MiB). The decoder holds a frame's window, filled as output comes: a 5 MB file that declares
2 GiB (``zstd --long=31``, as the Reddit dumps are packed) took 2.1 GB of memory to read whole."""
ZSTD_WINDOW_LOGS = range(10, 32)
"""The windows the format has (1 KiB to 2 GiB)."""


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class _Steps(_Readable, Protocol):
    def read1(self, size: int = -1, /) -> bytes: ...


def zstd() -> ModuleType:
    """``compression.zstd``, or its backport; MissingExtra when neither is installed."""
    try:
        if sys.version_info >= (3, 14):
            from compression import zstd as module
        else:
            from backports import zstd as module
    except ImportError as error:
        needs = "a Zstandard stream, not read without compression.zstd or its backport"
        raise MissingExtra(needs, "zstd") from error
    return module


def zstd_options(window_log: int = ZSTD_WINDOW_LOG) -> dict[object, int]:
    """The decompression options of a Zstandard reader: frames whose window is over 2**window_log
    bytes are refused (``_ZstdErrors`` says so)."""
    return {zstd().DecompressionParameter.window_log_max: window_log}


def _zstd_file(file: IO[bytes], window_log: int) -> _Readable:
    reader: _Steps = zstd().ZstdFile(ZstdFrames(file), mode="rb", options=zstd_options(window_log))
    return _ZstdErrors(reader, window_log)


class ZstdFrames(io.RawIOBase):
    """A Zstandard stream whose reads never pass the start of a frame's checksum or the frame's end
    (RFC 8878 3.1.1: the frame and block headers say where they are). The decoder checks the
    checksum in the call that is handed it and gives nothing of that call's output when it fails:
    handed alone, the checksum's failure loses nothing, and the frame's data is kept as gzip's is
    with a bad CRC. Anything that is no frame is handed on as it is (the decoder says what it is)."""

    def __init__(self, inner: _Readable) -> None:
        self._inner = inner
        self._buffer = b""  # read from inner, not yet given
        self._safe = 0  # how many bytes from here may be given in one read (up to a cut)
        self._parsed = 0  # the bytes of the buffer (and on) whose structure is known
        self._state: tuple[str, int] = ("frame", 0)  # what starts at _parsed; a frame's checksum flag
        self._plain = False  # no frame: handed on as it is

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._plain:
            data = self._buffer[: len(buffer)] or self._inner.read(len(buffer))
            self._buffer = self._buffer[len(data) :] if self._buffer else b""
        else:
            while self._safe == 0 and self._advance():
                pass
            if not self._buffer and self._safe:
                self._buffer = self._inner.read(max(_ZSTD_STEP, len(buffer)))
            size = min(len(buffer), self._safe or len(self._buffer), len(self._buffer))
            data, self._buffer = self._buffer[:size], self._buffer[size:]
            self._safe = max(self._safe - size, 0)
            self._parsed -= size
        buffer[: len(data)] = data
        return len(data)

    def _need(self, size: int) -> bytes | None:
        """The ``size`` bytes at _parsed, reading on as needed; None at the stream's end."""
        while len(self._buffer) < self._parsed + size:
            more = self._inner.read(_ZSTD_STEP)
            if not more:
                return None
            self._buffer += more
        return self._buffer[self._parsed : self._parsed + size]

    def _advance(self) -> bool:
        """Learn the structure of the next part (a frame header, a block, a checksum); whether
        there may be more to give. A cut falls after a frame's last block and after its end."""
        what, checksum = self._state
        head = self._need(8 if what == "frame" else 3 if what == "block" else 4)
        if head is None:  # the stream's end (or a part it cuts): what is left is handed on
            self._plain = True
            return False
        if what == "checksum":
            self._step(4, ("frame", 0), cut=True)
        elif what == "block":
            header = int.from_bytes(head[:3], "little")
            kind, size = header >> 1 & 3, header >> 3
            if kind == 3:  # reserved: no block
                self._plain = True
                return False
            last = header & 1
            following = (
                ("checksum", 0) if last and checksum else ("frame", 0) if last else ("block", checksum)
            )
            self._step(3 + (1 if kind == 1 else size), following, cut=bool(last))
        elif 0x184D2A50 <= int.from_bytes(head[:4], "little") <= 0x184D2A5F:  # a skippable frame
            self._step(8 + int.from_bytes(head[4:8], "little"), ("frame", 0), cut=True)
        elif head[:4] == b"\x28\xb5\x2f\xfd" and not head[4] & 0x08:
            descriptor = head[4]
            single = descriptor >> 5 & 1
            size = 5 + (not single) + (0, 1, 2, 4)[descriptor & 3] + (single, 2, 4, 8)[descriptor >> 6]
            self._step(size, ("block", descriptor >> 2 & 1), cut=False)
        else:
            self._plain = True
            return False
        return True

    def _step(self, size: int, following: tuple[str, int], *, cut: bool) -> None:
        self._parsed += size
        self._state = following
        if cut or self._parsed - self._safe >= _ZSTD_STEP:
            self._safe = self._parsed


_ZSTD_STEP = 1 << 17


class _ZstdErrors:
    """A Zstandard reader whose ZstdError is a CorruptData (a corrupt frame) or an OverBudget (a
    window over the limit); the library's exception class is known only once it is imported, and a
    cut frame is already an EOFError."""

    def __init__(self, inner: _Steps, window_log: int) -> None:
        self._inner, self._error, self._window_log = inner, zstd().ZstdError, window_log

    def read(self, size: int = -1, /) -> bytes:
        return self._call(self._inner.read, size)

    def read1(self, size: int = -1, /) -> bytes:
        return self._call(self._inner.read1, size)

    def _call(self, read: Callable[[int], bytes], size: int) -> bytes:
        try:
            return read(size)
        except self._error as error:
            text = str(error).removeprefix("Unable to decompress Zstandard data: ")
            if "too much memory" in text:  # zstd's words for a window over window_log_max
                window = 1 << self._window_log
                raise OverBudget(
                    f"a Zstandard frame whose window is over {window:,} bytes (packed with zstd --long); "
                    f"--zstd-window-log {ZSTD_WINDOW_LOGS[-1]} reads it, holding up to that much memory"
                ) from error
            raise CorruptData(text) from error


def lzw() -> ModuleType:
    """``ncompress`` (the ``compress`` extra), which undoes Unix compress (``.Z``); MissingExtra
    when it is not installed."""
    try:
        import ncompress
    except ImportError as error:
        raise MissingExtra("a .Z (Unix compress) stream, not read without ncompress", "compress") from error
    module: ModuleType = ncompress
    return module


class Lzw(io.RawIOBase):
    """A ``.Z`` stream decompressed, read as any other: ncompress's ``decompress(source, sink)``
    pushes its output into ``sink`` a kilobyte at a time and has no reader that is pulled, so it
    runs in a thread of its own, in lockstep with the reads: it is let run until it has given
    _LZW_STEP bytes (or ends), and waits while the caller uses them. Memory is ncompress's tables
    and one step whatever the stream expands to, the caller's Budget stops it as any other, and
    the file under it is read only while the caller waits in ``readinto`` (a tar reading on after
    a member of it, a Counter, see it as from one thread). Closed (or dropped) before its end, the
    thread is stopped and joined. The format has no end mark and no checksum: a stream cut between
    two codes cannot be told from a whole one; one cut inside a code, or a code that is no entry
    of the table, is a CorruptData."""

    def __init__(self, file: IO[bytes]) -> None:
        import queue

        self._decompress = lzw().decompress
        self._file = file
        self._given: queue.Queue[bytes | BaseException | None] = queue.Queue(maxsize=1)
        self._go: queue.Queue[bool] = queue.Queue(maxsize=1)  # True: run one more step; False: stop
        self._thread: threading.Thread | None = None
        self._data = b""
        self._ended = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while not self._data and not self._ended:
            if self._thread is None:
                # Handed what it uses, not self: a reader dropped unread to its end is closed.
                run = (self._decompress, self._file, self._given, self._go)
                import threading

                self._thread = threading.Thread(target=_lzw_steps, args=run, name="urlsift-lzw", daemon=True)
                self._thread.start()
                _LZW_OPEN.add(self)
            else:
                self._go.put(True)
            given = self._given.get()
            if given is None or isinstance(given, BaseException):
                self._ended = True
                self._thread.join()
                if given is not None:
                    raise given
            else:
                self._data = given
        size = min(len(buffer), len(self._data))
        buffer[:size], self._data = self._data[:size], self._data[size:]
        return size

    def close(self) -> None:
        thread, self._thread = self._thread, None
        if thread is not None and not self._ended:
            self._ended = True
            self._go.put(False)  # it waits for this after each step, and stops
            thread.join()
        super().close()


def _lzw_steps(
    decompress: Callable[[io.RawIOBase, io.RawIOBase], None],
    file: IO[bytes],
    given: queue.Queue[bytes | BaseException | None],
    go: queue.Queue[bool],
) -> None:
    """A .Z reader's thread (``Lzw``): ncompress reads the file and writes to a sink that hands
    each step over, then waits to be let go on."""
    held = bytearray()

    def write(data: bytes) -> int:
        held.extend(data)
        if len(held) >= _LZW_STEP:
            given.put(bytes(held))
            held.clear()
            if not go.get():
                raise _Stopped
        return len(data)

    try:
        decompress(_Pull(file.read), _Push(write))
        if held:
            given.put(bytes(held))
            if not go.get():
                return
        given.put(None)
    except _Stopped:
        return
    except ValueError as error:  # ncompress's words for bad data ("corrupt input - insize: ...")
        given.put(CorruptData(f"not a valid .Z stream ({str(error).partition(' - ')[0]})"))
    except BaseException as error:  # the file's (a DiskError, a layer under it): the caller's
        given.put(error)


_LZW_STEP = 1 << 16
_LZW_OPEN: weakref.WeakSet[Lzw] = weakref.WeakSet()
"""The .Z readers whose thread may still wait: stopped at exit, if no one closed them (a thread
left inside ncompress while the interpreter ends can crash it)."""


@atexit.register
def _stop_lzw() -> None:
    for reader in list(_LZW_OPEN):
        reader.close()


class _Stopped(Exception):
    """The reader of a .Z stream was closed: its thread stops."""


class _Pull(io.RawIOBase):
    def __init__(self, read: Callable[[int], bytes]) -> None:
        self._read = read

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _Push(io.RawIOBase):
    def __init__(self, write: Callable[[bytes], int]) -> None:
        self._write = write

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        return self._write(bytes(data))


# gzip, bz2 and lzma are imported by the first stream of theirs (issue 31: a run over plain files
# never pays for them).
def _gzip_file(file: IO[bytes], _: int) -> _Readable:
    import gzip

    return gzip.GzipFile(fileobj=file, mode="rb")


def _bz2_file(file: IO[bytes], _: int) -> _Readable:
    import bz2

    return bz2.BZ2File(file, mode="rb")


def _xz_file(file: IO[bytes], _: int) -> _Readable:
    import lzma

    return lzma.LZMAFile(file, mode="rb")


# The decompressing readers close nothing of their own: the file under them is the caller's.
# Each opener takes the file and the Zstandard window limit (``ZSTD_WINDOW_LOG``).
_OPENERS: list[tuple[bytes, str, Callable[[IO[bytes], int], _Readable]]] = [
    (b"\x1f\x8b", ".gz", _gzip_file),
    (b"BZh", ".bz2", _bz2_file),
    (b"\xfd7zXZ\x00", ".xz", _xz_file),
    (b"\x28\xb5\x2f\xfd", ".zst", _zstd_file),
    (b"\x1f\x9d", ".z", lambda f, _: Lzw(f)),  # Unix compress: .Z, .tar.Z (matched lower-cased)
    # A Zstandard stream may start with a skippable frame (magic 0x184D2A50 to 0x184D2A5F).
    *((bytes([0x50 + k]) + b"\x2a\x4d\x18", ".zst", _zstd_file) for k in range(16)),
]


_UNSUPPORTED: list[tuple[re.Pattern[bytes], str]] = [
    (re.compile(magic, re.DOTALL), name)
    for magic, name in (
        (rb"7z\xbc\xaf\x27\x1c", "7z"),
        (rb"Rar!\x1a\x07", "rar"),
        (rb"LZIP", "lzip"),
        (rb"\x04\x22\x4d\x18", "lz4"),
        (rb"\x89LZO\x00\r\n\x1a\n", "lzop"),
        (rb"\x1f\x1e", "pack"),
        (rb"\x1f\xa0", "SCO compress -H"),
        (rb"MSCF\x00\x00\x00\x00", "cab"),
        (rb"\x60\xea", "arj"),
        (rb"..-l[hz][0-9a-z]-", "lha"),
        (rb"ZOO [0-9]", "zoo"),
    )
]
"""The compressed and archive formats not read, by their first bytes: said by name
(``unsupported``) rather than read as binary data, or as text (lzip's header has no NUL)."""


def unsupported(head: bytes) -> str | None:
    """The name of the format ``head`` starts, when it is one not read (7z, rar ...); else None."""
    for magic, name in _UNSUPPORTED:
        if magic.match(head):
            return name
    return None


def is_packed(head: bytes) -> bool:
    """Whether ``head`` starts a gzip, bzip2, xz, Zstandard or Unix compress (.Z) stream."""
    return any(head.startswith(magic) for magic, _, _ in _OPENERS)


class CorruptData(Exception):
    """Data that is no valid compressed stream or archive (what bz2 raises as a plain OSError)."""


class DiskError(OSError):
    """A read of the file on disk (or the pipe) failed: the input is unreadable, not corrupt."""


class OverBudget(Exception):
    """More came out of decompression than a Budget allows."""


_CORRUPT_STREAMS = (
    EOFError,
    zlib.error,
    NotImplementedError,  # a zip member packed by a method this Python lacks
    CorruptData,
)
_CORRUPT_LOADED = (
    ("gzip", "BadGzipFile"),
    ("lzma", "LZMAError"),
    ("zipfile", "BadZipFile"),  # a CRC that does not match, a cut central directory
    ("tarfile", "TarError"),
)


def corrupt() -> tuple[type[BaseException], ...]:
    """What a corrupt or truncated compressed stream or archive raises while it is read. Not OSError:
    a disk's read error is a DiskError (``unreadable``), and a decompressor's OSError a CorruptData.

    Read where an exception is caught (``except corrupt()``: an except clause's tuple is made when
    an exception reaches it): gzip's, lzma's, zipfile's and tarfile's errors are among them once
    those modules are loaded, which nothing else raises, so that a run that reads no compressed
    file or archive never imports them."""
    found: tuple[type[BaseException], ...] = _CORRUPT_STREAMS
    for name, error in _CORRUPT_LOADED:
        module = sys.modules.get(name)
        if module is not None:
            found += (getattr(module, error),)
    return found


def stops() -> tuple[type[BaseException], ...]:
    """Everything a stream of the input may end with (``except stops()``, as ``corrupt``):
    ``defect`` says which report it makes."""
    return (*corrupt(), DiskError, OverBudget, MissingExtra)


def defect(error: BaseException, where: Provenance, out: int | None = None) -> Defect:
    """The report of a stream that ended with ``error`` (one of ``stops()``), ``out`` bytes having come
    out of it (and been scanned) before."""
    kept = "" if not out else f" (the {out:,} bytes before it were read)"
    if isinstance(error, DiskError):
        return Defect("unreadable", where, f"read error: {error.strerror or error}{kept}")
    if isinstance(error, OverBudget):
        return Defect("too-large", where, f"{error}{kept}")
    if isinstance(error, MissingExtra):
        return Defect("unreadable", where, f"{error}{kept}")
    text = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return Defect("corrupt", where, f"{text or type(error).__name__}{kept}")


class Budget:
    """What may come out of decompression below one packed thing (a file, a pipe, a zip member, a
    sparse tar member): every layer's output is spent here and in every enclosing Budget, and each
    must stay within ``max_expand`` and MAX_RATIO times its packed bytes (``packed()``: so far, for a
    pipe)."""

    __slots__ = ("_packed", "_parent", "max_expand", "said", "spent")

    def __init__(self, max_expand: int, packed: Callable[[], int], parent: Budget | None = None) -> None:
        self.max_expand, self._packed, self._parent = max_expand, packed, parent
        self.spent = 0
        self.said = False
        """Whether a stream was stopped at this Budget's limit (``over``): it was reported."""

    def limit(self) -> int:
        return min(self.max_expand, MAX_RATIO * max(self._packed(), 1))

    def inner(self, packed: int) -> Budget:
        """The Budget of something packed in ``packed`` bytes inside this one."""
        return Budget(self.max_expand, lambda: packed, self)

    def room(self) -> int:
        """How many more bytes may come out, in this Budget and every one around it."""
        budget: Budget | None = self
        room = self.limit()
        while budget is not None:
            room = min(room, budget.limit() - budget.spent)
            budget = budget._parent
        return room

    def spend(self, size: int) -> None:
        budget: Budget | None = self
        while budget is not None:
            budget.spent += size
            budget = budget._parent

    def over(self) -> OverBudget:
        """The error of a stream that would pass this Budget (or the first one around it it passes)."""
        passed: list[Budget] = []
        budget: Budget | None = self
        while budget is not None:
            if budget.spent >= budget.limit():
                budget.said = True
                passed.append(budget)
            budget = budget._parent
        first, outer = (passed[0], passed[-1]) if passed else (self, self)
        limit = first.limit()
        ratio = (
            "" if limit == first.max_expand else f", {MAX_RATIO} times its {first._packed():,} packed bytes"
        )
        # A Budget around this one spent: nothing more comes out of what it holds (``spent_out``).
        rest = "" if outer is self else f"; nothing after it in the {_HOLDER[outer._parent is None]} is read"
        return OverBudget(f"expands past {limit:,} bytes{ratio} (a decompression bomb?); stopped{rest}")

    def spent_out(self) -> bool:
        """Whether nothing more may come out of this Budget, and a stream stopped at the limit
        that says so was reported: the members after it are not read, rather than each say
        the same (one bomb, one report)."""
        budget: Budget | None = self
        while budget is not None:
            if budget.said and budget.spent >= budget.limit():
                return True
            budget = budget._parent
        return False


_HOLDER = {True: "file", False: "archive member that holds it"}


class Capped(io.RawIOBase):
    """A decompressed stream whose output is spent from a Budget: it gives what the Budget allows,
    then raises OverBudget; the OSError of a decompressor (bz2's "Invalid data stream") is raised
    as CorruptData."""

    def __init__(self, inner: _Readable, budget: Budget) -> None:
        self._budget = budget
        # read1: one step of the decompressor; a read of many steps that fails loses what it had read.
        self._read: Callable[[int], bytes] = getattr(inner, "read1", inner.read)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        room = self._budget.room()
        try:
            data = self._read(min(len(buffer), max(room, 0) + 1))  # one byte more: is there more?
        except DiskError:
            raise
        except OSError as error:  # not the disk's: the decompressor's
            raise CorruptData(error.strerror or str(error) or "invalid data") from error
        if len(data) > room:
            if room <= 0:
                raise self._budget.over()
            data = data[:room]  # the bytes within the limit are given; the next read raises
        self._budget.spend(len(data))
        buffer[: len(data)] = data
        return len(data)


class Salvaged(io.RawIOBase):
    """A stream that ends where the one under it fails (one of ``stops()``), keeping the error: a reader
    gets every byte that came before the damage, and the report after (``defect``)."""

    def __init__(self, inner: _Readable, closing: Callable[[], None] | None = None) -> None:
        self._read: Callable[[int], bytes] = getattr(inner, "read1", inner.read)  # (see Capped)
        self._closing = closing  # what closing this closes (a decompressor of ours), if any
        self.error: BaseException | None = None
        self.out = 0

    def close(self) -> None:
        closing, self._closing = self._closing, None
        if closing is not None:
            closing()
        super().close()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def read(self, size: int | None = -1) -> bytes:
        """Up to ``size`` bytes, as the stream under gives them: a reader that asks for a block
        (``TextRows``) gets no copy of it made through a buffer (``RawIOBase.read``'s)."""
        if size is None or size < 0:
            return self.readall()
        if self.error is not None:
            return b""
        try:
            data = self._read(size)
        except stops() as error:
            self.error = error
            return b""
        self.out += len(data)
        return data

    def defect(self, where: Provenance) -> Defect | None:
        return None if self.error is None else defect(self.error, where, self.out)


def unpacked(
    file: IO[bytes], head: bytes, name: str, budget: Budget, zstd_window_log: int = ZSTD_WINDOW_LOG
) -> tuple[IO[bytes], str, Salvaged] | None:
    """The decompressed stream of ``file``, its name less the suffix and what ends it (the stream
    stops at damage or past ``budget``: ask it for its defect when read), or None when ``head`` (its
    first bytes) is no compressed format we read. The caller closes the stream when done with it."""
    for magic, suffix, opener in _OPENERS:
        if head.startswith(magic):
            inner = name[: -len(suffix)] if name.lower().endswith(suffix) else name
            reader = opener(file, zstd_window_log)
            # Closing the stream closes the decompressor (a .Z reader's thread stops: ``Lzw``).
            salvaged = Salvaged(Capped(reader, budget), getattr(reader, "close", None))
            return io.BufferedReader(salvaged, buffer_size=1 << 16), inner, salvaged
    return None
