"""The native core (rust/py, built by maturin): the fullmatch executor of the grammars, the scanner,
the extractor and the writers. Stubs for mypy, one for each name the module exports
(tests/meta/test_core_stub.py holds them to it); ``urlsift._select`` decides whether it is used."""

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, final, overload

__version__: str
BUILD_PROFILE: str

@final
class Grammar:
    """Compiled productions; ``plan`` is (production, pattern, parts) triples (``grammar.export``)."""

    def __init__(self, plan: list[tuple[str, str, list[str]]]) -> None: ...
    def productions(self) -> list[str]: ...
    def fullmatch(self, production: str, text: str) -> bool: ...
    def fullmatch_at(
        self, production: str, string: str, pos: int = 0, endpos: int | None = None
    ) -> Match | None: ...

@final
class Match:
    """A fullmatch read as a ``re.Match`` is (a part's name, or 0 for the whole)."""

    @property
    def string(self) -> str: ...
    @property
    def re(self) -> Match: ...
    @property
    def groupindex(self) -> Mapping[str, int]: ...
    @overload
    def group(self) -> str: ...
    @overload
    def group(self, key: str | int, /) -> str | Any: ...  # None when it took no part, as re says
    @overload
    def group(self, key1: str | int, key2: str | int, /, *keys: str | int) -> tuple[str | Any, ...]: ...
    def start(self, key: str | int = 0, /) -> int: ...
    def end(self, key: str | int = 0, /) -> int: ...

@final
class Rows:
    """A ``batches.Batch``'s rows (its messages, texts and matches), converted once for ``Writer``."""

    def __init__(
        self, messages: object, texts: object, matches: object, *, text_only: bool = False
    ) -> None: ...
    def __len__(self) -> int: ...

@final
class Writer:
    """The writers of text, jsonl and csv (``output.BatchWriter``)."""

    def __init__(
        self,
        fmt: str,
        /,
        *,
        canonical: bool = False,
        filename: bool = False,
        color: bool = False,
        end: str = "\n",
        schemes: list[str] | None = None,
    ) -> None: ...
    def write(self, rows: Rows, start: int, stop: int) -> tuple[bytes, int, bool]: ...

@final
class MboxSplitter:
    """sources/mbox.py's splitting of an mbox (issue 32): fed its blocks in order, then finished;
    each gives the messages it completed as ``RawMessage`` fields (number, offset, data, size,
    complete, pipermail)."""

    def __init__(self, limit: int, start: int = 0) -> None: ...
    def feed(self, block: bytes, /) -> list[tuple[int, int, bytes, int, bool, bool]]: ...
    def finish(self) -> list[tuple[int, int, bytes, int, bool, bool]]: ...
    def feed_chunk(self, block: bytes, /) -> tuple[bytes, bytes]:
        """``feed``'s messages as one chunk: their data one after the other, and six columns of
        native 64-bit integers (where each ends, number, offset, size, complete, pipermail)."""
    def finish_chunk(self) -> tuple[bytes, bytes]: ...
    def feed_blocks(self, blocks: list[bytes], /) -> tuple[bytes, bytes]:
        """``feed_chunk`` of the blocks fed one after the other (not joined first)."""

def next_separator(block: bytes, first: int, endpos: int, /) -> int | None:
    """sources/split.py's ``_separator_in``: the first separator at or after ``first``."""

class InternalError(RuntimeError):
    """A bug in the native core (a caught panic)."""

def _panic_in_core(message: str) -> None:
    """Panics inside the guard: raises ``InternalError`` (the tests' way to see one)."""

@final
class Scanner:
    """The scanner of one option set (``scanner.Scanner``'s native twin): ``make`` is
    ``_model.make_candidate``, ``wrappers`` ``Wrapper``'s values, ``unclosed`` ``Unclosed``'s members."""

    def __init__(
        self,
        naked: bool,
        schemes: Sequence[str],
        hierarchical: Sequence[str],
        iana: Sequence[str],
        www: bool,
        pipermail: bool,
        make: Callable[[tuple[Any, ...]], Any],
        wrappers: tuple[object, object, object],
        unclosed: Sequence[object],
    ) -> None: ...
    def scan(
        self, text: str, start: int = 0, stop: int | None = None, text_start: bool = True
    ) -> Candidates: ...

@final
class Candidates(Iterator[Any]):
    """A text's candidates (what ``make`` made), scanned as they are taken."""

    def __iter__(self) -> Candidates: ...
    def __next__(self) -> Any: ...
    @property
    def resume(self) -> int | None: ...

@final
class Extractor:
    """The scanner's options (naked, schemes, hierarchical, IANA's, www, pipermail), ``invalid``,
    the profile's grammar, how it judges (``extract._judge_plan``), ``Wrapper``'s values,
    ``_model.make_match`` and the deferred verdict's factory."""

    def __init__(
        self,
        scanner: tuple[bool, Sequence[str], Sequence[str], Sequence[str], bool, bool],
        invalid: bool,
        grammar: Grammar,
        judge: tuple[
            str,
            Sequence[tuple[str, str]],
            str,
            str,
            Sequence[tuple[str, str, Sequence[str]]],
            Sequence[str],
            str,
        ],
        wrappers: tuple[object, object, object],
        make_match: Callable[[tuple[Any, ...]], Any],
        verdict: Callable[..., Any],
    ) -> None: ...
    def extract(
        self,
        text: str,
        start: int = 0,
        stop: int | None = None,
        text_start: bool = True,
        lines: tuple[int, int, int] = (0, 1, 0),
    ) -> Matches | None: ...

@final
class Matches(Iterator[Any]):
    """A text's matches (``Match`` records) and the undecided candidates' tuples, as they are judged."""

    def __iter__(self) -> Matches: ...
    def __next__(self) -> Any: ...
    @property
    def lines(self) -> tuple[int, int, int]: ...
    @property
    def resume(self) -> int | None: ...

class MessageReader:
    """``sources.mime.read`` by the core (rust/py/src/mime.rs); ``skipped``: the headers not scanned
    (``mime.TRACE_HEADERS``)."""

    def __init__(self, skipped: list[str], /) -> None: ...
    def read(
        self, data: bytes, /
    ) -> (
        tuple[
            list[str],
            list[str],
            str | None,
            str | None,
            str | None,
            list[str],
            list[str],
            dict[int, bool],
            list[tuple[str, str, str]],
        ]
        | str
    ):
        """Header names and values (RFC 2047 words decoded), Message-ID, Date, Newsgroups, part
        names and texts, flowed {part: DelSp=yes}, defects (kind, part, detail); or why the Python
        reader must read the message."""

@final
class HostColumns:
    """``hosts.py``'s four columns of a valid http, https or ftp URL (rust/core/src/hosts.rs), made
    once from the Public Suffix List's file; None where Python must work them out."""

    def __init__(self, suffix_list: bytes) -> None: ...
    def columns(
        self, url: str, scheme: str
    ) -> tuple[str | None, str | None, str | None, str | None] | None: ...
    def registered_domain(self, host: str) -> str | None: ...

class TextReader:
    """A plain text's bytes to rows (``_native_rows.TextRows``): decoded as UTF-8 with
    ``errors="replace"``, read in windows of at least ``size`` characters."""

    def __init__(
        self, extractor: Extractor, size: int, lookahead: int, lookbehind: int, max_line: int | None = None
    ) -> None: ...
    @property
    def hungry(self) -> bool: ...
    @property
    def long_line(self) -> int | None:
        """The number of the first line over ``max_line`` bytes fed so far (``sources._LineWatch``)."""
    def feed(self, block: bytes, /) -> None: ...
    def rows(
        self, limit: int, /
    ) -> (
        tuple[
            list[str],
            list[tuple[str, ...]],
            list[object],
            bytes,
            list[tuple[str, bool, int, bool, int | None]],
            list[tuple[int, tuple[object, ...]]],
        ]
        | None
    ):
        """The window's next rows as columns: url, alternatives, wrapper, the number columns
        (native 64-bit integers), the distinct verdicts, the undecided candidates."""
    def advance(self) -> bool: ...
    @property
    def base(self) -> int: ...
    @property
    def characters(self) -> int: ...
    def line_breaks(self) -> int: ...

def _utf8_decoded(blocks: list[bytes], /) -> tuple[str, int]:
    """``blocks`` decoded as ``TextReader`` decodes them, and how many characters it counted."""

_Resolved = tuple[bool, str | None, str | None, tuple[str | None, str | None, str | None, str | None], bool]
"""``_native_rows.Resolved``: valid, scheme, error, the host columns, the second opinion's say."""

def mail_rows(
    extractor: Extractor,
    skipped: list[str],
    data: bytes,
    ends: Sequence[int],
    heaviest: int,
    hosts: HostColumns,
    /,
) -> tuple[
    list[tuple[int, str]],
    list[str | None],
    list[str | None],
    list[str | None],
    list[str | None],
    list[str | None],
    list[int],
    bytes,
    list[tuple[int, str, str, str]],
    bytes,
    list[str],
    list[str],
    list[tuple[str, ...]],
    list[object],
    bytes,
    list[_Resolved | None],
    list[tuple[int, tuple[str, bool, int, bool, int | None]]],
    list[tuple[int, tuple[object, ...]]],
]:
    """A chunk of messages' outcomes and rows as columns (``_native_mail``, issue 32)."""

def iso_date(date: str, /) -> str | None:
    """``dates.iso(date)`` by the core (rust/core/src/dates.rs); None where Python must say."""

def page_read(html: str, /) -> tuple[str, list[str], str | None] | None:
    """``sources.page.read(html)`` by the core (text, links, base); None where the page is left to
    Python (rust/core/src/mime/html.rs)."""

def header_decoded(value: str, /) -> tuple[str, str | None] | None:
    """``sources.mime._header_decoded(value)`` by the core; None where a word's charset is left to
    Python (rust/core/src/mime/words.rs)."""
