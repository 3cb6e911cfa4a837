"""WARC reading speed: ``sources/warc.py`` beside warcio's bare read loop (the floor) on the same
bytes, and fastwarc's where installed.

``python bench/warc_speed.py [--rounds N]`` writes a WARC (plain and gzipped, one gzip member per
record) of the messages of ``shared/corpora/mail/`` as text/plain HTTP responses, then times, in CPU
time, best of N: warcio's loop reading every record's decoded content; fastwarc's; urlsift's reader
(``read_path``: records framed, decoded, texts made, nothing scanned); and a whole scan
(``results``, rows made and dropped). MB/s of the file's bytes.
"""

from __future__ import annotations

import argparse
import io
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from urlsift.results import Options, Tally, results
from urlsift.sources import ReadOptions, read_path
from urlsift.sources.mbox import messages

SHARED = Path(__file__).parents[1].parent.parent / "shared" / "corpora" / "mail"


def build(target: Path, mboxes: list[Path], *, gz: bool) -> int:
    """Write the WARC; how many records."""
    count = 0
    with target.open("wb") as out:
        writer = WARCWriter(out, gzip=gz)
        for path in mboxes:
            with path.open("rb") as file:
                for raw in messages(file, 10**8):
                    length = ("Content-Length", str(raw.size))
                    headers = [("Content-Type", "text/plain; charset=utf-8"), length]
                    status = StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1")
                    uri = f"http://lists.example.org/{path.stem}/{raw.number}.txt"
                    record = writer.create_warc_record(
                        uri, "response", payload=io.BytesIO(raw.data), http_headers=status
                    )
                    writer.write_record(record)
                    count += 1
    return count


def warcio_loop(path: str) -> None:
    with open(path, "rb") as file:
        for record in ArchiveIterator(file):
            stream = record.content_stream()
            while stream.read(1 << 16):
                pass


def fastwarc_loop(path: str) -> None:
    from fastwarc.warc import ArchiveIterator as Fast

    with open(path, "rb") as file:
        for record in Fast(file, parse_http=True, auto_decode="all"):
            while record.reader.read(1 << 16):
                pass


def reader(path: str) -> None:
    for _ in read_path(path, ReadOptions()):
        pass


def scan(path: str) -> None:
    for _ in results(path, Options(), Tally()):
        pass


def best(run: Callable[[str], None], path: str, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.process_time()
        run(path)
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mboxes", type=int, default=4, help="how many of shared/corpora/mail/")
    args = parser.parse_args()
    mboxes = sorted(SHARED.glob("*.mbox"))[: args.mboxes]
    loops: list[tuple[str, Callable[[str], None]]] = [("warcio loop", warcio_loop)]
    try:
        import fastwarc  # noqa: F401

        loops.append(("fastwarc loop", fastwarc_loop))
    except ImportError:
        pass
    loops += [("urlsift reader", reader), ("urlsift scan", scan)]
    with tempfile.TemporaryDirectory() as folder:
        for name, gz in (("mail.warc", False), ("mail.warc.gz", True)):
            path = Path(folder) / name
            records = build(path, mboxes, gz=gz)
            size = os.path.getsize(path)
            print(f"{name}: {size / 1e6:.1f} MB, {records:,} records")
            for label, run in loops:
                seconds = best(run, str(path), args.rounds if label != "urlsift scan" else 1)
                print(f"  {label:15} {size / seconds / 1e6:8.1f} MB/s")


if __name__ == "__main__":
    main()
