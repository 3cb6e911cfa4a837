"""Sources: what a path holds (plain text, an mbox, one message) and the texts to scan in it.

Plain text is not turned into units here: it goes to ``extract_stream`` as a stream, so a file of
any size is read in bounded windows. Mail gives one TextUnit per header and per text part.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO

from .._model import Defect, Provenance, TextUnit
from . import mime
from .mbox import is_separator, messages

FORMATS = ("auto", "text", "mbox", "eml")
SNIFF_BYTES = 4096

# Two or more header lines at the very start, one of them a header every message or article has.
_HEADERS = re.compile(
    rb"(?:[!-9;-~]+:[^\n]*\n(?:[ \t][^\n]*\n)*){2,}",
)
_MESSAGE_HEADER = re.compile(
    rb"^(?:From|Date|Subject|Message-ID|Received|Return-Path|Path|Newsgroups):", re.IGNORECASE | re.MULTILINE
)


def sniff(head: bytes, name: str) -> str:
    """The format of a file from its first bytes and its name: "mbox", "eml" or "text"."""
    first_line = head.split(b"\n", 1)[0]
    if is_separator(first_line):
        return "mbox"
    if name.lower().endswith(".eml"):
        return "eml"
    headers = _HEADERS.match(head.replace(b"\r\n", b"\n"))
    if headers and _MESSAGE_HEADER.search(headers.group()):
        return "eml"
    return "text"


def mail_units(file: IO[bytes], fmt: str, where: Provenance) -> Iterator[TextUnit | Defect]:
    """The texts of each message of an mbox, or of one message."""
    if fmt == "mbox":
        for index, offset, data in messages(file):
            yield from mime.units(data, where._replace(message=index, offset=offset))
    else:
        yield from mime.units(file.read(), where._replace(message=0, offset=0))


__all__ = ["FORMATS", "SNIFF_BYTES", "mail_units", "sniff"]
