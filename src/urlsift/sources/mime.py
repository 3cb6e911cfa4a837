"""One message's bytes -> the texts to scan: its headers, and its text parts decoded.

Headers that may hold a URL are scanned one by one (List-Archive, List-Unsubscribe and friends
carry ``<...>`` wrappers), RFC 2047 words decoded. Text parts are decoded from quoted-printable or
base64 (real list mail breaks ``<https://...>`` wrappers with soft line breaks), then from their
charset, with undecodable bytes replaced and counted; an unknown charset is read as UTF-8 and
reported. ``text/html`` parts give the text of the page and the values of its ``href`` and ``src``
attributes, one per line. Other parts (images, archives, binaries) are skipped undecoded.

The stdlib's ``email`` parser is not used for the structure: it builds a Message object for every
part and line-splits every byte, which costs more than the scanning itself; this module finds the
header block and the multipart boundaries with byte searches and decodes only the text parts. It
walks the parts in ``Message.walk()`` order and numbers them as it does (``tests/sources/test_mime.py``
compares the two on the corpora). Nothing here raises on bad input: each problem is a Defect, and
what can be read is still given.

With the Rust core (``URLSIFT_CORE=rust``), rust/core/src/mime.rs reads the messages it can, this
module the rest (issue 32); this one stays the reference (``tests/sources/test_mime_cores.py``).
"""

from __future__ import annotations

import binascii
import codecs
import contextlib
import email.base64mime
import email.errors
import email.header
import email.quoprimime
import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from itertools import repeat
from operator import itemgetter
from types import ModuleType
from typing import Any, NamedTuple

from .. import _select
from .._model import Defect, DefectKind, MessageText, Provenance
from ..flowed import is_flowed
from . import page as _page

MAX_DEPTH = 64
"""Multiparts nested deeper than this are not entered (a crafted message could nest thousands)."""
MAX_CACHED_TYPE = 256
"""Content-Type values up to this many characters are kept once parsed."""

TRACE_HEADERS = frozenset(
    {
        "received",
        "x-received",
        "dkim-signature",
        "x-google-dkim-signature",
        "domainkey-signature",
        "arc-seal",
        "arc-message-signature",
    }
)
"""Headers not scanned: trace lines (RFC 5321 section 4.4: host names, addresses, ids, times) and
signatures (RFC 6376: tags and base64). They are a third of a list archive's bytes and carried no
candidate at all in the 41,000 of them in ../shared/corpora; Received-SPF and
Authentication-Results, whose comments may explain with a URL, are scanned."""
# A header: its name, and its value with its folded lines (line breaks kept, as the stdlib keeps
# them), up to the line break that ends it.
_HEADER_BYTES = re.compile(rb"([!-9;-~]+)([ \t]*:[ \t]*)([^\n]*(?:\n[ \t][^\n]*)*)(\n|\Z)")
_HEADER_START = re.compile(r"\n(?![ \t])")
# An empty line: "\n\n", or "\n\r\n" when no "\n" follows (in "\n\r\n\n" it is the "\n\n", as the
# reader has always read it).
_BLANK_LINE = re.compile(rb"\n\n|\n\r\n(?!\n)")
_QUOTED_PAIR = re.compile(r"\\(.)")
_PARAMETER = re.compile(r';\s*([^\s=;]+)\s*=\s*("(?:\\.|[^"\\])*"?|[^;]*)')


class _Entity(NamedTuple):
    """A message or a MIME part: its headers, and where its body lies in the message's bytes (a
    view: nested multiparts are not copied at every level)."""

    headers: list[tuple[str, str, str]]
    """Each header as ``str.partition`` cuts it at its colon: name, colon, value (kept so: a pair
    for each of the fifty headers of a list message cost more than its whole cutting)."""
    keys: list[str]
    """The headers' names, lower-cased."""
    data: bytes
    """The whole message's bytes; the body is ``data[start:end]``."""
    start: int
    end: int
    defects: list[str]

    @property
    def body(self) -> bytes:
        """The body's bytes (a copy: taken of the parts that are read as text only)."""
        return self.data[self.start : self.end]

    def get(self, name: str) -> str | None:
        """The first header called ``name`` (lower case)."""
        return (
            self.headers[self.keys.index(name)][2].lstrip(" \t").rstrip("\r") if name in self.keys else None
        )


RESOLVED = "resolved"
"""D39: the word after a part's name in the part of its relative links resolved
(``2 text/html resolved``)."""


def read(data: bytes, where: Provenance, pipermail: bool = False) -> MessageText:
    """The headers and text parts of the message ``data``, named, and its defects; ``pipermail``:
    it comes from a pipermail archive (D32, ``MessageText.pipermail``)."""
    native = _select.native()
    if native is not None:
        # The core reads it, or says why not (another charset, in a part or an RFC 2047 word, HTML,
        # RFC 2231: the one place that decides, rust/core/src/mime.rs); read here then.
        found = _native_reader(native).read(data)
        if not isinstance(found, str):
            return _from_core(found, where, pipermail)
    message = _entity(data)
    # No colon, no URL (an RFC 2047 word may hide one: "=3A"), but for a host name with no scheme
    # ("Organization: www.example.org"), which the modern profile finds; tested first, as most
    # headers have none.
    names: list[str] = []
    texts: list[str] = []
    for (name, _, value), key in zip(message.headers, message.keys, strict=True):
        if (":" in value or "=?" in value or "www." in value.lower()) and key not in TRACE_HEADERS:
            names.append(name)
            texts.append(value.lstrip(" \t").rstrip("\r"))
    names, texts, problems = _scanned_headers(names, texts)
    found = MessageText(_identified(message, where), texts, names, len(texts), [], {}, pipermail)
    for name, problem in problems:  # the header is still scanned, as written
        _defect(found, "malformed", name, problem)
    _walk(message, found, [0], "text/plain", 0)
    return found


@lru_cache(maxsize=1)
def _native_reader(native: ModuleType) -> Any:
    """The core's message reader, told once which headers are not scanned."""
    return native.MessageReader(sorted(TRACE_HEADERS))


def _scanned_headers(
    names: list[str], texts: list[str]
) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """The headers to scan with their RFC 2047 words decoded (those left with no colon and no
    "www." dropped), and each header whose words could not be decoded, with why."""
    if not any("=?" in value for value in texts):
        return names, texts, []
    decoded = [_header_decoded(value) if "=?" in value else (value, None) for value in texts]
    problems = [
        (name, problem) for name, (_, problem) in zip(names, decoded, strict=True) if problem is not None
    ]
    kept = [
        (name, value)
        for name, (value, _) in zip(names, decoded, strict=True)
        if ":" in value or "www." in value.lower()
    ]
    return [name for name, _ in kept], [value for _, value in kept], problems


_CoreMessage = tuple[
    list[str],
    list[str],
    "str | None",
    "str | None",
    "str | None",
    list[str],
    list[str],
    dict[int, bool],
    list[tuple[DefectKind, str, str]],
]
"""What ``_core.MessageReader.read`` gives for a message it read (rust/py/src/mime.rs)."""


def _from_core(read_: _CoreMessage, where: Provenance, pipermail: bool) -> MessageText:
    """The ``MessageText`` of a message the core read (its RFC 2047 words decoded there, and their
    problems among its defects)."""
    names, values, message_id, date, newsgroups, parts, texts, flowed, defects = read_
    headers = len(values)
    provenance = Provenance(where[0], where[1], where[2], where[3], message_id, date, newsgroups, where[7])
    found = MessageText(
        provenance,
        values + texts,
        names + parts,
        headers,
        [],
        {index + headers: delsp for index, delsp in flowed.items()},  # D31
        pipermail,
    )
    for kind, part, detail in defects:
        _defect(found, kind, part, detail)
    return found


def identified(data: bytes, where: Provenance) -> Provenance:
    """``where`` with the Message-ID, Date and Newsgroups of the message that starts ``data``."""
    return _identified(_entity(data), where)


def _identified(message: _Entity, where: Provenance) -> Provenance:
    message_id = _header_text(message.get("message-id"))
    date = _header_text(message.get("date"))
    newsgroups = _header_text(message.get("newsgroups"))
    # Built whole: _replace costs more, and this runs once a message.
    return Provenance(where[0], where[1], where[2], where[3], message_id, date, newsgroups, where[7])


def _entity(data: bytes, start: int = 0, end: int | None = None) -> _Entity:
    """Split the header block of the entity ``data[start:end]`` from its body, and the header
    block into headers (only the header block is copied)."""
    end = len(data) if end is None else end
    if data.startswith(b"\n", start, end) or data.startswith(b"\r\n", start, end):
        return _Entity([], [], data, data.index(b"\n", start) + 1, end, [])
    blank = _blank_line(data, start, end)
    head_end, body_start = (end, end) if blank is None else blank
    head = data[start:head_end].decode("utf-8", "replace")
    # The common case, in C-speed passes (map, no Python loop): cut before each line that is no
    # folded one, cut each header at its colon, and check every name at once. Values keep the
    # blanks after the colon (the stdlib's lstrip is done where a value is used).
    chunks = _HEADER_START.split(head)
    if chunks[-1] == "":
        chunks.pop()  # after the line feed that ends the block
    named = list(map(str.partition, chunks, repeat(":")))
    names = list(map(itemgetter(0), named))
    joined = ":".join(names)  # (no name holds a colon: each was cut at its first)
    # Every line a header: each has a colon (no separator "" after the partition), and a name of
    # printable ASCII but the space (RFC 5322 2.2: ``!`` to ``~`` less the colon).
    if _is_names(joined) and "" not in names and "" not in map(itemgetter(1), named):
        return _Entity(named, joined.lower().split(":") if names else [], data, body_start, end, [])
    # As the stdlib: the headers end at the first line that is none; it and the rest are body.
    # Matched in bytes (lines and names are the same as in the text), each value decoded alone.
    headers: list[tuple[str, str, str]] = []
    at = start
    while (match := _HEADER_BYTES.match(data, at, head_end)) is not None:
        value = match.group(3).decode("utf-8", "replace")  # (without its leading blanks)
        headers.append((match.group(1).decode("ascii"), ":", value))
        at = match.end()
    keys = [name.lower() for name, _, _ in headers]
    return _Entity(headers, keys, data, at, end, ["MissingHeaderBodySeparatorDefect"])


def _is_names(joined: str) -> bool:
    """Whether ``joined``, header names joined by colons, holds only ``!`` to ``~``: C-speed
    tests, where a regex steps through the characters in Python's engine."""
    return joined.isascii() and joined.isprintable() and " " not in joined


def _blank_line(data: bytes, start: int, end: int) -> tuple[int, int] | None:
    """Where the first empty line of ``data[start:end]`` is (from the line feed before it to its
    end). One search from line feed to line feed: ``bytes.find(b"\\n\\n")`` checks nearly every
    byte of a header block, which is mostly short lines."""
    blank = _BLANK_LINE.search(data, start, end)
    return None if blank is None else (blank.start() + 1, blank.end())


class _Type(NamedTuple):
    """A Content-Type value read: the part's type, and what reading it as text takes."""

    kind: str
    """Lower case; text/plain when malformed (as the stdlib: RFC 2045)."""
    params: Mapping[str, str]
    """Shared by the parts of the same value: not to be changed."""
    charset: str
    """What its text is decoded from: lower case, US-ASCII read as UTF-8."""
    refused: str | None
    """Why ``charset`` may not decode text; None when it may."""
    delsp: bool | None
    """D31: None for all but flowed text/plain, else whether ``DelSp=yes``."""
    undecoded: str | None = None
    """Why a parameter's RFC 2231 value was read as written (its charset cannot decode it)."""


def _content_type(entity: _Entity, default: str) -> _Type:
    """The part's Content-Type read (``default``, with no parameters, when it has none)."""
    value = entity.get("content-type")
    if value is None:  # (an empty one is malformed: text/plain, even in a digest)
        value = default
    # A list's messages repeat a few values: each read once (a long one, as a crafted message may
    # hold, is not kept).
    return _read_type(value) if len(value) > MAX_CACHED_TYPE else _cached_type(value)


def _read_type(value: str) -> _Type:
    """A Content-Type value read (the charset and DelSp as a text part of it takes them)."""
    kind, params, undecoded = _parsed_type(value)
    charset = params.get("charset", "utf-8").strip().lower() or "utf-8"
    if charset in ("us-ascii", "ascii"):
        charset = "utf-8"  # undeclared 8-bit text is most often UTF-8; ASCII is a subset anyway
    delsp = is_flowed(params) if kind == "text/plain" else None
    return _Type(kind, params, charset, not_text_codec(charset), delsp, undecoded)


_cached_type = lru_cache(maxsize=256)(_read_type)


def _parsed_type(value: str) -> tuple[str, dict[str, str], str | None]:
    """A Content-Type value's type, lower case, its parameters, and why an RFC 2231 value among
    them was read as written (None when none was)."""
    kind, _, rest = value.partition(";")
    kind = "".join(kind.split()).lower()
    if kind.count("/") != 1:
        kind = "text/plain"  # as the stdlib (RFC 2045: an invalid type is read as text/plain)
    pairs = [(name.lower(), raw.strip()) for name, raw in _PARAMETER.findall(";" + rest)]
    if any("*" in name for name, _ in pairs):  # RFC 2231 continuations and charsets
        import email.utils  # (with socket, random and calendar: a few ms of start-up most runs skip)

        decoded = email.utils.decode_params([("", ""), *((n, f'"{_unquote(v)}"') for n, v in pairs)])
        params: dict[str, str] = {}
        undecoded: str | None = None
        for name, found in decoded[1:]:
            try:
                params[name] = email.utils.collapse_rfc2231_value(found)
            except (ValueError, TypeError) as error:  # a NUL in its charset; a codec that takes no str
                # As the stdlib reads a value of an unknown charset (LookupError): as written.
                params[name] = email.utils.unquote(found[2] if isinstance(found, tuple) else found)
                charset = found[0] if isinstance(found, tuple) else None
                why = type(error).__name__
                undecoded = (
                    undecoded
                    or f"parameter {name}: charset {charset!r} cannot decode it ({why}); read as written"
                )
        return kind, params, undecoded
    return kind, {name: _unquote(raw) for name, raw in pairs}, None


def _unquote(raw: str) -> str:
    if not raw.startswith('"'):
        return raw
    inner = raw[1:-1] if raw.endswith('"') and len(raw) > 1 else raw[1:]
    return _QUOTED_PAIR.sub(r"\1", inner) if "\\" in inner else inner


def _walk(entity: _Entity, found: MessageText, counter: list[int], default: str, depth: int) -> None:
    """Add ``entity``'s text and the parts inside it to ``found``, numbered as ``Message.walk()``
    numbers them."""
    index = counter[0]
    counter[0] += 1
    content = _content_type(entity, default)
    kind = content.kind
    part = f"{index} {kind}"
    for defect in entity.defects:
        _defect(found, "malformed", part, defect)
    if content.undecoded is not None:
        _defect(found, "unknown-charset", part, content.undecoded)
    if kind.startswith("multipart/"):
        if depth >= MAX_DEPTH:
            _defect(found, "malformed", part, f"parts nested deeper than {MAX_DEPTH} levels; not read")
            return
        boundary = content.params.get("boundary")
        if not boundary:
            _defect(found, "malformed", part, "NoBoundaryInMultipartDefect")
            _text_part(entity, found, part, content)
            return
        inner = "message/rfc822" if kind == "multipart/digest" else "text/plain"
        parts, problems = _split(entity, boundary.encode("utf-8", "replace"))
        for problem in problems:
            _defect(found, "malformed", part, problem)
        if not parts and problems:
            _text_part(entity, found, part, content)  # as the stdlib: the body as text
        for start, end in parts:
            _walk(_entity(entity.data, start, end), found, counter, inner, depth + 1)
    elif kind == "message/rfc822" and depth < MAX_DEPTH:
        _walk(_entity(entity.data, entity.start, entity.end), found, counter, "text/plain", depth + 1)
    elif kind.startswith("text/"):
        _text_part(entity, found, part, content)


def _defect(found: MessageText, kind: DefectKind, part: str, detail: str) -> None:
    found.defects.append(Defect(kind, found.provenance._replace(part=part), detail))


def _split(entity: _Entity, boundary: bytes) -> tuple[list[tuple[int, int]], list[str]]:
    """Where the parts of a multipart body lie in ``entity.data`` (start, end), and what was wrong
    with its boundaries (RFC 2046 5.1.1: the line break before a boundary line belongs to the
    boundary)."""
    data, first = entity.data, entity.start
    parts: list[tuple[int, int]] = []
    start = -1
    for line_start, after, closing in _boundary_lines(entity, b"--" + boundary):
        if start >= 0:
            end = line_start
            if data[max(first, end - 2) : end] == b"\r\n":
                end -= 2
            elif end > first and data[end - 1] == 10:
                end -= 1
            parts.append((start, max(start, end)))
        if closing:
            return parts, []
        start = after
    if start < 0:
        return [], ["StartBoundaryNotFoundDefect"]
    parts.append((start, entity.end))
    return parts, ["CloseBoundaryNotFoundDefect"]


def _boundary_lines(entity: _Entity, delimiter: bytes) -> Iterator[tuple[int, int, bool]]:
    """(start of the line, start of the next line, whether it closes) for each line of the body
    that is ``delimiter``, maybe ``--``, maybe blanks. Substring searches: a regex compiled for
    each message's boundary cost more than the rest of the message."""
    data, first, last = entity.data, entity.start, entity.end
    at = data.find(delimiter, first, last)
    while at >= 0:
        if at == first or data[at - 1] == 10:
            end = at + len(delimiter)
            closing = data.startswith(b"--", end, last)
            end += 2 * closing
            while end < last and data[end] in b" \t":
                end += 1
            if end == last or data[end] == 10 or data.startswith(b"\r\n", end, last):
                yield at, min(last, data.find(b"\n", end, last) + 1 or last), closing
        at = data.find(delimiter, at + 1, last)


def _text_part(entity: _Entity, found: MessageText, part: str, content: _Type) -> None:
    payload, problem = _decoded(entity.body, (entity.get("content-transfer-encoding") or "").strip().lower())
    if problem:
        _defect(found, "malformed", part, problem)
    charset, problem = content.charset, content.refused
    if problem is None:
        try:  # a text codec may still refuse: idna and punycode take no "replace", "undefined" none
            text = payload.decode(charset, "replace")
        except (UnicodeError, LookupError, ValueError, TypeError) as error:
            problem = f"charset {charset!r} cannot decode this part ({type(error).__name__})"
    if problem is not None:
        _defect(found, "unknown-charset", part, f"{problem}, read as UTF-8")
        charset = "utf-8"
        text = payload.decode(charset, "replace")
    # U+FFFD the payload did not hold; most parts have none at all (one pass, not two).
    replaced = text.count("\ufffd") - payload.count("\ufffd".encode()) if "\ufffd" in text else 0
    if replaced > 0:
        sequences = "sequence" if replaced == 1 else "sequences"
        _defect(found, "undecodable-bytes", part, f"{replaced} undecodable byte {sequences} ({charset})")
    html = _page.read(text) if content.kind == "text/html" else None
    found.texts.append(text if html is None else html.text)
    found.parts.append(part)
    if content.delsp is not None and found.flowed is not None:  # D31: unflowed before scanning
        found.flowed[len(found.texts) - 1] = content.delsp
    if html is not None and html.links and html.base is not None:  # D39: against its <base href>
        links, left = _page.resolved(html)
        if links:
            found.texts.append(_page.paragraphs(links))
            found.parts.append(f"{part} {RESOLVED}")
        if left:
            _defect(found, "too-large", part, _page.too_many(left))


@lru_cache(maxsize=256)  # a codec lookup per part cost more than decoding a short one
def not_text_codec(charset: str) -> str | None:
    """Why ``charset`` may not decode text (None when it may): an unknown name, or a codec that is
    no text encoding (hex, rot13, base64, zlib: ``bytes.decode`` refuses them, and a lookup alone
    does not say so)."""
    try:
        codecs.lookup(charset)
    except (LookupError, ValueError):  # ValueError: a name with a NUL
        return f"unknown charset {charset!r}"
    return f"charset {charset!r} is no text encoding" if _no_text_encoding(charset) else None


def _decoded(body: bytes, encoding: str) -> tuple[bytes, str | None]:
    """The body with its Content-Transfer-Encoding undone, and what went wrong doing it."""
    if encoding == "quoted-printable":
        return binascii.a2b_qp(body), None
    if encoding == "base64":
        try:
            return binascii.a2b_base64(body), None
        except binascii.Error:  # padding missing: decode what is there (as the stdlib does)
            with contextlib.suppress(binascii.Error):
                return binascii.a2b_base64(body + b"==="), "InvalidBase64PaddingDefect"
            return b"", "InvalidBase64LengthDefect"
    return body, None


def _header_text(value: str | None) -> str | None:
    """A header value as text: RFC 2047 words decoded (else as written)."""
    return value if value is None or "=?" not in value else _header_decoded(value)[0]


def _header_decoded(value: str) -> tuple[str, str | None]:
    """``value`` with its RFC 2047 words decoded as ``make_header(decode_header(value))`` decodes
    them, or as written, with why, when they cannot be (an unknown charset, one that is no text
    encoding, bytes the charset refuses, bad base64)."""
    try:
        words = _header_words(value)
    except (ValueError, LookupError, UnicodeError, AssertionError, email.errors.MessageError) as error:
        return value, f"an encoded word cannot be decoded ({type(error).__name__})"
    refused = next((charset for _, charset in words if charset and _no_text_encoding(charset)), None)
    if refused is None:
        try:
            return str(email.header.make_header(words)), None
        except (ValueError, LookupError, UnicodeError, AssertionError, email.errors.MessageError) as error:
            problem = f"an encoded word cannot be decoded ({type(error).__name__}); read as UTF-8"
    else:  # bytes.decode refuses it too: said here, not left to it
        problem = f"an encoded word's charset {refused!r} is no text encoding; read as UTF-8"
    # One bad word spoils make_header's whole value: each run is decoded on its own instead, so
    # the good words stay decoded and no "?=" of a word reaches the scanner as URL text.
    pieces: list[str] = []
    last_encoded: bool | None = None
    for word, charset in words:
        text = _run_text(word, charset)
        encoded = charset not in (None, "us-ascii")
        apart = text[:1].isspace() or (pieces and pieces[-1][-1:].isspace())
        if last_encoded is not None and encoded != last_encoded and not apart:
            pieces.append(" ")  # as str(Header) puts between encoded and plain text
        pieces.append(text)
        last_encoded = encoded
    return "".join(pieces), problem


def _run_text(word: bytes | str, charset: str | None) -> str:
    """One run of ``_header_words`` decoded alone: by its charset where that is a text encoding
    that decodes, else as UTF-8, undecodable bytes replaced (as a body part's are)."""
    if isinstance(word, str):
        return word
    if charset is not None and not _no_text_encoding(charset):
        try:
            return word.decode(charset, "replace")
        except (LookupError, UnicodeError, ValueError):
            pass
    return word.decode("utf-8", "replace")


def _encoded_words(line: str) -> list[str]:
    """What ``email.header.ecre.split(line)`` gives (text, then charset, encoding and encoded text
    for each encoded word, then text), in one pass: ``ecre`` looks for the ``?=`` that closes a
    word to the end of the line from every ``=?``, which takes quadratic time on a line of
    unclosed words (issue 17). A word is ``=?`` charset (up to the next ``?``) ``?`` one of qQbB
    ``?`` encoded text (up to the next ``?=`` on the line) ``?=``. When no ``?=`` follows a word's
    start, none follows any later start: the search stops there."""
    parts: list[str] = []
    taken = 0
    start = line.find("=?")
    while start >= 0:
        mark = line.find("?", start + 2)
        if mark < 0:
            break
        if line[mark + 1 : mark + 2] in ("q", "Q", "b", "B") and line[mark + 2 : mark + 3] == "?":
            close = line.find("?=", mark + 3)
            if close < 0:
                break
            parts += [line[taken:start], line[start + 2 : mark], line[mark + 1], line[mark + 3 : close]]
            taken = close + 2
            start = line.find("=?", taken)
        else:
            start = line.find("=?", start + 1)
    parts.append(line[taken:])
    return parts


def _has_encoded_word(header: str) -> bool:
    """Whether ``email.header.ecre.search(header)`` finds a word, in one pass: over the whole
    value, where a charset may hold a line break and the encoded text may not. The next ``?=``
    and line break are kept, not looked for again from each start."""
    close = newline = -1
    start = header.find("=?")
    while start >= 0:
        mark = header.find("?", start + 2)
        if mark < 0:
            return False
        if header[mark + 1 : mark + 2] in ("q", "Q", "b", "B") and header[mark + 2 : mark + 3] == "?":
            if close < mark + 3:
                close = header.find("?=", mark + 3)
                if close < 0:
                    return False
            if newline < mark + 3:
                newline = header.find("\n", mark + 3)
            if newline < 0 or newline >= close:
                return True
        start = header.find("=?", start + 1)
    return False


@lru_cache(maxsize=256)
def _no_text_encoding(charset: str) -> bool:
    """Whether ``charset`` names a codec that is no text encoding (hex, rot13, base64, zlib: a
    lookup alone does not refuse them; unknown names are left to the decoder to refuse). The
    codecs of domain labels are none either: punycode decodes in quadratic time, so a hostile
    part labelled with it would hang the run."""
    try:
        codec = codecs.lookup(charset)
    except (LookupError, ValueError):  # ValueError: a name with a NUL
        return False
    return codec.name in _LABEL_CODECS or not getattr(codec, "_is_text_encoding", True)


_LABEL_CODECS = frozenset({"punycode", "idna"})


def _header_words(header: str) -> list[tuple[bytes | str, str | None]]:
    """``email.header.decode_header(header)`` for a str, in linear time: the stdlib's own steps,
    with ``_encoded_words`` for its regex and lists joined once for its repeated ``+=``."""
    if not _has_encoded_word(header):  # the stdlib's first test, kept: it differs in rare values
        return [(header, None)]
    words: list[tuple[str, str | None, str | None]] = []
    for line in header.splitlines():
        parts = _encoded_words(line)
        for index in range(0, len(parts), 4):
            unencoded = parts[index].lstrip() if index == 0 else parts[index]
            if unencoded:
                words.append((unencoded, None, None))
            if index + 1 < len(parts):
                charset, encoding, encoded = parts[index + 1 : index + 4]
                words.append((encoded, encoding.lower(), charset.lower()))
    # Whitespace between two encoded words is dropped (RFC 2047 6.2).
    kept = [
        word
        for n, word in enumerate(words)
        if not (0 < n < len(words) - 1 and words[n + 1][1] and words[n - 1][1] and word[0].isspace())
    ]
    collapsed: list[tuple[bytes | str, str | None]] = []
    run: list[bytes] = []
    run_charset: str | None = None
    for text, how, word_charset in kept:
        if how is None:
            word = text.encode("raw-unicode-escape")
        elif how == "q":
            word = email.quoprimime.header_decode(text).encode("raw-unicode-escape")
        else:
            padding = -len(text) % 4  # Postel's law: add missing padding (as the stdlib)
            try:
                word = email.base64mime.decode(text + "==="[:padding] if padding else text)
            except binascii.Error as error:
                raise email.errors.HeaderParseError("Base64 decoding error") from error
        if run and word_charset != run_charset:
            collapsed.append(((b" " if run_charset is None else b"").join(run), run_charset))
            run = []
        run.append(word)
        run_charset = word_charset
    collapsed.append(((b" " if run_charset is None else b"").join(run), run_charset))
    return collapsed
