"""An HTML page -> its text and its links' values, in one forward pass (linear time on any input).

The stdlib's ``html.parser`` was used before: on a tag that never closes it gives up, hands on the
``<`` as text and tries again at the next ``<``, which looks for that tag's end to the end of the
page too, so 100 KB of ``<a `` took minutes (issue 17). Here every step consumes what it looked
at and nothing is looked at twice: tags, quoted values, comments and the text of ``<script>`` and
``<style>`` end where the HTML standard's tokenizer ends them (a ``>`` outside quotes, the closing
quote, ``-->``, ``</script>``), found with substring searches and regexes that match forward from
where the pass stands. What is still open at the page's end (a tag, a quoted value, a comment) is
given as text, once, from its ``<``: nothing is dropped.

On a well-formed page it gives what ``html.parser`` gave (``tests/sources/test_hostile_messages.py``
compares the two on the corpora's pages): each run of text between two tags a line, character
references decoded, comments and declarations left out, a lone ``<`` a line of its own, and each
link's value (``href``, ``src`` ...) a paragraph of its own (D21). ``read`` gives the links
and the page's ``<base href>`` too, and ``resolved`` the relative ones resolved (D39). A C parser
(lxml, selectolax) would be faster but is a compiled dependency for one step; this pass runs at
regex speed.
"""

from __future__ import annotations

import html
import re
from typing import NamedTuple
from urllib.parse import urljoin, urlsplit

LINKS = frozenset({"href", "src", "action", "cite", "background"})
"""The attributes whose values are given: they hold the page's links."""
_RAW_TEXT = frozenset({"script", "style"})
"""Elements whose content is text up to their end tag, with no tags inside (as html.parser)."""

_TAG_NAME = re.compile(r"[a-zA-Z][^\t\n\r\f />\x00]*")
_BETWEEN = re.compile(r"[\s/]*")  # before an attribute (a "/" not before ">" is skipped)
_NAME = re.compile(r"[^\s/>][^\s/=>]*")
_EQUALS = re.compile(r"\s*=+\s*")
_BARE_VALUE = re.compile(r"[^\s>]*")
_LONG_DECIMAL = re.compile(r"(?<=&#)[0-9]{4301,}")
"""A decimal character reference of more digits than ``int()`` reads (4,300 by default)."""
_RAW_END = {name: re.compile(rf"</{name}\s*>", re.IGNORECASE) for name in _RAW_TEXT}


def unescape(text: str) -> str:
    """``html.unescape(text)``, but that a decimal reference longer than ``int()`` reads (which
    makes it raise) is read as the number it writes: past U+10FFFF, U+FFFD, as any other."""
    if "&#" in text:
        text = _LONG_DECIMAL.sub(_shorter, text)
    return html.unescape(text)


def _shorter(digits: re.Match[str]) -> str:
    """The same number in as few digits (0x110000, the first past Unicode, for a longer one)."""
    written = digits[0].lstrip("0") or "0"
    return written if len(written) <= 7 else str(0x110000)


class Page(NamedTuple):
    """What one pass over a page gives: its text (``text``), its links' values in order, and its
    first ``<base href>`` (None without one)."""

    text: str
    links: list[str]
    base: str | None


def text(html: str) -> str:
    """The text of the page ``html`` and the values of its links, one per line."""
    return read(html).text


def read(html: str) -> Page:
    """The page ``html``'s text, links and base, in one pass."""
    lines: list[str] = []
    found = Page("", [], None)
    bases: list[str] = []
    at, end = 0, len(html)
    while at < end:
        lt = html.find("<", at)
        if lt < 0:
            lines.append(unescape(html[at:]))
            break
        if lt > at:
            lines.append(unescape(html[at:lt]))
        at = _markup(html, lt, lines, found.links, bases)
    return found._replace(text="\n".join(lines), base=bases[0] if bases else None)


RESOLVED_BASES = frozenset({"http", "https", "ftp"})
"""The schemes of a base that relative links are resolved against (D39)."""
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_URL_BLANKS = str.maketrans("", "", "\t\n\r")  # the URL parser drops them (WHATWG URL 4.4)


class Resolved(NamedTuple):
    links: list[str]
    left: int
    """How many relative links were not resolved: past RESOLVED_RATIO times the page's text."""


RESOLVED_RATIO = 2
"""D39: resolved links may hold at most this many times the characters of the page's text (and at
least RESOLVED_FLOOR): a page of 10 million ``<a href=x>`` under a base of 2,000 characters would
make 20 GB of them."""
RESOLVED_FLOOR = 1 << 20


def resolved(page: Page, uri: str | None = None) -> Resolved:
    """D39: the page's relative links resolved, in order: against its ``<base href>`` (itself
    resolved against ``uri``, the page's own address: a WARC record's target), else ``uri``; none
    when that base is no http, https or ftp URL. A link with a scheme is in the text already; an
    empty one or a fragment alone (``#top``) points into the page itself and is left out."""
    base = uri
    if page.base is not None:
        written = page.base.strip(" \t\n\r\f").translate(_URL_BLANKS)
        base = written if base is None else _joined(base, written)
    if base is None or not _usable_base(base):
        return Resolved([], 0)
    found: list[str] = []
    room = max(RESOLVED_RATIO * len(page.text), RESOLVED_FLOOR)
    for k, link in enumerate(page.links):
        value = link.strip(" \t\n\r\f").translate(_URL_BLANKS)
        if value and not value.startswith("#") and not _SCHEME.match(value) and not _blank_inside(value):
            joined = _joined(base, value)
            if joined is not None:
                room -= len(joined) + 2
                if room < 0:
                    return Resolved(found, sum(map(_relative, page.links[k:])))
                found.append(joined)
    return Resolved(found, 0)


def _blank_inside(text: str) -> bool:
    """A space or control character left inside: the scanner would end the URL there and read a
    stretch of it as another (D39: such a base or link resolves nothing)."""
    return any(character.isspace() or ord(character) < 0x20 or ord(character) == 0x7F for character in text)


def _usable_base(base: str) -> bool:
    """D39: an http, https or ftp URL with a host of letters, digits, dots, hyphens (or an IPv6
    literal's hex digits and colons), nothing blank inside."""
    if urlsplit_scheme(base) not in RESOLVED_BASES or _blank_inside(base):
        return False
    try:
        host = urlsplit(base).hostname
    except ValueError:
        return False
    return bool(host) and all(character.isalnum() or character in ".-:" for character in host or "")


def _relative(link: str) -> bool:
    value = link.strip(" \t\n\r\f")
    return bool(value) and not value.startswith("#") and not _SCHEME.match(value)


def too_many(left: int) -> str:
    """The report on a page whose relative links were not all resolved (``Resolved.left``)."""
    return (
        f"{left:,} relative links not resolved: the resolved ones passed {RESOLVED_RATIO} times the "
        "page's text (D39)"
    )


def urlsplit_scheme(url: str | None) -> str | None:
    """The scheme of ``url``, lower-cased, when it has one and an authority (``//``)."""
    if url is None:
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    return parts.scheme.lower() if parts.netloc else None


def _joined(base: str, reference: str) -> str | None:
    try:
        return urljoin(base, reference)
    except ValueError:  # a bracketed host that is none ("http://[x/")
        return None


def paragraphs(links: list[str]) -> str:
    """Resolved links as the text scanned: each a paragraph of its own (D21, D39)."""
    return "\n\n".join(links)


def _markup(html: str, lt: int, lines: list[str], links: list[str], bases: list[str]) -> int:
    """Read what starts with the ``<`` at ``lt``; where the pass goes on (always past ``lt``)."""
    after = html[lt + 1 : lt + 2]
    if after.isascii() and after.isalpha():
        return _start_tag(html, lt, lines, links, bases)
    if after == "/" and _TAG_NAME.match(html, lt + 2):
        close = html.find(">", lt + 2)
    elif html.startswith("<!--", lt):
        close = html.find("-->", lt + 4)
        close = close + 2 if close >= 0 else -1
    elif after in ("!", "?", "/"):  # a declaration, processing instruction or bogus comment
        close = html.find(">", lt + 2)
    else:
        lines.append("<")  # no markup: the "<" is text
        return lt + 1
    return _unclosed(html, lt, lines) if close < 0 else close + 1


def _matched(pattern: re.Pattern[str], html: str, at: int) -> re.Match[str]:
    """``pattern``'s match at ``at``, which the caller knows is there."""
    found = pattern.match(html, at)
    if found is None:
        raise RuntimeError(f"{pattern.pattern!r} did not match at {at}")
    return found


def _unclosed(html: str, lt: int, lines: list[str]) -> int:
    """Markup still open at the page's end: the rest, from its ``<``, is given as text."""
    lines.append(unescape(html[lt:]))
    return len(html)


def _start_tag(html: str, lt: int, lines: list[str], found: list[str], bases: list[str]) -> int:
    name_match = _matched(_TAG_NAME, html, lt + 1)  # a letter follows the "<"
    at = name_match.end()
    links: list[str] = []
    while True:
        at = _matched(_BETWEEN, html, at).end()  # it matches the empty string
        if at >= len(html):
            return _unclosed(html, lt, lines)
        if html[at] == ">":
            break
        attribute = _matched(_NAME, html, at)  # the character is no blank, "/" or ">"
        at = attribute.end()
        equals = _EQUALS.match(html, at)
        if equals is None:
            continue  # an attribute with no value
        at = equals.end()
        quote = html[at : at + 1]
        if quote in ("'", '"'):
            close = html.find(quote, at + 1)
            if close < 0:
                return _unclosed(html, lt, lines)
            value, at = html[at + 1 : close], close + 1
        else:
            bare = _matched(_BARE_VALUE, html, at)  # it matches the empty string
            value, at = bare.group(), bare.end()
        if value and attribute.group().lower() in LINKS:
            links.append(unescape(value))
    # Each link a paragraph of its own: between blank lines no wrapper of the page's text
    # (``Ann <`` + ``<a href="mailto:ann@x">ann@x</a>`` + ``>``) can take it in (D21).
    lines.extend(f"\n{value}\n" for value in links)
    at += 1
    tag = name_match.group().lower()
    if tag == "base":  # (its href says where the others are; an href of base is the first value)
        bases.extend(links[:1])
    else:
        found.extend(links)
    if tag in _RAW_TEXT:  # its content is text, to its end tag (or the page's end)
        raw_end = _RAW_END[tag].search(html, at)
        stop = len(html) if raw_end is None else raw_end.start()
        if stop > at:
            lines.append(html[at:stop])
        return len(html) if raw_end is None else raw_end.end()
    return at
