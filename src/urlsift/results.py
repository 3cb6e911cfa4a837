"""A path -> its results: rows (one per URL or rejected candidate, in FIELDS order), reports (what
went wrong, with where), and a Tally that adds up.

The last stage: it takes what the sources give (messages, text streams, defects), runs the
extraction on it, and says where every result came from. Rows and reports are plain tuples, so a
worker process can hand them to the one that prints (``cli -j``) in the order ``-j 1`` prints them.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any, NamedTuple

from ._model import ERROR_KINDS, Defect, Match, MessageText, Provenance, TextStream
from .extract import extract_each
from .grammar import STRICT
from .scan import KNOWN_SCHEMES
from .sources import Counter, Item, ReadOptions, read_mbox_range, read_path, reason
from .sources.packed import CORRUPT
from .stream import extract_stream
from .validate import validate

Row = tuple[Any, ...]
"""url, alternatives, valid, scheme, wrapper, naked, line, column, source, member, message,
offset, message_id, date, newsgroups, part, error: ``output.FIELDS``, in that order."""


class Report(NamedTuple):
    """A defect, as it is printed: where, what, and whether it makes the exit status 2."""

    place: str
    """``path``, ``path[member]``, with ``#message`` when it is one message's."""
    kind: str
    detail: str
    error: bool
    message: int | None = None
    """The message's index in its file, when it is one message's (as in ``place``)."""


Event = Row | Report
_MESSAGE_COLUMN = 10
"""Where a row has the message's index (``output.FIELDS``)."""

_FILE_LOST = frozenset({"unreadable", "corrupt", "binary"})
"""Defects of a whole file that leave it (or its end) unscanned: the file counts as failed."""


_judge = lru_cache(maxsize=4096)(validate)
"""The second opinion on a rejected candidate (the same footer URL recurs in every message)."""


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
    urls: int = 0
    rejected: int = 0
    rejected_valid_elsewhere: int = 0
    """Of the rejected, those ``Options.second_opinion`` accepts (strict rejects, modern takes)."""
    errors: int = 0
    warnings: int = 0

    def add(self, other: Tally) -> None:
        for count in fields(self):
            setattr(self, count.name, getattr(self, count.name) + getattr(other, count.name))


@dataclass(frozen=True)
class Options:
    profile: str = STRICT.name
    naked: bool = True
    invalid: bool = False
    """Yield the rejected candidates as rows too (they are counted either way)."""
    schemes: frozenset[str] = KNOWN_SCHEMES
    read: ReadOptions = field(default_factory=ReadOptions)
    second_opinion: str | None = None
    """A profile that judges every rejected candidate again, to count those it would take."""


def place(where: Provenance) -> str:
    """How a report names where it happened."""
    name = where.source if where.member is None else f"{where.source}[{where.member}]"
    return name if where.message is None else f"{name}#{where.message}"


def results(path: str, options: Options, tally: Tally, counter: Counter | None = None) -> Iterator[Event]:
    """The events of one file, in order; ``tally`` is kept up to date as they come."""
    counter = Counter() if counter is None else counter
    return _events(path, read_path(path, options.read, counter), options, tally, counter)


def _events(
    path: str, items: Generator[Item, None, None], options: Options, tally: Tally, counter: Counter
) -> Iterator[Event]:
    before = counter.bytes
    tally.files += 1
    failed = False
    try:
        for item in items:
            if isinstance(item, MessageText):
                yield from _message(item, options, tally)
            elif isinstance(item, TextStream):
                try:
                    tally.parts += 1
                    matches = extract_stream(item.file, **_extraction(options))
                    yield from _rows(matches, item.provenance, options, tally)
                except CORRUPT as error:
                    failed = failed or item.provenance.member is None  # a member: the rest goes on
                    yield _report(Defect("corrupt", item.provenance, reason(error)), tally)
            else:
                whole_file = item.provenance.member is None and item.provenance.message is None
                failed = failed or (whole_file and item.kind in _FILE_LOST)
                yield _report(item, tally)
    except Exception as error:  # a bug must not lose the other files' results: say it, go on
        failed = True
        detail = f"internal error, please report it: {type(error).__name__}: {error}"
        yield _report(Defect("internal", Provenance(path), detail), tally)
    finally:
        items.close()
        tally.files_failed += failed
        tally.bytes += counter.bytes - before


def _extraction(options: Options) -> dict[str, Any]:
    return {"profile": options.profile, "naked": options.naked, "invalid": True, "schemes": options.schemes}


def _message(message: MessageText, options: Options, tally: Tally) -> Iterator[Event]:
    tally.messages += 1
    if not message.texts and any(defect.kind == "too-large" for defect in message.defects):
        tally.messages_failed += 1
    tally.headers += message.headers
    tally.parts += len(message.texts) - message.headers
    for defect in message.defects:
        yield _report(defect, tally)
    parts = message.parts
    fields = tuple(message.provenance)[:-1]
    for k, match in _matches(message, options):
        row = _row(match, fields, parts[k], options, tally)
        if row is not None:
            yield row


_HEADER_MATCHES: dict[Options, dict[str, tuple[Match, ...]]] = {}
"""The matches of recent header values: every message of a list archive repeats the same
List-Unsubscribe, List-Archive and List-Post, and their matches are most of an archive's."""
_HEADER_CACHE_SIZE = 1024
_HEADER_CACHE_CHARS = 2048  # longer values (Received, DKIM-Signature) seldom recur


def _matches(message: MessageText, options: Options) -> list[tuple[int, Match]]:
    """``extract_each`` over the message's texts, with recurring header values not scanned again."""
    texts, headers = message.texts, message.headers
    cache = _HEADER_MATCHES.get(options)
    if cache is None:
        cache = _HEADER_MATCHES[options] = {}
    known = {
        k: hit
        for k, text in enumerate(texts[:headers])
        if len(text) <= _HEADER_CACHE_CHARS and (hit := cache.get(text)) is not None
    }
    if not known:  # the common case where headers do not recur: one pass, in order
        every = list(extract_each(texts, **_extraction(options)))
        found: dict[int, list[Match]] = {}
        for k, match in every:
            if k >= headers:
                break
            found.setdefault(k, []).append(match)
        _remember(cache, texts, range(headers), found)
        return every
    todo = [k for k in range(len(texts)) if k not in known]
    fresh: dict[int, list[Match]] = {}
    for j, match in extract_each([texts[k] for k in todo], **_extraction(options)):
        fresh.setdefault(todo[j], []).append(match)
    _remember(cache, texts, [k for k in todo if k < headers], fresh)
    merged: dict[int, Sequence[Match]] = {**fresh, **known}
    return [(k, match) for k in sorted(merged) for match in merged[k]]


def _remember(
    cache: dict[str, tuple[Match, ...]],
    texts: list[str],
    scanned: Iterable[int],
    found: dict[int, list[Match]],
) -> None:
    """Keep the matches (none, often) of the header values just scanned, the oldest forgotten."""
    for k in scanned:
        if len(texts[k]) <= _HEADER_CACHE_CHARS:
            cache[texts[k]] = tuple(found.get(k, ()))
            if len(cache) > _HEADER_CACHE_SIZE:
                del cache[next(iter(cache))]


def _rows(matches: Iterable[Match], where: Provenance, options: Options, tally: Tally) -> Iterator[Row]:
    fields = tuple(where)[:-1]
    for match in matches:
        row = _row(match, fields, where.part, options, tally)
        if row is not None:
            yield row


def _row(
    match: Match, fields: tuple[Any, ...], part: str | None, options: Options, tally: Tally
) -> Row | None:
    verdict = match.verdict
    if verdict.valid:
        tally.urls += 1
        error = None
    else:
        tally.rejected += 1
        # A wrapper never closed (D21) is rejected whatever its text: no other profile takes it.
        unclosed = verdict.error is not None and verdict.error.production == "wrapper"
        if (
            options.second_opinion is not None
            and not unclosed
            and _judge(match.url, options.second_opinion).valid
        ):
            tally.rejected_valid_elsewhere += 1
        if not options.invalid:
            return None
        error = str(verdict.error)
    return (
        match.url,
        match.alternatives,
        verdict.valid,
        verdict.scheme,
        match.wrapper,
        match.wrapper is None,
        match.line,
        match.column,
        *fields,
        part,
        error,
    )


def _report(defect: Defect, tally: Tally) -> Report:
    error = defect.kind in ERROR_KINDS or defect.kind == "internal"
    if error:
        tally.errors += 1
    else:
        tally.warnings += 1
    return Report(place(defect.provenance), defect.kind, defect.detail, error, defect.provenance.message)


def scan_file(path: str, options: Options) -> tuple[list[Event], Tally]:
    """All the events of one file and its tally (what a worker process sends back)."""
    tally = Tally()
    return list(results(path, options, tally)), tally


def scan_range(path: str, start: int, end: int, options: Options) -> tuple[list[Event], Tally]:
    """All the events of one range of an mbox (``sources.mbox_ranges``) and its tally; messages are
    numbered from 0 in the range (``join_ranges`` numbers them on)."""
    tally, counter = Tally(), Counter()
    items = read_mbox_range(path, start, end, options.read, counter)
    return list(_events(path, items, options, tally, counter)), tally


def join_ranges(ranges: Iterable[tuple[list[Event], Tally]], tally: Tally) -> Iterator[Event]:
    """The events of a file read in ranges, in order, as one read of the whole file gives them:
    each range's message numbers go on from the messages of the ranges before it. ``tally`` gets
    the ranges' counts as they come, the file counted once (failed if any range failed)."""
    files, failed = tally.files, tally.files_failed
    base = 0
    for range_events, range_tally in ranges:
        yield from (_renumbered(event, base) for event in range_events)
        base += range_tally.messages
        tally.add(range_tally)
    tally.files = files + 1
    tally.files_failed = failed + (tally.files_failed > failed)


def _renumbered(event: Event, base: int) -> Event:
    if not base:
        return event
    if isinstance(event, Report):
        if event.message is None:
            return event
        number = event.message + base
        return event._replace(place=f"{event.place[: event.place.rindex('#')]}#{number}", message=number)
    if event[_MESSAGE_COLUMN] is None:
        return event
    return (*event[:_MESSAGE_COLUMN], event[_MESSAGE_COLUMN] + base, *event[_MESSAGE_COLUMN + 1 :])
