"""text -> Iterator[Candidate]: the wrappers, quoted URLs and naked URLs of RFC 1738's appendix.

Three scanners, each woken by its own cheap trigger and each saying where its candidate starts and
ends; none judges a URL (that is ``validate``'s work after ``rejoin``):

- the wrapper scanner at ``<``: ``<URL:...>`` and bare ``<scheme:...>`` (D21, D22, D25);
- the quote scanner at ``"``: ``"scheme:..."`` on one line (D26);
- the naked scanner at ``:``: a URL in running text, from its scheme to whitespace, ``<``, ``>`` or
  ``"``, less trailing punctuation (D19), with an optional ``URL:`` prefix before it (D22);
- with ``www=True`` (the modern profile), the host scanner at ``www.``: a host name with no scheme
  (``see www.example.com/x.``), ended as a naked URL is.

The cursor only moves forward: text inside a taken wrapper is never offered to another scanner, an
unterminated wrapper gives the scan back right after its ``<`` (D21), and every search is bounded by
the next ``<``, the line or a fixed length, so the scan is linear in the text.

Triggers were chosen by measurement (``bench/extract_speed.py``): the stdlib engine finds a literal
first character at hundreds of MB/s, while an alternation of scheme names runs at a few MB/s, so
every trigger pattern starts with a literal and the scheme is checked after.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from functools import cached_property, lru_cache
from typing import Any, get_args

from . import _punctuation, _select
from ._iana import IANA_PERMANENT_SCHEMES
from ._lines import Lines
from ._model import Candidate, Span, Unclosed, Wrapper, make_candidate
from .grammar._chars import ALPHA, DIGIT, SCHEME, class_text
from .grammar.rfc1738 import SCHEME_RULES

# IANA-registered schemes seen in mail and news archives, beyond RFC 1738's ten.
_REGISTERED = (
    "https imap pop ldap ldaps nfs rtsp sip sips tel urn cid mid z39.50r z39.50s afs tn3270 rlogin "
    "snews irc ircs ssh sftp svn git rsync webcal xmpp ftps"
)
# Written with "//" after the colon by their specifications: a naked one is found by its "//".
_HIERARCHICAL = (
    "http https ftp ftps gopher nntp telnet wais file prospero imap pop ldap ldaps nfs rtsp afs "
    "tn3270 rlogin snews irc ircs ssh sftp svn git rsync webcal z39.50r z39.50s"
)
REGISTERED_SCHEMES: frozenset[str] = frozenset(_REGISTERED.split())
HIERARCHICAL_SCHEMES: frozenset[str] = frozenset(_HIERARCHICAL.split())
KNOWN_SCHEMES: frozenset[str] = frozenset(SCHEME_RULES) | REGISTERED_SCHEMES
"""Schemes a naked URL, a quoted URL or a bare ``<...>`` may use without ``//`` after the colon
(D22, D27). Pass ``schemes=`` to ``extract`` to use another set; ``<URL:...>`` accepts any scheme."""

MAX_WRAPPER_CHARS = 2048
"""D21: a wrapper whose ``>`` is further than this from its ``<`` is unterminated."""
MAX_WRAPPER_LINES = 8
"""D21: a wrapper may span at most this many lines."""
MAX_SCHEME_CHARS = 32
"""A naked URL's scheme is looked for this far back from its colon; longer runs are not schemes."""
MAX_NAKED_CHARS = 4096
"""A naked or quoted candidate longer than this is no URL (a megabyte of non-space is not one);
the scan goes on after its first MAX_NAKED_CHARS characters."""
PREFIX_REACH = 4096
"""D25: a wrapper's quote prefix is looked for only when the wrapper starts this close to the start
of its line (a prefix begins a line; a line of kilobytes before the "<" is no quoted mail line)."""
LOOKAHEAD = MAX_WRAPPER_CHARS + MAX_NAKED_CHARS + 256
"""How far past a trigger the scanner may read: a window that ends this far past ``stop`` gives
the same candidates as the whole text."""
LOOKBEHIND = PREFIX_REACH + 256
"""How far before ``start`` the scanner may read (schemes, ``URL:`` prefixes, quote prefixes)."""
BRACKET_REACH = 256
"""D34: how far before a naked URL an open ``[`` is looked for (on its line)."""
_PIPERMAIL_AT = " at "
"""D32: what pipermail writes for "@"."""
_DOMAIN_CHARS = frozenset(ALPHA + DIGIT + "-")
_NOT_IN_USER = frozenset(' \t\n@<>"')
RESUME_SLACK = 64
"""A naked URL's scheme and ``URL:`` prefix start at most this far before its colon."""

# D2's scheme characters; in running text a scheme must also start with a letter (as RFC 2396 says).
_SCHEME_CHARS = frozenset(SCHEME)
_SCHEME_CHAR_TEXT = "".join(sorted(_SCHEME_CHARS))
_LETTERS = frozenset(ALPHA)
_SUFFIX_AFTER = frozenset("-." + DIGIT)
_SCHEME_TEXT = f"[{class_text(ALPHA)}][{class_text(SCHEME)}]{{0,{MAX_SCHEME_CHARS - 1}}}"

# D22: "<" + optional whitespace (line breaks included) + a scheme or "URL" + ":". Bounded, so a
# "<" before a megabyte of spaces or letters costs a constant. D25 (a): the "<" may end a quoted
# line, the scheme following the next line's quote prefix (checked against the "<" line's own).
# Then the body's run up to the first "<", ">" or line break (possessive: never given back), so
# that the hit ends where the common cases are told apart (D21): closed by ">" on its line, or
# stopped there by a second "<".
_OPEN = re.compile(
    r"<(\s{0,64}(?:(?<=\n)[ \t]{0,8}(?:[>|:][ \t]{0,4}){1,16})?)(" + _SCHEME_TEXT + "):"
    f"[^<>\n]{{0,{MAX_WRAPPER_CHARS}}}+"
)
# D26: a quote mark right before a scheme.
_QUOTE = re.compile(r'"(' + _SCHEME_TEXT + "):")


def _non_ascii_punctuation() -> str:
    """The non-ASCII punctuation of the BMP as a regex class body: rendered beforehand for this
    Python's Unicode version (walking the BMP through ``unicodedata`` is most of a scanner's
    start), worked out here on another's."""
    if unicodedata.unidata_version == _punctuation.UNICODE:
        return _punctuation.BMP_PUNCTUATION
    from ._unicode_tables import bmp_punctuation

    return bmp_punctuation()


@lru_cache(maxsize=1)
def _naked_end() -> re.Pattern[str]:
    """D19: what ends a naked (or quoted) URL. Non-ASCII punctuation too, wherever it stands: no
    strict URL holds a non-ASCII character, and CJK text runs on after "。" without a space.
    D34: a backtick too (a Markdown code span; unsafe in RFC 1738, no RFC 3986 character).
    Built with the first Scanner, not at import."""
    return re.compile(r'[\s<>"`' + _non_ascii_punctuation() + "]")


# A "www." host name at the start of a word: not after a letter, digit or anything that would make
# it part of a URL, an address or a longer name ("http://www.", "user@www.", "ftp.www."). The hit
# is its "." (a literal first character: ~900 MB/s, where "[wW]{3}" first ran at ~50).
_WWW = re.compile(r"\.(?<=(?<![A-Za-z0-9_.@/:%+\-])[wW]{3}\.)(?=[^\W_])")
_WWW_BEFORE_DOT = 3
# D25: a mail or news quote prefix at the start of a line: runs of ">", "|", ":" with spaces.
_QUOTE_PREFIX = re.compile(r"[ \t]{0,8}(?:[>|:][ \t]{0,4}){1,16}")
# A line holding nothing but whitespace (LF not included), up to its line feed.
_MAX_QUOTE_DEPTH = 16  # as _QUOTE_PREFIX: deeper quoting than this is not taken for quoting
_BLANK_REST = re.compile(r"[^\S\n]*\n")
_URL_PREFIX_WORD = "url:"
# D19: dropped from the end of a naked URL, however many.
_TRAILING = frozenset(".,;:!?'")
_CLOSERS = {")": "(", "]": "["}


_NEVER = 1 << 62  # the position of a trigger that will not come again
_Found = tuple[Candidate | None, int]
_Handler = Callable[[str, "re.Match[str]", int, Lines], _Found]
"""(text, trigger hit, cursor, line starts) -> (a candidate or None, where the scan resumes: past
the hit)."""


def _either_case(chars: Iterable[str]) -> str:
    """A regex class body that holds each of ``chars`` in either case."""
    return "".join(c.lower() + c.upper() if c.isalpha() else re.escape(c) for c in chars)


def _naked_trigger(schemes: Iterable[str]) -> re.Pattern[str]:
    """The colon of ``scheme://``, or of an opaque known scheme followed by something that is not a
    space. One literal first character keeps the search fast; the fixed-width lookbehinds (one per
    scheme length) run only at colons, and only after a character that ends one of those schemes:
    most colons of mail ("Subject:", "12:30") fail at that one class (bench/extract_speed.py)."""
    opaque = sorted(set(schemes) - HIERARCHICAL_SCHEMES)
    by_length: dict[int, list[str]] = {}
    for scheme in opaque:
        by_length.setdefault(len(scheme), []).append("".join(f"[{_either_case(c)}]" for c in scheme))
    lookbehinds = "|".join(f"(?<=(?:{'|'.join(group)}):)" for group in by_length.values())
    ends = _either_case(sorted({scheme[-1].lower() for scheme in opaque}))
    known = rf"|(?<=[{ends}]:)(?=[^\s<>\"])(?:{lookbehinds})" if lookbehinds else ""
    return re.compile(r":(?://" + known + ")")


def _prefix_key(prefix: str) -> str:
    """D25: ">> ", "> > " and ">>" are the same prefix: compare the quote marks only."""
    return "".join(prefix.split())


def _after_prefix(text: str, pos: int, limit: int, key: str) -> int:
    """D25: the end of the quote prefix ``key`` at the start of the line at ``pos`` (spaces and tabs
    may sit before and between its marks), or ``pos`` when the line does not start with it. A
    deeper prefix (``>`` then ``>>``: a client re-wrapped quoted text) is stripped whole when URL
    text and a closing ``>`` follow it on its line; otherwise its first extra ``>`` may be the
    closing one (``> >0``)."""
    at = pos
    for mark in key:
        while at < limit and text[at] in " \t":
            at += 1
        if at >= limit or text[at] != mark:
            return pos
        at += 1
    deeper = at
    for _ in range(_MAX_QUOTE_DEPTH):
        while deeper < limit and text[deeper] in " \t":
            deeper += 1
        if deeper >= limit or text[deeper] != ">" or ">" not in key:  # ":" "|" may start URL text
            break
        deeper += 1
    else:
        return at  # deeper than any quoting: no prefix
    if deeper > at and deeper < limit and not text[deeper].isspace():
        line_end = text.find("\n", deeper, limit)
        if text.find(">", deeper, limit if line_end < 0 else line_end) >= 0:
            return deeper
    return at


def _bare_authority(text: str, colon: int, end: int) -> bool:
    """D27: ``scheme://`` and nothing more is a template (``imap://<iserver>/``) or a BNF literal
    (``"ldap://"``), never a URL, though the generic grammar would take ``//`` as a schemepart."""
    return end == colon + 3 and text.startswith("//", colon + 1)


def _trim_naked_end(text: str, start: int, end: int) -> int:
    """D19: drop trailing ``. , ; : ! ? '`` and non-ASCII punctuation, and a trailing ``)`` or ``]``
    while the URL has more of them than of their openers. Counts are kept, not recounted."""
    counts: dict[str, int] = {}
    while end > start:
        char = text[end - 1]
        if char in _TRAILING:
            end -= 1
        elif char in _CLOSERS:
            if char not in counts:
                counts[char] = text.count(char, start, end) - text.count(_CLOSERS[char], start, end)
            if counts[char] <= 0:
                break
            counts[char] -= 1
            end -= 1
        elif char > "\x7f" and unicodedata.category(char).startswith("P"):
            end -= 1
        else:
            break
    return end


def _open_bracket_before(text: str, start: int) -> bool:
    """D34: whether a ``[`` opened before ``start`` on its line (within BRACKET_REACH) is still
    open there: then the ``]`` that closes it ends the URL (Markdown's ``[text](url)``)."""
    reach = max(0, start - BRACKET_REACH)
    line_start = text.rfind("\n", reach, start) + 1 or reach
    depth = 0
    for at in range(start - 1, line_start - 1, -1):  # backwards: the innermost "[" decides
        char = text[at]
        if char == "]":
            depth += 1
        elif char == "[":
            if depth == 0:
                return True
            depth -= 1
    return False


def _pipermail_at(text: str, start: int, end: int) -> Span | None:
    """D32: where pipermail's " at " lies in ``text[start:end]`` when that is ``mailto:user at
    domain`` (a domain's letters, digits, hyphens and dots, maybe a ``?query``); else None."""
    at = text.find(_PIPERMAIL_AT, start, end)
    if at < 0 or text.find(_PIPERMAIL_AT, at + 1, end) >= 0:
        return None
    address = text[start:at]
    scheme, colon, user = address.partition(":")
    domain = text[at + len(_PIPERMAIL_AT) : end].split("?", 1)[0]
    labels = domain.split(".")
    return (
        (at, at + len(_PIPERMAIL_AT))
        if colon
        and scheme.lower() == "mailto"
        and user
        and not set(user) & _NOT_IN_USER
        and len(labels) > 1
        and all(label and set(label) <= _DOMAIN_CHARS for label in labels)
        else None
    )


class Scanner:
    """Finds candidates in text. Build one per option set (``scanner_for`` caches them, shared):
    its options are read once, when its first scan builds its triggers (the native core's, or this
    module's patterns); changing them after does nothing."""

    def __init__(
        self,
        *,
        naked: bool = True,
        schemes: Iterable[str] = KNOWN_SCHEMES,
        www: bool = False,
        pipermail: bool = False,
    ) -> None:
        self.naked = naked
        self.www = www
        self.pipermail = pipermail
        self.schemes = frozenset(s.lower() for s in schemes)
        bad = sorted(s for s in self.schemes if not s or set(s) - _SCHEME_CHARS or s[0] not in _LETTERS)
        if bad:
            raise ValueError(f"not schemes: {', '.join(bad)}")
        self._native: Any = None  # the native core's scanner of these options, made when first used

    @cached_property
    def _triggers(self) -> tuple[tuple[re.Pattern[str], ...], tuple[_Handler, ...]]:
        """The triggers, first character first (see the module's docstring), and their scanners:
        compiled by this module's first scan (a run under the native core may never make one)."""
        triggers: list[tuple[re.Pattern[str], _Handler]] = [(_OPEN, self._wrapper), (_QUOTE, self._quoted)]
        if self.naked:
            triggers.append((_naked_trigger(self.schemes), self._naked))
        if self.www:
            triggers.append((_WWW, self._www))
        return tuple(pattern for pattern, _ in triggers), tuple(handler for _, handler in triggers)

    @cached_property
    def _naked_end(self) -> re.Pattern[str]:
        return _naked_end()

    def scan(
        self,
        text: str,
        start: int = 0,
        stop: int | None = None,
        *,
        text_start: bool = True,
        progress: ScanProgress | None = None,
    ) -> Iterator[Candidate]:
        """Candidates in text order, none overlapping a delimited one before it.

        ``start``/``stop`` scan a window of a longer text (``extract_stream``): only candidates
        whose trigger lies before ``stop`` are given, ``text`` must hold LOOKBEHIND characters
        before ``start`` (or start the text, ``text_start``) and LOOKAHEAD after ``stop`` (or end
        it), and ``progress.resume`` says where the next window's scan must start.

        The core that ``_select`` names runs it: the native one (rust/core/src/scan.rs, the same
        rules, candidate for candidate) or this module's, its oracle."""
        native = _select.native()
        if native is None:
            return self._scan(text, start, stop, text_start, progress)
        if self._native is None:
            self._native = native.Scanner(
                self.naked,
                sorted(self.schemes),
                sorted(HIERARCHICAL_SCHEMES),
                sorted(IANA_PERMANENT_SCHEMES),
                self.www,
                self.pipermail,
                make_candidate,
                get_args(Wrapper),
                list(Unclosed),
            )
        return self._scan_native(self._native.scan(text, start, stop, text_start), progress)

    @staticmethod
    def _scan_native(candidates: Any, progress: ScanProgress | None) -> Iterator[Candidate]:
        """The native scan's candidates, found as they are taken (a bounded number at a time, however
        many the text holds), and then where the next window starts."""
        yield from candidates
        if progress is not None:
            progress.resume = candidates.resume

    def _scan(
        self, text: str, start: int, stop: int | None, text_start: bool, progress: ScanProgress | None
    ) -> Iterator[Candidate]:
        stop = len(text) if stop is None else stop
        lines = Lines(text, 0 if text_start else -PREFIX_REACH - 1)  # unknown: "long ago"
        patterns, handlers = self._triggers
        hits = [pattern.search(text, start) for pattern in patterns]
        at = [_NEVER if hit is None else hit.start() for hit in hits]
        cursor = start
        while True:
            first = min(at)
            if first >= stop:
                if progress is not None:
                    # Every trigger before stop is done. The next window re-finds the first one at
                    # or after it, and needs the cursor only as a floor for looking back.
                    progress.resume = max(cursor, min(stop, len(text)) - RESUME_SLACK)
                return
            k = at.index(first)
            candidate, cursor = handlers[k](text, hits[k], cursor, lines)  # type: ignore[arg-type]
            for k, position in enumerate(at):  # searches behind the cursor go on from it
                if position < cursor:
                    hit = hits[k] = patterns[k].search(text, cursor)
                    at[k] = _NEVER if hit is None else hit.start()
            if candidate is not None:
                yield candidate

    # --- the wrapper scanner (D21, D22, D25) ---------------------------------------------------

    def _wrapper(self, text: str, hit: re.Match[str], floor: int, lines: Lines) -> _Found:
        opening, stop = hit.span()
        space, word = hit.groups()
        key: str | None = None  # the "<" line's quote prefix, looked for when needed
        if "\n" in space:
            if space.count("\n") > 1:  # D21: a blank line between "<" and the scheme ends it first
                return None, opening + 1
            key = self._line_prefix(text, opening, lines)
            if key != _prefix_key(space[space.rfind("\n") + 1 :]):
                return None, opening + 1  # D25 (a): the next line's prefix is not the "<" line's
        word = word.lower()
        wrapper: Wrapper
        if word == "url":
            wrapper, body_start = "URL:", hit.end(2) + 1  # any scheme: the wrapper vouches for it
        # D22: a bare wrapper needs a known scheme or "//"; space after "<" only a known scheme.
        elif word in self.schemes or (not space and text.startswith("//", hit.end(2) + 1)):
            wrapper, body_start = "<>", opening + 1 + len(space)
        else:
            return None, opening + 1
        # The common cases first, told apart by where the hit stopped: closed, or stopped by a
        # second "<" (D21), on its own line. Quote prefixes (D25) only matter on the lines after.
        if stop < opening + MAX_WRAPPER_CHARS:
            if text.startswith(">", stop):
                span, body = (opening, stop + 1), (body_start, stop)
                at = _pipermail_at(text, body_start, stop) if self.pipermail else None
                if at is None:
                    return make_candidate((wrapper, span, body, (), None, False, False)), stop + 1
                return Candidate(wrapper, span, body, (at,), deobfuscated=True), stop + 1
            if text.startswith("<", stop):
                span, body = (opening, stop), (body_start, stop)
                stopped = make_candidate((wrapper, span, body, (), Unclosed.SECOND_OPEN, False, False))
                return stopped, opening + 1
        if key is None:
            key = self._line_prefix(text, opening, lines)
        return self._close(text, wrapper, opening, body_start, key)

    @staticmethod
    def _line_prefix(text: str, opening: int, lines: Lines) -> str:
        """D25: the quote marks of the line where the wrapper opens ("" when it has none)."""
        if opening == 0 or text[opening - 1] == "\n":  # the "<" starts its line
            return ""
        line_start = lines.start_of(opening)
        if opening - line_start > PREFIX_REACH:
            return ""
        prefix = _QUOTE_PREFIX.match(text, line_start, opening)
        return _prefix_key(prefix.group()) if prefix else ""

    def _close(self, text: str, wrapper: Wrapper, opening: int, body_start: int, key: str) -> _Found:
        """Find the ``>`` that closes the wrapper opened at ``opening``, line by line."""
        limit = min(len(text), opening + MAX_WRAPPER_CHARS)
        skipped: list[Span] = []
        pos = body_start
        lines = 1
        why: Unclosed
        while True:
            newline = text.find("\n", pos, limit)
            line_end = limit if newline < 0 else newline
            second = text.find("<", pos, line_end)  # D21: "<" is never part of a URL
            closing = text.find(">", pos, line_end if second < 0 else second)
            if closing >= 0:
                body = (body_start, closing)
                return Candidate(wrapper, (opening, closing + 1), body, tuple(skipped)), closing + 1
            if second >= 0:
                stop, why = second, Unclosed.SECOND_OPEN
                break
            if newline < 0:
                stop, why = limit, Unclosed.TEXT_ENDED if limit == len(text) else Unclosed.TOO_LONG
                break
            lines += 1
            if lines > MAX_WRAPPER_LINES:
                stop, why = newline, Unclosed.TOO_MANY_LINES
                break
            pos = newline + 1
            if key:
                after = _after_prefix(text, pos, limit, key)
                if after > pos:
                    # D25: the prefix is not part of the URL, and its ">" closes nothing.
                    skipped.append((pos, after))
                    pos = after
            if _BLANK_REST.match(text, pos, limit):
                stop, why = newline, Unclosed.BLANK_LINE
                break
        # D21: reported only as a rejected candidate; the scan resumes right after the "<".
        span, body = (opening, stop), (body_start, stop)
        return make_candidate((wrapper, span, body, tuple(skipped), why, False, False)), opening + 1

    # --- the quote scanner (D26) ---------------------------------------------------------------

    def _quoted(self, text: str, hit: re.Match[str], floor: int, lines: Lines) -> _Found:
        quote, colon = hit.start(), hit.end() - 1
        if not self._vouched(hit.group(1), text, colon):
            return None, quote + 1
        closing = self._naked_end.search(text, colon, quote + 1 + MAX_NAKED_CHARS)
        if closing is None or text[closing.start()] != '"':
            return None, quote + 1  # not closed on its line: the naked scanner may still take it
        end = closing.start()
        if _bare_authority(text, colon, end):
            return None, end + 1
        return make_candidate(('"', (quote, end + 1), (quote + 1, end), (), None, False, False)), end + 1

    # --- the naked scanner (D19, D20, D22) -----------------------------------------------------

    def _naked(self, text: str, hit: re.Match[str], floor: int, lines: Lines) -> _Found:
        colon = hit.start()
        start = self._scheme_start(text, colon, floor)
        if start < 0:
            return None, colon + 1
        extent = self._naked_extent(text, start, colon)
        if extent is None:
            return None, start + MAX_NAKED_CHARS + 1  # too long to be a URL
        raw_end, end = extent
        closing = text.find("]", colon, raw_end)
        if closing >= 0 and _open_bracket_before(text, start):  # D34: "[url](url)", "[see url]"
            raw_end = closing
            end = _trim_naked_end(text, start, closing)
        if end <= colon or _bare_authority(text, colon, end):
            return None, raw_end
        span_start = self._url_prefix(text, start, floor)
        if self.pipermail and end == raw_end and text.startswith(_PIPERMAIL_AT, end):
            after = self._naked_extent(text, end + len(_PIPERMAIL_AT), end + len(_PIPERMAIL_AT))
            if after is not None:
                domain_end = after[1]
                closing = text.find("]", end, domain_end)
                if closing >= 0 and _open_bracket_before(text, start):  # "[mailto:x at y.org]"
                    domain_end = _trim_naked_end(text, start, closing)
                at = _pipermail_at(text, start, domain_end)
                if at is not None:
                    span, body = (span_start, domain_end), (start, domain_end)
                    return Candidate(None, span, body, (at,), deobfuscated=True), domain_end
        return make_candidate((None, (span_start, end), (start, end), (), None, False, False)), end

    def _naked_extent(self, text: str, start: int, search_from: int) -> tuple[int, int] | None:
        """D19: where a naked URL that starts at ``start`` ends: the first character that ends it,
        and the end once trailing punctuation is dropped; None when it runs past MAX_NAKED_CHARS."""
        bound = start + MAX_NAKED_CHARS + 1
        found = self._naked_end.search(text, search_from, bound)
        if found is None and bound < len(text):
            return None
        raw_end = len(text) if found is None else found.start()
        return raw_end, _trim_naked_end(text, start, raw_end)

    def _www(self, text: str, hit: re.Match[str], floor: int, lines: Lines) -> _Found:
        """A host name with no scheme, ``www.`` first: a naked URL's end rules (D19)."""
        start = hit.start() - _WWW_BEFORE_DOT
        if start < floor:  # its "www" was taken by the candidate before
            return None, hit.end()
        extent = self._naked_extent(text, start, start)
        if extent is None:
            return None, start + MAX_NAKED_CHARS + 1  # too long to be a URL
        end = extent[1]
        return make_candidate((None, (start, end), (start, end), (), None, True, False)), end

    def _scheme_start(self, text: str, colon: int, floor: int) -> int:
        """Where the scheme ending at ``colon`` starts, or -1 when it is no scheme we take."""
        lowest = max(floor, colon - MAX_SCHEME_CHARS)
        run = text[lowest:colon]  # the scheme characters right before the colon, at most these
        start = colon - (len(run) - len(run.rstrip(_SCHEME_CHAR_TEXT)))
        if start > 0 and text[start - 1] in _SCHEME_CHARS:
            return -1  # too long, or glued to what an earlier candidate took
        if start == colon:
            return -1
        word = text[start:colon].lower()
        if word[0] in _LETTERS and word in self.schemes:
            return start
        slashes = text.startswith("//", colon + 1)
        compound = slashes and word[0] in _LETTERS and "+" in word  # D36: "git+https://" as written
        glued = slashes and word[0] in _LETTERS and word not in IANA_PERMANENT_SCHEMES
        # "see.http://", "foo-mailto:", "=09http://" (a quoted-printable tab): a known scheme
        # after "." "-" or a digit is the scheme (and after "+" when no "//" follows). D36: so is
        # one glued to letters ("Seehttps://", a shar file's "Xftp://") when the whole word is no
        # registered scheme; the longest known scheme at the word's end is taken.
        for k in range(1, len(word)):
            before = word[k - 1]
            if word[k] in _LETTERS and word[k:] in self.schemes and "+" not in word[k:]:
                if before in _SUFFIX_AFTER or (before == "+" and not compound):
                    return start + k
                if before in _LETTERS and glued and not compound:
                    return start + k
        if word[0] in _LETTERS and slashes:
            return start  # any scheme followed by "//" (D22); "1abc://" is none
        return -1

    def _vouched(self, word: str, text: str, colon: int) -> bool:
        return word.lower() in self.schemes or text.startswith("//", colon + 1)

    @staticmethod
    def _url_prefix(text: str, start: int, floor: int) -> int:
        """D22: a ``URL:`` prefix (any case, maybe a space after it) right before a naked URL."""
        at = start
        while at > floor and start - at < 4 and text[at - 1] in " \t":
            at -= 1
        word = at - len(_URL_PREFIX_WORD)
        glued = word > 0 and text[word - 1] in _SCHEME_CHARS  # "myURL:" is no prefix
        if word >= floor and text[word:at].lower() == _URL_PREFIX_WORD and not glued:
            return word
        return start


class ScanProgress:
    """Where a windowed scan stopped (see ``Scanner.scan``)."""

    __slots__ = ("resume",)

    def __init__(self) -> None:
        self.resume = 0


@lru_cache(maxsize=32)
def scanner_for(naked: bool, schemes: frozenset[str], www: bool = False, pipermail: bool = False) -> Scanner:
    """One compiled scanner per option set."""
    return Scanner(naked=naked, schemes=schemes, www=www, pipermail=pipermail)


def scan(text: str, *, naked: bool = True, schemes: Iterable[str] = KNOWN_SCHEMES) -> Iterator[Candidate]:
    """The candidates of ``text`` in order (see the module's docstring)."""
    return scanner_for(naked, frozenset(schemes)).scan(text)
