"""The native core (rust/py, built by maturin): the fullmatch executor of the grammars. Stubs for
mypy; ``urlsift._select`` decides whether it is used."""

from collections.abc import Mapping
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
        """Header names and values (RFC 2047 words as written), Message-ID, Date, Newsgroups, part
        names and texts, flowed {part: DelSp=yes}, defects (kind, part, detail); or why the Python
        reader must read the message."""
