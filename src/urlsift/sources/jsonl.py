"""JSON-lines dumps (``--input-format jsonl``): one JSON object a line, as forum, chat and list exports
and the Reddit dumps keep messages. Each record is a MessageText whose texts are its ``--text-field``
values (a dotted path reaches into nested objects: ``data.body``; a digit indexes a list), each a part
named by its path; ``--id-field`` gives its ``message_id``, ``--date-field`` its ``date`` (epoch
seconds or milliseconds, ISO 8601: ``_date``). A record's ``message`` is the index of its line in
the file (0-based, blank lines counted, so line ``message + 1``), its ``offset`` the byte offset of
the line (in the decompressed stream, for a ``.jsonl.zst``).

Lines are cut from blocks of the stream, so memory holds one line: a line longer than the message
limit is reported ``too-large`` and skipped as it streams past, never held. A line that is no JSON
object is ``bad-record`` (an error: its text is lost); a text field that is absent, null or not a
string is ``missing-field`` (a warning: there is no text to lose), and the record's other fields are
read. The standard library's parser is linear, and its limits hold: nesting past the recursion limit
and numbers over 4,300 digits are errors, so bad-record.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import IO

from .._model import Defect, MessageText, Provenance
from ..dates import timestamp
from . import faults

_BLOCK = 1 << 20
SEARCH_BYTES = 1 << 24
"""How far past a multiple of the range size a line start is looked for (``line_start``)."""
_MISSING = object()


class Fields:
    """The dotted paths of the fields to read, split once."""

    __slots__ = ("date_field", "date_path", "id_field", "id_path", "text_fields", "text_paths")

    def __init__(
        self, text_fields: tuple[str, ...], id_field: str | None, date_field: str | None = None
    ) -> None:
        self.text_fields, self.id_field, self.date_field = text_fields, id_field, date_field
        self.text_paths = [field.split(".") for field in text_fields]
        self.id_path = None if id_field is None else id_field.split(".")
        self.date_path = None if date_field is None else date_field.split(".")


class Records:
    """The records of a JSON-lines stream, in order; ``lines`` counts the lines read (the next
    piece of a file numbers its records from there: ``results.Joined``)."""

    def __init__(
        self, file: IO[bytes], where: Provenance, fields: Fields, limit: int, start: int = 0
    ) -> None:
        self._file, self._where, self._fields, self._limit = file, where, fields, limit
        self._offset = start  # where the line being read starts, in the file
        self.lines = 0

    def __iter__(self) -> Iterator[MessageText]:
        limit, where, fields = self._limit, self._where, self._fields
        held: list[bytes] = []  # the start of a line begun in an earlier block (under the limit)
        size = 0  # that line's length so far, counted on past the limit (then not held)
        while block := self._file.read(_BLOCK):
            pieces = block.split(b"\n")
            rest = pieces.pop()
            for piece in pieces:
                if held or size:
                    size += len(piece)
                    line = b"".join((*held, piece)) if size <= limit else None
                    held = []
                else:  # a line whole in this block: no copy
                    size = len(piece)
                    line = piece if size <= limit else None
                if line is None:
                    yield self._too_large(size)
                elif line and not line.isspace():
                    yield record(line, where, fields, self.lines, self._offset)
                self._offset += size + 1
                self.lines += 1
                size = 0
            size += len(rest)
            if size <= limit:
                held.append(rest)
            else:
                held = []
        if size:  # a last line with no line break
            line = b"".join(held) if size <= limit else None
            if line is None:
                yield self._too_large(size)
            elif not line.isspace():
                yield record(line, where, fields, self.lines, self._offset)
            self._offset += size
            self.lines += 1

    def _too_large(self, size: int) -> MessageText:
        here = self._where._replace(message=self.lines, offset=self._offset)
        detail = f"a line of {size:,} bytes, over the {self._limit:,}-byte limit; not read"
        return MessageText(here, [], [], 0, [Defect("too-large", here, detail)])


def record(line: bytes, where: Provenance, fields: Fields, number: int, offset: int) -> MessageText:
    """The record of one line of JSON (line ``number`` of the file, at ``offset``; ``where`` names
    the file): its text fields, and what was wrong with it."""
    # Built whole (not by _replace, twice as slow): the columns before ``message_id`` are these.
    where = Provenance(where.source, where.member, number, offset)
    try:
        return _record(line, where, fields, number, offset)
    except Exception as error:  # a bug (or the machine's fault) loses this record only: faults.py
        return faults.lost(error, where)


def _record(line: bytes, where: Provenance, fields: Fields, number: int, offset: int) -> MessageText:
    try:
        found = json.loads(line)
    except RecursionError:
        return _bad(where, "nested too deep to parse")
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, an integer over 4,300 digits
        return _bad(where, f"not JSON: {error}")
    if not isinstance(found, dict):
        return _bad(where, f"a JSON {_kind(found)}, not an object")
    defects: list[Defect] = []
    if fields.id_path is not None:
        value = _get(found, fields.id_path)
        if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
            where = Provenance(where.source, where.member, number, offset, str(value))
        else:
            defects.append(Defect("missing-field", where, _missing(fields.id_field or "", value)))
    if fields.date_path is not None:
        value = _get(found, fields.date_path)
        date = _date(value)
        if date is not None:
            where = where._replace(date=date)
        else:
            name = fields.date_field or ""
            if value is _MISSING:
                detail = f"no field {name!r}"
            else:
                detail = f"the field {name!r} is no date ({_DATES}): {json.dumps(value)[:80]}"
            defects.append(Defect("missing-field", where, detail))
    texts: list[str] = []
    parts: list[str] = []
    for name, path in zip(fields.text_fields, fields.text_paths, strict=True):
        value = _get(found, path)
        if isinstance(value, str):
            texts.append(value)
            parts.append(name)
        else:
            defects.append(Defect("missing-field", where, _missing(name, value)))
    return MessageText(where, texts, parts, 0, defects)


_DATES = "epoch seconds or milliseconds, ISO 8601 or RFC 5322"
_EPOCH = re.compile(r"-?[0-9]{1,16}(?:\.[0-9]{1,9})?")
MILLISECONDS = 10**11
"""``--date-field``: an epoch number this large or larger is in milliseconds (10**11 seconds is
the year 5138; 10**11 milliseconds, March 1973)."""


def _date(value: object) -> str | None:
    """A ``--date-field`` value as the ``date`` column holds it, or None when it is no date: an
    epoch number (or a string of one: Slack's ``"1355517523.000005"``) as UTC ISO 8601, a string
    ``dates.timestamp`` reads (ISO 8601, RFC 5322) as it is written, as a mail's Date is kept."""
    if isinstance(value, str) and _EPOCH.fullmatch(value.strip()):
        value = float(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = value / 1000 if abs(value) >= MILLISECONDS else value
        try:
            return datetime.fromtimestamp(seconds, UTC).isoformat()
        except (OverflowError, OSError, ValueError):  # past datetime's years
            return None
    if isinstance(value, str) and timestamp(value.strip()) is not None:
        return value.strip()
    return None


def _bad(where: Provenance, detail: str) -> MessageText:
    return MessageText(where, [], [], 0, [Defect("bad-record", where, f"{detail}; not read")])


def _get(value: object, path: list[str]) -> object:
    """The value at a dotted path (a digit indexes a list), or _MISSING."""
    for key in path:
        if isinstance(value, dict):
            value = value.get(key, _MISSING)
        elif isinstance(value, list) and key.isascii() and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            return _MISSING
    return value


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    kinds = {str: "string", int: "number", float: "number", list: "array", dict: "object"}
    return kinds.get(type(value), "value")


def _missing(name: str, value: object) -> str:
    if value is _MISSING:
        return f"no field {name!r}"
    return f"the field {name!r} is a JSON {_kind(value)}, not a string; not scanned"


def line_start(file: IO[bytes], at: int, length: int) -> int | None:
    """The first line start at or after ``at`` (a finder for ``split.cuts``), looked for up to
    SEARCH_BYTES past it: a range of a JSON-lines file starts at a record."""
    position = max(0, at - 1)  # a line break just before ``at`` starts a line at it
    stop = min(length, at + SEARCH_BYTES)
    while position < stop:
        file.seek(position)
        block = file.read(min(_BLOCK, stop - position))
        if not block:
            return None
        newline = block.find(b"\n")
        if newline >= 0:
            found = position + newline + 1
            return found if found < length else None
        position += len(block)
    return None
