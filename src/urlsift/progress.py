"""The progress bar on standard error (tqdm): bytes read, messages, rate, and time left when the
total is known. Shown only on a terminal; messages printed while it runs go above it."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from .rows import Tally
from .sources import Counter

if TYPE_CHECKING:
    from tqdm import tqdm

T = TypeVar("T")
_EVERY = 0.2  # seconds between redraws while one file is read


class Progress:
    def __init__(self, total: int | None, *, enabled: bool) -> None:
        self._bar = _bar(total) if enabled else None
        self._bytes = 0  # of the files done
        self._messages = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """The bar's line cleared (a line printed after this starts at the left margin)."""
        if self._bar is not None:
            self._bar.refresh()  # the last state, even when it came faster than the redraw interval
            self._bar.close()
            self._bar = None

    def say(self, line: str) -> None:
        """Print a line on standard error (above the bar), standard output flushed first."""
        sys.stdout.flush()
        if self._bar is None:
            print(line, file=sys.stderr)
        else:
            self._bar.write(line, file=sys.stderr)

    def watch(self, events: Iterable[T], counter: Counter, tally: Tally) -> Iterable[T]:
        """``events`` of the file being read here, the bar moved on as its counts grow (with no bar:
        ``events`` themselves, one layer fewer for each of them to come through)."""
        return events if self._bar is None else self._watched(events, counter, tally)

    def _watched(self, events: Iterable[T], counter: Counter, tally: Tally) -> Iterator[T]:
        assert self._bar is not None
        start, last = counter.bytes, time.monotonic()
        for event in events:
            now = time.monotonic()
            if now - last > _EVERY:
                last = now
                self._show(self._bytes + counter.bytes - start, self._messages + tally.messages)
            yield event

    def done(self, tally: Tally) -> None:
        """One file is done (here or in a worker): the bar counts its bytes and messages."""
        self._bytes += tally.bytes
        self._messages += tally.messages
        self._show(self._bytes, self._messages)

    def _show(self, done: int, messages: int) -> None:
        if self._bar is not None:
            self._bar.update(done - self._bar.n)
            self._bar.set_postfix_str(f"{messages:,} messages", refresh=False)


def _bar(total: int | None) -> tqdm[Any]:
    from tqdm import tqdm  # a tenth of the start-up, for a bar shown only on a terminal

    # Powers of 1000, so that "M" means mega as in --max-expand's sizes (with 1024, tqdm wrote MiB as "M").
    return tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1000, file=sys.stderr, leave=False)
