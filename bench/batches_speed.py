"""``urlsift.scan_batches`` into a pyarrow table beside ``urlsift.scan`` into a list of ``Row``s, on
one file, measured in the same run (issue 29's target: the batches at least 2x as fast).

    python bench/batches_speed.py [FILE | --shared] [--rounds N] [--invalid]

The file: FILE, else blinux-list of the shared corpora (--shared), else r-devel-2000-May, the
biggest mbox of the repository's corpora/. ``--invalid`` keeps the rejected candidates too (many
more rows a message). Three ways are timed (CPU time of this process, best of N rounds, the ways
interleaved so a slow spell of the machine hits each):

- ``scan -> rows``: ``list(urlsift.scan(FILE))``, one ``Row`` a URL;
- ``scan -> rows -> arrow``: the same, then ``parquet.table(rows)`` (a table from today's rows);
- ``scan_batches -> arrow``: ``pyarrow.concat_tables(batch.to_arrow() for batch in ...)``.

The ratio is the first's time over the last's. The caches of verdicts and header matches are
emptied before each run, so each starts cold, as a fresh process would.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _corpora import REPO, SHARED

import urlsift
from urlsift.extract import _judge, _judge_unclosed, _judge_www
from urlsift.matches import _HEADER_MATCHES
from urlsift.results import _judge as _second_opinion

DEFAULT = REPO / "mail" / "r-devel-2000-May.mbox"
SHARED_DEFAULT = SHARED / "mail" / "blinux-list.mbox"


def _cold() -> None:
    for cache in (_judge, _judge_www, _judge_unclosed, _second_opinion):
        cache.cache_clear()
    _HEADER_MATCHES.clear()


def best(rounds: int, runs: dict[str, Callable[[], Any]]) -> tuple[dict[str, float], dict[str, int]]:
    """Each run's best CPU time of ``rounds``, and the rows it gave."""
    times = dict.fromkeys(runs, float("inf"))
    rows = dict.fromkeys(runs, 0)
    for _ in range(rounds):
        for name, run in runs.items():
            _cold()
            gc.collect()
            started = time.process_time()
            found = run()
            times[name] = min(times[name], time.process_time() - started)
            rows[name] = len(found) if isinstance(found, list) else found.num_rows
            del found
    return times, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?")
    parser.add_argument("--shared", action="store_true", help=f"read {SHARED_DEFAULT}")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--invalid", action="store_true", help="the rejected candidates too")
    args = parser.parse_args()
    if args.file and args.shared:
        parser.error("a FILE or --shared, not both")
    path = Path(args.file or (SHARED_DEFAULT if args.shared else DEFAULT))
    if not path.is_file():
        parser.error(f"no file at {path}")
    try:
        import pyarrow as pa

        from urlsift.parquet import table
    except ImportError:
        parser.error("pyarrow is needed: pip install 'urlsift[parquet]'")
    keywords = {"invalid": args.invalid}

    def rows() -> list[urlsift.Row | urlsift.Report]:
        return list(urlsift.scan(path, **keywords))

    def rows_arrow() -> Any:
        return table([found for found in urlsift.scan(path, **keywords) if isinstance(found, urlsift.Row)])

    def batches_arrow() -> Any:
        return pa.concat_tables(batch.to_arrow() for batch in urlsift.scan_batches(path, **keywords))

    ways = {"scan -> rows": rows, "scan -> rows -> arrow": rows_arrow, "scan_batches -> arrow": batches_arrow}
    times, found = best(args.rounds, ways)
    megabytes = path.stat().st_size / 1e6
    today = datetime.date.today().isoformat()
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    print(f"{path.name}: {megabytes:.1f} MB, {today}, {machine}, pyarrow {pa.__version__}")
    print(f"best of {args.rounds}, CPU seconds{' (--invalid)' if args.invalid else ''}")
    for name, seconds in times.items():
        print(f"  {name:24} {seconds:8.3f} s  {megabytes / seconds:6.1f} MB/s  {found[name]:8} rows")
    ratio = times["scan -> rows"] / times["scan_batches -> arrow"]
    print(f"  ratio rows / batches     {ratio:8.2f}   (target >= 2, issue 29)")


if __name__ == "__main__":
    main()
