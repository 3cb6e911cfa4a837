"""mbox files -> (index, byte offset, message bytes), in one streaming pass.

A message starts at a ``From `` line at the start of the file or after an empty line, that looks
like a separator (a date with a time and a year follows): the mboxo/mboxrd form ``From sender
Thu Jan  1 00:00:00 1970`` and pipermail's ``From user at host  Mon May  5 12:34:56 1997``. The
empty line before the next separator belongs to the file, not the message. Body lines that read
``>From ``, ``>>From `` ... lose one ``>`` (mboxrd; in mboxo only ``>From `` occurs, and it was a
quoted ``From `` too). The stdlib's ``mailbox.mbox`` is not used: it reads the file twice, would
create a missing one, and leaves the quoting in place.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO

_SEPARATOR = re.compile(rb"From \S+(?: at \S+)? .*\d\d:\d\d(?::\d\d)?.* \d{4}\s*$")
_QUOTED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)
_EMPTY = (b"\n", b"\r\n")


def is_separator(line: bytes) -> bool:
    return line.startswith(b"From ") and _SEPARATOR.match(line) is not None


def messages(file: IO[bytes]) -> Iterator[tuple[int, int, bytes]]:
    """(index, offset of the separator line, message bytes without it) for each message."""
    offset, start, index = 0, -1, 0
    lines: list[bytes] = []
    after_empty = True
    for line in file:
        if after_empty and line[:5] == b"From " and is_separator(line):
            if start >= 0:
                yield index, start, _message(lines)
                index += 1
            start, lines = offset, []
        elif start >= 0:
            lines.append(line)
        after_empty = line in _EMPTY
        offset += len(line)
    if start >= 0:
        yield index, start, _message(lines)


def _message(lines: list[bytes]) -> bytes:
    if lines and lines[-1] in _EMPTY:
        lines.pop()  # the separating empty line
    return _QUOTED_FROM.sub(rb"\1", b"".join(lines))
