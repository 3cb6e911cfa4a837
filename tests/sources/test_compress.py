"""Unix compress (issue 30.7): ``.Z`` and ``.tar.Z`` files read through as gzip's are, under the
same Budget; and the compressed or archive formats not read named as such, not called binary.
Each input is built here (ncompress, the ``compress`` extra, packs it)."""

from __future__ import annotations

import io
import json
import sys
import tarfile
import threading
from pathlib import Path

import ncompress
import pytest

from urlsift.cli import main

MBOX = Path(__file__).parents[2] / "corpora" / "mail" / "r-devel-2000-May.mbox"
GOOD = b"<URL:http://good.example/>\n"


def _output(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], list[str]]:
    """The exit status, the lines printed, and the reports (warnings of the corpus left out)."""
    status = main(["--no-progress", "--no-filename", "--verbose", *argv])
    out, err = capsys.readouterr()
    reports = [line for line in err.splitlines() if ": undecodable-bytes: " not in line]
    return status, out.splitlines(), reports


def _tar(members: dict[str, bytes]) -> bytes:
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w", format=tarfile.USTAR_FORMAT) as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return packed.getvalue()


def test_a_z_mbox_reads_as_its_mbox(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    packed = tmp_path / "list.mbox.Z"
    packed.write_bytes(ncompress.compress(MBOX.read_bytes()))
    plain = _output(["--format", "jsonl", str(MBOX)], capsys)
    found = _output(["--format", "jsonl", str(packed)], capsys)
    assert found[0] == plain[0] == 0
    assert len(plain[1]) == 69
    rows = [json.loads(line) for line in found[1]]
    assert {row["source"] for row in rows} == {str(packed)}
    as_plain = [{**json.loads(line), "source": str(packed)} for line in plain[1]]
    assert rows == as_plain
    assert found[2] == plain[2]


def test_a_tar_z_is_read_member_by_member(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Usenet or FTP archive as they come: a tar packed whole with compress."""
    packed = tmp_path / "comp.archives.tar.Z"
    members = {"a/1": b"From: a@x\nSubject: s\n\nsee http://one.example/\n", "b/notes.txt": GOOD}
    packed.write_bytes(ncompress.compress(_tar(members)))
    status, lines, reports = _output(["--format", "csv", str(packed)], capsys)
    assert (status, reports) == (0, [])
    assert [line.split(",")[0] for line in lines[1:]] == ["http://one.example/", "http://good.example/"]
    assert [line.split(",")[9] for line in lines[1:]] == ["a/1", "b/notes.txt"]  # the member column


def test_a_z_bomb_stops_at_the_budget_as_a_gz_one_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """200 MB of one letter packs into 34 KB (6,000 times): it is stopped at 1000 times its packed
    bytes, with the same report as gzip's, and the file named after it is read."""
    bomb = tmp_path / "bomb.txt.Z"
    packed = ncompress.compress(b"a" * 200_000_000)
    bomb.write_bytes(packed)
    (tmp_path / "good.txt").write_bytes(GOOD)
    status, lines, reports = _output(["--stats", str(bomb), str(tmp_path / "good.txt")], capsys)
    assert (status, lines) == (2, ["http://good.example/"])
    limit = 1000 * len(packed)
    assert (
        f"urlsift: {bomb}: too-large: expands past {limit:,} bytes, 1000 times its {len(packed):,} packed "
        f"bytes (a decompression bomb?); stopped (the {limit:,} bytes before it were read)"
    ) in reports
    assert any(line.endswith(" decompressed") and f"{limit:,} decompressed" in line for line in reports)


def test_a_damaged_z_keeps_what_came_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = b"".join(b"<URL:http://h%d.example/>\n" % n for n in range(20_000))
    packed = bytearray(ncompress.compress(text))
    packed[len(packed) // 2 : len(packed) // 2 + 64] = b"\xff" * 64  # codes past the table's end
    damaged = tmp_path / "urls.txt.Z"
    damaged.write_bytes(bytes(packed))
    status, lines, reports = _output([str(damaged)], capsys)
    assert status == 2
    assert 1000 < len(lines) < 20_000
    assert lines[:3] == ["http://h0.example/", "http://h1.example/", "http://h2.example/"]
    assert len(reports) == 1
    assert reports[0].startswith(f"urlsift: {damaged}: corrupt: not a valid .Z stream (corrupt input) (the ")


def test_a_z_member_of_a_zip_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import zipfile

    archive = tmp_path / "old.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        packed.writestr("notes.txt.Z", ncompress.compress(GOOD))
    assert _output([str(archive)], capsys) == (0, ["http://good.example/"], [])


def test_without_the_library_a_z_is_reported_and_the_rest_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "list.mbox.Z").write_bytes(ncompress.compress(MBOX.read_bytes()))
    (tmp_path / "good.txt").write_bytes(GOOD)
    monkeypatch.setitem(sys.modules, "ncompress", None)  # None: "not installed" to the import system
    status, lines, reports = _output([str(tmp_path / "list.mbox.Z"), str(tmp_path / "good.txt")], capsys)
    assert (status, lines) == (2, ["http://good.example/"])
    assert reports == [
        f"urlsift: {tmp_path / 'list.mbox.Z'}: unreadable: a .Z (Unix compress) stream, not read without "
        "ncompress: pip install 'urlsift[compress]'"
    ]


def test_a_z_reader_closed_before_its_end_leaves_no_thread() -> None:
    """ncompress pushes its output: the reader runs it in a thread, stopped when it is closed."""
    from urlsift.sources.packed import Lzw

    before = threading.active_count()
    reader = Lzw(io.BytesIO(ncompress.compress(b"x" * 10_000_000)))
    assert reader.read(10) == b"x" * 10
    assert threading.active_count() == before + 1
    reader.close()
    assert threading.active_count() == before


# --- formats not read: said by name ----------------------------------------------------------

UNSUPPORTED = {
    "a.7z": (b"7z\xbc\xaf\x27\x1c\x00\x04" + bytes(32), "7z"),
    "a.rar": (b"Rar!\x1a\x07\x01\x00" + bytes(32), "rar"),
    "a.tar.lz": (b"LZIP\x01\x0c http://in.lzip.example/ never read as text", "lzip"),
    "a.lz4": (b"\x04\x22\x4d\x18\x64\x40\xa7" + bytes(16), "lz4"),
    "a.cab": (b"MSCF\x00\x00\x00\x00" + bytes(32), "cab"),
}


@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_a_format_not_read_is_named_and_the_run_goes_on(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not "binary" (exit 2), nor read as text (lzip): named, counted, and the exit status is the
    run's: 0, a URL was found in the other file."""
    data, said = UNSUPPORTED[name]
    (tmp_path / name).write_bytes(data)
    (tmp_path / "good.txt").write_bytes(GOOD)
    status, lines, reports = _output([str(tmp_path / name), str(tmp_path / "good.txt")], capsys)
    assert (status, lines) == (0, ["http://good.example/"])
    assert reports == [
        f"urlsift: {tmp_path / name}: unsupported: compression {said} is not read (gzip, bzip2, xz, "
        "Zstandard, .Z, zip and tar are)"
    ]


def test_a_format_not_read_inside_an_archive_is_named_with_its_member(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "mixed.tar"
    archive.write_bytes(_tar({"x.7z": UNSUPPORTED["a.7z"][0], "notes.txt": GOOD}))
    status, lines, reports = _output(["--stats", str(archive)], capsys)
    assert (status, lines) == (0, ["http://good.example/"])
    assert reports[0] == (
        f"urlsift: {archive}[x.7z]: unsupported: compression 7z is not read (gzip, bzip2, xz, Zstandard, "
        ".Z, zip and tar are)"
    )
    assert "urlsift: problems            1 = 0 errors + 1 warning" in reports
