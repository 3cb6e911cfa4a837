"""The native mbox splitter against its oracle, sources/mbox.py (issue 32): every mbox of the
corpora and of bench/hostile_cases, and hypothesis-made soups of the lines that decide where a
message starts and what it keeps, give the same RawMessage sequence from both cores, read in
blocks of 1, 7 and 64 KiB bytes or in reads of any sizes; the cut finder of split.py gives the same
cuts; and the splitter's instructions grow linearly with its input."""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import growth
import pytest
from hostile_cases import message_cases
from hypothesis import given
from hypothesis import strategies as st
from scan.test_core_scan import _example

from urlsift import _select
from urlsift.sources.mbox import BLOCK_BYTES, HEAD_BYTES, MAX_SEPARATOR_BYTES, RawMessage, messages
from urlsift.sources.split import cuts

ROOT = Path(__file__).resolve().parents[2]
native = pytest.mark.skipif(_select.NATIVE is None, reason="the native core is not built")
pytestmark = native

BLOCKS = (1, 7, BLOCK_BYTES)
SEPARATOR = b"From someone@example.com Thu Jan  1 00:00:00 1970"


class Reads(io.RawIOBase):
    """``data`` in reads of ``sizes`` bytes in turn (the last repeated), whatever is asked."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        self.data, self.sizes, self.at, self.turn = data, sizes, 0, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        length = self.sizes[min(self.turn, len(self.sizes) - 1)]
        self.turn += 1
        piece, self.at = self.data[self.at : self.at + length], self.at + length
        return piece


def split(
    core: _select.Core, data: bytes, block: int = BLOCK_BYTES, limit: int = 1 << 62
) -> list[RawMessage]:
    with _select.using(core), mock.patch("urlsift.sources.mbox.BLOCK_BYTES", block):
        return list(messages(io.BytesIO(data), limit))


def corpus_mboxes() -> list[Path]:
    folders = [ROOT / "corpora", ROOT.parent / "shared" / "corpora", ROOT / "shared" / "corpora"]
    return sorted(p for folder in folders if folder.is_dir() for p in folder.rglob("*.mbox"))


@pytest.mark.parametrize("path", corpus_mboxes(), ids=lambda path: path.name)
def test_every_corpus_mbox_splits_alike(path: Path) -> None:
    data = path.read_bytes()
    for limit in (1 << 62, 1000):  # a small limit: most messages are given as their heads
        expected = split("python", data, limit=limit)
        assert split("rust", data, limit=limit) == expected
    # Small blocks on the first 256 KiB (a truncated file: its last message is incomplete).
    data = data[: 1 << 18]
    expected = split("python", data)
    for block in BLOCKS:
        assert split("rust", data, block) == expected, f"blocks of {block} bytes"
    if data:
        assert expected, "no message found: the test would compare nothing"


def hostile_mboxes(folder: Path) -> list[Path]:
    """The mbox files of bench/hostile_cases/messages.py's cases of at most a few MB."""
    small = ("mbox 3 MB", "mbox multiparts", "mbox 20,000")
    for k, build in enumerate(build for name, build in message_cases().items() if name.startswith(small)):
        (folder / str(k)).mkdir()
        build(folder / str(k))
    return sorted(folder.rglob("*.mbox"))


def test_the_hostile_mboxes_split_alike(tmp_path: Path) -> None:
    paths = hostile_mboxes(tmp_path)
    assert len(paths) == 4
    for path in paths:
        data = path.read_bytes()
        for limit in (1 << 62, 1000):
            assert split("rust", data, limit=limit) == split("python", data, limit=limit), path.name


# The lines that decide: separators of each shape (mboxo, pipermail, CRLF), From lines that are
# none (no date, too long, a time in the wrong place), quoted From lines, empty lines, long lines.
lines = st.sampled_from(
    [
        SEPARATOR,
        SEPARATOR + b"\r",
        b"From a at b.org  Mon May  5 12:34:56 1997",
        b"From  a 12:34 1999",
        b"From a 12:34 1999 \x0b",
        b"From a12:34 1999",
        b"From x 1999 12:34",
        b"From a at b\t12:34 1999",
        b"From " + b"y" * (MAX_SEPARATOR_BYTES - 17) + b" 12:34 1999",  # the longest there is
        b"From " + b"y" * (MAX_SEPARATOR_BYTES - 16) + b" 12:34 1999",  # one byte too long
        b"From here",
        b">From " + SEPARATOR[5:],
        b">>From x",
        b"x >From y",
        b">",
        b"",
        b"\r",
        b"Subject: s",
        b"z" * 5000,
        b"w" * (HEAD_BYTES + 10),
    ]
)
soups = st.tuples(
    st.lists(st.tuples(lines, st.sampled_from([b"\n", b"\r\n", b"\n\n", b"\n\r\n"])), max_size=30),
    st.booleans(),
).map(lambda soup: b"".join(line + end for line, end in soup[0])[: None if soup[1] else -1])
limits = st.sampled_from([1 << 62, 0, 10, 200, HEAD_BYTES + 1])


@given(soups, limits, st.sampled_from(BLOCKS))
def test_soups_split_alike_in_blocks(data: bytes, limit: int, block: int) -> None:
    expected = split("python", data, block, limit)
    assert split("rust", data, block, limit) == expected
    assert split("python", data, BLOCK_BYTES, limit) == expected  # the oracle's own blocks: alike


@given(soups, limits, st.lists(st.integers(min_value=1, max_value=5000), min_size=1, max_size=20))
def test_soups_split_alike_in_reads_of_any_size(data: bytes, limit: int, sizes: list[int]) -> None:
    found = {}
    for core in _select.CORES:
        with _select.using(core):
            found[core] = list(messages(Reads(data, sizes), limit))  # type: ignore[arg-type]
    assert found["rust"] == found["python"]


@given(soups, st.integers(min_value=1, max_value=3000))
def test_soups_are_cut_alike(data: bytes, size: int) -> None:
    found = {}
    for core in _select.CORES:
        with _select.using(core):
            found[core] = cuts(io.BytesIO(data), size, len(data))
    assert found["rust"] == found["python"]


@pytest.mark.parametrize("path", corpus_mboxes()[:3], ids=lambda path: path.name)
def test_corpus_mboxes_are_cut_alike(path: Path) -> None:
    data = path.read_bytes()
    for size in (1000, 50_000):
        found = {}
        for core in _select.CORES:
            with _select.using(core):
                found[core] = cuts(io.BytesIO(data), size, len(data))
        assert found["rust"] == found["python"]
        assert len(found["rust"]) > 1


# Inputs that may cost the splitter most per byte, each at two sizes 10x apart.
SHAPES: dict[str, Callable[[int], bytes]] = {
    "small messages": lambda n: (SEPARATOR + b"\n\nx\n\n") * (n // 60),
    "empty lines": lambda n: SEPARATOR + b"\n" + b"\n" * n,
    "quoted From lines": lambda n: SEPARATOR + b"\n" + b">>From x\n" * (n // 9),
    "From lines of times": lambda n: (b"\n" + b"From " + b"1 12:34 " * 7000 + b"\n") * (n // 56_000 + 1),
    "From lines, no empty line": lambda n: SEPARATOR + b"\n" + (b"From a 12:34 1999\n") * (n // 18),
    "one line": lambda n: SEPARATOR + b"\n" + b"x" * n,
    "long lines of From": lambda n: SEPARATOR + b"\n\n" + (b"From " * 2000 + b"\n\n") * (n // 10_002 + 1),
}
COUNTED_SIZES = (400_000, 4_000_000)
INSTRUCTION_LIMIT = 15
"""Issue 32: 10x the input, at most 15x the instructions (counted, so repeatable under any load)."""


@growth.counted
def test_the_splitters_instructions_grow_linearly(tmp_path: Path) -> None:
    cargo = shutil.which("cargo")
    assert cargo is not None
    shapes, paths = growth.shape_files(tmp_path, SHAPES, COUNTED_SIZES, ".mbox")
    for limit in (1 << 62, 100):  # held whole, and cut to its head
        command: list[str | Path] = [_example(cargo, "split_files"), str(limit), *paths]
        counts = growth.instructions(command, "split_one", len(paths), tmp_path)
        growth.assert_instructions_linear(shapes, counts, INSTRUCTION_LIMIT, 100_000)
