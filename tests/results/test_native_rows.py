"""A plain text's rows filled by the native core (issue 31: ``_native_rows``, rust/core/src/rows.rs),
and a message's as columns, against the Python path's (``results._row``, the oracle), column for
column and tally for tally: on every corpus file read as text and as messages, under both
profiles, with and without ``--invalid``; on
hypothesis texts read in small windows (so that a match's line may start before its window); and
the command line's output, byte for byte, under both cores."""

from __future__ import annotations

import codecs
import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import growth
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scan.test_core_scan import INSTRUCTION_LIMIT, _example

from urlsift import _native_rows, _select, results, sources
from urlsift._model import Defect, MessageText, Provenance
from urlsift.batches import Batch, concat, file_parts
from urlsift.rows import Event, Filters, Options, Row, Tally
from urlsift.sources import ReadOptions

ROOT = Path(__file__).resolve().parents[2]
CORPORA = sorted(path for path in (ROOT / "corpora").rglob("*") if path.is_file() and path.suffix != ".md")
native = pytest.mark.skipif(_select.NATIVE is None, reason="the native core is not built")
TEXT = ReadOptions(input_format="text")

OPTION_SETS = [
    Options(read=TEXT),
    Options(read=TEXT, invalid=True, second_opinion="modern"),
    Options(read=TEXT, profile="modern", invalid=True),
    Options(read=TEXT, profile="modern", naked=False),
    Options(),  # mail and news read as messages: their texts' rows as blocks too
    Options(profile="modern", invalid=True, second_opinion="strict"),
]


def _batch(path: str, options: Options, core: _select.Core, file: io.BytesIO | None = None) -> Batch:
    with _select.using(core):
        return concat([batch for _, batch, _ in file_parts(path, options, file)])


def _same(path: str, options: Options, data: bytes | None = None) -> tuple[list[Event], Tally]:
    """The rows and tally of ``path`` (or of ``data`` named so) under both cores, held equal."""
    opened = (lambda: None) if data is None else (lambda: io.BytesIO(data))
    oracle = _batch(path, options, "python", opened())
    found = _batch(path, options, "rust", opened())
    assert found.to_rows() == oracle.to_rows()
    assert found.tally == oracle.tally
    for name, column in zip(found.matches._fields, found.matches, strict=True):
        # (``text`` indexes a batch's texts: a file's pieces are cut where their rows reach
        # ``PIECE_ROWS``, and a block is never cut, so a text may be in other pieces; its rows
        # name the same text, as ``to_rows`` shows.)
        if name != "text":
            assert column == getattr(oracle.matches, name), name
    return oracle.to_rows(), oracle.tally


def test_the_one_place_decides() -> None:
    with _select.using("python"):
        assert not _native_rows.in_core(Options())
    if _select.NATIVE is None:
        return
    with _select.using("rust"):
        assert _native_rows.in_core(Options(invalid=True, second_opinion="modern"))
        for per_row in (
            Options(context=20),
            Options(wayback=True),
            Options(filters=Filters(hosts=("example.org",))),
            Options(filters=Filters(max_quote_depth=0)),
        ):
            assert not _native_rows.in_core(per_row)


@native
@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=["strict", "invalid", "modern", "delimited", "messages", "messages-invalid"]
)
@pytest.mark.parametrize("path", CORPORA, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_corpus_file(path: Path, options: Options) -> None:
    rows, tally = _same(str(path), options)
    if options.invalid:
        assert tally.urls + tally.rejected == sum(isinstance(row, Row) for row in rows)


QUOTED_LINES = st.sampled_from(
    [
        "> see <URL:http://host/a-",
        ">   b/c> and http://example.com/x.",
        ">> quoted http://deep.example/q twice",
        "  > > | also <http://spaced.example/>",
        "         > nine blanks http://nine.example/",
        ">     > five blanks http://five.example/",
        "héllo wörld http://ü.example/ä ok",
        "> 中文 <URL:http://中.example/ > and www.例.example",  # (UTF-16 units)
        ">> 😀 http://e.example/😀 <http://a.example/\U0001d11e>",  # (code points)
        "\ttab\r",
        '"http://quoted.example/q" said',
        "<mailto:joe@example.com> tel:+1-201-555-0123 <tel:+1-201-555-0123>",
        "www.example.com/w http://bad.example/%zz <URL:unclosed",
        "x" * 5000 + " http://after.a.long.line.example/",
        "> " + "y " * 3000 + "http://quoted.after.a.long.line.example/",
        "",
    ]
)


@native
@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(QUOTED_LINES, max_size=30),
    chunk=st.sampled_from([1 << 9, 1 << 12, 1 << 20]),
    invalid=st.booleans(),
)
def test_texts_in_windows(lines: list[str], chunk: int, invalid: bool) -> None:
    # The rejected are counted (and judged again) whether or not their rows are kept.
    data = "\n".join(lines).encode()
    saved = _native_rows.CHUNK_CHARS
    _native_rows.CHUNK_CHARS = chunk
    try:
        _same("text.txt", Options(read=TEXT, invalid=invalid, second_opinion="modern"), data)
    finally:
        _native_rows.CHUNK_CHARS = saved


@native
def test_a_line_longer_than_a_window_keeps_its_quote_depth() -> None:
    data = ("> " + "word " * 20_000 + "http://far.example/\n> next http://near.example/\n").encode()
    saved = _native_rows.CHUNK_CHARS
    _native_rows.CHUNK_CHARS = 1 << 12
    try:
        rows, _ = _same("long.txt", Options(read=TEXT), data)
    finally:
        _native_rows.CHUNK_CHARS = saved
    depths = [row.quote_depth for row in rows if isinstance(row, Row)]
    assert depths == [1, 1]


@native
def _python_decoded(blocks: list[bytes]) -> str:
    """``stream._chunks``' decoding: the oracle of the core's."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    return "".join(decoder.decode(block) for block in blocks) + decoder.decode(b"", final=True)


def _cut(data: bytes, size: int) -> list[bytes]:
    return [data[at : at + size] for at in range(0, len(data), size)]


def _core_decoded(blocks: list[bytes]) -> str:
    assert _select.NATIVE is not None
    text: str
    text, count = _select.NATIVE._utf8_decoded(blocks)
    assert count == len(text)
    return text


# Each shape of UTF-8 and of what is not: 2, 3 and 4 bytes, the bounds of each lead byte's second
# byte (E0, ED, F0, F4), overlong forms, surrogates, past U+10FFFF, stray continuations, leads
# with no continuation, C0/C1/F5-FF, a byte order mark.
SEQUENCES = [
    "é".encode(),
    "€".encode(),
    "😀".encode(),
    "\U0010ffff".encode(),
    b"\xef\xbb\xbf",
    b"\xe0\xa0\x80",
    b"\xe0\x9f\xbf",
    b"\xed\x9f\xbf",
    b"\xed\xa0\x80",
    b"\xf0\x90\x80\x80",
    b"\xf0\x8f\xbf\xbf",
    b"\xf4\x8f\xbf\xbf",
    b"\xf4\x90\x80\x80",
    b"\xc0\xaf",
    b"\xc1\xbf",
    b"\xc2",
    b"\xe2\x82",
    b"\xf0\x9f\x98",
    b"\x80\xbf",
    b"\xf5\x80\x80\x80",
    b"\xff\xfe",
]


@native
@pytest.mark.parametrize("sequence", SEQUENCES, ids=lambda sequence: sequence.hex())
def test_the_core_decodes_a_sequence_cut_anywhere_as_python(sequence: bytes) -> None:
    for before, after in [(b"", b""), (b"a", b"z"), (b"a", b"\x80"), (b"a", "€".encode())]:
        data = before + sequence + sequence + after
        expected = data.decode("utf-8", "replace")
        for cut in range(len(data) + 1):
            for third in range(cut, len(data) + 1):
                blocks = [data[:cut], data[cut:third], data[third:]]
                assert _core_decoded(blocks) == expected == _python_decoded(blocks), (blocks, cut)


BYTE_SOUPS = st.lists(
    st.sampled_from([*SEQUENCES, b"a", b"\n", b"\r\n", b" ", b"<URL:", b"http://x.example/"])
    | st.binary(max_size=8),
    max_size=40,
).map(b"".join)


@native
@settings(max_examples=300, deadline=None)
@given(data=BYTE_SOUPS, sizes=st.lists(st.integers(1, 9), min_size=1, max_size=5))
def test_the_core_decodes_byte_soups_in_any_blocks_as_python(data: bytes, sizes: list[int]) -> None:
    blocks: list[bytes] = []
    at = 0
    while at < len(data):
        size = sizes[len(blocks) % len(sizes)]
        blocks.append(data[at : at + size])
        at += size
    assert _core_decoded(blocks) == _python_decoded(blocks) == data.decode("utf-8", "replace")


@native
@pytest.mark.parametrize("path", CORPORA, ids=lambda path: str(path.relative_to(ROOT)))
def test_the_core_decodes_every_corpus_file_as_python(path: Path) -> None:
    data = path.read_bytes()
    expected = data.decode("utf-8", "replace")
    assert _core_decoded([data]) == expected
    assert _core_decoded(_cut(data, 7)) == expected


@native
@settings(max_examples=40, deadline=None)
@given(
    data=st.lists(
        st.sampled_from(
            [
                b"\xef\xbb\xbfhttp://bom.example/ ",
                b"<URL:http://crlf.example/a-\r\n b>\r\n",
                b"> http://\xff.example/ \xe2\x82 <http://x\xc3\xa9.example/\xf0\x9f\x98\x80>\n",
                b'\xed\xa0\x80 www.example.com/\xc0\xaf "http://q.example/\x80"\n',
                b"\xe4\xb8\xad <URL:http://\xe4\xb8\xad.example/>\r",
                b"x" * 700 + b" http://long.example/\n",
            ]
        ),
        max_size=12,
    ).map(b"".join),
    block=st.sampled_from([1, 2, 3, 5, 64, 1 << 20]),
    chunk=st.sampled_from([1 << 9, 1 << 20]),
)
def test_undecodable_bytes_in_blocks_give_the_same_rows(data: bytes, block: int, chunk: int) -> None:
    saved = _native_rows.BLOCK_BYTES, _native_rows.CHUNK_CHARS
    _native_rows.BLOCK_BYTES, _native_rows.CHUNK_CHARS = block, chunk
    try:
        _, tally = _same("bytes.txt", Options(read=TEXT, invalid=True), data)
    finally:
        _native_rows.BLOCK_BYTES, _native_rows.CHUNK_CHARS = saved
    assert tally.characters == len(data.decode("utf-8", "replace"))


@native
@settings(max_examples=60, deadline=None)
@given(
    lengths=st.lists(st.integers(0, 45), max_size=10),
    end=st.booleans(),
    block=st.sampled_from([1, 2, 7, 20, 21, 64, 1 << 20]),
)
def test_the_core_notes_the_first_long_line_in_any_blocks(lengths: list[int], end: bool, block: int) -> None:
    # The core reads under the line watch and notes the first line over MAX_LINE bytes itself, in
    # blocks longer and shorter than it. (The watch's reads are shorter than the real MAX_LINE, as
    # it assumes: a bound of 20 bytes leaves the split lines as the oracle.)
    data = b"\n".join(b"\xc3\xa9" * (n // 2) + b"x" * (n % 2) for n in lengths) + b"\n" * end
    long = [k + 1 for k, n in enumerate(lengths) if n > 20][:1]
    with mock.patch.object(results, "MAX_LINE", 20), mock.patch.object(_native_rows, "BLOCK_BYTES", block):
        reports = _batch("t.txt", Options(read=TEXT), "rust", io.BytesIO(data)).reports
    assert (reports.line, reports.kind) == (long, ["long-line"] * len(long))


@native
def test_a_long_line_is_reported_alike_under_both_cores() -> None:
    line = b"x" * (sources.MAX_LINE + 1)
    data = b"http://a.example/\n\n" + line + b" http://b.example/\n" + line + b"y\nend"
    oracle, found = (_batch("t.txt", Options(read=TEXT), core, io.BytesIO(data)) for core in _select.CORES)
    assert found.reports == oracle.reports
    assert (found.reports.line, found.reports.kind) == ([3], ["long-line"])
    assert found.to_rows() == oracle.to_rows()


def test_a_watched_text_is_handed_over_only_unread() -> None:
    read = sources._LineWatch(io.BytesIO(b"ab\ncd"))
    fresh = sources._LineWatch(io.BytesIO(b"ab\ncd"))
    buffered = io.BufferedReader(read)
    buffered.peek(1)  # (its buffer holds bytes the watch has seen)
    assert sources.unwatched(buffered) is None
    assert sources.unwatched(io.BytesIO(b"ab")) is None
    handed = sources.unwatched(io.BufferedReader(fresh))
    assert handed is not None
    assert handed[1] is fresh
    assert handed[0].read() == b"ab\ncd"


# Texts that may cost the decoder and the windows most per byte, each at two sizes 10x apart.
DECODED_SHAPES: dict[str, Callable[[int], bytes]] = {
    "ASCII lines": lambda n: b"see http://x.example/ here\n" * (n // 27),
    "one line": lambda n: b"x" * n,
    "Latin-1 letters": lambda n: "\u00e9a".encode() * (n // 3),
    "a wide letter a line": lambda n: ("\u20ac" + "a" * 60 + "\n").encode() * (n // 64),
    "a letter past the BMP a window": lambda n: ("\U0001f600" + "b" * 70_000).encode() * (n // 70_004 + 1),
    "three-byte letters": lambda n: "\u4e2d".encode() * (n // 3),
    "ill-formed bytes": lambda n: b"\xff\xe2\x82a\xed\xa0\x80" * (n // 7),
}
DECODED_SIZES = (400_000, 4_000_000)


@growth.counted
def test_the_decoders_instructions_grow_linearly(tmp_path: Path) -> None:
    cargo = shutil.which("cargo")
    assert cargo is not None
    _, paths = growth.shape_files(tmp_path, DECODED_SHAPES, DECODED_SIZES, ".in")
    command: list[str | Path] = [_example(cargo, "text_files"), *paths]
    counts = growth.instructions(command, "read_one", len(paths), tmp_path)
    growth.assert_instructions_linear(sorted(DECODED_SHAPES), counts, INSTRUCTION_LIMIT, 100_000)


@native
def test_a_row_filter_keeps_the_python_path() -> None:
    # --host drops rows as they are found: the Python path's, the same rows under both cores.
    options = Options(read=TEXT, filters=Filters(hosts=("example.com",)))
    rows, _ = _same(
        "hosts.txt", options, b"http://example.com/a http://example.org/b http://a.example.com/c\n"
    )
    assert [row.url for row in rows if isinstance(row, Row)] == [
        "http://example.com/a",
        "http://a.example.com/c",
    ]


def _cli(core: str, *arguments: str) -> bytes:
    environment = {**os.environ, "URLSIFT_CORE": core}
    command = [sys.executable, "-m", "urlsift", "--input-format", "text", *arguments]
    return subprocess.run(command, capture_output=True, env=environment, check=False).stdout


@native
@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
@pytest.mark.parametrize("profile", ["strict", "modern"])
def test_the_command_line_writes_the_same_bytes(fmt: str, profile: str) -> None:
    paths = [str(path) for path in CORPORA]
    arguments = ("--format", fmt, "--profile", profile, "--invalid", *paths)
    assert _cli("rust", *arguments) == _cli("python", *arguments)


def test_messages_with_reports_keep_the_row_path_when_most_have_them() -> None:
    """A message's reports end the block before it: where many messages have them, blocks of a
    message or two cost more than rows made one by one, so the batch keeps the row path."""
    where = Provenance("x.mbox", message=0)
    plain = MessageText(where, ["http://a.example/"], ["1 text/plain"], 0, [])
    damaged = plain._replace(defects=[Defect("undecodable-bytes", where, "1 byte replaced")])
    assert results._blocks_pay([plain] * 8)
    assert results._blocks_pay([damaged] + [plain] * 7)
    assert not results._blocks_pay([damaged] * 2 + [plain] * 6)
    assert not results._blocks_pay([damaged] * 8)


def test_a_report_in_every_message_gives_the_same_output_under_both_cores(tmp_path: Path) -> None:
    mbox = tmp_path / "damaged.mbox"
    mbox.write_bytes(
        b"".join(
            b"From a@b Sat Jan  1 00:00:00 2000\nContent-Type: text/plain; charset=utf-8\n\n"
            + b"hello \xff http://x%d.example/ there\n\n" % k
            for k in range(300)
        )
    )
    said = {
        core: subprocess.run(
            [sys.executable, "-m", "urlsift", "--format", "jsonl", "--stats", str(mbox)],
            capture_output=True,
            env={**os.environ, "URLSIFT_CORE": core},
        )
        for core in ("python", "rust")
    }
    if _select.NATIVE is None:
        pytest.skip("the native core is not built")
    assert said["python"].stdout.count(b"\n") == 300
    assert (said["rust"].stdout, said["rust"].stderr) == (said["python"].stdout, said["python"].stderr)
