"""News batches -> RawMessage, as ``rnews`` reads them: each article follows a line
``#! rnews COUNT`` and is exactly COUNT bytes long (the format INN and C News send between hosts).

A count that runs past the end of the file, or a line where the next ``#! rnews`` should be, ends
the batch: what was read is given, and the problem is said (``BatchError``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO

from .mbox import HEAD_BYTES, RawMessage

_HEADER = re.compile(rb"#! rnews (\d{1,12})[ \t]*\r?\n")
BLOCK_BYTES = 1 << 16


class BatchError(ValueError):
    """The batch is cut or is not one past a point."""


def is_batch(head: bytes) -> bool:
    return _HEADER.match(head) is not None


def articles(file: IO[bytes], limit: int = 1 << 62) -> Iterator[RawMessage]:
    """The articles of a batch, in order, each read in bounded blocks (an article over ``limit``
    bytes is given cut to its first HEAD_BYTES, as ``mbox.messages`` does)."""
    offset, number = 0, 0
    while True:
        line = file.readline(64)
        if not line:
            return
        found = _HEADER.fullmatch(line)
        if found is None:
            raise BatchError(f"no '#! rnews COUNT' line at byte {offset:,}")
        size = int(found.group(1))
        kept: list[bytes] = []
        held, left = 0, size
        while left:
            block = file.read(min(left, BLOCK_BYTES))
            if not block:
                missing = f"{left:,} of {size:,} bytes missing"
                raise BatchError(f"article {number} at byte {offset:,} is cut: {missing}")
            left -= len(block)
            if size <= limit or held < HEAD_BYTES:  # over the limit: the head only is kept
                kept.append(block)
                held += len(block)
        data = b"".join(kept) if size <= limit else b"".join(kept)[:HEAD_BYTES]
        yield RawMessage(number, offset, data, size, True)
        offset += len(line) + size
        number += 1
