"""Zstandard (issue 21): ``.zst`` files read through as gzip, bzip2 and xz are, with the same Budget,
and what comes before a damaged frame kept. Each input is built here, from the repo's corpora."""

from __future__ import annotations

import io
import json
import struct
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from backports import zstd
from backports.zstd import zipfile as zstd_zipfile

from urlsift.cli import main
from urlsift.sources.packed import MAX_RATIO

MBOX = Path(__file__).parents[2] / "corpora" / "mail" / "r-devel-2000-May.mbox"
GOOD = b"<URL:http://good.example/>\n"


def _output(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], list[str]]:
    """The exit status, the lines printed, and the reports (warnings of the corpus left out)."""
    status = main(["--no-progress", "--no-filename", "--verbose", *argv])
    out, err = capsys.readouterr()
    reports = [line for line in err.splitlines() if ": undecodable-bytes: " not in line]
    return status, out.splitlines(), reports


def _frames(data: bytes) -> bytes:
    """Two frames, each of half the messages."""
    half = data.index(b"\n\nFrom ", len(data) // 2) + 2
    return zstd.compress(data[:half]) + zstd.compress(data[half:])


def _streamed(data: bytes) -> bytes:
    """One frame written as a stream: its header gives no content size."""
    compressor = zstd.ZstdCompressor()
    packed = b"".join(compressor.compress(data[at : at + 65536]) for at in range(0, len(data), 65536))
    return packed + compressor.flush()


def _skippable_first(data: bytes) -> bytes:
    """A skippable frame (as seekable-format writers put metadata) before the data's frame."""
    return (0x184D2A5E).to_bytes(4, "little") + (5).to_bytes(4, "little") + b"hello" + zstd.compress(data)


def _header_size(frame: bytes | bytearray) -> int:
    """The size of a frame's header (RFC 8878 3.1.1.1): its magic, descriptor, window, dictionary
    id and content size."""
    descriptor = frame[4]
    single = descriptor >> 5 & 1
    content_size = [single, 2, 4, 8][descriptor >> 6]
    return 5 + (not single) + [0, 1, 2, 4][descriptor & 3] + content_size


PACKERS: dict[str, Callable[[bytes], bytes]] = {
    "one frame": zstd.compress,
    "two frames": _frames,
    "unknown content size": _streamed,
    "skippable frame first": _skippable_first,
}


@pytest.mark.parametrize("packing", sorted(PACKERS))
def test_a_zst_mbox_reads_as_its_mbox(
    packing: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    packed = tmp_path / "list.mbox.zst"
    packed.write_bytes(PACKERS[packing](MBOX.read_bytes()))
    plain = _output(["--format", "jsonl", str(MBOX)], capsys)
    found = _output(["--format", "jsonl", str(packed)], capsys)
    assert found[0] == plain[0] == 0
    assert len(plain[1]) == 69
    rows = [json.loads(line) for line in found[1]]
    assert [{**row, "source": None} for row in rows] == [
        {**json.loads(line), "source": None} for line in plain[1]
    ]
    assert {row["source"] for row in rows} == {str(packed)}
    if packing == "unknown content size":
        assert zstd.get_frame_info(packed.read_bytes()).decompressed_size is None


def test_a_corrupt_frame_keeps_the_frames_before_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = b"<URL:http://first.example/>\n" * 1000
    second = bytearray(zstd.compress(b"<URL:http://second.example/>\n" * 1000))
    second[_header_size(second)] |= 0b110  # its first block's type: 3, reserved
    (tmp_path / "damaged.txt.zst").write_bytes(zstd.compress(first) + bytes(second))
    (tmp_path / "good.txt").write_bytes(GOOD)
    status, lines, reports = _output([str(tmp_path / "damaged.txt.zst"), str(tmp_path / "good.txt")], capsys)
    assert status == 2
    assert lines == ["http://first.example/"] * 1000 + ["http://good.example/"]
    assert len(reports) == 1
    assert reports[0].startswith(f"urlsift: {tmp_path / 'damaged.txt.zst'}: corrupt: ")
    assert f"(the {len(first):,} bytes before it were read)" in reports[0]


def test_a_cut_stream_is_corrupt_and_keeps_what_came_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    packed = _frames(MBOX.read_bytes())
    (tmp_path / "cut.mbox.zst").write_bytes(packed[: len(packed) * 3 // 4])
    status, lines, reports = _output([str(tmp_path / "cut.mbox.zst")], capsys)
    assert status == 2
    assert 20 < len(lines) < 69  # the first frame's URLs at least
    assert reports[-1].startswith(f"urlsift: {tmp_path / 'cut.mbox.zst'}: corrupt: Compressed file ended")


def test_a_zstd_bomb_is_stopped_by_the_ratio(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bomb = tmp_path / "bomb.txt.zst"
    bomb.write_bytes(zstd.compress(b"<URL:http://first.example/>\n" + (b"a" * 1023 + b"\n") * (100 << 10)))
    (tmp_path / "good.txt").write_bytes(GOOD)
    assert bomb.stat().st_size < 20_000  # 100 MiB in: 10,000 times
    status, lines, reports = _output([str(bomb), str(tmp_path / "good.txt")], capsys)
    assert status == 2
    assert lines == ["http://first.example/", "http://good.example/"]
    assert reports == [
        f"urlsift: {bomb}: too-large: expands past {MAX_RATIO * bomb.stat().st_size:,} bytes, {MAX_RATIO} "
        f"times its {bomb.stat().st_size:,} packed bytes (a decompression bomb?); stopped "
        f"(the {MAX_RATIO * bomb.stat().st_size:,} bytes before it were read)"
    ]
    # --max-expand stops a modest stream too.
    (tmp_path / "small.zst").write_bytes(zstd.compress(b"x" * 5000 + b" http://b/"))
    assert _output(["--max-expand", "1K", str(tmp_path / "small.zst")], capsys)[0] == 2
    assert _output(["--max-expand", "1M", str(tmp_path / "small.zst")], capsys)[:2] == (0, ["http://b/"])


def test_a_tar_zst_reads_its_members(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    held = io.BytesIO()
    with tarfile.open(fileobj=held, mode="w") as archive:
        for name, data in (("list.mbox", MBOX.read_bytes()), ("good.txt", GOOD)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    (tmp_path / "lists.tar.zst").write_bytes(zstd.compress(held.getvalue()))
    status, lines, _ = _output(["--format", "jsonl", str(tmp_path / "lists.tar.zst")], capsys)
    rows = [json.loads(line) for line in lines]
    assert status == 0
    assert len(rows) == 70
    assert {row["member"] for row in rows[:69]} == {"list.mbox"}
    assert (rows[-1]["member"], rows[-1]["url"]) == ("good.txt", "http://good.example/")


def test_a_zip_member_packed_with_zstandard_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "lists.zip"
    with zstd_zipfile.ZipFile(archive, "w") as out:
        out.writestr("list.mbox", MBOX.read_bytes(), compress_type=zstd_zipfile.ZIP_ZSTANDARD)
        out.writestr("good.txt", GOOD, compress_type=zstd_zipfile.ZIP_ZSTANDARD)
    status, lines, reports = _output(["--format", "jsonl", str(archive)], capsys)
    assert (status, reports) == (0, [])
    assert [json.loads(line)["member"] for line in lines] == ["list.mbox"] * 69 + ["good.txt"]
    # Damage inside the member's frame: its CRC or its decoder says so, the next member is read.
    data = bytearray(archive.read_bytes())
    data[data.index(b"list.mbox") + 2000] ^= 0xFF
    archive.write_bytes(bytes(data))
    status, lines, reports = _output([str(archive)], capsys)
    assert status == 2
    assert lines[-1] == "http://good.example/"
    assert any(line.startswith(f"urlsift: {archive}[list.mbox]: corrupt: ") for line in reports)


def test_without_the_library_a_zst_is_reported_and_the_rest_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "list.mbox.zst").write_bytes(zstd.compress(MBOX.read_bytes()))
    (tmp_path / "good.txt").write_bytes(GOOD)
    monkeypatch.setitem(sys.modules, "backports", None)  # (Python 3.11 to 3.13 read it from there)
    monkeypatch.setitem(sys.modules, "compression", None)
    status, lines, reports = _output([str(tmp_path / "list.mbox.zst"), str(tmp_path / "good.txt")], capsys)
    assert (status, lines) == (2, ["http://good.example/"])
    assert reports == [
        f"urlsift: {tmp_path / 'list.mbox.zst'}: unreadable: a Zstandard stream, not read without "
        "compression.zstd or its backport: pip install 'urlsift[zstd]'"
    ]


def test_a_window_over_the_limit_is_refused_unless_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """zstd --long=28 and more: the decoder would hold the whole window (2 GiB at 31), so a frame
    that declares more than 128 MiB is reported unless --zstd-window-log lets it in."""
    compressor = zstd.ZstdCompressor(options={zstd.CompressionParameter.window_log: 28})
    packed = tmp_path / "long.txt.zst"
    packed.write_bytes(compressor.compress(b"<URL:http://long.example/>\n") + compressor.flush())
    (tmp_path / "good.txt").write_bytes(GOOD)
    status, lines, reports = _output([str(packed), str(tmp_path / "good.txt")], capsys)
    assert (status, lines) == (2, ["http://good.example/"])
    assert reports == [
        f"urlsift: {packed}: too-large: a Zstandard frame whose window is over 134,217,728 bytes (packed "
        "with zstd --long); --zstd-window-log 31 reads it, holding up to that much memory"
    ]
    assert _output(["--zstd-window-log", "28", str(packed)], capsys) == (0, ["http://long.example/"], [])
    with pytest.raises(SystemExit):
        main(["--zstd-window-log", "32", str(packed)])
    assert "not a Zstandard window log: '32' (10 to 31)" in capsys.readouterr().err


def test_j2_prints_what_j1_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A .zst is one unit (a compressed stream is read from its start), beside files cut in ranges."""
    (tmp_path / "a.mbox.zst").write_bytes(_frames(MBOX.read_bytes()))
    (tmp_path / "b.mbox").write_bytes(MBOX.read_bytes())
    (tmp_path / "c.txt.zst").write_bytes(zstd.compress(GOOD))
    paths = [str(tmp_path / name) for name in ("a.mbox.zst", "b.mbox", "c.txt.zst")]
    runs = [
        _output(["--format", "jsonl", "--invalid", "--stats", *extra, *paths], capsys)
        for extra in (["-j", "1"], ["-j", "2", "--split-size", "100K"])
    ]
    assert runs[1] == runs[0]
    assert runs[0][0] == 0
    assert len(runs[0][1]) > 2 * 69


def _bad_checksum(data: bytes) -> bytes:
    """One frame of ``data`` with its content checksum, the checksum's last byte flipped."""
    frame = bytearray(zstd.compress(data, options={zstd.CompressionParameter.checksum_flag: 1}))
    frame[-1] ^= 0xFF
    return bytes(frame)


def test_a_bad_content_checksum_keeps_the_frame(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28: the decoder checks the checksum in the call it is handed in and gives nothing of
    that call's output (0 of 1,000 URLs); handed alone, it loses nothing, as gzip's bad CRC does."""
    urls = b"".join(b"<URL:http://u%d.example/>\n" % k for k in range(1000))
    packed = tmp_path / "urls.txt.zst"
    packed.write_bytes(_bad_checksum(urls) + zstd.compress(b"<URL:http://after.example/>\n"))
    status, lines, reports = _output([str(packed)], capsys)
    assert status == 2
    assert lines == [f"http://u{k}.example/" for k in range(1000)]  # the stream ends at the damage
    assert reports == [
        f"urlsift: {packed}: corrupt: Restored data doesn't match checksum "
        f"(the {len(urls):,} bytes before it were read)"
    ]
    # A zip member packed with Zstandard: the same frame, the member's CRC-32 then checked too.
    archive = tmp_path / "urls.zip"
    archive.write_bytes(_zip_of_frame("urls.txt", _bad_checksum(urls), urls))
    status, lines, reports = _output([str(archive)], capsys)
    assert (status, len(lines)) == (2, 1000)
    assert reports == [
        f"urlsift: {archive}[urls.txt]: corrupt: the member's Zstandard data: Restored data doesn't match "
        f"checksum (the {len(urls):,} bytes before it were read)"
    ]


def _zip_of_frame(name: str, frame: bytes, data: bytes) -> bytes:
    """A zip of one member whose data is the Zstandard ``frame`` of ``data`` (zipfile's writer
    packs a frame with no checksum): written stored, then its method, CRC and size made Zstandard's."""
    held = io.BytesIO()
    with zipfile.ZipFile(held, "w") as out:
        out.writestr(name, frame)
    packed = bytearray(held.getvalue())
    fields = struct.pack("<H", 93), struct.pack("<I", zlib.crc32(data)), struct.pack("<I", len(data))
    for signature, method, crc, size in ((b"PK\x03\x04", 8, 14, 22), (b"PK\x01\x02", 10, 16, 24)):
        at = packed.index(signature)
        packed[at + method : at + method + 2], packed[at + crc : at + crc + 4] = fields[0], fields[1]
        packed[at + size : at + size + 4] = fields[2]
    return bytes(packed)


@pytest.mark.parametrize("frames", [1, 3])
def test_frames_cut_at_their_checksums_read_as_they_were(frames: int) -> None:
    """ZstdFrames hands the decoder the same bytes in other reads: what comes out is unchanged, for
    blocks of every kind (raw, RLE, compressed), streamed frames and skippable ones."""
    from urlsift.sources.packed import ZstdFrames

    noise = bytes(range(256)) * 2000 + bytes(1_000_000) + MBOX.read_bytes()
    compressor = zstd.ZstdCompressor(options={zstd.CompressionParameter.checksum_flag: 1})
    streamed = b"".join(compressor.compress(noise[k : k + 4096]) for k in range(0, len(noise), 4096))
    one = zstd.compress(noise) + streamed + compressor.flush() + _skippable_first(GOOD)
    packed = one * frames
    assert zstd.ZstdFile(ZstdFrames(io.BytesIO(packed))).read() == zstd.decompress(packed)
