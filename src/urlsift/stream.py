"""A file object -> Iterator[Match], in windows of bounded size: a 20 GB text is never held whole.

Each window is scanned from where the previous one's scan stopped to ``LOOKAHEAD`` characters
before its end (so a wrapper, a quoted or a naked URL that starts in it lies in it whole), keeping
``LOOKBEHIND`` characters before that point; every match is found once, with the positions, line and
column it has in the whole text (``tests/scan/test_stream.py`` checks it against ``extract`` on the
joined text, cut at every size).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Iterator
from typing import IO

from ._model import Match
from .extract import Extraction
from .grammar import STRICT, Profile
from .scanner import KNOWN_SCHEMES, LOOKAHEAD, LOOKBEHIND, RESUME_SLACK, ScanProgress

CHUNK_CHARS = 1 << 20
_MIN_WINDOW = 4 * RESUME_SLACK  # each window moves the scan on by at least this much


def _chunks(file: IO[bytes] | IO[str], encoding: str, size: int) -> Callable[[], str]:
    """A reader of text chunks: ``""`` at the end. Bytes are decoded incrementally (a character
    cut by a chunk boundary is decoded whole); undecodable bytes become U+FFFD."""
    probe = file.read(0)
    if isinstance(probe, str):
        return lambda: file.read(size)  # type: ignore[return-value]
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    done = False

    def read() -> str:
        nonlocal done
        while not done:
            data = file.read(size)
            if not isinstance(data, bytes):
                raise TypeError(f"the file gave {type(data).__name__}, not bytes")
            text = decoder.decode(data, final=not data)
            done = not data
            if text:
                return text
        return ""

    return read


def extract_stream(
    file: IO[bytes] | IO[str],
    *,
    encoding: str = "utf-8",
    profile: Profile | str = STRICT,
    naked: bool = True,
    invalid: bool = False,
    schemes: Iterable[str] = KNOWN_SCHEMES,
    chunk_chars: int = CHUNK_CHARS,
) -> Iterator[Match]:
    """``extract`` over a binary or text file object, read in chunks of ``chunk_chars``: the same
    matches, spans, lines and columns as ``extract(file.read())``, in bounded memory. Not a file
    object: TypeError, at once (as ``extract`` and ``validate`` say it), not at the first match."""
    if not callable(getattr(file, "read", None)):
        raise TypeError(f"extract_stream() takes a file object, not {type(file).__name__}")
    extraction = Extraction(profile=profile, naked=naked, invalid=invalid, schemes=schemes)
    return _matches(extraction, _chunks(file, encoding, max(1, chunk_chars)), chunk_chars)


def _matches(extraction: Extraction, read: Callable[[], str], chunk_chars: int) -> Iterator[Match]:
    progress = ScanProgress()
    window = max(chunk_chars, _MIN_WINDOW)
    buffer, base, resume, dropped, ended = "", 0, 0, 0, False
    while True:
        parts = [buffer]
        held = len(buffer)
        while not ended and held - resume < window + LOOKAHEAD:
            chunk = read()
            ended = not chunk
            parts.append(chunk)
            held += len(chunk)
        buffer = "".join(parts)
        stop = len(buffer) if ended else len(buffer) - LOOKAHEAD
        yield from extraction.window(buffer, resume, stop, base=base, dropped=dropped, progress=progress)
        if ended:
            return
        resume = progress.resume
        dropped = max(0, resume - LOOKBEHIND)
        buffer, base, resume = buffer[dropped:], base + dropped, resume - dropped
