"""The per-message limit of an mbox, at its edges: a message is either given whole, or given as its
head with its size over the limit (then reported ``too-large``), never a head passed off as whole.

The empty line after a message separates it from the next and is not its own, so a message exactly
at the limit, followed by that line, is within the limit. The cases are built at sizes one below,
at and one above the limit, followed by an empty line (LF or CRLF) and a message, by an empty line
at the end of the file or by nothing, and read with reads that end where the message ends, where
its empty line ends, and in fixed blocks: the empty line may then come alone, after the rest went
over the limit or not."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from urlsift.cli import main
from urlsift.sources.mbox import BLOCK_BYTES, HEAD_BYTES, messages

pytestmark = pytest.mark.usefixtures("core")  # issue 32: each test on both cores

SEPARATOR = b"From someone@example.org Thu Jan  1 00:00:00 1970\n"
NEXT = SEPARATOR + b"Subject: next\n\n<URL:http://next.example/>\n"
TAIL = b"<URL:http://tail.example/>\n"


def message(size: int) -> bytes:
    """A message of ``size`` bytes whose first HEAD_BYTES end in an empty line (what is kept of one
    over the limit looks like a message and its separating line) and whose last line is a URL."""
    head = b"Subject: s\n\n<URL:http://head.example/>\n"
    return head + b"\n" * (size - len(head) - len(TAIL)) + TAIL


class Reads(io.RawIOBase):
    """``data`` given in reads that end at each of ``edges`` (offsets), then ``block`` bytes at most."""

    def __init__(self, data: bytes, edges: tuple[int, ...], block: int) -> None:
        self.data, self.edges, self.block, self.at = data, edges, block, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        limit = min(size if size >= 0 else len(self.data), self.block)
        end = min([self.at + limit, *(edge for edge in self.edges if edge > self.at)])
        piece, self.at = self.data[self.at : end], end
        return piece


LIMITS = (HEAD_BYTES + 100, 3 * BLOCK_BYTES)
AFTER = {
    "next message": b"\n" + NEXT,
    "CRLF empty line, next message": b"\r\n" + NEXT,
    "empty line at the end": b"\n",
    "nothing": b"",
}


def cases() -> list[tuple[int, int, str, str]]:
    return [
        (limit, size, after, reads)
        for limit in LIMITS
        for size in (limit - 1, limit, limit + 1)
        for after in AFTER
        for reads in ("message end", "empty line end", "blocks", "small blocks")
    ]


@pytest.mark.parametrize(("limit", "size", "after", "reads"), cases())
def test_a_message_at_the_limit_is_whole_or_over_it(limit: int, size: int, after: str, reads: str) -> None:
    written = message(size)
    data = SEPARATOR + written + AFTER[after]
    end = len(SEPARATOR) + size
    edges, block = {
        "message end": ((end,), BLOCK_BYTES),
        "empty line end": ((end + 1,), BLOCK_BYTES),
        "blocks": ((), BLOCK_BYTES),
        "small blocks": ((), 4093),
    }[reads]
    found = list(messages(Reads(data, edges, block), limit))  # type: ignore[arg-type]
    first = found[0]
    assert first.size == size  # the bytes between the separators, less the separating empty line
    if size <= limit:
        assert first.data == written
    else:
        assert first.data == written[:HEAD_BYTES]
    assert [m.data for m in found[1:]] == ([NEXT[len(SEPARATOR) :]] if after.endswith("next message") else [])


def test_an_empty_line_alone_in_a_message_is_no_message_text() -> None:
    found = list(messages(io.BytesIO(SEPARATOR + b"\n" + SEPARATOR + b"\r\n" + NEXT)))
    assert [(m.data, m.size) for m in found] == [
        (b"", 0),
        (b"", 0),
        (NEXT[len(SEPARATOR) :], len(NEXT) - len(SEPARATOR)),
    ]


@pytest.mark.parametrize("over", [0, 1])
def test_the_command_line_reads_a_message_at_the_limit_whole_or_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], over: int
) -> None:
    limit = HEAD_BYTES + 100
    (tmp_path / "edge.mbox").write_bytes(SEPARATOR + message(limit + over) + b"\n" + NEXT)
    status = main(["--stats", "--max-message", str(limit), str(tmp_path / "edge.mbox")])
    out, err = capsys.readouterr()
    if over:
        assert status == 2
        assert out.split() == ["http://next.example/"]
        assert f"too-large: a message of {limit + 1:,} bytes" in err
        assert "messages            2 = 1 scanned + 1 failed" in err
    else:
        assert status == 0
        assert out.split() == ["http://head.example/", "http://tail.example/", "http://next.example/"]
        assert "messages            2 = 2 scanned + 0 failed" in err
