"""Rows as columns, with no ``Row`` made for each (issue 31): ``results`` hands a plain text, or
a batch's messages' matches, here when ``in_core`` says its options need no Python step per row.
For a plain text the core scans, judges and fills each row's url, alternatives, wrapper, line,
column, start, end and quote_depth (``TextRows``); a message's matches (``Matcher``'s) are taken
apart column by column (``message_block``). What needs Python's judge (``scheme``, ``error``, the
host columns, the second opinion) is worked out once per distinct verdict of a block and mapped
back to its rows by index, in C (``map``, ``zip``). The rows are those ``results._row`` makes of
the same texts, column for column (tests/results/test_native_rows.py)."""

from __future__ import annotations

import io
from array import array
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import compress, groupby, repeat
from operator import itemgetter, not_
from typing import IO, Any

from . import _select
from ._model import Match, MessageText, Verdict
from .around import quote_depth
from .extract import (
    Extraction,
    _DeferredVerdict,
    _extraction_for,
    _judge_deferred,
    _native_matches,
    said_scheme,
)
from .hosts import NO_HOST, HostColumns, host_columns, native_host_columns
from .rows import Block, Options, Tally, taken, taker
from .scanner import LOOKAHEAD, LOOKBEHIND
from .stream import _MIN_WINDOW, CHUNK_CHARS
from .validate import validate

__all__ = ["BLOCK_BYTES", "CHUNK_CHARS", "Found", "TextRows", "in_core", "message_block"]

BLOCK_BYTES = 1 << 20
"""How much of a plain text is read at a time (the core holds no more of it than a window)."""

_NUMBERS = ("line", "column", "start", "end", "quote_depth")
"""The core's number columns, in the order it lays them out (then each row's verdict index)."""


def in_core(options: Options, messages: bool = False) -> bool:
    """Whether the rows of ``options`` are made as columns (a plain text's filled by the native
    core): the one place that decides. With ``messages``: whether an mbox's messages are read,
    scanned and made rows of by the core, a batch at a time (``_native_mail``).
    The options that need Python per row keep ``results._row``: ``--context`` and ``--wayback``
    (the text and the date around each row), ``--max-quote-depth`` and ``--host`` (a row dropped
    as it is found); and the Python core runs no native step at all. Messages go through Python
    too under ``--parts`` and the date filters (D38: ``results._narrowed`` leaves texts out)."""
    filters = options.filters
    return (
        _select.native() is not None
        and options.context is None
        and not options.wayback
        and filters.max_quote_depth is None
        and not filters.hosts
        and not (messages and (filters.parts != "all" or filters.dated))
    )


Resolved = tuple[bool, str | None, str | None, HostColumns, bool]
"""A verdict's columns: valid, scheme, error, the host columns, and whether the second opinion
takes the rejected URL."""


class TextRows:
    """The rows of one plain text, as ``Block``s, and the text's lines and characters once read.
    The file's bytes go to the core as they are read (``_core.TextReader``): it decodes them as
    UTF-8 (as ``stream._chunks``' decoder, ``errors="replace"``), keeps the windows and the line
    count, and fills the columns; no ``str`` is made of the text."""

    def __init__(
        self,
        file: IO[bytes] | io.RawIOBase,
        options: Options,
        where: tuple[Any, ...],
        date_header: str | None,
        max_line: int | None = None,
    ):
        self.options = options
        # The text's one message and part (where it lies: ``source`` ... ``part``).
        self._message, self._part = where[:-1], where[-1] if where else None
        self.date_header = date_header
        self.lines = 0
        self.characters = 0
        extraction: Extraction = _extraction_for(options.profile, options.naked, True, options.schemes)
        self._judge = extraction.judge
        native = _select.native()
        if native is None:
            raise RuntimeError("the native core is not in use")  # (``in_core`` says when it is)
        self._native = native
        window = max(CHUNK_CHARS, _MIN_WINDOW)
        # ``max_line``: the core notes the first line over that many bytes as it decodes
        # (``long_line``), for the reader that hands over a text's line watch (``results._text``).
        extractor = extraction._extractor(native)
        self._reader = native.TextReader(extractor, window, LOOKAHEAD, LOOKBEHIND, max_line)
        self._file = file
        self._resolved: dict[tuple[Any, ...], Resolved] = {}

    def blocks(self, tally: Tally, most: int) -> Iterator[Block]:
        """The text's blocks of up to ``most`` rows, in order, counted in ``tally`` as they come
        (``stream._matches``' windows: the same matches, whatever the cuts). A text of a million
        candidates is never held as a million rows at once."""
        reader, read, size = self._reader, self._file.read, BLOCK_BYTES
        while True:
            while reader.hungry:
                reader.feed(read(size) or b"")
            base = reader.base
            while (columns := reader.rows(most)) is not None:
                yield self._block(columns, base, tally)
            if not reader.advance():
                break
        self.lines = reader.line_breaks()
        self.characters = reader.characters

    @property
    def long_line(self) -> int | None:
        """The number of the first line over ``max_line`` bytes read so far (None: none, or not asked)."""
        found: int | None = self._reader.long_line
        return found

    def _block(self, found: tuple[Any, ...], base: int, tally: Tally) -> Block:
        urls, alternatives, wrappers, numbers, verdicts, undecided = found
        count = len(urls)
        laid = array("q")
        laid.frombytes(numbers)
        columns: dict[str, Any] = {name: laid[k * count : (k + 1) * count] for k, name in enumerate(_NUMBERS)}
        index = laid[5 * count :]
        resolved = [self._resolve(*verdict) for verdict in verdicts]
        for i, item in undecided:  # judged and ranked by Python's engine, as ``_native_matches`` does
            match: Match = next(_native_matches(self._judge, iter([item]), True))
            pieces = match.pieces
            urls[i], alternatives[i] = match.url, match.alternatives
            start, end = (pieces[0][0], pieces[-1][1]) if pieces else (match.span[0], match.span[0])
            columns["start"][i], columns["end"][i] = base + start, base + end
            index[i] = len(resolved)
            resolved.append(self._resolved_of(match.url, match.verdict))
        columns.update(url=urls, alternatives=alternatives, wrapper=wrappers)
        texts = ([self._message], array("q", [0]), [self._part])
        text, date_header = array("q", [0]) * count, [self.date_header] * count
        verdicts = verdict_columns(resolved)
        return _finished(columns, verdicts, index, self.options, tally, texts, text, date_header)

    def _resolve(self, url: str, valid: bool, kind: int, naked: bool, why: int | None) -> Resolved:
        key = (url, valid, kind, naked, why)
        found = self._resolved.get(key)
        if found is None:
            if len(self._resolved) >= 1 << 12:
                self._resolved.clear()
            # A valid URL whose columns the core works out needs no verdict made at all.
            scheme = said_scheme(url, kind) if valid else None
            hosts = native_host_columns(url, scheme, self._native) if valid else None
            if hosts is not None:
                found = (True, scheme, None, hosts, False)
            else:
                found = self._resolved_of(url, _judge_deferred(self._judge, url, valid, kind, naked, why))
            self._resolved[key] = found
        return found

    def _resolved_of(self, url: str, verdict: Verdict) -> Resolved:
        return _resolved_of(url, verdict, self.options.second_opinion)


def _resolved_of(url: str, verdict: Verdict, second: str | None) -> Resolved:
    """A verdict's columns, as ``results._row`` fills them (``second``: the second opinion's profile)."""
    if verdict.valid:
        # The core's columns of a deferred verdict need only its scheme: no ``validate`` for it.
        scheme = verdict.said_scheme() if isinstance(verdict, _DeferredVerdict) else verdict.scheme
        native = _select.native()  # (a block's rows are filled here only when it runs)
        hosts = None if native is None else native_host_columns(url, scheme, native)
        if hosts is None:
            hosts = host_columns(url, verdict.scheme, verdict.parts)
        return True, scheme, None, hosts, False
    # A wrapper never closed (D21) is rejected whatever its text: no other profile takes it.
    unclosed = verdict.error is not None and verdict.error.production == "wrapper"
    elsewhere = second is not None and not unclosed and _second(url, second).valid
    return False, verdict.scheme, str(verdict.error), NO_HOST, elsewhere


_second = lru_cache(maxsize=4096)(validate)
"""The second opinion on a rejected URL (``results._judge``'s, for the rows filled here)."""


Texts = tuple[list[tuple[Any, ...]], "array[int]", list[str | None]]
"""A block's messages' columns, each text's message (an index into them), and each text's part
(``rows.Block``'s)."""


_VERDICT_COLUMNS = ("valid", "scheme", "error", "host", "host_unicode", "registered_domain", "surt")


def verdict_columns(resolved: list[Resolved]) -> list[tuple[Any, ...]]:
    """The columns of distinct verdicts (``Resolved``s): valid, scheme, error, the four host
    columns, and whether the second opinion takes the rejected URL. Made once for all the blocks
    of a batch read (``_native_mail.MailBatch``), not once a block."""
    valid, scheme, error, hosts, elsewhere = _transposed(resolved, 5)
    return [valid, scheme, error, *_transposed(hosts, 4), elsewhere]


def _finished(
    columns: dict[str, Any],
    verdicts: list[tuple[Any, ...]],
    index: array[int],
    options: Options,
    tally: Tally,
    texts: Texts,
    text: array[int],
    date_header: list[str | None],
) -> Block:
    """A block of the rows of ``columns`` (url ... quote_depth, lists and arrays) and of their
    verdicts' columns (``verdicts``: ``verdict_columns``; ``index``: each row's), counted in
    ``tally``; the rejected left out unless ``options.invalid``. ``text``: each row's index into
    ``texts``; ``date_header``: each row's."""
    # A verdict's columns are taken for its rows by index, in C: no Python step a row.
    *of_verdict, elsewhere_of = verdicts
    take = _Taker(index)
    valid = take(of_verdict[0])
    count = len(valid)
    urls_found = valid.count(True)
    tally.urls += urls_found
    tally.rejected += count - urls_found
    if urls_found < count:
        tally.rejected_valid_elsewhere += sum(take(elsewhere_of))
        if not options.invalid:
            kept = _kept(valid)
            index, text, date_header = kept(index), kept(text), kept(date_header)
            columns = {name: kept(values) for name, values in columns.items()}
            take = _Taker(index)
            valid = [True] * urls_found
            count = urls_found
    columns.update(valid=valid, date_header=date_header)
    for name, of in zip(_VERDICT_COLUMNS[1:], of_verdict[1:], strict=True):
        # (the rows all valid: no error to take)
        columns[name] = [None] * count if name == "error" and urls_found == count else take(of)
    for name in ("canonical", "count", "context", "wayback"):  # the printer's, or not asked for
        columns[name] = [None] * count
    messages, message, part = texts
    return Block(messages, message, part, text, columns, count)


def _kept(valid: list[bool]) -> Callable[[Any], Any]:
    """What keeps a column's values of the valid rows (a list or an ``array``, as it was): the
    runs between the rejected joined, when they are few (a few slices: an ``array`` made from
    an iterator takes a Python step a value), else the values picked one by one."""
    if valid.count(False) > _RUNS_KEPT:
        return lambda values: (
            array("q", compress(values, valid)) if isinstance(values, array) else [*compress(values, valid)]
        )
    runs: list[slice] = []
    begun = 0
    for rejected in compress(range(len(valid)), map(not_, valid)):
        runs.append(slice(begun, rejected))
        begun = rejected + 1
    runs.append(slice(begun, len(valid)))

    def joined(values: Any) -> Any:
        kept = values[0:0]
        for run in runs:
            kept += values[run]
        return kept

    return joined


_RUNS_KEPT = 64
"""A block's valid rows are kept as runs between the rejected (``_kept``) up to this many rejected."""


class _Taker:
    """``taken`` of one index for a block's verdict columns. A column that says the same of every
    verdict it holds (no error for a block of URLs, no host for a block of rejected ones, the one
    verdict of a text of repeats) is that value repeated, with no lookup a row; the others are
    taken in C (``taker``, made when first needed)."""

    def __init__(self, index: array[int]):
        self._index = index
        self._take: Callable[[Any], list[Any]] | None = None

    def __call__(self, of: Sequence[Any]) -> list[Any]:
        count = len(self._index)
        # Only where a column has no more verdicts than the block has rows (a mail batch's hold
        # its every block's): the check costs no more than the lookups it saves.
        if of and len(of) <= count and of.count(of[0]) == len(of):
            return [of[0]] * count
        if self._take is None:
            self._take = taker(self._index)
        return self._take(of)


def _transposed(rows: Sequence[tuple[Any, ...]], width: int) -> list[tuple[Any, ...]]:
    """The columns of ``rows`` (``width`` empty ones when there are none)."""
    return list(zip(*rows, strict=True)) if rows else [()] * width


Found = tuple[MessageText, tuple[Any, ...], list[tuple[int, Match]]]
"""A message, its columns (``results._where``'s), and its matches (``Matcher``'s)."""


def message_block(found: list[Found], options: Options, tally: Tally) -> Block | None:
    """The rows of a few messages' matches as one block (None: they have none). The matches are
    taken apart column by column (``zip``, in C), and each distinct verdict is worked out once."""
    messages: list[tuple[Any, ...]] = []
    message = array("q")
    part: list[str | None] = []
    text = array("q")
    headers: list[str | None] = []
    texts: list[str] = []
    matches: list[Match] = []
    for found_in, placed, pairs in found:
        if not pairs:
            continue
        messages.append(placed[:-1])
        for k, group in groupby(pairs, key=itemgetter(0)):
            held = list(map(itemgetter(1), group))
            text.extend(array("q", [len(part)]) * len(held))
            message.append(len(messages) - 1)
            part.append(found_in.parts[k])
            headers.append(placed[-1])
            texts.extend(repeat(found_in.texts[k], len(held)))
            matches.extend(held)
    if not matches:
        return None
    url, alternatives, wrapper, span, pieces, line, column, verdict = zip(*matches, strict=True)
    if all(pieces):
        start = array("q", map(itemgetter(0), map(itemgetter(0), pieces)))
        end = array("q", map(itemgetter(1), map(itemgetter(-1), pieces)))
    else:  # (a match of no piece starts and ends where its span starts)
        start = array("q", (p[0][0] if p else s[0] for p, s in zip(pieces, span, strict=True)))
        end = array("q", (p[-1][1] if p else s[0] for p, s in zip(pieces, span, strict=True)))
    columns: dict[str, Any] = {
        "url": list(url),
        "alternatives": list(alternatives),
        "wrapper": list(wrapper),
        "line": array("q", line),
        "column": array("q", column),
        "start": start,
        "end": end,
        "quote_depth": array("q", map(quote_depth, texts, matches)),
    }
    keys = list(zip(map(id, verdict), url, strict=True))
    distinct = dict(zip(keys, verdict, strict=True))
    numbered = {key: k for k, key in enumerate(distinct)}
    second = options.second_opinion
    resolved = [_resolved_of(key[1], held, second) for key, held in distinct.items()]
    index = array("q", taken(numbered, keys))
    date_header = taken(headers, text)
    texts_of = (messages, message, part)
    return _finished(columns, verdict_columns(resolved), index, options, tally, texts_of, text, date_header)
