"""GB-scale hostile archives and compressed streams (issue 17, the container items), for the
driver ``bench/hostile.py``: each case builds its input in the folder it is given (in seconds, at
most tens of MB on disk: the size is in what they claim or expand to) and returns urlsift's
arguments and a file for standard input, or None. Small variants of each are tests in
``tests/sources/test_hostile_archives.py``."""

from __future__ import annotations

import bz2
import gzip
import io
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

GOOD = b"<URL:http://good.example/>\n"
LINES = b"a" * 1023 + b"\n"  # text that compresses well and is no long line, no binary


def _tar(members: list[tuple[str, dict[str, str], bytes]]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for name, pax, data in members:
            info = tarfile.TarInfo(name)
            info.pax_headers, info.size = pax, len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _with_good(folder: Path, *paths: Path) -> list[str]:
    """The arguments: the hostile files, then a good one (it must still be read)."""
    (folder / "good.txt").write_bytes(GOOD)
    return ["--no-progress", "--stats", *map(str, paths), str(folder / "good.txt")]


def tar_pax_size(folder: Path, packed: bool) -> tuple[list[str], Path | None]:
    raw = _tar([("before.txt", {}, GOOD), ("huge.txt", {"size": str(10**15)}, b""), ("after.txt", {}, GOOD)])
    path = folder / ("pax.tar.gz" if packed else "pax.tar")
    path.write_bytes(gzip.compress(raw) if packed else raw)
    return _with_good(folder, path), None


def tar_sparse_terabyte(folder: Path) -> tuple[list[str], Path | None]:
    data = GOOD * 1000
    pax = {"GNU.sparse.map": f"0,{len(data)}", "GNU.sparse.size": str(10**12), "GNU.sparse.name": "s.txt"}
    path = folder / "sparse.tar"
    path.write_bytes(_tar([("s.txt", pax, data), ("after.txt", {}, GOOD)]))
    return _with_good(folder, path), None


def zip_bzip2_member(folder: Path) -> tuple[list[str], Path | None]:
    path = folder / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_BZIP2) as archive:
        with archive.open("bomb.txt", "w") as member:
            for _ in range(128):
                member.write(LINES * 1024)  # 128 MiB in 300 bytes, decompressed at once by zipfile
        archive.writestr("after.txt", GOOD)
    return _with_good(folder, path), None


def bz2_multistream(folder: Path) -> tuple[list[str], Path | None]:
    stream = bz2.compress(LINES * (40 << 10))  # 40 MiB in one stream, 90 times: 3.6 GiB
    path = folder / "bomb.txt.bz2"
    path.write_bytes(stream * 90)
    return _with_good(folder, path), None


def _gz_gigabytes(gigabytes: int) -> bytes:
    """A gzip of ``gigabytes`` GiB of text: one member of 64 MiB, repeated (gzip reads members on)."""
    member = gzip.compress(LINES * (64 << 10), compresslevel=9)
    return member * (16 * gigabytes)


def gz_in_gz(folder: Path) -> tuple[list[str], Path | None]:
    path = folder / "bomb.txt.gz.gz"
    path.write_bytes(gzip.compress(_gz_gigabytes(10), compresslevel=9))
    return _with_good(folder, path), None


def gz_in_gz_from_a_pipe(folder: Path) -> tuple[list[str], Path | None]:
    path = folder / "bomb.txt.gz.gz"
    path.write_bytes(gzip.compress(_gz_gigabytes(10), compresslevel=9))
    return ["--no-progress", "--stats", "-"], path


def zip_nested(folder: Path, levels: int, size: int) -> tuple[list[str], Path | None]:
    data = GOOD + (b"\xa0" * 1023 + b"\n") * (size // 1024)  # stored: every level as large
    for level in range(levels):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
            archive.writestr(f"level{level}.zip" if level else "inner.txt", data)
        data = buffer.getvalue()
    path = folder / "nested.zip"
    path.write_bytes(data)
    return _with_good(folder, path), None


def gz_nested(folder: Path) -> tuple[list[str], Path | None]:
    data = GOOD
    for _ in range(1000):
        data = gzip.compress(data, compresslevel=1)
    path = folder / "deep.gz"
    path.write_bytes(data)
    return _with_good(folder, path), None


def cut_gz_text(folder: Path) -> tuple[list[str], Path | None]:
    text = b"".join(b"<URL:http://u%d.example/>\n" % k for k in range(2_000_000))  # 56 MB
    packed = gzip.compress(text)
    path = folder / "cut.txt.gz"
    path.write_bytes(packed[: len(packed) - 100])
    return _with_good(folder, path), None


def zip_cut_after_a_member(folder: Path) -> tuple[list[str], Path | None]:
    path = folder / "cut.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("one.txt", b"".join(b"<URL:http://one%d.example/>\n" % k for k in range(500_000)))
        archive.writestr("two.txt", b"".join(b"<URL:http://two%d.example/>\n" % k for k in range(500_000)))
    whole = path.read_bytes()
    path.write_bytes(whole[: whole.index(b"PK\x03\x04", 10) + 100_000])
    return _with_good(folder, path), None


CASES: dict[str, Callable[[Path], tuple[list[str], Path | None]]] = {
    "tar pax size 10**15": lambda folder: tar_pax_size(folder, packed=False),
    "tar.gz pax size 10**15": lambda folder: tar_pax_size(folder, packed=True),
    "tar sparse member 1 TB": tar_sparse_terabyte,
    "zip bzip2 member 128 MiB (300 bytes)": zip_bzip2_member,
    "bz2 90 streams 3.6 GiB": bz2_multistream,
    "gz.gz 10 GiB": gz_in_gz,
    "gz.gz 10 GiB from a pipe": gz_in_gz_from_a_pipe,
    "zip nested 100 levels of 10 MB": lambda folder: zip_nested(folder, 100, 10 << 20),
    "zip nested 15 levels of 20 MB": lambda folder: zip_nested(folder, 15, 20 << 20),
    "gz nested 1000 deep": gz_nested,
    "gz text 56 MB cut 100 bytes short": cut_gz_text,
    "zip cut inside its second member": zip_cut_after_a_member,
}
