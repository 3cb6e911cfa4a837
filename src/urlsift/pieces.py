"""The results of units of work (``units.plan``), put back together as the results of files: a
file read in pieces (an mbox or a text in byte ranges, an archive in groups of members) gives the
batches and counts that one read of the whole file gives. A unit's results come in parts of a few
rows (``batches.unit_parts``) and are handed on as they come; a part of a piece is numbered as in
the whole file by adding the earlier pieces' counts to a column (``Batch.shifted``)."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from dataclasses import replace
from typing import NamedTuple

from .batches import Batch, Part, batch_of
from .rows import Report, Tally, walked
from .sources import long_line as long_line_detail
from .units import Unit

Done = tuple[Unit, Iterator[Part]] | Report
"""A unit and its parts as its worker sends them (``workers.in_order``), or a report between units."""
Scanned = tuple[str | None, Iterator[Batch], Tally]
"""A file's path, its batches and its tally (filled in as the batches are given: each batch's
``tally`` is what it adds); a folder's problem comes with no path."""


def in_files(done: Iterator[Done]) -> Iterator[Scanned]:
    """The results of units, in order, as the results of files: each file's batches and tally, its
    pieces joined (``join_pieces``); a report between units is a batch of its own. A file's
    batches must be read before the next file is asked for (they are read from ``done`` as they
    are needed); its tally counts each part as its batch is given (a reader stopped in the
    middle, by Ctrl-C, has the counts of what it was given), and is whole when they all have been."""
    for item in done:
        if isinstance(item, Report):
            yield None, iter([batch_of([item], walked())]), walked()
            continue
        unit, parts = item
        if unit.kind == "files":
            for path, batch, last in parts:  # a file's first part
                whole = Tally()
                rest = given(path, (path, batch, last), parts, whole)
                yield path, rest, whole
                for _ in rest:  # a reader that stopped early: the rest of the file is skipped
                    pass
            continue
        whole = Tally()
        joined = join_pieces(unit, parts, done, whole)
        yield unit.path, joined, whole
        for _ in joined:  # a reader that stopped early: the file's other pieces are skipped
            pass


def given(path: str, first: Part | None, more: Iterator[Part], whole: Tally) -> Iterator[Batch]:
    """The batches of a whole file, from its ``first`` part on (None: the first of ``more``);
    ``whole`` gets each part's counts before its batch is given (Ctrl-C may come just after it)."""
    part = first if first is not None else next(more, None)
    try:
        while True:
            if part is None or part[0] != path:
                raise RuntimeError(f"the pieces of {path} ended before its last")
            _, batch, last = part
            whole.add(batch.tally)
            yield batch
            if last:
                return
            part = next(more, None)
    finally:
        close = getattr(more, "close", None)
        if first is None and close is not None:  # its own parts (read here): the reader closed
            close()


def join_pieces(first: Unit, parts: Iterator[Part], more: Iterator[Done], tally: Tally) -> Iterator[Batch]:
    """The batches of a file read in pieces, as one read of the whole file gives them: from
    ``first`` and its ``parts``, then the units taken from ``more`` up to the file's last
    (``Joined`` says how). ``tally`` gets the counts of each part as its batch is given."""
    unit, joined = first, Joined()
    while True:
        _, joined = yield from joined.batches(unit, parts, tally)
        if unit.last:
            return
        following = next(more)
        if isinstance(following, Report):  # a file's pieces come one after the other
            raise RuntimeError(f"a report came between the pieces of {unit.path}")
        unit, parts = following


class Joined(NamedTuple):
    """What the pieces of a file read so far say to the ones after them: an mbox's messages and a
    text's lines and characters (numbers go on from them), whether the file failed, and a text's
    first overlong line (a whole read reports it once, at the text's end)."""

    messages: int = 0
    lines: int = 0
    characters: int = 0
    failed: bool = False
    long_line: Report | None = None

    def piece(self, unit: Unit, parts: list[Part]) -> tuple[list[Batch], Joined]:
        """What ``batches`` gives, of a unit's parts held whole (a Dask cluster's, ``dask.scan``)."""
        found: list[Batch] = []
        joining = self.batches(unit, iter(parts))
        while True:
            try:
                found.append(next(joining))
            except StopIteration as end:
                return found, end.value[1]

    def batches(
        self, unit: Unit, parts: Iterable[Part], whole: Tally | None = None
    ) -> Generator[Batch, None, tuple[Tally, Joined]]:
        """The batches of the next unit of the file as a whole read gives them, each with the
        counts it adds to the file's; then the unit's counts and what the units after it need.
        ``whole`` gets the counts of each part before its batch is given."""
        long_line = self.long_line
        read, tally = Tally(), Tally()  # the unit's so far: as its worker counts, as a whole read does
        errors = warnings = 0  # the long lines a whole read does not report
        ended = False
        for _, batch, last in parts:
            if unit.kind == "text":
                batch, long_lines = batch.without("long-line")
                for event in long_lines:
                    if long_line is None and event.line is not None:
                        line = self.lines + event.line
                        long_line = event._replace(detail=long_line_detail(line), line=line)
                    elif event.lost_input:  # a whole read reports a text's first only
                        errors += 1
                    else:
                        warnings += 1
            read.add(batch.tally)
            counted = self._counted(unit, read, errors, warnings)
            adds = counted.since(tally)
            if whole is not None:
                whole.add(adds)
            tally, ended = counted, last
            yield replace(batch.shifted(self.messages, self.lines, self.characters), tally=adds)
        if not ended:
            raise RuntimeError(f"the pieces of {unit.path} ended before its last")
        if unit.last and long_line is not None:
            yield batch_of([long_line])
        after = Joined(
            # An mbox's messages go on from its messages, a JSON-lines file's from its lines.
            self.messages + tally.messages * (unit.kind == "mbox") + tally.lines * (unit.kind == "jsonl"),
            self.lines + tally.lines * (unit.kind == "text"),
            self.characters + tally.characters * (unit.kind == "text"),
            self.failed or bool(tally.files_failed),
            long_line,
        )
        return tally, after

    def _counted(self, unit: Unit, read: Tally, errors: int, warnings: int) -> Tally:
        """The counts of a unit read so far (``read``, as its worker counted them) as a whole read
        counts them: the file counted once, by its first unit; failed once, by the first unit
        that failed; the long lines it does not report (``errors``, ``warnings``) left out."""
        tally = replace(read, files=int(unit.start == 0))
        tally.errors -= errors
        tally.warnings -= warnings
        failed = self.failed or bool(tally.files_failed)
        tally.files_failed = int(failed and not self.failed)
        if unit.kind == "text" and unit.start:
            tally.parts -= 1  # a text is one part, however many pieces
        return tally
