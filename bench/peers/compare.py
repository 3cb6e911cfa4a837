"""urlsift beside the URL extractors people use, run the same way on the same files in one run.

    bash bench/peers/setup.sh          # the peers: a venv (PyPI), apt (urifind), npm (linkify-it)
    python bench/peers/compare.py      # the tables; --quick for a short run

Each tool runs as a process of its own on a file and prints one URL a line (a driver per peer
calls its documented API; urlscan, urifind and urlsift are their command lines). Accuracy: the
distinct URLs each tool prints for a corpus file against the URLs a reader found there
(tests/expected/: every entry but the `false` ones), as precision and recall. Speed: MB/s on 5 MB
and 50 MB of the corpora's RFC and documentation texts repeated, with the peak memory of the
process (its own getrusage) and how the time grows from 5 to 50 MB. Adversarial inputs at 100 KB
and 1 MB, each run capped in time: who crashes, who times out, who grows super-linearly.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
WORK = HERE / "work"
VENV = HERE / ".venv" / "bin"


@dataclass
class Tool:
    name: str
    command: Callable[[Path], list[str]]
    available: bool


def tools() -> list[Tool]:
    def driver(name: str) -> Callable[[Path], list[str]]:
        return lambda path: [str(VENV / "python"), str(HERE / "drivers" / f"{name}_driver.py"), str(path)]

    def node_driver(path: Path) -> list[str]:
        return ["node", str(HERE / "drivers" / "linkify_it_driver.js"), str(path)]

    urlsift = shutil.which("urlsift") or str(Path(sys.executable).parent / "urlsift")
    node_ok = shutil.which("node") is not None and (HERE / "node_modules" / "linkify-it").exists()
    return [
        Tool("urlsift", lambda path: [urlsift, "--no-progress", str(path)], Path(urlsift).exists()),
        Tool("urlextract", driver("urlextract"), (VENV / "python").exists()),
        Tool("linkify-it-py", driver("linkify_it_py"), (VENV / "python").exists()),
        Tool("iocextract", driver("iocextract"), (VENV / "python").exists()),
        Tool("urlscan", lambda path: [str(VENV / "urlscan"), "-n", str(path)], (VENV / "urlscan").exists()),
        Tool("urifind", lambda path: ["urifind", str(path)], shutil.which("urifind") is not None),
        Tool("linkify-it", node_driver, node_ok),
    ]


@dataclass
class Run:
    urls: list[str]
    seconds: float
    peak_mb: float
    status: str  # "ok", "exit N", "timeout"


def run(tool: Tool, path: Path, cap: float) -> Run:
    """``tool`` on ``path``: its output, wall time, and peak RSS. The peak comes from GNU time, which
    starts the tool from a small process: a child forked from this one would inherit this
    process's high-water mark (Linux keeps it across exec), and read 100 MB for anything."""
    timer = Path("/usr/bin/time")  # GNU time (Debian's package "time")
    measure = [str(timer), "-f", "%M", "-o", str(WORK / "rss.txt")] if timer.exists() else []
    with open(WORK / "out.txt", "wb") as out:
        started = time.perf_counter()
        process = subprocess.Popen(
            [*measure, *tool.command(path)], stdout=out, stderr=subprocess.DEVNULL, start_new_session=True
        )
        try:
            code = process.wait(timeout=cap)
            status = "ok" if code in (0, 1) else f"exit {code}"  # urlsift: 1 = none found
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the tool too, not only GNU time above it
            process.wait()
            status = f"timeout (>{cap:.0f} s)"
        seconds = time.perf_counter() - started
    urls = (WORK / "out.txt").read_text(encoding="utf-8", errors="replace").split()
    peak = float("nan")
    if measure and status == "ok":
        peak = int((WORK / "rss.txt").read_text().split()[-1]) / 1024
    return Run(urls, seconds, peak, status)


def truth(expected: Path) -> set[str]:
    entries = [json.loads(line) for line in expected.read_text(encoding="utf-8").splitlines()]
    return {entry["url"] for entry in entries if entry["strict"] != "false"}


def accuracy(available: list[Tool], cap: float) -> None:
    print("## Accuracy: distinct URLs found: precision / recall against the expected files\n")
    totals = {tool.name: [0, 0, 0] for tool in available}  # found, right, present
    header = "| file | present | " + " | ".join(tool.name for tool in available) + " |"
    print(header)
    print("| --- | ---: |" + " ---: |" * len(available))
    for expected in sorted((ROOT / "tests" / "expected").glob("*/*.jsonl")):
        corpus = ROOT / "corpora" / expected.parent.name / expected.name.removesuffix(".jsonl")
        present = truth(expected)
        if not present:
            continue
        cells = []
        for tool in available:
            result = run(tool, corpus, cap)
            found = set(result.urls)
            right = len(found & present)
            totals[tool.name][0] += len(found)
            totals[tool.name][1] += right
            totals[tool.name][2] += len(present)
            precision = right / len(found) if found else 1.0
            cell = f"{len(found)}: {precision:.2f} / {right / len(present):.2f}"
            cells.append(cell if result.status == "ok" else f"{cell} ({result.status})")
        print(f"| `{expected.parent.name}/{corpus.name}` | {len(present)} | " + " | ".join(cells) + " |")
    cells = []
    for tool in available:
        found_all, right_all, present_all = totals[tool.name]
        cells.append(
            f"**{found_all}: {right_all / max(found_all, 1):.2f} / {right_all / max(present_all, 1):.2f}**"
        )
    print(f"| all | {totals[available[0].name][2]} | " + " | ".join(cells) + " |\n")


def build(path: Path, megabytes: int) -> Path:
    """The corpora's RFC and documentation texts, repeated to ``megabytes`` MB."""
    if not path.exists():
        sources = sorted((ROOT / "corpora" / "rfc").iterdir()) + sorted((ROOT / "corpora" / "text").iterdir())
        block = b"\n".join(source.read_bytes() for source in sources)
        data = block * (megabytes * 10**6 // len(block) + 1)
        path.write_bytes(data[: megabytes * 10**6])
    return path


def speed(available: list[Tool], sizes: tuple[int, int], cap: float) -> None:
    small, large = (build(WORK / f"corpora-{n}MB.txt", n) for n in sizes)
    print(f"## Speed: the corpora's texts repeated to {sizes[0]} MB and {sizes[1]} MB\n")
    print(f"| tool | MB/s at {sizes[1]} MB | peak memory | time {sizes[0]} MB -> {sizes[1]} MB |")
    print("| --- | ---: | ---: | ---: |")
    for tool in available:
        first = run(tool, small, cap)
        if first.status != "ok":
            print(f"| {tool.name} | {first.status} at {sizes[0]} MB | | |")
            continue
        expected = first.seconds * sizes[1] / sizes[0]
        if expected > cap:  # a run this long would tell nothing more than the small one
            rate = sizes[0] / first.seconds
            print(
                f"| {tool.name} | {rate:.2f} at {sizes[0]} MB ({sizes[1]} MB not run: ~{expected:.0f} s) |"
                f" {first.peak_mb:.0f} MB at {sizes[0]} MB | |"
            )
            continue
        second = run(tool, large, cap)
        if second.status != "ok":
            rate = sizes[0] / first.seconds
            print(
                f"| {tool.name} | {second.status} ({rate:.2f} at {sizes[0]} MB) | {first.peak_mb:.0f} MB at"
                f" {sizes[0]} MB | over {cap / first.seconds:.0f}x for {sizes[1] // sizes[0]}x |"
            )
            continue
        rate = sizes[1] / second.seconds
        growth = second.seconds / first.seconds
        times = f"{growth:.1f}x for {sizes[1] // sizes[0]}x"
        print(f"| {tool.name} | {rate:.2f} | {second.peak_mb:.0f} MB | {times} |")
    print()


ADVERSARIAL: dict[str, Callable[[int], str]] = {
    "'<' repeated": lambda n: "<" * n,
    "'<URL:' with no '>'": lambda n: "<URL:" * (n // 5),
    "'http://' then letters": lambda n: "http://" + "a" * n,
    "deep parentheses": lambda n: "http://h/" + "(" * (n // 2) + ")" * (n // 2),
    "'http://' repeated": lambda n: "http://" * (n // 7),
}


def adversarial(available: list[Tool], sizes: tuple[int, int], cap: float) -> None:
    small, large = sizes[0] // 1000, sizes[1] // 1000
    print(f"## Adversarial inputs: {small} KB and {large} KB, each run capped at {cap:.0f} s\n")
    print("| input | " + " | ".join(tool.name for tool in available) + " |")
    print("| --- |" + " ---: |" * len(available))
    for name, make in ADVERSARIAL.items():
        paths: list[Path] = []
        for size in sizes:
            path = WORK / f"adversarial-{len(paths)}.txt"
            path.write_text(make(size), encoding="utf-8")
            paths.append(path)
        cells = []
        for tool in available:
            first = run(tool, paths[0], cap)
            if first.status != "ok":
                cells.append(f"{first.status} at {sizes[0] // 1000} KB")
                continue
            second = run(tool, paths[1], cap)
            if second.status != "ok":
                cells.append(f"{first.seconds:.2f} s, then {second.status}")
                continue
            growth = second.seconds / first.seconds
            flag = " **super-linear**" if growth > 30 else ""
            cells.append(f"{second.seconds:.2f} s ({growth:.0f}x){flag}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="1 MB and 10 MB, 100 KB adversarial only")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds a run may take")
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    every = tools()
    available = [tool for tool in every if tool.available]
    for tool in every:
        if not tool.available:
            print(f"(skipped: {tool.name} is not installed; see bench/peers/setup.sh)")
    print(f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, Python {sys.version.split()[0]}\n")
    accuracy(available, args.cap)
    speed(available, (1, 10) if args.quick else (5, 50), args.cap * 5)
    adversarial(available, (10_000, 100_000) if args.quick else (100_000, 1_000_000), args.cap)


if __name__ == "__main__":
    main()
