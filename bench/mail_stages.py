"""Where the mbox command line's time goes, stage by stage, per message and per row (issue 22).

    python bench/mail_stages.py [MBOX ...] [--rounds N]

Each stage is timed alone on what the stage before it gave (process time, the best of N rounds,
the stages interleaved), beside the whole command line (``--format jsonl`` to /dev/null, caches
cleared as a fresh process has them) and the bare ``email.message_from_bytes`` loop:

- split: ``mbox.messages`` over the file's bytes;
- sources: ``read_path`` without the MIME reading (opening, counting, provenance of the index);
- MIME: ``mime.read`` (header block, parts, decoding), less the two next lines, which it includes;
- headers: RFC 2047 decoding of the header values that have an encoded word;
- provenance: Message-ID, Date and Newsgroups looked up and decoded, the Provenance built;
- flowed: ``unflow`` of the format=flowed parts (D31);
- scanning: ``matches.Matcher`` (header cache, ``extract_each``: scanner, rejoin, validation) over
  the messages as the command line scans them (runs of them together, ``Matcher.batch``, where the
  tree has it), less flowed, with the verdicts of earlier rounds cached;
- validation: what the same costs more with no verdict cached (each distinct URL judged once);
- rows: ``results._messages`` (``results._message`` one by one, where the tree has no batches)
  less scanning (tally, rows);
- output: the jsonl writer over the rows (``Printing.selected`` first, as the printer does);
- other: what the command line costs beyond the sum (events, printer, reports).

Under ``URLSIFT_CORE=rust`` the split is the native splitter's (issue 32); the Python oracle's is
timed beside it, in the same run.

Then a floor: what no design of these stages can go below without a faster reader or scanner:
``read_path`` as it is, plus ``extract`` over the texts it gives joined into ONE string (the
scanner at its own speed, with no cost per message or per text; a header value with a ``<`` that
recurs counted once, as a perfect header cache would), plus the jsonl output of the rows (already
built), beside the time the issue-22 target allows (the bare loop's over the target ratio: 1.5 on
blinux-list, 1.0 on the small-message lists).
"""

from __future__ import annotations

import argparse
import contextlib
import email
import gc
import io
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from _corpora import SHARED

from urlsift import _select, results
from urlsift._model import MessageText, Provenance
from urlsift.cli import main
from urlsift.extract import _judge, extract
from urlsift.flowed import unflow
from urlsift.matches import _HEADER_MATCHES, BATCH_WEIGHT, Matcher
from urlsift.output import Printing, writer
from urlsift.results import _message as message_rows
from urlsift.rows import Options, Row, Tally
from urlsift.sources import ReadOptions, mime, read_path
from urlsift.sources import _message as read_message
from urlsift.sources.mbox import messages

# A tree that scans runs of messages together has these (its command line does); an earlier one
# (PYTHONPATH at another checkout, for figures before) scans one message at a time.
_batched = getattr(results, "_batched", None)
_messages = getattr(results, "_messages", None)

DEFAULTS = [
    SHARED / "mail" / f"{name}.mbox" for name in ("blinux-list", "r-help-2003-February", "r-devel-2000-May")
]


def best(rounds: int, runs: dict[str, Callable[[], Any]]) -> dict[str, float]:
    times = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            gc.collect()
            started = time.process_time()
            run()
            times[name] = min(times[name], time.process_time() - started)
    return times


def _under(core: _select.Core, run: Callable[[], Any]) -> Callable[[], Any]:
    """``run`` with ``core`` in use (``_select.using``)."""

    def ran() -> Any:
        with _select.using(core):
            return run()

    return ran


def _scanned_texts(found: list[MessageText]) -> Iterator[str]:
    """The texts of the messages that a perfect header cache leaves to scan: a header value with a
    ``<`` (the cache's rule) is scanned the first time it comes only."""
    seen: set[str] = set()
    for message in found:
        for k, text in enumerate(message.texts):
            if k < message.headers and "<" in text:
                if text in seen:
                    continue
                seen.add(text)
            yield text


def stages(path: Path, rounds: int) -> None:
    data = path.read_bytes()
    raw = list(messages(io.BytesIO(data)))
    where = Provenance(str(path))
    read = ReadOptions()
    found = [
        read_message(
            m.data, m.size, where._replace(message=m.number, offset=m.offset), read, m.complete, m.pipermail
        )
        for m in raw
    ]
    entities = [mime._entity(m.data) for m in raw]
    encoded = [value for e in entities for (_, _, value) in e.headers if "=?" in value]
    flowed = [(text.texts[k], delsp) for text in found for k, delsp in (text.flowed or {}).items()]
    options = Options()
    rows = [row for text in found for row in message_rows(text, options, Tally()) if isinstance(row, Row)]
    printing = Printing("jsonl")
    joined = "\n\n\x00\n\n".join(_scanned_texts(found))

    batches: list[list[MessageText]] = (
        [[text] for text in found] if _batched is None else list(_batched(iter(found)))
    )

    def scanned(cold: bool = False) -> None:
        _HEADER_MATCHES.clear()
        if cold:  # as the command line starts: no URL judged yet
            _judge.cache_clear()
        matcher = Matcher(options)  # one a file, as the command line has
        for batch in batches:
            if len(batch) > 1:
                matcher.batch(batch)
            else:
                for _ in matcher(batch[0]):
                    pass

    def with_rows() -> None:
        _HEADER_MATCHES.clear()
        tally = Tally()
        matcher = Matcher(options)
        for batch in batches:
            for _ in (
                message_rows(batch[0], options, tally, matcher)
                if _messages is None
                else _messages(batch, options, tally, matcher)
            ):
                pass

    def output() -> None:
        with open(os.devnull, "w") as null:
            write = writer("jsonl", null)
            for row in rows:
                selected = printing.selected(row)
                if selected is not None:
                    write(selected)

    def cli() -> None:
        _judge.cache_clear()
        _HEADER_MATCHES.clear()
        with (
            open(os.devnull, "w") as null,
            contextlib.redirect_stdout(null),
            contextlib.redirect_stderr(null),
        ):
            main(["--no-progress", "--format", "jsonl", str(path)])

    runs: dict[str, Callable[[], Any]] = {
        "bare": lambda: [email.message_from_bytes(m.data) for m in raw],
        "cli": cli,
        "split": lambda: [None for _ in messages(io.BytesIO(data))],
        "read_path": lambda: [None for _ in read_path(str(path), read)],
        "mime": lambda: [mime.read(m.data, where) for m in raw],
        "headers": lambda: [mime._header_decoded(value) for value in encoded],
        "provenance": lambda: [mime._identified(e, where) for e in entities],
        "flowed": lambda: [unflow(text, delsp) for text, delsp in flowed],
        "matches": scanned,
        "cold": lambda: scanned(cold=True),
        "message": with_rows,
        "output": output,
        "joined": lambda: [None for _ in extract(joined, invalid=True)],
    }
    # Issue 32: the split and mime.read whole (the MIME stage with its headers and provenance) by
    # each core, in this same run, and how many of the messages the native core read itself.
    native = getattr(_select, "NATIVE", None)
    if native is not None:
        for core in _select.CORES:
            runs[f"split {core}"] = _under(core, runs["split"])
            runs[f"mime {core}"] = _under(core, runs["mime"])
        by_core = sum(not isinstance(mime._native_reader(native).read(m.data), str) for m in raw)
        runs.update(_mail_runs(data, where, options, cli))
    t = best(rounds, runs)
    shown = {
        "split": t["split"],
        "sources": t["read_path"] - t["split"] - t["mime"],
        "MIME": t["mime"] - t["headers"] - t["provenance"],
        "headers": t["headers"],
        "provenance": t["provenance"],
        "flowed": t["flowed"],
        "scanning": t["matches"] - t["flowed"],
        "validation": t["cold"] - t["matches"],
        "rows": t["message"] - t["matches"],
        "output": t["output"],
    }
    shown["other"] = t["cli"] - sum(shown.values())
    n, urls = len(raw), max(1, len(rows))
    print(f"{path.name}: {len(data) / 1e6:.1f} MB, {n:,} messages, {len(rows):,} rows, best of {rounds}")
    print(f"  {'stage':12} {'us/message':>10} {'us/row':>8} {'share':>6}")
    for name, seconds in shown.items():
        share = seconds / t["cli"]
        print(f"  {name:12} {seconds / n * 1e6:10.1f} {seconds / urls * 1e6:8.1f} {share:6.0%}")
    megabytes = len(data) / 1e6
    per_message, per_row = t["cli"] / n * 1e6, t["cli"] / urls * 1e6
    print(f"  {'cli':12} {per_message:10.1f} {per_row:8.1f}  {megabytes / t['cli']:.1f} MB/s")
    print(f"  {'bare loop':12} {t['bare'] / n * 1e6:10.1f} {'':8}  {megabytes / t['bare']:.1f} MB/s")
    print(f"  ratio (bare / cli) {t['bare'] / t['cli']:.2f}")
    if native is not None:
        python, rust = t["split python"] / n * 1e6, t["split rust"] / n * 1e6
        print(f"  split by core: python {python:.1f}, rust {rust:.1f} us/message ({python / rust:.1f}x)")
        python, rust = t["mime python"] / n * 1e6, t["mime rust"] / n * 1e6
        print(
            f"  mime.read by core: python {python:.1f}, rust {rust:.1f} us/message"
            f" ({python / rust:.1f}x); the native core read {by_core:,} of {n:,} itself"
        )
    if native is not None:
        by_batch, walked = t["core rows"] / n * 1e6, t["mail rows"] / n * 1e6
        python = t["cli python messages"] / n * 1e6
        print(
            f"  messages made rows of by the core (_native_mail): the core's batches {by_batch:.1f},"
            f" with the messages it leaves to Python and the blocks {walked:.1f} us/message;"
            f" the command line with every message read into Python {python:.1f}"
            f" ({t['cli python messages'] / t['cli']:.2f}x the time)"
        )
    floor = t["read_path"] + t["joined"] + t["output"]
    target = 1.5 if path.name == "blinux-list.mbox" else 1.0
    print(
        f"  floor: read_path {t['read_path'] / n * 1e6:.1f} + extract over the texts joined"
        f" {t['joined'] / n * 1e6:.1f} + output {t['output'] / n * 1e6:.1f}"
        f" = {floor / n * 1e6:.1f} us/message;"
        f" the target ({target}x the bare loop) allows {t['bare'] / target / n * 1e6:.1f}:"
        f" ratio at the floor {t['bare'] / floor:.2f}"
    )


def _mail_runs(
    data: bytes, where: Provenance, options: Options, cli: Callable[[], None]
) -> dict[str, Callable[[], Any]]:
    """Issue 32: the core's rows of messages (``_native_mail``) alone, walked as ``results._mail``
    walks them, and the command line with every message read into Python instead."""
    from unittest import mock

    from urlsift._native_mail import MailRows
    from urlsift.results import _mail
    from urlsift.sources import _chunked
    from urlsift.sources.mbox import MailChunk, chunks

    with _select.using("rust"):
        found = chunks(io.BytesIO(data), options.read.max_message)
        assert found is not None
        read = options.read._replace(mail_bytes=True)
        mail = [item for item in _chunked(found, where, read) if isinstance(item, MailChunk)]

    def core_rows() -> None:
        reader = MailRows(options, BATCH_WEIGHT)
        for chunk in mail:
            reader.read(chunk)

    def mail_rows() -> None:
        _HEADER_MATCHES.clear()
        reader, matcher, tally = MailRows(options, BATCH_WEIGHT), Matcher(options), Tally()
        for chunk in mail:
            for _ in _mail(chunk, options, tally, matcher, reader):
                pass

    def python_messages() -> None:
        with mock.patch.object(results, "_read_options", lambda options: options.read):
            cli()

    return {"core rows": core_rows, "mail rows": mail_rows, "cli python messages": python_messages}


def main_bench() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mbox", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for path in args.mbox or DEFAULTS:
        if not path.is_file():
            parser.error(f"no mbox at {path}")
        stages(path, args.rounds)


if __name__ == "__main__":
    main_bench()
