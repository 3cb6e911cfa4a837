"""Rows (``rows.Row``) -> lines of text, JSON Lines or CSV, through one field list.

The columns are documented in README and stay stable: a column added later goes at the end.
Text and CSV escape control and invisible formatting characters (Unicode Cc and Cf: ESC, BEL,
U+202E RIGHT-TO-LEFT OVERRIDE, U+200B ZERO WIDTH SPACE ...; a rejected candidate, a header, even
a valid IRI may hold them), so nothing can act on a terminal or hide what a line says. CSV cells
that would start a formula in a spreadsheet (``=``, ``+``, ``-``, ``@``, tab, CR) get a single
quote in front, as OWASP's CSV injection guidance says. JSON Lines stay raw (JSON escapes C0
controls itself; it is read by programs, not spreadsheets or terminals).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from functools import lru_cache
from json.encoder import encode_basestring
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Protocol

from . import _select
from ._model import ProfileName, www_url
from .canonical import canonical as canonical_form
from .escaping import escaped as escaped
from .escaping import surrogates_escaped
from .grammar import STRICT
from .marks import PLAIN, Marks
from .rows import FIELDS, Row

if TYPE_CHECKING:
    from ._core import Rows
    from .batches import Batch

Format = Literal["text", "jsonl", "csv"]
FORMATS: tuple[Format, ...] = ("text", "jsonl", "csv")
# The writers' hot loop reads rows by position; the positions come from the field names.
_PART = FIELDS.index("part")
_MESSAGE = slice(FIELDS.index("source"), _PART)  # source ... newsgroups: the same for a message's rows
_MESSAGE_FIELDS = FIELDS[_MESSAGE]
_message_of: Callable[[Row], tuple[Any, ...]] = itemgetter(_MESSAGE)
_match_of: Callable[[Row], tuple[Any, ...]] = itemgetter(slice(FIELDS.index("source")))
"""url ... column: the same for a header value that every message repeats."""
_HOST = FIELDS.index("host")
_DATE_HEADER = FIELDS.index("date_header")
_rest_of: Callable[[Row], tuple[Any, ...]] = itemgetter(slice(_PART, _HOST))
"""part ... wayback: the same, too, for such a header value (context and wayback aside)."""
_hosts_of: Callable[[Row], tuple[Any, ...]] = itemgetter(slice(_HOST, _DATE_HEADER))
"""host ... surt: the same for every row of a URL."""
_HOST_FIELDS = FIELDS[_HOST:_DATE_HEADER]
_CONTEXT = FIELDS.index("context")
_MATCH_CACHE_SIZE = 4096
_UNSET = object()
_WRAPPERS = {None: "null", "URL:": '"URL:"', "<>": '"<>"', '"': '"\\""'}

_FORMULA_START = frozenset("=+-@\t\r")
"""What makes a spreadsheet read a CSV cell as a formula (OWASP, "CSV Injection")."""
Writer = Callable[[Row], None]


class TextOut(Protocol):
    """Where a writer writes: a text file, ``io.StringIO``, the command line's standard output."""

    def write(self, text: str, /) -> int: ...


def _json(value: Any) -> str:
    if value is None:
        return "null"
    if value.__class__ is str:
        return str(encode_basestring(value))
    if value.__class__ is int:  # a message's index and offset: json.dumps would make an encoder
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def writer(
    fmt: Format,
    out: TextOut,
    *,
    canonical: bool = False,
    header: bool = True,
    marks: Marks = PLAIN,
    end: str = "\n",
) -> Writer:
    """A function that writes one row in the format ``fmt`` (a header first, for CSV, unless not
    ``header``); the text format prints a valid URL's canonical form when ``canonical`` (the row
    must carry it), with the file's name and colour ``marks`` asks for. A CSV record ends with
    ``end`` (``-0``: a NUL), a line break inside a quoted cell staying one."""
    if fmt == "jsonl":
        return _jsonl_writer(out)
    if fmt == "csv":
        table = csv.writer(out, lineterminator=end)
        # A row with a context: the csv module quotes a cell with a character of the line end
        # it is given, so it is given both line breaks (a context holds them as they are, issue
        # 30), and the record's own end is put back.
        quoting = csv.writer(_Ended(out, end), lineterminator="\r\n")
        if header:
            table.writerow(FIELDS)

        def write_row(row: Row) -> None:
            cells: list[Any] = list(row)
            cells[1] = " ".join(row.alternatives)
            written = [_cell(cell) for cell in cells]
            context = row.context
            if context is None:
                table.writerow(written)
                return
            # A NUL, which CSV readers refuse (and -0 ends records with), is the one escaped.
            written[_CONTEXT] = _guard(context) + surrogates_escaped(context).replace("\0", "\\x00")
            quoting.writerow(written)

        return write_row

    if not marks.plain:

        def write_marked(row: Row) -> None:
            url = row.canonical if row.valid and canonical and row.canonical is not None else row.url
            out.write(marks.line(row.source, escaped(url), None if row.valid else escaped(row.error or "")))

        return write_marked

    def write_line(row: Row) -> None:
        if row.valid:  # an ASCII valid URL has no control character in it (section 2.2); an IRI may
            url = row.canonical if canonical and row.canonical is not None else row.url
            out.write((url if url.isascii() else escaped(url)) + "\n")
        else:
            out.write(f"{escaped(row.url)}\t{escaped(row.error or '')}\n")

    return write_line


class _Ended:
    """Where a CSV writer ending its records with CR LF writes: each record ends with ``end``."""

    def __init__(self, out: TextOut, end: str) -> None:
        self.out, self.end = out, end

    def write(self, record: str) -> None:
        self.out.write(record[:-2] + self.end)  # (the csv module writes a record in one call)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if value is True or value is False:  # as JSON, DuckDB and pandas read a CSV's booleans
        return "true" if value else "false"
    text = str(value)
    return _guard(text) + escaped(text)


def _guard(text: str) -> str:
    # A quote in front keeps a spreadsheet from running it (OWASP's advice for CSV injection).
    return "'" if text[:1] in _FORMULA_START else ""


def _jsonl_writer(out: TextOut) -> Writer:
    """``json.dumps(row._asdict(), ensure_ascii=False)`` per row, by hand: the message's part of the
    line is encoded once for all its rows, the match's part (and the part after the message's) once
    for all the messages that repeat it (the List-* headers of an archive), and strings by the json
    module's own C encoder (a third of the cost of a json.dumps per row; tests/cli/test_cli_options.py
    checks the two agree). A lone surrogate, which no UTF-8 holds, is written as JSON's
    escape of it (``escaping.surrogates_escaped``)."""
    last: list[Any] = [None, "", _UNSET, ""]
    heads: dict[tuple[Any, ...], str] = {}
    tails: dict[tuple[Any, ...], str] = {}
    hosts: dict[tuple[Any, ...], str] = {}

    def write_object(row: Row) -> None:
        where = _message_of(row)
        if where != last[0]:
            last[0] = where
            last[1] = surrogates_escaped(
                ", ".join(
                    f'"{name}": {_json(value)}' for name, value in zip(_MESSAGE_FIELDS, where, strict=True)
                )
            )
        written = row[_DATE_HEADER]
        if written != last[2]:  # the message's too (after the columns added later: at the end)
            last[2] = written
            last[3] = surrogates_escaped(f'"date_header": {_json(written)}}}\n')
        match, rest, named = _match_of(row), _rest_of(row), _hosts_of(row)
        head = heads.get(match)
        if head is None:
            head = _remembered(heads, match, surrogates_escaped(_match_fields(match)))
        tail = tails.get(rest)
        if tail is None:
            tail = _remembered(tails, rest, surrogates_escaped(_rest_fields(rest)))
        host = hosts.get(named)
        if host is None:
            host = _remembered(
                hosts,
                named,
                surrogates_escaped(
                    "".join(
                        f'"{name}": {_json(value)}, ' for name, value in zip(_HOST_FIELDS, named, strict=True)
                    )
                ),
            )
        out.write(f"{head}, {last[1]}, {tail}, {host}{last[3]}")

    return write_object


def _remembered(cache: dict[tuple[Any, ...], str], key: tuple[Any, ...], encoded: str) -> str:
    if len(cache) >= _MATCH_CACHE_SIZE:
        cache.clear()
    cache[key] = encoded
    return encoded


def _match_fields(match: tuple[Any, ...]) -> str:
    """The JSON of a row's first fields (url ... column), from its opening brace."""
    url, alternatives, valid, scheme, wrapper, naked, line, column = match
    listed = ", ".join(map(encode_basestring, alternatives)) if alternatives else ""
    return (
        f'{{"url": {encode_basestring(url)}, "alternatives": [{listed}], '
        f'"valid": {"true" if valid else "false"}, '
        f'"scheme": {"null" if scheme is None else encode_basestring(scheme)}, '
        f'"wrapper": {_WRAPPERS[wrapper]}, "naked": {"true" if naked else "false"}, '
        f'"line": {line}, "column": {column}'
    )


def _rest_fields(rest: tuple[Any, ...]) -> str:
    """The JSON of a row's fields part ... wayback."""
    part, error, canonical, count, start, end, quote_depth, context, wayback = rest
    return (
        f'"part": {"null" if part is None else encode_basestring(part)}, '
        f'"error": {"null" if error is None else encode_basestring(error)}, '
        f'"canonical": {"null" if canonical is None else encode_basestring(canonical)}, '
        f'"count": {"null" if count is None else count}, '
        f'"start": {start}, "end": {end}, "quote_depth": {quote_depth}, '
        f'"context": {"null" if context is None else encode_basestring(context)}, '
        f'"wayback": {"null" if wayback is None else encode_basestring(wayback)}'
    )


class Printing(NamedTuple):
    """What decides how rows are printed: the format, ``--schemes`` and ``--canonical``."""

    format: Format | Literal["parquet"]
    schemes: frozenset[str] | None = None
    """Print only the rows of these schemes (a ``www.`` host with no scheme has none)."""
    canonical: bool = False
    """Fill in each valid URL's canonical form (the text format prints it instead of the URL)."""
    profile: ProfileName = STRICT.name

    def selected(self, row: Row) -> Row | None:
        """The row with its canonical form filled in (when asked), or None when ``schemes``
        leaves it out."""
        if self.schemes is not None and row.scheme not in self.schemes:
            return None
        if not self.canonical:
            return row
        return row._replace(canonical=_canonical(row.url, row.valid, row.scheme is not None, self.profile))


@lru_cache(maxsize=8192)
def _canonical(url: str, valid: bool, has_scheme: bool, profile: str) -> str | None:
    # Rows repeat URLs (a list's headers in every message): each is worked out once. A "www."
    # host with no scheme (modern) is the http URL it stands for, as Match.canonical says.
    if not valid:
        return None
    return canonical_form(url if has_scheme else www_url(url), profile)


class BatchWriter:
    """A batch's rows written by the native core's writers (issue 31: rust/core/src/write.rs),
    byte for byte as ``writer`` writes them, with ``--schemes`` applied there too: no row is a
    Python object. ``rows`` converts a batch's columns once; ``write`` gives a run of them (the
    rows between two reports, which the printer says itself)."""

    def __init__(self, fmt: Format, printing: Printing, marks: Marks, end: str) -> None:
        native = _select.native()
        assert native is not None  # (``batch_writer`` decides)
        schemes = None if printing.schemes is None else sorted(printing.schemes)
        self._native = native
        self._text_only = fmt == "text"  # the text format reads a few columns: only they are converted
        self._writer = native.Writer(
            fmt,
            canonical=printing.canonical,
            filename=marks.filename,
            color=marks.color,
            end=end,
            schemes=schemes,
        )

    def rows(self, batch: Batch) -> Rows:
        """``batch``'s rows, converted for the core."""
        rows: Rows = self._native.Rows(batch.messages, batch.texts, batch.matches, text_only=self._text_only)
        return rows

    def write(self, rows: Rows, start: int, stop: int) -> tuple[bytes, int, bool]:
        """Rows ``start`` to ``stop``, written as UTF-8 (those ``--schemes`` keeps); how many, and
        whether one of them is a valid URL."""
        written: tuple[bytes, int, bool] = self._writer.write(rows, start, stop)
        return written


def columnar(printing: Printing, *, counting: bool = False) -> bool:
    """Whether a batch's rows are written from its columns (no Python object a row), not through
    ``Batch.events()`` and the Python writer: the one place that decides (docs/architecture.md).
    So with the Rust core in use, when no canonical form is to be worked out (``--canonical``,
    ``--unique``: the canonical forms are Python's) and rows are printed (``--count``, ``-l`` and
    ``-q`` count them and print none). Text, jsonl and csv are then written by the core
    (``batch_writer``), Parquet from the batch's Arrow table (``Batch.to_arrow``)."""
    return _select.native() is not None and not printing.canonical and not counting


def batch_writer(printing: Printing, marks: Marks, end: str, *, counting: bool = False) -> BatchWriter | None:
    """The native writer of text, jsonl or csv, where ``columnar`` says; None where the Python
    writer (``writer``) writes, or for Parquet."""
    if printing.format == "parquet" or not columnar(printing, counting=counting):
        return None
    return BatchWriter(printing.format, printing, marks, end)
