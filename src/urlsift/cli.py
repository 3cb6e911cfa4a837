"""The command line: ``urlsift PATH...`` (find URLs in text files) and ``urlsift validate URL...``.

Exit status, as grep and ripgrep: ``urlsift PATH...`` exits 0 when it found a URL, 1 when it found
none, 2 when a file could not be read (the other files are still scanned); ``urlsift validate``
exits 0 when every URL is valid, 1 when one is not; both exit 2 on a usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import IO

import regex

from ._model import Defect, Provenance, Verdict
from .extract import extract
from .grammar import PROFILES
from .output import FORMATS, Writer, escaped, writer
from .sources import FORMATS as INPUT_FORMATS
from .sources import SNIFF_BYTES, dirs, mail_units, sniff
from .sources.packed import CORRUPT, MAX_EXPAND, unpacked
from .stream import extract_stream
from .validate import validate

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
    return "\t".join(fields)


def _arguments(urls: Sequence[str]) -> Iterable[str]:
    for url in urls:
        if url == "-":
            yield from (line.rstrip("\r\n") for line in sys.stdin if line.strip())
        else:
            yield url


def _run_validate(args: argparse.Namespace) -> int:
    status = 0
    for argument in _arguments(args.urls):
        url, unwrapped = _unwrap(argument)
        verdict = validate(url, profile=args.profile)
        print(_line(verdict, unwrapped))
        if not verdict.valid:
            status = 1
    return status


def _command(prog: str, description: str, operand: str, operand_help: str) -> argparse.ArgumentParser:
    """A parser with what both commands share: their operands and ``--profile``."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(operand.lower() + "s", nargs="+", metavar=operand, help=operand_help)
    parser.add_argument("--profile", choices=sorted(PROFILES), default="strict")
    return parser


def _validate_parser() -> argparse.ArgumentParser:
    return _command(
        "urlsift validate",
        "Print one line per URL: 'valid' or 'invalid', the URL, and where and why it fails, then any "
        "warnings, tab-separated. '-' reads one URL per line from standard input. Exit 0 if all are "
        "valid, 1 if any is not.",
        "URL",
        "a URL, or - for standard input",
    )


def _scan_parser() -> argparse.ArgumentParser:
    parser = _command(
        "urlsift",
        "Find the URLs of text files as RFC 1738's appendix says (<URL:...> and <scheme:...> wrappers, "
        "rejoined across lines; quoted and naked URLs) and print the valid ones, one per line. "
        "'urlsift validate URL...' judges URLs instead (see 'urlsift validate -h'). Exit status: 0 if "
        "a URL was found, 1 if none, 2 if a file could not be read.",
        "PATH",
        "a text file, or - for standard input",
    )
    parser.add_argument(
        "--no-naked",
        dest="naked",
        action="store_false",
        help="only delimited URLs, as the appendix recommends",
    )
    parser.add_argument("--format", choices=FORMATS, default="text", help="text: one URL per line (default)")
    parser.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        default="auto",
        help="what the files are; auto: an mbox if the first line is a From_ separator, a message if "
        "it starts with mail or news headers (or is named .eml), else plain text",
    )
    parser.add_argument(
        "--max-expand",
        type=_size,
        default=MAX_EXPAND,
        metavar="SIZE",
        help="stop a compressed file that expands past SIZE (default 20G), or past 1000x its size",
    )
    parser.add_argument(
        "--invalid",
        action="store_true",
        help="also print the rejected candidates, each followed by a tab and the reason",
    )
    return parser


def _report(where: Provenance, message: str) -> None:
    """One line on standard error naming the file (and the message), stdout flushed first."""
    sys.stdout.flush()
    place = where.source if where.message is None else f"{where.source}#{where.message}"
    print(f"urlsift: {escaped(place)}: {escaped(message)}", file=sys.stderr)


def _scan_file(
    file: IO[bytes], name: str, where: Provenance, args: argparse.Namespace, write: Writer, size: int | None
) -> bool:
    """Write the matches of one file; True when a valid URL was among them."""
    peek = getattr(file, "peek", None)
    head = peek(SNIFF_BYTES)[:SNIFF_BYTES] if peek is not None else b""
    inner = unpacked(file, head, name, size, args.max_expand)
    if inner is not None:  # gzip, bzip2, xz: read through, whatever they hold
        return _scan_file(inner[0], inner[1], where, args, write, None)
    options = {"profile": args.profile, "naked": args.naked, "invalid": args.invalid}
    fmt = sniff(head, name) if args.input_format == "auto" else args.input_format
    found = False
    if fmt == "text":
        for match in extract_stream(file, **options):
            write(match, where)
            found = found or match.valid
        return found
    for unit in mail_units(file, fmt, where):
        if isinstance(unit, Defect):
            _report(
                unit.provenance, f"{unit.kind}: {unit.detail} (in {unit.provenance.part or 'the message'})"
            )
            continue
        for match in extract(unit.text, **options):
            write(match, unit.provenance)
            found = found or match.valid
    return found


def _paths(arguments: Sequence[str]) -> Iterator[str | tuple[str, str]]:
    """The files to read: the arguments, with folders walked (Maildir, MH, news spools)."""
    for path in arguments:
        if path != "-" and os.path.isdir(path):
            yield from dirs.files(path)
        else:
            yield path


def _run_scan(args: argparse.Namespace) -> int:
    found = failed = False
    write = writer(args.format, sys.stdout)
    for path in _paths(args.paths):
        if isinstance(path, tuple):
            _report(Provenance(path[0]), path[1])
            failed = True
            continue
        where = Provenance("<stdin>" if path == "-" else path)
        try:
            if path == "-":
                found = _scan_file(sys.stdin.buffer, path, where, args, write, None) or found
            else:
                with open(path, "rb") as file:
                    size = os.fstat(file.fileno()).st_size
                    found = _scan_file(file, path, where, args, write, size) or found
        except BrokenPipeError:
            raise  # main() ends quietly
        except CORRUPT as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            _report(where, reason or type(error).__name__)
            failed = True
    return 2 if failed else 0 if found else 1


def _size(text: str) -> int:
    """``--max-expand``: bytes, with an optional K, M or G (powers of 1000)."""
    units = {"k": 10**3, "m": 10**6, "g": 10**9}
    try:
        if text and text[-1].lower() in units:
            return int(float(text[:-1]) * units[text[-1].lower()])
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (say 20G, 500M or 1000000)") from None


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        if arguments[:1] == ["validate"]:
            return _run_validate(_validate_parser().parse_args(arguments[1:]))
        return _run_scan(_scan_parser().parse_args(arguments))
    except BrokenPipeError:  # `urlsift ... | head` is not an error
        # Point stdout at devnull so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
