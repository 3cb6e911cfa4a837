"""The command line: ``urlsift PATH...`` (find URLs in files, folders and archives) and
``urlsift validate URL...``.

Exit status, as grep and ripgrep: ``urlsift PATH...`` exits 0 when it found a URL, 1 when it found
none, 2 when something could not be read (everything else is still scanned); ``urlsift validate``
exits 0 when every URL is valid, 1 when one is not; both exit 2 on a usage error and when the
output cannot be written (a full disk: one line on standard error, never a traceback), and 130
when interrupted (Ctrl-C: the ``--stats`` summary of what was read so far comes first). A closed
pipe (``urlsift big.mbox | head``) ends quietly, with 0.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import stat
import sys
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import IO, Any

import regex

from ._model import Verdict
from ._version import __version__
from .grammar import MODERN, PROFILES, STRICT
from .output import FORMATS, Printing, Writer, escaped, writer
from .pieces import in_files
from .progress import Progress
from .results import results, scan_unit, walk, walked
from .rows import Event, Options, Render, Report, Row, Tally
from .sources import FORMATS as INPUT_FORMATS
from .sources import MAX_MESSAGE, Counter, ReadOptions
from .sources.packed import MAX_EXPAND
from .units import SPLIT_BYTES, ClusterError, Unit, plan
from .validate import validate
from .workers import in_order, workers

INTERRUPTED = 130
"""The exit status after Ctrl-C, as shells give a process ended by SIGINT (128 + 2)."""

# D28: the command line (not validate()) may strip one wrapper the user pasted with the URL.
_WRAPPER = regex.compile(r"<\s*(?:URL:\s*)?(.*?)\s*>|URL:\s*(.*)", regex.IGNORECASE | regex.DOTALL)


def _unwrap(argument: str) -> tuple[str, bool]:
    m = _WRAPPER.fullmatch(argument)
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


def _arguments(urls: Sequence[str]) -> Iterable[str]:
    for url in urls:
        if url == "-":
            yield from (line.rstrip("\r\n") for line in sys.stdin if line.strip())
        else:
            yield url


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


def _run_validate(args: argparse.Namespace) -> int:
    status = 0
    out = _Output(sys.stdout)
    profiles = sorted(PROFILES, key=lambda name: name != "strict") if args.profile == BOTH else [args.profile]
    try:
        for argument in _arguments(args.urls):
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


def _command(
    prog: str, description: str, operand: str, operand_help: str, profiles: Sequence[str]
) -> argparse.ArgumentParser:
    """A parser with what both commands share: their operands, ``--version`` and ``--profile``."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--version", action="version", version=f"urlsift {__version__}")
    parser.add_argument(operand.lower() + "s", nargs="+", metavar=operand, help=operand_help)
    parser.add_argument(
        "--profile",
        choices=profiles,
        default="strict",
        help="strict: RFC 1738 as written (default); modern: RFC 3986/3987 and the scheme RFCs after 1738",
    )
    return parser


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
    )


def _scan_parser() -> argparse.ArgumentParser:
    parser = _command(
        "urlsift",
        "Find the URLs of text files, mail and news archives as RFC 1738's appendix says (<URL:...> "
        "and <scheme:...> wrappers, rejoined across lines; quoted and naked URLs) and print the valid "
        "ones, one per line. Folders (Maildir, MH, news spools), mbox files, messages, zip and tar "
        "archives and gzip/bzip2/xz files are read as they are. 'urlsift validate URL...' judges URLs "
        "instead (see 'urlsift validate -h'). Exit status: 0 if a URL was found, 1 if none, 2 if "
        "something could not be read (the rest is still scanned).",
        "PATH",
        "a file or folder, or - for standard input",
        sorted(PROFILES),
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
        "--schemes", type=_scheme_list, metavar="LIST", help="print only URLs of these schemes (say http,ftp)"
    )
    found.add_argument(
        "--unique",
        action="store_true",
        help="print each URL once (one canonical form, D30), at the end, with how often it came (jsonl/csv)",
    )
    shown = parser.add_argument_group("what to print")
    shown.add_argument(
        "--format",
        choices=[*FORMATS, "parquet"],
        default="text",
        help="text: one URL per line (default); parquet: Parquet files in --output DIR (urlsift[parquet])",
    )
    shown.add_argument(
        "--output", metavar="DIR", help="with --format parquet: the folder to write (new or empty)"
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
        "--count",
        action="store_true",
        help="print how many URLs each file holds instead (PATH:N; N alone for a single file)",
    )
    shown.add_argument(
        "--stats", action="store_true", help="end with a summary on standard error (files, messages, URLs)"
    )
    shown.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    read = parser.add_argument_group("how to read")
    read.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        default="auto",
        help="what the files are; auto: an mbox if the first line is a From_ separator, a message if "
        "it starts with mail or news headers (or is named .eml), else plain text",
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
        "-j",
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="read with N processes (at most one per unit of work): files over --split-size (mbox, "
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
    return parser


def _scheme_list(text: str) -> frozenset[str]:
    schemes = frozenset(word.strip().lower() for word in text.split(",") if word.strip())
    if not schemes:
        raise argparse.ArgumentTypeError("no scheme given (say http,ftp)")
    return schemes


def _context_size(text: str) -> int:
    if not regex.fullmatch(r"[0-9]{1,4}", text):
        raise argparse.ArgumentTypeError(f"not a number of characters up to 9999: {text!r}")
    return int(text)


def _jobs(text: str) -> int:
    # [0-9], not str.isdigit: that takes "²", which int() then refuses.
    if not regex.fullmatch(r"[0-9]{1,6}", text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a number of processes: {text!r}")
    return int(text)


_SIZE = regex.compile(r"(\d{1,18}(?:\.\d{0,9})?|\.\d{1,9})([kmg]?)", regex.IGNORECASE)
"""A size as people write it: digits, maybe a decimal part, maybe a unit; no sign, no exponent,
no "inf" or "nan" (which float() would take), and never more than 10**27 bytes."""
_SIZE_UNITS = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9}


def _size(text: str) -> int:
    """``--max-expand``, ``--max-message``: bytes, with an optional K, M or G (powers of 1000)."""
    found = _SIZE.fullmatch(text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (say 20G, 500M or 1000000)")
    number: str = found.group(1)
    whole, _, decimals = number.partition(".")
    scale = _SIZE_UNITS[found.group(2).lower()]
    # In integers, so 1.1G is 1,100,000,000 bytes, not float's 1,100,000,000.0000002.
    places: int = 10 ** len(decimals)
    return int(whole or "0") * scale + int(decimals or "0") * scale // places


def _positive_size(text: str) -> int:
    size = _size(text)
    if size < 1:
        raise argparse.ArgumentTypeError(f"not a positive size: {text!r}")
    return size


class _Output:
    """Standard output, whose write errors name it (``main`` says them in one line): a full disk,
    a file system gone read-only. A closed pipe is passed on as it is (a quiet end)."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out

    def write(self, text: str) -> int:
        try:
            return int(self.out.write(text))
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _OutputError(f"standard output: {error.strerror or error}") from None

    def flush(self) -> None:
        try:
            self.out.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise _OutputError(f"standard output: {error.strerror or error}") from None


class _OutputError(Exception):
    """The output could not be written: said in one line, exit 2."""


class _Printer:
    """Writes rows and reports in order, applies ``--schemes``, ``--unique``, ``--canonical`` and
    ``--count``, and keeps what the exit status needs."""

    def __init__(self, args: argparse.Namespace, bar: Progress) -> None:
        self.sink: Any = None
        self.out = _Output(sys.stdout)
        self.write: Writer
        if args.format == "parquet":
            from .parquet import ParquetSink  # pyarrow is an optional extra

            try:
                self.sink = ParquetSink(args.output)
            except FileExistsError:
                raise
            except OSError as error:
                raise _OutputError(f"{args.output}: {error.strerror or error}") from None
            self.write = self._to_parquet
        else:
            self.write = writer(args.format, self.out, canonical=args.canonical)
        self.printing = Printing(args.format, args.schemes, args.canonical or args.unique, args.profile)
        # --unique: the first row of each URL (by canonical form; a rejected one as written), and
        # how often it came; written at the end, when the counts are known.
        self.unique: dict[str | tuple[str], _Seen] | None = {} if args.unique else None
        self.counting: bool = args.count
        self.bar = bar
        self.found = self.failed = False
        self.printed = 0

    def render(self) -> Render | None:
        """How a worker prints its rows for this printer, when it can: not for ``--unique`` or
        ``--count`` (they see every row here) or Parquet (written here, in files of many units)."""
        if self.unique is not None or self.counting or self.sink is not None:
            return None
        return self.printing.render

    def events(self, events: Iterable[Event]) -> None:
        for event in events:
            if isinstance(event, Report):
                self.failed = self.failed or event.lost_input
                self.bar.say(f"urlsift: {escaped(event.place)}: {event.kind}: {escaped(event.detail)}")
                continue
            if not isinstance(event, Row):  # rows a worker printed
                self.out.write(event.text())
                self.found = self.found or event.valid
                self.printed += event.rows
                continue
            row = self.printing.selected(event)
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
            self.printed += 1
            if not self.counting and self.unique is None:
                self.write(row)

    def _to_parquet(self, row: Row) -> None:
        try:
            self.sink.write(row)
        except OSError as error:  # pyarrow's write errors are OSErrors (a full disk)
            raise _OutputError(f"{self.sink.directory}: {error.strerror or error}") from None

    def finish(self) -> None:
        """With --unique: each URL's first row, with how many times it came, in the order found."""
        if self.unique is not None and not self.counting:
            for seen in self.unique.values():
                self.write(seen.row._replace(count=seen.count))
        self.close()

    def close(self) -> None:
        """The Parquet files finished (also after Ctrl-C: what was written stays readable)."""
        if self.sink is not None:
            try:
                self.sink.close()
            except OSError as error:
                raise _OutputError(f"{self.sink.directory}: {error.strerror or error}") from None


@dataclass
class _Seen:
    """``--unique``: the first row of a URL, and how many times it came."""

    row: Row
    count: int = 1


_Scanned = tuple[str | None, Iterable[Event], Tally | None]
"""A file's path, its events and its tally (filled in as the events are read); a folder's problem
comes with no path and no tally."""


def _scanned(
    args: argparse.Namespace, options: Options, bar: Progress, render: Render | None
) -> Generator[_Scanned, None, None]:
    """Each path's events, in order. With ``jobs`` > 1 or a Dask scheduler, workers read the units
    of the paths (``units.plan``: big files in pieces, small ones in batches), at most 2 per worker
    ahead of the one being printed (so memory holds a few units' results, not all), and print
    their rows with ``render`` when it is given."""
    paths = walk(args.paths)
    if args.jobs == 1 and args.scheduler is None:
        for path in paths:
            if isinstance(path, Report):
                yield None, [path], walked()
                continue
            tally, counter = Tally(), Counter()
            yield path, bar.watch(results(path, options, tally, counter), counter, tally), tally
        return
    units = plan(paths, options.read, args.split)
    if options.context:
        units = _texts_whole(units)
    jobs = args.jobs
    if args.scheduler is None:
        # No more processes than units (-j 40 on 2 files starts 2): the first -j units tell
        # (standard input is read here, by this process).
        first = list(_first_units(units, jobs))
        jobs = max(1, min(jobs, sum(isinstance(unit, Unit) and "-" not in unit.names for unit in first)))
        units = itertools.chain(first, units)
    with workers(jobs, args.scheduler, args.paths) as (submit, count):
        work = partial(scan_unit, options=options, render=render)
        for found in in_files(in_order(units, work, submit, 2 * count)):
            yield (None, [found], walked()) if isinstance(found, Report) else found


def _texts_whole(units: Iterator[Unit | Report]) -> Iterator[Unit | Report]:
    """``units`` with each plain text cut in pieces read whole instead: the context of a URL near
    a cut would lack the other piece's characters (an mbox is cut between messages: no matter)."""
    for unit in units:
        if isinstance(unit, Unit) and unit.kind == "text":
            if unit.start == 0:
                yield Unit("files", unit.path, names=(unit.path,))
            continue
        yield unit


def _first_units(units: Iterator[Unit | Report], wanted: int) -> Iterator[Unit | Report]:
    """The next items of ``units`` up to the ``wanted``-th unit (reports do not count)."""
    found = 0
    while found < wanted:
        item = next(units, None)
        if item is None:
            return
        found += isinstance(item, Unit) and "-" not in item.names
        yield item


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


def _run_scan(args: argparse.Namespace) -> int:
    if (args.format == "parquet") != (args.output is not None):
        raise _Refused("--format parquet and --output DIR go together")
    options = Options(
        profile=args.profile,
        naked=args.naked,
        invalid=args.invalid,
        read=ReadOptions(args.input_format, args.max_expand, args.max_message),
        # --stats tells a strict user how many rejections today's rules would take.
        second_opinion=MODERN.name if args.stats and args.profile == STRICT.name else None,
        context=args.context,
        wayback=args.wayback,
    )
    if args.jobs > _cores() and args.scheduler is None:
        print(f"urlsift: -j {args.jobs}: more processes than the {_cores()} cores here", file=sys.stderr)
    single = len(args.paths) == 1 and not os.path.isdir(args.paths[0])
    tally = Tally()
    reading: tuple[str | None, Tally | None] = (None, None)  # a file whose events are being read
    with Progress(_total_size(args.paths), enabled=not args.quiet and sys.stderr.isatty()) as bar:
        printer = _Printer(args, bar)
        scanned = _scanned(args, options, bar, printer.render())
        try:
            for path, events, file_tally in scanned:
                reading = path, file_tally
                before = printer.printed
                printer.events(events)
                reading = None, None
                if file_tally is not None:
                    tally.add(file_tally)
                    bar.done(file_tally)
                if args.count and path is not None:
                    count = printer.printed - before
                    printer.out.write(f"{count if single else f'{escaped(path)}:{count}'}\n")
        except KeyboardInterrupt:
            scanned.close()  # the workers stopped, the file being read closed (its tally whole)
            path, file_tally = reading
            if file_tally is not None:  # read in part: it counts as failed
                tally.add(replace(file_tally, files_failed=file_tally.files))
            printer.close()
            printer.out.flush()
            where = f" while reading {escaped(path)}" if path is not None else ""
            print(f"urlsift: interrupted{where}", file=sys.stderr)
            if args.stats:
                _summary(tally, printer.printed)
            return INTERRUPTED
    printer.finish()
    printer.out.flush()
    if args.stats:
        _summary(tally, printer.printed)
    return 2 if printer.failed else 0 if printer.found else 1


def _summary(tally: Tally, printed: int) -> None:
    """``--stats``: what was seen, and what became of it; the counts add up."""
    files_scanned = tally.files - tally.files_failed
    messages_scanned = tally.messages - tally.messages_failed
    problems = tally.errors + tally.warnings
    lines = [
        f"files     {tally.files:>11,} = {files_scanned:,} scanned + {tally.files_failed:,} failed",
        f"messages  {tally.messages:>11,} = {messages_scanned:,} scanned + {tally.messages_failed:,} failed",
        f"parts     {tally.parts:>11,} text parts scanned, and {tally.headers:,} headers",
        f"bytes     {tally.bytes:>11,} read"
        + (f", {tally.unpacked:,} decompressed" if tally.unpacked else ""),  # (compressed files: both)
        f"URLs      {tally.urls:>11,} valid ({printed:,} printed), {tally.rejected:,} candidates rejected",
        *_elsewhere(tally),
        *_unwalked(tally),
        f"problems  {problems:>11,} = {tally.errors:,} errors + {tally.warnings:,} warnings",
    ]
    sys.stdout.flush()
    for line in lines:
        print(f"urlsift: {line}", file=sys.stderr)


def _unwalked(tally: Tally) -> list[str]:
    if not tally.unwalked:
        return []
    return [f"skipped   {tally.unwalked:>11,} folders and folder entries not read (link loops, broken links)"]


def _elsewhere(tally: Tally) -> list[str]:
    if not tally.rejected_valid_elsewhere:
        return []
    return [
        f"          {tally.rejected_valid_elsewhere:>11,} of the rejected are valid by today's rules "
        "(RFC 3986: '~', https, IPv6, mailto ?subject= ...): --profile modern finds them"
    ]


class _Refused(Exception):
    """Options that do not go together, said before any work starts."""


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        if arguments[:1] == ["validate"]:
            return _run_validate(_validate_parser().parse_args(arguments[1:]))
        return _run_scan(_scan_parser().parse_args(arguments))
    except (_Refused, ClusterError, FileExistsError, ImportError) as error:
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
