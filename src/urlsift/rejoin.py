"""Candidate -> readings: the appendix's paragraphs on URLs broken across lines, in its order.

1. "the identifier would be placed within the brackets as well": the fragment is part of the body
   already; nothing to do but keep it (D4).
2. "extra whitespace (spaces, linebreaks, tabs, etc.) ... should be ignored" (D23), and the quote
   prefixes of continuation lines the scanner found (D25): the URL is the body less both.
3. "a line break immediately after a hyphen ... the hyphen may or may not actually be part of the
   URL" (D24): every combination of keeping and dropping such hyphens is a reading, all kept first.

Each reading carries the exact slices of the text it is made of. No validation here: ``extract``
ranks the readings by their verdicts.
"""

from __future__ import annotations

import itertools
import re
from functools import partial

from ._model import Candidate, Reading, Span

MAX_HYPHEN_BREAKS = 4
"""D24 asks for every combination (2**n readings); past this many hyphen breaks in one URL only the
all-kept and all-dropped readings are built, so a crafted wrapper cannot ask for 2**n validations."""

# D23: every Unicode whitespace character (str.isspace), U+00A0 NO-BREAK SPACE included.
_NOT_SPACE = re.compile(r"\S+")
_SPACE = re.compile(r"\s")


def pieces(text: str, candidate: Candidate) -> tuple[Span, ...]:
    """Paragraph 2: the runs of non-whitespace of the body, quote prefixes left out."""
    start, end = candidate.body
    if not candidate.skipped:
        return _runs(text, start, end)
    found: list[Span] = []
    for skip_start, skip_end in (*candidate.skipped, (end, end)):
        found.extend(_runs(text, start, skip_start))
        start = skip_end
    return tuple(found)


def _runs(text: str, start: int, end: int) -> tuple[Span, ...]:
    """The runs of non-whitespace of ``text[start:end]``."""
    if _SPACE.search(text, start, end) is None:
        return ((start, end),) if end > start else ()  # the common case: the body as it stands
    found: list[Span] = []
    while (run := _NOT_SPACE.search(text, start, end)) is not None:  # no finditer: most are 1 or 2
        found.append(run.span())
        start = run.end()
    return tuple(found)


def hyphen_breaks(text: str, runs: tuple[Span, ...], body_end: int | None = None) -> tuple[int, ...]:
    """Paragraph 3 (D24): indexes of the runs that end with "-" where a line break follows (spaces
    and tabs before the break are "whitespace around the line break"; a quote prefix after it is
    no URL text either). The last run counts too when a line break comes between it and
    ``body_end``, the closing ``>``: the line may have been broken right before the bracket."""
    ends = [start for start, _ in runs[1:]]
    if runs and body_end is not None:
        ends.append(body_end)
    return tuple(
        k
        for k, ((_, end), after) in enumerate(zip(runs, ends, strict=False))
        if text[end - 1] == "-" and ("\n" in text[end:after] or "\r" in text[end:after])
    )


def as_written(body: str) -> bool:
    """True when a body that skips no quote prefix is the URL as it stands (not empty, no
    whitespace): the common case, which ``extract`` takes without building readings."""
    # str.split splits at D23's whitespace (str.isspace, as _SPACE), and on a URL of mail's
    # length in two thirds of a search's time.
    return body.split() == [body]


def readings(text: str, candidate: Candidate) -> tuple[Reading, ...]:
    """Every reading of the candidate, the one that keeps every hyphen first (D24)."""
    runs = pieces(text, candidate)
    if candidate.deobfuscated:  # D32: the skipped " at " stands for "@"
        before = candidate.skipped[0][0]
        head = [run for run in runs if run[1] <= before]
        tail = runs[len(head) :]
        url = "".join(text[s:e] for s, e in head) + "@" + "".join(text[s:e] for s, e in tail)
        return (Reading(url, runs),)
    breaks = hyphen_breaks(text, runs, candidate.body[1] if candidate.wrapper is not None else None)
    if not breaks:
        return (_reading(text, runs),)
    if len(breaks) > MAX_HYPHEN_BREAKS:
        choices: list[tuple[int, ...]] = [(), breaks]
    else:
        choices = [c for n in range(len(breaks) + 1) for c in itertools.combinations(breaks, n)]
    out = []
    for dropped in choices:
        kept = [(s, e - 1) if k in dropped else (s, e) for k, (s, e) in enumerate(runs)]
        out.append(_reading(text, tuple(span for span in kept if span[1] > span[0])))
    return tuple(out)


def first_reading(text: str, candidate: Candidate) -> Reading:
    """``readings(text, candidate)[0]``, without building the others (a wrapper never closed shows
    only what it held)."""
    if candidate.deobfuscated:
        return readings(text, candidate)[0]
    return _reading(text, pieces(text, candidate))


_make_reading = partial(tuple.__new__, Reading)
"""``Reading(url, pieces)`` less its Python ``__new__``: a soup of unclosed wrappers ("<URL:<URL:")
builds one a candidate."""


def _reading(text: str, runs: tuple[Span, ...]) -> Reading:
    return _make_reading(("".join([text[s:e] for s, e in runs]), runs))
