"""Paths -> units of work, each read by one worker alone (``-j``, Dask): a big mbox, text or
JSON-lines file in byte ranges, a big zip or tar archive in groups of members, a big public-inbox
repository in ranges of commits, small files in batches.

Units come in the order of the files and, in a file, of its bytes, so results put back in that
order read as one pass over everything. A unit that is a piece of a file says so (``last`` marks its
final piece) and the results stage joins the pieces (``pieces.join_pieces``).

What cannot be cut is one unit: compressed files (``.gz``, ``.bz2``, ``.xz``, ``.zst``), standard input, news
batches, single messages, and any file whose listing or sniffing fails (reading it whole reports the
problem, as ``-j 1`` does).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from typing import Literal, NamedTuple, TypeVar

from .errors import ClusterError as ClusterError  # (units.ClusterError, as before)
from .scanner import MAX_WRAPPER_CHARS
from .sources import ReadOptions, cut_points
from .sources.kinds import is_repository
from .sources.split import text_cutter

SPLIT_BYTES = 16 * 10**6
"""A file over this size is cut into ranges (or member groups) of about this size: small, so the
workers finish together (the last piece keeps one worker busy alone; README's "Archives" figures
say for how long) and the printing process holds little while it waits for the next piece in order."""
BATCH_BYTES = 1 << 20
"""Small files (a news spool, a Maildir) go to a worker in batches of about this many bytes ..."""
BATCH_FILES = 512
"""... and at most this many files."""
_TEXT_CUT = text_cutter(MAX_WRAPPER_CHARS + 128)  # 64 spaces may come between "<" and its scheme


UnitKind = Literal["files", "mbox", "text", "jsonl", "zip", "tar", "inbox"]
_PIECE_KINDS: dict[str, UnitKind] = {
    "mbox": "mbox",
    "text": "text",
    "jsonl": "jsonl",
    "zip": "zip",
    "tar": "tar",
    "inbox": "inbox",
}
"""The kinds of file ``sources.cut_points`` cuts, as unit kinds."""


class Unit(NamedTuple):
    """One worker's work: ``kind`` "files" (whole files, ``names``), "mbox", "text" or "jsonl" (the bytes
    ``[start, end)`` of ``path``), "zip" (its members ``start`` to ``end``, as listed) or "tar" (the
    members whose headers lie in the bytes ``[start, end)``) or "inbox" (the commits ``start`` to
    ``end`` of a public-inbox repository, counted from the first to read)."""

    kind: UnitKind
    path: str
    start: int = 0
    end: int = 0
    last: bool = True
    """Whether this is the last piece of ``path`` (always, for "files")."""
    names: tuple[str, ...] = ()


T = TypeVar("T")


def plan(
    paths: Iterable[str | T], read: ReadOptions, split: int = SPLIT_BYTES, batch: int = BATCH_BYTES
) -> Iterator[Unit | T]:
    """The units of ``paths``, in order; anything that is not a path (a report on a folder that
    could not be walked) is passed on in its place. Standard input ("-") is a unit of its own, and
    batches are never larger than ``split``."""
    batch = min(batch, split)
    pending: list[str] = []
    held = 0
    for path in paths:
        size = _size(path) if isinstance(path, str) else None
        if isinstance(path, str) and path != "-" and size is not None and size <= batch:
            if len(pending) >= BATCH_FILES or (pending and held + size > batch):
                yield Unit("files", pending[0], names=tuple(pending))
                pending, held = [], 0
            pending.append(path)
            held += size
            continue
        if pending:
            yield Unit("files", pending[0], names=tuple(pending))
            pending, held = [], 0
        if not isinstance(path, str):
            yield path
        elif size is not None and size > split:
            yield from pieces(path, read, split)
        else:
            yield Unit("files", path, names=(path,))
    if pending:
        yield Unit("files", pending[0], names=tuple(pending))


def first_units(planned: Iterator[T], wanted: int) -> Iterator[T]:
    """The next items of ``planned`` up to the ``wanted``-th unit a worker reads (standard input,
    read where it is asked for, and the items that are no unit do not count): as many workers as
    there is work for, and no more."""
    found = 0
    while found < wanted:
        item = next(planned, None)
        if item is None:
            return
        found += isinstance(item, Unit) and "-" not in item.names
        yield item


def _size(path: str) -> int | None:
    """A regular file's size (a public-inbox repository's: its objects'); None for standard input
    and what cannot be stat'ed (reading it reports why)."""
    if path == "-":
        return None
    try:
        status = os.stat(path)
    except OSError:
        return None
    if stat.S_ISDIR(status.st_mode) and is_repository(path):
        from .sources import publicinbox

        return publicinbox.size(path)
    return status.st_size if stat.S_ISREG(status.st_mode) else None


def pieces(path: str, read: ReadOptions, split: int) -> list[Unit]:
    """The units of one big file: ranges, member groups, or the whole file when it cannot be cut."""
    found = cut_points(path, read, split, _TEXT_CUT)
    if found is None or len(found[1]) < 2:
        return [Unit("files", path, names=(path,))]
    found_kind, starts, end = found
    kind = _PIECE_KINDS.get(found_kind)
    if kind is None:  # a kind of file this module cannot cut: read it whole
        return [Unit("files", path, names=(path,))]
    if kind == "zip":
        starts = _groups(starts, split)
        end = len(found[1])
    elif kind == "tar":
        starts = _group_offsets(starts, split)
    if len(starts) < 2:
        return [Unit("files", path, names=(path,))]
    ends = [*starts[1:], end]
    return [
        Unit(kind, path, start, stop, k == len(starts) - 1)
        for k, (start, stop) in enumerate(zip(starts, ends, strict=True))
    ]


def _groups(sizes: list[int], split: int) -> list[int]:
    """Where each group of consecutive zip members of about ``split`` bytes starts (by index;
    ``sizes``: their compressed sizes)."""
    starts, held = [0], 0
    for k, size in enumerate(sizes):
        if held and held + size > split:
            starts.append(k)
            held = 0
        held += size
    return starts


def _group_offsets(offsets: list[int], split: int) -> list[int]:
    """Where each group of consecutive tar members of about ``split`` bytes starts (by offset;
    ``offsets``: where their headers start)."""
    starts = [0]
    for offset in offsets[1:]:
        if offset - starts[-1] >= split:
            starts.append(offset)
    return starts
