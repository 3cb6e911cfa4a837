"""The records every stage shares. Frozen, slotted, stdlib only."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import IO, Any, Literal, NamedTuple, get_args, get_type_hints

Part = str | int | tuple[str, ...] | tuple[tuple[str, str], ...] | None
"""A component of a URL: text, a number (port, article number), decoded segments or fields; None
when the URL does not have that component (which differs from having it empty, D9). A number of
more than 640 significant digits (the grammars set no bound) is given as its digits, a str."""


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a string is not a URL: where, which production could not be matched there, and why."""

    position: int
    """Index into the string given to ``validate`` of the first character that cannot be read."""
    production: str
    """The RFC's name of the production that could not be matched there (``hsegment``, ``escape``)."""
    message: str
    """One plain sentence."""
    reason: Unclosed | NotInText | None = None
    """As data, why a wrapper was not closed (D21) or why a grammatical candidate is no URL of the
    text (D33, D35); None for every other problem."""

    def __str__(self) -> str:
        return f"at {self.position} ({self.production}): {self.message}"


class Unclosed(enum.Enum):
    """Why the scanner could not close a wrapper (D21). The later stages act on these, never on
    the words; ``{limit}`` is the scanner's bound that was reached."""

    TEXT_ENDED = "the text ended before the closing '>'"
    BLANK_LINE = "a blank line came before the closing '>'"
    SECOND_OPEN = "a second '<' came before the closing '>'"
    TOO_LONG = "no closing '>' within {limit} characters"
    TOO_MANY_LINES = "no closing '>' within {limit} lines"

    # Members are singletons, so identity hashes them: Enum's own __hash__ is a Python call, and
    # the verdict cache hashes one per unclosed wrapper (a soup of "<URL:" holds one every 5 chars).
    __hash__ = object.__hash__


class NotInText(enum.Enum):
    """Why a candidate valid by the grammar is still no URL of running text. The later stages act on
    these, never on the words."""

    EMPTY_SCHEME_PART = "D33"  # "https:", <news:>: a scheme named, nothing after its colon
    OPAQUE_SHAPE = "D35"  # a naked opaque URL without the shape its scheme's RFC gives it


class CaveatKind(enum.Enum):
    """The kinds of things a valid URL may still deserve a warning for."""

    PORT = "non-default-port"  # section 6: a port other than the scheme's default
    CONTROL = "encoded-control"  # section 6: encoded CR, LF and other control octets
    PASSWORD = "password"  # section 6: "URLs containing passwords ... clearly unwise"
    LONG_LABEL = "long-label"  # D7: a host label over 63 characters (RFC 1034)
    HOSTNUMBER_RANGE = "hostnumber-range"  # D7: a host number group over 255
    NOT_ADDR_SPEC = "not-addr-spec"  # D14: a mailto address that is not an RFC 822 addr-spec
    NOT_IDNA = "not-idna"  # modern: a non-ASCII host that IDNA refuses (its URI form escapes it)
    MIXED_SCRIPT = "mixed-script"  # modern: a host label whose letters mix scripts
    EMPTY_LABEL = "empty-label"  # modern: "a..b", "..." (a reg-name allows them; the DNS does not)
    DEOBFUSCATED = "deobfuscated"  # D32: a pipermail "user at host" read as "user@host"


@dataclass(frozen=True, slots=True)
class Caveat:
    """A warning about a valid URL; it never makes the URL invalid."""

    kind: CaveatKind
    position: int
    message: str

    def __str__(self) -> str:
        return f"warning at {self.position} ({self.kind.value}): {self.message}"


WWW_STANDS_FOR = "http://"
"""What a "www." host name with no scheme (the modern scanner's) stands for: it is judged, and its
canonical and URI forms given, as this prefix and itself."""


def www_url(reference: str) -> str:
    """The http URL a "www." host name with no scheme stands for: the one place the rule is said."""
    return WWW_STANDS_FOR + reference


ProfileName = Literal["strict", "modern"]
"""The grammar profiles a URL can be judged by (``urlsift.grammar.PROFILES``)."""


_set_attribute = object.__setattr__  # what a frozen record's own __init__ must store through


@dataclass(frozen=True, init=False)
class Verdict:
    """What ``validate`` says of one string.

    Built once per URL judged, so its ``__init__`` is written out: it stores the instance's dict in
    one step, where a frozen dataclass's own sets each field through ``object.__setattr__`` (0.38x
    a urlsplit per URL). Frozen all the same, and a dataclass (``dataclasses.replace`` works)."""

    url: str
    """The string judged, exactly as given."""
    valid: bool
    scheme: str | None
    """The scheme, lower-cased; None when the string does not start with one."""
    parts: Mapping[str, Part]
    """The scheme's components (read-only); empty when the URL is invalid."""
    error: Problem | None
    warnings: tuple[Caveat, ...]
    profile: ProfileName
    """The name of the profile that judged it."""

    def __init__(
        self,
        url: str,
        valid: bool,
        scheme: str | None,
        parts: Mapping[str, Part],
        error: Problem | None,
        warnings: tuple[Caveat, ...],
        profile: ProfileName,
    ) -> None:
        _set_attribute(
            self,
            "__dict__",
            {
                "url": url,
                "valid": valid,
                "scheme": scheme,
                "parts": parts,
                "error": error,
                "warnings": warnings,
                "profile": profile,
            },
        )

    def __reduce__(self) -> tuple[Callable[..., Verdict], tuple[Any, ...]]:
        # Its parts are a read-only view, which pickle cannot take: they travel as a dict.
        parts, error, warnings = dict(self.parts), self.error, self.warnings
        return _unpickled_verdict, (self.url, self.valid, self.scheme, parts, error, warnings, self.profile)

    def as_dict(self) -> dict[str, Any]:
        """The verdict as plain JSON values (lists, str, int, bool, None): the problem and the
        warnings as objects, the parts with their tuples as lists."""
        error = self.error
        return {
            "url": self.url,
            "valid": self.valid,
            "scheme": self.scheme,
            "parts": {name: _plain(part) for name, part in self.parts.items()},
            "error": None
            if error is None
            else {
                "position": error.position,
                "production": error.production,
                "message": error.message,
                "reason": None if error.reason is None else error.reason.name.lower(),
            },
            "warnings": [
                {"kind": caveat.kind.value, "position": caveat.position, "message": caveat.message}
                for caveat in self.warnings
            ],
            "profile": self.profile,
        }

    @property
    def uri(self) -> str | None:
        """The URI form of a valid IRI (RFC 3987 3.1: host through IDNA, the rest's non-ASCII
        characters escaped as UTF-8); the URL itself when it is ASCII; None when invalid."""
        # A later stage, imported where it is used (IDNA and the script table load with it).
        from .grammar.iri import verdict_uri

        return verdict_uri(self)


def _unpickled_verdict(
    url: str,
    valid: bool,
    scheme: str | None,
    parts: dict[str, Part],
    error: Problem | None,
    warnings: tuple[Caveat, ...],
    profile: ProfileName,
) -> Verdict:
    return Verdict(url, valid, scheme, MappingProxyType(parts), error, warnings, profile)


def _plain(part: Part) -> Any:
    """A part as a JSON value: its tuples (segments, fields) as lists."""
    if isinstance(part, tuple):
        return [list(item) if isinstance(item, tuple) else item for item in part]
    return part


# --- the scanner's and the extractor's records ---------------------------------------------------

Span = tuple[int, int]
"""(start, end) indexes into the scanned text, end exclusive, as slices take them."""

Wrapper = Literal["URL:", "<>", '"']
"""How a URL was delimited: ``<URL:...>``, a bare ``<scheme:...>``, or double quotes."""


class Candidate(NamedTuple):
    """What the scanner found: a delimited stretch of text that may hold a URL, not yet judged.

    The stage records (Candidate, Reading, Match) are named tuples, as rfc3986's URIReference:
    immutable, and built in a third of a frozen dataclass's time, which counts at one per URL."""

    wrapper: Wrapper | None
    """None for a naked URL (running text, or after a bare ``URL:`` prefix)."""
    span: Span
    """The whole thing: from ``<`` to ``>`` inclusive, the quotes included, or the naked URL."""
    body: Span
    """The URL's raw text: what lies between the delimiters, whitespace and all."""
    skipped: tuple[Span, ...] = ()
    """Quote prefixes of continuation lines inside ``body`` (D25): not part of the URL."""
    problem: Unclosed | None = None
    """Why the wrapper could not be closed (D21); None when it was."""
    www: bool = False
    """A naked host name starting with "www." and no scheme (the modern profile's scanner)."""
    deobfuscated: bool = False
    """D32: the one ``skipped`` span is pipermail's " at ", which stands for "@" in the URL."""


make_candidate = partial(tuple.__new__, Candidate)
"""A Candidate from a tuple of all seven fields: ``Candidate(...)`` less its ``__new__``, a Python
function (for the defaults), at one candidate per trigger hit."""


class Reading(NamedTuple):
    """One way to read a candidate as a URL: the string, and the slices of the text it is made of."""

    url: str
    pieces: tuple[Span, ...]


class Match(NamedTuple):
    """A URL found in text, with where every character of it came from."""

    url: str
    """The URL as rejoined (whitespace and quote prefixes dropped), with its #fragment if it had one."""
    alternatives: tuple[str, ...]
    """The other valid readings (the hyphen rule, D24), best first; usually empty."""
    wrapper: Wrapper | None
    span: Span
    """The whole wrapper (or the naked URL, from its ``URL:`` prefix if it had one) in the text."""
    pieces: tuple[Span, ...]
    """The slices of the text whose concatenation is ``url``."""
    line: int
    """1-based line of ``span[0]``."""
    column: int
    """0-based column (in characters) of ``span[0]``."""
    verdict: Verdict
    """The verdict on ``url``; invalid only for the rejected candidates ``invalid=True`` asks for."""

    @property
    def naked(self) -> bool:
        """True when nothing delimited the URL: its end was guessed (D19)."""
        return self.wrapper is None

    @property
    def valid(self) -> bool:
        return self.verdict.valid

    @property
    def canonical(self) -> str | None:
        """The URL's canonical form under the profile that judged it (D30); None if rejected.
        Worked out when asked: scanning never pays for it."""
        # A later stage, imported where it is used.
        from .canonical import match_canonical

        return match_canonical(self)

    @property
    def fragment(self) -> str | None:
        """The fragment identifier that came inside the brackets (appendix), without its "#"."""
        hash_at = self.url.find("#")
        return None if hash_at < 0 else self.url[hash_at + 1 :]

    def as_dict(self) -> dict[str, Any]:
        """The match as plain JSON values (lists, str, int, bool, None), for ``json.dumps``: its
        fields, spans as ``[start, end]`` lists, ``naked``, ``valid``, ``fragment``, ``canonical``
        (worked out now), and the verdict's ``as_dict``."""
        return {
            "url": self.url,
            "alternatives": list(self.alternatives),
            "wrapper": self.wrapper,
            "naked": self.naked,
            "span": list(self.span),
            "pieces": [list(piece) for piece in self.pieces],
            "line": self.line,
            "column": self.column,
            "valid": self.valid,
            "fragment": self.fragment,
            "canonical": self.canonical,
            "verdict": self.verdict.as_dict(),
        }


make_match = partial(tuple.__new__, Match)
"""A Match from a tuple of its eight fields: ``Match(...)`` less its Python ``__new__``, at one
match per URL found."""


# --- where a text came from (sources) --------------------------------------------------------


class Provenance(NamedTuple):
    """Where a scanned text came from; None where it does not apply (a plain text file has no
    message)."""

    source: str
    """The path as given ("<stdin>" for "-")."""
    member: str | None = None
    """The member inside a zip or tar archive."""
    message: int | None = None
    """The message's index in its file (0-based)."""
    offset: int | None = None
    """The byte offset of the message (its ``From `` line in an mbox) in its file."""
    message_id: str | None = None
    date: str | None = None
    newsgroups: str | None = None
    part: str | None = None
    """A header's name, or a MIME part's index and type ("2 text/html")."""


class MessageText(NamedTuple):
    """One message read: the texts to scan in it (its headers, then its text parts decoded), the
    name of each, and what was wrong with it."""

    provenance: Provenance
    """Where the message is (``part`` None)."""
    texts: list[str]
    parts: list[str]
    """For each text: a header's name, or a MIME part's index and type ("2 text/html")."""
    headers: int
    """How many of the texts, first, are headers."""
    defects: list[Defect]
    flowed: dict[int, bool] | None = None
    """D31: the texts that are ``format=flowed`` parts (index -> whether ``DelSp=yes``)."""
    pipermail: bool = False
    """D32: the message comes from an mbox in pipermail's form (``From user at host``)."""


DefectKind = Literal[
    "unreadable",
    "corrupt",
    "too-large",
    "too-deep",
    "truncated",
    "binary",
    "long-line",
    "internal",
    "lost",
    "undecodable-bytes",
    "unknown-charset",
    "malformed",
    "bad-record",
    "missing-field",
    "not-mail",
]
"""What went wrong, in one word; README's table of kinds lists exactly these (a test compares)."""


class Defect(NamedTuple):
    """Something wrong with the input that did not stop the work: reported, counted, never raised."""

    kind: DefectKind
    provenance: Provenance
    detail: str
    line: int | None = None
    """The line of a plain text it is about (a ``long-line``), 1-based."""


ERROR_KINDS: frozenset[DefectKind] = frozenset(
    {
        "unreadable",
        "corrupt",
        "too-large",
        "too-deep",
        "truncated",
        "binary",
        "long-line",
        "internal",
        "lost",
        "bad-record",
        "not-mail",
    }
)
"""Defects that lose input (a file, a member, a message or its end could not be scanned as it is;
``internal``: a bug stopped a message or a file; ``lost``: a worker died reading a unit;
``bad-record``: a JSON line that is no object; ``not-mail``: a public-inbox commit's message is
empty or binary data): the command line exits 2 after any of them."""
WARNING_KINDS: frozenset[DefectKind] = frozenset(
    {"undecodable-bytes", "unknown-charset", "malformed", "missing-field"}
)
"""Defects worked around with nothing lost that could hold a URL: reported, counted, exit unchanged."""
DEFECT_KINDS: frozenset[DefectKind] = frozenset(get_args(DefectKind))
"""Every kind: each is an error or a warning (``tests/cli/test_hostile_cli.py`` checks)."""


class Skipped(NamedTuple):
    """Records of a file that hold nothing to scan (a WARC's requests, metadata, images ...):
    counted (``--stats``), not reported."""

    provenance: Provenance
    records: int
    kinds: dict[str, int]
    """How many of each kind (a WARC record's type)."""


class TextStream(NamedTuple):
    """A plain text file (or member) to be read as a stream, now: it is open only until the
    source that gave it is asked for its next item."""

    file: IO[bytes]
    provenance: Provenance


def _match_asdict(self: Match) -> dict[str, Any]:
    """The match as plain JSON values, as ``Row._asdict`` gives a row (``json.dumps`` takes
    it): spans as ``[start, end]`` lists, the verdict as its words."""
    verdict = self.verdict
    return {
        "url": self.url,
        "alternatives": list(self.alternatives),
        "wrapper": self.wrapper,
        "span": list(self.span),
        "pieces": [list(piece) for piece in self.pieces],
        "line": self.line,
        "column": self.column,
        "verdict": {
            "valid": verdict.valid,
            "profile": verdict.profile,
            "scheme": verdict.scheme,
            "error": None if verdict.error is None else str(verdict.error),
            "warnings": [str(caveat) for caveat in verdict.warnings],
        },
    }


# A NamedTuple's own methods cannot be defined in its body: set after.
setattr(Match, "_asdict", _match_asdict)  # noqa: B010


def _resolved(*classes: type) -> None:
    """The annotations of named tuples' constructors resolved (they are strings here, under
    ``from __future__ import annotations``), so that help() and inspect.signature show the types
    rather than ForwardRef('str')."""
    for cls in classes:
        hints = get_type_hints(cls)
        cls.__annotations__ = hints
        cls.__new__.__annotations__ = {**hints, "return": cls.__name__}


_resolved(Candidate, Reading, Match, Provenance, Defect)
