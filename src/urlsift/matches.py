"""Messages -> the matches of their texts (``extract_each``), with each text's index: their flowed
parts unflowed first (D31), the header values that every message of a list archive repeats
(List-Unsubscribe, List-Archive, List-Post: most of an archive's matches) not scanned again, and
the texts of many small messages scanned in one call (its cost, a few µs, paid once for them)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

from ._lines import Lines
from ._model import Match, MessageText
from .extract import extract_each
from .flowed import Unflowed, original, unflow
from .rows import Options


def extraction(options: Options) -> dict[str, Any]:
    """``extract``'s arguments for ``options`` (every candidate: the rows decide what to keep)."""
    return {"profile": options.profile, "naked": options.naked, "invalid": True, "schemes": options.schemes}


BATCH_WEIGHT = 1 << 16
"""The most ``weight`` that one scan of messages holds the matches of (``Matcher.batch``): a
message of more is scanned alone, its matches given as they are found (a message of a million
candidates is never held as a million matches)."""


def weight(message: MessageText) -> int:
    """What a message weighs in a batch: its texts' characters, and a little for each text, each
    report (a batch holds its messages' reports too) and the message itself, so that a run of
    empty messages, parts or damaged headers is bounded too."""
    return sum(map(len, message.texts)) + 16 * len(message.texts) + 256 * (1 + len(message.defects))


_HEADER_MATCHES: dict[tuple[Any, ...], dict[str, tuple[Match, ...]]] = {}
"""The matches of recent header values, the least recently used forgotten first: every message of
a list archive repeats the same List-Unsubscribe, List-Archive and List-Post, and their matches are
most of an archive's. One cache for each set of ``extract_each``'s arguments (only they change a
match: not ``context`` or ``max_message``), the least recently used set forgotten first."""
_HEADER_CACHE_SIZE = 1024
_HEADER_CACHES = 8
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
        """The matches of one message's texts: ``batch``'s when some of its header values are
        looked up in the cache; else, and for a message heavier than a batch (beside its parts its
        header values cost nothing to scan again), those of one lazy scan, with no layer between."""
        if weight(message) <= BATCH_WEIGHT and any(map(_worth_remembering, message.texts[: message.headers])):
            return iter(self.batch([message])[0])
        texts, unflowed = _unflowed(message)
        found = extract_each(texts, **self._setup(message.pipermail).arguments)
        return _originals(found, message, unflowed) if unflowed else found

    def batch(self, messages: Sequence[MessageText]) -> list[list[tuple[int, Match]]]:
        """The matches of each of ``messages`` (all of one ``pipermail``, of ``BATCH_WEIGHT`` in
        all at most), exactly as ``extract_each`` over that message's texts alone gives them, from
        one scan of all their texts but the header values whose matches are known."""
        arguments, cache = self._setup(messages[0].pipermail)
        plans = [_plan(message, cache) for message in messages]
        texts = [text for plan in plans for text in plan.texts]
        owners = [(j, k) for j, plan in enumerate(plans) for k in range(len(plan.texts))]
        found: list[list[tuple[int, Match]]] = [[] for _ in messages]
        for i, match in extract_each(texts, **arguments):
            j, k = owners[i]
            found[j].append((k, match))
        return [plan.finish(matches, cache) for plan, matches in zip(plans, found, strict=True)]

    def _setup(self, pipermail: bool) -> _Setup:
        setup = self._setups.get(pipermail)
        if setup is None:
            arguments = {**extraction(self.options), "pipermail": pipermail}
            setup = self._setups[pipermail] = _Setup(arguments, _header_cache(arguments))
        return setup


def _header_cache(arguments: dict[str, Any]) -> dict[str, tuple[Match, ...]]:
    """The header values' matches for ``extract_each``'s ``arguments``, now the most recently used."""
    key = tuple(sorted(arguments.items()))
    cache = _HEADER_MATCHES.pop(key, None)
    if cache is None:
        cache = {}
        while len(_HEADER_MATCHES) >= _HEADER_CACHES:
            del _HEADER_MATCHES[next(iter(_HEADER_MATCHES))]
    _HEADER_MATCHES[key] = cache
    return cache


class _Setup(NamedTuple):
    arguments: dict[str, Any]
    """``extract_each``'s."""
    cache: dict[str, tuple[Match, ...]]
    """The header values' matches (``_HEADER_MATCHES``'s, for these arguments)."""


def matches(message: MessageText, options: Options) -> Iterator[tuple[int, Match]]:
    """The matches of one message's texts (``Matcher``'s, for many messages)."""
    return Matcher(options)(message)


def _unflowed(message: MessageText) -> tuple[list[str], dict[int, Unflowed]]:
    """The message's texts to scan, its flowed parts unflowed (D31), and those of them in which
    some lines were joined."""
    if not message.flowed:
        return message.texts, {}
    flowed = {k: unflow(message.texts[k], delsp) for k, delsp in message.flowed.items()}
    unflowed = {k: found for k, found in flowed.items() if len(found.segments) > 1}  # some joined
    if not unflowed:
        return message.texts, {}
    return [unflowed[k].text if k in unflowed else text for k, text in enumerate(message.texts)], unflowed


def _originals(
    found: Iterable[tuple[int, Match]], message: MessageText, unflowed: dict[int, Unflowed]
) -> Iterator[tuple[int, Match]]:
    """The matches of a message some of whose flowed parts were joined, placed in the texts read."""
    lines = {k: Lines(message.texts[k]) for k in unflowed}
    for k, match in found:
        yield k, (original(match, unflowed[k], message.texts[k], lines[k]) if k in unflowed else match)


_text_index = itemgetter(0)


class _Plan(NamedTuple):
    """What ``Matcher.batch`` scans of a message, and what it does with the matches found."""

    message: MessageText
    texts: list[str]
    """To scan: the flowed parts unflowed, the header values ``known`` left out as empty texts
    (so that each text keeps its index)."""
    known: dict[int, tuple[Match, ...]]
    """The matches of the header values found in the cache."""
    to_remember: list[int]
    """The header values to keep in the cache, with their matches, once found."""
    unflowed: dict[int, Unflowed]

    def finish(
        self, found: list[tuple[int, Match]], cache: dict[str, tuple[Match, ...]]
    ) -> list[tuple[int, Match]]:
        """The message's matches, in order, from those ``found`` in its ``texts``."""
        if self.to_remember:
            _remember(cache, self.message.texts, self.to_remember, found)
        if self.known:  # put in their places: a stable sort by text keeps each text's in order
            found += ((k, match) for k, hits in self.known.items() for match in hits)
            found.sort(key=_text_index)
        return list(_originals(found, self.message, self.unflowed)) if self.unflowed else found


def _plan(message: MessageText, cache: dict[str, tuple[Match, ...]]) -> _Plan:
    """What to scan of ``message``, its header values found in ``cache`` (now the most recently
    used) left out."""
    texts, unflowed = _unflowed(message)
    cacheable = [k for k in range(message.headers) if _worth_remembering(texts[k])]
    known: dict[int, tuple[Match, ...]] = {}
    for k in cacheable:
        hit = cache.pop(texts[k], None)
        if hit is not None:
            known[k] = cache[texts[k]] = hit  # now the most recently used
    if known:
        texts = ["" if k in known else text for k, text in enumerate(texts)]
    return _Plan(message, texts, known, [k for k in cacheable if k not in known], unflowed)


def _remember(
    cache: dict[str, tuple[Match, ...]], texts: list[str], headers: list[int], found: list[tuple[int, Match]]
) -> None:
    """Keep the matches (none, often) of the header values ``headers`` just scanned, the least
    recently used forgotten (a dict keeps its keys in the order they were last put in)."""
    hits: dict[int, list[Match]] = {k: [] for k in headers}
    for k, match in found:
        if k > headers[-1]:  # the matches come in order: the rest are of later texts
            break
        if k in hits:
            hits[k].append(match)
    for k, matches in hits.items():
        cache[texts[k]] = tuple(matches)
        if len(cache) > _HEADER_CACHE_SIZE:
            del cache[next(iter(cache))]
