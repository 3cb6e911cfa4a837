"""The command line: ``urlsift validate URL...`` (the scanner's ``urlsift PATH...`` comes later).

Exit status, as grep and ripgrep: 0 when every URL is valid, 1 when one is not, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Sequence

import regex

from ._model import Verdict
from .grammar import PROFILES
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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="urlsift", description="Find and strictly validate URLs (RFC 1738)."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    check = commands.add_parser(
        "validate",
        help="judge each URL given",
        description=(
            "Print one line per URL: 'valid' or 'invalid', the URL, and where and why it fails, "
            "then any warnings, tab-separated. '-' reads one URL per line from standard input. "
            "Exit 0 if all are valid, 1 if any is not."
        ),
    )
    check.add_argument("urls", nargs="+", metavar="URL", help="a URL, or - for standard input")
    check.add_argument("--profile", choices=sorted(PROFILES), default="strict")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "validate":
            return _run_validate(args)
        parser.print_help(sys.stderr)
        return 2
    except BrokenPipeError:  # `urlsift validate - | head` is not an error
        # Point stdout at devnull so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
