"""The command line: ``urlsift PATH...`` (find URLs in files, folders and archives),
``urlsift validate URL...`` and ``urlsift report PATH... -o FILE`` (an HTML page of their links).

Exit status, as grep and ripgrep: ``urlsift PATH...`` exits 0 when it found a URL, 1 when it found
none, 2 when something could not be read (everything else is still scanned); ``urlsift validate``
exits 0 when every URL is valid, 1 when one is not; both exit 2 on a usage error and when the
output cannot be written (a full disk: one line on standard error, never a traceback), and 130
when interrupted (Ctrl-C: the ``--stats`` summary of what was read so far comes first). A closed
pipe (``urlsift big.mbox | head``) ends quietly, with 0.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import itertools
import os
import stat
import sys
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import cache, partial, wraps
from typing import IO, TYPE_CHECKING, Any, Literal, NamedTuple, Protocol, TextIO, TypeVar, cast

from . import _select, manual
from ._model import Verdict
from ._version import __version__
from .batches import Batch
from .errors import Error
from .execute import Scanned, execute
from .grammar import PROFILES, STRICT
from .marks import PLAIN, Marks
from .output import FORMATS, BatchWriter, Format, Printing, Writer, batch_writer, columnar, escaped, writer
from .plan import COMMAND_LINE, Plan, build, filters
from .progress import Progress
from .rows import PARTS, Options, Report, Row, Tally
from .scanner import KNOWN_SCHEMES, MAX_SCHEME_CHARS
from .sources import FORMATS as INPUT_FORMATS
from .sources import MAX_MESSAGE, ReadOptions
from .sources.kinds import is_repository
from .sources.packed import MAX_EXPAND, ZSTD_WINDOW_LOG, ZSTD_WINDOW_LOGS
from .units import SPLIT_BYTES
from .validate import validate

if TYPE_CHECKING:
    import regex

INTERRUPTED = 130
"""The exit status after Ctrl-C, as shells give a process ended by SIGINT (128 + 2)."""


@cache
def _pattern(text: str) -> regex.Pattern[str]:
    """``text`` compiled by the regex module, imported when an argument is first read by one (a
    plain run reads none, and the module's import is a large part of a start)."""
    import regex

    return regex.compile(text)


# D28: the command line (not validate()) may strip one wrapper the user pasted with the URL.
_WRAPPER = r"(?is)<\s*(?:URL:\s*)?(.*?)\s*>|URL:\s*(.*)"


def _unwrap(argument: str) -> tuple[str, bool]:
    m = _pattern(_WRAPPER).fullmatch(argument)
    if m is None:
        return argument, False
    return (m.group(1) if m.group(1) is not None else m.group(2)), True


def _line(verdict: Verdict, unwrapped: bool) -> str:
    fields = ["valid" if verdict.valid else "invalid", verdict.url]
    if verdict.error is not None:
        fields.append(str(verdict.error))
    fields.extend(str(caveat) for caveat in verdict.warnings)
    if unwrapped:
        fields.append("(wrapper stripped)")
    return "\t".join(map(escaped, fields))  # a URL argument may hold ESC, BEL, U+202E ...


MAX_URL_LINE = 1 << 20
"""``urlsift validate -``: a line longer than this is no URL anyone pasted: it is reported and
skipped as it streams past, never held (a line of 1 GiB would take 4 GB as a str)."""


def _arguments(urls: Sequence[str], skipped: Callable[[int], None]) -> Iterable[str]:
    """The URLs to judge: the arguments, and for ``-`` each line of standard input that is not
    blank; ``skipped`` is told the number of each line over MAX_URL_LINE bytes."""
    for url in urls:
        if url == "-":
            stdin = sys.stdin
            raw: _Readable | None = getattr(stdin, "buffer", None)
            decoding = stdin.encoding, stdin.errors or "strict"
            if raw is None:  # a text stream a program put there (io.StringIO): its text as UTF-8
                raw, decoding = _Encoded(stdin), ("utf-8", "surrogatepass")
            yield from (line.decode(*decoding).rstrip("\r") for line in _bounded_lines(raw, skipped))
        else:
            yield url


class _Readable(Protocol):
    def read(self, size: int, /) -> bytes: ...


class _Encoded:
    """A text stream read as UTF-8 bytes."""

    def __init__(self, text: IO[str]) -> None:
        self._text = text

    def read(self, size: int, /) -> bytes:
        return self._text.read(size).encode("utf-8", "surrogatepass")


def _bounded_lines(stream: _Readable, skipped: Callable[[int], None]) -> Iterator[bytes]:
    """The lines of ``stream`` that are not blank, without their line feeds, as they come (read1:
    a line typed is judged at once); a line over MAX_URL_LINE bytes is measured, not held."""
    read: Callable[[int], bytes] = getattr(stream, "read1", stream.read)
    held: list[bytes] = []  # the start of a line that runs on into the next chunk, up to the limit
    length, number = 0, 1  # that line's length so far; its number, from 1
    while True:
        chunk = read(_LIST_CHUNK)
        *ended, rest = chunk.split(b"\n") if chunk else [b"", b""]
        for piece in ended:
            length += len(piece)
            if length > MAX_URL_LINE:
                skipped(number)
            else:
                line = b"".join([*held, piece]) if held else piece
                if line and not line.isspace():
                    yield line
            held, length = [], 0
            number += 1
        if not chunk:
            return
        length += len(rest)
        held = [*held, rest] if length <= MAX_URL_LINE else []


def _side_by_side(verdicts: Sequence[Verdict], unwrapped: bool) -> str:
    """``--profile both``: each profile's word, the URL, then each profile's reason or warnings."""
    fields = [f"{v.profile}:{'valid' if v.valid else 'invalid'}" for v in verdicts]
    fields.append(verdicts[0].url)
    for verdict in verdicts:
        said = [str(verdict.error)] if verdict.error is not None else []
        said.extend(str(caveat) for caveat in verdict.warnings)
        fields.extend(f"{verdict.profile}: {text}" for text in said)
    if unwrapped:
        fields.append("(wrapper stripped)")
    return "\t".join(map(escaped, fields))


def _run_validate(urls: Sequence[str], profile: str) -> int:
    status = 0
    out = _Output(sys.stdout)
    profiles = sorted(PROFILES, key=lambda name: name != "strict") if profile == BOTH else [profile]

    def skipped(number: int) -> None:
        nonlocal status
        status = 1  # not judged, so not valid
        out.flush()  # the lines before it first
        print(
            f"urlsift: standard input, line {number:,}: over {MAX_URL_LINE:,} bytes, no URL; not judged",
            file=sys.stderr,
        )

    try:
        for argument in _arguments(urls, skipped):
            url, unwrapped = _unwrap(argument)
            verdicts = [validate(url, profile=profile) for profile in profiles]
            line = _side_by_side(verdicts, unwrapped) if len(verdicts) > 1 else _line(verdicts[0], unwrapped)
            out.write(line + "\n")
            if not all(verdict.valid for verdict in verdicts):
                status = 1
    except KeyboardInterrupt:
        out.flush()
        print("urlsift: interrupted", file=sys.stderr)
        return INTERRUPTED
    out.flush()
    return status


BOTH = "both"
"""``urlsift validate --profile both``: every profile's verdict, strict first."""


class _Formatter(argparse.HelpFormatter):
    """Paragraphs filled to the terminal, as argparse does; an epilog's indented lines (the examples)
    kept as they are written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        kept: list[str] = []
        for kind, group in itertools.groupby(text.splitlines(), _line_kind):
            lines = list(group)
            filled = super()._fill_text(" ".join(lines), width, indent) if kind == "text" else None
            kept.append("\n".join(lines) if filled is None else filled)
        return "\n".join(kept)


def _line_kind(line: str) -> str:
    return "example" if line.startswith("  ") else "text" if line.strip() else "blank"


class _Manual(argparse.Action):
    """``--completion SHELL`` and ``--manpage``: print what manual.py makes of the parsers, and exit."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        scan, commands = (
            _scan_parser(),
            {manual.VALIDATE: _validate_parser(), manual.REPORT: _report_parser()},
        )
        if option_string == "--manpage":
            said = manual.manpage(scan, commands)
        else:
            said = manual.completion(str(values), scan, commands)
        sys.stdout.write(said)
        parser.exit()


class _Version(argparse.Action):
    """``--version``: the version and the core that runs (issue 31), read when asked, so a parser
    built once a process names the core selected at the time."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        sys.stdout.write(f"urlsift {__version__} (core: {_select.CORE})\n")
        parser.exit()


def _command(
    prog: str,
    description: str,
    operand: str,
    operand_help: str,
    profiles: Sequence[str],
    nargs: str = "+",
    epilog: str | None = None,
) -> argparse.ArgumentParser:
    """A parser with what both commands share: their operands, ``--version`` and ``--profile``."""
    parser = argparse.ArgumentParser(
        prog=prog, description=description, epilog=epilog, formatter_class=_Formatter
    )
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        default=argparse.SUPPRESS,
        help="show program's version number and exit",
    )
    parser.add_argument(operand.lower() + "s", nargs=nargs, metavar=operand, help=operand_help)
    parser.add_argument(
        "--profile",
        choices=profiles,
        default="strict",
        help="strict: RFC 1738 as written (default); modern: RFC 3986/3987 and the scheme RFCs after 1738",
    )
    return parser


@cache  # built once a process: a parse changes nothing in it (a program may call main() often)
def _validate_parser() -> argparse.ArgumentParser:
    return _command(
        "urlsift validate",
        "Print one line per URL: 'valid' or 'invalid', the URL, and where and why it fails, then any "
        "warnings, tab-separated. '-' reads one URL per line from standard input. '--profile both' "
        "gives each profile's verdict on one line ('strict:invalid<TAB>modern:valid<TAB>URL<TAB>"
        "strict: why ...'). Exit 0 if all are valid (under every profile asked), 1 if any is not.",
        "URL",
        "a URL, or - for standard input",
        [*sorted(PROFILES), BOTH],
        epilog=_VALIDATE_EXAMPLES,
    )


_SCAN_EXAMPLES = """\
examples:
  urlsift notes.txt
      the valid URLs of a text, one a line
  urlsift ~/Mail/lists.mbox ~/Maildir/
      mbox files and mail folders (Maildir, MH, news spools), messages decoded;
      each URL after its file's name (PATH:URL), as grep (--no-filename: none)
  mutt ... | urlsift
      standard input, when no PATH is given
  urlsift -c -s --include '*.mbox' ~/Mail/
      how many URLs each mbox of a folder holds, no reports (files with none
      left out, as rg -c)
  urlsift --format jsonl --wayback spool/
      each URL with its file, message, date and part, as JSON lines
  urlsift --profile modern --unique archive.tar.gz
      each URL once, by today's rules (RFC 3986), with how often it came
  urlsift --format parquet --output urls/ lists/
      Parquet files for DuckDB, pandas or Spark (urlsift[parquet])
  urlsift -j 4 --stats big.mbox.zst
      four processes, and a summary on standard error at the end
  urlsift --input-format jsonl --text-field body --id-field id RS_2024-01.zst
      the body field of each record of a JSON-lines dump
  urlsift --state lore.state lore/git/
      a public-inbox: only the messages new since the last run
  urlsift crawl.warc.gz
      the pages of a WARC or WET file (urlsift[warc])
  urlsift validate 'http://host/~user/'
      why a URL is refused (see urlsift validate -h)
  urlsift report -o links.html lists/
      an HTML page of the links found (see urlsift report -h; urlsift[report])

The user guide is in the source's docs/ (a site built with mkdocs); the man page is
urlsift(1) (urlsift --manpage); urlsift --completion bash|zsh|fish prints a completion script."""

_VALIDATE_EXAMPLES = """\
examples:
  urlsift validate 'http://host/~user/'
      why RFC 1738 refuses it
  urlsift validate --profile both 'mailto:a@b?body=http://x/'
      both profiles' verdicts, side by side
  urlsift validate - < urls.txt
      one URL a line from standard input"""


@cache  # (as _validate_parser)
def _scan_parser() -> argparse.ArgumentParser:
    parser = _command(
        "urlsift",
        "Find the URLs of text files, mail and news archives as RFC 1738's appendix says (<URL:...> "
        "and <scheme:...> wrappers, rejoined across lines; quoted and naked URLs) and print the valid "
        "ones, one per line. Folders (Maildir, MH, news spools), mbox files, messages, public-inbox "
        "git repositories, WARC/WET files, zip and tar archives and gzip/bzip2/xz/zstd files are read "
        "as they are (JSON lines with --input-format jsonl). 'urlsift validate URL...' judges URLs "
        "instead (see 'urlsift validate -h'). Exit status: 0 if a URL was found, 1 if none, 2 if "
        "something could not be read (the rest is still scanned).",
        "PATH",
        "a file or folder, or - for standard input (read when no PATH is given and it is a pipe or a "
        "file, as grep and ripgrep read it)",
        sorted(PROFILES),
        nargs="*",  # none with --files-from (_parse_scan)
        epilog=_SCAN_EXAMPLES,
    )
    found = parser.add_argument_group("what to find")
    found.add_argument(
        "--no-naked",
        dest="naked",
        action="store_false",
        help="only delimited URLs, as the appendix recommends",
    )
    found.add_argument(
        "--invalid",
        action="store_true",
        help="also print the rejected candidates, each followed by a tab and the reason",
    )
    found.add_argument(
        "--schemes",
        type=_scheme_list,
        metavar="LIST",
        help="print only URLs of these schemes (say http,ftp); +LIST: find these schemes too, naked and "
        "quoted, beside the known ones (say +doi,hdl), each URL judged by the profile's generic rule",
    )
    found.add_argument(
        "--unique",
        action="store_true",
        help="print each URL once (by its canonical form), at the end, with how often it came (jsonl/csv)",
    )
    kept = parser.add_argument_group("what to keep")  # D38
    kept.add_argument(
        "--parts",
        choices=PARTS,
        default="all",
        help="scan the header values (List-*, Archived-At ...), the body (text parts; a plain text is one), "
        "or all (default: what a message holds; the part column says which)",
    )
    kept.add_argument(
        "--host",
        dest="hosts",
        action="append",
        metavar="HOST",
        help="keep only URLs of HOST or a host below it (example.org keeps a.example.org; a mailto: its "
        "domain); may be repeated",
    )
    kept.add_argument(
        "--since-date",
        metavar="DATE",
        help="keep only messages dated at or after DATE in UTC (2002, 2002-03, 2002-03-04 or an ISO 8601 "
        "time); texts with no date are left out",
    )
    kept.add_argument(
        "--until-date",
        metavar="DATE",
        help="keep only messages dated before the end of DATE (2002 keeps all of 2002), in UTC",
    )
    kept.add_argument(
        "--max-quote-depth",
        type=_count,
        metavar="N",
        help="keep only URLs quoted at most N levels deep (0: none in '>' quoted text)",
    )
    shown = parser.add_argument_group("what to print")
    shown.add_argument(
        "--format",
        choices=[*FORMATS, "parquet"],
        default="text",
        help="text: one URL per line (default); parquet: Parquet files in --output DIR (urlsift[parquet])",
    )
    shown.add_argument(
        "--output",
        metavar="FILE",
        help="write to FILE instead of standard output (text, jsonl, csv: replaced if it exists); with "
        "--format parquet: the folder to write (new or empty)",
    )
    shown.add_argument(
        "--canonical",
        action="store_true",
        help="print canonical forms (scheme and host lower-cased, default port dropped ...); jsonl/csv fill"
        " the canonical column",
    )
    shown.add_argument(
        "--context",
        type=_context_size,
        metavar="N",
        help="jsonl/csv/parquet: fill the context column with N characters each side of the URL",
    )
    shown.add_argument(
        "--wayback",
        action="store_true",
        help="jsonl/csv/parquet: fill the wayback column (the Web Archive's address of a valid URL at"
        " the time of its message's Date)",
    )
    shown.add_argument(
        "-c",
        "--count",
        action="store_true",
        help="print how many URLs each file holds instead (PATH:N; N alone for a single file); files "
        "with none are left out, as ripgrep does; --stats gives the total",
    )
    shown.add_argument(
        "-l",
        "--files-with-matches",
        action="store_true",
        help="print the name of each file that holds a URL instead, as grep -l",
    )
    named = shown.add_mutually_exclusive_group()
    named.add_argument(
        "-H",
        "--with-filename",
        dest="filename",
        action="store_true",
        default=None,
        help="text: start each line with its file's name and a colon (PATH:URL), as grep does; the "
        "default when several files are read (more PATHs, a folder, --files-from)",
    )
    named.add_argument(
        "--no-filename",
        dest="filename",
        action="store_false",
        help="text: no PATH: at the start of each line, however many files are read",
    )
    shown.add_argument(
        "--color",
        "--colour",
        choices=("auto", "always", "never"),
        default="auto",
        help="text, --count, -l: colour the file names and URLs: auto (the default) on a terminal, "
        "unless NO_COLOR is set or TERM is dumb",
    )
    shown.add_argument(
        "--stats", action="store_true", help="end with a summary on standard error (files, messages, URLs)"
    )
    shown.add_argument(
        "-0",
        "--null",
        action="store_true",
        help="end each line of output with NUL instead of a newline, for xargs -0: each URL (text), each "
        "URL and its reason (text --invalid), each JSON object (jsonl), each record and the header (csv), "
        "each PATH:N (--count)",
    )
    shown.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print nothing; exit 0 at the first URL found, else 1 (2 if something could not be read), "
        "as grep -q",
    )
    shown.add_argument("--no-progress", action="store_true", help="no progress bar on a terminal")
    shown.add_argument(
        "-s",
        "--no-messages",
        action="store_true",
        help="no reports on standard error about files that cannot be read or are damaged (the exit "
        "status still says it), as grep -s",
    )
    shown.add_argument(
        "--verbose",
        action="store_true",
        help="report each warning; by default a file's warnings of one kind after the first are "
        "summed up in one line at the end of the file",
    )
    read = parser.add_argument_group("how to read")
    read.add_argument(
        "--files-from",
        metavar="FILE",
        help="also read the files and folders listed in FILE (- for standard input), one a line (empty "
        "lines skipped), after the PATHs; a path that cannot be read is reported as a PATH is",
    )
    read.add_argument(
        "--include",
        action="append",
        default=[],
        metavar="GLOB",
        help="in folders: read only the files whose name matches GLOB (a GLOB with a / matches the path "
        "below the folder named); may be repeated; a PATH named is read whatever its name",
    )
    read.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="GLOB",
        help="in folders: skip the files whose name matches GLOB (as --include); may be repeated",
    )
    read.add_argument(
        "--null-data",
        action="store_true",
        help="with --files-from: the paths are separated by NUL, as find -print0 and notmuch search "
        "--output=files --format=text0 write them (a path may then hold a newline)",
    )
    read.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        default="auto",
        help="what the files are; auto: an mbox if the first line is a From_ separator, a message if "
        "it starts with mail or news headers (or is named .eml), else plain text; jsonl: JSON lines",
    )
    read.add_argument(
        "--zstd-window-log",
        type=_window_log,
        default=ZSTD_WINDOW_LOG,
        metavar="N",
        help=f"read Zstandard frames with windows up to 2**N bytes (default {ZSTD_WINDOW_LOG}; 31 for files "
        "packed with zstd --long=31, as the Reddit dumps are: up to 2 GiB of memory)",
    )
    read.add_argument(
        "--text-field",
        dest="text_fields",
        action="append",
        metavar="PATH",
        help="with --input-format jsonl: a field to scan (a dotted path: data.body); may be repeated",
    )
    read.add_argument(
        "--id-field",
        metavar="PATH",
        help="with --input-format jsonl: the field that names a record (its message_id column)",
    )
    read.add_argument(
        "--date-field",
        metavar="PATH",
        help="with --input-format jsonl: the field that dates a record (its date column, and --wayback's "
        "time): epoch seconds or milliseconds, or ISO 8601",
    )
    read.add_argument(
        "--max-expand",
        type=_size,
        default=MAX_EXPAND,
        metavar="SIZE",
        help="stop a compressed file or member that expands past SIZE (default 20G) or 1000x its size",
    )
    read.add_argument(
        "--max-message",
        type=_size,
        default=MAX_MESSAGE,
        metavar="SIZE",
        help="skip and report a message larger than SIZE (default 100M)",
    )
    read.add_argument(
        "--since",
        metavar="COMMIT",
        help="public-inbox: read only the messages of the commits after COMMIT (and of the epochs after its)",
    )
    read.add_argument(
        "--state",
        metavar="FILE",
        help="public-inbox: read only the messages after those the runs with this FILE read; FILE records "
        "each repository's last commit read, updated at the end of the run",
    )
    read.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="read with N processes (at most one per unit of work): files over --split-size (mbox, jsonl, "
        "text, zip, tar) in pieces, small files in batches; the output is the same, in the same order",
    )
    read.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="read on a Dask cluster instead, as -j does: tcp://HOST:8786 (an existing scheduler; the "
        "workers must see the paths) or local:N (N worker processes here); needs urlsift[dask]",
    )
    read.add_argument(
        "--split-size",
        dest="split",
        type=_positive_size,
        default=SPLIT_BYTES,
        metavar="SIZE",
        help="with -j or --scheduler: cut a file larger than SIZE (default 16M) into pieces of about SIZE",
    )
    about = parser.add_argument_group("about urlsift")
    about.add_argument(
        "--completion",
        choices=manual.SHELLS,
        action=_Manual,
        help="print the completion script of this shell (made from these options) and exit",
    )
    about.add_argument(
        "--manpage", nargs=0, action=_Manual, help="print the man page, urlsift(1), in roff and exit"
    )
    return parser


_REPORT_GROUPS = ("what to find", "what to keep", "how to read")
"""The scan's option groups a report takes as they are."""
_NOT_REPORTED = frozenset({"invalid", "unique"})
"""Scan options that mean nothing to a report: it always keeps the rejected candidates, counts
every URL."""

_REPORT_DESCRIPTION = (
    "Scan PATHs as 'urlsift PATH...' does (the same inputs, and the options of its 'what to find', "
    "'what to keep' and 'how to read' groups) and write one HTML page of what their links are: totals, "
    "URLs and hosts per year, top hosts and domains overall and per decade, schemes, headers and "
    "bodies, what the strict profile rejects and why (and what the modern profile would take), quote "
    "depth, the most cited URLs with their Wayback addresses, and the problems met. The page needs no "
    "network and prints well. The rows go to a Parquet dataset (a temporary one unless --dataset DIR) "
    "that DuckDB sums up, so an archive of any size fits in bounded memory; --from DATASET makes the "
    "page of a dataset written before. Needs urlsift[report]. Exit status: 0 when the page is written, "
    "2 if something could not be read (the page is still written) or it could not be."
)

_REPORT_EXAMPLES = """\
examples:
  urlsift report -o lists.html ~/Mail/lists/
      the page of a folder of mbox files
  urlsift report -j 4 --dataset urls/ -o lists.html lists/
      four processes; the rows kept in urls/ for DuckDB (and for --from)
  urlsift report --from urls/ --top 50 -o lists.html
      the page again from the rows kept, with longer lists
  urlsift --format jsonl --invalid lists/ > urls.jsonl && urlsift report --from urls.jsonl -o lists.html
      the page of a scan's JSON lines"""


def _report_parser() -> argparse.ArgumentParser:
    """The parser of ``urlsift report``: the scan's groups of options that say what is read and
    found (the very same actions: one help text each), and the report's own."""
    from . import report  # (urlsift report's own modules: a scan never loads them)

    parser = _command(
        "urlsift report",
        _REPORT_DESCRIPTION,
        "PATH",
        "a file or folder, or - for standard input (as urlsift PATH...)",
        sorted(PROFILES),
        nargs="*",
        epilog=_REPORT_EXAMPLES,
    )
    for action in parser._actions:
        if action.dest == "profile":
            action.help = (
                "strict: RFC 1738 as written (default); modern: RFC 3986/3987 and later; with --from: the "
                "profile the dataset was scanned with"
            )
    # A scan parser of its own, not the one kept: an action added to a parser becomes that parser's.
    for group in _scan_parser.__wrapped__()._action_groups:
        if group.title in _REPORT_GROUPS:
            shared = parser.add_argument_group(group.title)
            for action in group._group_actions:
                if action.dest not in _NOT_REPORTED:
                    shared._add_action(action)
    own = parser.add_argument_group("the report")
    own.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        required=True,
        help="the HTML page to write (replaced if it exists; - for standard output)",
    )
    own.add_argument(
        "--from",
        dest="dataset_in",
        metavar="DATASET",
        help="make the page of a dataset written before instead of scanning: a folder of Parquet files "
        "(--format parquet --output DIR, or --dataset DIR), one Parquet file, or a JSON-lines file "
        "(--format jsonl; with --invalid, so that rejected candidates are in it); --host, --since-date, "
        "--until-date, --schemes, --parts and --max-quote-depth choose its rows, the scan's other options "
        "are refused",
    )
    own.add_argument(
        "--dataset",
        metavar="DIR",
        help="keep the scan's rows in DIR (new or empty): Parquet files as --format parquet writes them, "
        "with the problems met in DIR/reports/ and the run's counts in DIR/run.json",
    )
    own.add_argument(
        "--top",
        type=_top,
        default=report.TOP,
        metavar="N",
        help=f"N entries in each list (default {report.TOP}, at most {report.MAX_TOP:,})",
    )
    own.add_argument("--title", metavar="TEXT", help="the page's title (default: what was read)")
    own.add_argument(
        "--memory",
        type=_positive_size,
        default=report.MEMORY,
        metavar="SIZE",
        help="the memory DuckDB may use before it spills to a temporary folder (default 500M)",
    )
    own.add_argument("--no-progress", action="store_true", help="no progress bar on a terminal")
    # What the scan's options that a report does not take would say (cli.scan_options reads them).
    parser.set_defaults(invalid=True, stats=False, context=None, wayback=False)
    return parser


class _Scan(NamedTuple):
    """The scan command's arguments as the rest of the command line takes them: the parser's
    Namespace goes no further than ``_parse_scan``; what a run reads is the plan's (``plan.build``)."""

    paths: tuple[str, ...]
    files_from: str | None
    null_data: bool
    options: Options
    jobs: int
    scheduler: str | None
    split: int
    since: str | None
    state: str | None
    output_format: Format | Literal["parquet"]
    output: str | None
    canonical: bool
    unique: bool
    counts: bool
    """``--count``: how many URLs each file holds, instead of them (a tuple's ``count`` is a method)."""
    stats: bool
    quiet: bool
    """grep's ``-q``: nothing printed, the run ends at the first URL found."""
    null: bool
    printed: frozenset[str] | None
    """``--schemes LIST``: only these are printed (None: every one)."""
    files_with_matches: bool = False
    filename: bool = False
    """``PATH:`` before each line of text (``-H``; by default when several files are read)."""
    color: bool = False
    progress: bool = True
    no_messages: bool = False
    verbose: bool = False
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()


def _parse_scan(arguments: Sequence[str]) -> _Scan:
    """The scan command's arguments, with the usage errors argparse cannot see by itself."""
    parser = _scan_parser()
    args = parser.parse_args(arguments)
    if not args.paths and args.files_from is None:
        if not _stdin_readable():  # a terminal (or nothing): a usage error, not a wait for typing
            parser.error("the following arguments are required: PATH (or --files-from FILE)")
        args.paths = ["-"]  # as grep and ripgrep: `mutt ... | urlsift`, `urlsift < x.mbox`
    if args.null_data and args.files_from is None:
        parser.error("--null-data goes with --files-from (it says how the list is separated)")
    if args.files_from == "-" and "-" in args.paths:
        parser.error("standard input cannot be both the list of files (--files-from -) and a file (-)")
    options = scan_options(args)
    return _Scan(
        tuple(args.paths),
        args.files_from,
        args.null_data,
        options,
        args.jobs,
        args.scheduler,
        args.split,
        args.since,
        args.state,
        args.format,
        args.output,
        args.canonical,
        args.unique,
        args.count,
        args.stats,
        args.quiet,
        args.null,
        None if args.schemes is None else args.schemes.printed(),
        files_with_matches=args.files_with_matches,
        filename=_several(args) if args.filename is None else args.filename,
        color=_color(args.color, args.output),
        progress=not (args.no_progress or args.quiet),
        no_messages=args.no_messages,
        verbose=args.verbose,
        include=tuple(args.include),
        exclude=tuple(args.exclude),
    )


def scan_options(args: argparse.Namespace) -> Options:
    """What a scan looks for and keeps, from the options ``urlsift`` and ``urlsift report`` share."""
    read = ReadOptions(
        args.input_format,
        args.max_expand,
        args.max_message,
        tuple(args.text_fields or ()),
        args.id_field,
        args.zstd_window_log,
        date_field=args.date_field,
    )
    return Options(
        profile=args.profile,
        naked=args.naked,
        invalid=args.invalid,
        schemes=KNOWN_SCHEMES if args.schemes is None else args.schemes.found(),
        read=read,
        # --stats (or the hint on a terminal) tells a strict user how many rejections today's rules
        # would take: the rejected are judged again (a cost a terminal's reader does not see).
        second_opinion="modern" if args.profile == STRICT.name and (args.stats or _stderr_tty()) else None,
        context=args.context,
        wayback=args.wayback,
        filters=filters(
            args.parts, args.hosts or (), args.since_date, args.until_date, args.max_quote_depth, COMMAND_LINE
        ),
    )


def _stdin_readable() -> bool:
    """Whether standard input is a pipe, a file or a socket, as ripgrep asks before reading it
    with no PATH given: not a terminal, and not /dev/null (a job run by cron or CI has it)."""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (OSError, ValueError, AttributeError):  # closed, or a test's stand-in with no descriptor
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISREG(mode) or stat.S_ISSOCK(mode)


def _several(args: argparse.Namespace) -> bool:
    """Whether several files may be read: more than one PATH, a folder, a list (grep's and
    ripgrep's rule for naming each line's file). A public-inbox repository, a folder read as one
    archive, is one."""
    paths: list[str] = args.paths
    if args.files_from is not None or len(paths) > 1:
        return True
    return any(p != "-" and os.path.isdir(p) and not is_repository(p) for p in paths)


def _color(when: str, output: str | None) -> bool:
    """``--color``: auto colours standard output when it is a terminal, unless NO_COLOR is set
    (no-color.org: not empty) or TERM is dumb; always and never say it outright."""
    if when != "auto":
        return when == "always"
    if output is not None or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except (OSError, ValueError):
        return False


_LIST_CHUNK = 1 << 16
MAX_LISTED_PATH = 1 << 16
"""A ``--files-from`` entry longer than this is no path (systems refuse names past 4 KiB): the
list is not one, and reading it stops (memory stays bounded whatever the file is)."""


@contextlib.contextmanager
def _paths(args: _Scan | argparse.Namespace) -> Iterator[Iterable[str]]:
    """The PATHs, then those of the ``--files-from`` list, read as they are needed (a list of
    millions of files is never held). The list is opened and its first chunk read first: one
    that cannot be read, or is no list (``_listed``), stops the run before any work (``main``
    says it in one line, exit 2)."""
    if args.files_from is None:
        yield args.paths
        return
    separator = b"\0" if args.null_data else b"\n"
    with contextlib.ExitStack() as stack:
        if args.files_from == "-":
            listing, named = sys.stdin.buffer, "standard input"
        else:
            listing, named = stack.enter_context(open(args.files_from, "rb")), args.files_from
        listed = _listed(listing, separator, named)
        first = next(listed, None)
        yield itertools.chain(args.paths, [] if first is None else [first], listed)


def _listed(listing: IO[bytes], separator: bytes, named: str) -> Iterator[str]:
    """The paths of a ``--files-from`` list, each ended by ``separator`` (the last one may not
    be), decoded as the file system's names are (``os.fsdecode``: any bytes come through)."""
    # What has come (read1), not a full chunk: a list that a search writes as it goes is scanned
    # as it comes.
    read = getattr(listing, "read1", listing.read)
    held: list[bytes] = []  # the start of a path that runs on into the next chunk (kept linear)
    length = 0
    while chunk := read(_LIST_CHUNK):
        if separator == b"\n" and b"\0" in chunk:  # no path holds one: find -print0 wrote it
            raise _Refused(f"{escaped(named)}: a NUL in the list of files (find -print0's?): add --null-data")
        *ended, rest = chunk.split(separator)
        for path in ended:
            if held:
                path, held, length = b"".join([*held, path]), [], 0
            if len(path) > MAX_LISTED_PATH:
                raise _not_a_list(named)
            yield from _listed_path(path, separator)
        if rest:
            held.append(rest)
            length += len(rest)
            if length > MAX_LISTED_PATH:
                raise _not_a_list(named)
    yield from _listed_path(b"".join(held), separator)


def _not_a_list(named: str) -> Exception:
    return _Refused(f"{escaped(named)}: not a list of files (an entry longer than {MAX_LISTED_PATH:,} bytes)")


def _listed_path(path: bytes, separator: bytes) -> Iterator[str]:
    if separator == b"\n" and path.endswith(b"\r"):  # a list written on Windows
        path = path[:-1]
    if not path:  # an empty line names no file
        return
    # A listed "-" is a file of that name (find writes "./-"), never standard input again.
    yield "./-" if path == b"-" else os.fsdecode(path)


class _Schemes(NamedTuple):
    """``--schemes``: the schemes to print only, or (``+LIST``) those to find beside the known ones."""

    names: frozenset[str]
    added: bool

    def found(self) -> frozenset[str]:
        """The schemes the scanner finds naked, quoted and in bare ``<...>``."""
        return KNOWN_SCHEMES | self.names if self.added else KNOWN_SCHEMES

    def printed(self) -> frozenset[str] | None:
        """The schemes printed (None: every one)."""
        return None if self.added else self.names


# D2's scheme characters, from a letter (as the scanner wants them); one longer than the scanner
# looks back from a colon could never be found naked.
_SCHEME_NAME = rf"[a-z][a-z0-9+.\-]{{0,{MAX_SCHEME_CHARS - 1}}}"


def _scheme_list(text: str) -> _Schemes:
    added = text.lstrip().startswith("+")  # no scheme starts with "+": it cannot be one misread
    words = text.lstrip().removeprefix("+").split(",")
    schemes = frozenset(word.strip().lower() for word in words if word.strip())
    if not schemes:
        raise argparse.ArgumentTypeError("no scheme given (say http,ftp, or +doi,hdl)")
    wrong = sorted(scheme for scheme in schemes if not _pattern(_SCHEME_NAME).fullmatch(scheme))
    if wrong:
        raise argparse.ArgumentTypeError(
            f"not a scheme: {escaped(', '.join(wrong))} (a letter, then letters, digits, '+', '-' "
            f"or '.', {MAX_SCHEME_CHARS} at most)"
        )
    return _Schemes(schemes, added)


def _context_size(text: str) -> int:
    if not _pattern(r"[0-9]{1,4}").fullmatch(text):
        raise argparse.ArgumentTypeError(f"not a number of characters up to 9999: {text!r}")
    return int(text)


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"not a number: {text!r}")
    return int(text)


def _top(text: str) -> int:
    from . import report

    number = _count(text)
    if not 1 <= number <= report.MAX_TOP:
        raise argparse.ArgumentTypeError(f"not a length of a list: {text!r} (1 to {report.MAX_TOP:,})")
    return number


def _jobs(text: str) -> int:
    # [0-9], not str.isdigit: that takes "²", which int() then refuses.
    if not _pattern(r"[0-9]{1,6}").fullmatch(text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a number of processes: {text!r}")
    return int(text)


_SIZE = r"(?i)(\d{1,18}(?:\.\d{0,9})?|\.\d{1,9})([kmg]?)"
"""A size as people write it: digits, maybe a decimal part, maybe a unit; no sign, no exponent,
no "inf" or "nan" (which float() would take), and never more than 10**27 bytes."""
_SIZE_UNITS = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9}


def _size(text: str) -> int:
    """``--max-expand``, ``--max-message``: bytes, with an optional K, M or G (powers of 1000)."""
    found = _pattern(_SIZE).fullmatch(text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (say 20G, 500M or 1000000)")
    number: str = found.group(1)
    whole, _, decimals = number.partition(".")
    scale = _SIZE_UNITS[found.group(2).lower()]
    # In integers, so 1.1G is 1,100,000,000 bytes, not float's 1,100,000,000.0000002.
    places: int = 10 ** len(decimals)
    return int(whole or "0") * scale + int(decimals or "0") * scale // places


def _window_log(text: str) -> int:
    if not _pattern(r"[0-9]{1,2}").fullmatch(text) or int(text) not in ZSTD_WINDOW_LOGS:
        raise argparse.ArgumentTypeError(
            f"not a Zstandard window log: {text!r} ({ZSTD_WINDOW_LOGS[0]} to {ZSTD_WINDOW_LOGS[-1]})"
        )
    return int(text)


def _positive_size(text: str) -> int:
    size = _size(text)
    if size < 1:
        raise argparse.ArgumentTypeError(f"not a positive size: {text!r}")
    return size


class _Output:
    """Standard output, whose write errors name it (``main`` says them in one line): a full disk,
    a file system gone read-only. A closed pipe is passed on as it is (a quiet end). With ``end``
    (``-0``: a NUL), each line ends with it instead of a newline."""

    def __init__(self, out: IO[str], end: str = "\n", name: str = "standard output") -> None:
        self.out = out
        self.end = end
        self.name = name
        # The bytes under a UTF-8 text stream that does not translate line ends, where the native
        # writers' UTF-8 goes as it is (``write_bytes``); None: decoded and written as text.
        buffer, encoding = getattr(out, "buffer", None), getattr(out, "encoding", None)
        utf8 = isinstance(encoding, str) and codecs.lookup(encoding).name == "utf-8"
        self.buffer: Any = buffer if utf8 and os.linesep == "\n" else None

    def write(self, text: str, ended: bool = False) -> int:
        """``text`` written, each line feed in it as ``end`` unless it is ``ended`` already."""
        if self.end != "\n" and not ended:
            # Exact: every row but a CSV one escapes its line feeds (text as \x0a, jsonl as \n),
            # so each one written ends a row; the CSV writer ends its records itself, since a
            # context cell holds line breaks as they are (issue 30).
            text = text.replace("\n", self.end)
        try:
            return int(self.out.write(text))
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _OutputError(f"{self.name}: {error.strerror or error}") from None

    def write_bytes(self, data: bytes, ended: bool = False) -> None:
        """UTF-8 ``data`` written as ``write`` writes text: to the stream's bytes when it has them
        (its text written before them first), not decoded and encoded again."""
        if self.buffer is None:
            self.write(data.decode("utf-8"), ended)
            return
        if self.end != "\n" and not ended:
            data = data.replace(b"\n", self.end.encode("utf-8"))
        self.flush()
        try:
            self.buffer.write(data)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _OutputError(f"{self.name}: {error.strerror or error}") from None

    def flush(self) -> None:
        try:
            self.out.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _OutputError(f"{self.name}: {error.strerror or error}") from None


class _OutputError(Exception):
    """The output could not be written: said in one line, exit 2."""


class _Nowhere:
    """``-q``: the output, which goes nowhere."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


class _Enough(Exception):
    """``-q``: a URL was found, and the run ends."""


_HELD_ROWS = 1000
"""``--unique``: its rows written out at the end this many at a time."""


class _Held:
    """What a writer wrote of a batch, until it is written out in one step (``_Printer.flush``):
    text, or the native writers' UTF-8 bytes."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.encoded: list[bytes] = []

    def write(self, text: str, /) -> int:
        if self.encoded:  # (text after bytes: the CSV header comes before any, but order is kept)
            self.encoded.append(text.encode("utf-8"))
        else:
            self.parts.append(text)
        return len(text)

    def write_bytes(self, data: bytes) -> None:
        if self.parts:
            self.encoded.append("".join(self.parts).encode("utf-8"))
            self.parts.clear()
        self.encoded.append(data)


class _Printer:
    """Writes rows and reports in order, applies ``--schemes``, ``--unique``, ``--canonical`` and
    ``--count``, and keeps what the exit status needs."""

    def __init__(self, args: _Scan, bar: Progress, out: IO[str] | None = None) -> None:
        self.sink: Any = None
        self.marks = Marks(args.filename, args.color)  # for --count and -l, whatever the format
        marks = self.marks if args.output_format == "text" else PLAIN
        target: Any = _Nowhere() if args.quiet else sys.stdout if out is None else out
        name = "standard output" if out is None else args.output or ""
        self.out = _Output(target, "\0" if args.null else "\n", name)
        self.held = _Held()
        self.write: Writer
        if args.output_format == "parquet":
            from .parquet import ParquetSink  # pyarrow is an optional extra

            assert args.output is not None  # (``_scan`` refuses the one without the other)
            try:
                self.sink = ParquetSink(args.output)
            except FileExistsError:
                raise
            except OSError as error:
                raise _OutputError(f"{args.output}: {error.strerror or error}") from None
            self.write = self._to_parquet
        else:
            self.write = writer(
                args.output_format, self.held, canonical=args.canonical, marks=marks, end=self.out.end
            )
        self.ended = args.output_format == "csv"  # its records end with -0's NUL as written
        canonical = args.canonical or args.unique
        self.printing = Printing(args.output_format, args.printed, canonical, args.options.profile)
        # --unique: the first row of each URL (by canonical form; a rejected one as written), and
        # how often it came; written at the end, when the counts are known.
        self.unique: dict[str | tuple[str], _Seen] | None = {} if args.unique else None
        # --count, -l and -q see every row here, and print none of them.
        self.counting: bool = args.counts or args.files_with_matches or args.quiet
        # Issue 31: the rows written by the native core where no Python work is left per row.
        self.native = batch_writer(self.printing, marks, self.out.end, counting=self.counting)
        self.tables = self.sink is not None and columnar(self.printing, counting=self.counting)
        self.quiet = args.quiet
        self.messages = not args.no_messages
        self.verbose = args.verbose
        self.bar = bar
        self.found = self.failed = False
        self.printed = 0
        self.file: str | None = None  # the file being read (set by ``_scan``)
        self.named: Callable[[str], bool] = lambda path: True  # whether a path was named, not met in a folder
        self.binaries = 0  # files met in folders and skipped as binary (as ripgrep skips them)
        # A file's warnings of one kind after its first are counted, and said in one line at its end.
        self.warned: dict[str, int] = {}

    def batches(self, batches: Iterable[Batch]) -> None:
        """Writes the rows and reports of ``batches``: the one loop of the command line that does
        Python work for each row (``--schemes``, ``--canonical``, ``--unique``, the writer), or,
        where ``output.columnar`` says, none (the rows written from the batch's columns)."""
        selected, write = self.printing.selected, self.write  # once, not once a row
        for batch in batches:
            if self.native is not None or self.tables:
                self._write_columns(batch)
            else:
                self._write_batch(batch, selected, write)

    def _write_columns(self, batch: Batch) -> None:
        """A batch's rows written from its columns (``output.columnar``), a run of them between
        two reports at a time: by the core's writers, or as Arrow tables to Parquet."""
        try:
            write = (
                self._native_runs(batch, self.native) if self.native is not None else self._table_runs(batch)
            )
            given = 0
            for before, *report in zip(*batch.reports, strict=True):
                if before > given:
                    write(given, before)
                    given = before
                self._report(Report(*report))
            write(given, len(batch))
        finally:
            self.flush()

    def _native_runs(self, batch: Batch, native: BatchWriter) -> Callable[[int, int], None]:
        rows = native.rows(batch)

        def write(start: int, stop: int) -> None:
            text, printed, found = native.write(rows, start, stop)
            self.found = self.found or found
            self.printed += printed
            if text:
                self.held.write_bytes(text)

        return write

    def _table_runs(self, batch: Batch) -> Callable[[int, int], None]:
        from .parquet import kept

        table = batch.to_arrow()

        def write(start: int, stop: int) -> None:
            rows, found = kept(table.slice(start, stop - start), self.printing.schemes)
            self.found = self.found or found
            self.printed += rows.num_rows
            try:
                self.sink.write_table(rows)
            except OSError as error:  # pyarrow's write errors are OSErrors (a full disk)
                raise _OutputError(f"{self.sink.directory}: {error.strerror or error}") from None

        return write

    def _write_batch(self, batch: Batch, selected: Callable[[Row], Row | None], write: Writer) -> None:
        """A batch's rows, written in one step when they are all counted (``printed``): Ctrl-C in
        the write (a full pipe) finds counted what is printed, as the batch's tally counts it."""
        try:
            for event in batch.events():
                if not isinstance(event, Row):  # most events are rows: they are asked about first
                    self._report(event)
                    continue
                row = selected(event)
                if row is None:
                    continue
                if self.unique is not None:
                    key = (row.url,) if row.canonical is None else row.canonical
                    kept = self.unique.get(key)
                    if kept is not None:
                        kept.count += 1
                        continue
                    self.unique[key] = _Seen(row)
                self.found = self.found or row.valid
                if not self.counting and self.unique is None:
                    write(row)  # (then counted: Ctrl-C while a row is made leaves it uncounted)
                    self.printed += 1
                    continue
                self.printed += 1
                if self.quiet and self.found:
                    raise _Enough
        finally:
            self.flush()

    def flush(self) -> None:
        """The rows written since the last time, to standard output."""
        if self.held.parts:
            text = "".join(self.held.parts)
            self.held.parts.clear()
            self.out.write(text, self.ended)
        if self.held.encoded:
            data = b"".join(self.held.encoded)
            self.held.encoded.clear()
            self.out.write_bytes(data, self.ended)

    def _report(self, event: Report) -> None:
        if event.kind == "binary" and event.place == self.file and not self.named(event.place):
            self.binaries += 1  # met in a folder: skipped as ripgrep skips it, no error (D37)
            return
        self.failed = self.failed or event.lost_input
        if not self.messages:
            return
        if not (event.lost_input or self.verbose or self.file is None):
            seen = self.warned.get(event.kind, 0)
            self.warned[event.kind] = seen + 1
            if seen:
                return
        self.flush()
        self.out.flush()  # the rows before it first; a write error of its own (not the report's)
        self.bar.say(f"urlsift: {escaped(event.place)}: {event.kind}: {escaped(event.detail)}")

    def file_done(self) -> None:
        """The end of a file: the count of each kind of warning said after its first (D37)."""
        if self.file is not None and self.messages:
            for kind, count in self.warned.items():
                if count > 1:
                    more = count - 1
                    self.flush()
                    self.out.flush()
                    warnings = "warning" if more == 1 else "warnings"
                    self.bar.say(
                        f"urlsift: {escaped(self.file)}: {kind}: {more:,} more {warnings} of this kind "
                        "in this file (--verbose shows each)"
                    )
        self.warned.clear()

    def _to_parquet(self, row: Row) -> None:
        try:
            self.sink.write(row)
        except OSError as error:  # pyarrow's write errors are OSErrors (a full disk)
            raise _OutputError(f"{self.sink.directory}: {error.strerror or error}") from None

    @property
    def shown(self) -> int:
        """The rows on standard output so far: --unique's are held, and written by ``finish``."""
        return 0 if self.unique is not None and not self.counting else self.printed

    def finish(self) -> None:
        """With --unique: each URL's first row, with how many times it came, in the order found."""
        if self.unique is not None and not self.counting:
            for k, seen in enumerate(self.unique.values(), 1):
                self.write(seen.row._replace(count=seen.count))
                if k % _HELD_ROWS == 0:
                    self.flush()
        self.close()

    def close(self) -> None:
        """The rows held written, the Parquet files finished (also after Ctrl-C: what was written
        stays readable)."""
        self.flush()
        if self.sink is not None:
            try:
                self.sink.close()
            except OSError as error:
                raise _OutputError(f"{self.sink.directory}: {error.strerror or error}") from None


class _Seen:
    """``--unique``: the first row of a URL, and how many times it came."""

    __slots__ = ("count", "row")

    def __init__(self, row: Row) -> None:
        self.row = row
        self.count = 1


def _cores() -> int:
    """The cores this process may run on (its affinity, where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _total_size(arguments: Sequence[str]) -> int | None:
    """The bytes to read, when every argument is a regular file (a folder would need a walk)."""
    total = 0
    for path in arguments:
        try:
            status = os.stat(path)
        except OSError:
            continue
        if not stat.S_ISREG(status.st_mode):
            return None
        total += status.st_size
    return total


def _run_scan(args: _Scan) -> int:
    with _paths(args) as arguments, _output(args) as out:
        return _scan(args, arguments, out)


@contextlib.contextmanager
def _output(args: _Scan) -> Iterator[IO[str] | None]:
    """``--output FILE`` for text, jsonl and csv: the file, opened before any work (one that
    cannot be written stops the run in one line, exit 2); None: standard output."""
    if args.output is None or args.output_format == "parquet" or args.quiet:
        yield None
        return
    try:
        # newline="": csv writes its own line ends; errors as standard output's (a file name's byte)
        opened = open(args.output, "w", encoding="utf-8", errors="surrogateescape", newline="")  # noqa: SIM115
    except OSError as error:
        raise _OutputError(f"{args.output}: {error.strerror or error}") from None
    try:
        yield opened
    finally:
        try:
            opened.close()
        except OSError as error:
            raise _OutputError(f"{args.output}: {error.strerror or error}") from None


class _Named:
    """Whether a file read was named (a PATH, a line of ``--files-from``) or met in a folder: the
    paths named are kept from when the plan takes them to when their file is read, no longer (a
    list of millions is never held)."""

    def __init__(self, arguments: Iterable[str]) -> None:
        self._arguments = arguments
        self._ahead: dict[str, None] = {}  # named, in order, their files not read yet

    def __iter__(self) -> Iterator[str]:
        for path in self._arguments:
            self._ahead[path] = None
            yield path

    def __call__(self, path: str) -> bool:
        if path not in self._ahead:
            return False
        for named in list(self._ahead):  # those before it were folders (or were never read)
            del self._ahead[named]
            if named == path:
                return True
        return True


def _scan(args: _Scan, arguments: Iterable[str], out: IO[str] | None = None) -> int:
    if args.output_format == "parquet" and args.output is None:
        raise _Refused("--format parquet and --output DIR go together")
    named = _Named(arguments)
    planned = planned_run(named, args.options, args)
    if args.jobs > _cores() and args.scheduler is None:
        print(f"urlsift: -j {args.jobs}: more processes than the {_cores()} cores here", file=sys.stderr)
    for note in planned.notes:
        print(f"urlsift: {note}", file=sys.stderr)
    state = planned.state
    counted: list[Tally] = []  # each file's, appended in one step: Ctrl-C cannot count one twice
    reading: Scanned | None = None  # a file whose batches are being read
    size = None if args.files_from is not None else _total_size(args.paths)  # a list is not read twice
    files_counted = 0  # --count: the files with a URL
    with Progress(size, enabled=args.progress and sys.stderr.isatty()) as bar:
        printer = _Printer(args, bar, out)
        printer.named = named
        scanned = execute(planned, bar.watch)
        try:
            for path, batches, file_tally in scanned:
                reading = path, batches, file_tally
                printer.file = path
                before = printer.printed
                printer.batches(bar.batches(batches, file_tally))
                printer.file_done()
                if file_tally is not None:
                    if len(counted) >= 256:  # one step too (a slice assigned): memory stays flat
                        counted[:] = [_total(counted)]
                    counted.append(file_tally)
                    bar.done(file_tally)
                    if state is not None and path is not None and not file_tally.files_failed:
                        state.done(path)
                reading = None
                count = printer.printed - before
                if path is not None and count and (args.counts or args.files_with_matches) and not args.quiet:
                    files_counted += 1
                    printer.flush()  # (the CSV header: before the counts)
                    # As ripgrep: a file with none is left out (grep -c would print PATH:0).
                    shown = printer.marks.name(path)
                    if args.files_with_matches:
                        printer.out.write(f"{shown}\n")
                    else:
                        printer.out.write(f"{shown}:{count}\n" if args.filename else f"{count}\n")
        except _Enough:  # -q: a URL found; the rest is not read (as grep -q)
            scanned.close()
            if reading is not None and isinstance(reading[1], Generator):
                reading[1].close()
            printer.close()
            return 0
        except KeyboardInterrupt:
            scanned.close()  # the workers stopped
            path, batches, file_tally = reading if reading is not None else (None, iter(()), Tally())
            if isinstance(batches, Generator):  # read here: its reader closed
                batches.close()
            if file_tally is not None and not (counted and counted[-1] is file_tally):
                # Its counts are those of the batches given (each part's before its rows:
                # ``batches.Part``), and it is seen and failed, though none of it was given yet.
                failed = int(path is not None) or file_tally.files
                counted.append(replace(file_tally, files=failed, files_failed=failed))
            printer.close()
            printer.out.flush()
            bar.close()  # the bar's line cleared first: the message starts a line of its own
            where = f" while reading {escaped(path)}" if path is not None else ""
            print(f"urlsift: interrupted{where}", file=sys.stderr)
            if args.stats:
                _summary(_total(counted), printer.shown, binaries=printer.binaries)
            return INTERRUPTED
    printer.finish()
    printer.out.flush()
    if state is not None:
        state.save()
    tally = _total(counted)
    if args.stats:
        # Issue 29: a run under --state that had no commit to read says so (its exit status is 1,
        # as grep's when nothing is found).
        _summary(
            tally,
            printer.printed,
            state is not None and state.unchanged and not printer.failed,
            printer.binaries,
            files_counted if args.counts else None,
        )
    elif tally.rejected_valid_elsewhere and _stderr_tty() and not args.quiet:
        print(_hint(tally.rejected_valid_elsewhere), file=sys.stderr)
    return 2 if printer.failed else 0 if printer.found else 1


def planned_run(arguments: Iterable[str], options: Options, args: _Scan | argparse.Namespace) -> Plan:
    """The plan of a run of the command line (``urlsift`` or ``urlsift report``) over ``arguments``."""
    return build(
        arguments,
        options,
        jobs=args.jobs,
        scheduler=args.scheduler,
        split=args.split,
        since=args.since,
        state=args.state,
        spelling=COMMAND_LINE,
        include=tuple(args.include),
        exclude=tuple(args.exclude),
    )


def _run_report(arguments: list[str]) -> int:
    """``urlsift report ...``: the page written (also after a problem of the input: exit 2)."""
    import shlex  # (the page's command line: a scan never writes one)

    from . import report

    parser = _report_parser()
    args = parser.parse_args(arguments)
    command = shlex.join(["urlsift", manual.REPORT, *arguments])
    page = partial(
        report.write_page,
        output=args.output,
        profile=args.profile,
        top=args.top,
        memory=args.memory,
        command=command,
    )
    if args.dataset_in is not None:
        if args.paths or args.dataset is not None or args.files_from is not None:
            parser.error("--from reads a dataset written before: no PATH, --files-from or --dataset with it")
        if args.dataset_in == "-":
            parser.error("--from reads a dataset written before: a file or folder, not standard input")
        scan_only = _scan_options_given(parser, args)
        if scan_only:
            parser.error(
                f"--from reads a dataset written before: {scan_only} says how to scan, not what to show"
            )
        _refuse_overwrite(parser, args.output, [args.dataset_in])
        # D38's filters and --schemes are the dataset's columns: they choose its rows as a scan would.
        kept = filters(
            args.parts, args.hosts or (), args.since_date, args.until_date, args.max_quote_depth, COMMAND_LINE
        )
        schemes = None if args.schemes is None else args.schemes.printed()
        page(
            args.dataset_in, title=args.title or _report_title([args.dataset_in]), kept=kept, schemes=schemes
        )
        return 0
    _refuse_overwrite(parser, args.output, args.paths)
    if args.dataset is not None:
        folder = os.path.join(os.path.realpath(args.dataset), "")
        for named in args.paths:
            if (
                named != "-"
                and os.path.isdir(named)
                and folder.startswith(os.path.join(os.path.realpath(named), ""))
            ):
                parser.error(
                    f"--dataset {args.dataset}: inside {named}, it would be scanned as it is written"
                )
    if not args.paths and args.files_from is None:
        if not _stdin_readable():
            parser.error(
                "the following arguments are required: PATH (or --files-from FILE, or --from DATASET)"
            )
        args.paths = ["-"]
    report.check_extras()  # before the scan, not after it
    options = replace(scan_options(args), invalid=True, second_opinion=None)
    size = None if args.files_from is not None else _total_size(args.paths)
    with report.dataset_folder(args.dataset) as directory:
        with _paths(args) as paths:
            named = _Named(paths)
            planned = planned_run(named, options, args)
            if args.jobs > _cores() and args.scheduler is None:  # (what a scan says of it)
                print(
                    f"urlsift: -j {args.jobs}: more processes than the {_cores()} cores here", file=sys.stderr
                )
            for note in planned.notes:
                print(f"urlsift: {note}", file=sys.stderr)
            printed = None if args.schemes is None else args.schemes.printed()
            progress = not args.no_progress
            lost = report.scan_to(
                directory, planned, command, size=size, progress=progress, schemes=printed, named=named
            )
        page(directory, title=args.title or _report_title(args.paths))
    return 2 if lost else 0


_COLUMN_FILTERS = frozenset(
    {"profile", "schemes", "parts", "hosts", "since_date", "until_date", "max_quote_depth"}
)
"""The scan's options that ``report --from`` applies to a dataset's columns (--profile names the
profile that judged it)."""


def _scan_options_given(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str | None:
    """The first of the scan's options (but those of the columns) given a value other than its
    default: with --from there is no scan for it to steer."""
    for group in parser._action_groups:
        if group.title in _REPORT_GROUPS:
            for action in group._group_actions:
                if action.dest not in _COLUMN_FILTERS and getattr(args, action.dest) != action.default:
                    return "/".join(action.option_strings)
    return None


def _refuse_overwrite(parser: argparse.ArgumentParser, output: str, inputs: Sequence[str]) -> None:
    """A usage error when the page would replace an input: a file named, a file in a folder
    named, or the --from dataset."""
    if output == "-" or not os.path.exists(output):
        return
    page = os.path.realpath(output)
    for named in inputs:
        if named == "-" or not os.path.exists(named):
            continue
        within = os.path.isdir(named) and page.startswith(os.path.join(os.path.realpath(named), ""))
        if within or os.path.samefile(output, named):
            parser.error(f"-o {output}: the page would replace what it is made of ({named})")


def _report_title(named: Sequence[str]) -> str:
    names = [
        "standard input" if path == "-" else os.path.basename(os.path.normpath(path)) or path
        for path in named
    ]
    shown = ", ".join(names[:3])
    more = f" and {len(named) - 3:,} more" if len(named) > 3 else ""
    return f"The links of {shown}{more}" if shown else "The links of an archive"


def _total(tallies: Iterable[Tally]) -> Tally:
    total = Tally()
    for tally in tallies:
        total.add(tally)
    return total


def _plural(count: int, one: str, many: str | None = None) -> str:
    """``count`` and the word for that many ("1 candidate", "2 candidates")."""
    return f"{count:,} {one if count == 1 else many or one + 's'}"


def _summary(
    tally: Tally,
    printed: int,
    nothing_new: bool = False,
    binaries: int = 0,
    files_counted: int | None = None,
) -> None:
    """``--stats``: what was seen, and what became of it; the counts add up. A binary file met in
    a folder is skipped, as ripgrep skips it: neither failed nor an error, but counted apart."""
    failed = tally.files_failed - binaries
    errors = tally.errors - binaries
    files_scanned = tally.files - tally.files_failed
    messages_scanned = tally.messages - tally.messages_failed
    problems = errors + tally.warnings
    skipped = f" + {binaries:,} binary skipped" if binaries else ""
    lines = [
        f"files     {tally.files:>11,} = {files_scanned:,} scanned + {failed:,} failed{skipped}",
        f"messages  {tally.messages:>11,} = {messages_scanned:,} scanned + {tally.messages_failed:,} failed",
        f"parts     {tally.parts:>11,} text {'part' if tally.parts == 1 else 'parts'} scanned, and "
        + _plural(tally.headers, "header"),
        f"bytes     {tally.bytes:>11,} read"
        + (f", {tally.unpacked:,} decompressed" if tally.unpacked else ""),  # (compressed files: both)
        f"URLs      {tally.urls:>11,} valid ({printed:,} printed), "
        + _plural(tally.rejected, "candidate")
        + " rejected",
        *(
            []
            if files_counted is None
            else [f"counted   {printed:>11,} in {_plural(files_counted, 'file')} (with none: left out)"]
        ),
        *_elsewhere(tally),
        *_unwalked(tally),
        *_skipped(tally),
        f"problems  {problems:>11,} = {_plural(errors, 'error')} + {_plural(tally.warnings, 'warning')}",
        *(["state     nothing new since the state"] if nothing_new else []),
    ]
    sys.stdout.flush()
    for line in lines:
        print(f"urlsift: {line}", file=sys.stderr)


def _unwalked(tally: Tally) -> list[str]:
    if not tally.unwalked:
        return []
    what = "folder or folder entry" if tally.unwalked == 1 else "folders and folder entries"
    return [f"skipped   {tally.unwalked:>11,} {what} not read (link loops, broken links)"]


def _skipped(tally: Tally) -> list[str]:
    if not tally.skipped:
        return []
    return [
        f"records   {tally.skipped:>11,} WARC {'record' if tally.skipped == 1 else 'records'} skipped "
        "(requests, metadata, revisits, no text)"
    ]


def _elsewhere(tally: Tally) -> list[str]:
    if not tally.rejected_valid_elsewhere:
        return []
    return [
        f"          {tally.rejected_valid_elsewhere:>11,} of the rejected are valid by today's rules "
        "(RFC 3986: '~', https, IPv6, mailto ?subject= ...): --profile modern finds them"
    ]


def _stderr_tty() -> bool:
    """Whether standard error is a terminal, where a person reads the hints (a log file gets none)."""
    return sys.stderr.isatty()


def _hint(elsewhere: int) -> str:
    """A strict run's last line on a terminal, when the modern profile would have found more."""
    one = elsewhere == 1
    return (
        f"urlsift: hint: {elsewhere:,} rejected {'candidate is' if one else 'candidates are'} valid by "
        f"today's rules (RFC 3986: '~', https, IPv6 ...): --profile modern finds {'it' if one else 'them'}"
    )


class _Refused(Error):
    """Options that do not go together, or a ``--files-from`` list that is no list: said in one
    line, exit 2 (before any work starts, but for a list found wrong after its first chunk)."""


_Main = TypeVar("_Main", bound=Callable[..., int])


def _standard_streams(run: _Main) -> _Main:
    """``run`` with standard error made safe to write to (``_Reports``), and each of the three
    standard streams open: a closed one is /dev/null opened the wrong way round, so that a file
    urlsift opens never takes its number (and git's writes to it, or ours, go to that file), and
    reading or writing it fails as a closed one would (a closed standard output is then a write
    error: one line, exit 2)."""

    @wraps(run)
    def guarded(argv: Sequence[str] | None = None) -> int:
        for number, flags in ((0, os.O_WRONLY), (1, os.O_RDONLY), (2, os.O_WRONLY)):
            with contextlib.suppress(OSError):
                os.fstat(number)
                continue
            with contextlib.suppress(OSError):  # (nothing to do about a machine out of descriptors)
                devnull = os.open(os.devnull, flags)
                if devnull != number:
                    os.dup2(devnull, number)
                    os.close(devnull)
        if sys.stdin is None:
            sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 (the process's, kept open)
        if sys.stdout is None:
            sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        errors = sys.stderr
        sys.stderr = cast(TextIO, _Reports(errors))
        try:
            return run(argv)
        finally:
            sys.stderr = errors

    return cast(_Main, guarded)


class _Reports:
    """Standard error, whose writes never fail (``2>/dev/full``, a closed one): a report that
    cannot be written is dropped, and so is every one after it, rather than stop the output or
    change the exit status. At the first failure the descriptor under it is pointed at /dev/null,
    so that the interpreter's last flush, git's messages and a worker's go there too."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            try:
                self._stream.write(text)
            except (OSError, ValueError):  # ValueError: written after it was closed
                self._lose()
        return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            try:
                self._stream.flush()
            except (OSError, ValueError):
                self._lose()

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name: str) -> Any:  # encoding, fileno ...: the stream's own
        return getattr(self._stream, name)

    def _lose(self) -> None:
        stream, self._stream = self._stream, None
        with contextlib.suppress(OSError, ValueError, AttributeError):  # (a test's captured stream)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, cast(TextIO, stream).fileno())
            os.close(devnull)


@_standard_streams
def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        if arguments[:1] == ["validate"]:
            args = _validate_parser().parse_args(arguments[1:])
            return _run_validate(args.urls, args.profile)
        if arguments[:1] == [manual.REPORT]:
            return _run_report(arguments[1:])
        return _run_scan(_parse_scan(arguments))
    except (Error, FileExistsError) as error:  # _Refused, a MissingExtra, a ClusterError ...
        print(f"urlsift: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `urlsift ... | head` is not an error
        _drop_output()
        return 0
    except _OutputError as error:  # a full disk: what is left unwritten cannot be written either
        _drop_output()
        print(f"urlsift: cannot write the output: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # the machine's, not the input's (those are reported, and the work goes on)
        _finish_output()
        where = f"{error.filename}: " if error.filename else ""
        print(f"urlsift: {where}{error.strerror or error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # before or after the scan (its own interruption prints the summary)
        _finish_output()
        print("urlsift: interrupted", file=sys.stderr)
        return INTERRUPTED
    except Exception as error:  # a bug (an ImportError too, but for a MissingExtra): one line, exit 2
        _finish_output()
        said = escaped(f"{type(error).__name__}: {error}")
        print(f"urlsift: internal error, please report it: {said}", file=sys.stderr)
        return 2


def _finish_output() -> None:
    """Write what is still buffered, or drop it if that fails too (a full disk)."""
    try:
        sys.stdout.flush()
    except OSError:
        _drop_output()


def _drop_output() -> None:
    """Point standard output at devnull, so that the interpreter's final flush of what is still
    buffered does not fail again (and print a traceback of its own)."""
    # No file under it (io.UnsupportedOperation: a test's captured output): nothing to flush.
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
