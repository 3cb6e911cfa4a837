"""The stdlib-based MIME reader urlsift used before sources/mime.py: kept as an oracle for
the light reader (test_mime.py), not used by the package."""

from __future__ import annotations

import codecs
import contextlib
import email
import email.header
import re
from collections.abc import Iterator
from email.message import Message
from typing import NamedTuple

from urlsift._model import Defect, Provenance
from urlsift.sources.mime import TRACE_HEADERS
from urlsift.sources.page import text as _html_text  # not what is compared: the MIME walk is


class TextUnit(NamedTuple):
    text: str
    provenance: Provenance


_RAW_BYTE = re.compile("[\udc80-\udcff]")  # a byte the parser could not decode, kept as a surrogate


def units(data: bytes, where: Provenance) -> Iterator[TextUnit | Defect]:
    """The headers and text parts of the message ``data``, with where each came from."""
    message = email.message_from_bytes(data)
    where = where._replace(
        message_id=_header_text(message.get("Message-ID")),
        date=_header_text(message.get("Date")),
        newsgroups=_header_text(message.get("Newsgroups")),
    )
    for defect in message.defects:
        yield Defect("malformed", where, type(defect).__name__)
    for name, raw in message.items():
        if name.lower() in TRACE_HEADERS:  # the package's choice of what to scan, not checked here
            continue
        value = _header_text(raw) or ""
        if ":" in value:  # no colon, no URL
            yield TextUnit(value, where._replace(part=name))
    for index, part in enumerate(message.walk()):
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        yield from _text_part(part, where._replace(part=f"{index} {part.get_content_type()}"))


def _text_part(part: Message, where: Provenance) -> Iterator[TextUnit | Defect]:
    for defect in part.defects:
        yield Defect("malformed", where, type(defect).__name__)
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return
    charset = part.get_content_charset() or "utf-8"
    if charset in ("us-ascii", "ascii"):
        charset = "utf-8"  # undeclared 8-bit text is most often UTF-8; ASCII is a subset anyway
    try:
        codecs.lookup(charset)
    except LookupError:
        yield Defect("unknown-charset", where, f"unknown charset {charset!r}, read as UTF-8")
        charset = "utf-8"
    text = payload.decode(charset, "replace")
    replaced = text.count("\ufffd") - payload.count("\ufffd".encode())
    if replaced > 0:
        sequences = "sequence" if replaced == 1 else "sequences"
        yield Defect("undecodable-bytes", where, f"{replaced} undecodable byte {sequences} ({charset})")
    if part.get_content_subtype() == "html":
        text = _html_text(text)
    yield TextUnit(text, where)


def _header_text(value: object) -> str | None:
    """A header value as text: RFC 2047 words decoded, raw 8-bit bytes read as UTF-8."""
    if value is None:
        return None
    text = str(value)
    if "=?" in text:
        with contextlib.suppress(ValueError, LookupError, UnicodeError):  # else as written
            text = str(email.header.make_header(email.header.decode_header(text)))
    if _RAW_BYTE.search(text):
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return text
