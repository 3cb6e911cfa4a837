"""An mbox's messages read, scanned and made rows of by the core a batch at a time (issue 32:
``_native_mail``, rust/core/src/mail.rs), against the Python path (``results._message``, the
oracle): the same rows, reports and tally on every mail and news corpus file (the repository's
and ../shared/corpora's, where it is there), both profiles, with and without ``--invalid``; the
command line's bytes, stderr and exit code in each format; bench's hostile messages; hypothesis
mboxes mixing the messages the core reads with those it leaves to Python, with reports in some,
every or none of them; and a core that fails on a batch."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import subprocess
import sys
import tarfile
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import growth
import pytest
from hostile_cases import message_cases
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from results.test_native_rows import _same
from scan import test_core_scan as core_scan

from urlsift import _native_mail, _native_rows, _select, results
from urlsift.dates import _usual, iso
from urlsift.rows import Filters, Options
from urlsift.sources import SNIFF_BYTES, sniff

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpora"  # beside the checkout, where it is there
MAIL_FILES = sorted(
    path
    for root in (ROOT / "corpora", SHARED)
    for path in (*root.glob("mail/**/*"), *root.glob("news/**/*"))
    if path.is_file() and path.suffix != ".md"
)
MBOXES = [path for path in MAIL_FILES if sniff(path.read_bytes()[:SNIFF_BYTES], path.name) == "mbox"]
"""The files whose messages the core reads (an article or ``.eml`` is one message, read as before)."""
native = pytest.mark.skipif(_select.NATIVE is None, reason="the native core is not built")
OPTION_SETS = [Options(), Options(profile="modern", invalid=True, second_opinion="strict")]


@pytest.fixture
def outcomes(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """What became of each message the core was given: "native", or why Python read it."""
    seen: Counter[str] = Counter()
    read = _native_mail.MailRows.read

    def counted(self: _native_mail.MailRows, messages: Any) -> _native_mail.MailBatch:
        batch = read(self, messages)
        seen.update(outcome if isinstance(outcome, str) else "native" for outcome in batch.outcomes)
        return batch

    monkeypatch.setattr(_native_mail.MailRows, "read", counted)
    return seen


def test_the_one_place_decides_for_messages() -> None:
    with _select.using("python"):
        assert not _native_rows.in_core(Options(), messages=True)
    if _select.NATIVE is None:
        return
    with _select.using("rust"):
        assert _native_rows.in_core(Options(invalid=True, second_opinion="modern"), messages=True)
        assert results._read_options(Options()).mail_bytes
        for narrowed in (
            Filters(parts="body"),
            Filters(parts="headers"),
            Filters(since=datetime(2000, 1, 1, tzinfo=UTC)),
        ):
            assert _native_rows.in_core(Options(filters=narrowed))  # a plain text's rows still are
            assert not _native_rows.in_core(Options(filters=narrowed), messages=True)
            assert not results._read_options(Options(filters=narrowed)).mail_bytes


@native
@pytest.mark.parametrize("options", OPTION_SETS, ids=["strict", "modern-invalid"])
@pytest.mark.parametrize("path", MBOXES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_every_mbox(path: Path, options: Options, outcomes: Counter[str]) -> None:
    _, tally = _same(str(path), options)
    assert tally.messages > 0
    assert sum(outcomes.values()) > 0  # (the core's path was taken: its messages, or why not)


def _cli(core: str, *arguments: str) -> subprocess.CompletedProcess[bytes]:
    environment = {**os.environ, "URLSIFT_CORE": core}
    command = [sys.executable, "-m", "urlsift", *arguments]
    return subprocess.run(command, capture_output=True, env=environment, check=False)


def _same_cli(*arguments: str) -> subprocess.CompletedProcess[bytes]:
    said = _cli("rust", *arguments)
    oracle = _cli("python", *arguments)
    assert (said.returncode, said.stderr) == (oracle.returncode, oracle.stderr)
    assert said.stdout == oracle.stdout
    return oracle


@native
@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
@pytest.mark.parametrize("profile", ["strict", "modern"])
def test_the_command_line_says_the_same_of_every_mail_file(fmt: str, profile: str) -> None:
    paths = [str(path) for path in MAIL_FILES]
    for invalid in ((), ("--invalid",)):
        _same_cli("--format", fmt, "--profile", profile, "--stats", *invalid, *paths)


HOSTILE = [
    "mbox multiparts nested 10,000 deep",
    "mbox 3 MB of 60 KB From lines of times",
    "html 100 KB of '<a '",
    "subject 240 KB of '=?a?q?x '",
    "mbox 20,000 messages of bad charsets and words",
    "mbox 20,000 messages of RFC 2231 charsets with a NUL",
]
"""bench/hostile_cases/messages.py's cases of a few MB (the others are GB-scale or not mbox)."""


@native
@pytest.mark.parametrize("case", HOSTILE)
def test_the_hostile_messages_are_said_the_same(case: str, tmp_path: Path) -> None:
    arguments, stdin = message_cases()[case](tmp_path)
    assert stdin is None
    _same_cli("--format", "jsonl", "--invalid", "--stats", *arguments)


SEPARATOR = b"From a@b Sat Jan  1 00:00:00 2000\n"
PIPERMAIL = b"From joe at example.org  Sat Jan  1 00:00:00 2000\n"
MESSAGES = [
    # the core's: plain, quoted, with a Date, with list headers, Latin-1, quoted-printable, base64
    b"Subject: a\nDate: Sat, 01 Jan 2000 10:00:00 +0100\n\nsee http://a.example/x and www.b.example\n",
    b"List-Archive: <http://list.example/archive>\nMessage-ID: <1@x>\n\n"
    b"> quoted <URL:http://q.example/\n> more>\n",
    b"Content-Type: text/plain; charset=iso-8859-1\n\ncaf\xe9 http://c\xe9.example/ \xa0ok\n",
    b"Content-Transfer-Encoding: quoted-printable\n\n<https://qp.example/a=\n/b> =E2=80=94 x\n",
    b"Content-Transfer-Encoding: base64\n\naHR0cDovL2I2NC5leGFtcGxlLw==\n",
    b"Content-Type: multipart/mixed; boundary=b\n\n--b\n\nhttp://one.example/\n--b\n\ntel:+1-201-555-0123 "
    b"mailto:joe at example.org\n--b--\n",
    b"Content-Type: text/plain; charset=utf-8\n\nundecodable \xff http://u.example/ \xe4\xb8\xad.example\n",
    b"Newsgroups: comp.x\nDate: garbage\n\n<http://unclosed.example/ and http://bad.example/%zz\n",
    b"X-Mailer: \xf0\x9f\x98\x80 www.emoji.example\n\n\xf0\x9f\x98\x80 http://e.example/\xf0\x9f\x98\x80\n",
    # D31: flowed text, a URL broken across soft breaks, quoted, DelSp=yes, CRLF, a signature
    b"Content-Type: text/plain; format=flowed\n\nhttp://flowed.example/a \nb http://f2.example/\n",
    b"Content-Type: text/plain; format=flowed; delsp=yes\n\n> see http://d.example/a- \n> b/c \n>> x\n",
    b"Content-Type: text/plain; format=flowed\r\n\r\n"
    b" <URL:http://crlf.example/ \r\n a/b> \r\n-- \r\nsig \r\n",
    b"Content-Type: text/plain; format=flowed; charset=utf-8\n\n"
    b"h\xc3\xa9 http://\xc3\xa9.example/ \n\xe4\xb8\xad tel:+1-201-555-0123 \n",
    # RFC 2047 words the core decodes (mime/words.rs): Q, B without its padding, two side by side
    b"Subject: =?utf-8?q?http=3A//w.example/?=\n\nbody http://w2.example/\n",
    b"Subject: =?utf-8?b?aHR0cDovL2IuZXhhbXBsZS8?= x\n"
    b"List-Post: =?iso-8859-1?q?<mailto:l@x.example>?=\n\nb\n",
    b"Subject: =?utf-8?q?see_?= =?utf-8?q?http://two.example/?=\nDate: =?us-ascii?q?Mon?=\n\nb\n",
    # Python's: a word in another charset, HTML, another charset, RFC 2231, a bad header block
    b"Subject: =?koi8-r?q?http://k2.example/?=\n\nbody http://w3.example/\n",
    b"Content-Type: text/html\n\n<a href='http://h.example/'>x</a>\n",
    b"Content-Type: text/plain; charset=koi8-r\n\n\xc1 http://k.example/\n",
    b"Content-Type: text/plain; name*=utf-8''x\n\nhttp://r.example/\n",
    b"Bad header line\nSubject: x\n\nhttp://odd.example/\n",
]


EIGHT_BIT_HEADER_BLOCKS = [
    # an 8-bit header line, then a blank line ended by CR LF, then a bare LF: Python's parser reads
    # the block's end there as no separator at all (a tester's finding on a one-pass header cut)
    b"Subject: caf\xe9\r\n\r\n\nb http://lat.example/\n",
    b"Subject: \xe9=?utf-8?q?x?= a\r\n\r\n\n\nhttp://w.example/\n",
    b"X: \x80\xff\r\n\r\n\nhttp://x.example/\n",
    b"X: ascii\r\n\r\n\nhttp://y.example/\n",
]


@native
@pytest.mark.parametrize("message", EIGHT_BIT_HEADER_BLOCKS)
def test_a_header_block_ends_where_pythons_parser_ends_it(message: bytes, tmp_path: Path) -> None:
    path = tmp_path / "m.mbox"
    path.write_bytes(SEPARATOR + message)
    _same_cli("--verbose", "--stats", "--format", "csv", str(path))


@native
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.tuples(st.sampled_from(MESSAGES), st.sampled_from([SEPARATOR, PIPERMAIL])), max_size=24),
    st.booleans(),
)
def test_mboxes_of_both_kinds_of_message(messages: list[tuple[bytes, bytes]], invalid: bool) -> None:
    data = b"".join(separator + message + b"\n" for message, separator in messages)
    _same("made.mbox", Options(invalid=invalid, second_opinion="modern"), data)


FLOWED_LINES = st.sampled_from(
    [
        "",
        " ",
        "> ",
        ">> ",
        ">",
        "-- ",
        "http://a.example/",
        "b/c",
        "<URL:http://w.example/",
        "x>",
        "tel:+1-201-",
    ]
)


@native
@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(FLOWED_LINES, min_size=1, max_size=4).map("".join), max_size=12),
    st.booleans(),
    st.sampled_from(["\n", "\r\n"]),
)
def test_flowed_parts_are_placed_back_as_matcher_places_them(lines: list[str], delsp: bool, end: str) -> None:
    """D31: the core's unflowing (rust/core/src/flowed.rs) against ``flowed.py``'s, in rows."""
    head = "Content-Type: text/plain; format=flowed" + ("; delsp=yes" if delsp else "")
    message = (head + end + end + end.join(lines) + end).encode()
    _same("flowed.mbox", Options(invalid=True), SEPARATOR + message + b"\n")


def _mbox(messages: Iterator[bytes]) -> bytes:
    return b"".join(SEPARATOR + message + b"\n" for message in messages)


@native
@pytest.mark.parametrize("damaged", [0, 1, 3, 300], ids=["none", "one", "every-third", "every"])
def test_reports_in_none_some_or_every_message(damaged: int, outcomes: Counter[str]) -> None:
    plain = b"Subject: x\n\nhttp://x%d.example/ and http://y.example/\n"
    bad = b"Content-Type: text/plain; charset=utf-8\n\nbad \xff http://z%d.example/\n"
    data = _mbox((bad if damaged and k % damaged == 0 else plain) % k for k in range(300))
    _, tally = _same("damaged.mbox", Options(), data)
    assert tally.messages == 300
    assert tally.warnings == (len(range(0, 300, damaged)) if damaged else 0)
    assert outcomes["native"] == 300


@native
def test_a_message_heavier_than_a_batch_is_read_as_before(outcomes: Counter[str]) -> None:
    heavy = b"Subject: x\n\n" + b"http://heavy.example/ lorem ipsum\n" * 4000
    _same("heavy.mbox", Options(), _mbox(iter([heavy, b"\nhttp://light.example/\n"])))
    assert outcomes["native"] == 1


@native
def test_a_failing_core_leaves_its_batch_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _mbox(b"Subject: x\n\nhttp://x%d.example/\n" % k for k in range(50))
    expected = _same("x.mbox", Options(), data)

    def failing(self: _native_mail.MailRows, messages: Any) -> _native_mail.MailBatch:
        raise _select.NATIVE.InternalError("mail_rows: a panic")  # type: ignore[union-attr]

    monkeypatch.setattr(_native_mail.MailRows, "read", failing)
    assert _same("x.mbox", Options(), data) == expected


# Growth: 10x the batch, at most 15x the instructions of the core (callgrind, as the reader's).
SHAPES: dict[str, Callable[[int], bytes]] = {
    "many messages": lambda n: b"\x00".join(b"Subject: s\n\nhttp://m%d.example/\n" % k for k in range(n)),
    "many parts": lambda n: (
        b"Content-Type: multipart/mixed; boundary=b\n\n"
        + b"--b\nContent-Type: text/plain\n\nhttp://x.example/\n" * n
        + b"--b--\n"
    ),
    "headers of URLs": lambda n: (
        b"".join(b"X-H%d: <http://h%d.example/>\n" % (k, k) for k in range(n)) + b"\nx\n"
    ),
    "flowed, every line joined": lambda n: (
        b"Content-Type: text/plain; format=flowed\n\n" + b"see http://f.example/a- \nb/c and \n" * (10 * n)
    ),
    "flowed, quoted": lambda n: (
        b"Content-Type: text/plain; format=flowed; delsp=yes\n\n"
        + b"> <URL:http://q.example/ \n> a> \n>> x \n" * (10 * n)
    ),
    "one line of URLs": lambda n: b"\n" + b"http://l.example/ " * (10 * n),
}


@pytest.mark.skipif(core_scan.VALGRIND is None, reason="valgrind is missing: instructions are not counted")
@pytest.mark.skipif(core_scan.CARGO is None, reason="cargo is missing: the core's example cannot be built")
def test_the_core_batch_readers_instructions_grow_linearly(tmp_path: Path) -> None:
    assert core_scan.VALGRIND is not None
    assert core_scan.CARGO is not None
    files = []
    for k, shape in enumerate(SHAPES.values()):
        for size in (100, 1000):
            files.append(tmp_path / f"{k}-{size}.batch")
            files[-1].write_bytes(shape(size))
    example = core_scan._example(core_scan.CARGO, "read_mail")
    said = subprocess.run([example, *files], capture_output=True, text=True, timeout=300, check=True)
    assert all(int(rows) > 0 for rows in said.stdout.split()[:-1])  # each found its URLs
    counts = growth.instructions([example, *files], "read_one", len(files), tmp_path)
    growth.assert_instructions_linear(list(SHAPES), counts, core_scan.INSTRUCTION_LIMIT, 100_000)


def _packed(tmp_path: Path, kind: str, mboxes: list[Path]) -> Path:
    """``mboxes`` in one container or stream of ``kind``."""
    if kind == "zip":
        packed = tmp_path / "mail.zip"
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in mboxes:
                archive.write(path, f"lists/{path.name}")
        return packed
    if kind in ("tar", "tar.xz"):
        packed = tmp_path / f"mail.{kind}"
        with tarfile.open(packed, "w:xz" if kind == "tar.xz" else "w") as archive:
            for path in mboxes:
                archive.add(path, f"lists/{path.name}")
        return packed
    compressors: dict[str, Callable[[bytes], bytes]] = {
        "gz": gzip.compress,
        "bz2": bz2.compress,
        "xz": lzma.compress,
    }
    compress = compressors[kind]
    packed = tmp_path / f"{mboxes[0].name}.{kind}"
    packed.write_bytes(compress(mboxes[0].read_bytes()))
    return packed


PACKED_MBOXES = [
    ROOT / "corpora" / "mail" / name for name in ("r-devel-2000-May.mbox", "mail-url-hard-cases.mbox")
]


@native
@pytest.mark.parametrize("kind", ["zip", "tar", "tar.xz", "gz", "bz2"])
def test_packed_mboxes_members_are_read_by_the_core_and_said_the_same(
    kind: str, tmp_path: Path, outcomes: Counter[str]
) -> None:
    """An mbox in a zip or tar, or compressed, reaches the core's reader as a plain one does (issue
    32: the containers stay in Python), with the same output as the oracle's."""
    packed = _packed(tmp_path, kind, PACKED_MBOXES)
    _, tally = _same(str(packed), Options())
    assert outcomes["native"] > 0.9 * tally.messages > 0
    _same_cli("--format", "jsonl", "--invalid", "--stats", str(packed))


def _usual_iso(date: str) -> str | None:
    """``dates.iso`` where ``dates._usual`` reads ``date`` (the form the core reads too), else None."""
    when = _usual(date)
    return None if when is None else f"{when.replace(tzinfo=None).isoformat()}Z"


def _corpus_dates() -> list[str]:
    dates = set()
    for path in MBOXES:
        for line in path.read_bytes().splitlines():
            if line[:5].lower() == b"date:":
                dates.add(line[5:].decode("latin-1"))
    return sorted(dates)


@native
def test_the_cores_dates_are_pythons_on_the_corpora() -> None:
    """Each Date of the corpora's mboxes: the core's ISO date (rust/core/src/dates.rs) is the one
    ``dates._usual`` reads, and None (left to Python) where it reads none; Python's ``iso`` is
    the same where the core answers."""
    assert _select.NATIVE is not None
    dates = _corpus_dates()
    answered = [date for date in dates if _select.NATIVE.iso_date(date) is not None]
    assert len(answered) > 0.5 * len(dates) > 100  # ("Date:" lines of bodies too, named zones ...)
    for date in dates:
        assert _select.NATIVE.iso_date(date) == _usual_iso(date), date
    for date in answered:
        assert _select.NATIVE.iso_date(date) == iso(date), date


_PIECES = (
    "Tue,|mon,|Tue| |  |\t|\x1c|\xa0|\u3000|1|09|31|29|123|Feb|feb|FEB|Foo|Fé|0099|0100|2000|1900|9999|"
    "23:59|24:00|00:60|:59|:60|:5|+0000|-0000|+9999|-2359|+0100|EST|(CET)|(a (b))|()|(|)|x|٣"
)
_DATE_PIECES = st.sampled_from(_PIECES.split("|"))
"""Pieces of a Date: its fields, right and wrong, the spaces ``\\s`` takes (Unicode's too), a
digit not ASCII."""


@native
@settings(max_examples=500, deadline=None)
@given(st.lists(_DATE_PIECES, max_size=12).map("".join))
def test_the_cores_dates_are_pythons_on_made_up_texts(date: str) -> None:
    assert _select.NATIVE is not None
    assert _select.NATIVE.iso_date(date) == _usual_iso(date)


@native
@settings(max_examples=300, deadline=None)
@given(
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    st.integers(-99 * 60 - 99, 99 * 60 + 99),
    st.sampled_from(["", "Tue, ", "mon,", " ", "\x1d"]),
    st.sampled_from(["", " (CET)", "  ", "\x1f"]),
    st.booleans(),
)
def test_the_cores_dates_are_pythons_on_usual_dates(
    when: datetime, zone: int, weekday: str, comment: str, seconds: bool
) -> None:
    """Dates of the usual form over every year and zone (a zone's hours and minutes up to 99, as
    the form allows): the core reads each as ``dates._usual`` does, at the years' ends too."""
    assert _select.NATIVE is not None
    sign, minutes = ("-" if zone < 0 else "+"), abs(zone)
    written = (
        f"{weekday}{when.day} {when:%b} {when.year:04} {when:%H:%M}{when.strftime(':%S') if seconds else ''} "
        f"{sign}{minutes // 100:02}{minutes % 100:02}{comment}"
    )
    assert _select.NATIVE.iso_date(written) == _usual_iso(written), written
    if when.year >= 100 and _usual(written) is not None:
        assert _select.NATIVE.iso_date(written) is not None
