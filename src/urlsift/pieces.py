"""The results of units of work (``units.plan``), put back together as the results of files: a
file read in pieces (an mbox or a text in byte ranges, an archive in groups of members) gives the
events and counts that one read of the whole file gives."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from .rows import Before, Event, FileEvents, Report, Row, Tally
from .sources import long_line as long_line_detail
from .units import Unit


def in_files(
    done: Iterator[tuple[Unit, list[FileEvents]] | Report],
) -> Iterator[tuple[str, Iterator[Event], Tally] | Report]:
    """The results of units, in order, as the results of files: each file's events and tally, its
    pieces joined (``join_pieces``); reports between units are passed on. A file's events must be
    read before the next file is asked for (its pieces are read from ``done`` as they are needed);
    its tally is whole when they have been."""
    for item in done:
        if isinstance(item, Report):
            yield item
            continue
        unit, found = item
        if unit.kind == "files":
            for path, events, tally in found:
                yield path, iter(events), tally
            continue
        tally = Tally()
        joined = join_pieces(unit, found[0], done, tally)
        yield unit.path, joined, tally
        for _ in joined:  # a reader that stopped early: the file's other pieces are skipped
            pass


def join_pieces(
    first: Unit, found: FileEvents, more: Iterator[tuple[Unit, list[FileEvents]] | Report], tally: Tally
) -> Iterator[Event]:
    """The events of a file read in pieces, as one read of the whole file gives them: from ``first``
    and ``found``, then the pieces taken from ``more`` up to the file's last (``Joined`` says how).
    ``tally`` gets the pieces' counts as they come."""
    unit, joined = first, Joined()
    while True:
        events, piece_tally, joined = joined.piece(unit, found)
        yield from events
        tally.add(piece_tally)
        if unit.last:
            return
        following = next(more)
        if isinstance(following, Report):  # a file's pieces come one after the other
            raise RuntimeError(f"a report came between the pieces of {unit.path}")
        unit, found = following[0], following[1][0]


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
        """The events of the next piece as a whole read gives them, its counts (the file counted
        once, by its first piece; failed once, by the first piece that failed), and what the
        pieces after it need."""
        _, raw, tally = found
        tally = replace(tally, files=int(unit.start == 0))
        failed = self.failed or bool(tally.files_failed)
        tally.files_failed = int(failed and not self.failed)
        long_line = self.long_line
        events: list[Event] = []
        for event in raw:
            if unit.kind == "text" and isinstance(event, Report) and event.kind == "long-line":
                if long_line is None and event.line is not None:
                    line = self.lines + event.line
                    long_line = event._replace(detail=long_line_detail(line), line=line)
                elif event.lost_input:  # a whole read reports a text's first only
                    tally.errors -= 1
                else:
                    tally.warnings -= 1
                continue
            events.append(self._renumbered(event))
        if unit.kind == "text" and unit.start:
            tally.parts -= 1  # a text is one part, however many pieces
        if unit.last and long_line is not None:
            events.append(long_line)
        after = Joined(
            # An mbox's messages go on from its messages, a JSON-lines file's from its lines.
            self.messages + tally.messages * (unit.kind == "mbox") + tally.lines * (unit.kind == "jsonl"),
            self.lines + tally.lines * (unit.kind == "text"),
            self.characters + tally.characters * (unit.kind == "text"),
            failed,
            long_line,
        )
        return events, tally, after

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
