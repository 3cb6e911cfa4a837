"""Cutting an mbox into ranges at message boundaries (issue 8): every message lands in exactly
one range, whatever the range size, with the offset and bytes an uncut read gives it."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urlsift
from urlsift.cli import main
from urlsift.sources.mbox import BLOCK_BYTES, RawMessage, messages
from urlsift.sources.split import cuts, range_messages

pytestmark = pytest.mark.usefixtures("core")  # issue 32: each test on both cores

SEPARATOR = b"From someone@example.com Thu Jan  1 00:00:00 1970"

# Lines of a message body: URLs, empty lines, "From " lines that are no separators (no date, or
# not after an empty line), quoted ">From " lines, CRLF endings.
body_lines = st.sampled_from(
    [
        b"see <URL:http://host/a-",
        b"  b/c> and http://example.com/x.",
        b"",
        b"From here on it is quoted",
        b">From someone@example.com Thu Jan  1 00:00:00 1970",
        SEPARATOR,  # only a separator after an empty line
        b"mailto:joe@example.com\r",
        b"\r",
        b"x" * 300,
    ]
)
message = st.tuples(
    st.sampled_from([SEPARATOR, b"From a at b.org  Mon May  5 12:34:56 1997"]),
    st.lists(body_lines, max_size=12),
).map(lambda m: m[0] + b"\nSubject: s\n\n" + b"\n".join(m[1]) + b"\n")
mboxes = st.tuples(
    st.sampled_from([b"", b"junk before the first separator\n\n"]),
    st.lists(message, min_size=1, max_size=12),
    st.booleans(),
).map(lambda m: m[0] + b"\n".join(m[1]) + (b"" if m[2] else b"no newline at the end"))


def _whole(data: bytes) -> list[RawMessage]:
    return list(messages(io.BytesIO(data)))


def _cut(data: bytes, size: int) -> list[RawMessage]:
    file = io.BytesIO(data)
    starts = cuts(file, size, len(data))
    found: list[RawMessage] = []
    for start, end in zip(starts, [*starts[1:], len(data)], strict=True):
        before = len(found)  # the messages of the ranges before: numbers go on from there
        found.extend(m._replace(number=before + m.number) for m in range_messages(file, start, end))
    return found


@given(mboxes, st.integers(min_value=1, max_value=3000))
def test_every_message_lands_in_exactly_one_range(data: bytes, size: int) -> None:
    whole = _whole(data)
    assert _cut(data, size) == whole
    # and so the URLs are the same
    urls = [urlsift.extract_urls(m.data.decode("utf-8", "replace")) for m in whole]
    assert [urlsift.extract_urls(m.data.decode("utf-8", "replace")) for m in _cut(data, size)] == urls


@given(mboxes, st.integers(min_value=1, max_value=3000))
def test_ranges_start_at_separators_and_grow(data: bytes, size: int) -> None:
    starts = cuts(io.BytesIO(data), size, len(data))
    assert starts[0] == 0
    assert starts == sorted(set(starts))
    offsets = {m.offset for m in _whole(data)}
    assert set(starts[1:]) <= offsets


def test_a_real_mbox_cut_into_many_ranges(tmp_path: Path) -> None:
    path = Path(__file__).parents[2] / "corpora" / "mail" / "mail-url-hard-cases.mbox"
    data = path.read_bytes()
    whole = _whole(data)
    for size in (1, 1000, 64 * 1024, len(data)):
        assert _cut(data, size) == whole, size
    assert len(cuts(io.BytesIO(data), 1, len(data))) == len(whole)  # size 1: a range a message


def test_a_separator_far_past_the_search_block_is_found() -> None:
    data = SEPARATOR + b"\n\n" + b"a\n" * 100_000 + b"\n" + SEPARATOR + b"\n\nb\n"
    starts = cuts(io.BytesIO(data), 10, len(data))
    assert starts == [0, data.rindex(SEPARATOR)]
    assert _cut(data, 10) == _whole(data)


def test_a_range_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least one byte"):
        cuts(io.BytesIO(b""), 0, 0)


MAIL = Path(__file__).parents[2] / "corpora" / "mail"


@pytest.mark.parametrize("name", ["mail-url-hard-cases.mbox", "r-devel-1997-May.mbox"])
def test_j2_over_ranges_prints_what_j1_prints(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """-j 2 with ranges of 20 KB: the same rows (message numbers and offsets included), the same
    reports (with their message numbers) and the same counts as one process reading the file."""
    path = str(MAIL / name)
    runs = []
    for extra in (["-j", "1"], ["-j", "2", "--split-size", "20K"]):
        status = main(["--format", "jsonl", "--invalid", "--stats", "--no-progress", *extra, path])
        captured = capsys.readouterr()
        runs.append((status, captured.out, captured.err))
    assert runs[1] == runs[0]
    rows = [json.loads(line) for line in runs[0][1].splitlines()]
    assert max(row["message"] for row in rows) > 20  # many ranges, numbered on across them


@pytest.mark.parametrize(
    "options",
    [
        ["--format", "csv", "--invalid"],
        ["--canonical", "--schemes", "http,ftp"],
        ["--format", "jsonl", "--canonical", "--profile", "modern"],
        ["--unique", "--format", "jsonl"],
        ["--count"],
    ],
)
def test_j2_prints_what_j1_prints_whatever_the_options(
    options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Workers print their own rows (not for --unique and --count, which need them all in one
    place): every format and filter, pieces numbered on, as one process prints them."""
    path = str(MAIL / "r-devel-1997-May.mbox")
    runs = []
    for extra in (["-j", "1"], ["-j", "2", "--split-size", "20K"]):
        status = main([*options, "--stats", "--no-progress", *extra, path])
        captured = capsys.readouterr()
        runs.append((status, captured.out, captured.err))
    assert runs[1] == runs[0]
    assert runs[0][0] == 0  # URLs found and printed


def _dense_text(path: Path) -> Path:
    """A plain text of about 300 kB, a URL every 40 bytes, its lines running on with no blank line:
    over a split size of 50 kB, it is cut in pieces, each cut near URLs."""
    path.write_bytes(b"".join(b"see http://h%d.example/p/%06d ok\n" % (k % 7, k) for k in range(9_000)))
    return path


def test_context_near_the_cuts_of_a_text_is_the_whole_texts(tmp_path: Path) -> None:
    """Issue 29: ``context`` of a URL next to a cut is the whole text's, whatever the workers
    (a piece read alone lacks the other piece's characters: the plan reads a text whole then)."""
    path = _dense_text(tmp_path / "dense.txt")
    one = list(urlsift.scan(path, context=30, workers=1))
    two = list(urlsift.scan(path, context=30, workers=2, split_size=50_000))
    assert len(one) == 9_000
    assert two == one
    assert not [found for found in one if isinstance(found, urlsift.Report)]


@pytest.mark.parametrize("how", [["-j", "2"], ["--scheduler", "local:2"]], ids=["j2", "local2"])
def test_context_near_the_cuts_j2_prints_what_j1_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: list[str]
) -> None:
    if "--scheduler" in how:
        pytest.importorskip("dask")
    path = str(_dense_text(tmp_path / "dense.txt"))
    runs = []
    for extra in (["-j", "1"], [*how, "--split-size", "50K"]):
        status = main(["--format", "jsonl", "--context", "30", "--stats", "--no-progress", *extra, path])
        captured = capsys.readouterr()
        runs.append((status, captured.out, captured.err))
    assert runs[1] == runs[0]
    assert runs[0][1].count("\n") == 9_000


def test_split_size_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["-j", "2", "--split-size", "0", "x"])
    assert "not a positive size" in capsys.readouterr().err


quoting_lines = st.sampled_from(
    [b">From a", b">>From b", b"x >From c", b">", b"From d", b"", b"y" * 40, b">From a\r", b">>>From e"]
)
quoting_mboxes = st.lists(
    st.lists(quoting_lines, max_size=10).map(lambda lines: SEPARATOR + b"\n" + b"\n".join(lines) + b"\n"),
    min_size=1,
    max_size=6,
).map(lambda messages: b"\n".join(messages))


@given(quoting_mboxes, st.integers(min_value=1, max_value=120))
def test_quoted_from_lines_lose_one_mark_whatever_the_block_size(data: bytes, block: int) -> None:
    with mock.patch("urlsift.sources.mbox.BLOCK_BYTES", block):
        found = _whole(data)
    assert found == _whole(data)  # as read in blocks of 64 KiB
    offsets = [m.offset for m in found] + [len(data)]
    for message, end in zip(found, offsets[1:], strict=True):
        body = data[data.index(b"\n", message.offset) + 1 : end]
        unquoted = re.sub(rb"(?m)^>(>*From )", rb"\1", body)
        assert unquoted.startswith(message.data)
        assert len(unquoted) - len(message.data) <= 1  # the empty line before the next separator


@pytest.mark.parametrize("shift", range(-8, 3))
def test_a_quoted_from_that_a_block_edge_cuts_still_loses_its_mark(shift: int) -> None:
    """A line longer than any separator is passed on in pieces: a ">From " on it that a 64 KiB
    block edge cuts (">|From ", ">Fr|om ") loses its mark as anywhere else (a review found it kept)."""
    head = SEPARATOR + b"\nSubject: x\n\n"
    marks = 2 * BLOCK_BYTES + shift - len(head)  # "From " starts `shift` bytes from a block edge
    body = b">" * marks + b"From me\nsee http://example.com/\n"
    (message,) = _whole(head + body)
    assert message.data == head[len(SEPARATOR) + 1 :] + body[1:]
