"""An mbox's messages -> blocks of rows, made by the core a batch at a time (issue 32): no
``MessageText``, no ``Match`` and no Python string per message, but for the messages the core
leaves to Python (``mail_rows`` says why: another charset, HTML, RFC 2047 words, flowed text ...),
which ``results`` reads as before. The core reads each message (rust/core/src/mime.rs), scans
each of its texts alone (``extract_each``'s matches) and fills the row columns it can; what needs
Python's judge (``scheme``, ``error``, the host columns, the second opinion) is worked out once
per distinct verdict, as for a plain text (``_native_rows``). The rows are those
``results._message`` makes of the same messages (tests/results/test_native_mail.py)."""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Any

from . import _select
from ._model import DefectKind, Match
from ._native_rows import Resolved, _finished, _resolved_of, verdict_columns
from .extract import Extraction, _extraction_for, _judge_deferred, _native_matches
from .rows import Block, Options, Tally, taken
from .sources.mbox import MailBytes

__all__ = ["MailBatch", "MailRows", "Outcome"]

_NUMBERS = ("line", "column", "start", "end", "quote_depth")
"""The core's number columns, in the order it lays them out (then each row's verdict and text)."""

Outcome = str | tuple[str | None, str | None, str | None, int, int, list[tuple[DefectKind, str, str]], int]
"""What became of a message: why Python must read it, or (Message-ID, Date, Newsgroups, how many
header values, how many texts, defects as (kind, part, detail), where its rows end)."""


class MailRows:
    """The core's reader of a file's messages, for one ``Options``: the extractions (by whether
    the messages are pipermail's, D32) and the verdicts' columns worked out so far."""

    def __init__(self, options: Options) -> None:
        native = _select.native()
        if native is None:
            raise RuntimeError("the native core is not in use")  # (``in_core`` says when it is)
        from .sources.mime import TRACE_HEADERS  # (a mail run's: a text run loads no mail reader)

        self.options = options
        self._native = native
        self._skipped = sorted(TRACE_HEADERS)
        self._extractions: dict[bool, Extraction] = {}
        self._resolved: dict[tuple[Any, ...], Resolved] = {}

    def read(self, messages: Sequence[MailBytes]) -> MailBatch:
        """The outcomes and rows of ``messages`` (all of one ``pipermail``)."""
        options = self.options
        pipermail = messages[0].pipermail
        extraction = self._extractions.get(pipermail)
        if extraction is None:
            extraction = _extraction_for(options.profile, options.naked, True, options.schemes, pipermail)
            self._extractions[pipermail] = extraction
        found = self._native.mail_rows(
            extraction._extractor(self._native), self._skipped, [message.data for message in messages]
        )
        outcomes, wheres, urls, alternatives, wrappers, numbers, verdicts, undecided = found
        count = len(urls)
        laid = array("q")
        laid.frombytes(numbers)
        columns: dict[str, Any] = {name: laid[k * count : (k + 1) * count] for k, name in enumerate(_NUMBERS)}
        index, text = laid[5 * count : 6 * count], laid[6 * count :]
        resolved = [self._resolve(extraction, *verdict) for verdict in verdicts]
        for i, item in undecided:  # judged and ranked by Python's engine, as ``_native_matches`` does
            match: Match = next(_native_matches(extraction.judge, iter([item]), True))
            pieces = match.pieces
            urls[i], alternatives[i] = match.url, match.alternatives
            start, end = (pieces[0][0], pieces[-1][1]) if pieces else (match.span[0], match.span[0])
            columns["start"][i], columns["end"][i] = start, end
            index[i] = len(resolved)
            resolved.append(_resolved_of(match.url, match.verdict, options.second_opinion))
        columns.update(url=urls, alternatives=alternatives, wrapper=wrappers)
        return MailBatch(outcomes, wheres, columns, resolved, index, text)

    def _resolve(
        self, extraction: Extraction, url: str, valid: bool, kind: int, naked: bool, why: int | None
    ) -> Resolved:
        key = (url, valid, kind, naked, why, extraction.scanner.pipermail)
        found = self._resolved.get(key)
        if found is None:
            if len(self._resolved) >= 1 << 12:
                self._resolved.clear()
            verdict = _judge_deferred(extraction.judge, url, valid, kind, naked, why)
            found = self._resolved[key] = _resolved_of(url, verdict, self.options.second_opinion)
        return found


class MailBatch:
    """A batch's messages as the core read them: each one's ``Outcome``, and the rows' columns,
    to be cut into blocks between the messages that have reports (``block``)."""

    def __init__(
        self,
        outcomes: list[Outcome],
        wheres: list[tuple[int, str]],
        columns: dict[str, Any],
        resolved: list[Resolved],
        index: array[int],
        text: array[int],
    ) -> None:
        self.outcomes = outcomes
        self._wheres, self._columns, self._text = wheres, columns, text
        self._verdicts, self._index = verdict_columns(resolved), index  # each distinct verdict's; each row's

    def block(
        self, first: int, end: int, placed: Mapping[int, tuple[Any, ...]], options: Options, tally: Tally
    ) -> Block | None:
        """The rows ``first`` to ``end`` as a block (None: none), counted in ``tally``; ``placed``:
        each of their messages' columns of where it is (``results._where``'s)."""
        if first >= end:
            return None
        texts = self._text
        low, high = texts[first], texts[end - 1] + 1
        numbers, parts = zip(*self._wheres[low:high], strict=True)  # each text's message and part
        # A message at a time, then each text and row numbered in C.
        local = {number: k for k, number in enumerate(dict.fromkeys(numbers))}
        found = [placed[number] for number in local]
        message = taken(local, numbers)
        text = array("q", [k - low for k in texts[first:end]])
        columns = {name: values[first:end] for name, values in self._columns.items()}
        date_header = taken(taken([where[-1] for where in found], message), text)
        messages = [where[:-1] for where in found]
        index = self._index[first:end]
        texts_of = (messages, array("q", message), list(parts))
        return _finished(columns, self._verdicts, index, options, tally, texts_of, text, date_header)
