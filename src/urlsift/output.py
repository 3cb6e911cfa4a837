"""Rows (``results.Row``) -> lines of text, JSON Lines or CSV, through one field list.

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
import io
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any, Protocol

import regex

from ._model import www_url
from .canonical import canonical as canonical_form
from .grammar import STRICT
from .results import Event, Rendered, Report, Row

FIELDS = (
    "url",
    "alternatives",
    "valid",
    "scheme",
    "wrapper",
    "naked",
    "line",
    "column",
    "source",
    "member",
    "message",
    "offset",
    "message_id",
    "date",
    "newsgroups",
    "part",
    "error",
    "canonical",
    "count",
)
FORMATS = ("text", "jsonl", "csv")
_URL, _VALID, _SCHEME, _PART, _ERROR, _CANONICAL = 0, 2, 3, 15, 16, 17
_MESSAGE = slice(8, 15)  # source ... newsgroups: the same for every row of a message
_MESSAGE_FIELDS = FIELDS[_MESSAGE]
_MATCH_END = 8  # url ... column: the same for a header value that every message repeats
_MATCH_CACHE_SIZE = 4096
_WRAPPERS = {None: "null", "URL:": '"URL:"', "<>": '"<>"', '"': '"\\""'}

# Cc and Cf (controls; bidi, zero-width and other invisible formatting), Cs (a lone surrogate, which
# cannot even be encoded), Zl and Zp (U+2028, U+2029: line breaks to some readers, not to others).
_UNSAFE = regex.compile(r"[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]")
_FORMULA_START = frozenset("=+-@\t\r")
"""What makes a spreadsheet read a CSV cell as a formula (OWASP, "CSV Injection")."""
NUMBER_SLOT = "\x00"
"""Written in place of a number a worker cannot know (``results.Rendered``): raw, where no row's
own text can put it, since every format escapes control characters."""


class _Slot:
    """Stands in a row for the number left to fill in (not the string itself: a row's text may be
    a NUL, the very object, since Python keeps one of each one-character string)."""

    def __str__(self) -> str:  # what f"{line}" writes (``_match_fields``)
        return NUMBER_SLOT


_SLOT = _Slot()


def escaped(text: str) -> str:
    """Control and invisible formatting characters as ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``
    (Python's notation), so that they cannot act on a terminal or hide what a line says."""
    if text.isascii() and text.isprintable():  # most text: nothing to look for
        return text
    return _UNSAFE.sub(_escape, text)


def _escape(found: regex.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def record(row: tuple[Any, ...]) -> dict[str, Any]:
    """A row as the JSON object its jsonl line holds."""
    found = dict(zip(FIELDS, row, strict=True))
    found["alternatives"] = list(found["alternatives"])
    return found


Writer = Callable[[tuple[Any, ...]], None]


class TextOut(Protocol):
    """Where a writer writes: a text file, ``io.StringIO``, the command line's standard output."""

    def write(self, text: str, /) -> int: ...


def _json(value: Any) -> str:
    if value is None:
        return "null"
    if value is _SLOT:
        return NUMBER_SLOT
    if value.__class__ is str:
        return str(encode_basestring(value))
    return json.dumps(value, ensure_ascii=False)


def writer(fmt: str, out: TextOut, *, canonical: bool = False, header: bool = True) -> Writer:
    """A function that writes one row in the format ``fmt`` (a header first, for CSV, unless not
    ``header``); the text format prints a valid URL's canonical form when ``canonical`` (the row
    must carry it)."""
    if fmt == "jsonl":
        return _jsonl_writer(out)
    if fmt == "csv":
        table = csv.writer(out, lineterminator="\n")
        if header:
            table.writerow(FIELDS)

        def write_row(row: tuple[Any, ...]) -> None:
            cells = list(row)
            cells[1] = " ".join(cells[1])
            table.writerow([_cell(cell) for cell in cells])

        return write_row

    def write_line(row: tuple[Any, ...]) -> None:
        if row[_VALID]:  # an ASCII valid URL has no control character in it (section 2.2); an IRI may
            url = row[_CANONICAL] if canonical else row[_URL]
            out.write((url if url.isascii() else escaped(url)) + "\n")
        else:
            out.write(f"{escaped(row[_URL])}\t{escaped(row[_ERROR])}\n")

    return write_line


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if value is _SLOT:
        return NUMBER_SLOT
    text = str(value)
    # A quote in front keeps a spreadsheet from running it (OWASP's advice for CSV injection).
    return ("'" if text[:1] in _FORMULA_START else "") + escaped(text)


def _jsonl_writer(out: TextOut) -> Writer:
    """``json.dumps(record(row), ensure_ascii=False)`` per row, by hand: the message's part of the
    line is encoded once for all its rows, the match's part once for all the messages that repeat
    it (the List-* headers of an archive), and strings by the json module's own C encoder (a third
    of the cost of a json.dumps per row; tests/test_output.py checks the two agree)."""
    last: list[Any] = [None, ""]
    heads: dict[tuple[Any, ...], str] = {}

    def write_object(row: tuple[Any, ...]) -> None:
        where = row[_MESSAGE]
        if where != last[0]:
            last[0] = where
            last[1] = ", ".join(
                f'"{name}": {_json(value)}' for name, value in zip(_MESSAGE_FIELDS, where, strict=True)
            )
        match = row[:_MATCH_END]
        head = heads.get(match)
        if head is None:
            if len(heads) >= _MATCH_CACHE_SIZE:
                heads.clear()
            head = heads[match] = _match_fields(match)
        part, error, canonical, count = row[_PART:]
        out.write(
            f"{head}, {last[1]}, "
            f'"part": {"null" if part is None else encode_basestring(part)}, '
            f'"error": {"null" if error is None else encode_basestring(error)}, '
            f'"canonical": {"null" if canonical is None else encode_basestring(canonical)}, '
            f'"count": {"null" if count is None else count}}}\n'
        )

    return write_object


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


@dataclass(frozen=True)
class Printing:
    """What decides how rows are printed: the format, ``--schemes`` and ``--canonical``. A worker
    that holds it prints its unit's rows itself (``render``), as the printing process would."""

    format: str
    schemes: frozenset[str] | None = None
    """Print only the rows of these schemes (a ``www.`` host with no scheme has none)."""
    canonical: bool = False
    """Fill in each valid URL's canonical form (the text format prints it instead of the URL)."""
    profile: str = STRICT.name

    def selected(self, row: Row) -> Row | None:
        """The row with its canonical form (or None) after it, or None when ``schemes`` leaves
        it out."""
        if self.schemes is not None and row[_SCHEME] not in self.schemes:
            return None
        if not self.canonical:
            return (*row, None)
        return (*row, _canonical(row[_URL], row[_VALID], row[_SCHEME] is not None, self.profile))

    def render(self, events: list[Event], slot: int | None) -> list[Event]:
        """``events`` with each run of rows printed into one ``results.Rendered``; the numbers of
        column ``slot`` are left to fill in."""
        if self.format == "text":
            slot = None  # the text format prints neither lines nor messages
        done: list[Event] = []
        rows: list[Row] = []
        for event in events:
            if isinstance(event, (Report, Rendered)):
                if rows:
                    done.append(self._rendered(rows, slot))
                    rows = []
                done.append(event)
            elif (row := self.selected(event)) is not None:
                rows.append(row)
        if rows:
            done.append(self._rendered(rows, slot))
        return done

    def _rendered(self, rows: Iterable[Row], slot: int | None) -> Rendered:
        text = io.StringIO()
        write = writer(self.format, text, canonical=self.canonical, header=False)
        numbers: list[int] = []
        count = valid = 0
        for row in rows:
            count += 1
            valid |= row[_VALID]
            if slot is not None and row[slot] is not None:
                numbers.append(row[slot])
                row = (*row[:slot], _SLOT, *row[slot + 1 :])
            write((*row, None))
        texts = tuple(text.getvalue().split(NUMBER_SLOT)) if numbers else (text.getvalue(),)
        if len(texts) != len(numbers) + 1:
            raise RuntimeError("a row's own text held the number slot")
        return Rendered(texts, tuple(numbers), count, bool(valid))


@lru_cache(maxsize=8192)
def _canonical(url: str, valid: bool, has_scheme: bool, profile: str) -> str | None:
    # Rows repeat URLs (a list's headers in every message): each is worked out once. A "www."
    # host with no scheme (modern) is the http URL it stands for, as Match.canonical says.
    if not valid:
        return None
    return canonical_form(url if has_scheme else www_url(url), profile)
