"""The results stage's records: ``Row`` (one per URL or rejected candidate: the jsonl columns),
``Report`` (a defect as printed), ``Tally`` (counts that add up), ``Options`` (what a scan looks
for), and the events a file's results are made of. Plain named tuples and dataclasses, so a worker
process can hand them to the one that prints (``cli -j``) and the library can hand them out."""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from operator import itemgetter
from typing import Any, Literal, NamedTuple

from ._model import DefectKind, ProfileName, Provenance, Wrapper, _resolved
from .grammar import STRICT
from .scanner import KNOWN_SCHEMES
from .sources import ReadOptions


class _Columns(NamedTuple):
    url: str
    alternatives: tuple[str, ...]
    valid: bool
    scheme: str | None
    wrapper: Wrapper | None
    naked: bool
    line: int
    column: int
    source: str
    member: str | None
    message: int | None
    offset: int | None
    message_id: str | None
    date: str | None
    newsgroups: str | None
    part: str | None
    error: str | None
    canonical: str | None
    count: int | None  # type: ignore[assignment]  # the column's name; tuple.count is hidden
    start: int
    end: int
    quote_depth: int
    context: str | None
    wayback: str | None
    host: str | None
    host_unicode: str | None
    registered_domain: str | None
    surt: str | None
    date_header: str | None


_resolved(_Columns)  # help(Row) shows the types, not ForwardRef('str')


class Row(_Columns):
    """One URL found (or, with ``invalid``, one rejected candidate) and where it came from: the
    columns of the jsonl and csv output, in their order (README's table says what each holds).
    ``canonical`` and ``count`` are filled by the printer (``--canonical``, ``--unique``); ``start``
    and ``end`` are character offsets in the part's text (a plain text's: the whole file's), from
    the URL's first piece to its last (a URL rejoined across lines spans the line breaks).
    ``date`` is the message's Date in UTC, ISO 8601 (``2002-03-04T05:06:07Z``), ``date_header``
    its text as written; ``host`` ... ``surt`` are a valid URL's (``hosts``, D38)."""

    __slots__ = ()

    def _asdict(self) -> dict[str, Any]:
        """The row as plain JSON values (``alternatives`` a list), as its jsonl line holds it."""
        found: dict[str, Any] = dict(zip(self._fields, self, strict=True))
        found["alternatives"] = list(self.alternatives)
        return found


FIELDS: tuple[str, ...] = Row._fields
"""The column names, in order."""


class Report(NamedTuple):
    """A defect, as it is printed: where, what, and whether it makes the exit status 2."""

    place: str
    """``path``, ``path[member]``, with ``#message`` when it is one message's."""
    kind: DefectKind
    detail: str
    lost_input: bool
    """Whether input went unscanned (its kind is one of ``ERROR_KINDS``): the command line then
    exits 2. (``Row.error`` is another thing: why a candidate is not a URL.)"""
    message: int | None = None
    """The message's index in its file, when it is one message's (as in ``place``)."""
    line: int | None = None
    """The line of a plain text it is about (``Defect.line``)."""


_resolved(Report)


Event = Row | Report
FileEvents = tuple[str, list[Event], "Tally"]
"""A path, the events of all or one piece of it, and their tally."""


class Block(NamedTuple):
    """Rows of a few texts as columns, filled by the native core (``_native_rows.in_core``), which a
    ``batches.Batch`` takes as they are: no ``Row`` is made for each. Its messages and texts are
    tables as the batch's are (``batches.Messages``, ``Texts``), so that the batch takes them a
    message at a time, not a text or a row at a time."""

    messages: list[tuple[Any, ...]]
    """The messages' columns, ``source`` ... ``newsgroups``, as in each of their rows."""
    message: array[int]
    """Each text's message: an index into ``messages``."""
    part: list[str | None]
    """Each text's part."""
    text: array[int]
    """Each row's text: an index into ``message`` and ``part``."""
    columns: dict[str, Any]
    """The rows' other columns by name (``FIELDS`` less ``naked`` and ``where``'s), each a list,
    or an ``array('q')`` for the numbers."""
    rows: int
    fresh: bool = False
    """Its messages are in no other block, nor in any row (an mbox's, read by the core): a batch
    takes its messages and texts as they are, not looked up among those it holds."""


def taken(values: Any, index: Sequence[Any]) -> list[Any]:
    """``values[i]`` for each ``i`` of ``index``, in C (``itemgetter``: no Python step an item, nor
    a call of ``values.__getitem__``, which costs as much as a step)."""
    return taker(index)(values)


def moved(index: array[int], by: int, size: int) -> array[int]:
    """``index`` (into a table of ``size``) moved on ``by``: each ``k`` as ``k + by``, in C (a
    ``range``'s items taken); ``index`` itself when ``by`` is 0."""
    return array("q", taken(range(by, by + size), index)) if by else index


def taker(index: Sequence[Any]) -> Callable[[Any], list[Any]]:
    """``taken`` of ``index`` for the columns to come (the index read once for them all)."""
    if len(index) > 1:
        get = itemgetter(*index)
        return lambda values: list(get(values))
    return lambda values: [values[i] for i in index]


Piece = tuple[str, list[Event | Block], "Tally", bool]
"""A unit's results a few at a time (``results.unit_pieces``): a path, the next of its events, the
counts of what was read for them (since the path's piece before), and whether they are its last.
A worker sends each as a ``batches.Part`` (columns, not rows)."""


@dataclass
class Tally:
    """Counts that add up: files seen = scanned + failed, messages seen = scanned + failed."""

    files: int = 0
    files_failed: int = 0
    messages: int = 0
    messages_failed: int = 0
    parts: int = 0
    """MIME text parts scanned (a plain text file counts as one)."""
    headers: int = 0
    """Mail headers scanned (those with a colon in them)."""
    bytes: int = 0
    """Read from the files on disk (compressed, for compressed files)."""
    unpacked: int = 0
    """Come out of their compressed streams and zip members (``sources.Counter.unpacked``)."""
    lines: int = 0
    """Lines of plain text scanned (line breaks read: a last line with none is not counted); the
    lines of a JSON-lines file read in pieces."""
    characters: int = 0
    """Characters of plain text scanned (decoded)."""
    urls: int = 0
    rejected: int = 0
    rejected_valid_elsewhere: int = 0
    """Of the rejected, those ``Options.second_opinion`` accepts (strict rejects, modern takes)."""
    errors: int = 0
    warnings: int = 0
    skipped: int = 0
    """Records that hold nothing to scan (a WARC's requests, metadata, images ...): not messages."""
    unwalked: int = 0
    """Folders not entered and folder entries not read (a link loop, a link to nowhere, a FIFO):
    each is reported, and counted in ``errors`` too (``walk``)."""

    def add(self, other: Tally) -> None:
        for count in fields(self):
            setattr(self, count.name, getattr(self, count.name) + getattr(other, count.name))

    def since(self, earlier: Tally) -> Tally:
        """The counts added to ``earlier`` to make these (a piece's, of a file's so far)."""
        return Tally(*(getattr(self, count.name) - getattr(earlier, count.name) for count in fields(self)))


Parts = Literal["all", "headers", "body"]
PARTS: tuple[Parts, ...] = ("all", "headers", "body")


class Filters(NamedTuple):
    """What a run keeps (D38): the filters people ask for without leaving the command line. A
    message out of the date range, and the texts ``parts`` leaves out, are not scanned; the rows
    of other hosts, and those quoted deeper, are dropped as they are found. What a filter leaves
    out is not counted (``--stats``, ``--count``)."""

    parts: Parts = "all"
    """``headers``: only the header values; ``body``: only the text parts (a plain text is one)."""
    hosts: tuple[str, ...] = ()
    """Keep only the URLs whose ``host`` is one of these or below one (``example.org`` keeps
    ``a.example.org``), in ``host``'s form (lower-case, IDNA's ASCII); () keeps all."""
    since: datetime | None = None
    """Keep only the messages dated at or after this (UTC); a text with no date is left out."""
    until: datetime | None = None
    """Keep only the messages dated before this (UTC)."""
    max_quote_depth: int | None = None
    """Keep only the URLs quoted this deep or less (0: not in quoted text)."""

    @property
    def dated(self) -> bool:
        return self.since is not None or self.until is not None

    def keeps_date(self, when: datetime | None) -> bool:
        """Whether a message of this date is in the range (with no range, every one is)."""
        if not self.dated:
            return True
        if when is None:
            return False
        return (self.since is None or when >= self.since) and (self.until is None or when < self.until)

    def keeps_host(self, host: str | None) -> bool:
        if not self.hosts:
            return True
        if host is None:
            return False
        return any(host == wanted or host.endswith("." + wanted) for wanted in self.hosts)


def walked() -> Tally:
    """The count of a ``walk`` report: a folder not entered, or an entry of a folder not read."""
    return Tally(errors=1, unwalked=1)


@dataclass(frozen=True)
class Options:
    profile: ProfileName = STRICT.name
    naked: bool = True
    invalid: bool = False
    """Yield the rejected candidates as rows too (they are counted either way)."""
    schemes: frozenset[str] = KNOWN_SCHEMES
    read: ReadOptions = field(default_factory=ReadOptions)
    second_opinion: ProfileName | None = None
    """A profile that judges every rejected candidate again, to count those it would take."""
    context: int | None = None
    """Fill in ``Row.context``: this many characters each side of the URL (``--context N``)."""
    wayback: bool = False
    """Fill in ``Row.wayback`` for valid http, https and ftp URLs of messages with a Date
    (``--wayback``)."""
    filters: Filters = field(default_factory=Filters)
    """Which texts to scan and which rows to keep (``--parts``, ``--host`` ...)."""


def place(where: Provenance) -> str:
    """How a report names where it happened."""
    name = where.source if where.member is None else f"{where.source}[{where.member}]"
    return name if where.message is None else f"{name}#{where.message}"
