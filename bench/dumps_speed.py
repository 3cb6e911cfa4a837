"""Issue 21's Zstandard and JSON-lines readers beside their libraries' bare read loops, on the same
bytes (the floor), and the whole command line on them.

    python bench/dumps_speed.py [--shared] [--size MB] [--rounds N]

The input: the mboxes of the corpora (``corpora/mail`` of the repository, or of the shared ones),
repeated to about SIZE MB; the JSON-lines dump holds a record per text part of each message
(``{"id", "data": {"body"}}``, as ``tests/sources/test_jsonl.py`` builds it). Each figure is MB/s of the
uncompressed bytes, in CPU time, best of N interleaved rounds:

- zstd: ``ZstdFile.read1`` over the ``.mbox.zst`` (the floor) beside urlsift's stream of the same
  bytes (``sources.read_path`` of it as ``--input-format text``: the TextStream read to its end,
  through the Budget's and the damage's layers, not scanned);
- jsonl: ``json.loads`` of every line of the dump (the floor) beside ``sources.jsonl.Records``
  (lines cut from blocks, each parsed and its fields taken);
- the command line (``--format jsonl`` to /dev/null) on the plain mbox, the ``.mbox.zst``, the
  dump and the ``.jsonl.zst``.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from _corpora import add_options, root
from archive_speed import best, cli
from backports import zstd

from urlsift._model import Provenance, TextStream
from urlsift.sources import ReadOptions, jsonl, read_path
from urlsift.sources.mbox import messages
from urlsift.sources.mime import read as read_message


def _dump(mbox: bytes) -> bytes:
    lines = []
    for raw in messages(io.BytesIO(mbox)):
        message = read_message(raw.data, Provenance("x"))
        for k in range(message.headers, len(message.texts)):
            record = {"id": message.provenance.message_id, "data": {"body": message.texts[k]}}
            lines.append(json.dumps(record).encode() + b"\n")
    return b"".join(lines)


def _bare_zstd(path: Path) -> Callable[[], None]:
    def run() -> None:
        with open(path, "rb") as file:
            reader = zstd.ZstdFile(file)
            while reader.read1(1 << 16):
                pass

    return run


def _urlsift_stream(path: Path) -> Callable[[], None]:
    def run() -> None:
        for item in read_path(str(path), ReadOptions("text")):
            if isinstance(item, TextStream):
                while item.file.read(1 << 16):
                    pass

    return run


def _bare_json(path: Path) -> Callable[[], None]:
    def run() -> None:
        with open(path, "rb") as file:
            for line in file:
                json.loads(line)

    return run


def _records(path: Path) -> Callable[[], None]:
    fields = jsonl.Fields(("data.body",), "id")

    def run() -> None:
        with open(path, "rb") as file:
            for _ in jsonl.Records(file, Provenance(str(path)), fields, 10**8):
                pass

    return run


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_options(parser)
    parser.add_argument("--size", type=float, default=20.0, help="MB of mbox to build (default 20)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sources = sorted((root(parser, args) / "mail").glob("*.mbox"))
    one = b"".join(path.read_bytes() for path in sources)
    mbox = one * max(1, round(args.size * 1e6 / len(one)))
    dump = _dump(mbox)
    with tempfile.TemporaryDirectory() as folder:
        paths = {
            "mbox": Path(folder, "all.mbox"),
            "mbox.zst": Path(folder, "all.mbox.zst"),
            "jsonl": Path(folder, "all.jsonl"),
            "jsonl.zst": Path(folder, "all.jsonl.zst"),
        }
        paths["mbox"].write_bytes(mbox)
        paths["mbox.zst"].write_bytes(zstd.compress(mbox))
        paths["jsonl"].write_bytes(dump)
        paths["jsonl.zst"].write_bytes(zstd.compress(dump))
        fields = ["--input-format", "jsonl", "--text-field", "data.body", "--id-field", "id"]
        runs = {
            "zstd: ZstdFile.read1 (floor)": _bare_zstd(paths["mbox.zst"]),
            "zstd: urlsift's stream": _urlsift_stream(paths["mbox.zst"]),
            "jsonl: json.loads per line (floor)": _bare_json(paths["jsonl"]),
            "jsonl: sources.jsonl.Records": _records(paths["jsonl"]),
            "cli: .mbox": cli(str(paths["mbox"])),
            "cli: .mbox.zst": cli(str(paths["mbox.zst"])),
            "cli: .jsonl": cli(*fields, str(paths["jsonl"])),
            "cli: .jsonl.zst": cli(*fields, str(paths["jsonl.zst"])),
        }
        times = best(args.rounds, runs)
    sizes = {name: len(dump) if "jsonl" in name else len(mbox) for name in runs}
    packed = len(zstd.compress(mbox))
    print(f"mbox {len(mbox) / 1e6:.1f} MB ({packed / 1e6:.1f} MB packed), dump {len(dump) / 1e6:.1f} MB")
    print("| run | MB/s |\n| --- | ---: |")
    for name, seconds in times.items():
        print(f"| {name} | {sizes[name] / 1e6 / seconds:.1f} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
