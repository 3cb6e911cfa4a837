"""Hostile messages at scale (issue 17, items 3, 5, 6, 7, 9, 10), for bench/hostile.py: each case
builds its input in an empty folder and says how urlsift is run on it. The small variants are
tests (tests/sources/test_hostile_messages.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

SEPARATOR = b"From a@b Thu Jan  1 00:00:00 1970\n"
AFTER = SEPARATOR + b"Subject: after\n\nhttp://after.example/\n"

Case = Callable[[Path], tuple[list[str], Path | None]]


def _mbox(folder: Path, name: str, *messages: bytes) -> list[str]:
    path = folder / name
    with path.open("wb") as file:
        for message in messages:
            file.write(SEPARATOR + message + b"\n\n")
        file.write(AFTER)
    return [str(path)]


def _write_nested(folder: Path, name: str, depth: int, text: bytes) -> list[str]:
    """An mbox of one message of ``text`` inside ``depth`` multiparts, then AFTER: written level
    by level (built by concatenation, it was copied at every level)."""
    path = folder / name
    with path.open("wb") as file:
        file.write(SEPARATOR)
        for level in reversed(range(depth)):
            boundary = b"b%d" % level
            file.write(b"Content-Type: multipart/mixed; boundary=" + boundary + b"\n\n--" + boundary + b"\n")
        file.write(b"Content-Type: text/plain\n\n" + text)
        for level in range(depth):
            file.write(b"\n--b%d--\n" % level)
        file.write(b"\n" + AFTER)
    return [str(path)]


def dev_zero(folder: Path) -> tuple[list[str], Path | None]:
    return ["--input-format", "eml", "/dev/zero"], None


def sparse_eml(folder: Path) -> tuple[list[str], Path | None]:
    path = folder / "big.eml"
    path.write_bytes(b"Message-ID: <big@example>\nSubject: big\n\nhttp://big.example/\n")
    os.truncate(path, 3 * 10**9)
    return [str(path)], None


def sparse_eml_on_stdin(folder: Path) -> tuple[list[str], Path | None]:
    args, _ = sparse_eml(folder)
    return ["--input-format", "eml", "-"], Path(args[0])


def nested(folder: Path) -> tuple[list[str], Path | None]:
    text = b"lorem ipsum dolor sit amet\n" * (50 * 10**6 // 27)
    return _write_nested(folder, "nested.mbox", 62, text), None


def too_deep(folder: Path) -> tuple[list[str], Path | None]:
    return _write_nested(folder, "deep.mbox", 10_000, b"http://deep.example/\n"), None


def from_lines(folder: Path) -> tuple[list[str], Path | None]:
    line = b"From x " + b"12:34 " * 10_000  # 60 KB, no year: 74 s for these 3 MB before
    return _mbox(folder, "times.mbox", b"Subject: x\n\n" + (b"\n" + line + b"\n") * 50), None


def short_from_lines(folder: Path) -> tuple[list[str], Path | None]:
    line = b"From x " + b"12:34 " * 680  # 4 KB: under MAX_SEPARATOR_BYTES, tested in full
    return _mbox(folder, "short-times.mbox", b"Subject: x\n\n" + (b"\n" + line + b"\n") * 12_000), None


def html(units: int, unit: bytes) -> Case:
    def build(folder: Path) -> tuple[list[str], Path | None]:
        return _mbox(folder, "page.mbox", b"Content-Type: text/html\n\n" + unit * units + b"\n"), None

    return build


def encoded_words(units: int) -> Case:
    def build(folder: Path) -> tuple[list[str], Path | None]:
        subject = b"Subject: " + b"=?a?q?x " * units + b"\n\nbody\n"
        return _mbox(folder, "words.mbox", subject), None

    return build


def bad_charsets(folder: Path) -> tuple[list[str], Path | None]:
    charsets = [b"hex", b"rot13", b"idna", b"undefined", b"zlib", b"base64"]
    bad = [
        b"Subject: =?\xff?q?x?=\nContent-Type: text/plain; charset="
        + charsets[k % 6]
        + b"\n\nhttp://x.example/%d\n" % k
        for k in range(20_000)
    ]
    return _mbox(folder, "charsets.mbox", *bad), None


def nul_charsets(folder: Path) -> tuple[list[str], Path | None]:
    """20,000 messages whose RFC 2231 charset holds a NUL (issue 28.11: each an internal error,
    its URL lost and the message counted as scanned): each read, its value as written."""
    bad = [
        b"Content-Type: text/plain; charset*=utf\x00-8''%%41; name*=x\x00''y\n\nhttp://x.example/%d\n" % k
        for k in range(20_000)
    ]
    return ["--stats", *_mbox(folder, "nul-charsets.mbox", *bad)], None


CASES: dict[str, Case] = {
    "eml /dev/zero (100 MB limit)": dev_zero,
    "eml sparse 3 GB": sparse_eml,
    "eml sparse 3 GB on stdin": sparse_eml_on_stdin,
    "mbox 50 MB nested 62 deep": nested,
    "mbox multiparts nested 10,000 deep": too_deep,
    "mbox 3 MB of 60 KB From lines of times": from_lines,
    "mbox 50 MB of 4 KB From lines of times": short_from_lines,
    "html 100 KB of '<a '": html(33_000, b"<a "),
    "html 10 MB of '<a '": html(3_300_000, b"<a "),
    "html 10 MB of '<a href=\"'": html(1_100_000, b'<a href="'),
    "html 10 MB of '<!--'": html(2_500_000, b"<!--"),
    "subject 240 KB of '=?a?q?x '": encoded_words(30_000),
    "subject 24 MB of '=?a?q?x '": encoded_words(3_000_000),
    "mbox 20,000 messages of bad charsets and words": bad_charsets,
    "mbox 20,000 messages of RFC 2231 charsets with a NUL": nul_charsets,
}
