"""What a run reads, and how: one ``Plan``, built by ``build`` from the options and the path
stream, for every face: the command line (from its arguments), ``urlsift.scan`` and
``urlsift.dask.scan`` (from keywords). ``execute`` runs it.

``build`` checks what the faces share (options that go together), then takes everything that
depends on the paths from one pass of their stream: the public-inbox commits to read (``--since``,
``--state``), the units of work (big files cut, small ones batched: ``units.plan``), the texts to
read whole (``context``: a piece read alone lacks its neighbour's characters), and how many
workers there is work for (``sized``).
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from fnmatch import fnmatchcase
from typing import IO, TYPE_CHECKING, NamedTuple

from .errors import Error
from .escaping import escaped
from .results import walk
from .rows import PARTS, Filters, Options, Report
from .sources import ReadOptions
from .sources.kinds import is_repository
from .units import SPLIT_BYTES, Unit, first_units
from .units import plan as units_of

if TYPE_CHECKING:
    from .sources import publicinbox

Source = str | IO[bytes]
"""A path ("-": standard input) or a binary file object (the library's: read here, in its turn)."""
Item = str | Unit | Report | IO[bytes]
"""What a plan gives to read: a file read here whole, a unit of work, a folder's report, a file object."""


class Refused(Error, ValueError):
    """Options that do not go together, or paths that do not fit them (``--state`` given an mbox):
    said before any work starts (the command line: in one line, exit 2)."""


class Spelling(NamedTuple):
    """How a face names the options, so that a refusal names them as its user wrote them."""

    jsonl: str
    text_fields: str
    id_field: str
    jobs: str
    split: str
    since: str
    state: str
    parts: str = "parts"
    host: str = "hosts"
    since_date: str = "since_date"
    until_date: str = "until_date"
    max_quote_depth: str = "max_quote_depth"
    date_field: str = "date_field"


KEYWORDS = Spelling(
    'input_format="jsonl"', "text_fields", "id_field", "workers", "split_size", "since", "state"
)
COMMAND_LINE = Spelling(
    *("--input-format jsonl", "--text-field", "--id-field", "-j", "--split-size", "--since", "--state"),
    *("--parts", "--host", "--since-date", "--until-date", "--max-quote-depth", "--date-field"),
)

When = str | date | datetime
"""A date bound as a face takes it: ``2002``, ``2002-03``, ``2002-03-04``, an ISO 8601 time (no
zone: UTC), or a ``date`` or ``datetime``."""


def filters(
    parts: str = "all",
    hosts: Iterable[str] = (),
    since_date: When | None = None,
    until_date: When | None = None,
    max_quote_depth: int | None = None,
    spelling: Spelling = KEYWORDS,
) -> Filters:
    """The filters of a run (``rows.Filters``, D38), checked (``Refused``), for every face: the
    hosts in ``host``'s form; a date bound that names a year, month or day stands for its start
    (``since_date``) or its end (``until_date``: ``--until-date 2002`` keeps all of 2002)."""
    if parts not in PARTS:
        raise Refused(f"{spelling.parts} is one of {', '.join(PARTS)}, not {parts!r}")
    if isinstance(hosts, str):
        hosts = [hosts]
    wanted = tuple(_host(host, spelling) for host in hosts)
    since = None if since_date is None else _bound(since_date, False, spelling.since_date)
    until = None if until_date is None else _bound(until_date, True, spelling.until_date)
    if since is not None and until is not None and until <= since:
        raise Refused(f"{spelling.until_date} must come after {spelling.since_date}")
    if max_quote_depth is not None and (
        isinstance(max_quote_depth, bool) or not isinstance(max_quote_depth, int) or max_quote_depth < 0
    ):
        raise Refused(f"{spelling.max_quote_depth} must be a number of quote levels, not {max_quote_depth!r}")
    return Filters(parts, wanted, since, until, max_quote_depth)


def _host(host: str, spelling: Spelling) -> str:
    from .hosts import host_form

    if not isinstance(host, str):
        raise Refused(f"{spelling.host} takes host names, not {type(host).__name__}")
    found = host_form(host.strip().strip("."))
    if not found or any(character in found for character in "/@?# "):
        raise Refused(f"{spelling.host}: not a host name: {escaped(host)!r}")
    return found


_PARTIAL = re.compile(r"(\d{4})(?:-(\d{2}))?")


def _bound(when: When, end: bool, named: str) -> datetime:
    """A date bound as a UTC time (as ``dates.timestamp`` gives a message's): a year, month or
    day at its start, or (``end``) at the start of the next; a time with no zone is UTC's. The end
    of the last day a ``datetime`` holds (9999-12-31) is its last instant, no error."""
    if isinstance(when, datetime):
        return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    if isinstance(when, date):
        return _period(datetime(when.year, when.month, when.day, tzinfo=UTC), "day", end)
    if not isinstance(when, str):
        raise Refused(f"{named} takes a date (2002, 2002-03, 2002-03-04 or an ISO 8601 time), not {when!r}")
    text = when.strip()
    try:
        if (partial := _PARTIAL.fullmatch(text)) is not None:
            start = datetime(int(partial[1]), int(partial[2] or 1), 1, tzinfo=UTC)
            return _period(start, "year" if partial[2] is None else "month", end)
        found = datetime.fromisoformat(text)
    except ValueError:
        raise Refused(
            f"{named}: not a date: {escaped(text)!r} (say 2002, 2002-03, 2002-03-04 or 2002-03-04T05:06:07Z)"
        ) from None
    if len(text) == 10:  # a day: YYYY-MM-DD
        return _period(found.replace(tzinfo=UTC), "day", end)
    return _bound(found, False, named)


def _period(start: datetime, length: str, end: bool) -> datetime:
    """The start of the year, month or day that begins at ``start``, or (``end``) of the next one;
    past year 9999, the last instant there is."""
    if not end:
        return start
    try:
        if length == "day":
            return start + timedelta(days=1)
        if length == "year":
            return start.replace(year=start.year + 1)
        return start.replace(year=start.year + start.month // 12, month=start.month % 12 + 1)
    except (ValueError, OverflowError):
        return datetime.max.replace(tzinfo=UTC)


class Plan(NamedTuple):
    """A run's work, resolved once; ``execute`` runs it (``-j 1``, ``-j N``, a Dask scheduler)."""

    options: Options
    """What to find and how to read (``read.since`` and ``read.until``: the commits resolved)."""
    items: Iterator[Item]
    """What to read, in order, each once: with ``jobs`` 1, the files (folders walked); else the
    units of work. Standard input and file objects are read here in their turn; a folder that
    could not be walked is a report in its place."""
    jobs: int | None
    """Processes to read with: 1, this one; N, no more than there is work for (``sized``); None,
    a cluster's workers (``scheduler``, or ``urlsift.dask.scan``'s graph)."""
    scheduler: str | None = None
    listed: tuple[str, ...] = ()
    """With a scheduler: the paths as given, which a cluster's workers must see."""
    state: publicinbox.State | None = None
    """``--state``: the commits to record as each repository is read (``State.done``)."""
    notes: tuple[str, ...] = ()
    """Warnings to give before the work (a recorded commit no longer in its repository's history)."""


def build(
    sources: Iterable[Source],
    options: Options,
    *,
    jobs: int | None = 1,
    scheduler: str | None = None,
    split: int = SPLIT_BYTES,
    since: str | None = None,
    state: str | None = None,
    spelling: Spelling = KEYWORDS,
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
) -> Plan:
    """The plan of a run over ``sources`` (paths, folders walked as they come; file objects), or
    ``Refused``. The stream is read once: lazily, but for a scheduler (its workers are asked
    whether they see every path) and for ``since`` and ``state`` (the repositories' commits are
    resolved before any is read: ``_commits``). ``include`` and ``exclude``: globs for the files
    met in folders (``Globs``)."""
    _check(options, jobs, split, since, state, spelling)
    listed: tuple[str, ...] = ()
    if scheduler is not None:
        sources = list(sources)
        listed = tuple(source for source in sources if isinstance(source, str))
    globs = Globs(include, exclude) if include or exclude else None
    found: Iterable[str | Report | IO[bytes]] = _walked(sources, globs)
    read: ReadOptions = options.read
    recorded: publicinbox.State | None = None
    notes: tuple[str, ...] = ()
    if since is not None or state is not None:
        skipped: list[str] = []
        found = list(found) if state is None else _state_inputs(sources, state, skipped)
        read, recorded, notes = _commits(found, read, since, state, spelling)
        notes = _skipped(skipped, spelling) + notes
        options = replace(options, read=read)
    items: Iterator[Item]
    if jobs == 1 and scheduler is None:
        items = iter(found)
    else:
        units: Iterator[Unit | Report | IO[bytes]] = units_of(found, read, split)
        items = _texts_whole(units) if options.context else units
    return Plan(options, items, jobs, scheduler, listed, recorded, notes)


def sized(plan: Plan) -> tuple[int, Iterator[Item]]:
    """How many processes to start here, and the items: no more than there are units among the
    first ``plan.jobs`` (``-j 40`` on 2 files starts 2; standard input and file objects, read
    here, do not count). A scheduler's count is the cluster's (0 here)."""
    if plan.scheduler is not None or plan.jobs is None:
        return 0, plan.items
    first = list(first_units(plan.items, plan.jobs))
    jobs = max(1, min(plan.jobs, sum(isinstance(unit, Unit) and "-" not in unit.names for unit in first)))
    return jobs, itertools.chain(first, plan.items)


def _check(
    options: Options, jobs: int | None, split: int, since: str | None, state: str | None, spelling: Spelling
) -> None:
    read = options.read
    if (read.input_format == "jsonl") != bool(read.text_fields) or (read.id_field and not read.text_fields):
        raise Refused(
            f"{spelling.jsonl} and {spelling.text_fields} go together ({spelling.id_field} with them)"
        )
    if read.date_field and not read.text_fields:
        raise Refused(f"{spelling.date_field} goes with {spelling.jsonl} and {spelling.text_fields}")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise Refused(f"{spelling.jobs} must be a positive number of processes, not {jobs!r}")
    if isinstance(split, bool) or not isinstance(split, int) or split < 1:
        raise Refused(f"{spelling.split} must be a positive number of bytes, not {split!r}")
    if since is not None and state is not None:
        raise Refused(f"{spelling.since} and {spelling.state} do not go together")


class Globs(NamedTuple):
    """``--include`` and ``--exclude``: which files met in a folder are read, by name as grep's
    globs (a glob with a ``/`` matches the path below the folder named, as ripgrep's can). A
    PATH named is read whatever its name, as ripgrep reads it."""

    include: tuple[str, ...]
    exclude: tuple[str, ...]

    def wanted(self, path: str, folder: str) -> bool:
        name = os.path.basename(path)
        below = os.path.relpath(path, folder).replace(os.sep, "/")

        def matches(glob: str) -> bool:
            return fnmatchcase(below if "/" in glob else name, glob)

        if self.include and not any(map(matches, self.include)):
            return False
        return not any(map(matches, self.exclude))


def _walked(sources: Iterable[Source], globs: Globs | None = None) -> Iterator[str | Report | IO[bytes]]:
    """The files to read, in order: the paths with folders walked (``results.walk``; those the
    ``globs`` leave out skipped), the file objects as they are."""
    for source in sources:
        if not isinstance(source, str):
            yield source
        elif globs is None or source == "-" or not os.path.isdir(source):
            yield from walk([source])
        else:
            yield from (
                item for item in walk([source]) if not isinstance(item, str) or globs.wanted(item, source)
            )


MAX_SKIPPED_NAMED = 10
"""``--state``: the files met walking a folder that are no repository named one a line, up to
this many; the rest counted in one line."""


def _state_inputs(
    sources: Iterable[Source], state: str, skipped: list[str]
) -> list[str | Report | IO[bytes]]:
    """``--state``: what to read of ``sources``. A file met while walking a folder that is no
    repository (grokmirror's manifest.js.gz beside the inboxes) is left out, in ``skipped``; the
    state file and its ``.tmp`` are never input (a state kept in the folder read). A PATH named
    is kept, whatever it is, and so is a folder that holds no repository (a Maildir, a spool):
    ``_commits`` refuses what is no repository."""
    ours = {os.path.realpath(state), os.path.realpath(f"{state}.tmp")}
    found: list[str | Report | IO[bytes]] = []
    for source in sources:
        if not isinstance(source, str) or source == "-" or not os.path.isdir(source):
            found.append(source)
            continue
        walked = [
            item for item in walk([source]) if not (isinstance(item, str) and os.path.realpath(item) in ours)
        ]
        inboxes = [isinstance(item, str) and is_repository(item) for item in walked]
        if not any(inboxes):  # a Maildir, a spool named: refused as a PATH is
            found.extend(walked)
            continue
        for item, repository in zip(walked, inboxes, strict=True):
            if isinstance(item, str) and not repository:
                skipped.append(item)
            else:
                found.append(item)
    return found


def _skipped(skipped: list[str], spelling: Spelling) -> tuple[str, ...]:
    named = tuple(
        f"{escaped(path)}: {spelling.state}: not a public-inbox repository: not read"
        for path in skipped[:MAX_SKIPPED_NAMED]
    )
    more = len(skipped) - MAX_SKIPPED_NAMED
    if more > 0:
        named += (f"{spelling.state}: {more:,} more files in the folders walked are no repository: not read",)
    return named


def _commits(
    found: list[str | Report | IO[bytes]],
    read: ReadOptions,
    since: str | None,
    state: str | None,
    spelling: Spelling,
) -> tuple[ReadOptions, publicinbox.State | None, tuple[str, ...]]:
    """``since`` or ``state``: the public-inbox commits to read, from the repositories ``found``
    (however they were named: PATHs, a list, folders walked), and the state to record them in."""
    repositories = [path for path in found if isinstance(path, str) and path != "-" and is_repository(path)]
    from .sources import publicinbox  # (git: only a run that reads a repository loads it)

    if since is not None:
        if not any(publicinbox.holds(path, since) for path in repositories):
            raise Refused(f"{spelling.since} {since}: no public-inbox repository given holds this commit")
        return read._replace(since=(since,)), None, ()
    assert state is not None
    kept = set(repositories)
    for path in found:
        # What grows with no commit to record (an mbox, a Maildir, a spool, a plain file) would be
        # read whole by every run: refused, not read again silently. A path that is not there is
        # reported by its read, as without --state.
        if isinstance(path, Report) or path in kept or (isinstance(path, str) and not _there(path)):
            continue
        name = (
            "a file object"
            if not isinstance(path, str)
            else "standard input"
            if path == "-"
            else escaped(path)
        )
        raise Refused(
            f"{spelling.state} reads public-inbox repositories only: {name} is not one (an mbox, "
            "Maildir, spool or plain file has no commit to record)"
        )
    recorded = publicinbox.State(state, repositories)
    notes = tuple(
        f"{escaped(path)}: {spelling.state}: the commit recorded, {commit}, is not in its history "
        "(rewritten, or another repository): read from its start"
        for path, commit in recorded.missing
    )
    read = read._replace(commits=recorded.commits(), since_skips_epochs=False)
    return read, recorded, notes


def _there(path: str) -> bool:
    return path == "-" or os.path.lexists(path)


def _texts_whole(units: Iterator[Unit | Report | IO[bytes]]) -> Iterator[Item]:
    """``units`` with each plain text cut in pieces read whole instead: the context of a URL near
    a cut would lack the other piece's characters (an mbox is cut between messages, a JSON-lines
    file between records: no matter)."""
    for unit in units:
        if isinstance(unit, Unit) and unit.kind == "text":
            if unit.start == 0:
                yield Unit("files", unit.path, names=(unit.path,))
            continue
        yield unit
