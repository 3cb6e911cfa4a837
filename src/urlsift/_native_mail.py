"""An mbox's messages -> blocks of rows, made by the core a batch at a time (issue 32): no
``MessageText``, no ``Match`` and no Python string per message, but for the messages the core
leaves to Python (``mail_rows`` says why: another charset, HTML, RFC 2047 words, flowed text ...),
which ``results`` reads as before. The core reads each message (rust/core/src/mime.rs), scans
each of its texts alone (``extract_each``'s matches) and fills the row columns it can; what needs
Python's judge (``scheme``, ``error``, the host columns, the second opinion) is worked out once
per distinct verdict, as for a plain text (``_native_rows``): by the binding for a valid URL whose
host columns the core works out (most of them), by Python for the others. A chunk's messages come and go as
columns (``sources.mbox.MailChunk`` in, ``MailBatch`` out): no Python object a message but its
Message-ID, Date and Newsgroups. The rows are those
``results._message`` makes of the same messages (tests/results/test_native_mail.py)."""

from __future__ import annotations

from array import array
from itertools import repeat
from typing import Any

from . import _select
from ._model import DefectKind, Match
from ._native_rows import Resolved, _finished, _resolved_of, verdict_columns
from .dates import iso
from .extract import Extraction, _extraction_for, _judge_deferred, _native_matches, said_scheme
from .hosts import _native_hosts, native_host_columns
from .rows import Block, Options, Tally, moved, taken, taker
from .sources.mbox import MailChunk

__all__ = ["MailBatch", "MailRows"]

_NUMBERS = ("line", "column", "start", "end", "quote_depth")
"""The core's number columns, in the order it lays them out (then each row's verdict and text)."""


class MailRows:
    """The core's reader of a file's messages, for one ``Options``: the extractions (by whether
    the messages are pipermail's, D32) and the verdicts' columns worked out so far. A message of
    more than ``heaviest`` bytes is left to Python (``matches.BATCH_WEIGHT``: its matches are
    found as they are taken, never held whole)."""

    def __init__(self, options: Options, heaviest: int) -> None:
        native = _select.native()
        if native is None:
            raise RuntimeError("the native core is not in use")  # (``in_core`` says when it is)
        from .sources.mime import TRACE_HEADERS  # (a mail run's: a text run loads no mail reader)

        self.options, self.heaviest = options, heaviest
        self._native = native
        self._hosts = _native_hosts(native)
        self._skipped = sorted(TRACE_HEADERS)
        self._extractions: dict[bool, Extraction] = {}
        self._resolved: dict[tuple[Any, ...], Resolved] = {}

    def read(self, chunk: MailChunk) -> MailBatch:
        """The outcomes and rows of ``chunk``'s messages (one heavier than ``heaviest`` left to
        Python: "heavy")."""
        options = self.options
        pipermail = chunk.pipermail
        extraction = self._extractions.get(pipermail)
        if extraction is None:
            extraction = _extraction_for(options.profile, options.naked, True, options.schemes, pipermail)
            self._extractions[pipermail] = extraction
        extractor = extraction._extractor(self._native)
        found = self._native.mail_rows(
            extractor, self._skipped, chunk.data, chunk.ends, self.heaviest, self._hosts
        )
        python, ids, dates, groups, isos, written, undated, counts, *rest = found
        defects, text_message, text_part, *rows = rest
        urls, alternatives, wrappers, numbers, resolved, pending, undecided = rows
        count = len(urls)
        laid = _laid(numbers)
        columns: dict[str, Any] = {name: laid[k * count : (k + 1) * count] for k, name in enumerate(_NUMBERS)}
        index, text = laid[5 * count : 6 * count], laid[6 * count :]
        for k, verdict in pending:  # (the binding's own are made: a Python step only for these)
            resolved[k] = self._resolve(extraction, *verdict)
        for i, item in undecided:  # judged and ranked by Python's engine, as ``_native_matches`` does
            match: Match = next(_native_matches(extraction.judge, iter([item]), True))
            pieces = match.pieces
            urls[i], alternatives[i] = match.url, match.alternatives
            start, end = (pieces[0][0], pieces[-1][1]) if pieces else (match.span[0], match.span[0])
            columns["start"][i], columns["end"][i] = start, end
            index[i] = len(resolved)
            resolved.append(_resolved_of(match.url, match.verdict, options.second_opinion))
        columns.update(url=urls, alternatives=alternatives, wrapper=wrappers)
        messages = _Messages(chunk, ids, dates, groups, _laid(counts), (isos, written, set(undated)))
        return MailBatch(
            messages, python, defects, (_laid(text_message), text_part), columns, resolved, index, text
        )

    def _resolve(
        self, extraction: Extraction, url: str, valid: bool, kind: int, naked: bool, why: int | None
    ) -> Resolved:
        key = (url, valid, kind, naked, why, extraction.scanner.pipermail)
        found = self._resolved.get(key)
        if found is None:
            if len(self._resolved) >= 1 << 12:
                self._resolved.clear()
            # A valid URL whose host columns the core works out needs no verdict made at all (as
            # ``TextRows._resolve``): its scheme is the URL's, whatever the judge (D32 adds a caveat).
            scheme = said_scheme(url, kind) if valid else None
            hosts = native_host_columns(url, scheme, self._native) if valid else None
            if hosts is not None:
                found = (True, scheme, None, hosts, False)
            else:
                verdict = _judge_deferred(extraction.judge, url, valid, kind, naked, why)
                found = _resolved_of(url, verdict, self.options.second_opinion)
            self._resolved[key] = found
        return found


def _laid(numbers: bytes) -> array[int]:
    laid = array("q")
    laid.frombytes(numbers)
    return laid


class _Messages:
    """A chunk's messages as the core read them, column by column: where each is (its number and
    offset, Message-ID, Date, Newsgroups), its Date as the ``date`` and ``date_header`` columns
    say it, how many header values and texts it has, and where its rows end among the batch's."""

    def __init__(
        self,
        chunk: MailChunk,
        ids: list[str | None],
        dates: list[str | None],
        groups: list[str | None],
        counts: array[int],
        said: tuple[list[str | None], list[str | None], set[int]],
    ) -> None:
        count = len(ids)
        self.chunk, self.ids, self.dates, self.groups = chunk, ids, dates, groups
        # ``undated``: the messages whose ``date`` column the core leaves to Python (its None).
        self.iso, self.written, self.undated = said
        self.headers, self.texts = counts[:count], counts[count : 2 * count]
        self.rows_end = counts[2 * count :]


class MailBatch:
    """A chunk's messages as the core read them, as columns (``_Messages``), and the rows'
    columns, to be cut into blocks between the messages that have reports (``block``):
    ``python``, (message, why) of each message Python must read; ``defects``, (message, kind,
    part, detail) of the others', in order."""

    def __init__(
        self,
        messages: _Messages,
        python: list[tuple[int, str]],
        defects: list[tuple[int, DefectKind, str, str]],
        texts: tuple[array[int], list[str]],
        columns: dict[str, Any],
        resolved: list[Resolved],
        index: array[int],
        text: array[int],
    ) -> None:
        self.messages, self.python, self.defects = messages, python, defects
        self._texts, self._columns, self._text = texts, columns, text
        self._verdicts, self._index = verdict_columns(resolved), index  # each distinct verdict's; each row's

    @property
    def outcomes(self) -> list[str | None]:
        """What became of each message: why Python must read it, or None (read here)."""
        said: list[str | None] = [None] * len(self.messages.ids)
        for k, why in self.python:
            said[k] = why
        return said

    def block(self, first: int, end: int, options: Options, tally: Tally) -> Block | None:
        """The rows ``first`` to ``end`` as a block (None: none), counted in ``tally``: their
        texts and messages as columns (``results._where``'s, then the part), made a column at a
        time."""
        if first >= end:
            return None
        texts = self._text
        low, high = texts[first], texts[end - 1] + 1
        of = self._texts[0][low:high]  # each text's message
        held = list(dict.fromkeys(of))  # the messages of these texts, in order
        messages, chunk = self.messages, self.messages.chunk
        where = chunk.where
        take = taker(held)
        # Each message's columns (``Messages``' order), then each text and row numbered, in C. A
        # block with a Date the core does not read (a pipermail archive's ctime dates: all of
        # them) has its dates read by ``dates.iso`` (``email.utils``), only for messages with rows.
        dated = messages.undated.isdisjoint(held)
        isos = take(messages.iso) if dated else list(map(iso, take(messages.dates)))
        columns = (take(chunk.numbers), take(chunk.offsets), take(messages.ids), isos, take(messages.groups))
        placed: list[tuple[Any, ...]] = list(
            zip(repeat(where.source), repeat(where.member), *columns, strict=False)
        )
        message = array("q", taken({number: k for k, number in enumerate(held)}, of))
        text = moved(texts[first:end], -low, high)  # (numbered in the block's texts)
        rows = {name: values[first:end] for name, values in self._columns.items()}
        date_header = taken(taken(take(messages.written), message), text)  # (Date as written)
        parts: list[str | None] = list(self._texts[1][low:high])
        index = self._index[first:end]
        placed_texts = (placed, message, parts)
        block = _finished(rows, self._verdicts, index, options, tally, placed_texts, text, date_header)
        return block._replace(fresh=True)  # (a message is in one block: the blocks are cut between them)
