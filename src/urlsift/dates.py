"""A message's Date header as a UTC time, and the Wayback Machine's address of a URL as it was then
(``--wayback``): worked out here, offline."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import lru_cache

WAYBACK = "https://web.archive.org/web/"


_MONTHS = {
    name: k
    for k, name in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1
    )
}
_USUAL = re.compile(
    r"\s*(?:[A-Za-z]{3},\s*)?(\d{1,2}) ([A-Za-z]{3}) (\d{4}) (\d{2}):(\d{2})(?::(\d{2}))?"
    r" ([+-])(\d{2})(\d{2})\s*(?:\([^()]*\)\s*)?"
)
"""RFC 5322's date-time as nearly every message writes it (a day, month, 4-digit year, numeric
zone): read here, since every message's Date is (the ``date`` column); the rest goes to
``email.utils``, which reads it the same (tests/results/test_host_columns.py compares)."""


def _usual(date: str) -> datetime | None:
    found = _USUAL.fullmatch(date)
    month = None if found is None else _MONTHS.get(found[2].lower())
    if found is None or month is None or int(found[3]) < 100:  # (email.utils reads "0099" as 1999)
        return None
    day, _, year, hour, minute, second, sign, zone_hours, zone_minutes = found.groups()
    try:
        when = datetime(int(year), month, int(day), int(hour), int(minute), int(second or 0), tzinfo=UTC)
        shift = timedelta(hours=int(zone_hours), minutes=int(zone_minutes))
        return when - shift if sign == "+" else when + shift
    except (ValueError, OverflowError):  # no such day, or a zone that takes it out of the years
        return None


@lru_cache(maxsize=4096)
def timestamp(date: str | None) -> datetime | None:
    """A Date header (RFC 5322 and the forms before it) or a WARC-Date (ISO 8601) as a UTC time (no
    zone: UTC); None when it cannot be read."""
    if not date:
        return None
    usual = _usual(date)
    if usual is not None:
        return usual
    import email.utils  # (with socket, random and calendar: a few ms of start-up, for --wayback and parquet)

    try:
        found = email.utils.parsedate_to_datetime(date)
    except (ValueError, TypeError, IndexError, OverflowError):
        try:  # a WARC-Date: ISO 8601 (sources/warc.py)
            found = datetime.fromisoformat(date)
        except ValueError:
            return None
    try:
        return found.replace(tzinfo=UTC) if found.tzinfo is None else found.astimezone(UTC)
    except (ValueError, OverflowError):  # a zone that takes the time out of datetime's years
        return None


@lru_cache(maxsize=4096)
def iso(date: str | None) -> str | None:
    """A Date header (or WARC-Date) as ``timestamp`` reads it, in UTC and ISO 8601 with a "Z"
    (``2002-03-04T05:06:07Z``): the ``date`` column of jsonl and csv. None when it cannot be read."""
    when = timestamp(date)
    return None if when is None else f"{when.replace(tzinfo=None).isoformat()}Z"


def utc(text: str | None) -> datetime | None:
    """The ``date`` column's text (``iso``'s) as a UTC time with no zone: Parquet's ``date``
    (a timestamp with no zone reads in DuckDB without pytz: D38)."""
    if text is None:
        return None
    return datetime.fromisoformat(text).replace(tzinfo=None)


def wayback(url: str, date: str | None) -> str | None:
    """``https://web.archive.org/web/YYYYMMDDhhmmss/URL``: the Wayback Machine's copy of ``url``
    nearest the time ``date`` says (it redirects to the nearest it has); None without a date it
    can read. ``date``: a Date header's text, or the ``date`` column's."""
    when = timestamp(date)
    if when is None:
        return None
    return f"{WAYBACK}{when.year:04}{when:%m%d%H%M%S}/{url}"
