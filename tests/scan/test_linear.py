"""Linear time on adversarial input, for validate, for extract (invalid=True, so every candidate
is built) and for the archive reader: 10x the input costs about 10x (never 100x).

Each shape is checked twice (tests/growth.py says how): its Python steps are counted, exactly, at
10 KB and 100 KB, and its CPU time is taken at 100 KB and 1 MB for the work inside C calls (regex
matches, searches) that no count sees. A quadratic blow-up fails either at 100x; both fail only
at 30x. The exact figures are in bench/linear.py and README.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import growth
import pytest

import urlsift
from urlsift.results import results
from urlsift.rows import Options, Tally

COUNTED_SIZES = (10_000, 100_000)
"""Steps are exact: a 10x step anywhere shows growth, and 100 KB keeps a traced run under a second."""
TIMED_SIZES = (100_000, 1_000_000)
"""Large enough that C work dominates (a search to the end of the text per trigger would be 100x)."""

SHAPES: dict[str, Callable[[int], str]] = {
    "percent runs in a path": lambda n: "http://host/" + "%" * n,
    "escape-like runs": lambda n: "http://host/" + "%4" * (n // 2),
    "dots in a host": lambda n: "http://" + "." * n,
    "dots as a scheme": lambda n: "." * n,
    "hyphens in a label": lambda n: "http://a" + "-" * n,
    "hyphens in a path": lambda n: "ftp://host/" + "-" * n + "~",
    "colons then at-signs": lambda n: "ftp://" + ":" * (n // 2) + "@" * (n // 2),
    "user:password pairs": lambda n: "ftp://" + "a:" * (n // 2),
    "at-signs in news": lambda n: "news:" + "a@" * (n // 2),
    "labels then a bad end": lambda n: "http://" + "a." * (n // 2) + "-",
    "digit groups": lambda n: "http://" + "1." * (n // 2) + "1/",
    "segments then a bad end": lambda n: "http://host/" + "a/" * (n // 2) + "~",
    "prospero fields": lambda n: "prospero://host/x" + ";a=b" * (n // 4) + ";",
    "gopher tabs": lambda n: "gopher://host/1" + "%09" * (n // 3) + "%",
    "long fragment": lambda n: "http://host/#" + "#" * n,
    "valid long mailto": lambda n: "mailto:" + "a" * n,
    # the modern profile's own productions (RFC 3986, 6068, 5538; RFC 3987's letters)
    "colons in an IP literal": lambda n: "http://[" + "1:" * (n // 2),
    "addresses then a bad end": lambda n: "mailto:" + "a@b," * (n // 4) + "@",
    "wildmat lists": lambda n: "news:" + "a,!" * (n // 3) + ",",
    "IRI letters then a bad end": lambda n: "http://h/" + "é" * n + "<",
    "query slashes": lambda n: "http://h/?" + "/?" * (n // 2) + "#",
    "dec-octets": lambda n: "http://" + "255." * (n // 4) + "x",
}


# Text for the scanner: every trigger repeated, wrappers never closed, lines without end.
TEXT_SHAPES: dict[str, Callable[[int], str]] = {
    "runs of <": lambda n: "<" * n,
    "runs of < and spaces": lambda n: "< " * (n // 2),
    "<URL: with no >": lambda n: "<URL:" * (n // 5),
    "one <URL: then letters": lambda n: "<URL:http://h/" + "a" * n,
    "<URL: lines with no >": lambda n: "<URL:a\n" * (n // 7),
    "quoted <URL: lines": lambda n: "> <URL:http://h/a\n" * (n // 18),
    "<http: with no >": lambda n: "<http:" * (n // 6),
    "< followed by letters": lambda n: "<" + "a" * n,
    "http: with no end": lambda n: "http:" * (n // 5),
    "http:// then letters": lambda n: "http://" + "a" * n,
    "mailto: runs": lambda n: "mailto:" * (n // 7),
    "colons": lambda n: ":" * n,
    "URL: runs": lambda n: "URL:" * (n // 4),
    "quote marks and schemes": lambda n: '"http:' * (n // 6),
    "closing parentheses": lambda n: "http://h/" + ")" * n,
    "trailing dots": lambda n: "http://h/" + "." * n,
    "hyphen breaks in wrappers": lambda n: "<URL:http://h/a-\n-\n-\n-\n-\n-\n-\n>" * (n // 36),
    "megabyte line of words": lambda n: "word " * (n // 5),
    "scheme letters before ://": lambda n: "a" * n + "://",
    "valid wrappers": lambda n: "<URL:http://h/a> " * (n // 17),
    "www. runs": lambda n: "www." * (n // 4),
    "a www. host then letters": lambda n: "see www.a" + "a" * n,
}


def extract_all(text: str) -> int:
    return sum(1 for _ in urlsift.extract(text, invalid=True))


def _validator(profile: str) -> Callable[[str], object]:
    return lambda text: urlsift.validate(text, profile)


@pytest.mark.parametrize("profile", ["strict", "modern"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_validation_steps_grow_linearly(shape: str, profile: str) -> None:
    texts = [SHAPES[shape](size) for size in COUNTED_SIZES]
    growth.assert_linear_steps(_validator(profile), texts, shape)


@growth.timing
@pytest.mark.parametrize("profile", ["strict", "modern"])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_validation_time_grows_linearly(shape: str, profile: str) -> None:
    texts = [SHAPES[shape](size) for size in TIMED_SIZES]
    growth.assert_linear(_validator(profile), texts, shape)


@pytest.mark.parametrize("shape", sorted(TEXT_SHAPES))
def test_extraction_steps_grow_linearly(shape: str) -> None:
    texts = [TEXT_SHAPES[shape](size) for size in COUNTED_SIZES]
    growth.assert_linear_steps(extract_all, texts, shape)


@growth.timing
@pytest.mark.parametrize("shape", sorted(TEXT_SHAPES))
def test_extraction_time_grows_linearly(shape: str) -> None:
    def fresh(text: str) -> int:  # a verdict cached by the run before would halve the small text's time
        growth.clear_caches()
        return extract_all(text)

    texts = [TEXT_SHAPES[shape](size) for size in TIMED_SIZES]
    growth.assert_linear(fresh, texts, shape)


# The archive reader on adversarial messages (bytes): one message or mbox of each shape; read as
# what it is (eml or mbox), whatever the sniffing would say of it.
MESSAGE_SHAPES: dict[str, Callable[[int], bytes]] = {
    "boundary lines": lambda n: b'Content-Type: multipart/mixed; boundary="b"\n\n' + b"--b\n\n" * (n // 5),
    "boundary-like lines": lambda n: (
        b'Content-Type: multipart/mixed; boundary="b"\n\n' + b"--bx --b\n" * (n // 9)
    ),
    "header lines": lambda n: b"X-A: b\n" * (n // 7) + b"\nbody",
    "folded header": lambda n: b"Subject: a\n" + b" a\n" * (n // 3) + b"\nbody",
    "a header line of colons": lambda n: b"Subject: " + b"a:" * (n // 2) + b"\n\nbody",
    "lines that are no header": lambda n: b"X: y\n" + b"no header here\n" * (n // 15),
    "nested multiparts": lambda n: b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (k, k) for k in range(n // 60)
    ),
    "mbox of From lines": lambda n: b"From a@b Thu Jan  1 00:00:00 1970\n\n" + b"From x\n\n" * (n // 8),
    "mbox of separators": lambda n: b"From a@b Thu Jan  1 00:00:00 1970\n\n" * (n // 35),
}


OPTIONS = Options()


def _messages(shape: str, sizes: tuple[int, ...]) -> list[bytes]:
    if shape.startswith("mbox"):
        return [MESSAGE_SHAPES[shape](size) for size in sizes]
    return [b"Message-ID: <1@x>\n" + MESSAGE_SHAPES[shape](size) for size in sizes]


def _reader(folder: Path) -> Callable[[bytes], int]:
    def read_all(data: bytes) -> int:  # the file written is in the cost: it is linear too
        growth.clear_caches()
        path = folder / "adversarial"
        path.write_bytes(data)
        return sum(1 for _ in results(str(path), OPTIONS, Tally()))

    return read_all


@pytest.mark.parametrize("shape", sorted(MESSAGE_SHAPES))
def test_reading_archives_steps_grow_linearly(shape: str, tmp_path: Path) -> None:
    growth.assert_linear_steps(_reader(tmp_path), _messages(shape, COUNTED_SIZES), shape)


@growth.timing
@pytest.mark.parametrize("shape", sorted(MESSAGE_SHAPES))
def test_reading_archives_time_grows_linearly(shape: str, tmp_path: Path) -> None:
    growth.assert_linear(_reader(tmp_path), _messages(shape, TIMED_SIZES), shape)
