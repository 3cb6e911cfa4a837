"""A message -> the matches of its texts (``extract_each``), with each text's index: its flowed
parts unflowed first (D31), and the header values that every message of a list archive repeats
(List-Unsubscribe, List-Archive, List-Post: most of an archive's matches) not scanned again."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ._lines import Lines
from ._model import Match, MessageText
from .extract import extract_each
from .flowed import Unflowed, original, unflow
from .rows import Options


def extraction(options: Options) -> dict[str, Any]:
    """``extract``'s arguments for ``options`` (every candidate: the rows decide what to keep)."""
    return {"profile": options.profile, "naked": options.naked, "invalid": True, "schemes": options.schemes}


_HEADER_MATCHES: dict[tuple[Options, bool], dict[str, tuple[Match, ...]]] = {}
"""The matches of recent header values: every message of a list archive repeats the same
List-Unsubscribe, List-Archive and List-Post, and their matches are most of an archive's."""
_HEADER_CACHE_SIZE = 1024
_HEADER_CACHE_CHARS = 2048  # longer values (Received, DKIM-Signature) seldom recur


def matches(message: MessageText, options: Options) -> Iterator[tuple[int, Match]]:
    """``extract_each`` over the message's texts (its flowed parts unflowed, D31), with recurring
    header values not scanned again. Lazy: a message of a million candidates is never held as a
    million matches."""
    flowed = {k: unflow(message.texts[k], delsp) for k, delsp in (message.flowed or {}).items()}
    unflowed = {k: found for k, found in flowed.items() if len(found.segments) > 1}  # some joined
    if not unflowed:  # most messages: the scan's own matches, with no layer between
        return _scanned(message.texts, message, options)
    return _unflowed(message, unflowed, options)


def _unflowed(
    message: MessageText, unflowed: dict[int, Unflowed], options: Options
) -> Iterator[tuple[int, Match]]:
    """The matches of a message some of whose flowed parts were joined, placed in the texts read."""
    texts = [unflowed[k].text if k in unflowed else text for k, text in enumerate(message.texts)]
    lines = {k: Lines(message.texts[k]) for k in unflowed}
    for k, match in _scanned(texts, message, options):
        yield k, (original(match, unflowed[k], message.texts[k], lines[k]) if k in unflowed else match)


def _scanned(texts: list[str], message: MessageText, options: Options) -> Iterator[tuple[int, Match]]:
    """The matches of ``texts`` in order: the header values' from the cache where they recur, the
    rest from one pass of ``extract_each`` over the texts not known."""
    headers = message.headers
    arguments = {**extraction(options), "pipermail": message.pipermail}
    cache = _HEADER_MATCHES.get((options, message.pipermail))
    if cache is None:
        cache = _HEADER_MATCHES[options, message.pipermail] = {}
    known = {
        k: hit
        for k, text in enumerate(texts[:headers])
        if len(text) <= _HEADER_CACHE_CHARS and (hit := cache.get(text)) is not None
    }
    todo = [k for k in range(len(texts)) if k not in known] if known else range(len(texts))
    fresh: dict[int, list[Match]] = {}  # the header values' matches, to remember
    scanned_headers = [k for k in todo if k < headers]
    remembered = not scanned_headers
    given = 0  # the texts before this one have all been given
    for j, match in extract_each([texts[k] for k in todo] if known else texts, **arguments):
        k = todo[j]
        if k < headers:
            fresh.setdefault(k, []).append(match)
        elif not remembered:
            _remember(cache, texts, scanned_headers, fresh)
            remembered = True
        while given < k:  # the known texts before this one
            for cached in known.get(given, ()):
                yield given, cached
            given += 1
        yield k, match
    if not remembered:
        _remember(cache, texts, scanned_headers, fresh)
    for k, hits in known.items():  # in order, as they were found
        if k >= given:
            for cached in hits:
                yield k, cached


def _remember(
    cache: dict[str, tuple[Match, ...]],
    texts: list[str],
    scanned: Iterable[int],
    found: dict[int, list[Match]],
) -> None:
    """Keep the matches (none, often) of the header values just scanned, the oldest forgotten."""
    for k in scanned:
        if len(texts[k]) <= _HEADER_CACHE_CHARS:
            cache[texts[k]] = tuple(found.get(k, ()))
            if len(cache) > _HEADER_CACHE_SIZE:
                del cache[next(iter(cache))]
