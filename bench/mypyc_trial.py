"""What compiling urlsift with mypyc would give (issue 22, an experiment): the benchmarks of bench/
run on the pure Python package and on compiled copies of it, interleaved in one session.

    python bench/mypyc_trial.py [--tree TREE] [--corpora DIR] [--sets safe,all] [--rounds N]
                                [--only NAME ...] [--keep DIR | --reuse DIR]

TREE's ``src/urlsift`` (this checkout's by default) is copied to a temporary folder and compiled
there with mypyc (opt level 3, all modules in one shared library, with TREE's mypy configuration);
the source tree is never touched. Two sets of modules are compiled, each in its own copy:

- ``safe``: every module that compiles, but those that tests monkeypatch at module level
  (``MONKEYPATCHED``: a compiled module calls its own and its group's functions directly, so a
  patched function is not the one called; a patched constant is still looked up, but is left out
  too, to keep the test suite meaningful);
- ``all``: every module that compiles (``NOT_COMPILED`` says why the rest do not).

A module left out stays Python in the copy, imported by the compiled ones as any module is.

Each benchmark script of ``benches`` runs as a subprocess, with ``PYTHONPATH`` at ``TREE/src``
(pure) or at a copy (compiled), in rounds: pure, then each set, one after the other, so that a slow
spell of this shared machine hits all of them alike. Each figure is the best of the rounds (the
scripts measure process time, best of their own rounds, and print ratios to a same-run floor
where they have one); the speed-up is the compiled figure over the pure one (or the pure over the
compiled where less is better). ``--keep DIR`` keeps the compiled copies (``DIR/safe``,
``DIR/all``), ``--reuse DIR`` runs on copies kept before, without compiling.

The test suite against a copy: ``PYTHONPATH=DIR/all python -m pytest -q -n 2
--ignore=tests/scan/test_linear.py -p no:cacheprovider``. With mypyc 2.4.1 (2026-11-24) 14 tests failed
against ``all``, 9 of them against ``safe`` too, for these reasons:

- a compiled function checks its arguments' declared types first, so ``validate(None)`` and
  ``extract(b"...")`` say "str object expected; got None" where urlsift says what to do (test_api,
  test_messages, test_extract);
- compiled code checks what a third-party stub declares: typeshed's ``TarInfo.sparse`` is
  ``bytes | None`` (it is a list: a sparse tar member is an internal error, sources/archives.py), and
  types-tqdm's ``tqdm.refresh`` returns None (it returns True: the progress bar crashes);
- a compiled frozen dataclass cannot be unpickled (mypyc/mypyc#1213): ``pieces.Joined`` sent to a
  Dask worker (test_dask);
- in ``all`` only, the 5 tests that monkeypatch a function of cli, results or sources/mime: the
  compiled callers call the original.

The growth tests that count Python steps (tests/growth.py) pass, but see little: compiled code
makes no trace events (extract on 1,000 wrapped URLs: 3,007 steps against 62,051 pure).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from _corpora import SHARED

BENCH = Path(__file__).resolve().parent

NOT_COMPILED = {
    "__init__.py": "module __getattr__: the compiled module crashes on import (mypyc 2.4.1 calls it "
    "for __file__ before the module's globals are set)",
    "grammar/__init__.py": "module __getattr__ (MODERN): as urlsift/__init__.py",
    "__main__.py": "python -m urlsift runs a module's code object, which a compiled module has not",
    "_model.py": "Verdict.__init__ stores its instance __dict__ in one step: a compiled class has none",
    "output.py": "a row's int field holds a stand-in object (cast(int, _SLOT)): compiled code checks "
    "the type of what it reads as int",
    "grammar/_bnf.py": "functools.cached_property on native classes: mypyc 2.4.1 compiles it as a plain "
    "property, recomputed at each use (python/mypy#21611): validate 4x slower, the modern profile 48x",
    "grammar/_profile.py": "cached_property (SchemeSyntax.pattern): as grammar/_bnf.py",
    "rows.py": "Row subclasses a NamedTuple class (mypyc: inheriting from builtin types)",
    "errors.py": "its exceptions subclass ImportError, RuntimeError, ValueError (mypyc: inheriting "
    "from builtin types)",
    "units.py": "ClusterError subclassed RuntimeError here; it moved to errors.py (issue 29), and "
    "units.py has not been tried since",
    "sources/packed.py": "DiskError subclasses OSError (mypyc: inheriting from builtin types)",
    "workers.py": "mypyc crashes on `with _Processes(...)` (a ProcessPoolExecutor subclass)",
    "dask.py": "a class defined in a function (mypyc: nested classes)",
    "sources/warc.py": "`break` inside try/finally (mypyc: not implemented)",
}
"""Modules left out of every set, and why: mypyc does not compile them as they are, or what it
makes of them fails or slows down at run time (a ``native_class=False`` decorator or a rewrite
would get most of them through: source changes this trial does not make)."""

MONKEYPATCHED = {
    "cli.py": "tests patch walk, scan_unit, _cores",
    "matches.py": "tests patch extract_each, _HEADER_CACHE_SIZE",
    "results.py": "tests patch _message, read_path",
    "sources/mime.py": "tests patch read",
    "sources/__init__.py": "tests patch MAX_LINE",
    "sources/mbox.py": "tests patch BLOCK_BYTES",
    "sources/jsonl.py": "tests patch _BLOCK",
    "parquet.py": "tests patch FILE_ROWS, ROW_GROUP",
}
"""Modules that compile but that tests monkeypatch at module level: left out of the ``safe`` set."""

SETS = {"safe": {**NOT_COMPILED, **MONKEYPATCHED}, "all": NOT_COMPILED}
"""Each set of compiled modules, as the modules it leaves out."""

SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(name="urlsift_mypyc_trial", ext_modules=mypycify({arguments!r}, opt_level="3"))
"""


@dataclass(frozen=True)
class Figure:
    """One figure a benchmark prints: found by ``pattern`` (its first group) in the output."""

    name: str
    pattern: str
    higher_is_better: bool = True


@dataclass(frozen=True)
class Bench:
    name: str
    argv: tuple[str, ...]
    figures: Callable[[str], Iterator[tuple[Figure, float]]]


def archive(output: str) -> Iterator[tuple[Figure, float]]:
    yield from found(
        output,
        Figure("CLI MB/s", r"urlsift --format jsonl\s+([\d.]+) MB/s"),
        Figure("CLI / bare email loop", r"ratio\s+([\d.]+)"),
    )


def extract(output: str) -> Iterator[tuple[Figure, float]]:
    """The first table: for each input, % of the floor without and with naked URLs."""
    percent = r"\d+ \(([\d.]+)%\) \| \d+"  # MB/s (% of the floor) | URLs
    row = re.compile(rf"^\| (\S+) \| [\d.]+ \| \d+ \| {percent} \| {percent} \|$")
    for line in output.splitlines():
        if m := row.match(line):
            name = Path(m[1]).name
            yield Figure(f"{name}: naked=False, % of floor", ""), float(m[2])
            yield Figure(f"{name}: with naked, % of floor", ""), float(m[3])


def validate(output: str) -> Iterator[tuple[Figure, float]]:
    yield from found(
        output,
        Figure("strict, us a URL", r"urlsift\.validate\s+[\d,]+ /s\s+([\d.]+) us", False),
        Figure("strict / urlsplit time", r"urlsift / urlsplit \(uncached\): ([\d.]+)x", False),
        Figure("modern / urlsplit time", r"modern / urlsplit \(uncached\):\s+([\d.]+)x", False),
    )


def linear(output: str) -> Iterator[tuple[Figure, float]]:
    """MB/s at the largest size of each shape, and the slowest shape of each section."""
    section, slowest = "", dict[str, float]()
    for line in output.splitlines():
        if line.startswith(("validate", "extract")):
            section = line.split(" (")[0]
        elif m := re.match(r"^(.+?)\s+(?:[\d.]+ms\s+){3}.*?([\d.]+)$", line):
            speed = float(m[2])
            slowest[section] = min(slowest.get(section, speed), speed)
            yield Figure(f"{section}: {m[1]}, MB/s", ""), speed
    for section, speed in slowest.items():
        yield Figure(f"{section}: slowest shape, MB/s", ""), speed


def found(output: str, *figures: Figure) -> Iterator[tuple[Figure, float]]:
    for figure in figures:
        if m := re.search(figure.pattern, output):
            yield figure, float(m[1])


def benches(shared: Path) -> tuple[Bench, ...]:
    """The benchmarks, on the shared corpora in ``shared``: issue 22's figures."""
    mail = shared / "mail"
    return (
        Bench("archive blinux-list", ("archive_speed.py", str(mail / "blinux-list.mbox")), archive),
        Bench("archive r-help", ("archive_speed.py", str(mail / "r-help-2003-February.mbox")), archive),
        Bench("archive r-devel", ("archive_speed.py", str(mail / "r-devel-2000-May.mbox")), archive),
        Bench("extract", ("extract_speed.py", "--corpora", str(shared)), extract),
        Bench("validate", ("validate_speed.py", "--corpora", str(shared)), validate),
        Bench("linear strict", ("linear.py", "strict"), linear),
    )


def compile_copy(tree: Path, folder: Path, left_out: dict[str, str]) -> tuple[float, float, list[str]]:
    """Copy ``tree``'s package into ``folder`` and compile there what ``left_out`` does not name:
    the seconds it took (wall, and CPU of mypyc and the C compiler), and the modules compiled."""
    package = folder / "urlsift"
    shutil.copytree(tree / "src" / "urlsift", package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    modules = sorted(
        str(path.relative_to(folder))
        for path in package.rglob("*.py")
        if str(path.relative_to(package)) not in left_out
    )
    arguments = ["--config-file", str(tree / "pyproject.toml"), *modules]
    (folder / "setup_mypyc.py").write_text(SETUP.format(arguments=arguments))
    started, cpu = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "setup_mypyc.py", "build_ext", "--inplace"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"mypyc failed in {folder}:\n{(done.stdout + done.stderr)[-4000:]}")
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_seconds = used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime
    return time.perf_counter() - started, cpu_seconds, modules


def run_bench(bench: Bench, src: Path) -> dict[Figure, float]:
    environment = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, str(BENCH / bench.argv[0]), *bench.argv[1:]]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{bench.name} failed with PYTHONPATH={src}:\n{done.stderr[-4000:]}")
    figures = dict(bench.figures(done.stdout))
    if not figures:
        raise SystemExit(f"no figures found in the output of {bench.name}:\n{done.stdout[-2000:]}")
    return figures


def better(figure: Figure, a: float, b: float) -> float:
    return max(a, b) if figure.higher_is_better else min(a, b)


def speed_up(figure: Figure, pure: float, compiled: float) -> float:
    return compiled / pure if figure.higher_is_better else pure / compiled


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=BENCH.parent, help="the checkout (default: this one)")
    parser.add_argument(
        "--corpora", type=Path, default=SHARED, metavar="DIR", help=f"the shared corpora (default: {SHARED})"
    )
    parser.add_argument("--sets", default="safe,all", help="compiled sets, of: safe, all (default: both)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of every benchmark (default: 2)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="the benchmarks whose name starts so")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--keep", type=Path, metavar="DIR", help="compile into DIR/SET and keep it")
    where.add_argument("--reuse", type=Path, metavar="DIR", help="the copies compiled before into DIR/SET")
    args = parser.parse_args()
    sets = args.sets.split(",")
    if unknown := set(sets) - set(SETS):
        parser.error(f"no set {', '.join(sorted(unknown))} (choose from {', '.join(SETS)})")
    if not (args.tree / "src" / "urlsift").is_dir():
        parser.error(f"no src/urlsift in {args.tree}")
    if not (args.corpora / "mail").is_dir():
        parser.error(f"no shared corpora at {args.corpora} (--corpora DIR)")
    chosen = [
        b for b in benches(args.corpora) if not args.only or any(b.name.startswith(o) for o in args.only)
    ]
    base = args.reuse or args.keep or Path(tempfile.mkdtemp(prefix="mypyc_trial_"))
    copies = {name: base / name for name in sets}
    if args.reuse is None:
        for name, folder in copies.items():
            folder.mkdir(parents=True)
            seconds, cpu_seconds, modules = compile_copy(args.tree, folder, SETS[name])
            libraries = [*folder.glob("*.so"), *(folder / "urlsift").rglob("*.so")]  # not build/'s copies
            size = sum(path.stat().st_size for path in libraries) / 1e6
            spent = f"{seconds:.0f} s ({cpu_seconds:.0f} s of CPU)"
            print(f"{name}: {len(modules)} modules compiled in {spent}, {size:.1f} MB of .so")
        for name, why in {**NOT_COMPILED, **MONKEYPATCHED}.items():
            print(f"  left out of {'both' if name in NOT_COMPILED else 'safe'}: {name}: {why}")
    variants = {"pure": args.tree / "src", **copies}
    columns = " | ".join(f"{name} | speed-up" for name in sets)
    print(f"\n| benchmark | figure | pure | {columns} |")
    print("| --- | --- | ---: |" + " ---: | ---: |" * len(sets), flush=True)
    for bench in chosen:
        best: dict[str, dict[Figure, float]] = {variant: {} for variant in variants}
        for _ in range(args.rounds):
            for variant, src in variants.items():
                for figure, value in run_bench(bench, src).items():
                    old = best[variant].get(figure)
                    best[variant][figure] = value if old is None else better(figure, old, value)
        for figure, pure in best["pure"].items():
            compiled = [best[name][figure] for name in sets]
            cells = " | ".join(f"{value:.2f} | {speed_up(figure, pure, value):.2f}x" for value in compiled)
            print(f"| {bench.name} | {figure.name} | {pure:.2f} | {cells} |", flush=True)
    if args.reuse is None and args.keep is None:
        shutil.rmtree(base)


if __name__ == "__main__":
    main()
