"""WARC files (ISO 28500) and Common Crawl's WET files -> one MessageText per record read.

Records are framed and their headers parsed by warcio (``pip install 'urlsift[warc]'``), imported
here only when a WARC is read, through bounded header reads (``_Parser``: lines, bytes and the
Content-Length checked before warcio uses them). What is read: ``response`` and ``resource``
records of a text type (their HTTP chunked transfer coding and gzip, deflate, br or zstd transfer
and content codings undone in bounded steps by ``codings``, each coding's output spent from the
Budget like any decompression; a body not chunked though its header says so read as it is,
``malformed``), and ``conversion`` records (WET: the page's text); a ``response`` read without HTTP
headers (not of type application/http, no http(s) target) is read as a resource. HTML goes through
``page.text`` and ``message/rfc822`` through ``mime.read``, as in mail; the charset comes from the
HTTP headers, else the page's ``<meta>`` (as the HTML standard's prescan takes it), else UTF-8.
Every other record (request, metadata, warcinfo, revisit, images ...) is skipped and counted
(``Skipped``). A ``.warc.gz`` is read through the gzip layer of ``packed`` (one gzip member per
record, or one for all: either way a stream), record by record: a record is held only up to
``max_message`` bytes.

Damage is reported and read past: a record cut by the file's end, in its content or its headers
(``truncated``); a record whose Content-Length is wrong or no length, headers past their bounds, or
bytes that are no record (``corrupt``, reported before) the stream is searched forward, line by
line, for the next ``WARC/1.`` line and read on from there; a coding that is damaged, or bytes
after its end (``corrupt``, what it gave before kept), or one that needs a library not installed
(``unreadable``).
"""

from __future__ import annotations

import codecs
import contextlib
import io
import re
from collections.abc import Iterator
from typing import IO, Any

from .._model import Defect, MessageText, Provenance, Skipped, TextStream
from ..errors import MissingExtra
from . import faults
from .codings import CutCoding, codings, decoded, transfer_codings
from .kinds import is_warc as is_warc
from .packed import Budget, CorruptData, OverBudget, defect

Item = MessageText | TextStream | Defect | Skipped

READ = frozenset({"response", "resource", "conversion"})
"""The record types whose content is scanned (when it is text)."""
MAX_HEADER_LINE = 1 << 20
"""A WARC or HTTP header line longer than this is damage, not a header (warcio would hold it)."""
MAX_HEADER_LINES = 10_000
"""A WARC or HTTP header block of more lines than this is damage (warcio keeps every line)."""
MAX_HEADER_BYTES = 4 << 20
"""... or of more bytes than this."""
_LENGTH = re.compile(r"[0-9]{1,19}")
_HTTP_RECORDS = ("response", "request", "revisit")
MAX_RESYNCS = 1000
"""Damaged stretches searched past in one file; past them the rest of the file is not read."""
_HTML = frozenset({"text/html", "application/xhtml+xml"})
_CHARSET = re.compile(r"""charset\s*=\s*["']?([^"';\s]{1,40})""", re.I)
_META_CHARSET = re.compile(rb"""<meta[^>]{0,512}?charset\s*=\s*["']?\s*([A-Za-z0-9._:-]{1,40})""", re.I)
_META_BYTES = 4096  # where a page's <meta charset> must be (the HTML standard says 1024)


class HeaderDamage(Exception):
    """A record's headers that are none (a line or a block past its bound, a Content-Length that
    is no length): the stream is searched for the next record."""


class LongHeaderLine(HeaderDamage):
    """A header line past MAX_HEADER_LINE."""


class CutHeaders(Exception):
    """The file ends inside a record's WARC headers."""


class _Lines:
    """A stream read by warcio's header parser, line by line, within the bounds of one header
    block; for WARC headers (``warc``), the stream's end before the blank line is a CutHeaders."""

    def __init__(self, stream: Any, warc: bool, status: bool) -> None:
        self._stream, self._warc = stream, warc
        self._lines = int(status)  # the status line warcio was handed counts
        self._bytes = 0

    def readline(self, size: int | None = None) -> bytes:
        line: bytes = self._stream.readline(MAX_HEADER_LINE + 1)
        if len(line) > MAX_HEADER_LINE:
            raise LongHeaderLine(f"a header line over {MAX_HEADER_LINE:,} bytes")
        if not line and self._warc and self._lines:
            raise CutHeaders
        self._lines += 1
        self._bytes += len(line)
        if self._lines > MAX_HEADER_LINES or self._bytes > MAX_HEADER_BYTES:
            raise HeaderDamage(
                f"a header block over {MAX_HEADER_LINES:,} lines or {MAX_HEADER_BYTES:,} bytes"
            )
        return line


class _Parser:
    """warcio's header parser (``inner``) reading through _Lines; for WARC headers, the record's
    Content-Length checked (1 to 19 ASCII digits, under 2**63, as warcio's int() is not) and the
    headers kept (``last``: the HTTP parser's choice reads them)."""

    def __init__(self, inner: Any, warc: bool) -> None:
        self._inner, self._warc = inner, warc
        self.last: Any = None

    def parse(self, stream: Any, full_statusline: bytes | None = None) -> Any:
        headers = self._inner.parse(_Lines(stream, self._warc, full_statusline is not None), full_statusline)
        if self._warc:
            length = headers.get_header("Content-Length")
            if length is not None and not (_LENGTH.fullmatch(length) and int(length) < 1 << 63):
                raise HeaderDamage(f"a Content-Length of {_said(length[:40])!r}, no length")
            self.last = headers
        return headers


def _bounded(iterator: Any) -> Any:
    """warcio's iterator with its header parsers bounded (_Parser) and HTTP headers read for a
    record of type application/http whatever its target URI's scheme is written in."""
    loader = iterator.loader
    loader.warc_parser = _Parser(loader.warc_parser, warc=True)
    loader.http_parser = _Parser(loader.http_parser, warc=False)
    loader.http_req_parser = _Parser(loader.http_req_parser, warc=False)

    def http_headers(rec_type: str, uri: str | None, stream: Any, length: int | None) -> Any:
        # warcio reads them only for a target URI that starts with lower-case "http:"/"https:"
        # (its AttributeError when there is none); a response read without them is read as a
        # resource (by its WARC Content-Type).
        if length == 0 or rec_type not in _HTTP_RECORDS:
            return None
        last = loader.warc_parser.last  # (None for an ARC file's records)
        declared = (None if last is None else last.get_header("Content-Type")) or ""
        media = "".join(declared.partition(";")[0].split()).lower()
        if media != "application/http" and not (uri or "").lower().startswith(("http:", "https:")):
            return None
        if rec_type == "request":
            return loader.http_req_parser.parse(stream)
        try:
            return loader.http_parser.parse(stream)
        except EOFError:  # an empty revisit (warcio's own), or a response of no bytes
            return None

    loader.load_http_headers = http_headers
    return iterator


class _Source:
    """The decompressed WARC as warcio reads it: its position (``tell``: warcio's record offsets
    are taken from it), bytes pushed back to be read again (after damage, warcio's read-ahead),
    and, while warcio reads header lines (``lines``), a bound on their length."""

    def __init__(self, file: IO[bytes]) -> None:
        self._file = file
        self._back = b""
        self._at = 0
        self.lines = False
        self._run = 0  # bytes since the last line feed, while reading lines
        self.last_text = 0
        """Where the last byte read that is no line break ends (a record cut in its headers ends
        warcio's iteration as if the file had ended: this says it had not)."""

    def tell(self) -> int:
        return self._at

    def read(self, size: int = -1) -> bytes:
        size = 1 << 16 if size is None or size < 0 else size
        data, self._back = self._back[:size], self._back[size:]
        if len(data) < size:
            data += self._file.read(size - len(data))
        ends = len(data.rstrip(b"\r\n"))
        if ends:
            self.last_text = max(self.last_text, self._at + ends)
        self._at += len(data)
        if self.lines and data:
            feed = data.rfind(b"\n")
            self._run = self._run + len(data) if feed < 0 else len(data) - feed - 1
            if self._run > MAX_HEADER_LINE:
                self._run = 0
                self.unread(data)  # searched for the next record from here
                raise LongHeaderLine(f"a header line over {MAX_HEADER_LINE:,} bytes")
        return data

    def unread(self, data: bytes) -> None:
        self._back = data + self._back
        self._at -= len(data)

    def next_record(self) -> int:
        """Read on to the next line that starts with ``WARC/1.`` (left to be read); the bytes
        skipped. Each byte is searched once (linear); the damage before ended a line."""
        skipped, before = 0, b"\n"
        while chunk := self.read(1 << 16):
            found = (before + chunk).find(b"\nWARC/1.")
            if found >= 0:
                self.unread(chunk[found:])
                return skipped + found
            if len(chunk) <= 7:  # the end of the file
                return skipped + len(chunk)
            self.unread(chunk[-7:])  # a "\nWARC/1." the chunk's end cuts
            before = chunk[-8:-7]
            skipped += len(chunk) - 7
        return skipped


def records(file: IO[bytes], where: Provenance, budget: Budget, max_message: int) -> Iterator[Item]:
    """The items of the WARC ``file``: each scanned record's MessageText (``message`` its index
    among all records, ``offset`` where it starts in the decompressed WARC, ``member`` its
    WARC-Record-ID, ``date`` its WARC-Date, ``message_id`` its WARC-Target-URI; a
    ``message/rfc822`` record's the mail's own Message-ID and Date, where it has them), the
    reports on damage, and at the end what was skipped."""
    try:
        from warcio.archiveiterator import ArchiveIterator
        from warcio.exceptions import ArchiveLoadFailed
        from warcio.statusandheaders import StatusAndHeadersParserException
    except ImportError:
        yield Defect("unreadable", where, "a WARC file: install urlsift[warc] (warcio) to read it")
        return
    # warcio's errors on damage; an AttributeError too: it raises one reading a response with no
    # WARC-Target-URI (recordloader.load_http_headers).
    damage = (
        ArchiveLoadFailed,
        StatusAndHeadersParserException,
        HeaderDamage,
        ValueError,
        IndexError,
        AttributeError,
    )
    source = _Source(file)
    skipped: dict[str, int] = {}
    index = resyncs = end = 0  # end: where the last whole record (or damaged stretch) ends
    while True:
        iterator = _bounded(ArchiveIterator(source))
        quiet = _Quiet(iterator)
        failure: tuple[Provenance, str] | None = None
        in_headers = False  # whether the damage is in a record's headers (warcio took its first line)
        while failure is None:
            try:
                source.lines = True
                with contextlib.redirect_stderr(quiet):
                    record = next(iterator)
            except CutHeaders:
                detail = "the file ends inside a record's headers; not read"
                yield Defect("truncated", where._replace(message=index, offset=end), detail)
                yield from _skipped(where, skipped)
                return
            except StopIteration:
                if source.last_text > end:
                    cut = source.last_text - end
                    detail = f"the file ends inside a record's headers ({cut:,} bytes of them); not read"
                    yield Defect("truncated", where._replace(message=index, offset=end), detail)
                yield from _skipped(where, skipped)
                return
            except damage as error:
                # The damaged stretch takes the index of a record: the file is not failed, and the
                # next records keep their numbers whatever the damage was.
                failure = where._replace(message=index, offset=end), f"not a WARC record ({_said(error)})"
                in_headers = True
                index += 1
                break
            finally:
                source.lines = False
            if record.rec_headers.get_header("Content-Length") is None:
                # warcio would read such a record to the end of the file, the records after it
                # its text: it is damage (the length is mandatory, ISO 28500 5.4), and the next
                # record is searched for from its headers' end.
                failure = where._replace(message=index, offset=end), "a record with no Content-Length"
                in_headers = True
                index += 1
                break
            kind = str(record.rec_type)
            here = _identified(where._replace(message=index), record)
            index += 1
            try:
                found = _content(record, kind, here, budget, max_message) if kind in READ else None
            except Exception as error:  # a bug (or the machine's fault) loses this record only: faults.py
                found = faults.lost(error, here)
            if found is None:
                skipped[kind] = skipped.get(kind, 0) + 1
            offset: int | None = None
            while record.raw_stream.read(1 << 16):  # what was not read (skipped, over a limit): no lines
                pass
            try:
                source.lines = True
                with contextlib.redirect_stderr(quiet):
                    iterator.read_to_end()
                offset = iterator.get_record_offset()
                end = offset + iterator.get_record_length()
            except damage as error:
                failure = here, f"the record's end is damaged ({_said(error)})"
            finally:
                source.lines = False
            here = here._replace(offset=offset)
            if quiet.warned():
                failure = here, "no blank line after the record: its Content-Length is wrong"
            # Bytes of a record its file ended before; a record with no Content-Length has no limit
            # (warcio read it to the end of the stream).
            missing = getattr(record.raw_stream, "limit", 0)
            if found is not None:
                found = found._replace(provenance=found.provenance._replace(offset=offset))
                yield found
            if missing > 0:  # warcio gives a cut record's bytes as if they were all there
                detail = f"the file ends inside this record ({missing:,} of its {record.length:,} bytes lost)"
                yield Defect("truncated", here, detail + ("; scanned as far as it goes" if found else ""))
        # Damage: what warcio read ahead goes back to the stream, which is searched for a record.
        reader = iterator.reader
        if reader is not None and reader.rem_length() > 0:
            source.unread(reader.read(reader.rem_length()))
        if iterator.next_line and not in_headers:  # the line warcio took for a record's first
            source.unread(iterator.next_line)
        place, what = failure
        # Said before the search, which may read on for long (an endless stream: for ever).
        yield Defect("corrupt", place, f"{what}; read on from the next record")
        source.next_record()
        end = source.tell()
        resyncs += 1
        if resyncs >= MAX_RESYNCS:
            yield Defect("corrupt", where, f"{MAX_RESYNCS:,} damaged stretches; the rest is not read")
            return


def _skipped(where: Provenance, skipped: dict[str, int]) -> Iterator[Item]:
    if skipped:
        yield Skipped(where, sum(skipped.values()), dict(sorted(skipped.items())))


def _said(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return (text[:120] + "...") if len(text) > 120 else text or type(error).__name__


class _Quiet(io.StringIO):
    """Where warcio's warnings go (it writes them to standard error): noted, not printed."""

    def __init__(self, iterator: Any) -> None:
        super().__init__()
        self._iterator = iterator
        self._count = iterator.err_count

    def warned(self) -> bool:
        """Whether warcio found a record not followed by its blank lines."""
        return bool(self._iterator.err_count > self._count)


def _identified(where: Provenance, record: Any) -> Provenance:
    headers = record.rec_headers
    record_id = headers.get_header("WARC-Record-ID")
    member = record_id if where.member is None or record_id is None else f"{where.member}!{record_id}"
    return where._replace(
        member=member, message_id=headers.get_header("WARC-Target-URI"), date=headers.get_header("WARC-Date")
    )


def _content(
    record: Any, kind: str, where: Provenance, budget: Budget, max_message: int
) -> MessageText | None:
    """The record's text to scan, or None when it holds none (no text type). Of two Content-Type
    headers (a singleton field, RFC 9110 5.3) the first is taken, unreported, as warcio's
    ``get_header`` takes it for the WARC headers and ``mime`` for a mail's; a list-valued one
    (Content-Encoding, Transfer-Encoding) is every line of it, joined."""
    from . import mime, page  # (a mail's and a page's readers: what a run of other files never loads)

    http = record.http_headers
    content_type = record.rec_headers.get_header("Content-Type")
    if kind == "response" and http is not None:  # the page's type is the HTTP response's
        content_type = http.get_header("Content-Type")
    if content_type is None:
        return None
    media, _, parameters = content_type.partition(";")
    media = "".join(media.split()).lower()
    if not (media.startswith("text/") or media in _HTML or media == "message/rfc822"):
        return None
    defects: list[Defect] = []
    notes: list[str] = []  # what the codings worked around
    here = where._replace(part=media)
    pieces: list[bytes] = []
    taken = 0
    try:
        stream = record.raw_stream
        if http is not None:
            # Each content coding's output is spent from the Budget (at most 1000 times the
            # record's size, all layers together); the record's own bytes were counted by the
            # layers under the WARC. A coding not undone here: the body is read as it is.
            chunked, transfer = transfer_codings(_list_field(http, "Transfer-Encoding"))
            # Under a transfer coding not undone here, the content codings cannot be reached.
            applied = (codings(_list_field(http, "Content-Encoding")) or []) if transfer is not None else []
            inner = budget.inner(max(record.length, 1))
            stream = decoded(stream, chunked, applied, inner, notes, transfer or [])
        while taken <= max_message and (piece := stream.read(min(1 << 20, max_message + 1 - taken))):
            pieces.append(piece)
            taken += len(piece)
    except MissingExtra as error:
        return MessageText(where, [], [], 0, [defect(error, here)])
    except (OverBudget, CorruptData) as error:
        # A coding the file's end cut is the record's report (truncated), not one of its own.
        if not isinstance(error, CutCoding) or getattr(record.raw_stream, "limit", 0) <= 0:
            defects.append(defect(error, here, taken))
    defects[:0] = [Defect("malformed", here, note) for note in notes]
    if taken > max_message:
        detail = f"a record of more than {max_message:,} bytes, over the limit; not scanned"
        return MessageText(where, [], [], 0, [Defect("too-large", where, detail)])
    data = b"".join(pieces)
    del pieces
    if media == "message/rfc822":
        found = mime.read(data, where)
        found.defects.extend(defects)
        # The mail's own Message-ID, Date and Newsgroups (issue 30.7), else the record's: the
        # WARC-Date is when it was archived, the target URI where it was fetched from.
        mail = found.provenance
        return found._replace(
            provenance=where._replace(
                message_id=mail.message_id or where.message_id,
                date=mail.date or where.date,
                newsgroups=mail.newsgroups,
            )
        )
    declared = _CHARSET.search(parameters)
    charset = declared.group(1) if declared else None
    if charset is None and media in _HTML:
        meta = _META_CHARSET.search(data, 0, _META_BYTES)
        charset = _prescanned(meta.group(1).decode("ascii")) if meta else None
    text = _decoded(data, charset or "utf-8", here, defects)
    if media not in _HTML:
        return MessageText(where, [text], [media], 0, defects)
    html = page.read(text)
    # D39: its relative links resolved against its <base href> or its own address (the record's).
    links, left = page.resolved(html, record.rec_headers.get_header("WARC-Target-URI"))
    if left:
        defects.append(Defect("too-large", here, page.too_many(left)))
    if not links:
        return MessageText(where, [html.text], [media], 0, defects)
    return MessageText(
        where, [html.text, page.paragraphs(links)], [media, f"{media} {mime.RESOLVED}"], 0, defects
    )


def _list_field(headers: Any, name: str) -> str:
    """A list-valued header's lines joined (RFC 9110 5.3: ``Content-Encoding: gzip`` then
    ``Content-Encoding: br`` is ``gzip, br``)."""
    return ", ".join(value for key, value in headers.headers if key.lower() == name.lower())


def _prescanned(label: str) -> str:
    """The encoding a ``<meta>`` charset gives, as the HTML standard's prescan takes it (13.2.3.2):
    a UTF-16 one is UTF-8 (the page's bytes, read to find the label, were ASCII), UTF-32, which
    the standard lacks, too; x-user-defined is windows-1252."""
    label = label.strip().lower()
    if label == "x-user-defined":
        return "windows-1252"
    if label in _UTF16_LABELS:
        return "utf-8"
    try:
        name = codecs.lookup(label).name
    except (LookupError, ValueError):
        return label
    return "utf-8" if name.startswith(("utf-16", "utf-32")) else label


_UTF16_LABELS = frozenset(
    {"csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "unicodefffe", "unicode-1-1"}
)
"""The Encoding Standard's labels of UTF-16LE and UTF-16BE that Python's codecs do not know."""


def _decoded(data: bytes, charset: str, where: Provenance, defects: list[Defect]) -> str:
    """``data`` decoded from ``charset`` (an unknown one, or one that is no text encoding, as
    UTF-8, reported); undecodable bytes replaced and counted."""
    from . import mime

    charset = charset.strip().lower() or "utf-8"
    text = None
    if mime.not_text_codec(charset) is None:  # the same refusals as a mail part's
        with contextlib.suppress(UnicodeError, LookupError, ValueError, TypeError):
            text = data.decode(charset, "replace")
    if text is None:
        defects.append(Defect("unknown-charset", where, f"charset {charset!r} cannot be read; read as UTF-8"))
        charset = "utf-8"
        text = data.decode(charset, "replace")
    replaced = text.count("\ufffd") - data.count("\ufffd".encode())
    if replaced > 0:
        detail = f"{replaced} undecodable byte sequence{'s' if replaced != 1 else ''} ({charset})"
        defects.append(Defect("undecodable-bytes", where, detail))
    return text
