"""Each source's speed under both cores, in one run (issue 32's table): the same messages as an
mbox, a ``.mbox.zst``, a public-inbox v2 epoch, a WARC of ``message/rfc822`` records, and a JSON-lines
dump of their text parts (and its ``.jsonl.zst``), read by ``urlsift --format jsonl`` to /dev/null.

    python bench/sources_speed.py [--shared | --corpora DIR] [--size MB] [--rounds N]

The messages: the corpora's mail/ mboxes (the repository's by default), repeated to about SIZE MB.
Each core runs in a process of its own (``URLSIFT_CORE`` is read once, at import), which times the
command line in-process, so start-up is left out; the two cores' processes take turns, round by
round, so a slow spell of the machine hits both. A figure is MB of the source's uncompressed bytes
(the messages; the dump's own bytes for JSON lines) a second of CPU time, that process's and its
children's (``git cat-file`` for public-inbox), the best of N rounds.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _corpora import add_options, root
from backports import zstd
from warcio.warcwriter import WARCWriter

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import inbox

from urlsift.sources.mbox import messages

JSON_FIELDS = ("--input-format", "jsonl", "--text-field", "data.body", "--id-field", "id")


def _warc(target: Path, blobs: list[bytes]) -> None:
    """A WARC of a ``resource`` record of type ``message/rfc822`` a message."""
    with target.open("wb") as out:
        writer = WARCWriter(out, gzip=False)
        for number, blob in enumerate(blobs):
            record = writer.create_warc_record(
                f"mid:{number}@lists.example.org",
                "resource",
                payload=io.BytesIO(blob),
                warc_content_type="message/rfc822",
                http_headers=None,
            )
            writer.write_record(record)


def _dump(blobs: list[bytes]) -> bytes:
    """A JSON-lines record per message, its body as text (``{"id", "data": {"body"}}``)."""
    lines = []
    for number, blob in enumerate(blobs):
        _, _, body = blob.partition(b"\n\n")
        record = {"id": str(number), "data": {"body": body.decode("utf-8", "replace")}}
        lines.append(json.dumps(record).encode() + b"\n")
    return b"".join(lines)


def build(folder: Path, mbox: bytes) -> dict[str, tuple[list[str], int]]:
    """The sources, each as the command line's arguments and its size in bytes."""
    blobs = [raw.data for raw in messages(io.BytesIO(mbox))]
    size = sum(map(len, blobs))
    plain = folder / "all.mbox"
    plain.write_bytes(mbox)
    (folder / "all.mbox.zst").write_bytes(zstd.compress(mbox))
    repo = inbox.init(folder / "inbox" / "git" / "0.git")
    inbox.commit(repo, blobs)
    subprocess.run(["git", f"--git-dir={repo}", "repack", "-a", "-d", "-q"], check=True)
    _warc(folder / "all.warc", blobs)
    dump = _dump(blobs)
    (folder / "all.jsonl").write_bytes(dump)
    (folder / "all.jsonl.zst").write_bytes(zstd.compress(dump))
    return {
        "mbox": ([str(plain)], len(mbox)),
        ".mbox.zst": ([str(folder / "all.mbox.zst")], len(mbox)),
        "public-inbox (v2 epoch)": ([str(folder / "inbox")], size),
        "WARC (message/rfc822)": ([str(folder / "all.warc")], size),
        "JSON lines": ([*JSON_FIELDS, str(folder / "all.jsonl")], len(dump)),
        ".jsonl.zst": ([*JSON_FIELDS, str(folder / "all.jsonl.zst")], len(dump)),
    }


def _cpu() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def time_each(runs: dict[str, list[str]]) -> dict[str, float]:
    """In this process: each run's CPU seconds, once (``--child``)."""
    from urlsift.cli import main

    def run(argv: list[str]) -> None:
        with (
            open(os.devnull, "w") as null,
            contextlib.redirect_stdout(null),
            contextlib.redirect_stderr(null),
            contextlib.suppress(SystemExit),
        ):
            main(["--no-progress", "--format", "jsonl", *argv])

    run(next(iter(runs.values())))  # warm: the imports and tables a fresh process loads once
    took = {}
    for name, argv in runs.items():
        gc.collect()
        started = _cpu()
        run(argv)
        took[name] = _cpu() - started
    return took


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_options(parser)
    parser.add_argument("--size", type=float, default=20.0, help="MB of messages (default 20)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(time_each(json.loads(args.child))))
        return
    one = b"".join(path.read_bytes() for path in sorted((root(parser, args) / "mail").glob("*.mbox")))
    mbox = one * max(1, round(args.size * 1e6 / len(one)))
    cores = ("python", "rust")
    with tempfile.TemporaryDirectory() as temporary:
        sources = build(Path(temporary), mbox)
        argv = json.dumps({name: arguments for name, (arguments, _) in sources.items()})
        best = {core: dict.fromkeys(sources, float("inf")) for core in cores}
        for _ in range(args.rounds):
            for core in cores:
                environment = {**os.environ, "URLSIFT_CORE": core}
                child = [sys.executable, __file__, "--child", argv]
                done = subprocess.run(child, env=environment, capture_output=True, check=True)
                for name, seconds in json.loads(done.stdout).items():
                    best[core][name] = min(best[core][name], seconds)
    print(f"{len(mbox) / 1e6:.1f} MB of messages; best of {args.rounds} rounds, CPU time, MB/s")
    print("| source | python core | rust core | ratio |\n| --- | ---: | ---: | ---: |")
    for name, (_, size) in sources.items():
        slow, fast = (size / 1e6 / best[core][name] for core in cores)
        print(f"| {name} | {slow:.1f} | {fast:.1f} | {fast / slow:.2f}x |")


if __name__ == "__main__":
    main_bench()
