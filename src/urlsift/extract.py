"""text -> Iterator[Match]: scan, rejoin, validate, rank the readings, say where each URL is.

The one module that knows all three stages. Lazy: a match is built only when asked for, and
nothing is kept from one match to the next but a line counter and a bounded verdict cache (the same
list footer URL recurs in every message of an archive).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from itertools import accumulate
from types import MappingProxyType, ModuleType
from typing import Any, get_args

from . import _select
from ._iana import IANA_PERMANENT_SCHEMES
from ._lines import Lines
from ._model import (
    WWW_STANDS_FOR,
    Candidate,
    Caveat,
    CaveatKind,
    Match,
    Problem,
    Reading,
    Span,
    Unclosed,
    Verdict,
    Wrapper,
    make_match,
)
from .grammar import STRICT, Profile, _rendered, get_profile
from .rejoin import as_written, first_reading, readings
from .scanner import (
    HIERARCHICAL_SCHEMES,
    KNOWN_SCHEMES,
    MAX_WRAPPER_CHARS,
    MAX_WRAPPER_LINES,
    Scanner,
    ScanProgress,
    scanner_for,
)
from .shapes import OPAQUE_SHAPED_SCHEMES, empty_scheme_part, opaque_shape
from .validate import validate, validate_www


def _verdict(url: str, judge: Profile, naked: bool) -> Verdict:
    """The verdict on a URL found in text: ``validate``'s, less the shapes no URL in text has."""
    return _in_text(validate(url, judge), naked)


def _verdict_unclosed(url: str, judge: Profile, why: Unclosed) -> Verdict:
    """The verdict on a wrapper never closed (D21), which holds ``url``."""
    return _unterminated(validate(url, judge), why)


_judge = lru_cache(maxsize=4096)(_verdict)
"""Verdicts are immutable, so one may serve every occurrence of a URL."""
_judge_www = lru_cache(maxsize=1024)(validate_www)
_judge_unclosed = lru_cache(maxsize=256)(_verdict_unclosed)
"""A text of unclosed wrappers ("<URL:<URL:...") holds the same few bodies over and over."""


class Extraction:
    """One extraction: over a whole text (``extract``), or over the windows of a text too big to
    hold (``extract_stream``), which must come in order and overlap as ``Scanner.scan`` says."""

    def __init__(
        self,
        *,
        profile: Profile | str = STRICT,
        naked: bool = True,
        invalid: bool = False,
        schemes: Iterable[str] = KNOWN_SCHEMES,
        pipermail: bool = False,
    ) -> None:
        self.judge = get_profile(profile)
        schemes = schemes if isinstance(schemes, frozenset) else frozenset(schemes)
        self.scanner = scanner_for(naked, schemes, naked and self.judge.scheme_less_www, pipermail)
        self.invalid = invalid
        self._lines = Lines("")
        self._native: Any = None  # the native core's extractor of these options, made when first used

    def window(
        self, text: str, start: int, stop: int, *, base: int, dropped: int, progress: ScanProgress
    ) -> Iterator[Match]:
        """The matches whose trigger lies in ``text[start:stop]``; ``text[0]`` is at ``base`` in the
        whole text and ``dropped`` characters left the front since the previous window."""
        self._lines.rebase(text, dropped)
        native = _select.native()
        found = None
        if native is not None:
            found = self._extractor(native).extract(text, start, stop, base == 0, self._lines.state())
        if found is not None:
            matches = self._counted(_native_matches(self.judge, found, self.invalid), found, progress)
        else:
            candidates = self.scanner.scan(text, start, stop, text_start=base == 0, progress=progress)
            matches = _matches(text, self.judge, candidates, self.invalid, self._lines)
        return _shifted(matches, base) if base else matches

    def whole(self, text: str) -> Iterator[Match]:
        """The matches of all of ``text``. Keeps no state between calls (unlike ``window``): one
        Extraction may serve many texts, even interleaved."""
        native = _select.native()
        if native is not None:
            found = self._extractor(native).extract(text)
            if found is not None:
                return _native_matches(self.judge, found, self.invalid)
        return _matches(text, self.judge, self.scanner.scan(text), self.invalid, Lines(text))

    def _counted(self, matches: Iterator[Match], items: Any, progress: ScanProgress) -> Iterator[Match]:
        """``matches``, then the line count taken on from where the native extractor left it, and
        where the next window's scan must start (known once its candidates are all scanned)."""
        yield from matches
        self._lines.restore(items.lines)
        progress.resume = items.resume

    def _extractor(self, native: ModuleType) -> Any:
        """The native core's extractor (issue 31): the scanner's options, and how this profile
        judges, as data; the grammar is the profile's own compiled one."""
        if self._native is None:
            scanner: Scanner = self.scanner
            options = (
                scanner.naked,
                sorted(scanner.schemes),
                sorted(HIERARCHICAL_SCHEMES),
                sorted(IANA_PERMANENT_SCHEMES),
                scanner.www,
                scanner.pipermail,
            )
            self._native = native.Extractor(
                options,
                self.invalid,
                self.judge.native,
                _judge_plan(self.judge),
                get_args(Wrapper),
                make_match,
                partial(_judge_deferred, self.judge),
            )
        return self._native


@lru_cache(maxsize=32)
def _extraction_for(
    profile: Profile | str, naked: bool, invalid: bool, schemes: frozenset[str], pipermail: bool = False
) -> Extraction:
    return Extraction(profile=profile, naked=naked, invalid=invalid, schemes=schemes, pipermail=pipermail)


def _shifted(matches: Iterator[Match], base: int) -> Iterator[Match]:
    """Positions in a window, made positions in the whole text."""
    for match in matches:
        span, pieces = match.span, match.pieces
        yield match._replace(
            span=(span[0] + base, span[1] + base), pieces=tuple((s + base, e + base) for s, e in pieces)
        )


def extract(
    text: str,
    *,
    profile: Profile | str = STRICT,
    naked: bool = True,
    invalid: bool = False,
    schemes: Iterable[str] = KNOWN_SCHEMES,
    pipermail: bool = False,
) -> Iterator[Match]:
    """The URLs of ``text``, in text order.

    ``naked=False`` keeps only delimited URLs (``<URL:...>``, ``<scheme:...>``, ``"scheme:..."``),
    as the appendix recommends. ``invalid=True`` also yields the rejected candidates: wrappers whose
    content fails validation or that were never closed (D21), and naked candidates that fail (D20),
    each with ``m.verdict.error`` saying why. ``schemes`` are the schemes a naked URL, a quoted URL or
    a bare ``<...>`` may use without ``//`` (``<URL:...>`` accepts any). ``pipermail=True`` says
    the text comes from a pipermail archive, where ``mailto:user at host`` stands for
    ``mailto:user@host`` (D32).
    """
    if not isinstance(text, str):
        raise TypeError(f"extract() takes str, not {type(text).__name__}: decode the bytes first")
    schemes = schemes if isinstance(schemes, frozenset) else frozenset(schemes)
    return _extraction_for(profile, naked, invalid, schemes, pipermail).whole(text)


_SEPARATOR = "\n\n\x00\n\n"
"""Between the texts of ``extract_each``: no wrapper crosses a blank line (D21), no naked or quoted
URL a line break (D19, D26), and the NUL stops a ``<`` followed by line breaks and a scheme."""


def extract_each(
    texts: Iterable[str],
    *,
    profile: Profile | str = STRICT,
    naked: bool = True,
    invalid: bool = False,
    schemes: Iterable[str] = KNOWN_SCHEMES,
    pipermail: bool = False,
) -> Iterator[tuple[int, Match]]:
    """(index into ``texts``, match) for the matches of each text, exactly as ``extract`` gives
    them for that text alone (spans, lines and columns in it), in order. ``texts``: a list of
    str, or any iterable of them (read at the call); one str is refused (``extract`` reads it).

    One scan over the texts joined by blank lines: for a message's headers and parts this costs
    half of one ``extract`` call each. A wrapper left open at the end of its text is reported as
    that, not as stopped by the blank line that joins it to the next."""
    if isinstance(texts, str):  # (a str is a sequence of one-character texts: not what is meant)
        raise TypeError("extract_each() takes a sequence of str, not one str: extract(text) reads one")
    try:
        held = texts if isinstance(texts, Sequence) else list(texts)
        joined = _SEPARATOR.join(held)
    except TypeError:
        raise TypeError("extract_each() takes a sequence of str: decode the bytes first") from None
    chosen = schemes if isinstance(schemes, frozenset) else frozenset(schemes)
    return _each(held, joined, _extraction_for(profile, naked, invalid, chosen, pipermail))


def _each(texts: Sequence[str], joined: str, extraction: Extraction) -> Iterator[tuple[int, Match]]:
    # Where each text starts in the joined one; its first line is counted when a match needs it.
    starts = [0, *accumulate(len(text) + len(_SEPARATOR) for text in texts)]
    counted, lines_before = 0, 0  # lines_before: the line breaks in joined[:starts[counted]]
    for match in extraction.whole(joined):
        k = bisect_right(starts, match.span[0]) - 1
        if k != counted:  # matches come in order: count on from the last text counted
            lines_before += joined.count("\n", starts[counted], starts[k])
            counted = k
        yield k, _within(match, starts[k], lines_before, texts[k])


def _within(match: Match, start: int, lines_before: int, text: str) -> Match:
    """A match of the joined text, as ``extract(text)`` gives it (``text`` starts at ``start``)."""
    url, alternatives, wrapper, span, pieces, line, column, verdict = match
    end = start + len(text)
    # A valid verdict has no error: not read, so a deferred one (the native core's) stays so.
    error = None if verdict.valid else verdict.error
    reason = error.reason if error is not None else None
    if reason is not None:
        # Alone, a wrapper still open when its text ends is stopped by that end (D21), before any
        # count of lines; joined, by the separator's blank line, or the line count at its break.
        # A blank line that starts after the text's last break is the separator's: only blanks (and
        # a quote prefix, D25) are left of the text after that break.
        at_end = span[1] == end
        at_last_break = reason is Unclosed.BLANK_LINE and start <= span[1] == start + text.rfind("\n")
        if at_end or at_last_break:
            span, verdict = (span[0], end), _unterminated(verdict, Unclosed.TEXT_ENDED)
    if start == 0 and verdict is match.verdict:
        return match
    if len(pieces) == 1:
        ((piece_start, piece_end),) = pieces
        pieces = ((piece_start - start, piece_end - start),)
    else:
        pieces = tuple((s - start, e - start) for s, e in pieces)
    span = (span[0] - start, span[1] - start)
    return make_match((url, alternatives, wrapper, span, pieces, line - lines_before, column, verdict))


def extract_urls(
    text: str,
    *,
    profile: Profile | str = STRICT,
    naked: bool = True,
    schemes: Iterable[str] = KNOWN_SCHEMES,
) -> list[str]:
    """The valid URLs of ``text``, as strings, in text order (the options are ``extract``'s)."""
    return [m.url for m in extract(text, profile=profile, naked=naked, schemes=schemes)]


def _matches(
    text: str, judge: Profile, candidates: Iterator[Candidate], invalid: bool, lines: Lines
) -> Iterator[Match]:
    for candidate in candidates:
        wrapper, span, body, skipped, problem, www, _ = candidate
        if problem is not None:
            if invalid:  # D21: rejected whatever it reads as; its first reading shows what it held
                reading = first_reading(text, candidate)
                verdict = _judge_unclosed(reading.url, judge, problem)
                yield _match(candidate, reading, (), verdict, lines)
            continue
        # The common case: no readings to build or rank. A naked URL ends at whitespace (D19), so
        # only a skipped " at " (D32) keeps it from being as written.
        naked = wrapper is None
        if not skipped:
            url = text[body[0] : body[1]]
            if naked or as_written(url):
                verdict = _judge_www(url, judge) if www else _judge(url, judge, naked)
                if verdict.valid or invalid:
                    line, column = lines.at(span[0])
                    yield make_match((verdict.url, (), wrapper, span, (body,), line, column, verdict))
                continue
        options = readings(text, candidate)
        verdicts = [_judge(option.url, judge, naked) for option in options]
        valid = [k for k, verdict in enumerate(verdicts) if verdict.valid]
        if valid:  # D24: the first valid reading (the most hyphens kept) is the URL
            alternatives = tuple(options[k].url for k in valid[1:])
            verdict = verdicts[valid[0]]
            if candidate.deobfuscated:
                verdict = _deobfuscated(verdict)
            yield _match(candidate, options[valid[0]], alternatives, verdict, lines)
        elif invalid:
            yield _match(candidate, options[0], (), verdicts[0], lines)


def _judge_plan(judge: Profile) -> tuple[Any, ...]:
    """How ``judge`` reads a URL, as the native extractor takes it: the scheme's rule, which
    production judges each scheme (D1: the generic one any other), the fragment's (D4), and D35's
    shapes (``opaque.IN_TEXT``, rendered as the grammar is; those of ``export.POSSESSIVE_ONLY`` stay
    with Python's engine, which judges the readings that need them), the patterns as
    ``grammar._rendered`` ships them. Nothing is restated here."""
    by_scheme, generic = judge.scheme_syntaxes()
    scheme_pattern = _rendered.SCHEMES[judge.name]
    shapes = _rendered.SHAPES
    productions = [(scheme, syntax.rule.name) for scheme, syntax in sorted(by_scheme.items())]
    return (
        scheme_pattern,
        productions,
        generic.rule.name,
        judge.fragment.rule.name,
        shapes,
        sorted(OPAQUE_SHAPED_SCHEMES),
        WWW_STANDS_FOR,
    )


# The kinds of verdict the native extractor's items name (rust/core/src/extract.rs `Verdict`).
_JUDGE, _WWW, _UNCLOSED, _DEOBFUSCATED = range(4)
_UNCLOSED_MEMBERS = tuple(Unclosed)

Undecided = tuple[
    str,
    tuple[str, ...],
    Wrapper | None,
    Span,
    tuple[Span, ...],
    int,
    int,
    None,
    int,
    int | None,
    list[tuple[str, tuple[Span, ...]]],
]
"""A candidate the native extractor left to Python's judge (it did not hold a production one of
its readings needs): a match's fields less the verdict, None, which verdict function judges the
readings, why a wrapper was not closed, and every reading."""


def _native_matches(judge: Profile, items: Iterator[Match | Undecided], invalid: bool) -> Iterator[Match]:
    """The native extractor's matches (their verdicts worked out when first read), with the
    candidates it left to Python judged and ranked here, as ``_matches`` does."""
    for item in items:
        if isinstance(item, Match):
            yield item
            continue
        url, alternatives, wrapper, span, pieces, line, column, _, kind, _, options = item
        naked = wrapper is None
        verdicts = [
            _judge_www(option, judge) if kind == _WWW else _judge(option, judge, naked)
            for option, _ in options
        ]
        ranked = [k for k, verdict in enumerate(verdicts) if verdict.valid]
        if ranked:  # D24: the first valid reading (the most hyphens kept) is the URL
            verdict = verdicts[ranked[0]]
            if kind == _DEOBFUSCATED:
                verdict = _deobfuscated(verdict)
            url, pieces = options[ranked[0]]
            alternatives = tuple(options[k][0] for k in ranked[1:])
            yield make_match((url, alternatives, wrapper, span, pieces, line, column, verdict))
        elif invalid:
            url, pieces = options[0]
            yield make_match((url, (), wrapper, span, pieces, line, column, verdicts[0]))


_DEFERRED = ("scheme", "parts", "error", "warnings")


class _DeferredVerdict(Verdict):
    """A verdict the native core decided: its ``url``, ``valid`` and ``profile`` known, the rest
    (parts, caveats, the explanation of a failure) worked out by Python's ``validate`` when first
    read, and kept. It reads, compares, pickles and ``replace``s as the plain ``Verdict`` it stands
    for (a pickled or replaced one is a plain one), so a URL found costs one object, not a walk of
    its grammar."""

    @classmethod
    def of(
        cls, judge: Profile, url: str, valid: bool, kind: int, naked: bool, why: int | None
    ) -> _DeferredVerdict:
        verdict = object.__new__(cls)
        how = (judge, kind, naked, why)
        object.__setattr__(
            verdict, "__dict__", {"url": url, "valid": valid, "profile": judge.name, "_how": how}
        )
        return verdict

    def _worked_out(self) -> Verdict:
        """The plain verdict, as the Python path makes it (the verdict caches shared)."""
        how = self.__dict__.pop("_how", None)
        if how is None:  # worked out already
            return Verdict(*(getattr(self, name) for name in _FIELDS))
        judge, kind, naked, why = how
        url = self.__dict__["url"]
        if kind == _WWW:
            plain = _judge_www(url, judge)
        elif kind == _UNCLOSED:
            plain = _judge_unclosed(url, judge, _UNCLOSED_MEMBERS[why])
        else:
            plain = _judge(url, judge, naked)
            if kind == _DEOBFUSCATED:
                plain = _deobfuscated(plain)
        self.__dict__.update(plain.__dict__)
        return plain

    def said_scheme(self) -> str | None:
        """The scheme of this valid verdict as ``validate`` gives it (the URL's up to its first colon,
        lower-cased; None for a "www." host's), with nothing else worked out: enough for the host
        columns of the URLs the core takes (``hosts.native_host_columns``)."""
        how = self.__dict__.get("_how")
        if how is None:  # worked out already
            scheme: str | None = self.__dict__["scheme"]
            return scheme
        return said_scheme(self.__dict__["url"], how[1])

    def __getattr__(self, name: str) -> Any:
        # Called only for what the instance's dict lacks: the fields not yet worked out.
        if name in _DEFERRED:
            return getattr(self._worked_out(), name)
        raise AttributeError(f"'Verdict' object has no attribute {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Verdict):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _FIELDS)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in _FIELDS))

    def __repr__(self) -> str:
        return repr(self._worked_out())


def said_scheme(url: str, kind: int) -> str | None:
    """The scheme ``validate`` gives a URL the native core found valid, judged as ``kind`` says
    (its items' kinds): the URL's up to its first colon, lower-cased; None for a "www." host's."""
    return None if kind == _WWW else url[: url.index(":")].lower()


_FIELDS = ("url", "valid", "scheme", "parts", "error", "warnings", "profile")

_judge_deferred = lru_cache(maxsize=4096)(_DeferredVerdict.of)
"""One deferred verdict may serve every occurrence of a URL, as ``_judge``'s verdicts do."""


def _match(
    candidate: Candidate, reading: Reading, alternatives: tuple[str, ...], verdict: Verdict, lines: Lines
) -> Match:
    line, column = lines.at(candidate.span[0])
    span, pieces = candidate.span, reading.pieces
    return make_match((reading.url, alternatives, candidate.wrapper, span, pieces, line, column, verdict))


def _deobfuscated(verdict: Verdict) -> Verdict:
    """D32: the caveat that the URL's "@" was pipermail's " at " in the text."""
    at = verdict.url.find("@")
    caveat = Caveat(CaveatKind.DEOBFUSCATED, at, "the address was written 'user at host' (pipermail)")
    return replace(verdict, warnings=(*verdict.warnings, caveat))


def _in_text(verdict: Verdict, naked: bool) -> Verdict:
    """A valid verdict, unless the URL has no shape a URL in text has: nothing after the scheme's
    colon (D33), or, naked, not its opaque scheme's shape (D35)."""
    if not verdict.valid:
        return verdict
    problem = empty_scheme_part(verdict.url) or (opaque_shape(verdict.url) if naked else None)
    if problem is None:
        return verdict
    return Verdict(verdict.url, False, verdict.scheme, MappingProxyType({}), problem, (), verdict.profile)


_LIMITS = {Unclosed.TOO_LONG: MAX_WRAPPER_CHARS, Unclosed.TOO_MANY_LINES: MAX_WRAPPER_LINES}


def _unterminated(verdict: Verdict, why: Unclosed) -> Verdict:
    """D21: whatever the body reads as, a wrapper never closed is no URL."""
    said = why.value.format(limit=_LIMITS.get(why))
    problem = Problem(len(verdict.url), "wrapper", f"unterminated wrapper: {said} (appendix)", why)
    return Verdict(verdict.url, False, verdict.scheme, MappingProxyType({}), problem, (), verdict.profile)
