"""A message -> the matches of its texts (``extract_each``), with each text's index: its flowed
parts unflowed first (D31), and the header values that every message of a list archive repeats
(List-Unsubscribe, List-Archive, List-Post: most of an archive's matches) not scanned again."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from ._lines import Lines
from ._model import Match, MessageText
from .extract import extract_each
from .flowed import Unflowed, original, unflow
from .rows import Options


def extraction(options: Options) -> dict[str, Any]:
    """``extract``'s arguments for ``options`` (every candidate: the rows decide what to keep)."""
    return {"profile": options.profile, "naked": options.naked, "invalid": True, "schemes": options.schemes}


_HEADER_MATCHES: dict[tuple[Options, bool], dict[str, tuple[Match, ...]]] = {}
"""The matches of recent header values, the least recently used forgotten first: every message of
a list archive repeats the same List-Unsubscribe, List-Archive and List-Post, and their matches are
most of an archive's."""
_HEADER_CACHE_SIZE = 1024
_HEADER_CACHE_CHARS = 2048  # longer values (Received, DKIM-Signature) seldom recur


def _worth_remembering(value: str) -> bool:
    """Whether a header value is looked up and kept in the cache: the values a list repeats hold
    its ``<URL>``s. One with no ``<`` (Date, Subject, User-Agent: most often its message's own)
    costs less to scan again than to remember, and would push the list's values out."""
    return "<" in value and len(value) <= _HEADER_CACHE_CHARS


class Matcher:
    """``matches`` for the messages of one ``Options`` (a file's, say): the extraction's arguments
    and the header cache are looked up once for them, not once a message."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self._setups: dict[bool, _Setup] = {}  # by whether the messages are pipermail's (D32)

    def __call__(self, message: MessageText) -> Iterator[tuple[int, Match]]:
        """``extract_each`` over the message's texts (its flowed parts unflowed, D31), with recurring
        header values not scanned again. Lazy: a message of a million candidates is never held as a
        million matches."""
        setup = self._setups.get(message.pipermail)
        if setup is None:
            setup = self._setups[message.pipermail] = _setup(self.options, message.pipermail)
        if message.flowed:
            flowed = {k: unflow(message.texts[k], delsp) for k, delsp in message.flowed.items()}
            unflowed = {k: found for k, found in flowed.items() if len(found.segments) > 1}  # some joined
            if unflowed:
                return _unflowed(message, unflowed, setup)
        return _scanned(message.texts, message.headers, setup)


class _Setup(NamedTuple):
    arguments: dict[str, Any]
    """``extract_each``'s."""
    cache: dict[str, tuple[Match, ...]]
    """The header values' matches (``_HEADER_MATCHES``'s, for these arguments)."""


def _setup(options: Options, pipermail: bool) -> _Setup:
    cache = _HEADER_MATCHES.setdefault((options, pipermail), {})
    return _Setup({**extraction(options), "pipermail": pipermail}, cache)


def matches(message: MessageText, options: Options) -> Iterator[tuple[int, Match]]:
    """The matches of one message's texts (``Matcher``'s, for many messages)."""
    return Matcher(options)(message)


def _unflowed(
    message: MessageText,
    unflowed: dict[int, Unflowed],
    setup: _Setup,
) -> Iterator[tuple[int, Match]]:
    """The matches of a message some of whose flowed parts were joined, placed in the texts read."""
    texts = [unflowed[k].text if k in unflowed else text for k, text in enumerate(message.texts)]
    lines = {k: Lines(message.texts[k]) for k in unflowed}
    for k, match in _scanned(texts, message.headers, setup):
        yield k, (original(match, unflowed[k], message.texts[k], lines[k]) if k in unflowed else match)


def _scanned(texts: list[str], headers: int, setup: _Setup) -> Iterator[tuple[int, Match]]:
    """The matches of ``texts`` (the first ``headers`` header values) in order: the header values'
    from the cache where they recur, the rest from one pass of ``extract_each`` over the texts not
    known."""
    cacheable = [k for k in range(headers) if _worth_remembering(texts[k])]
    if not cacheable:  # most small messages: the scan's own matches, with no layer between
        return extract_each(texts, **setup.arguments)
    cache = setup.cache
    known: dict[int, tuple[Match, ...]] = {}
    for k in cacheable:
        hit = cache.pop(texts[k], None)
        if hit is not None:
            known[k] = cache[texts[k]] = hit  # now the most recently used
    return _merged(texts, headers, known, [k for k in cacheable if k not in known], setup)


def _merged(
    texts: list[str],
    headers: int,
    known: dict[int, tuple[Match, ...]],
    to_remember: list[int],
    setup: _Setup,
) -> Iterator[tuple[int, Match]]:
    """The matches of the texts not ``known`` scanned, those of the ``known`` put in their places,
    and the matches of the header values ``to_remember`` remembered once they are all found."""
    arguments, cache = setup
    # The known ones left out as empty texts, so that each text keeps its index.
    scan = extract_each([("" if k in known else text) for k, text in enumerate(texts)], **arguments)
    fresh: dict[int, list[Match]] = {k: [] for k in to_remember}
    first_of_parts: tuple[int, Match] | None = None
    given = 0  # the texts before this one have all been given
    for k, match in scan:
        if k >= headers:  # the header values' matches are all found
            first_of_parts = k, match
            break
        if k in fresh:
            fresh[k].append(match)
        while given < k:  # the known texts before this one
            for cached in known.get(given, ()):
                yield given, cached
            given += 1
        yield k, match
    _remember(cache, texts, fresh)
    for k, hits in known.items():  # in order, as they were found
        if k >= given:
            for cached in hits:
                yield k, cached
    if first_of_parts is not None:
        yield first_of_parts
        yield from scan  # the parts' matches, as the scan gives them


def _remember(cache: dict[str, tuple[Match, ...]], texts: list[str], found: dict[int, list[Match]]) -> None:
    """Keep the matches (none, often) of the header values just scanned, the least recently used
    forgotten (a dict keeps its keys in the order they were last put in)."""
    for k, hits in found.items():
        cache[texts[k]] = tuple(hits)
        if len(cache) > _HEADER_CACHE_SIZE:
            del cache[next(iter(cache))]
