"""The Python face for files and archives: ``scan`` (paths, folders, binary file objects) and
``extract_message`` (one message), giving the rows ``urlsift --format jsonl`` prints, in its order.

No logic of its own: the command line's stages (``results``, ``units``, ``workers``, ``output``)
with the command line's defaults, so a row found here is the row the CLI prints. Rows come lazily,
a file's as it is read (``workers=N``: at most 2 units per worker ahead of the one being given), so
memory holds a few units' results, not the run's.
"""

from __future__ import annotations

import io
import os
from collections.abc import Generator, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, TypeGuard, Union, cast

from ._model import ProfileName
from .batches import Batch, in_batches
from .execute import STREAM_NAME, execute
from .grammar import PROFILES, Profile
from .output import Printing
from .plan import Plan, build
from .results import stream_results
from .rows import Event, Options, Report, Row, Tally
from .scanner import KNOWN_SCHEMES
from .sources import FORMATS, MAX_MESSAGE, ReadOptions
from .sources.mbox import is_separator
from .sources.packed import MAX_EXPAND
from .units import SPLIT_BYTES

if TYPE_CHECKING:
    from email.message import Message
    from email.policy import Policy

Source = Union[str, "os.PathLike[str]", IO[bytes]]
"""A path (a file or a folder, read as the command line reads it: "-" is standard input) or a
binary file object, read from where it stands and left open."""
MESSAGE_NAME = "<message>"
"""The ``source`` of ``extract_message``'s rows unless told."""


def scan(
    sources: Source | Iterable[Source],
    *,
    profile: Profile | str = "strict",
    naked: bool = True,
    invalid: bool = False,
    schemes: Iterable[str] | None = None,
    known_schemes: Iterable[str] = KNOWN_SCHEMES,
    canonical: bool = False,
    context: int | None = None,
    wayback: bool = False,
    workers: int = 1,
    input_format: str = "auto",
    text_fields: Sequence[str] = (),
    id_field: str | None = None,
    max_expand: int = MAX_EXPAND,
    max_message: int = MAX_MESSAGE,
    split_size: int = SPLIT_BYTES,
) -> Generator[Row | Report, None, None]:
    """The rows of ``sources`` (``output.FIELDS``, as ``urlsift --format jsonl`` prints them) and
    the problems met (``Report``: where, what kind, what; ``lost_input``: the CLI would exit 2), in the
    order the CLI gives them; the same options, with the same defaults (``--no-naked`` is
    ``naked=False``; ``schemes``: only the rows of these schemes; ``known_schemes``: the schemes
    found naked and quoted, as ``extract``'s ``schemes``: ``--schemes +doi`` is
    ``KNOWN_SCHEMES | {"doi"}``; ``canonical``, ``context=N``, ``wayback``: fill those columns;
    ``input_format="jsonl"`` with ``text_fields`` and ``id_field``: a JSON-lines dump). ``workers=N``
    reads with N processes, as ``-j N`` does (no more than there are units of work; file objects
    are read in this process, in their turn).

    Lazy: a file is read as its rows are taken, and stopping early (``close()``, or the generator
    dropped) stops the workers. The
    arguments are checked now (``ValueError``); a file that cannot be read is a ``Report``, and
    the rest is still read::

        for found in urlsift.scan(["lists/", "old.mbox.gz"], workers=4):
            if isinstance(found, urlsift.Report):
                print(f"{found.place}: {found.kind}: {found.detail}")
            else:
                row = found._asdict()  # JSON-ready: json.dumps(row)
    """
    planned, printing = _planned(
        sources, profile, naked, invalid, schemes, known_schemes, canonical, context, wayback, workers,
        input_format, text_fields, id_field, max_expand, max_message, split_size,
    )  # fmt: skip
    found = (event for _, batches, _ in execute(planned) for batch in batches for event in batch.events())
    return _selected(found, printing)


def scan_batches(
    sources: Source | Iterable[Source],
    *,
    profile: Profile | str = "strict",
    naked: bool = True,
    invalid: bool = False,
    schemes: Iterable[str] | None = None,
    known_schemes: Iterable[str] = KNOWN_SCHEMES,
    canonical: bool = False,
    context: int | None = None,
    wayback: bool = False,
    workers: int = 1,
    input_format: str = "auto",
    text_fields: Sequence[str] = (),
    id_field: str | None = None,
    max_expand: int = MAX_EXPAND,
    max_message: int = MAX_MESSAGE,
    split_size: int = SPLIT_BYTES,
) -> Generator[Batch, None, None]:
    """What ``scan`` gives, with the same arguments, as columns: ``Batch``es of up to
    ``batches.BATCH_ROWS`` rows and reports, each message's provenance held once (issue 29).
    ``batch.to_rows()`` gives ``scan``'s rows and reports; ``batch.to_arrow()`` (or
    ``pyarrow.table(batch)``, polars, DuckDB: the Arrow stream protocol) a table of the Parquet
    output's columns, with the ``parquet`` extra; the batches' ``tally``s add up to the run's::

        table = pyarrow.concat_tables(batch.to_arrow() for batch in urlsift.scan_batches("lists/"))
    """
    planned, printing = _planned(
        sources, profile, naked, invalid, schemes, known_schemes, canonical, context, wayback, workers,
        input_format, text_fields, id_field, max_expand, max_message, split_size,
    )  # fmt: skip
    select = printing.selected if printing.schemes is not None or printing.canonical else None
    return in_batches(execute(planned), select)


def _planned(
    sources: Source | Iterable[Source],
    profile: Profile | str,
    naked: bool,
    invalid: bool,
    schemes: Iterable[str] | None,
    known_schemes: Iterable[str],
    canonical: bool,
    context: int | None,
    wayback: bool,
    workers: int,
    input_format: str,
    text_fields: Sequence[str],
    id_field: str | None,
    max_expand: int,
    max_message: int,
    split_size: int,
) -> tuple[Plan, Printing]:
    """``scan``'s and ``scan_batches``' arguments, checked now (the folders are walked lazily)."""
    if isinstance(text_fields, str):
        raise ValueError(f"text_fields is a sequence of dotted paths, not the string {text_fields!r}")
    read = ReadOptions(
        _format(input_format),
        _size("max_expand", max_expand),
        _size("max_message", max_message),
        tuple(text_fields),
        id_field,
    )
    options = _options(profile, naked, invalid, read, known_schemes, context, wayback)
    printing = _printing(options, schemes, canonical)
    given = list(_sources(sources))
    return build(given, options, jobs=workers, split=split_size), printing


def extract_message(
    message: bytes | Message,
    *,
    profile: Profile | str = "strict",
    naked: bool = True,
    invalid: bool = False,
    schemes: Iterable[str] | None = None,
    known_schemes: Iterable[str] = KNOWN_SCHEMES,
    canonical: bool = False,
    context: int | None = None,
    wayback: bool = False,
    source: str = MESSAGE_NAME,
    max_message: int = MAX_MESSAGE,
) -> Generator[Row | Report, None, None]:
    """The rows of one message (its headers, then its text parts, decoded as an archive's are;
    ``message_id``, ``date`` and ``newsgroups`` from its headers; ``source`` as given, ``message``
    0) and its problems, as ``scan`` gives those of a file holding it alone. ``message``: its
    bytes (maybe after an mbox ``From `` line, which then says what a pipermail archive's says:
    D32), or an ``email.message.Message`` (its ``From `` line, if it has one, too: a
    ``mailbox.mboxMessage``'s)::

        for message in mailbox.mbox("list.mbox"):
            rows = [found for found in urlsift.extract_message(message) if not isinstance(found, Report)]
    """
    from email.message import Message  # (a program that passes one has imported it already)

    data = _message_bytes(message) if isinstance(message, Message) else message
    if not isinstance(data, bytes):
        raise TypeError(f"a message is bytes or an email.message.Message, not {type(message).__name__}")
    in_mbox = is_separator(data.split(b"\n", 1)[0].rstrip(b"\r"))
    read = ReadOptions("mbox" if in_mbox else "eml", MAX_EXPAND, _size("max_message", max_message))
    options = _options(profile, naked, invalid, read, known_schemes, context, wayback)
    printing = _printing(options, schemes, canonical)
    return _selected(stream_results(io.BytesIO(data), source, options, Tally()), printing)


def _options(
    profile: Profile | str,
    naked: bool,
    invalid: bool,
    read: ReadOptions,
    known: Iterable[str],
    context: int | None = None,
    wayback: bool = False,
) -> Options:
    name = profile.name if isinstance(profile, Profile) else profile
    if name not in PROFILES:
        raise ValueError(f"not a profile: {profile!r} (one of {', '.join(sorted(PROFILES))})")
    name = cast(ProfileName, name)
    if isinstance(known, str):
        raise TypeError(f"known_schemes is a set of schemes, not the string {known!r}")
    schemes = frozenset(scheme.lower() for scheme in known)
    if context is not None and (isinstance(context, bool) or not isinstance(context, int) or context < 0):
        raise ValueError(f"context must be a number of characters, not {context!r}")
    return Options(name, naked, invalid, schemes, read, context=context, wayback=bool(wayback))


def _size(name: str, size: int) -> int:
    """A number of bytes given as an argument, checked."""
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise ValueError(f"{name} must be a number of bytes, not {size!r}")
    return size


def _format(input_format: str) -> str:
    if input_format not in FORMATS:
        raise ValueError(f"not an input format: {input_format!r} (one of {', '.join(FORMATS)})")
    return input_format


def _printing(options: Options, schemes: Iterable[str] | None, canonical: bool) -> Printing:
    """What the CLI's ``--schemes`` and ``--canonical`` do to its rows (``output.Printing``)."""
    if isinstance(schemes, str):  # "http,ftp", as --schemes takes it
        schemes = schemes.split(",")
    wanted = None if schemes is None else frozenset(s.strip().lower() for s in schemes if s.strip())
    if wanted is not None and not wanted:
        raise ValueError("schemes: no scheme given (say ['http', 'ftp'], or None for all)")
    return Printing("jsonl", wanted, canonical, options.profile)


def _sources(sources: Source | Iterable[Source]) -> Iterator[str | IO[bytes]]:
    if isinstance(sources, (io.TextIOBase, bytes, bytearray)):  # iterated, they would give lines or ints
        raise TypeError(
            f"sources are paths or binary file objects, not {type(sources).__name__}"
            + (" (open the file in binary mode, 'rb')" if isinstance(sources, io.TextIOBase) else "")
        )
    listed: Iterable[object] = (
        [sources] if isinstance(sources, (str, os.PathLike)) or _is_file(sources) else sources
    )
    for source in listed:
        path = os.fspath(source) if isinstance(source, os.PathLike) else source
        if _is_file(path) and getattr(path, "closed", False):
            raise ValueError(f"a source file object is closed: {getattr(path, 'name', path)!r}")
        if isinstance(path, str) or _is_file(path):
            yield path
        else:
            raise TypeError(f"a source is a path or a binary file object, not {type(source).__name__}")


def _is_file(source: object) -> TypeGuard[IO[bytes]]:
    return callable(getattr(source, "read", None)) and not isinstance(source, io.TextIOBase)


def _selected(events: Iterable[Event], printing: Printing) -> Generator[Row | Report, None, None]:
    """The rows ``printing`` keeps (with their canonical form), and the reports."""
    for event in events:
        if isinstance(event, Report):
            yield event
        elif (row := printing.selected(event)) is not None:
            yield row


def _message_bytes(message: Message) -> bytes:
    """A parsed message as the bytes it was parsed from, as near as the email package gives them:
    its header lines not folded again (a long line stays one line, so lines and columns stay
    those of the original), and its ``From `` line first when it has one."""
    policy: Policy = message.policy.clone(max_line_length=0, linesep="\n")
    try:
        data = message.as_bytes(unixfrom=False, policy=policy)
    except UnicodeEncodeError:  # a str payload not ASCII (a program's): as_bytes cannot write it
        data = message.as_string(unixfrom=False, policy=policy).encode("utf-8", "surrogateescape")
    data = _raw_headers(message, data)
    separator = message.get_unixfrom()
    get_from = getattr(message, "get_from", None)  # mailbox.mboxMessage keeps it apart
    if separator is None and callable(get_from):
        separator = f"From {get_from()}"
    if not separator:
        return data
    return separator.encode("ascii", "surrogateescape") + b"\n" + data


def _raw_headers(message: Message, data: bytes) -> bytes:
    """``data`` with its header block as the message was parsed from: the generator writes a
    folded header again without the spaces before its line breaks, which moves columns. A header
    a program set (not a plain str, or not 7-bit) keeps the generator's form."""
    end = data.find(b"\n\n")
    if end < 0 or not message.raw_items():
        return data
    lines = []
    for name, value in message.raw_items():
        if type(value) is not str:
            return data
        try:
            lines.append(f"{name}: {value}\n".encode("ascii", "surrogateescape"))
        except UnicodeEncodeError:
            return data
    return b"".join(lines) + data[end + 1 :]


__all__ = [
    "MESSAGE_NAME",
    "STREAM_NAME",
    "Batch",
    "Report",
    "Row",
    "Source",
    "extract_message",
    "scan",
    "scan_batches",
]
