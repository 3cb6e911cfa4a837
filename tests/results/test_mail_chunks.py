"""An mbox's messages handed to the core as chunks of columns (issue 32: ``sources.mbox.MailChunk``
in, ``_native_mail.MailBatch`` out, ``results._mail`` walking only the messages that end a run):
the same rows, reports and tally as the Python path where messages go to Python every k-th one,
where the reports are in the first or the last message of a chunk, at ``BATCH_WEIGHT`` and one
byte over it, over ``--max-message``, cut by the file's end, in byte ranges (``-j``); and blocks
cut after the message that brings one to ``PIECE_ROWS`` rows, as ``_messages`` cuts them."""

from __future__ import annotations

import collections
import io
import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from results import test_native_mail
from results.test_native_rows import _same

from urlsift import _select, results
from urlsift._model import Provenance
from urlsift.batches import Batch, concat, run_unit
from urlsift.matches import BATCH_WEIGHT
from urlsift.rows import Block, Options, Report
from urlsift.sources import MAX_LINE, Counter, ReadOptions, mbox, read_stream
from urlsift.sources.mbox import MailChunk
from urlsift.units import Unit, plan

SEPARATOR, PIPERMAIL = test_native_mail.SEPARATOR, test_native_mail.PIPERMAIL
outcomes = test_native_mail.outcomes  # (a fixture: what became of each message)
native = pytest.mark.skipif(_select.NATIVE is None, reason="the native core is not built")

PLAIN = b"Subject: m%d\n\nsee http://plain%d.example/ and <URL:http://w.example/%d>\n"
PYTHONS = b"Content-Type: text/plain; charset=koi8-r\n\n\xc1 http://k%d.example/ %d http://t%d.example/\n"
"""A message the core leaves to Python (another charset)."""
DAMAGED = b"Content-Type: text/plain; charset=utf-8\n\nbad \xff http://z%d.example/ %d %d\n"
"""A message the core reads, with a report (an undecodable byte)."""


def _mbox(messages: list[bytes], separator: bytes = SEPARATOR) -> bytes:
    return b"".join(separator + message + b"\n" for message in messages)


def _made(count: int, special: bytes, every: int, offset: int = 0) -> bytes:
    return _mbox(
        [(special if every and (k + offset) % every == 0 else PLAIN) % (k, k, k) for k in range(count)]
    )


@native
@pytest.mark.parametrize("every", [1, 2, 3, 7, 0])
def test_every_kth_message_read_by_python(every: int, outcomes: collections.Counter[str]) -> None:
    data = _made(400, PYTHONS, every)
    _, tally = _same("mixed.mbox", Options(invalid=True), data)
    assert tally.messages == 400
    python = len(range(0, 400, every)) if every else 0
    assert outcomes["native"] == 400 - python
    assert outcomes["charset"] == python


@native
@pytest.mark.parametrize("where", ["first", "last", "both", "every"])
def test_reports_at_a_chunks_ends(where: str) -> None:
    count = 300  # one chunk but the last message (the splitter's last block gives it alone)
    reported = {
        "first": {0},
        "last": {count - 2, count - 1},
        "both": {0, count - 2},
        "every": set(range(count)),
    }
    messages = [(DAMAGED if k in reported[where] else PLAIN) % (k, k, k) for k in range(count)]
    rows, tally = _same("reported.mbox", Options(), _mbox(messages))
    assert tally.warnings == len(reported[where])
    # Each report comes right before its message's rows.
    said = [k for k, row in enumerate(rows) if isinstance(row, Report)]
    assert all(rows[k + 1].url == f"http://z{rows[k].message}.example/" for k in said)  # type: ignore[union-attr]


def _sized(size: int, k: int) -> bytes:
    head = b"Subject: s%d\n\nhttp://sized%d.example/ " % (k, k)
    return head + b"x" * (size - len(head) - 1) + b"\n"


@native
def test_a_message_at_the_batch_weight_is_the_cores(outcomes: collections.Counter[str]) -> None:
    """One at ``BATCH_WEIGHT`` bytes is read by the core; one byte over it, by Python."""
    messages = [_sized(BATCH_WEIGHT, 0), PLAIN % (1, 1, 1), _sized(BATCH_WEIGHT + 1, 2), PLAIN % (3, 3, 3)]
    assert [len(message) for message in messages[::2]] == [BATCH_WEIGHT, BATCH_WEIGHT + 1]
    _, tally = _same("weights.mbox", Options(), _mbox(messages))
    assert tally.urls == 6
    assert outcomes["native"] == 3
    assert outcomes["heavy"] == 1


@native
def test_messages_over_the_limit_cut_or_of_the_other_kind_keep_their_place() -> None:
    pieces = [
        _mbox([PLAIN % (0, 0, 0), _sized(700, 1), PLAIN % (2, 2, 2)]),
        _mbox([b"Subject: p\n\nsee mailto:joe at example.org http://p.example/\n"], PIPERMAIL),
        _mbox([PLAIN % (4, 4, 4), PLAIN % (5, 5, 5)]),
        SEPARATOR + b"Subject: cut\n\nhttp://cut.example/ no end",
    ]
    options = Options(read=ReadOptions(max_message=500))
    rows, tally = _same("odd.mbox", options, b"".join(pieces))
    assert tally.messages == 7
    assert [row.kind for row in rows if isinstance(row, Report)] == ["too-large", "truncated"]


def _items(data: bytes, options: ReadOptions) -> list[Any]:
    from urlsift.sources import _chunked

    found = mbox.chunks(io.BytesIO(data), options.max_message)
    assert found is not None
    return list(_chunked(found, Provenance("x.mbox"), options))


@native
def test_a_chunk_is_a_run_of_whole_messages_of_one_kind() -> None:
    with _select.using("rust"):
        data = _mbox([PLAIN % (k, k, k) for k in range(3)]) + _mbox([PLAIN % (3, 3, 3)], PIPERMAIL)
        items = _items(data, ReadOptions(mail_bytes=True))
        assert [type(item) for item in items] == [MailChunk, MailChunk]
        first, second = items
        assert (list(first.numbers), second.pipermail, list(second.numbers)) == ([0, 1, 2], True, [3])
        assert first.message(1)[0] == PLAIN % (1, 1, 1)
        assert first.message(2)[1].offset == 2 * len(SEPARATOR + PLAIN % (0, 0, 0) + b"\n")
        assert second.message(0)[1].offset == data.index(PIPERMAIL)
        big = _mbox([PLAIN % (0, 0, 0), b"\n" + b"x" * (MAX_LINE + 1) + b"\n", PLAIN % (2, 2, 2)])
        kinds = [type(item).__name__ for item in _items(big, ReadOptions(mail_bytes=True))]
        assert kinds == ["MailChunk", "MessageText", "MailChunk"]


class _Failing(io.BytesIO):
    """A stream whose reads fail once ``good`` bytes have been read (a corrupt compressed one)."""

    def __init__(self, data: bytes, good: int) -> None:
        super().__init__(data)
        self.good = good

    def read(self, size: int | None = -1) -> bytes:
        if self.tell() >= self.good:
            raise OSError("corrupt")
        return super().read(size)


def _until_failed(found: Iterator[bytes]) -> bytes:
    """What ``found`` gave before its read failed (it must fail)."""
    given: list[bytes] = []
    failed = False
    try:
        given.extend(found)
    except OSError:
        failed = True
    assert failed
    return b"".join(given)


@native
def test_the_splitter_is_fed_chunk_bytes_of_blocks_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _made(300, DAMAGED, 7)
    monkeypatch.setattr(mbox, "BLOCK_BYTES", 1000)
    monkeypatch.setattr(mbox, "CHUNK_BYTES", 8000)
    with _select.using("rust"):
        found = mbox.chunks(io.BytesIO(data))
        assert found is not None
        chunks = [chunk for chunk in found if len(chunk[1])]
        # Each chunk ends a message or two short of 8 blocks (the last, cut at a block's end,
        # waits for the next separator); the input's end gives its last message alone.
        assert len(chunks) == -(-len(data) // 8000) + 1
        assert all(len(chunk) < 9000 for chunk, _ in chunks)
        split = [message.data for message in mbox._messages(io.BytesIO(data), 1 << 62, 0)]
        assert b"".join(chunk for chunk, _ in chunks) == b"".join(split)
        # A read that fails: the messages of the blocks read before it are given, then the error.
        found = mbox.chunks(_Failing(data, 5000))
        assert found is not None
        given = _until_failed(chunk for chunk, _ in found)
        before = _until_failed(message.data for message in mbox._messages(_Failing(data, 5000), 1 << 62, 0))
        assert given == before != b""
    _, tally = _same("chunked.mbox", Options(invalid=True), data)
    assert tally.messages == 300
    assert tally.warnings == len(range(0, 300, 7))


@native
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 400), max_size=8), st.booleans())
def test_blocks_handed_over_unjoined_split_as_joined(cuts: list[int], pipermail: bool) -> None:
    """``feed_blocks`` (what ``_chunks`` hands over) is ``feed_chunk`` of the blocks joined."""
    data = _mbox(
        [DAMAGED % (k, k, k) for k in range(3)] + [b"From x\n\nnot one\n"],
        PIPERMAIL if pipermail else SEPARATOR,
    )
    bounds = [0, *sorted(cut % (len(data) + 1) for cut in cuts), len(data)]
    blocks = [data[a:b] for a, b in itertools.pairwise(bounds)]
    assert _select.NATIVE is not None
    fed, joined = _select.NATIVE.MboxSplitter(1 << 62, 0), _select.NATIVE.MboxSplitter(1 << 62, 0)
    assert fed.feed_blocks(blocks) == joined.feed_chunk(data)
    assert fed.finish_chunk() == joined.finish_chunk()


@native
def test_blocks_are_cut_after_the_message_that_fills_one() -> None:
    many = b"Subject: s\n\n" + b"".join(b"http://r%d.example/ " % k for k in range(7)) + b"\n"
    data = _mbox([many] * 300)
    with _select.using("rust"):
        read = results._read_options(Options(invalid=True))
        items = read_stream(io.BytesIO(data), "blocks.mbox", read)
        events = list(
            results._found("blocks.mbox", items, Options(invalid=True), results.Tally(), _reader(), True)
        )
    # 299 messages in the first chunk (the last one comes alone, at the input's end): 143 of them
    # bring a block to 1,001 rows, twice, then the 13 left; then the last message's 7.
    assert [event.rows for event in events if isinstance(event, Block)] == [1001, 1001, 91, 7]


def _reader() -> Any:
    return results._Read(Counter())


@native
@pytest.mark.parametrize("cut", [1000, 5000, 20000])
def test_byte_ranges_give_the_same_rows(cut: int, tmp_path: Path) -> None:
    data = _made(200, DAMAGED, 9) + _made(50, PYTHONS, 4)
    path = tmp_path / "ranged.mbox"
    path.write_bytes(data)
    options = Options(invalid=True)
    units = [unit for unit in plan([str(path)], ReadOptions(), split=cut) if isinstance(unit, Unit)]
    assert len(units) > 1

    def ranged(core: _select.Core) -> Batch:
        with _select.using(core):
            return concat([run_unit(unit, options) for unit in units])

    rust, python = ranged("rust"), ranged("python")
    assert rust.to_rows() == python.to_rows()
    assert rust.tally == python.tally
    assert rust.tally.messages == 250


REJECTED = b"Subject: r%d\n\nhttp://ok%d.example/ http://bad%d.example/%%zz\n"
"""A message of one valid URL and one rejected candidate (a bad escape)."""


@native
@pytest.mark.parametrize("rejected", [1, 64, 65, 300])
def test_rejected_rows_left_out_however_many(rejected: int) -> None:
    """A block's rejected rows are left out as runs between them (a few) or one by one (many): the
    same rows either way, the first and the last row of a block among them."""
    messages = [(REJECTED if k < rejected or k == 299 else PLAIN) % (k, k, k) for k in range(300)]
    rows, tally = _same("rejected.mbox", Options(), _mbox(messages))
    assert tally.rejected == rejected + (rejected < 300)
    assert all(isinstance(row, Report) or row.valid for row in rows)


@native
def test_a_batch_holds_each_message_and_text_of_the_cores_blocks_once(tmp_path: Path) -> None:
    path = tmp_path / "fresh.mbox"
    path.write_bytes(_made(600, DAMAGED, 50))
    units = [unit for unit in plan([str(path)], ReadOptions()) if isinstance(unit, Unit)]
    with _select.using("rust"):
        batch = concat([run_unit(unit, Options()) for unit in units])
    where = list(zip(*batch.messages, strict=True))
    assert len(where) == len(set(where)) == 600  # each message's columns once
    texts = list(zip(*batch.texts, strict=True))
    assert len(texts) == len(set(texts))
    with _select.using("python"):
        assert batch.to_rows() == concat([run_unit(unit, Options()) for unit in units]).to_rows()
