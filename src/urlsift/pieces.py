"""The results of units of work (``units.plan``), put back together as the results of files: a
file read in pieces (an mbox or a text in byte ranges, an archive in groups of members) gives the
events and counts that one read of the whole file gives. A unit's results come in pieces of a
few rows (``results.unit_pieces``) and are handed on as they come."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass, replace

from .rows import Before, Event, FileEvents, Piece, Report, Row, Tally
from .sources import long_line as long_line_detail
from .units import Unit

Done = tuple[Unit, Iterator[Piece]] | Report
"""A unit and its pieces as its worker sends them (``workers.in_order``), or a report between units."""


def in_files(done: Iterator[Done]) -> Iterator[tuple[str, Iterator[Event], Tally] | Report]:
    """The results of units, in order, as the results of files: each file's events and tally, its
    pieces joined (``join_pieces``); reports between units are passed on. A file's events must be
    read before the next file is asked for (they are read from ``done`` as they are needed); its
    tally counts each piece as its events are given (a reader stopped in the middle, by Ctrl-C,
    has the counts of what it was given), and is whole when they all have been."""
    for item in done:
        if isinstance(item, Report):
            yield item
            continue
        unit, pieces = item
        if unit.kind == "files":
            for path, events, counts, last in pieces:  # a file's first piece
                whole = Tally()
                rest = _file_events(path, (path, events, counts, last), pieces, whole)
                yield path, rest, whole
                for _ in rest:  # a reader that stopped early: the rest of the file is skipped
                    pass
            continue
        whole = Tally()
        joined = join_pieces(unit, pieces, done, whole)
        yield unit.path, joined, whole
        for _ in joined:  # a reader that stopped early: the file's other pieces are skipped
            pass


def _file_events(path: str, first: Piece, more: Iterator[Piece], whole: Tally) -> Iterator[Event]:
    """The events of a whole file, from its ``first`` piece on; ``whole`` gets each piece's counts."""
    piece: Piece | None = first
    while True:
        if piece is None or piece[0] != path:
            raise RuntimeError(f"the pieces of {path} ended before its last")
        _, events, counts, last = piece
        whole.add(counts)  # before its rows are printed: Ctrl-C may come just after them
        yield from events
        if last:
            return
        piece = next(more, None)


def join_pieces(first: Unit, pieces: Iterator[Piece], more: Iterator[Done], tally: Tally) -> Iterator[Event]:
    """The events of a file read in pieces, as one read of the whole file gives them: from ``first``
    and its ``pieces``, then the units taken from ``more`` up to the file's last (``Joined`` says
    how). ``tally`` gets the counts of each piece as its events are given."""
    unit, joined = first, Joined()
    while True:
        _, joined = yield from joined.events(unit, pieces, tally)
        if unit.last:
            return
        following = next(more)
        if isinstance(following, Report):  # a file's pieces come one after the other
            raise RuntimeError(f"a report came between the pieces of {unit.path}")
        unit, pieces = following


@dataclass(frozen=True)
class Joined:
    """What the pieces of a file read so far say to the ones after them: an mbox's messages and a
    text's lines (numbers go on from them), whether the file failed, and a text's first overlong
    line (a whole read reports it once, at the text's end)."""

    messages: int = 0
    lines: int = 0
    characters: int = 0
    failed: bool = False
    long_line: Report | None = None

    def piece(self, unit: Unit, found: FileEvents) -> tuple[list[Event], Tally, Joined]:
        """What ``events`` gives, of a unit's results held whole (a Dask cluster's, ``dask.scan``)."""
        events: list[Event] = []
        joining = self.events(unit, iter([(*found, True)]))
        while True:
            try:
                events.append(next(joining))
            except StopIteration as end:
                tally, after = end.value
                return events, tally, after

    def events(
        self, unit: Unit, pieces: Iterable[Piece], whole: Tally | None = None
    ) -> Generator[Event, None, tuple[Tally, Joined]]:
        """The events of the next unit of the file as a whole read gives them; then its counts
        and what the units after it need. ``whole`` gets the counts of each piece (``_counted``)
        before its events are given."""
        long_line = self.long_line
        read, tally = Tally(), Tally()  # the unit's so far: as its worker counts, as a whole read does
        errors = warnings = 0  # the long lines a whole read does not report
        ended = False
        for _, raw, counts, last in pieces:
            given: list[Event] = []
            for event in raw:
                if unit.kind == "text" and isinstance(event, Report) and event.kind == "long-line":
                    if long_line is None and event.line is not None:
                        line = self.lines + event.line
                        long_line = event._replace(detail=long_line_detail(line), line=line)
                    elif event.lost_input:  # a whole read reports a text's first only
                        errors += 1
                    else:
                        warnings += 1
                    continue
                given.append(self._renumbered(event))
            read.add(counts)
            counted = self._counted(unit, read, errors, warnings)
            if whole is not None:
                whole.add(counted.since(tally))
            tally, ended = counted, last
            yield from given
        if not ended:
            raise RuntimeError(f"the pieces of {unit.path} ended before its last")
        if unit.last and long_line is not None:
            yield long_line
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

    def _renumbered(self, event: Event) -> Event:
        """An event of a piece, numbered as in the whole file: its message's index goes on from
        the earlier pieces' messages, a plain text's line and offsets from their lines and
        characters."""
        messages, lines, characters = self.messages, self.lines, self.characters
        if isinstance(event, Report):
            if not messages or event.message is None:
                return event
            number = event.message + messages
            return event._replace(place=f"{event.place[: event.place.rindex('#')]}#{number}", message=number)
        if isinstance(event, Row):
            if event.message is not None:
                return event._replace(message=event.message + messages) if messages else event
            if not lines and not characters:
                return event
            start, end = event.start + characters, event.end + characters  # a plain text's row
            return event._replace(line=event.line + lines, start=start, end=end)
        if not (messages or lines or characters):
            return event
        return event.renumbered(Before(messages, lines, characters))
