"""Issue 17, the message half: hostile and broken messages end in bounded time and memory, are
reported as what they are, and lose nothing before or after them (items 3, 5, 6, 7, 9, 10).

Each input is built here, in tmp_path, and read by the command line in a subprocess whose peak
RSS is its own (``os.wait4``). The GB-scale variants are bench cases (bench/hostile_cases/messages.py).
"""

from __future__ import annotations

import email.header
import io
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mutations import SEEDS, mutate

from urlsift import _select, matches, sources
from urlsift._model import Defect, Match, MessageText, Provenance
from urlsift.extract import extract_each
from urlsift.matches import BATCH_WEIGHT, weight
from urlsift.results import _batched, results
from urlsift.rows import Options, Report, Row, Tally
from urlsift.sources import mime
from urlsift.sources.mbox import MAX_SEPARATOR_BYTES, is_separator, messages

SEPARATOR = b"From a@b Thu Jan  1 00:00:00 1970\n"
AFTER = b"Subject: after\n\nhttp://after.example/\n"


class Run(NamedTuple):
    code: int
    out: str
    err: str
    seconds: float
    peak_mb: float


# The command line, with its own peak RSS written at exit: VmHWM of its address space. (A child's
# ru_maxrss starts from the RSS its parent had when it forked, here pytest's own.)
_MEASURED = """
import atexit, runpy, sys
peak_file = sys.argv.pop(1)
def _peak():
    with open("/proc/self/status") as status, open(peak_file, "w") as out:
        out.write(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
atexit.register(_peak)
runpy.run_module("urlsift", run_name="__main__", alter_sys=True)
"""


def _cli(tmp_path: Path, *args: str, limit: float = 60.0) -> Run:
    """``urlsift --no-progress --verbose --no-filename ARGS`` (each report said) in a subprocess,
    killed after ``limit`` seconds (which fails)."""
    out, err, peak = tmp_path / "stdout", tmp_path / "stderr", tmp_path / "peak"
    command = [
        sys.executable,
        "-c",
        _MEASURED,
        str(peak),
        "--no-progress",
        "--verbose",
        "--no-filename",
        *args,
    ]
    start = time.monotonic()
    with out.open("wb") as stdout, err.open("wb") as stderr:
        try:
            code = subprocess.run(
                command,
                stdout=stdout,
                stderr=stderr,
                stdin=subprocess.DEVNULL,
                timeout=limit,
                env={**os.environ, _select.VARIABLE: _select.CORE},  # the core the test runs on
            ).returncode
        except subprocess.TimeoutExpired:
            pytest.fail(f"urlsift {' '.join(args)} ran past {limit} s")
    seconds = time.monotonic() - start
    return Run(code, out.read_text(), err.read_text(), seconds, int(peak.read_text()) / 1024)


def _mbox(*messages: bytes) -> bytes:
    """An mbox of ``messages``: each quoted (mboxrd), ended by a line feed and an empty line."""
    quoted = [re.sub(rb"(?m)^(>*From )", rb">\1", data) for data in messages]
    return b"".join(SEPARATOR + data + (b"" if data.endswith(b"\n") else b"\n") + b"\n" for data in quoted)


def _part(header: bytes, body: bytes) -> bytes:
    return b"--b\n" + header + b"\n\n" + body + b"\n"


# Item 3: decode errors of every kind are defects of their message; the rest is read.
BAD_DECODING = [
    b"Subject: before\n\nhttp://before.example/\n",
    b"Content-Type: multipart/mixed; boundary=b\n\n"
    + _part(b"Content-Type: text/plain; charset=hex", b"http://hex.example/")
    + _part(b"Content-Type: text/plain", b"http://second-part.example/")
    + b"--b--\n",
    b"Content-Type: text/plain; charset=idna\n\nhttp://idna.example/ \xff\n",
    b"Content-Type: text/plain; charset=rot13\n\nhttp://rot13.example/\n",
    b"Subject: =?\xff?q?x?= <http://subject.example/>\n\nhttp://word.example/\n",
    b"Subject: =?utf-8?b?a?= <http://base64-word.example/>\n\nhttp://body.example/\n",
    b"Content-Type: text/plain; charset=undefined\nContent-Transfer-Encoding: base64\n\n"
    b"aHR0cDovL2I2NC5leGFtcGxlLw\n",
    AFTER,
]


def test_decode_errors_of_every_kind_are_reports_of_their_message(tmp_path: Path, core: str) -> None:
    path = tmp_path / "bad-decoding.mbox"
    path.write_bytes(_mbox(*BAD_DECODING))
    run = _cli(tmp_path, str(path))
    urls = run.out.split()
    for host in ["before", "hex", "second-part", "idna", "rot13", "subject", "word", "base64-word", "body"]:
        assert f"http://{host}.example/" in urls, host
    assert "http://b64.example/" in urls  # base64 without its padding, in a charset that decodes nothing
    assert "http://after.example/" in urls
    assert "internal" not in run.err
    charset_reports = re.findall(r"#(\d): unknown-charset: charset '(\w+)'", run.err)
    assert charset_reports == [("1", "hex"), ("2", "idna"), ("3", "rot13"), ("6", "undefined")]
    assert re.findall(r"#(\d): malformed: an encoded word", run.err) == ["4", "5"]
    assert run.code == 0  # warnings only, URLs found
    split = _cli(tmp_path, "-j", "2", "--split-size", "100", str(path))
    assert split.out == run.out


def test_a_text_codec_that_is_no_text_encoding_is_refused(core: str) -> None:
    found = mime.read(
        b"Content-Type: text/plain; charset=base64\n\naHR0cDovL3guZXhhbXBsZS8=\n", Provenance("m")
    )
    assert found.texts == ["aHR0cDovL3guZXhhbXBsZS8=\n"]  # read as UTF-8, not decoded by the codec
    assert [defect.kind for defect in found.defects] == ["unknown-charset"]


@pytest.mark.parametrize("charset", ["punycode", "PunyCode", "idna"])
def test_a_domain_label_codec_as_charset_is_refused_not_decoded(charset: str, core: str) -> None:
    """punycode decodes in quadratic time (a 2 MB part hung the run) and encodes domain labels,
    not text: the part reads as UTF-8, reported, like any codec that is no text encoding."""
    body = b"http://x.example/ " + b"a-" * 100 + b"\n"
    found = mime.read(
        b"Content-Type: text/plain; charset=" + charset.encode() + b"\n\n" + body, Provenance("m")
    )
    assert found.texts == [body.decode()]
    assert [defect.kind for defect in found.defects] == ["unknown-charset"]
    assert "no text encoding" in found.defects[0].detail


# Item 5: HTML link extraction is linear on unclosed tags.
def test_an_html_part_of_unclosed_tags_ends_and_the_next_message_is_read(tmp_path: Path) -> None:
    page = b'<p>see <a href="http://html.example/">it</a></p>' + b"<a " * 100_000
    message = b"Content-Type: text/html\n\n" + page + b"\n"
    path = tmp_path / "html.mbox"
    path.write_bytes(_mbox(message, b"Content-Type: text/html\n\n" + b'<a href="' * 30_000 + b"\n", AFTER))
    run = _cli(tmp_path, str(path), limit=30)  # html.parser: minutes
    assert run.out.split() == ["http://html.example/", "http://after.example/"]
    assert run.code == 0


def test_a_tag_left_open_at_the_end_of_a_page_is_kept_as_text(core: str) -> None:
    found = mime.read(
        b'Content-Type: text/html\n\n<b>x</b><a href="http://open.example/ and more', Provenance("m")
    )
    assert "http://open.example/" in found.texts[0]


# Item 6: one message over --max-message is not read whole to be measured.
def test_dev_zero_as_one_message_ends_with_a_report(tmp_path: Path, core: str) -> None:
    after = tmp_path / "after.mbox"
    after.write_bytes(_mbox(AFTER))
    run = _cli(tmp_path, "--input-format", "eml", "--max-message", "2M", "/dev/zero", str(after), limit=30)
    assert "/dev/zero#0: too-large: a message of more than 2,000,000 bytes" in run.err
    assert run.out.split() == ["http://after.example/"]
    assert run.code == 2
    assert run.peak_mb < 100, run.peak_mb


def test_a_sparse_3_gb_message_is_measured_by_its_size_not_read(tmp_path: Path, core: str) -> None:
    path = tmp_path / "big.eml"
    path.write_bytes(b"Message-ID: <big@example>\nSubject: big\n\nhttp://big.example/\n")
    os.truncate(path, 3 * 10**9)
    run = _cli(tmp_path, "--max-message", "5M", str(path), limit=30)
    assert "too-large: a message of 3,000,000,000 bytes, over the 5,000,000-byte limit" in run.err
    assert run.code == 2
    assert run.seconds < 10, run
    assert run.peak_mb < 100, run


# Item 7: nested multiparts are read as views of the message, and not deeper than MAX_DEPTH.
def nested_multiparts(depth: int, text: bytes) -> bytes:
    body = b"Content-Type: text/plain\n\n" + text
    for level in range(depth):
        boundary = b"b%d" % level
        body = (
            b"Content-Type: multipart/mixed; boundary=" + boundary + b"\n\n--" + boundary + b"\n"
            + body + b"\n--" + boundary + b"--\n"
        )  # fmt: skip
    return body


def test_nested_multiparts_are_not_copied_at_every_level(tmp_path: Path, core: str) -> None:
    text = b"http://deep.example/\n" + b"lorem ipsum dolor sit amet\n" * 300_000  # 8 MB
    path = tmp_path / "nested.mbox"
    path.write_bytes(_mbox(nested_multiparts(62, text), AFTER))
    run = _cli(tmp_path, "--max-message", "50M", str(path))
    assert run.out.split() == ["http://deep.example/", "http://after.example/"]
    assert run.code == 0
    # Copied at each level: 62 x 8 MB, over 500 MB; as views 58 MB: the message, its text, the scan.
    assert run.peak_mb < 150, run.peak_mb


def test_multiparts_nested_past_the_limit_are_reported_and_the_next_message_read(
    tmp_path: Path, core: str
) -> None:
    path = tmp_path / "deep.mbox"
    path.write_bytes(_mbox(nested_multiparts(mime.MAX_DEPTH + 36, b"http://too-deep.example/\n"), AFTER))
    run = _cli(tmp_path, str(path))
    assert run.out.split() == ["http://after.example/"]
    assert f"malformed: parts nested deeper than {mime.MAX_DEPTH} levels; not read" in run.err


# Item 9: the From line test does not backtrack; a line of MAX_SEPARATOR_BYTES is no separator.
def test_long_from_lines_of_times_without_a_year_are_read_in_linear_time(tmp_path: Path) -> None:
    long_line = b"From x " + b"12:34 " * 10_000  # 60 KB, no year at its end
    short_line = b"From x " + b"12:34 " * 600  # 3.6 KB: under the limit, tested in full
    body = b"Subject: times\n\n" + (b"\n" + long_line + b"\n") * 50 + (b"\n" + short_line + b"\n") * 300
    path = tmp_path / "times.mbox"  # written as it is: _mbox would quote the From lines
    path.write_bytes(SEPARATOR + body + b"http://times.example/\n\n" + SEPARATOR + AFTER)
    run = _cli(tmp_path, "--stats", str(path), limit=30)  # the backtracking pattern: 74 s for 3 MB
    assert run.out.split() == ["http://times.example/", "http://after.example/"]
    assert "messages            2 = 2 scanned" in run.err


def test_a_separator_line_is_shorter_than_the_limit() -> None:
    def line(length: int) -> bytes:
        start = b"From a@b "
        return (
            start
            + b"x" * (length - len(start) - len(b" Thu Jan  1 00:00:00 1970"))
            + b" Thu Jan  1 00:00:00 1970"
        )

    assert is_separator(line(MAX_SEPARATOR_BYTES - 1))
    assert not is_separator(line(MAX_SEPARATOR_BYTES))


OLD_SEPARATOR = re.compile(rb"From \S+(?: at \S+)? .*\d\d:\d\d(?::\d\d)?.* \d{4}\s*$")
LINE_PIECES = [
    b"From ", b" ", b"\t", b"a", b"at", b" at ", b"1", b"12", b":", b"12:34", b"1970", b"\r", b"\x0b",
    b"x@y", b"  ", b":00",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LINE_PIECES), max_size=14).map(b"".join))
def test_the_separator_test_takes_the_lines_the_old_pattern_took(line: bytes) -> None:
    assert is_separator(line) == (line.startswith(b"From ") and OLD_SEPARATOR.match(line) is not None)


# Item 10: RFC 2047 decoding of unclosed encoded words is linear.
def test_a_header_of_unclosed_encoded_words_ends_and_the_next_message_is_read(tmp_path: Path) -> None:
    subject = b"Subject: " + b"=?a?q?x " * 30_000 + b"<http://subject.example/>\n"  # 240 KB
    path = tmp_path / "words.mbox"
    path.write_bytes(_mbox(subject + b"\nbody\n", AFTER))
    run = _cli(tmp_path, str(path), limit=30)  # email.header: 42 s
    assert run.out.split() == ["http://subject.example/", "http://after.example/"]


WORD_PIECES = [
    "=?", "?=", "utf-8", "q", "B", "?", " ", "\n", "=41", "=FF", "_", "aGk=", "aG", "x", "\xff", "hex",
    "*en", "latin-1", "\r", "?q?", "?b?",
]  # fmt: skip


def _stdlib_header(value: str) -> str | None:
    try:
        return str(email.header.make_header(email.header.decode_header(value)))
    except Exception:  # whatever it raises: None
        return None


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORD_PIECES), max_size=25).map("".join))
def test_encoded_words_decode_as_the_stdlib_decodes_them(value: str) -> None:
    decoded, problem = mime._header_decoded(value)
    expected = _stdlib_header(value)
    if expected is None:  # the stdlib gives up on the whole value: urlsift reads it run by run
        assert problem is not None
    else:
        assert (decoded, problem) == (expected, None)


def test_one_bad_encoded_word_spoils_no_other_word(tmp_path: Path) -> None:
    subject = (
        b"Subject: =?utf-8?q?see_http://ok.example/a?= and =?iso-8859-1?b?aHR0cDovL2I2NC5leGFtcGxl?="
        b" or =?x-unknown?q?http://unknown.example/?= or =?hex?q?http://hex.example/?=\n"
    )
    path = tmp_path / "words.mbox"
    path.write_bytes(_mbox(subject + b"\nbody\n", AFTER))
    run = _cli(tmp_path, str(path))
    # Each word decoded alone, an unknown or non-text charset read as UTF-8: no "?=" in a URL.
    assert run.out.split() == [
        "http://ok.example/a",
        "http://b64.example",
        "http://unknown.example/",
        "http://hex.example/",
        "http://after.example/",
    ]
    assert "malformed: an encoded word" in run.err


# The property: a mutated message changes nothing of the messages around it.
@st.composite
def three_messages_one_mutated(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """An mbox of three messages, and the same with the middle one mutated."""
    before, middle, after = (draw(st.sampled_from(SEEDS)) for _ in range(3))
    return _mbox(before, middle, after), _mbox(before, mutate(draw, middle), after)


def _outer_events(data: bytes) -> list[tuple[object, ...]]:
    """The rows and reports of messages 0 and 2, without their offsets (the middle's length
    moves the last one) and the file's path."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "three.mbox"
        path.write_bytes(data)
        events = list(results(str(path), Options(invalid=True), Tally()))
    kept: list[tuple[object, ...]] = []
    for event in events:
        if isinstance(event, Report):
            assert event.kind != "internal", event
            if event.message in (0, 2):
                kept.append((event.kind, event.message, event.detail, event.lost_input))
        elif isinstance(event, tuple) and event[10] in (0, 2):
            kept.append((*event[:8], *event[9:11], *event[12:]))  # (not the folder's name either)
    return kept


@settings(max_examples=150, deadline=None)
@given(three_messages_one_mutated())
def test_a_mutated_message_changes_nothing_before_or_after_it(pair: tuple[bytes, bytes]) -> None:
    original, mutated = pair
    assert len(list(messages(io.BytesIO(mutated)))) == 3
    assert _outer_events(mutated) == _outer_events(original)


@pytest.mark.parametrize("charset", ["hex", "rot13", "idna", "undefined", "zlib", "\x00"])
def test_every_charset_gives_text_or_a_report(charset: str, core: str) -> None:
    data = f"Content-Type: text/plain; charset={charset}\n\nhttp://x.example/ \xff\n".encode("latin-1")
    found = mime.read(data, Provenance("m"))
    assert "http://x.example/" in found.texts[0]
    assert [defect.kind for defect in found.defects][:1] == ["unknown-charset"]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=60).map(lambda data: data.replace(b"a", b"\n")))
def test_the_longest_line_is_measured_a_window_at_a_time(data: bytes) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sources, "MAX_LINE", 7)  # windows of 7 bytes: lines across one, two, many
        assert sources._longest_line(data) == max(map(len, data.split(b"\n")))


def test_a_bug_in_the_message_reader_ends_only_its_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_read = mime.read

    def read(data: bytes, where: Provenance, *more: bool) -> object:
        if b"boom" in data:
            raise RecursionError("a bug")
        return real_read(data, where, *more)

    monkeypatch.setattr(mime, "read", read)
    path = tmp_path / "bug.mbox"
    path.write_bytes(_mbox(b"Subject: boom\n\nhttp://lost.example/\n", AFTER))
    events = list(results(str(path), Options(), Tally()))
    reports = [(event.kind, event.message) for event in events if isinstance(event, Report)]
    assert reports == [("internal", 0)]
    assert [event.url for event in events if isinstance(event, Row)] == ["http://after.example/"]


def test_a_bug_in_scanning_messages_together_ends_only_the_message_it_is_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Small messages are scanned together (``Matcher.batch``): a bug in the scan of one of them
    loses that message only, the others come out whole, in order, and the counts add up."""
    real_scan = extract_each

    def scan(texts: list[str], **arguments: Any) -> Iterator[tuple[int, Match]]:
        if any("boom" in text for text in texts):
            raise RuntimeError("a bug")
        return real_scan(texts, **arguments)

    monkeypatch.setattr(matches, "extract_each", scan)
    path = tmp_path / "bug.mbox"
    bodies = [b"http://m0.example/", b"boom http://m1.example/", b"http://m2.example/", b"http://m3.example/"]
    path.write_bytes(_mbox(*(b"Subject: %d\n\n%s\n" % (k, body) for k, body in enumerate(bodies))))
    tally = Tally()
    events = list(results(str(path), Options(), tally))
    reports = [(event.kind, event.message) for event in events if isinstance(event, Report)]
    assert reports == [("internal", 1)]
    urls = [event.url for event in events if isinstance(event, Row)]
    assert urls == ["http://m0.example/", "http://m2.example/", "http://m3.example/"]
    assert (tally.messages, tally.messages_failed, tally.urls) == (4, 1, 3)


def test_messages_are_scanned_together_in_batches_of_bounded_weight() -> None:
    """What ``Matcher.batch`` holds the matches of is bounded: the messages of a batch weigh
    ``BATCH_WEIGHT`` in all at most (a heavier one is alone, and scanned lazily), empty ones
    too; messages of pipermail's form are not mixed with others; nothing is lost or reordered."""
    where = Provenance("m")
    items: list[Any] = [
        *(MessageText(where, [], [], 0, []) for _ in range(1000)),  # empty messages
        Defect("malformed", where, "between them"),
        *(
            MessageText(where, ["x" * size], ["0 text/plain"], 0, [])
            for size in (10, 40_000, 30_000, 70_000, 5)
        ),
        MessageText(where, ["a"], ["0 text/plain"], 0, [], None, True),
        MessageText(where, ["b"], ["0 text/plain"], 0, []),
    ]
    batches = list(_batched(iter(items)))
    assert [item for batch in batches for item in (batch if isinstance(batch, list) else [batch])] == items
    lists = [batch for batch in batches if isinstance(batch, list)]
    for batch in lists:
        assert len(batch) == 1 or sum(map(weight, batch)) <= BATCH_WEIGHT
        assert len({message.pipermail for message in batch}) == 1
    assert [len(batch) for batch in lists][-6:] == [2, 1, 1, 1, 1, 1]  # 10 + 40,000; 30,000; ...
    assert 1000 / len(lists[:-6]) <= BATCH_WEIGHT / 256  # empty messages weigh something too


def test_a_batch_holds_a_bounded_number_of_reports() -> None:
    """A batch holds its messages' reports too: messages of a hundred damaged header lines each,
    and small texts, are not batched by the hundred (the weight counts their reports)."""
    where = Provenance("m")
    damaged = [
        MessageText(where, ["x"], ["0 text/plain"], 0, [Defect("malformed", where, "no colon")] * 100)
        for _ in range(300)
    ]
    lists = [batch for batch in _batched(iter(damaged)) if isinstance(batch, list)]
    assert sum(map(len, lists)) == 300
    assert max(sum(len(message.defects) for message in batch) for batch in lists) <= BATCH_WEIGHT / 256


def test_a_message_of_many_candidates_is_not_held_as_matches(tmp_path: Path, core: str) -> None:
    # 700 KB of unclosed wrappers: 140,000 rejected candidates, once built as one list of matches
    # before the first row (124 MB at this size, 170 times the message).
    spam = (b"<URL:" * 14 + b"\n") * 10_000
    path = tmp_path / "spam.mbox"
    path.write_bytes(_mbox(b"Subject: x\n\n" + spam, AFTER))
    run = _cli(tmp_path, str(path), limit=120)
    assert run.out.split() == ["http://after.example/"]
    assert run.peak_mb < 60, run.peak_mb


# --- issue 28: an RFC 2231 charset that cannot decode, and a bug in one record ---------------

_NUL_CHARSET = b"Content-Type: text/plain; charset*=utf\x00-8''%41\n\nhttp://nul.example/\n"


def _warc_record(kind: bytes, content_type: bytes, body: bytes) -> bytes:
    return b"WARC/1.0\r\nWARC-Type: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n" % (
        kind,
        content_type,
        len(body),
        body,
    )


def test_an_rfc_2231_charset_with_a_nul_is_a_warning_and_the_value_read_as_written(tmp_path: Path) -> None:
    # Issue 28.11: ValueError ("embedded null character"): the message lost, counted as scanned.
    path = tmp_path / "nul.mbox"
    path.write_bytes(
        _mbox(b"Subject: a\n" + _NUL_CHARSET, b"Content-Type: text/plain; name*=utf\x00-8''x\n\nok", AFTER)
    )
    run = _cli(tmp_path, "--stats", str(path))
    assert run.code == 0  # warnings only
    assert run.out.split() == ["http://nul.example/", "http://after.example/"]
    said = [line for line in run.err.splitlines() if ": unknown-charset: " in line]
    assert said[0] == (
        f"urlsift: {path}#0: unknown-charset: parameter charset: charset 'utf\\x00-8' cannot decode it "
        "(ValueError); read as written"
    )
    assert len(said) == 3  # the NUL charset of 0 and of 1's name; 0's charset read as written is "A"
    assert "messages            3 = 3 scanned + 0 failed" in run.err


def test_an_rfc_2231_charset_with_a_nul_in_a_warc_loses_nothing_after_it(tmp_path: Path) -> None:
    # Issue 28.11: inside a message/rfc822 record, the rest of the WARC file was lost.
    pytest.importorskip("warcio")
    path = tmp_path / "mail.warc"
    path.write_bytes(
        _warc_record(b"resource", b"message/rfc822", b"Subject: a\r\n" + _NUL_CHARSET)
        + _warc_record(b"resource", b"text/plain", b"http://after.example/")
    )
    run = _cli(tmp_path, str(path))
    assert run.code == 0
    assert run.out.split() == ["http://nul.example/", "http://after.example/"]


def test_a_bug_in_one_warc_record_loses_that_record_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("warcio")
    from urlsift.sources import warc

    real = warc._content

    def content(record: Any, *args: Any) -> Any:
        if record.rec_headers.get_header("Content-Type") == "text/x-boom":
            raise RuntimeError("a bug")
        return real(record, *args)

    monkeypatch.setattr(warc, "_content", content)
    path = tmp_path / "bug.warc"
    path.write_bytes(
        _warc_record(b"resource", b"text/plain", b"http://before.example/")
        + _warc_record(b"resource", b"text/x-boom", b"http://lost.example/")
        + _warc_record(b"resource", b"text/plain", b"http://after.example/")
    )
    tally = Tally()
    events = list(results(str(path), Options(), tally))
    assert [(event.kind, event.message) for event in events if isinstance(event, Report)] == [("internal", 1)]
    assert [event.url for event in events if isinstance(event, Row)] == [
        "http://before.example/",
        "http://after.example/",
    ]
    assert (tally.messages, tally.messages_failed, tally.files_failed) == (3, 1, 0)
