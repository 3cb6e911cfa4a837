"""Hostile and broken archives (issue 17, the container and compression items): each input is built
here, in tmp_path, and read by ``python -m urlsift`` in a subprocess with a timeout; where memory is
the point, the child's peak RSS is measured. Each test says which item of issue 17 it holds, and
asserts what comes before and after the hostile part (the later members and files are read), the
report's kind and the exit status (0: a URL found, 1: none, 2: something not read)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import pytest

import urlsift.sources
from urlsift import _select
from urlsift._model import Defect, TextStream
from urlsift.cli import main
from urlsift.sources import ReadOptions, read_path
from urlsift.sources.packed import MAX_DEPTH, MAX_RATIO

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

GOOD = b"<URL:http://good.example/>\n"
"""A file read after the hostile one: it must still be found."""

_MEASURED = """
import sys
from urlsift.cli import main
try:
    status = main(sys.argv[1:])
finally:
    with open("/proc/self/status") as status_file:
        peak = next(line.split()[1] for line in status_file if line.startswith("VmHWM:"))
    sys.stderr.write(f"\\nmaxrss {peak}\\n")
sys.exit(status)
"""
"""``cli.main`` that writes its peak RSS (kB) last: VmHWM, the process's own (``ru_maxrss`` would
carry the size of the parent it was forked from, pytest's, across the exec)."""


class Run(NamedTuple):
    status: int
    out: list[str]
    reports: list[str]
    """The report lines on standard error ("urlsift: PLACE: KIND: DETAIL")."""
    rss_mb: float
    """The child's peak resident memory."""


def _urlsift(*args: str | Path, stdin: Path | None = None, timeout: float = 60) -> Run:
    """``python -m urlsift ARGS`` (as ``cli.main``), its peak RSS measured by the child itself."""
    with open(stdin if stdin is not None else os.devnull, "rb") as feed:
        done = subprocess.run(
            [sys.executable, "-c", _MEASURED, "--no-progress", "--no-filename", *map(str, args)],
            stdin=feed,
            capture_output=True,
            timeout=timeout,
            check=False,
            env={**os.environ, _select.VARIABLE: _select.CORE},  # the core the test runs on
        )
    err = done.stderr.decode()
    assert "Traceback" not in err, err
    lines = err.splitlines()
    rss = next(int(line.split()[1]) for line in lines if line.startswith("maxrss "))
    reports = [line for line in lines if line.startswith("urlsift: ")]
    return Run(done.returncode, done.stdout.decode().splitlines(), reports, rss / 1024)


def _baseline_mb(tmp_path: Path) -> float:
    """The peak RSS of a run over a small file: what a bounded run may exceed by a little."""
    (tmp_path / "baseline.txt").write_bytes(GOOD)
    return _urlsift(tmp_path / "baseline.txt").rss_mb


def _tar(members: list[tuple[tarfile.TarInfo, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for info, data in members:
            info.size = info.size or len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _member(name: str, pax: dict[str, str] | None = None) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.pax_headers = pax or {}
    return info


def _kinds(run: Run) -> list[str]:
    return [line.split(": ")[2] for line in run.reports]


# --- item 1: a tar member claiming 10**15 bytes -------------------------------------------------


@pytest.mark.parametrize("packed", [False, True], ids=["tar", "tar.gz"])
def test_a_tar_member_claiming_10_15_bytes_ends_its_archive_at_once(tmp_path: Path, packed: bool) -> None:
    """Item 1: tarfile would skip the claimed 10**15 bytes block by block, for ever."""
    raw = _tar(
        [
            (_member("before.txt"), b"<URL:http://before.example/>\n"),
            (_member("huge.txt", {"size": str(10**15)}), b""),
            (_member("after.txt"), b"<URL:http://after.example/>\n"),
        ]
    )
    archive = tmp_path / ("pax.tar.gz" if packed else "pax.tar")
    archive.write_bytes(gzip.compress(raw) if packed else raw)
    (tmp_path / "good.txt").write_bytes(GOOD)
    run = _urlsift(archive, tmp_path / "good.txt", timeout=30)
    assert run.out == ["http://before.example/", "http://good.example/"]
    assert _kinds(run) == ["corrupt"]  # one report, naming the member
    assert run.reports[0].startswith(f"urlsift: {archive}[huge.txt]: corrupt: ")
    assert run.status == 2


# --- item 2: a zip member packed with bzip2 or lzma is decompressed in bounded steps -------------


def test_a_bzip2_zip_bomb_is_read_in_bounded_memory(tmp_path: Path, core: str) -> None:
    """Item 2: zipfile decompresses a bzip2 chunk whole (here 64 MiB from 100 bytes, at once)."""
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_BZIP2) as out:
        out.writestr("bomb.txt", (b"a" * 1023 + b"\n") * (64 << 10))
        out.writestr("after.txt", "<URL:http://after.example/>\n")
    assert archive.stat().st_size < 1000
    baseline = _baseline_mb(tmp_path)
    run = _urlsift(archive, timeout=60)
    assert run.out == ["http://after.example/"]
    assert _kinds(run) == ["too-large"]
    assert run.reports[0].startswith(f"urlsift: {archive}[bomb.txt]: too-large: expands past ")
    assert run.status == 2
    assert run.rss_mb < baseline + 24, (run.rss_mb, baseline)


@pytest.mark.parametrize(
    "method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA, zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED]
)
def test_every_zip_method_is_read_and_its_crc_checked(tmp_path: Path, method: int) -> None:
    """Item 2's reader decompresses every method itself: the text comes out whole, and a member whose
    CRC-32 does not match is reported (its text before the check is kept), the next one read."""
    text = b"".join(b"<URL:http://m%d.example/>\n" % k for k in range(2000))
    archive = tmp_path / "m.zip"
    with zipfile.ZipFile(archive, "w", method) as out:
        out.writestr("one.txt", text)
        out.writestr("two.txt", GOOD)
    assert _urlsift(archive).out == [f"http://m{k}.example/" for k in range(2000)] + ["http://good.example/"]
    data = bytearray(archive.read_bytes())
    crc_at = data.index(b"PK\x01\x02") + 16  # one.txt in the central directory: its CRC-32
    data[crc_at] ^= 0xFF
    archive.write_bytes(bytes(data))
    run = _urlsift(archive)
    assert run.out[-1] == "http://good.example/"
    assert len(run.out) == 2001
    assert _kinds(run) == ["corrupt"]
    assert "crc-32" in run.reports[0].lower()


# --- item 8: a sparse tar member is budgeted ------------------------------------------------------


def test_a_sparse_tar_member_of_a_terabyte_is_stopped(tmp_path: Path) -> None:
    """Item 8: 5,000 bytes of data and a hole to 1 TB; its holes count as expansion (1000x)."""
    data = b"<URL:http://sparse.example/>\n" * 172  # 5,000 bytes
    pax = {"GNU.sparse.map": f"0,{len(data)}", "GNU.sparse.size": str(10**12), "GNU.sparse.name": "s.txt"}
    archive = tmp_path / "sparse.tar"
    archive.write_bytes(_tar([(_member("s.txt", pax), data), (_member("after.txt"), GOOD)]))
    run = _urlsift(archive, timeout=60)
    assert run.out == ["http://sparse.example/"] * 172 + ["http://good.example/"]
    assert _kinds(run) == ["long-line", "too-large"]  # (a hole is NUL bytes: one long line)
    assert run.reports[1].startswith(
        f"urlsift: {archive}[s.txt]: too-large: expands past {MAX_RATIO * len(data):,}"
    )
    assert run.status == 2


# --- item 11: the ratio holds through every layer, and from a pipe ---------------------------------


def test_a_gz_in_a_gz_bomb_is_stopped_by_the_ratio(tmp_path: Path) -> None:
    """Item 11: the ratio was applied to the outer layer only: 25 KB gave 10 GiB."""
    bomb = tmp_path / "bomb.txt.gz.gz"
    bomb.write_bytes(gzip.compress(gzip.compress(b"<URL:http://first.example/>\n" + b"a" * (300 << 20))))
    assert bomb.stat().st_size < 2000
    (tmp_path / "good.txt").write_bytes(GOOD)
    run = _urlsift(bomb, tmp_path / "good.txt", timeout=60)
    assert run.out == ["http://first.example/", "http://good.example/"]
    assert _kinds(run) == ["too-large"]
    assert f"expands past {MAX_RATIO * bomb.stat().st_size:,} bytes" in run.reports[0]
    assert run.status == 2


def test_a_bomb_from_a_pipe_is_measured_against_what_was_read(tmp_path: Path) -> None:
    """Item 11: from a pipe the ratio was not applied at all (no size to apply it to)."""
    bomb = tmp_path / "bomb.gz.gz"
    bomb.write_bytes(
        gzip.compress(gzip.compress(b"<URL:http://first.example/>\n" + (b"a" * 1023 + b"\n") * (200 << 10)))
    )
    run = _urlsift("-", stdin=bomb, timeout=60)
    assert run.out == ["http://first.example/"]
    assert _kinds(run) == ["too-large"]
    assert run.reports[0].startswith("urlsift: <stdin>: too-large: expands past ")
    # What a pipe gives at a healthy ratio is read whole.
    text = tmp_path / "text.gz"
    text.write_bytes(gzip.compress(b"".join(b"<URL:http://p%d.example/>\n" % k for k in range(50_000))))
    run = _urlsift("-", stdin=text)
    assert (run.status, len(run.out), run.reports) == (0, 50_000, [])


# --- item 12 and 18: nesting -------------------------------------------------------------------------


def test_nested_zips_from_a_stream_do_not_pile_up_in_memory(tmp_path: Path, core: str) -> None:
    """Item 12: every level of a zip inside a zip was held in memory (each is a member stream)."""
    data = GOOD + (b"\xa0" * 1023 + b"\n") * (8 << 10)  # no URL; stored: every level as large
    for level in range(MAX_DEPTH - 1):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as out:
            out.writestr(f"level{level}.zip" if level else "inner.txt", data)
        data = buffer.getvalue()
    (tmp_path / "nested.zip").write_bytes(data)
    baseline = _baseline_mb(tmp_path)
    run = _urlsift(tmp_path / "nested.zip", timeout=120)
    assert (run.status, run.out, run.reports) == (0, ["http://good.example/"], [])
    assert run.rss_mb < baseline + 24, (run.rss_mb, baseline)


@pytest.mark.parametrize("kind", ["gz", "zip"])
def test_nesting_past_the_limit_is_one_report(tmp_path: Path, kind: str) -> None:
    """Item 18: gzip or zip nested 1,000 deep ended in RecursionError, reported as `internal`."""
    data = GOOD
    for level in range(1000 if kind == "gz" else 200):
        if kind == "gz":
            data = gzip.compress(data, compresslevel=1)
        else:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as out:
                out.writestr(f"l{level}", data)
            data = buffer.getvalue()
    nested = tmp_path / f"deep.{kind}"
    nested.write_bytes(data)
    (tmp_path / "good.txt").write_bytes(GOOD)
    run = _urlsift(nested, tmp_path / "good.txt", timeout=60)
    assert run.out == ["http://good.example/"]
    assert _kinds(run) == ["too-deep"]
    assert f"nested more than {MAX_DEPTH} containers deep" in run.reports[0]
    assert run.status == 2


# --- item 13: what came before the damage is kept ------------------------------------------------------

_COMPRESS: dict[str, tuple[Callable[[bytes], bytes], float]] = {
    # bzip2 gives nothing of a block until it is whole: 100 KB blocks, and more of the text is lost.
    "gz": (gzip.compress, 0.8),
    "bz2": (lambda data: bz2.compress(data, 1), 0.5),
    "xz": (lzma.compress, 0.8),
}
"""How to compress, and what share of the text a stream cut at 90% must still give."""


@pytest.mark.parametrize("kind", sorted(_COMPRESS))
def test_a_cut_compressed_text_gives_everything_before_the_cut(tmp_path: Path, kind: str) -> None:
    """Item 13: a cut stream lost up to ~1.5 MB before the error (a 560 KB text kept 0 of 20,000)."""
    urls = [f"http://u{k}.example/" for k in range(20_000)]
    compress, share = _COMPRESS[kind]
    packed = compress("".join(f"<URL:{url}>\n" for url in urls).encode())
    cut = tmp_path / f"cut.txt.{kind}"
    cut.write_bytes(packed[: len(packed) * 9 // 10])
    (tmp_path / "good.txt").write_bytes(GOOD)
    run = _urlsift(cut, tmp_path / "good.txt")
    assert run.out[-1] == "http://good.example/"
    found = run.out[:-2]  # (the last may be cut short)
    assert found == urls[: len(found)]  # in order, nothing skipped
    assert len(found) > 20_000 * share, len(found)
    assert _kinds(run) == ["corrupt"]
    assert run.status == 2


def test_a_gz_with_a_bad_crc_gives_its_text_then_the_report(tmp_path: Path) -> None:
    urls = [f"http://c{k}.example/" for k in range(20_000)]
    packed = bytearray(gzip.compress("".join(f"<URL:{url}>\n" for url in urls).encode()))
    packed[-8] ^= 0xFF  # the CRC-32 in the trailer
    (tmp_path / "crc.txt.gz").write_bytes(bytes(packed))
    run = _urlsift(tmp_path / "crc.txt.gz")
    assert run.out == urls
    assert _kinds(run) == ["corrupt"]
    assert "CRC check failed" in run.reports[0]
    assert run.status == 2


def test_a_zip_cut_after_a_complete_member_still_gives_it(tmp_path: Path) -> None:
    """Item 13: with its central directory gone zipfile opens nothing; the local headers still lead
    from member to member."""
    archive = tmp_path / "cut.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        out.writestr("one.txt", "<URL:http://one.example/>\n" * 100)
        out.writestr("two.txt", "".join(f"<URL:http://t{k}.example/>\n" for k in range(10_000)))
    whole = archive.read_bytes()
    archive.write_bytes(whole[: whole.index(b"PK\x03\x04", 10) + 2000])  # into two.txt's data
    run = _urlsift(archive)
    assert run.out[:100] == ["http://one.example/"] * 100
    assert run.out[100:-1] == [f"http://t{k}.example/" for k in range(len(run.out) - 101)]
    assert len(run.out) > 200
    assert _kinds(run) == ["corrupt", "corrupt"]
    assert run.reports[0].startswith(f"urlsift: {archive}[two.txt]: corrupt: the member's data is cut")
    assert run.reports[1].startswith(f"urlsift: {archive}: corrupt: no central directory")
    assert run.status == 2


# --- item 17: a cut tar is one error ----------------------------------------------------------------------


@pytest.mark.parametrize("packed", [False, True], ids=["tar", "tar.gz"])
def test_a_cut_tar_counts_one_error(tmp_path: Path, packed: bool) -> None:
    """Item 17: the cut member and then the archive were each reported (a tar.gz: the tar, then the gz)."""
    text = b"".join(b"<URL:http://t%d.example/>\n" % k for k in range(5000))
    raw = _tar([(_member("one.txt"), GOOD), (_member("two.txt"), text)])
    archive = tmp_path / ("cut.tar.gz" if packed else "cut.tar")
    archive.write_bytes(gzip.compress(raw)[:2000] if packed else raw[:30_000])
    run = _urlsift(archive)
    assert run.out[0] == "http://good.example/"
    assert run.out[1:-1] == [f"http://t{k}.example/" for k in range(len(run.out) - 2)]
    assert _kinds(run) == ["corrupt"]
    assert run.reports[0].startswith(f"urlsift: {archive}: " if packed else f"urlsift: {archive}[two.txt]: ")
    stats = subprocess.run(
        [sys.executable, "-m", "urlsift", "--no-progress", "--stats", str(archive)],
        capture_output=True,
        timeout=60,
        check=False,
    ).stderr.decode()
    assert "1 = 1 error + 0 warnings" in stats, stats


# --- a read error of the disk is `unreadable`, not `corrupt` ------------------------------------------


class _FailingDisk(io.FileIO):
    """A file whose reads fail past its first 1,000 bytes, as a bad sector does (EIO)."""

    def read(self, size: int | None = -1, /) -> bytes:
        if self.tell() >= 1000:
            raise OSError(5, "Input/output error")
        left = 1000 - self.tell()
        return super().read(left if size is None or size < 0 else min(size, left))

    def readinto(self, buffer: WriteableBuffer, /) -> int:  # (sources reads straight into its buffer)
        view = memoryview(buffer).cast("B")
        data = self.read(len(view))
        view[: len(data)] = data
        return len(data)


@pytest.mark.parametrize("packed", [False, True], ids=["text", "gz"])
def test_a_disk_read_error_is_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, packed: bool
) -> None:
    text = b"".join(b"<URL:http://d%d.example/>\n" % k for k in range(5000))
    path = tmp_path / ("d.txt.gz" if packed else "d.txt")
    path.write_bytes(gzip.compress(text) if packed else text)
    monkeypatch.setattr(io, "FileIO", _FailingDisk)  # what sources opens files with
    defects: list[Defect] = []
    texts: list[bytes] = []
    for item in read_path(str(path), ReadOptions()):
        if isinstance(item, TextStream):
            texts.append(item.file.read())
        elif isinstance(item, Defect):
            defects.append(item)
    assert len(texts) == 1
    assert text.startswith(texts[0])
    if not packed:  # (gzip reads its input 8 KiB at a time: a read that fails loses what it had)
        assert len(texts[0]) == 1000  # what was read before the error is kept
    assert [(defect.kind, defect.detail.split(" (")[0]) for defect in defects] == [
        ("unreadable", "read error: Input/output error")
    ]


# --- --max-expand: what the budget takes ------------------------------------------------------------------


def test_stats_say_bytes_read_and_decompressed_and_read_is_no_more_than_the_files(tmp_path: Path) -> None:
    """Item 17: "bytes read" counted a zip's directory and members again after every seek (1,728
    read of a 768-byte zip); compressed and decompressed sizes are both said."""
    text = b"".join(b"<URL:http://z%d.example/>\n" % k for k in range(2000))
    with zipfile.ZipFile(tmp_path / "a.zip", "w", zipfile.ZIP_DEFLATED) as out:
        for name in ("one.txt", "two.txt", "three.txt"):
            out.writestr(name, text)
    (tmp_path / "b.txt.gz").write_bytes(gzip.compress(text))
    files = [tmp_path / "a.zip", tmp_path / "b.txt.gz"]
    stats = subprocess.run(
        [sys.executable, "-m", "urlsift", "--no-progress", "--stats", *map(str, files)],
        capture_output=True,
        timeout=60,
        check=False,
    ).stderr.decode()
    line = next(line for line in stats.splitlines() if line.startswith("urlsift: bytes"))
    on_disk = sum(path.stat().st_size for path in files)
    assert line.split()[2:] == [f"{on_disk:,}", "read,", f"{4 * len(text):,}", "decompressed"]


# --- issue 28: one bomb, one report; a bug in one member loses that member only ---------------


def _zip(members: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize("after", [2, 1000])
def test_one_bomb_in_a_nested_zip_is_one_report(tmp_path: Path, after: int) -> None:
    # Issue 28.19: past --max-expand, every member after the bomb, at every level, said it again
    # (3 reports here with one member after it at each level; one per member with many).
    later = [(f"after{k}.txt", b"http://after.example/\n") for k in range(after)]
    inner = _zip([("bomb.txt", b"x" * (20 << 20)), *later])
    middle = _zip([("inner.zip", inner), *later], zipfile.ZIP_STORED)
    path = tmp_path / "nested.zip"
    path.write_bytes(_zip([("middle.zip", middle), *later], zipfile.ZIP_STORED))
    run = _urlsift("--max-expand", "1M", path)
    assert run.status == 2
    [said] = run.reports
    assert said.startswith(
        f"urlsift: {path}[middle.zip!inner.zip!bomb.txt]: too-large: expands past 1,000,000 "
    )
    assert "nothing after it in the file is read" in said


def test_a_bug_in_one_zip_member_loses_that_member_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = urlsift.sources.sniff

    def sniff(head: bytes, name: str) -> str:
        if name == "bug.txt":
            raise RuntimeError("a bug")
        return real(head, name)

    monkeypatch.setattr(urlsift.sources, "sniff", sniff)
    path = tmp_path / "a.zip"
    path.write_bytes(
        _zip(
            [
                ("a.txt", b"http://a.example/\n"),
                ("bug.txt", b"http://bug.example/\n"),
                ("c.txt", b"http://c.example/\n"),
            ]
        )
    )
    assert main(["--stats", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out.split() == ["http://a.example/", "http://c.example/"]
    assert (
        f"urlsift: {path}[bug.txt]: internal: internal error, please report it: RuntimeError: a bug\n" in err
    )
    assert "files               1 = 1 scanned + 0 failed" in err
