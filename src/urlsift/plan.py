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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase
from typing import IO, NamedTuple

from .errors import Error
from .escaping import escaped
from .results import walk
from .rows import Options, Report
from .sources import ReadOptions, publicinbox
from .units import SPLIT_BYTES, Unit, first_units
from .units import plan as units_of

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


KEYWORDS = Spelling(
    'input_format="jsonl"', "text_fields", "id_field", "workers", "split_size", "since", "state"
)
COMMAND_LINE = Spelling(
    "--input-format jsonl", "--text-field", "--id-field", "-j", "--split-size", "--since", "--state"
)


@dataclass(frozen=True)
class Plan:
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
        inboxes = [isinstance(item, str) and publicinbox.is_repository(item) for item in walked]
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
    repositories = [
        path for path in found if isinstance(path, str) and path != "-" and publicinbox.is_repository(path)
    ]
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
